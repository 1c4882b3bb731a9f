/* SPDX-License-Identifier: MIT */
/*
 * The checks after an emitted ioctl: every output the replay's strict
 * verification checks, by the same verdicts (rp_out_vclass()): learned
 * (rr_learn(), strict for the kinds replay holds strictly:
 * rp_kind_strict()), translated and compared (rr_expect()), compared as is
 * (rr_eq(), rr_expect_mem()); and the ids a successful call ends
 * (rr_forget(), by the schema's ends column).
 */
#include <inttypes.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* Check output field @f of a struct image: @got is its C expression. */
static void
check_field(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
	    const struct kfd_field *f, const uint8_t *cap, size_t len,
	    const char *got, const char *label)
{
	unsigned int role;
	uint64_t cv = 0;

	if ((size_t)f->offset + f->width > len)
		return;
	if (f->width > 8) {
		if (f == e->rows->ipce_share)
			return;
		kt_strbuf_printf(sb, "\t\trr_expect_mem(\"%s\", (const uint8_t[])",
				 label);
		em_bytes(sb, cap + f->offset, f->width);
		kt_strbuf_printf(sb, ", %s, %u);\n", got, f->width);
		return;
	}
	kfd_field_load(f, cap, len, &cv);
	if (f->width < 8)
		cv &= (1ull << (8 * f->width)) - 1;
	switch (rp_out_vclass(e->rows, f, cv, &role)) {
	case RP_V_IGNORE:
		return;
	case RP_V_EXACT:
		kt_strbuf_printf(sb, "\t\trr_eq(\"%s\", ", label);
		em_value(e, sb, f, cv);
		kt_strbuf_printf(sb, ", %s);\n", got);
		return;
	case RP_V_XLATE:
		kt_strbuf_printf(sb, "\t\trr_expect(\"%s\", ", label);
		em_num(sb, cv);
		kt_strbuf_printf(sb, ", (uint%u_t)(", 8u * f->width);
		em_xlate_expr(e, sb, c, role, cv);
		kt_strbuf_printf(sb, "), %s);\n", got);
		return;
	case RP_V_FD:
		kt_strbuf_printf(sb, "\t\trr_learn_fd(\"%s\", %" PRIu64 ", %s);\n",
				 label, cv, got);
		return;
	case RP_V_LEARN:
		/* All ones below the status bits: no queue (an invalid id). */
		if (kfd_role_status_bits(role) &&
		    (cv | kfd_role_status_bits(role)) == 0xffffffffu)
			return;
		kt_strbuf_printf(sb, "\t\trr_learn(\"%s\", %s, %d, ", label,
				 em_kind_name(role),
				 rp_learn_scope(role, c->scope, c->gem_scope));
		em_num(sb, cv);
		/* Replay's rule for the kind, decided here once. */
		kt_strbuf_printf(sb, ", %s, %d);\n", got,
				 rp_kind_strict(rp_role_kind(role)));
		return;
	}
}

