/* SPDX-License-Identifier: MIT */
/*
 * Waits the serial replay must not block on.
 *
 * Sequence numbers are taken when a call's record is appended, after it
 * returned; a WAIT_EVENTS that another thread's SET_EVENT released may
 * therefore come before that SET_EVENT in sequence order, and so in the
 * serial replay. A wait that completed in the capture is issued with
 * timeout 0: if the live events are not signalled yet, it is held
 * (pending, not compared) and issued again, still without blocking,
 * after every replayed SET_EVENT. It is compared once it completes. Before a DESTROY_EVENT of one of its events, and at the end
 * of the pass, a pending wait is issued a last time with its captured
 * timeout (capped by --wait-cap, as any wait): whatever signals it
 * asynchronously gets its chance, and a wait nothing released is a
 * divergence at its own record. A wait that event ages show an engine
 * released is not held for the engine (rp_age_stand_in(), by what
 * ages.c's rp_age_lack() says).
 *
 * A wait no CPU call released was released by an engine: the completion
 * of a packet raised the event's interrupt. The replay runs no packets,
 * so it stands in for the GPU (rp_wait_stand_in()): when a completed
 * wait finds its events unsignalled and the capture has no SET_EVENT of
 * them that entered while it waited, the replayer sets them with
 * SET_EVENT calls of its own, then issues the wait: in the serial replay
 * at the last issue above, in --threads after its first try. Which
 * events: with event ages (KFD 1.14), those whose age the wait got back
 * advanced (the kernel writes back the age of the events that released
 * it); without, all of a wait for all, the first of a wait for any.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_run.h"

/* Whether the wait @rec names event @id (1 when it cannot tell). */
static int
wait_names(const struct rp_rows *r, const struct kt_record *rec, uint32_t id)
{
	uint32_t ids[64];
	int n = rp_wait_ids(r, rec, ids, 64), i;

	if (n < 0 || n > 64)
		return 1;
	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

void
rp_wait_stand_in(struct rp_run *st, const struct kt_record *rec)
{
	uint32_t ids[64];
	int n = rp_wait_stand_in_ids(&st->r->model, st->rows, rec, ids, 64), i;

	for (i = 0; i < n; i++)
		rp_wait_set(st, rec, ids[i]);
}

void
rp_age_stand_in(struct rp_run *st, const struct kt_record *rec)
{
	uint64_t n;
	uint32_t id;
	size_t i;

	for (i = 0; rp_age_lack(st, rec, i, &id, &n); i++)
		for (; n && !st->stop; n--)
			rp_wait_set(st, rec, id);
}

void
rp_wait_set(struct rp_run *st, const struct kt_record *rec, uint32_t id)
{
	const struct rp_rows *r = st->rows;
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct kfd_abi_set_event_args a;
	struct kt_record set;
	uint64_t before;

	memset(&a, 0, sizeof(a));
	a.event_id = id;
	memset(&set, 0, sizeof(set));
	set.type = KT_REC_IOCTL;
	set.seq = rec->seq;
	set.ts = rec->ts;
	set.tid = rec->tid;
	set.u.ioctl.fd = io->fd;
	set.u.ioctl.file_kind = io->file_kind;
	set.u.ioctl.request = r->set_event->request;
	set.u.ioctl.t_exit = rec->ts;
	set.u.ioctl.arg_size = sizeof(a);
	set.u.ioctl.arg_before = (const uint8_t *)&a;
	set.u.ioctl.arg_after = (const uint8_t *)&a;
	before = st->sum.ioctls;
	st->issue(st, &set);
	/* Not one of the capture's calls. */
	if (st->sum.ioctls > before) {
		if (st->live_ret == 0)
			rp_age_count_set(st, &set, 1);
		st->sum.ioctls--;
		st->sum.gpu_sets++;
		rp_mark_own(st, KFD_REPLAY_GPU_NOTE);
	}
}

/* Issue pending wait @i again; drop it when it is done with. */
static void
retry(struct rp_run *st, size_t i, int final)
{
	struct kt_record *rec = st->waits[i];
	uint64_t seq = st->cur_seq;
	const char *name = st->cur_name;
	int diverged = st->diverged_now, have_live = st->have_live;
	int64_t lret = st->live_ret;
	int lerr = st->live_err;

	st->wait_final = final;
	st->wait_still = 0;
	st->cur_seq = rec->seq;
	st->diverged_now = 0;
	st->have_live = 0;
	st->issue(st, rec);
	st->wait_final = 0;
	if (!st->wait_still) {
		/* The issue compared (if made): diff gives it its try's place. */
		if (st->have_live)
			rp_mark_own(st, KFD_REPLAY_DONE_NOTE, rec->seq);
		if (final && st->diverged_now)
			rp_note(st, "no record before #%" PRIu64 " released this "
				"wait, which completed in the capture", seq);
		free(rec);
		memmove(&st->waits[i], &st->waits[i + 1],
			(st->nwaits - i - 1) * sizeof(st->waits[0]));
		st->nwaits--;
	}
	st->cur_seq = seq;
	st->cur_name = name;
	st->diverged_now = diverged;
	st->have_live = have_live;
	st->live_ret = lret;
	st->live_err = lerr;
}

/*
 * The last issue of pending wait @i: once more without blocking (a
 * signal may have come from anywhere), then, if nothing released it, in
 * the GPU's stead.
 */
static void
finish(struct rp_run *st, size_t i)
{
	size_t n = st->nwaits;

	retry(st, i, 0);
	if (st->nwaits != n)
		return;
	rp_wait_stand_in(st, st->waits[i]);
	retry(st, i, 1);
}

int
rp_wait_hold(struct rp_run *st, const struct kt_record *rec)
{
	struct kt_record *c;

	/*
	 * Full: this one is compared now (issuing an older one here would
	 * reuse the argument memory of the call being replayed).
	 */
	if (st->nwaits == RP_MAX_PENDING_WAITS)
		return -ENOSPC;
	c = kt_record_clone(rec);
	if (!c)
		return -ENOMEM;
	st->waits[st->nwaits++] = c;
	return 0;
}

/*
 * How a CPU SET_EVENT (captured entry @ts, event @id; @id 0 and @ts 0:
 * unknown) relates to pending wait @w: 2, it entered while @w waited on
 * that event (its releaser, most likely); 1, some CPU set entered while
 * @w waited; 0, none did: an engine released @w, and only the stand-in
 * may (a CPU set here is another wait's). With event ages, 2 once the
 * events that released @w were set as often as then, else 0.
 */
static int
released_by(const struct rp_run *st, const struct kt_record *w, uint32_t id,
	    uint64_t ts)
{
	uint32_t ids[64];
	int n = rp_wait_ids(st->rows, w, ids, 64), k;
	uint64_t end = w->u.ioctl.t_exit;

	/* With event ages: once its events were set often enough (ages.c). */
	if (rp_wait_fired(st->rows, w, ids, 64) >= 0)
		return rp_age_due(st, w) ? 2 : 0;
	if (n <= 0 || n > 64 || end < w->ts)
		return 1;
	if (ts >= w->ts && ts < end)
		for (k = 0; k < n; k++)
			if (ids[k] == id)
				return 2;
	return rp_model_cpu_set(&st->r->model, ids, n, w->ts, end);
}

void
rp_wait_after(struct rp_run *st, const struct kt_record *rec,
	      const struct kfd_ioctl_desc *d)
{
	const struct rp_rows *r = st->rows;
	uint32_t id = 0;
	int pass;
	size_t i;

	if (!st->nwaits || st->wait_final || st->in_retry)
		return;
	if (d != r->set_event)
		return;
	rp_set_event_id(r, rec, &id);
	st->in_retry = 1;
	/* The waits this set released in the capture first, then others
	 * a CPU set released; never one an engine released. */
	for (pass = 2; pass >= 1; pass--)
		for (i = 0; i < st->nwaits;) {
			size_t n = st->nwaits;

			if (released_by(st, st->waits[i], id, rec->ts) == pass)
				retry(st, i, 0);
			if (st->nwaits == n)
				i++;
		}
	st->in_retry = 0;
}

void
rp_wait_before(struct rp_run *st, const struct kt_record *rec,
	       const struct kfd_ioctl_desc *d)
{
	const struct rp_rows *r = st->rows;
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	uint32_t id;
	size_t i;

	if (!st->nwaits || st->in_retry || d != r->destroy_event ||
	    !io->arg_before || !rp_fhas(r->de_id, io->arg_size))
		return;
	id = (uint32_t)rp_fget(r->de_id, io->arg_before, io->arg_size);
	st->in_retry = 1;
	for (i = 0; i < st->nwaits;) {
		size_t n = st->nwaits;

		if (wait_names(r, st->waits[i], id))
			finish(st, i);
		if (st->nwaits == n)
			i++;
	}
	st->in_retry = 0;
}

void
rp_wait_flush(struct rp_run *st)
{
	st->in_retry = 1;
	while (st->nwaits)
		finish(st, 0);
	st->in_retry = 0;
}
