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
 * divergence at its own record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_priv.h"

/* A wait that completed in the capture, or 0. */
int
rp_wait_completed(const struct rp_rows *r, const struct kfd_ioctl_desc *d,
		  const struct kt_ioctl_rec *io)
{
	if (d != r->wait_events || io->ret != 0 || !io->arg_after ||
	    !rp_fhas(r->we_result, io->arg_size) ||
	    !rp_fhas(r->we_timeout, io->arg_size))
		return 0;
	return rp_fget(r->we_result, io->arg_after, io->arg_size) ==
	       KFD_ABI_WAIT_RESULT_COMPLETE;
}

int
rp_wait_ids(const struct rp_rows *r, const struct kt_record *rec,
	    uint32_t *ids, size_t max)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_struct_desc *el;
	const struct kfd_field *f = NULL;
	unsigned int i;
	uint16_t k;

	if (!r->wait_events->nbufs || !(el = r->wait_events->bufs[0].elem) ||
	    !el->size)
		return -1;
	for (i = 0; i < el->nfields; i++)
		if (!strcmp(el->fields[i].name, "event_id"))
			f = &el->fields[i];
	if (!f)
		return -1;
	for (k = 0; k < io->nbufs; k++) {
		const struct kt_buf_image *b = &io->bufs[k];
		size_t off;
		int n = 0;

		if (b->index != 0 || !b->before)
			continue;
		for (off = 0; off + el->size <= b->len_before; off += el->size) {
			uint64_t v;

			if (kfd_field_load(f, b->before + off, el->size, &v))
				continue;
			if ((size_t)n < max)
				ids[n] = (uint32_t)v;
			n++;
		}
		return n;
	}
	return -1;
}

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
	rp_run_ioctl(st, rec);
	st->wait_final = 0;
	if (!st->wait_still) {
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

void
rp_wait_after(struct rp_run *st, const struct kt_record *rec,
	      const struct kfd_ioctl_desc *d)
{
	const struct rp_rows *r = st->rows;
	size_t i;

	if (!st->nwaits || st->wait_final || st->in_retry)
		return;
	(void)rec;
	if (d != r->set_event)
		return;
	st->in_retry = 1;
	for (i = 0; i < st->nwaits;) {
		size_t n = st->nwaits;

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
			retry(st, i, 1);
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
		retry(st, 0, 1);
	st->in_retry = 0;
}
