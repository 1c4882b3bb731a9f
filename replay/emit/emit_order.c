/* SPDX-License-Identifier: MIT */
/*
 * emit-c, order: the records sorted as the serial replay issues them,
 * with the moves described in emit.c (a releasing SET_EVENT before its
 * wait, a wait before a later SET_EVENT, an old life's end before the
 * creation that got its id back), each thread kept in its own order.
 */
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* How far a released wait looks for the SET_EVENT that released it. */
#define EM_WAIT_WINDOW 4096

static int
cmp_item(const void *a, const void *b)
{
	const struct em_item *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->moved != y->moved)
		return x->moved < y->moved ? -1 : 1;
	return x->rec->seq < y->rec->seq ? -1 : x->rec->seq > y->rec->seq;
}

/* ------------------------------------------------------------------ */
/* Order                                                                */

/*
 * Put items[@y] just before items[@x]: keys only, the sort comes after
 * all moves. The calls a record is moved past are never of its own
 * thread: records are numbered as they are appended, after their calls
 * returned, so the calls its thread made before it were numbered before
 * the record it now precedes (see em_order()).
 */
static void
move_before(struct em_item *it, size_t y, size_t x)
{
	it[y].major = it[x].major;
	it[y].moved = -1;
}

/* Whether every thread's records are in its own (sequence) order. */
static int
thread_ordered(const struct em_item *it, size_t n)
{
	struct { uint32_t tid; uint64_t seq; } last[EM_MAX_THREADS];
	unsigned int nl = 0, k;
	size_t i;

	for (i = 0; i < n; i++) {
		for (k = 0; k < nl && last[k].tid != it[i].rec->tid; k++)
			;
		if (k == nl) {
			if (nl == EM_MAX_THREADS)
				return 0;
			last[nl].tid = it[i].rec->tid;
			nl++;
		} else if (it[i].rec->seq < last[k].seq) {
			return 0;
		}
		last[k].seq = it[i].rec->seq;
	}
	return 1;
}

