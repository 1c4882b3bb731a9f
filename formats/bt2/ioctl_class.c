/* SPDX-License-Identifier: MIT */
/*
 * The event class of one schema row, and the plan that fills it.
 *
 * Payload of "kfd:<event_name>", in order:
 *
 *   fd, request
 *   the argument struct's fields in table order, padding left out:
 *     a field the kernel reads:    <name>      from the before-image
 *     a field the kernel writes:   <name>      from the after-image
 *     a field it reads and writes: <name>_in   from the before-image, then
 *                                  <name>      from the after-image
 *   args: when fields form a union chosen by another field (DBG_TRAP's op,
 *     AMDGPU_INFO's query), a variant on that field with one structure per
 *     arm and an empty "none" arm for every other value
 *   each indirect buffer: <buf>_in_len/<buf>_in (before the call) and/or
 *     <buf>_out_len/<buf>_out (after it), dynamic arrays of the element's
 *     fields, of integers, or of bytes; buffers that belong to a union arm
 *     live in that arm
 *   ret, err, dur_ns
 *   derived: heap (ALLOC_MEMORY_OF_GPU), delta (FREE_MEMORY_OF_GPU)
 *
 * ioctl_variant.c builds the variants (ioctl_class.h).
 *
 * Plain names are the same as the lttng provider's (tracer/lttng), which
 * also takes a written field from the after-image, so an analysis keyed on
 * field names reads both kinds of trace.
 */
#include <stdlib.h>
#include <string.h>

#include "ioctl_class.h"

