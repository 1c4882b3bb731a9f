/* SPDX-License-Identifier: MIT */
/*
 * Filling the payload of an ioctl event from a record, by the plan
 * ioctl_class.c made for its row. Reads only the images inside the record
 * and never past the lengths the record states: a field lying past a short
 * image reads as 0.
 */
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/u64map.h>

#include "kbt.h"


/* The bytes a plan reads from: the argument images, or one element. */
struct imgs {
	const uint8_t *p[2];
	size_t len[2];
};

struct fill {
	const struct kt_record *rec;
	const struct kfd_ioctl_desc *desc;
	struct kbt_bo_map *bos;
	struct kbt_cuts *cuts;
};

/* ---- live allocations: handle -> what the trace said (common u64 map) ---- */

/* What the trace said about a live buffer object. */
struct bo {
	uint64_t size;
	uint32_t gpu_id;
	uint32_t heap;
};

struct kbt_bo_map {
	struct kc_u64map m;	/* handle -> struct bo */
};

struct kbt_bo_map *
kbt_bo_map_new(void)
{
	struct kbt_bo_map *b = malloc(sizeof(*b));

	if (b)
		kc_u64map_init(&b->m, sizeof(struct bo));
	return b;
}

void
kbt_bo_map_free(struct kbt_bo_map *b)
{
	if (!b)
		return;
	kc_u64map_free(&b->m);
	free(b);
}

/* Remember @v for handle @k (handles are never 0: a 0 is not kept). */
static int
bo_put(struct kbt_bo_map *b, uint64_t k, const struct bo *v)
{
	if (!k)
		return 0;
	return kc_u64map_put(&b->m, 0, k, v) ? -1 : 0;
}

/* Find @k (and remove it when @take). Return: 1 if found, else 0. */
static int
bo_get(struct kbt_bo_map *b, uint64_t k, int take, struct bo *out)
{
	const struct bo *v;

	if (take)
		return kc_u64map_del(&b->m, 0, k, out);
	v = kc_u64map_get(&b->m, 0, k);
	if (v)
		*out = *v;
	return v != NULL;
}

/* ---- fields ---- */

static uint64_t
get(const struct kfd_field *f, const struct imgs *im, uint8_t image)
{
	uint64_t v = 0;

	if (!im->p[image] || kfd_field_get(f, im->p[image], im->len[image], &v))
		return 0;
	return v;
}

static void
set_int(bt_field *fld, const struct kfd_field *f, uint64_t v)
{
	if (f->is_signed)
		bt_field_integer_signed_set_value(fld, (int64_t)v);
	else
		bt_field_integer_unsigned_set_value(fld, v);
}

static int
fill_string(bt_field *fld, const struct kfd_field *f, const struct imgs *im,
	    uint8_t image)
{
	const uint8_t *p = im->p[image];
	size_t n = 0;

	bt_field_string_clear(fld);
	if (!p || (size_t)f->offset + f->width > im->len[image])
		return 0;
	p += f->offset;
	while (n < f->width && p[n])
		n++;
	return kbt_string_set(fld, (const char *)p, n);
}

static void
fill_bytes(bt_field *fld, const struct kfd_field *f, const struct imgs *im,
	   uint8_t image)
{
	const uint8_t *p = im->p[image];
	int ok = p && (size_t)f->offset + f->width <= im->len[image];
	uint64_t i;

	for (i = 0; i < f->width; i++)
		bt_field_integer_unsigned_set_value(
			bt_field_array_borrow_element_field_by_index(fld, i),
			ok ? p[f->offset + i] : 0);
}

static uint64_t
load_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static int run(const struct kbt_plan *plan, bt_field *st,
	       const struct imgs *im, const struct fill *fl);

