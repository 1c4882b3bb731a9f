/* SPDX-License-Identifier: MIT */
/*
 * Per-request plans: what the replay does with each schema row, worked out
 * once instead of for every record. A plan lists the argument fields whose
 * input values are translated (by role) and the ones whose output values
 * are compared or learned under --verify=strict, so that neither the
 * translation nor the comparison walks fields the schema says play no
 * part: padding, clocks, timeouts and plain pointers are never read back.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "replay_priv.h"

static struct rp_req_plan *plans;
static const struct kfd_ioctl_desc *plan_row0;
static unsigned int plan_nrows;
static pthread_once_t plans_once = PTHREAD_ONCE_INIT;
static int plans_ready;

int
rp_role_translated(unsigned int role)
{
	switch (role) {
	case KFD_ROLE_GPU_ID:
	case KFD_ROLE_HANDLE:
	case KFD_ROLE_QUEUE_ID:
	case KFD_ROLE_EVENT_ID:
	case KFD_ROLE_EVENT_SLOT:
	case KFD_ROLE_GEM_HANDLE:
	case KFD_ROLE_FD:
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
	case KFD_ROLE_CPU_ADDR:
	case KFD_ROLE_PID:
		return 1;
	default:
		return 0;
	}
}

/* Output roles verify.c compares for plain equality (no mapping). */
static int
out_plain(const struct rp_rows *r, const struct kfd_field *f)
{
	if (f == r->ce_page || f == r->ce_trigger || f == r->ipce_share)
		return 0;
	switch (f->role) {
	case KFD_ROLE_FD:
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
	case KFD_ROLE_GPU_ID:
	case KFD_ROLE_CPU_ADDR:
	case KFD_ROLE_PID:
		return 0;
	default:
		return !rp_role_learnable(f->role);
	}
}

/* Output fields verify.c would skip whatever their value. */
static int
out_ignored(const struct rp_rows *r, const struct kfd_field *f)
{
	/* Byte strings are compared whatever their role. */
	if (f->width > 8)
		return 0;
	/* These two change role on the way out (verify.c out_role()). */
	if (f == r->ce_page || f == r->ce_trigger)
		return 0;
	switch (f->role) {
	case KFD_ROLE_PAD:
	case KFD_ROLE_CLOCK:
	case KFD_ROLE_TIMEOUT:
	case KFD_ROLE_PTR:
		return 1;
	default:
		return 0;
	}
}

static void
plan_row(struct rp_req_plan *p, const struct kfd_ioctl_desc *d,
	 const struct rp_rows *r)
{
	const struct kfd_struct_desc *sd = d->args;
	unsigned int i;

	p->never = !strcmp(d->name, "CROSS_MEMORY_COPY") ||
		   !strcmp(d->name, "CRIU_OP") || !strcmp(d->name, "AIS_OP");
	for (i = 0; i < d->nbufs; i++)
		if (d->bufs[i].len_kind != KFD_LEN_TRAILING &&
		    d->bufs[i].ptr_field >= 0 && sd &&
		    (unsigned int)d->bufs[i].ptr_field < sd->nfields)
			p->has_bufs = 1;
	if (!sd)
		return;
	if (sd->nfields > RP_PLAN_FIELDS) {
		/* Not expected of the schema; the generic walks still work. */
		p->generic = 1;
		return;
	}
	p->out_plain = 1;
	for (i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		if ((f->dir & KFD_DIR_OUT) && !out_ignored(r, f) && !out_plain(r, f))
			p->out_plain = 0;
		/* ALLOC's CPU address is pre_special()'s (run_ioctl.c). */
		if ((f->dir & KFD_DIR_IN) && rp_role_translated(f->role) &&
		    !(d == r->alloc && f == r->alloc_off))
			p->in[p->nin++] = (uint8_t)i;
		if ((f->dir & KFD_DIR_OUT) && !out_ignored(r, f))
			p->out[p->nout++] = (uint8_t)i;
		if ((f->dir & KFD_DIR_IN) && (f->role == KFD_ROLE_GPU_ID ||
					      f->role == KFD_ROLE_HANDLE))
			p->gpu[p->ngpu++] = (uint8_t)i;
	}
}

static void
plans_init(void)
{
	const struct rp_rows *r = rp_rows();
	unsigned int i;

	plan_row0 = kfd_schema_rows(&plan_nrows);
	plans = calloc(plan_nrows ? plan_nrows : 1, sizeof(*plans));
	if (!plans)
		return;
	for (i = 0; i < plan_nrows; i++)
		plan_row(&plans[i], &plan_row0[i], r);
}

const struct rp_req_plan *
rp_req_plan(const struct kfd_ioctl_desc *d)
{
	/* Called for every record: skip pthread_once once the table is up. */
	if (!__atomic_load_n(&plans_ready, __ATOMIC_ACQUIRE)) {
		pthread_once(&plans_once, plans_init);
		__atomic_store_n(&plans_ready, 1, __ATOMIC_RELEASE);
	}
	if (!plans || !d || d < plan_row0 || d >= plan_row0 + plan_nrows)
		return NULL;
	return &plans[d - plan_row0];
}
