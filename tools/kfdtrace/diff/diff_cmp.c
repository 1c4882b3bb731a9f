/* SPDX-License-Identifier: MIT */
/*
 * Field-by-field comparison of two ioctl records (see diff_cmp.h).
 *
 * Everything comes from the schema: which fields are inputs and outputs,
 * their roles (how values are compared), union selectors, and the layout
 * of buffer elements. In-fields are compared on the before-images first,
 * so that ids a call takes (gpu_id) are bound before the ids it returns
 * (handle).
 */
#include <stdio.h>
#include <string.h>

#include "diff/diff_cmp.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

int
diff_same_call(const struct kt_record *a, const struct kt_record *b)
{
	const struct kfd_ioctl_desc *da = kt_ioctl_row(&a->u.ioctl);
	const struct kfd_ioctl_desc *db = kt_ioctl_row(&b->u.ioctl);

	if (da || db)
		return da == db;
	return a->u.ioctl.request == b->u.ioctl.request &&
	       a->u.ioctl.file_kind == b->u.ioctl.file_kind;
}

char *
diff_format_value(char *buf, size_t size, enum kfd_role role, uint64_t v)
{
	switch (role) {
	case KFD_ROLE_HANDLE:
		snprintf(buf, size, "0x%llx_%08llx", (unsigned long long)(v >> 32),
			 (unsigned long long)(v & 0xffffffffu));
		break;
	case KFD_ROLE_HEX:
	case KFD_ROLE_GPU_ID:
	case KFD_ROLE_GPU_VA:
	case KFD_ROLE_CPU_ADDR:
	case KFD_ROLE_PTR:
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
	case KFD_ROLE_FLAGS:
	case KFD_ROLE_PAD:
		snprintf(buf, size, "0x%llx", (unsigned long long)v);
		break;
	default:
		snprintf(buf, size, "%lld", (long long)v);
		break;
	}
	return buf;
}