/* The bytes of one image of an indirect buffer, as the record holds them. */
static const uint8_t *
buf_image(const struct kbt_op *op, const struct fill *fl, size_t *len)
{
	const struct kt_ioctl_rec *io = &fl->rec->u.ioctl;
	const uint8_t *args;
	uint16_t i;

	*len = 0;
	if (op->buf->len_kind == KFD_LEN_TRAILING) {
		/* Inline after the fixed struct, inside the argument bytes. */
		uint32_t size = fl->desc->args ? fl->desc->args->size : 0;

		args = op->image == KBT_BEFORE ? io->arg_before : io->arg_after;
		if (!args || io->arg_size <= size)
			return NULL;
		*len = io->arg_size - size;
		return args + size;
	}
	for (i = 0; i < io->nbufs && io->bufs; i++) {
		const struct kt_buf_image *b = &io->bufs[i];

		if (b->index != op->buf_index)
			continue;
		if (op->image == KBT_BEFORE && b->before) {
			*len = b->len_before;
			return b->before;
		}
		if (op->image == KBT_AFTER && b->after) {
			*len = b->len_after;
			return b->after;
		}
		return NULL;
	}
	return NULL;
}

static int
fill_buf(bt_field *st, const struct kbt_op *op, const struct fill *fl)
{
	bt_field *arr = bt_field_structure_borrow_member_field_by_index(st,
								op->member);
	bt_field *len = bt_field_structure_borrow_member_field_by_index(st,
							op->member - 1);
	uint32_t esz = op->elem_kind == KBT_ELEM_BYTES ? 1 : op->buf->elem_size;
	size_t bytes, n, i;
	const uint8_t *p = buf_image(op, fl, &bytes);

	n = p && esz ? bytes / esz : 0;
	if (n > KBT_MAX_BUF_ELEMS) {
		/* Every element is a field of its own: keep the first ones. */
		kbt_cut(fl->cuts, fl->rec, bytes);
		n = KBT_MAX_BUF_ELEMS;
	}
	bt_field_integer_unsigned_set_value(len, n);
	if (bt_field_array_dynamic_set_length(arr, n))
		return -1;
	for (i = 0; i < n; i++) {
		bt_field *e = bt_field_array_borrow_element_field_by_index(arr, i);
		const uint8_t *ep = p + i * esz;
		struct imgs eim = { { ep, ep }, { esz, esz } };

		switch (op->elem_kind) {
		case KBT_ELEM_BYTES:
			bt_field_integer_unsigned_set_value(e, ep[0]);
			break;
		case KBT_ELEM_UINT:
			bt_field_integer_unsigned_set_value(e, load_le(ep, esz));
			break;
		case KBT_ELEM_FIELD:
			set_int(e, op->elem_plan->ops[0].f,
				get(op->elem_plan->ops[0].f, &eim, KBT_BEFORE));
			break;
		default:
			if (run(op->elem_plan, e, &eim, fl))
				return -1;
			break;
		}
	}
	return 0;
}

static int
fill_variant(bt_field *st, const struct kbt_op *op, const struct imgs *im,
	     const struct fill *fl)
{
	bt_field *var = bt_field_structure_borrow_member_field_by_index(st,
								op->member);
	uint64_t v = get(op->f, im, op->image), idx = op->none_index;
	unsigned int i;

	for (i = 0; i < op->narms; i++)
		if (op->arms[i].value == v)
			idx = i;
	if (bt_field_variant_select_option_by_index(var, idx))
		return -1;
	if (idx == op->none_index)
		return 0;
	return run(op->arms[idx].plan,
		   bt_field_variant_borrow_selected_option_field(var), im, fl);
}

/*
 * ALLOC_MEMORY_OF_GPU: the heap bit of the flags; a successful call also
 * remembers the new buffer for the FREE that ends it.
 */
static int
fill_heap(bt_field *st, const struct kbt_op *op, const struct imgs *im,
	  const struct fill *fl)
{
	struct bo bo = {
		.size = get(op->f_size, im, KBT_BEFORE),
		.heap = (uint32_t)(get(op->f, im, KBT_BEFORE) & KBT_HEAP_MASK),
	};
	int g = kfd_schema_field(fl->desc, "gpu_id");

	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(st, op->member),
		bo.heap);
	if (fl->rec->u.ioctl.ret != 0 || !fl->bos)
		return 0;
	if (g >= 0)
		bo.gpu_id = (uint32_t)get(&fl->desc->args->fields[g], im,
					  KBT_BEFORE);
	return bo_put(fl->bos, get(op->f_handle, im, KBT_AFTER), &bo);
}

