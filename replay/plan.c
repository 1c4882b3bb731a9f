/* SPDX-License-Identifier: MIT */
/*
 * Per-request plans: what the replay does with each schema row, worked out
 * once instead of for every record. A plan lists the argument fields whose
 * input values are translated (by role) and the ones whose output values
 * are compared or learned under --verify=strict, so that neither the
 * translation nor the comparison walks fields the schema says play no
 * part: padding, clocks, timeouts and plain pointers are never read back.
 */
#include <stdlib.h>

#include "replay_recs.h"

/* Fill @p, whose three lists have room for every field of the row. */
static void
plan_row(struct rp_req_plan *p, const struct kfd_ioctl_desc *d,
	 const struct rp_rows *r)
{
	const struct kfd_struct_desc *sd = d->args;
	unsigned int i;

	/* The schema says which requests act beyond the replayed objects. */
	p->never = d->no_replay;
	for (i = 0; i < d->nbufs; i++)
		if (d->bufs[i].len_kind != KFD_LEN_TRAILING &&
		    d->bufs[i].ptr_field >= 0 && sd &&
		    (unsigned int)d->bufs[i].ptr_field < sd->nfields)
			p->has_bufs = 1;
	p->out_plain = 1;
	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		if (f->dir & KFD_DIR_OUT) {
			enum rp_out_class k = rp_out_class(r, f);

			if (k == RP_OUT_MAPPED)
				p->out_plain = 0;
			if (k != RP_OUT_IGNORE)
				p->out[p->nout++] = i;
		}
		if (!(f->dir & KFD_DIR_IN))
			continue;
		/* ALLOC's CPU address is pre_special()'s (run_ioctl.c). */
		if (rp_role_translated(f->role) &&
		    !(d == r->alloc && f == r->alloc_off))
			p->in[p->nin++] = i;
		if (f->role == KFD_ROLE_GPU_ID || f->role == KFD_ROLE_HANDLE)
			p->gpu[p->ngpu++] = i;
	}
}

int
rp_plans_build(struct rp_rows *r)
{
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&r->nrows);
	size_t nidx = 0;
	unsigned int i, *idx;

	for (i = 0; i < r->nrows; i++)
		if (rows[i].args)
			nidx += 3 * (size_t)rows[i].args->nfields;
	/* One block: the plans, then every row's three index lists. */
	r->plans = calloc(1, r->nrows * sizeof(*r->plans) + nidx * sizeof(*idx));
	if (!r->plans)
		return -1;
	r->row0 = rows;
	idx = (unsigned int *)(r->plans + r->nrows);
	for (i = 0; i < r->nrows; i++) {
		struct rp_req_plan *p = &r->plans[i];
		unsigned int nf = rows[i].args ? rows[i].args->nfields : 0;

		p->in = idx;
		p->out = idx + nf;
		p->gpu = idx + 2 * nf;
		idx += 3 * nf;
		plan_row(p, &rows[i], r);
	}
	return 0;
}