static struct diff_field *
add(struct diff_result *res, const char *prefix, const char *name,
    const char *suffix, enum kfd_role role)
{
	struct diff_field *f;

	res->total++;
	if (res->n >= DIFF_MAX_FIELDS)
		return NULL;
	f = &res->f[res->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s%s%s", prefix, name, suffix);
	f->role = (uint8_t)role;
	return f;
}

/* Compare one field of two images of the same layout. */
static void
cmp_field(struct dmap *m, const struct kfd_struct_desc *sd,
	  const struct kfd_field *f, const uint8_t *ia, size_t la,
	  const uint8_t *ib, size_t lb, const char *prefix, const char *suffix,
	  uint64_t seq, struct diff_result *res)
{
	uint64_t va, vb, expect;
	int rule, expect_is_a;
	struct diff_field *d;

	if ((size_t)f->offset + f->width > la ||
	    (size_t)f->offset + f->width > lb)
		return;
	if (!kfd_field_present(sd, f, ia, la) ||
	    !kfd_field_present(sd, f, ib, lb))
		return;
	if (f->role == KFD_ROLE_STRING || f->role == KFD_ROLE_BYTES ||
	    f->width > 8) {
		if (memcmp(ia + f->offset, ib + f->offset, f->width)) {
			d = add(res, prefix, f->name, suffix, f->role);
			if (d)
				d->bytes = 1;
		}
		return;
	}
	if (kfd_field_get(f, ia, la, &va) || kfd_field_get(f, ib, lb, &vb))
		return;
	rule = dmap_rule_of((enum kfd_role)f->role);
	if (rule == DMAP_IGNORE)
		return;
	if (rule == DMAP_NULLNESS) {
		if ((va == 0) == (vb == 0))
			return;
	} else if (rule == DMAP_EXACT) {
		if (va == vb)
			return;
	} else if (dmap_match(m, (enum dmap_space)rule, va, vb, seq, &expect,
			      &expect_is_a)) {
		return;
	} else {
		d = add(res, prefix, f->name, suffix, f->role);
		if (d) {
			d->a = va;
			d->b = vb;
			d->has_expect = expect_is_a >= 0;
			d->expect = expect;
			d->expect_is_a = expect_is_a > 0;
		}
		return;
	}
	d = add(res, prefix, f->name, suffix, f->role);
	if (d) {
		d->a = va;
		d->b = vb;
	}
}

/* The fields of a struct image whose direction includes @dir. */
static void
cmp_struct(struct dmap *m, const struct kfd_struct_desc *sd, unsigned int dir,
	   const uint8_t *ia, size_t la, const uint8_t *ib, size_t lb,
	   const char *prefix, const char *suffix, uint64_t seq,
	   struct diff_result *res)
{
	unsigned int i;

	if (!sd || !ia || !ib)
		return;
	for (i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		/* Padding (no direction) belongs with the inputs. */
		if (!(f->dir & dir) && !(f->dir == KFD_DIR_NONE &&
					 dir == KFD_DIR_IN))
			continue;
		cmp_field(m, sd, f, ia, la, ib, lb, prefix, suffix, seq, res);
	}
}

static const struct kt_buf_image *
buf_image(const struct kt_ioctl_rec *io, unsigned int index)
{
	uint16_t i;

	for (i = 0; io->bufs && i < io->nbufs; i++)
		if (io->bufs[i].index == index)
			return &io->bufs[i];
	return NULL;
}

/* One indirect buffer, before or after the call. */
static void
cmp_buffer(struct dmap *m, const struct kfd_indirect *bd,
	   const struct kt_buf_image *ba, const struct kt_buf_image *bb,
	   int after, uint64_t seq, struct diff_result *res)
{
	const unsigned int unusable = KT_BUF_CLAMPED | KT_BUF_UNREADABLE |
				      KT_BUF_OMITTED;
	const char *prefix = after ? "out." : "in.";
	const uint8_t *pa = after ? ba->after : ba->before;
	const uint8_t *pb = after ? bb->after : bb->before;
	size_t la = after ? ba->len_after : ba->len_before;
	size_t lb = after ? bb->len_after : bb->len_before;
	struct diff_field *d;
	size_t n, e;
	char sfx[32];

	if ((ba->flags | bb->flags) & unusable || !pa || !pb)
		return;
	if (la != lb) {
		d = add(res, prefix, bd->name, " length", KFD_ROLE_SIZE);
		if (d) {
			d->a = la;
			d->b = lb;
		}
		return;
	}
	if (!bd->elem || !bd->elem_size) {
		if (memcmp(pa, pb, la)) {
			d = add(res, prefix, bd->name, "", KFD_ROLE_BYTES);
			if (d)
				d->bytes = 1;
		}
		return;
	}
	n = la / bd->elem_size;
	for (e = 0; e < n; e++) {
		snprintf(sfx, sizeof(sfx), "[%zu]", e);
		if (bd->elem->nfields == 1) {
			/* A list of scalars reads best without a field name. */
			char name[64];

			snprintf(name, sizeof(name), "%s%s", prefix, bd->name);
			cmp_field(m, bd->elem, &bd->elem->fields[0],
				  pa + e * bd->elem_size, bd->elem_size,
				  pb + e * bd->elem_size, bd->elem_size, name,
				  sfx, seq, res);
			continue;
		}
		{
			char name[96];

			snprintf(name, sizeof(name), "%s%s%s.", prefix, bd->name,
				 sfx);
			cmp_struct(m, bd->elem, after ? KFD_DIR_OUT : KFD_DIR_IN,
				   pa + e * bd->elem_size, bd->elem_size,
				   pb + e * bd->elem_size, bd->elem_size, name,
				   "", seq, res);
		}
	}
}

static void
cmp_buffers(struct dmap *m, const struct kfd_ioctl_desc *desc,
	    const struct kt_ioctl_rec *a, const struct kt_ioctl_rec *b,
	    int after, uint64_t seq, struct diff_result *res)
{
	unsigned int i;

	for (i = 0; i < desc->nbufs; i++) {
		const struct kfd_indirect *bd = &desc->bufs[i];
		const struct kt_buf_image *ba = buf_image(a, i);
		const struct kt_buf_image *bb = buf_image(b, i);

		if (!(bd->dir & (after ? KFD_DIR_OUT : KFD_DIR_IN)))
			continue;
		if (!ba || !bb) {
			struct diff_field *d;

			if (!ba && !bb)
				continue;
			d = add(res, after ? "out." : "in.", bd->name,
				" (recorded in one trace only)", KFD_ROLE_PTR);
			if (d)
				d->bytes = 1;
			continue;
		}
		cmp_buffer(m, bd, ba, bb, after, seq, res);
	}
}

unsigned int
diff_compare(struct dmap *m, enum diff_verify verify,
	     const struct kt_record *ra, const struct kt_record *rb,
	     struct diff_result *res)
{
	const struct kt_ioctl_rec *a = &ra->u.ioctl, *b = &rb->u.ioctl;
	const struct kfd_ioctl_desc *desc = kt_ioctl_row(&ra->u.ioctl);
	struct diff_field *d;

	memset(res, 0, sizeof(*res));
	if (verify == DIFF_VERIFY_STRICT && desc) {
		/* The ioctl's own fd is an input too. */
		cmp_field(m, NULL, &(struct kfd_field){ .name = "fd",
			  .width = 4, .role = KFD_ROLE_FD, .select = -1 },
			  (const uint8_t *)&a->fd, 4, (const uint8_t *)&b->fd,
			  4, "", "", ra->seq, res);
		cmp_struct(m, desc->args, KFD_DIR_IN, a->arg_before,
			   a->arg_size, b->arg_before, b->arg_size, "in.", "",
			   ra->seq, res);
		cmp_buffers(m, desc, a, b, 0, ra->seq, res);
	} else if (verify == DIFF_VERIFY_STRICT && a->arg_before &&
		   b->arg_before && (a->arg_size != b->arg_size ||
		   memcmp(a->arg_before, b->arg_before, a->arg_size))) {
		d = add(res, "in", "", "", KFD_ROLE_BYTES);
		if (d)
			d->bytes = 1;
	}
	if (a->ret != b->ret) {
		d = add(res, "", "ret", "", KFD_ROLE_NONE);
		if (d) {
			d->a = (uint64_t)a->ret;
			d->b = (uint64_t)b->ret;
		}
	}
	if (a->err != b->err) {
		d = add(res, "", "errno", "", KFD_ROLE_NONE);
		if (d) {
			d->a = (uint64_t)(int64_t)a->err;
			d->b = (uint64_t)(int64_t)b->err;
		}
	}
	if (verify != DIFF_VERIFY_STRICT)
		return res->total;
	if (desc) {
		cmp_struct(m, desc->args, KFD_DIR_OUT, a->arg_after,
			   a->arg_size, b->arg_after, b->arg_size, "out.", "",
			   ra->seq, res);
		cmp_buffers(m, desc, a, b, 1, ra->seq, res);
	} else if (a->arg_after && b->arg_after &&
		   (a->arg_size != b->arg_size ||
		    memcmp(a->arg_after, b->arg_after, a->arg_size))) {
		d = add(res, "out", "", "", KFD_ROLE_BYTES);
		if (d)
			d->bytes = 1;
	}
	return res->total;
}

void
diff_released(struct dmap *m, const struct kt_record *ra)
{
	const struct kt_ioctl_rec *a = &ra->u.ioctl;
	const struct kfd_ioctl_desc *desc = kt_ioctl_row(&ra->u.ioctl);
	const struct kfd_struct_desc *sd;
	unsigned int i;

	if (!desc || !(sd = desc->args) || a->ret < 0 || !a->arg_before ||
	    (strncmp(desc->name, "FREE_", 5) != 0 &&
	     strncmp(desc->name, "DESTROY_", 8) != 0))
		return;
	for (i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		int rule = dmap_rule_of((enum kfd_role)f->role);
		uint64_t v;

		if (!(f->dir & KFD_DIR_IN) ||
		    (rule != DMAP_HANDLE && rule != DMAP_QUEUE &&
		     rule != DMAP_EVENT) ||
		    kfd_field_get(f, a->arg_before, a->arg_size, &v))
			continue;
		dmap_unbind_a(m, (enum dmap_space)rule, v);
	}
}