/*
 * FREE_MEMORY_OF_GPU: the GPU and heap of the buffer (from its allocation;
 * the GPU from the handle's upper half when the allocation is not in the
 * trace), the bytes a successful call freed, and their negation, which
 * the live-memory series of the Trace Compass analysis adds.
 */
static void
fill_free(bt_field *st, const struct kbt_op *op, const struct imgs *im,
	  const struct fill *fl)
{
	uint64_t handle = get(op->f, im, KBT_BEFORE), size = 0;
	int ok = fl->rec->u.ioctl.ret == 0;
	struct bo bo = { 0, (uint32_t)(handle >> 32), 0 };

	if (fl->bos && bo_get(fl->bos, handle, ok, &bo) && ok)
		size = bo.size;
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(st, op->member),
		bo.gpu_id);
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(st, op->member + 1),
		bo.heap);
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(st, op->member + 2),
		size);
	bt_field_integer_signed_set_value(
		bt_field_structure_borrow_member_field_by_index(st, op->member + 3),
		-(int64_t)size);
}

static int
run(const struct kbt_plan *plan, bt_field *st, const struct imgs *im,
    const struct fill *fl)
{
	unsigned int i;

	for (i = 0; i < plan->nops; i++) {
		const struct kbt_op *op = &plan->ops[i];
		bt_field *m;

		switch (op->kind) {
		case KBT_OP_INT:
			m = bt_field_structure_borrow_member_field_by_index(st,
								op->member);
			set_int(m, op->f, get(op->f, im, op->image));
			break;
		case KBT_OP_STRING:
			m = bt_field_structure_borrow_member_field_by_index(st,
								op->member);
			if (fill_string(m, op->f, im, op->image))
				return -1;
			break;
		case KBT_OP_BYTES:
			m = bt_field_structure_borrow_member_field_by_index(st,
								op->member);
			fill_bytes(m, op->f, im, op->image);
			break;
		case KBT_OP_VARIANT:
			if (fill_variant(st, op, im, fl))
				return -1;
			break;
		case KBT_OP_BUF:
			if (fill_buf(st, op, fl))
				return -1;
			break;
		case KBT_OP_HEAP:
			if (fill_heap(st, op, im, fl))
				return -1;
			break;
		case KBT_OP_FREE:
			fill_free(st, op, im, fl);
			break;
		case KBT_OP_FLAG_NAMES:
			m = bt_field_structure_borrow_member_field_by_index(st,
								op->member);
			if (kbt_flag_names_set(m, op->f, get(op->f, im, op->image)))
				return -1;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

void
kbt_cut(struct kbt_cuts *c, const struct kt_record *rec, uint64_t len)
{
	if (!c)
		return;
	if (!c->fields++)
		c->first_seq = rec->seq;
	if (len > c->max_len)
		c->max_len = len;
}

int
kbt_ioctl_fill(const struct kbt_ioctl_class *ic, bt_field *payload,
	       const struct kt_record *rec, struct kbt_bo_map *bos,
	       struct kbt_cuts *cuts)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct imgs im = {
		{ io->arg_before, io->arg_after },
		{ io->arg_before ? io->arg_size : 0,
		  io->arg_after ? io->arg_size : 0 },
	};
	struct fill fl = { rec, ic->desc, bos, cuts };

	bt_field_integer_signed_set_value(
		bt_field_structure_borrow_member_field_by_index(payload, 0),
		io->fd);
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(payload, 1),
		io->request);
	bt_field_integer_signed_set_value(
		bt_field_structure_borrow_member_field_by_index(payload,
								ic->m_ret),
		io->ret);
	bt_field_integer_signed_set_value(
		bt_field_structure_borrow_member_field_by_index(payload,
								ic->m_ret + 1),
		io->err);
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(payload,
								ic->m_ret + 2),
		io->t_exit > rec->ts ? io->t_exit - rec->ts : 0);
	return run(&ic->plan, payload, &im, &fl);
}