static size_t
find_seq(const struct em_item *it, size_t n, uint64_t seq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (it[mid].rec->seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && it[lo].rec->seq == seq ? lo : n;
}

/* Whether items[i] is a SET_EVENT of one of @ids entered in [from, to]. */
static int
sets_one(const struct em *e, const struct em_item *it, size_t i,
	 const uint32_t *ids, int n, uint64_t from, uint64_t to)
{
	uint32_t id;
	int k;

	if (!rp_set_event_id(e->rows, it[i].rec, &id) ||
	    it[i].rec->u.ioctl.ret < 0 || it[i].rec->ts < from ||
	    it[i].rec->ts > to)
		return 0;
	for (k = 0; k < n; k++)
		if (ids[k] == id)
			return 1;
	return 0;
}

/* Map kinds in e->events beside emit_ioctl.c's (kind 0). */
#define AGE_NOW		1	/* event id -> its age in the program */
#define AGE_STAND	2	/* seq << 8 | element -> stand-ins */
#define AGE_SHORT	3	/* seq << 8 | element: sets numbered
				 * before the wait cannot give its age */
/* Interrupts stood in for before one wait, at most: past it, one. */
#define AGE_STAND_MAX	4096

/*
 * Event ages through the records @it, in their order: 1 at creation, one
 * more at every set. With @plan (the program's order, one call at a
 * time), before a completed wait each event that released it in the
 * capture gets the sets its returned age still lacks, as the replay makes
 * them (ages.c); without (sequence order), the events whose age the sets
 * before the wait do not reach are noted.
 */
static void
age_walk(struct em *e, const struct em_item *it, size_t n, int plan)
{
	const struct rp_rows *r = e->rows;
	const size_t el = sizeof(struct kfd_abi_event_data);
	size_t i, off;

	for (i = 0; i < n; i++) {
		const struct kt_record *rec = it[i].rec;
		const struct kt_ioctl_rec *io = &rec->u.ioctl;
		const struct kfd_ioctl_desc *d;
		const struct kt_buf_image *b;
		uint32_t id, ids[1];
		uint64_t age;

		if (rec->type != KT_REC_IOCTL || io->ret < 0)
			continue;
		d = kfd_schema_lookup((enum kfd_file_kind)io->file_kind,
				      io->request);
		if (d == r->create_event && io->arg_after &&
		    rp_fhas(r->ce_id, io->arg_size)) {
			rp_map_put(&e->events, AGE_NOW, 0,
				   rp_fget(r->ce_id, io->arg_after, io->arg_size), 1);
			continue;
		}
		if (rp_set_event_id(r, rec, &id)) {
			if (rp_map_get(&e->events, AGE_NOW, 0, id, &age))
				rp_map_put(&e->events, AGE_NOW, 0, id, age + 1);
			continue;
		}
		if (d != r->wait_events || !rp_wait_completed(r, d, io) ||
		    rp_wait_fired(r, rec, ids, 1) < 0 ||
		    !(b = rp_find_image(io, 0)))
			continue;
		for (off = 0; off + el <= b->len_before && off + el <= b->len_after &&
		     off / el < 256; off += el) {
			struct kfd_abi_event_data in, out;
			uint64_t want, k;

			memcpy(&in, b->before + off, el);
			memcpy(&out, b->after + off, el);
			want = out.signal_event_data.last_event_age;
			if (want == in.signal_event_data.last_event_age ||
			    !rp_map_get(&e->events, AGE_NOW, 0, in.event_id, &age) ||
			    want <= age)
				continue;
			if (!plan) {
				rp_map_put(&e->events, AGE_SHORT, 0,
					   rec->seq << 8 | off / el, want - age);
				continue;
			}
			k = want - age > AGE_STAND_MAX ? 1 : want - age;
			rp_map_put(&e->events, AGE_STAND, 0, rec->seq << 8 | off / el, k);
			rp_map_put(&e->events, AGE_NOW, 0, in.event_id, age + k);
		}
	}
}

/*
 * With event ages, move before the wait @it[@i] the SET_EVENTs numbered
 * after it that entered before it returned, as many per event that
 * released it as the sets numbered before it fall short of the age it got
 * back. Return: 0 without ages (the caller decides by time alone).
 */
static int
age_moves(struct em *e, struct em_item *it, size_t n, size_t i)
{
	const struct kt_record *w = it[i].rec;
	const struct kt_buf_image *b = rp_find_image(&w->u.ioctl, 0);
	const size_t el = sizeof(struct kfd_abi_event_data);
	uint32_t ids[1];
	uint64_t short_by;
	size_t off, j;

	if (rp_wait_fired(e->rows, w, ids, 1) < 0 || !b)
		return 0;
	for (off = 0; off + el <= b->len_before && off / el < 256; off += el) {
		struct kfd_abi_event_data in;

		if (!rp_map_get(&e->events, AGE_SHORT, 0, w->seq << 8 | off / el,
				&short_by))
			continue;
		memcpy(&in, b->before + off, el);
		for (j = i + 1; j < n && j <= i + EM_WAIT_WINDOW && short_by; j++)
			if (sets_one(e, it, j, &in.event_id, 1, 0, w->u.ioctl.t_exit)) {
				move_before(it, j, i);
				short_by--;
			}
	}
	return 1;
}

uint64_t
em_age_stand_ins(const struct em *e, uint64_t seq, size_t idx)
{
	uint64_t k = 0;

	if (idx < 256)
		rp_map_get(&e->events, AGE_STAND, 0, seq << 8 | idx, &k);
	return k;
}

void
em_order(struct em *e, struct em_item *it, size_t n)
{
	const struct rp_rows *r = e->rows;
	size_t i, j;

	age_walk(e, it, n, 0);
	/* Swaps: the end of an id's previous life first. */
	for (i = 0; i < e->m.swaps.n; i++) {
		const struct rp_swap *s = RP_AT(&e->m.swaps, struct rp_swap, i);
		size_t c = find_seq(it, n, s->c), d = find_seq(it, n, s->e);

		if (c < n && d < n && c < d)
			move_before(it, d, c);
	}
	/* Waits: after the SET_EVENT that released them. */
	for (i = 0; i < n; i++) {
		const struct kt_record *w = it[i].rec;
		const struct kfd_ioctl_desc *d;
		uint32_t ids[64];
		int k, before = 0;

		if (w->type != KT_REC_IOCTL)
			continue;
		d = kfd_schema_lookup((enum kfd_file_kind)w->u.ioctl.file_kind,
				      w->u.ioctl.request);
		if (d != r->wait_events || !rp_wait_completed(r, d, &w->u.ioctl))
			continue;
		k = rp_wait_ids(r, w, ids, 64);
		if (k <= 0 || k > 64)
			continue;
		/*
		 * A SET_EVENT numbered before it that entered after it had
		 * returned did not release it (a wait's record can be
		 * appended late): the wait goes before it, or that set would
		 * signal the event again before the wait consumed it once.
		 * (The wait's thread was in the wait meanwhile: none of its
		 * own calls lie between.)
		 */
		for (j = i > EM_WAIT_WINDOW ? i - EM_WAIT_WINDOW : 0; j < i; j++)
			if (sets_one(e, it, j, ids, k, w->u.ioctl.t_exit + 1, UINT64_MAX)) {
				move_before(it, i, j);
				break;
			}
		if (age_moves(e, it, n, i))
			continue;
		for (j = i > EM_WAIT_WINDOW ? i - EM_WAIT_WINDOW : 0; j < i && !before; j++)
			before = sets_one(e, it, j, ids, k, w->ts, w->u.ioctl.t_exit);
		if (before)
			continue;
		/*
		 * One numbered after it that entered before it returned may
		 * have signalled before the wait entered, or while it waited.
		 */
		for (j = i + 1; j < n && j <= i + EM_WAIT_WINDOW; j++)
			if (sets_one(e, it, j, ids, k, 0, w->u.ioctl.t_exit)) {
				move_before(it, j, i);
				break;
			}
	}
	qsort(it, n, sizeof(*it), cmp_item);
	if (!thread_ordered(it, n)) {
		/* Never a program that waits for itself: sequence order. */
		for (i = 0; i < n; i++) {
			it[i].major = it[i].rec->seq;
			it[i].moved = 0;
		}
		qsort(it, n, sizeof(*it), cmp_item);
	}
	age_walk(e, it, n, 1);
}