struct kbt_op *
kbt_plan_add(struct kbt_plan *p)
{
	if (p->nops == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 8;
		struct kbt_op *n = realloc(p->ops, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->ops = n;
		p->cap = cap;
	}
	memset(&p->ops[p->nops], 0, sizeof(p->ops[0]));
	return &p->ops[p->nops++];
}

void
kbt_ic_plan_release(struct kbt_plan *p)
{
	unsigned int i, j;

	for (i = 0; i < p->nops; i++) {
		struct kbt_op *op = &p->ops[i];

		for (j = 0; j < op->narms; j++) {
			kbt_ic_plan_release(op->arms[j].plan);
			free(op->arms[j].plan);
		}
		free(op->arms);
		if (op->elem_plan) {
			kbt_ic_plan_release(op->elem_plan);
			free(op->elem_plan);
		}
	}
	free(p->ops);
	memset(p, 0, sizeof(*p));
}

uint64_t
kbt_ic_last_member(bt_field_class *st)
{
	return bt_field_class_structure_get_member_count(st) - 1;
}

int
kbt_ic_is_numeric(const struct kfd_field *f)
{
	return (f->width == 1 || f->width == 2 || f->width == 4 ||
		f->width == 8) && f->role != KFD_ROLE_STRING &&
	       f->role != KFD_ROLE_BYTES;
}

/* The name after the union prefix: "enable.exception_mask" -> "exception_mask". */
const char *
kbt_ic_leaf(const char *name)
{
	const char *d = strchr(name, '.');

	return d && d[1] ? d + 1 : name;
}

/*
 * One member for field @f read from @image. Return: the member's field
 * class (borrowed), or NULL on failure.
 */
static bt_field_class *
add_one(struct build *b, struct kbt_plan *p, bt_field_class *st,
	const struct kfd_field *f, const char *name, uint8_t image)
{
	struct kbt_op *op;
	bt_field_class *fc, *elem;
	uint8_t kind;

	if (f->role == KFD_ROLE_STRING) {
		fc = bt_field_class_string_create(b->tc);
		kind = KBT_OP_STRING;
	} else if (!kbt_ic_is_numeric(f)) {
		elem = kbt_fc_uint(b->tc, 8, 1);
		fc = elem ? bt_field_class_array_static_create(b->tc, elem,
							       f->width) : NULL;
		bt_field_class_put_ref(elem);
		kind = KBT_OP_BYTES;
	} else {
		fc = kbt_fc_for_field(b->tc, f);
		kind = KBT_OP_INT;
	}
	if (!fc)
		return NULL;
	if (st == b->payload ? kbt_struct_add_field(st, name, fc) :
	    kbt_struct_add_unique(st, name, fc))
		return NULL;
	op = kbt_plan_add(p);
	if (!op)
		return NULL;
	op->kind = kind;
	op->image = image;
	op->f = f;
	op->member = kbt_ic_last_member(st);
	return kbt_flag_names_add(b->tc, p, st, f, name, image) ? NULL : fc;
}

/*
 * A field's member(s) by direction. Return: the class of the member holding
 * the value the caller passed in (the selector of a union), or NULL.
 */
bt_field_class *
kbt_ic_add_field(struct build *b, struct kbt_plan *p, bt_field_class *st,
		 const struct kfd_field *f, const char *raw_name, int *err)
{
	char name[NAME_MAX_LEN], in_name[NAME_MAX_LEN + 4];
	bt_field_class *fc = NULL;

	if (f->role == KFD_ROLE_PAD || (!kbt_ic_is_numeric(f) && !f->width))
		return NULL;
	kc_field_name(raw_name, name, sizeof(name));
	switch (f->dir) {
	case KFD_DIR_OUT:
		fc = add_one(b, p, st, f, name, KBT_AFTER);
		break;
	case KFD_DIR_INOUT:
		snprintf(in_name, sizeof(in_name), "%s_in", name);
		fc = add_one(b, p, st, f, in_name, KBT_BEFORE);
		if (fc && !add_one(b, p, st, f, name, KBT_AFTER))
			fc = NULL;
		break;
	default:
		fc = add_one(b, p, st, f, name, KBT_BEFORE);
		break;
	}
	if (!fc)
		*err = 1;
	return fc;
}

/* The element of buffer @ib's arrays, and how to fill it. */
static bt_field_class *
elem_class(struct build *b, const struct kfd_indirect *ib, uint8_t *kind,
	   struct kbt_plan **eplan)
{
	const struct kfd_struct_desc *ed = ib->elem;
	bt_field_class *st;
	unsigned int i, n = 0, one = 0;
	int err = 0;

	*eplan = NULL;
	if (ed) {
		for (i = 0; i < ed->nfields; i++)
			if (ed->fields[i].role != KFD_ROLE_PAD) {
				n++;
				one = i;
			}
	}
	if (!ed || !n || !ib->elem_size) {
		if (ib->elem_size == 2 || ib->elem_size == 4 ||
		    ib->elem_size == 8) {
			*kind = KBT_ELEM_UINT;
			return kbt_fc_uint(b->tc, ib->elem_size * 8, 1);
		}
		*kind = KBT_ELEM_BYTES;
		return kbt_fc_uint(b->tc, 8, 1);
	}
	*eplan = calloc(1, sizeof(**eplan));
	if (!*eplan)
		return NULL;
	/* A one-field element (a gpu_id list) is an array of that field. */
	if (n == 1 && kbt_ic_is_numeric(&ed->fields[one]) &&
	    ed->fields[one].offset == 0 &&
	    ed->fields[one].width == ib->elem_size) {
		struct kbt_op *op = kbt_plan_add(*eplan);

		if (!op)
			return NULL;
		op->kind = KBT_OP_INT;
		op->f = &ed->fields[one];
		*kind = KBT_ELEM_FIELD;
		return kbt_fc_for_field(b->tc, &ed->fields[one]);
	}
	*kind = KBT_ELEM_STRUCT;
	st = bt_field_class_structure_create(b->tc);
	if (!st)
		return NULL;
	for (i = 0; i < ed->nfields && !err; i++) {
		const struct kfd_field *f = &ed->fields[i];
		char name[NAME_MAX_LEN];

		if (f->role == KFD_ROLE_PAD || (!kbt_ic_is_numeric(f) && !f->width))
			continue;
		kc_field_name(f->name, name, sizeof(name));
		if (!add_one(b, *eplan, st, f, name, KBT_BEFORE))
			err = 1;
	}
	if (err) {
		bt_field_class_put_ref(st);
		return NULL;
	}
	return st;
}

static int
add_buf_image(struct build *b, struct kbt_plan *p, bt_field_class *st,
	      int bi, const char *base, uint8_t image)
{
	const struct kfd_indirect *ib = &b->d->bufs[bi];
	char name[NAME_MAX_LEN + 8], len_name[NAME_MAX_LEN + 16];
	bt_field_class *len, *elem, *arr;
	struct kbt_plan *eplan = NULL;
	struct kbt_op *op;
	uint8_t kind = KBT_ELEM_BYTES;

	snprintf(name, sizeof(name), "%s_%s", base,
		 image == KBT_BEFORE ? "in" : "out");
	/* A unique array name first, so its length name is unique too. */
	if (bt_field_class_structure_borrow_member_by_name(st, name))
		snprintf(name, sizeof(name), "%s_%s_%d", base,
			 image == KBT_BEFORE ? "in" : "out", bi);
	snprintf(len_name, sizeof(len_name), "%s_len", name);
	len = kbt_fc_uint(b->tc, 32, 0);
	elem = elem_class(b, ib, &kind, &eplan);
	if (!len || !elem)
		goto fail;
	arr = bt_field_class_array_dynamic_create(b->tc, elem, len);
	bt_field_class_put_ref(elem);
	elem = NULL;
	if (kbt_struct_add(st, len_name, len)) {
		len = NULL;
		bt_field_class_put_ref(arr);
		goto fail;
	}
	len = NULL;
	if (kbt_struct_add(st, name, arr))
		goto fail;
	op = kbt_plan_add(p);
	if (!op)
		goto fail;
	op->kind = KBT_OP_BUF;
	op->image = image;
	op->member = kbt_ic_last_member(st);
	op->buf_index = bi;
	op->buf = ib;
	op->elem_kind = kind;
	op->elem_plan = eplan;
	return 0;
fail:
	bt_field_class_put_ref(len);
	bt_field_class_put_ref(elem);
	if (eplan) {
		kbt_ic_plan_release(eplan);
		free(eplan);
	}
	return -1;
}

int
kbt_ic_add_buf(struct build *b, struct kbt_plan *p, bt_field_class *st, int bi)
{
	const struct kfd_indirect *ib = &b->d->bufs[bi];
	char base[NAME_MAX_LEN];

	kc_field_name(ib->name ? ib->name : "buf", base, sizeof(base));
	if ((ib->dir & KFD_DIR_IN) &&
	    add_buf_image(b, p, st, bi, base, KBT_BEFORE))
		return -1;
	if ((ib->dir & KFD_DIR_OUT) &&
	    add_buf_image(b, p, st, bi, base, KBT_AFTER))
		return -1;
	return 0;
}

static int
add_args(struct build *b, struct kbt_plan *p, bt_field_class *st)
{
	unsigned int i, j;
	int err = 0;

	b->sel_fc = calloc(b->nfields ? b->nfields : 1, sizeof(*b->sel_fc));
	b->in_arm = calloc(b->nfields ? b->nfields : 1, 1);
	if (!b->sel_fc || !b->in_arm)
		return -1;
	for (i = 0; i < b->nfields; i++)
		b->in_arm[i] = b->fields[i].select >= 0 &&
			       kbt_ic_valid_selector(b, b->fields[i].select);
	for (i = 0; i < b->nfields && !err; i++)
		if (!b->in_arm[i])
			b->sel_fc[i] = kbt_ic_add_field(b, p, st, &b->fields[i],
							b->fields[i].name,
							&err);
	if (err)
		return -1;
	/* One variant per selector, in the order selectors first appear. */
	for (i = 0; i < b->nfields; i++) {
		int s = -1, seen = 0;

		if (b->in_arm[i])
			s = b->fields[i].select;
		for (j = 0; s >= 0 && j < i; j++)
			if (b->in_arm[j] && b->fields[j].select == s)
				seen = 1;
		if (s >= 0 && !seen && b->sel_fc[s] && kbt_ic_add_variant(b, p, st, s))
			return -1;
	}
	/* Buffers of arms with no member field still need their variant. */
	for (i = 0; i < b->d->nbufs; i++) {
		int s = b->d->bufs[i].select, seen = 0;

		if (!kbt_ic_valid_selector(b, s) || !b->sel_fc[s])
			continue;
		for (j = 0; j < b->nfields; j++)
			if (b->in_arm[j] && b->fields[j].select == s)
				seen = 1;
		for (j = 0; j < i; j++)
			if (b->d->bufs[j].select == s)
				seen = 1;
		if (!seen && kbt_ic_add_variant(b, p, st, s))
			return -1;
	}
	for (i = 0; i < b->d->nbufs; i++) {
		int s = b->d->bufs[i].select;

		if (kbt_ic_valid_selector(b, s) && b->sel_fc[s])
			continue;
		if (kbt_ic_add_buf(b, p, st, (int)i))
			return -1;
	}
	return 0;
}

static int
is_row(const struct kfd_ioctl_desc *d, const char *event)
{
	return d->file_kind == KFD_FILE_KFD && strcmp(d->event_name, event) == 0;
}

/*
 * The heap: the memory-domain bit of ALLOC_MEMORY_OF_GPU's flags, as an
 * enumeration labelled from the flags' name table.
 */
static bt_field_class *
heap_class(bt_trace_class *tc)
{
	const struct kfd_ioctl_desc *al = kfd_schema_by_name("alloc_memory_of_gpu");
	const struct kfd_name_table *t;
	const char *labels[8];
	uint64_t values[8];
	unsigned int i, n = 0;
	int fl = al ? kfd_schema_field(al, "flags") : -1;

	if (fl < 0 || !al->args->fields[fl].names)
		return NULL;
	t = al->args->fields[fl].names;
	for (i = 0; i < t->count && n < 8; i++) {
		const struct kfd_name *e = &t->entries[i];

		if (e->name && e->value && !(e->value & ~KBT_HEAP_MASK)) {
			labels[n] = e->name;
			values[n++] = e->value;
		}
	}
	return kbt_fc_enum_labels(tc, 32, labels, values, n);
}

/*
 * Derived members, which analyses need and cannot compute themselves (a
 * Trace Compass XML analysis can neither test bits nor subtract):
 *
 *   ALLOC_MEMORY_OF_GPU  heap
 *   FREE_MEMORY_OF_GPU   gpu_id, heap, size of the buffer the call freed
 *                        (from its allocation earlier in the trace; 0 for
 *                        a failed call), delta = -size
 */
static int
add_derived(struct build *b, struct kbt_plan *p, bt_field_class *st)
{
	struct kbt_op *op;
	int fl, h, sz;

	if (is_row(b->d, "alloc_memory_of_gpu")) {
		fl = kfd_schema_field(b->d, "flags");
		h = kfd_schema_field(b->d, "handle");
		sz = kfd_schema_field(b->d, "size");
		if (fl < 0 || h < 0 || sz < 0)
			return 0;
		if (kbt_struct_add_unique(st, "heap", heap_class(b->tc)))
			return -1;
		op = kbt_plan_add(p);
		if (!op)
			return -1;
		op->kind = KBT_OP_HEAP;
		op->member = kbt_ic_last_member(st);
		op->f = &b->fields[fl];
		op->f_handle = &b->fields[h];
		op->f_size = &b->fields[sz];
	} else if (is_row(b->d, "free_memory_of_gpu")) {
		uint64_t first;

		h = kfd_schema_field(b->d, "handle");
		if (h < 0)
			return 0;
		if (kbt_struct_add_unique(st, "gpu_id", kbt_fc_gpu_id(b->tc)))
			return -1;
		first = kbt_ic_last_member(st);
		/* The fill sets the four members by position. */
		if (kbt_struct_add_unique(st, "heap", heap_class(b->tc)) ||
		    kbt_struct_add_unique(st, "size", kbt_fc_uint(b->tc, 64, 0)) ||
		    kbt_struct_add_unique(st, "delta", kbt_fc_sint(b->tc, 64, 0)) ||
		    kbt_ic_last_member(st) != first + 3)
			return -1;
		op = kbt_plan_add(p);
		if (!op)
			return -1;
		op->kind = KBT_OP_FREE;
		op->member = first;
		op->f = &b->fields[h];
	}
	return 0;
}

int
kbt_ioctl_class_build(struct kbt_input *in, struct kbt_ioctl_class *ic)
{
	const struct kfd_ioctl_desc *d = ic->desc;
	struct build b = {
		.tc = in->tc,
		.d = d,
		.fields = d->args ? d->args->fields : NULL,
		.nfields = d->args ? d->args->nfields : 0,
	};
	char name[160];
	bt_field_class *st;
	int rc = -1;

	ic->ec = bt_event_class_create(in->sc);
	st = bt_field_class_structure_create(in->tc);
	if (!ic->ec || !st)
		goto out;
	b.payload = st;
	snprintf(name, sizeof(name), "kfd:%s", d->event_name);
	if (bt_event_class_set_name(ic->ec, name) ||
	    kbt_struct_add(st, "fd", kbt_fc_sint(in->tc, 32, 0)) ||
	    kbt_struct_add(st, "request", kbt_fc_uint(in->tc, 32, 1)) ||
	    add_args(&b, &ic->plan, st))
		goto out;
	if (kbt_struct_add_unique(st, "ret", kbt_fc_sint(in->tc, 64, 0)))
		goto out;
	ic->m_ret = kbt_ic_last_member(st);
	if (kbt_struct_add_unique(st, "err", kbt_fc_errno(in->tc)) ||
	    kbt_struct_add_unique(st, "dur_ns", kbt_fc_uint(in->tc, 64, 0)) ||
	    add_derived(&b, &ic->plan, st))
		goto out;
	/* ret, err and dur_ns are consecutive: the fill relies on it. */
	if (kbt_ic_last_member(st) < ic->m_ret + 2)
		goto out;
	if (bt_event_class_set_payload_field_class(ic->ec, st))
		goto out;
	rc = 0;
out:
	bt_field_class_put_ref(st);
	free(b.sel_fc);
	free(b.in_arm);
	return rc;
}

void
kbt_ioctl_class_release(struct kbt_ioctl_class *ic)
{
	kbt_ic_plan_release(&ic->plan);
	bt_event_class_put_ref(ic->ec);
	ic->ec = NULL;
}
