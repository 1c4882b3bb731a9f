/* SPDX-License-Identifier: MIT */
/*
 * Comparing a replayed ioctl with its record.
 *
 * --verify=results compares the return value and errno. --verify=strict
 * (the default) also compares every output field and every output buffer
 * after mapping the captured value to its live counterpart:
 *
 *  - values the kernel picks (handles, queue/event ids, event slots, GEM
 *    handles, fds, render-node mmap offsets) are learned: the first time a
 *    captured value appears it is bound to the live one, and a divergence
 *    is a binding that contradicts an earlier one;
 *  - gpu ids, /dev/kfd offsets, CPU addresses and pids must equal the
 *    translated captured value;
 *  - values that vary by nature are skipped: the CLOCK role, remaining
 *    TIMEOUTs, padding, and AMDGPU_INFO queries of counters and sensors;
 *  - everything else must be equal.
 *
 * verify_special.c holds the calls that need more than roles; report.c
 * prints what diverged.
 */
#include <inttypes.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_verify.h"

/* ------------------------------------------------------------------ */
/* Learned bindings                                                     */

/* Where a compared field lies: element @idx of buffer @buf. */
struct elem_at {
	const char *buf;
	size_t idx;
};

/*
 * A field's name for a report: "name", or "buf[idx].name" in a buffer
 * element (@at). Built only when something diverged: every element of
 * every compared buffer is walked, and formatting costs more than the
 * comparison.
 */
static const char *
field_name(char *buf, size_t len, const struct elem_at *at,
	   const struct kfd_field *f)
{
	if (at)
		snprintf(buf, len, "%s[%zu].%s", at->buf, at->idx, f->name);
	else
		snprintf(buf, len, "%s", f->name);
	return buf;
}

static void
count_binding(struct rp_run *st, unsigned int kind)
{
	switch (kind) {
	case RP_K_HANDLE:
		st->sum.mapped_handles++;
		break;
	case RP_K_QUEUE:
		st->sum.mapped_queues++;
		break;
	case RP_K_EVENT:
		st->sum.mapped_events++;
		break;
	case RP_K_GEM:
		st->sum.mapped_gem++;
		break;
	case RP_K_OFFSET:
		st->sum.mapped_offsets++;
		break;
	default:
		break;
	}
}

static void
bind(struct rp_run *st, unsigned int kind, int scope, uint64_t cap,
     uint64_t live)
{
	uint64_t old;

	/* Only loose kinds come here (learn()): rebinding drops the old one. */
	if (rp_map_get(&st->fwd, kind, (unsigned int)scope, cap, &old))
		rp_map_del(&st->rev, kind, (unsigned int)scope, old);
	if (!rp_map_get(&st->fwd, kind, (unsigned int)scope, cap, &old) ||
	    old != live)
		count_binding(st, kind);
	rp_map_put(&st->fwd, kind, (unsigned int)scope, cap, live);
	rp_map_put(&st->rev, kind, (unsigned int)scope, live, cap);
}

/*
 * A kernel-chosen value: check it against what is already bound, and bind
 * it when the call succeeded.
 */
static void
learn(struct rp_run *st, const struct elem_at *at, const struct kfd_field *f,
      unsigned int kind, int scope, uint64_t cap, uint64_t live, int ok)
{
	uint64_t other;
	char name[160];

	/* Zero is "none" for handles, event ids, GEM handles and offsets. */
	if ((!cap || !live) && kind != RP_K_QUEUE && kind != RP_K_SLOT) {
		if (cap != live)
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   cap, cap, 0, live, NULL);
		return;
	}
	if (rp_kind_strict(kind)) {
		int have_fwd, have_rev;

		have_fwd = rp_map_get(&st->fwd, kind, (unsigned int)scope, cap,
				      &other);
		if (have_fwd && other != live) {
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   cap, other, 1, live,
				   "the captured value is already bound to 0x%"
				   PRIx64, other);
			return;
		}
		have_rev = rp_map_get(&st->rev, kind, (unsigned int)scope, live,
				      &other);
		if (have_rev && other != cap) {
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   cap, cap, 0, live,
				   "the live value already stands for captured 0x%"
				   PRIx64, other);
			return;
		}
		/* Both lookups are done: bind without repeating them. */
		if (ok && !have_fwd) {
			count_binding(st, kind);
			rp_map_put(&st->fwd, kind, (unsigned int)scope, cap, live);
		}
		if (ok && !have_rev)
			rp_map_put(&st->rev, kind, (unsigned int)scope, live, cap);
		return;
	}
	if (ok)
		bind(st, kind, scope, cap, live);
}

