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

static int
cmp_item(const void *a, const void *b)
{
	const struct em_item *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->moved != y->moved)
		return x->moved < y->moved ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
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
		for (k = 0; k < nl && last[k].tid != it[i].tid; k++)
			;
		if (k == nl) {
			if (nl == EM_MAX_THREADS)
				return 0;
			last[nl].tid = it[i].tid;
			nl++;
		} else if (it[i].seq < last[k].seq) {
			return 0;
		}
		last[k].seq = it[i].seq;
	}
	return 1;
}

static size_t
find_seq(const struct em_item *it, size_t n, uint64_t seq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (it[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && it[lo].seq == seq ? lo : n;
}

/* Whether items[i] is a SET_EVENT of one of @ids entered in [from, to]. */
static int
sets_one(const struct em_item *it, size_t i, const uint32_t *ids, int n,
	 uint64_t from, uint64_t to)
{
	int k;

	if (it[i].kind != EM_I_SET || it[i].ts < from || it[i].ts > to)
		return 0;
	for (k = 0; k < n; k++)
		if (ids[k] == it[i].ev)
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
 * Event ages through the items @it, in their order: 1 at creation, one
 * more at every set. With @plan (the program's order, one call at a
 * time), before a completed wait each event that released it in the
 * capture gets the sets its returned age still lacks, as the replay makes
 * them (ages.c); without (sequence order), the events whose age the sets
 * before the wait do not reach are noted.
 */
static void
age_walk(struct em *e, const struct em_item *it, size_t n, int plan)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct em_item *w = &it[i];
		uint64_t age;

		if (w->kind == EM_I_CREATE) {
			rp_map_put(&e->events, AGE_NOW, 0, w->ev, 1);
			continue;
		}
		if (w->kind == EM_I_SET) {
			if (rp_map_get(&e->events, AGE_NOW, 0, w->ev, &age))
				rp_map_put(&e->events, AGE_NOW, 0, w->ev, age + 1);
			continue;
		}
		if (w->kind != EM_I_WAIT || !w->aged)
			continue;
		for (unsigned int k = 0; k < w->nids; k++) {
			const uint32_t id = *RP_AT(&e->wait_ids, uint32_t, w->ev + k);
			const struct em_age *a = RP_AT(&e->wait_ages, struct em_age,
						       w->ev + k);
			uint64_t want = a->out, s;

			if (want == a->in ||
			    !rp_map_get(&e->events, AGE_NOW, 0, id, &age) ||
			    want <= age)
				continue;
			if (!plan) {
				rp_map_put(&e->events, AGE_SHORT, 0,
					   w->seq << 8 | k, want - age);
				continue;
			}
			s = want - age > AGE_STAND_MAX ? 1 : want - age;
			rp_map_put(&e->events, AGE_STAND, 0, w->seq << 8 | k, s);
			rp_map_put(&e->events, AGE_NOW, 0, id, age + s);
		}
	}
}

/* Whether items[@j] already goes before items[@i] (cmp_item()'s order). */
static int
goes_before(const struct em_item *it, size_t j, size_t i)
{
	return cmp_item(&it[j], &it[i]) < 0;
}

/*
 * With event ages, move before the wait @it[@i] the SET_EVENTs numbered
 * after it that entered before it returned, as many per event that
 * released it as the sets numbered before it fall short of the age it got
 * back. A set numbered after it that a move put before an earlier wait
 * goes before this one too: it counts, and it stays where it is (moved
 * again, it would leave that wait short). Return: 0 without ages (the
 * caller decides by time alone).
 */
static int
age_moves(struct em *e, struct em_item *it, size_t n, size_t i)
{
	const struct em_item *w = &it[i];
	uint64_t short_by;
	size_t j, end = i + EM_MOVE_WINDOW < n ? i + EM_MOVE_WINDOW + 1 : n;

	if (!w->aged)
		return 0;
	for (unsigned int k = 0; k < w->nids; k++) {
		const uint32_t id = *RP_AT(&e->wait_ids, uint32_t, w->ev + k);

		if (!rp_map_get(&e->events, AGE_SHORT, 0, w->seq << 8 | k,
				&short_by))
			continue;
		for (j = i + 1; j < end && short_by; j++)
			if (sets_one(it, j, &id, 1, 0, UINT64_MAX) &&
			    goes_before(it, j, i))
				short_by--;
		for (j = i + 1; j < end && short_by; j++)
			if (sets_one(it, j, &id, 1, 0, w->t_exit) &&
			    !goes_before(it, j, i)) {
				move_before(it, j, i);
				short_by--;
			}
	}
	return 1;
}

/* The event of the wait @it[@i] when it waits for one, without ages. */
static int
one_event(const struct em *e, const struct em_item *w, uint32_t *id)
{
	if (w->kind != EM_I_WAIT || w->aged || w->nids != 1)
		return 0;
	*id = *RP_AT(&e->wait_ids, uint32_t, w->ev);
	return 1;
}

/*
 * The last two SET_EVENTs of @id, in the order so far, between the wait
 * on @id numbered before @it[@i] and @it[@i] (@last, @prev; n when there
 * are fewer). Without event ages an event holds one signal: those sets
 * are what the wait @it[@i] can consume.
 */
static void
pending_sets(const struct em *e, const struct em_item *it, size_t n, size_t i,
	     uint32_t id, size_t *last, size_t *prev)
{
	size_t lo = i > EM_MOVE_WINDOW ? i - EM_MOVE_WINDOW : 0, j, p = n;
	uint32_t o;

	*last = *prev = n;
	for (j = i; j-- > lo && p == n;)
		if (one_event(e, &it[j], &o) && o == id)
			p = j;
	for (j = lo; j < i; j++) {
		if (!sets_one(it, j, &id, 1, 0, UINT64_MAX) ||
		    (p < n && !goes_before(it, p, j)) || !goes_before(it, j, i))
			continue;
		if (*last == n || goes_before(it, *last, j)) {
			*prev = *last;
			*last = j;
		} else if (*prev == n || goes_before(it, *prev, j)) {
			*prev = j;
		}
	}
}

/*
 * Whether the wait @it[@i] on one event, without ages, finds it already
 * signalled by a set numbered before it: then no later set released it.
 */
static int
signalled_before(const struct em *e, const struct em_item *it, size_t n,
		 size_t i)
{
	size_t last, prev;
	uint32_t id;

	if (!one_event(e, &it[i], &id))
		return 0;
	pending_sets(e, it, n, i, id, &last, &prev);
	return last < n;
}

/*
 * When two sets of the event of the wait @it[@i] are pending (above), the
 * later one entered once the wait had, and the next wait on the event
 * has no set of its own, that later set came after the wake: it gave the
 * next wait its signal. The wait goes before it (the wait's thread made
 * no calls meanwhile). Return: whether it moved.
 */
static int
late_set(const struct em *e, struct em_item *it, size_t n, size_t i)
{
	const struct em_item *w = &it[i];
	size_t hi = i + EM_MOVE_WINDOW < n ? i + EM_MOVE_WINDOW + 1 : n;
	size_t j, last, prev, next = n;
	uint32_t id, o;

	if (!one_event(e, w, &id))
		return 0;
	pending_sets(e, it, n, i, id, &last, &prev);
	if (prev == n || it[last].ts < w->ts || it[last].ts < it[prev].t_exit)
		return 0;
	for (j = i + 1; j < hi && next == n; j++) {
		if (sets_one(it, j, &id, 1, 0, UINT64_MAX))
			return 0;
		if (one_event(e, &it[j], &o) && o == id)
			next = j;
	}
	if (next == n)
		return 0;
	/* Nor one numbered after that next wait that entered before it returned. */
	for (j = next + 1; j < hi; j++)
		if (sets_one(it, j, &id, 1, 0, it[next].t_exit))
			return 0;
	move_before(it, i, last);
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
	size_t i, j;

	if (!n)
		return;		/* a trace without calls: nothing to order */
	age_walk(e, it, n, 0);
	/*
	 * Swaps: the end of an id's previous life first, when it is near
	 * enough for the emitting pass to hold what it passes. A record with
	 * several goes before the earliest (a wait before each of the sets
	 * that came after its wake).
	 */
	for (i = 0; i < e->m.swaps.n; i++) {
		const struct rp_swap *s = RP_AT(&e->m.swaps, struct rp_swap, i);
		size_t c = find_seq(it, n, s->c), d = find_seq(it, n, s->e);

		if (c < n && d < n && c < d && d - c <= EM_MOVE_WINDOW &&
		    goes_before(it, c, d))
			move_before(it, d, c);
	}
	/* Waits: after the SET_EVENT that released them. */
	for (i = 0; i < n; i++) {
		const struct em_item *w = &it[i];
		const uint32_t *ids;
		int k, before = 0;

		if (w->kind != EM_I_WAIT)
			continue;
		ids = RP_AT(&e->wait_ids, uint32_t, w->ev);
		k = w->nids;
		/*
		 * A SET_EVENT numbered before it that entered after it had
		 * returned did not release it (a wait's record can be
		 * appended late): the wait goes before it, or that set would
		 * signal the event again before the wait consumed it once.
		 * (The wait's thread was in the wait meanwhile: none of its
		 * own calls lie between.)
		 */
		for (j = i > EM_MOVE_WINDOW ? i - EM_MOVE_WINDOW : 0; j < i; j++)
			if (sets_one(it, j, ids, k, w->t_exit + 1, UINT64_MAX)) {
				move_before(it, i, j);
				break;
			}
		if (!it[i].moved && late_set(e, it, n, i))
			continue;
		if (age_moves(e, it, n, i))
			continue;
		for (j = i > EM_MOVE_WINDOW ? i - EM_MOVE_WINDOW : 0; j < i && !before; j++)
			before = sets_one(it, j, ids, k, w->ts, w->t_exit);
		if (before || signalled_before(e, it, n, i))
			continue;
		/*
		 * One numbered after it that entered before it returned may
		 * have signalled before the wait entered, or while it waited.
		 */
		for (j = i + 1; j < n && j <= i + EM_MOVE_WINDOW; j++)
			if (sets_one(it, j, ids, k, 0, w->t_exit)) {
				move_before(it, j, i);
				break;
			}
	}
	qsort(it, n, sizeof(*it), cmp_item);
	if (!thread_ordered(it, n)) {
		/* Never a program that waits for itself: sequence order. */
		for (i = 0; i < n; i++) {
			it[i].major = it[i].seq;
			it[i].moved = 0;
		}
		qsort(it, n, sizeof(*it), cmp_item);
	}
	age_walk(e, it, n, 1);
}