void
em_check_outputs(struct em *e, struct kt_strbuf *sb, struct em_call *c)
{
	const struct kfd_ioctl_desc *d = c->d;
	const struct kt_ioctl_rec *io = c->io;
	const struct rp_rows *r = e->rows;
	char got[160], m[96], label[160];
	unsigned int k, j;
	uint16_t i;

	for (k = 0; k < c->plan->nout; k++) {
		const struct kfd_field *f = &d->args->fields[c->plan->out[k]];

		if (!em_layout_has(c->l, c->plan->out[k]))
			continue;
		snprintf(got, sizeof(got), "%s%s", c->acc, em_member(f, m, sizeof(m)));
		check_field(e, sb, c, f, io->arg_after, c->clen, got, f->name);
	}
	/* SVM attributes trail the struct. */
	if (d == r->svm && c->size > d->args->size) {
		for (k = 0; d->args->size + 8 * (k + 1) <= c->clen; k++) {
			const uint8_t *p = io->arg_after + d->args->size + 8 * k;
			uint32_t t, v;

			memcpy(&t, p, 4);
			memcpy(&v, p + 4, 4);
			kt_strbuf_printf(sb, "\t\trr_eq(\"attrs[%u].type\", %" PRIu32
					 ", s.t[%u].type);\n", k, t, k);
			snprintf(label, sizeof(label), "attrs[%u].value", k);
			kt_strbuf_printf(sb, "\t\trr_expect(\"%s\", %" PRIu32 ", %s(%"
					 PRIu32 "), s.t[%u].value);\n", label, v,
					 em_svm_attr_gpu(t, v) ? "rr_gpu" : "", v, k);
		}
	}
	if (d == r->amdgpu_info && rp_info_query_varies(r, io->arg_before,
							 io->arg_size))
		return;
	for (i = 0; i < io->nbufs; i++) {
		const struct kt_buf_image *img = &io->bufs[i];
		const struct kfd_indirect *b;
		int v;

		if (img->index >= d->nbufs || img->index >= KT_MAX_BUFS ||
		    !img->after || (img->flags & (KT_BUF_CLAMPED | KT_BUF_OMITTED)))
			continue;
		b = &d->bufs[img->index];
		v = c->var[img->index];
		if (v < 0 || c->guard[v] || !(b->dir & KFD_DIR_OUT))
			continue;
		if (c->el[v] && b->elem == c->el[v]->sd) {
			size_t n = img->len_after / b->elem->size, x;

			if (n > EM_CHECK_ELEMS) {
				kt_strbuf_printf(sb, "\t\t/* %s: the first %u of %zu "
						 "elements checked. */\n", b->name,
						 EM_CHECK_ELEMS, n);
				n = EM_CHECK_ELEMS;
			}

			for (x = 0; x < n; x++)
				for (j = 0; j < b->elem->nfields; j++) {
					const struct kfd_field *f = &b->elem->fields[j];

					if (!(f->dir & KFD_DIR_OUT) ||
					    !em_layout_has(c->el[v], j))
						continue;
					snprintf(got, sizeof(got), "b%d[%zu].%s", v, x,
						 em_member(f, m, sizeof(m)));
					snprintf(label, sizeof(label), "%s[%zu].%s",
						 b->name, x, f->name);
					check_field(e, sb, c, f,
						    img->after + x * b->elem->size,
						    b->elem->size, got, label);
				}
			continue;
		}
		if (!img->len_after)
			continue;
		kt_strbuf_printf(sb, "\t\trr_expect_mem(\"%s\", ", b->name);
		if (img->len_after >= EM_BLOB_MIN) {
			em_blob_ref(e, sb, img->after, img->len_after);
		} else {
			kt_strbuf_puts(sb, "(const uint8_t[])");
			em_bytes(sb, img->after, img->len_after);
		}
		kt_strbuf_printf(sb, ", b%d, %" PRIu32 ");\n", v, img->len_after);
	}
}

/*
 * After a call that ends an object (the schema's ends column): its id may
 * come back for another object. Only the kinds replay holds strictly are
 * forgotten (rp_kind_strict()); the others are bound again anyway.
 */
void
em_forget(struct em *e, struct kt_strbuf *sb, const struct em_call *c)
{
	const uint8_t *b = c->io->arg_before;
	uint32_t n = c->io->arg_size;
	const struct kfd_field *f;

	(void)e;
	if (!b || c->io->ret < 0 || c->d->ends == KFD_OBJ_NONE)
		return;
	f = kfd_schema_attr(c->d->args, KFD_ATTR_OBJ);
	if (!f || !rp_fhas(f, n) || !rp_kind_strict(rp_role_kind(f->role)))
		return;
	kt_strbuf_printf(sb, "\trr_forget(%s, %d, ", em_kind_name(f->role),
			 rp_learn_scope(f->role, c->scope, c->gem_scope));
	em_num(sb, rp_fget(f, b, n));
	kt_strbuf_puts(sb, ");\n");
}