static void
forget(struct rp_run *st, unsigned int kind, int scope, uint64_t cap)
{
	uint64_t live;

	if (rp_map_get(&st->fwd, kind, (unsigned int)scope, cap, &live)) {
		rp_map_del(&st->fwd, kind, (unsigned int)scope, cap);
		rp_map_del(&st->rev, kind, (unsigned int)scope, live);
	}
}

/* A fd an ioctl returned: it stands for the captured number from now on. */
static void
learn_fd(struct rp_run *st, const struct elem_at *at, const struct kfd_field *f,
	 int32_t cap, int32_t live, int ok)
{
	char name[160];

	if (cap < 0 || live < 0) {
		/* The name is only built for a report. */
		if ((cap < 0) != (live < 0))
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   (uint32_t)cap, (uint32_t)cap, 0,
				   (uint32_t)live, NULL);
		return;
	}
	if (ok)
		rp_fd_bind(st, cap, live, 0, -1, 1);
}

/* ------------------------------------------------------------------ */
/* Fields                                                               */

static size_t
first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Compare one output field of a struct image (@at: a buffer element). */
static void
check_field(struct rp_run *st, struct rp_call *c, const struct kfd_field *f,
	    const struct elem_at *at, const uint8_t *cap_b,
	    const uint8_t *live_b, size_t len, int ok)
{
	unsigned int role = rp_out_role(st->rows, f);
	uint64_t cv, lv, ev;
	char name[160];

	if (f->width > 8) {
		/* STRING and BYTES: learned (share handles) or compared. */
		if ((size_t)f->offset + f->width > len)
			return;
		if (rp_share_out(st->rows, f)) {
			if (ok)
				rp_share_learn(st, cap_b + f->offset,
					       live_b + f->offset);
			return;
		}
		if (memcmp(cap_b + f->offset, live_b + f->offset, f->width)) {
			const uint8_t *cb = cap_b + f->offset;
			const uint8_t *lb = live_b + f->offset;
			size_t a = first_diff(cb, lb, f->width), z = f->width;

			/* The first and the last byte that differ. */
			while (z > a && cb[z - 1] == lb[z - 1])
				z--;
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   cb[a], cb[a], 0, lb[a],
				   "bytes differ at +%zu..+%zu (the values are "
				   "those at +%zu)", a, z - 1, a);
		}
		return;
	}
	if (kfd_field_load(f, cap_b, len, &cv) < 0 ||
	    kfd_field_load(f, live_b, len, &lv) < 0)
		return;
	switch (rp_out_classify(role, cv)) {
	case RP_V_IGNORE:
		return;
	case RP_V_EXACT:
		if (cv != lv)
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   cv, cv, 0, lv, NULL);
		return;
	case RP_V_XLATE: {
		struct kfd_field tmp = *f;

		tmp.role = (uint8_t)role;
		ev = rp_value_xlate(st, &tmp, c->scope, c->gem_scope, cv);
		if (f->width < 8)
			ev &= (1ull << (8 * f->width)) - 1;
		if (ev != lv)
			rp_diverge(st, field_name(name, sizeof(name), at, f),
				   cv, ev, 1, lv, NULL);
		return;
	}
	case RP_V_FD:
		learn_fd(st, at, f, (int32_t)(uint32_t)cv, (int32_t)(uint32_t)lv,
			 ok);
		return;
	case RP_V_LEARN:
		if (kfd_role_status_bits(role)) {
			const uint64_t sb = kfd_role_status_bits(role);

			if ((cv & sb) != (lv & sb)) {
				rp_diverge(st, field_name(name, sizeof(name), at, f),
					   cv, cv, 0, lv, "status bits differ");
				return;
			}
			/* All ones below the bits: no queue (an invalid id). */
			if ((cv & ~sb & 0xffffffffu) == (~sb & 0xffffffffu))
				return;
			cv &= ~sb;
			lv &= ~sb;
		}
		learn(st, at, f, rp_role_kind(role),
		      rp_learn_scope(role, c->scope, c->gem_scope), cv, lv, ok);
		return;
	}
}

/*
 * Compare the output fields of one struct image: the @n fields @idx lists
 * (the argument struct, by its plan), or with @idx NULL every output among
 * the @n fields of @sd (a buffer element, @at).
 */
static void
check_fields(struct rp_run *st, struct rp_call *c,
	     const struct kfd_struct_desc *sd, const unsigned int *idx,
	     unsigned int n, const struct elem_at *at, const uint8_t *cap_b,
	     const uint8_t *live_b, size_t len, int ok)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct kfd_field *f = &sd->fields[idx ? idx[i] : i];

		if (!idx && !(f->dir & KFD_DIR_OUT))
			continue;
		if (f->select >= 0 && !kfd_field_present(sd, f, cap_b, len))
			continue;
		check_field(st, c, f, at, cap_b, live_b, len, ok);
		if (st->diverged_now && !st->o->keep_going)
			return;
	}
}

/* The argument struct's outputs, by the call's plan. */
static void
check_args(struct rp_run *st, struct rp_call *c, int ok)
{
	const struct rp_req_plan *p = c->plan;

	/*
	 * Nothing to learn or map: identical bytes match field by field too.
	 * (Bytes that differ, e.g. a translated input or a clock, take the
	 * walk, which decides by role.)
	 */
	if (p->out_plain && !memcmp(c->io->arg_after, c->args, c->clen))
		return;
	/* What a call that raced another thread's allocation read
	 * (model_varies.c): only its result is compared. */
	if (rp_model_avail_varies(&st->r->model, c->rec->seq)) {
		st->sum.raced++;
		return;
	}
	check_fields(st, c, c->d->args, p->out, p->nout, NULL, c->io->arg_after,
		     c->args, c->clen, ok);
}

/* Output buffers: lengths, then elements by role or plain bytes. */
static void
check_bufs(struct rp_run *st, struct rp_call *c, int ok)
{
	const struct kt_ioctl_rec *io = c->io;
	const struct kfd_ioctl_desc *d = c->d;
	uint16_t i;

	if (rp_info_variable(st, c))
		return;
	for (i = 0; i < io->nbufs; i++) {
		const struct kt_buf_image *img = &io->bufs[i];
		const struct kfd_indirect *b;
		const struct rp_lbuf *lb = NULL;
		size_t llen = 0;
		char name[96];
		unsigned int k;

		if (img->index >= d->nbufs || !img->after ||
		    (img->flags & (KT_BUF_CLAMPED | KT_BUF_OMITTED)))
			continue;
		b = &d->bufs[img->index];
		for (k = 0; k < c->nlb; k++)
			if (d->bufs[c->lb[k].index].ptr_field == b->ptr_field)
				lb = &c->lb[k];
		if (!lb)
			continue;
		if (kfd_indirect_len(d, b, c->args, c->size, 1, lb->len, &llen) == 1)
			llen = 0;
		if (llen != img->len_after) {
			snprintf(name, sizeof(name), "%s length", b->name);
			rp_diverge(st, name, img->len_after, img->len_after, 0, llen,
				   NULL);
			if (llen > img->len_after)
				llen = img->len_after;
		}
		if (b->elem && b->elem->size) {
			struct elem_at at = { b->name, 0 };
			/* Snapshot entries stride by the negotiated entry_size
			 * and hold only that much of the element. */
			size_t stride = kfd_indirect_stride(d, b, c->args, c->size);
			size_t esz = stride < b->elem->size ? stride : b->elem->size;
			size_t e;

			for (e = 0; stride && e + esz <= llen;
			     e += stride, at.idx++) {
				if (d == st->rows->wait_events)
					rp_age_check(st, c, at.idx, img->after + e,
						     lb->p + e);
				if (st->diverged_now && !st->o->keep_going)
					return;
				check_fields(st, c, b->elem, NULL, b->elem->nfields,
					     &at, img->after + e, lb->p + e,
					     esz, ok);
				if (st->diverged_now && !st->o->keep_going)
					return;
			}
		} else if (memcmp(img->after, lb->p, llen)) {
			size_t at = 0;

			while (at < llen && img->after[at] == lb->p[at])
				at++;
			snprintf(name, sizeof(name), "%s byte %zu", b->name, at);
			rp_diverge(st, name, img->after[at], img->after[at], 0,
				   lb->p[at], NULL);
		}
	}
}

/*
 * Compare the output fields without counting anything: only the bindings
 * of kernel-chosen values are wanted (--verify=results and none still need
 * them for the calls that follow).
 */
static void
learn_quietly(struct rp_run *st, struct rp_call *c, int ok)
{
	st->quiet = 1;
	check_args(st, c, ok);
	st->quiet = 0;
}

void
rp_verify_call(struct rp_run *st, struct rp_call *c)
{
	const struct kt_ioctl_rec *io = c->io;
	int ok = c->ret >= 0 && io->ret >= 0;
	enum kfd_replay_verify v = st->o->verify;

	if (v == KFD_REPLAY_VERIFY_NONE) {
		if (ok && io->arg_after && c->d->args)
			learn_quietly(st, c, ok);
		return;
	}
	if (c->ret != io->ret || (io->ret < 0 && c->err != io->err)) {
		rp_diverge_result(st, io->ret, io->err, c->ret, c->err);
		/* Nothing the failed side returned can be compared. */
		return;
	}
	if (!io->arg_after || !c->d->args)
		return;
	if (v == KFD_REPLAY_VERIFY_RESULTS) {
		learn_quietly(st, c, ok);
		return;
	}
	if (rp_check_special(st, c)) {
		/* The other output fields still count. */
		const struct kfd_struct_desc *sd = c->d->args;
		unsigned int i;

		for (i = 0; i < sd->nfields; i++) {
			const struct kfd_field *f = &sd->fields[i];

			if ((f->dir & KFD_DIR_OUT) && f->role != KFD_ROLE_GPU_ID &&
			    f->role != KFD_ROLE_GPU_VA && f != st->rows->apn_num &&
			    f != st->rows->ap_num)
				check_field(st, c, f, NULL, io->arg_after,
					    c->args, c->clen, ok);
		}
		return;
	}
	check_args(st, c, ok);
	if (st->diverged_now && !st->o->keep_going)
		return;
	if (c->d == st->rows->svm)
		rp_check_svm_attrs(st, c);
	check_bufs(st, c, ok);
}

void
rp_forget_call(struct rp_run *st, struct rp_call *c)
{
	const struct rp_rows *r = st->rows;
	const uint8_t *b = c->io->arg_before;
	uint32_t n = c->io->arg_size;

	if (c->d == r->create_process) {
		struct rp_fdent *e = rp_fd_get(st, c->io->fd);

		/* The fd now stands for a process of its own. */
		if (e && e->ofd >= 0)
			RP_AT(&st->ofds, struct rp_ofd, e->ofd)->proc = ++st->nproc;
		return;
	}
	if (!b)
		return;
	if (c->d == r->free_mem)
		forget(st, RP_K_HANDLE, c->scope, rp_fget(r->free_handle, b, n));
	else if (c->d == r->destroy_queue)
		forget(st, RP_K_QUEUE, c->scope, rp_fget(r->dq_qid, b, n));
	else if (c->d == r->destroy_event)
		forget(st, RP_K_EVENT, c->scope, rp_fget(r->de_id, b, n));
	else if (c->d == r->gem_close)
		forget(st, RP_K_GEM, c->gem_scope, rp_fget(r->gclose_handle, b, n));
}
