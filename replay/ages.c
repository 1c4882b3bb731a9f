/* SPDX-License-Identifier: MIT */
/*
 * Event ages (KFD ABI 1.14): translated on the way in, learned on the way
 * out, and what they say of the order of sets and waits (docs/replay.md).
 *
 * A signal event's age starts at 1 and grows by one at every set, by a CPU
 * SET_EVENT or by an engine's interrupt. A wait passes, per signal event,
 * the age it last saw (last_event_age; 0: none); an event whose age
 * differs counts as signalled at once, and the kernel writes the current
 * age back for each event that released the wait.
 *
 * The replay runs no packets, so an event's live age is 1 + the sets
 * replayed (the capture's and the stand-ins). Before a completed wait is
 * issued, each event that released it in the capture (its age advanced)
 * gets the sets in the GPU's stead that its returned age still lacks,
 * once the capture's CPU sets of it before the wait returned are
 * replayed (rp_age_stand_in()); the wait is issued once those events
 * were set as often live as then (rp_age_due()).
 *
 * The replay's ages may still differ from the capture's: past STAND_MAX
 * missing interrupts (engines' interrupts no wait needed) one stand-in
 * replaces them. So ages are learned, as the ids the kernel picks: per
 * life of an event (its record in the model), each age a wait returned in
 * the capture is bound to the age the same wait returned live, in both
 * directions. An input age is passed as its binding; 1 (the age at
 * creation) as 1; one the capture never returned is shifted by the
 * event's offset, the live minus the captured age of its latest binding
 * (0 before any).
 *
 * Verified, per element of a wait that passed an age (rp_age_check()):
 *  - an event that did not release the wait in the capture (the age
 *    written back equals the one passed) must not have released it live;
 *  - one that did must have released it live, with an age that agrees
 *    with the bindings: a captured age already bound to another live one,
 *    or a live age already standing for another captured one, is a
 *    divergence; so is a live age past the captured one shifted by the
 *    offset (the event was set more often live). A new binding at another
 *    offset is counted (summary: ages learned at a new offset).
 * The other bytes of the element are compared as any output.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_priv.h"

#define ELEM		sizeof(struct kfd_abi_event_data)
#define AGE_OFF		offsetof(struct kfd_abi_event_data, signal_event_data)
#define ID_OFF		offsetof(struct kfd_abi_event_data, event_id)

static uint64_t
ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t
ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Element @i of the captured events array @b: its input and returned age
 * and its event. Return: 0 past the end.
 */
static int
elem(const struct kt_buf_image *b, size_t i, uint64_t *in, uint64_t *out,
     uint32_t *id)
{
	size_t off = i * ELEM;

	if (off + ELEM > b->len_before || off + ELEM > b->len_after)
		return 0;
	*in = ld64(b->before + off + AGE_OFF);
	*out = ld64(b->after + off + AGE_OFF);
	*id = ld32(b->before + off + ID_OFF);
	return 1;
}

/* The captured image of the events array of WAIT_EVENTS @io, or NULL. */
static const struct kt_buf_image *
events_image(const struct rp_rows *r, const struct kt_ioctl_rec *io)
{
	const struct kt_buf_image *b = rp_find_image(io, 0);

	if (!b || !b->before || !b->after || !r->wait_events->nbufs ||
	    !r->wait_events->bufs[0].elem ||
	    r->wait_events->bufs[0].elem->size != ELEM)
		return NULL;
	return b;
}

/* events_image() of the ioctl record @rec, or NULL. */
static const struct kt_buf_image *
rec_events(const struct rp_rows *r, const struct kt_record *rec)
{
	return rec->type == KT_REC_IOCTL ? events_image(r, &rec->u.ioctl) : NULL;
}

int
rp_wait_fired(const struct rp_rows *r, const struct kt_record *rec,
	      uint32_t *ids, int max)
{
	const struct kt_buf_image *b = rec_events(r, rec);
	uint64_t in, out;
	uint32_t id;
	size_t i;
	int n = 0, aged = 0;

	for (i = 0; b && elem(b, i, &in, &out, &id); i++) {
		/* Other kinds of events than signal ones pass none. */
		if (!in)
			continue;
		aged = 1;
		if (out != in && n < max)
			ids[n++] = id;
	}
	/* No ages: the capture does not say. */
	return aged ? n : -1;
}

/* The model's life of event @id at @seq (its index), or -1. */
static int64_t
life_of(const struct rp_model *m, uint32_t id, uint64_t seq)
{
	const struct rp_m_event *e = rp_model_event_at(m, id, seq);

	return e ? e - (const struct rp_m_event *)m->events.data : -1;
}

/*
 * The map key of age @age of the life of event @id at @seq: the life (or
 * the id, for an event the capture did not create) above, the age's low
 * 32 bits below (2^32 sets of one event would wrap it).
 */
static uint64_t
age_key(const struct rp_model *m, uint32_t id, uint64_t seq, uint64_t age)
{
	int64_t life = life_of(m, id, seq);
	uint64_t who = life < 0 ? (1ull << 31) | id : (uint64_t)life;

	return who << 32 | (age & 0xffffffffu);
}

/* The event's offset lives under age 0, which no wait passes. */
static uint64_t
offset_key(const struct rp_model *m, uint32_t id, uint64_t seq)
{
	return age_key(m, id, seq, 0);
}

/* What the replay knows of a life of an event, live (live_of()). */
struct live_ev {
	const struct rp_m_event *ev;	/* NULL: the capture did not create it */
	uint64_t age;			/* 1 + the sets replayed */
	uint64_t cpu;			/* of them, the capture's own */
	uint64_t off;			/* its offset */
};

static void live_of(const struct rp_run *st, uint32_t id, uint64_t seq,
		    struct live_ev *l);

void
rp_age_in(struct rp_run *st, struct rp_call *c)
{
	const struct kt_buf_image *b;
	struct live_ev l;
	uint64_t live;
	unsigned int k;
	size_t e;

	c->nage = 0;
	if (c->d != st->rows->wait_events || !(b = events_image(st->rows, c->io)))
		return;
	for (k = 0; k < c->nlb; k++)
		if (c->lb[k].index == 0)
			break;
	if (k == c->nlb)
		return;
	for (e = 0; e + ELEM <= b->len_before && e + ELEM <= c->lb[k].len &&
	     c->nage < RP_AGES_MAX; e += ELEM) {
		uint64_t in = ld64(b->before + e + AGE_OFF);
		uint32_t id = ld32(b->before + e + ID_OFF);
		uint64_t key = age_key(&st->r->model, id, c->rec->seq, in);

		/* 1, the age at creation, is the same on both sides. */
		live = in;
		if (in > 1 && !rp_map_get(&st->fwd, RP_K_AGE, 0, key, &live)) {
			live_of(st, id, c->rec->seq, &l);
			live = in + l.off;
		}
		memcpy(c->lb[k].p + e + AGE_OFF, &live, sizeof(live));
		c->age_in[c->nage++] = live;
	}
}

void
rp_age_check(struct rp_run *st, struct rp_call *c, size_t idx,
	     const uint8_t *cap_out, uint8_t *live_out)
{
	const struct kt_buf_image *b = events_image(st->rows, c->io);
	const struct rp_model *m = &st->r->model;
	uint64_t cin, cout, lin, lout, key, rkey, okey, other, old_off;
	uint32_t id;
	char name[64];
	int ok = c->ret >= 0 && c->io->ret >= 0;

	if (!b || idx >= c->nage || (idx + 1) * ELEM > b->len_before)
		return;
	cin = ld64(b->before + idx * ELEM + AGE_OFF);
	id = ld32(b->before + idx * ELEM + ID_OFF);
	cout = ld64(cap_out + AGE_OFF);
	lin = c->age_in[idx];
	lout = ld64(live_out + AGE_OFF);
	if (!cin)
		return;
	snprintf(name, sizeof(name), "events[%zu].last_event_age", idx);
	/* From here on the element's other bytes are compared as usual. */
	memcpy(live_out + AGE_OFF, &cout, sizeof(cout));
	if (cout == cin) {
		if (lout != lin)
			rp_diverge(st, name, cout, lin, 1, lout, "the event "
				   "released the wait live, not in the capture");
		return;
	}
	if (lout == lin) {
		rp_diverge(st, name, cout, cout, 0, lout, "the event released "
			   "the wait in the capture, not live");
		return;
	}
	key = age_key(m, id, c->rec->seq, cout);
	rkey = age_key(m, id, c->rec->seq, 0) | (lout & 0xffffffffu);
	if (rp_map_get(&st->fwd, RP_K_AGE, 0, key, &other)) {
		if (other != lout)
			rp_diverge(st, name, cout, other, 1, lout, "the captured "
				   "age is already bound to 0x%" PRIx64, other);
		return;
	}
	if (rp_map_get(&st->rev, RP_K_AGE, 0, rkey, &other)) {
		rp_diverge(st, name, cout, cout, 0, lout, "the live age already "
			   "stands for captured 0x%" PRIx64, other);
		return;
	}
	okey = offset_key(m, id, c->rec->seq);
	if (!rp_map_get(&st->fwd, RP_K_AGE, 0, okey, &old_off))
		old_off = 0;
	/*
	 * Short of sets, the replay lost interrupts it could not stand in
	 * for; past the capture's age, it set the event more often.
	 */
	if ((int64_t)(lout - (cout + old_off)) > 0) {
		rp_diverge(st, name, cout, cout + old_off, 1, lout, "the event "
			   "was set more often live than in the capture");
		return;
	}
	if (!ok)
		return;
	rp_map_put(&st->fwd, RP_K_AGE, 0, key, lout);
	rp_map_put(&st->rev, RP_K_AGE, 0, rkey, cout);
	if (old_off != lout - cout)
		st->sum.ages_offset++;
	rp_map_put(&st->fwd, RP_K_AGE, 0, okey, lout - cout);
}

/* The life of event @id at @seq, as a key (see age_key()). */
static uint64_t
life_key(const struct rp_model *m, uint32_t id, uint64_t seq)
{
	return age_key(m, id, seq, 0) >> 32;
}

static void
bump(struct kc_u64map *map, unsigned int kind, uint64_t key)
{
	uint64_t v = 0;

	rp_map_get(map, kind, 0, key, &v);
	rp_map_put(map, kind, 0, key, v + 1);
}

void
rp_age_count_set(struct rp_run *st, const struct kt_record *rec, int gpu)
{
	uint32_t id;

	if (rp_set_event_id(st->rows, rec, &id))
		bump(&st->fwd, gpu ? RP_K_AGE_GPU : RP_K_AGE_SETS,
		     life_key(&st->r->model, id, rec->seq));
}

/* What the replay knows of the life of event @id at @seq. */
static void
live_of(const struct rp_run *st, uint32_t id, uint64_t seq, struct live_ev *l)
{
	const struct rp_model *m = &st->r->model;
	uint64_t k = life_key(m, id, seq), sets = 0, gpu = 0;

	l->ev = rp_model_event_at(m, id, seq);
	rp_map_get(&st->fwd, RP_K_AGE_SETS, 0, k, &sets);
	rp_map_get(&st->fwd, RP_K_AGE_GPU, 0, k, &gpu);
	l->off = 0;
	rp_map_get(&st->fwd, RP_K_AGE, 0, offset_key(m, id, seq), &l->off);
	l->age = 1 + sets;
	l->cpu = sets - gpu;
}

/* Whether the live age of @l reached @age, a captured one, shifted. */
static int
reached(const struct live_ev *l, uint64_t age)
{
	return l->ev && (int64_t)(l->age - (age + l->off)) >= 0;
}

/*
 * Whether every CPU set of event @id (@l) that entered before the wait
 * @rec returned in the capture has been replayed.
 */
static int
cpu_sets_done(const struct rp_run *st, const struct kt_record *rec,
	      uint32_t id, const struct live_ev *l)
{
	return l->cpu >= rp_model_sets_before(&st->r->model, id,
					      l->ev ? l->ev->create_seq : 0,
					      l->ev ? l->ev->destroy_seq : UINT64_MAX,
					      rp_rec_exit(rec));
}

int
rp_age_reached(const struct rp_run *st, const struct kt_record *rec,
	       uint32_t id)
{
	const struct kt_buf_image *b = rec_events(st->rows, rec);
	struct live_ev l;
	uint64_t in, out;
	uint32_t eid;
	size_t i;

	/* Only an age that grew: a wait given the age it has blocks. */
	for (i = 0; b && elem(b, i, &in, &out, &eid); i++)
		if (in && out > in && eid == id) {
			live_of(st, id, rec->seq, &l);
			return reached(&l, out) && l.age != in + l.off;
		}
	return 0;
}

int
rp_age_due(const struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_buf_image *b = rec_events(st->rows, rec);
	struct live_ev l;
	uint64_t in, out;
	uint32_t id;
	size_t i;

	/*
	 * Its live age reached the returned one, or the capture's CPU sets
	 * are all there (the offset may be out of date: an interrupt no
	 * wait needed is never replayed).
	 */
	for (i = 0; b && elem(b, i, &in, &out, &id); i++) {
		if (!in || out == in)
			continue;
		live_of(st, id, rec->seq, &l);
		if (!reached(&l, out) && !cpu_sets_done(st, rec, id, &l))
			return 0;
	}
	return 1;
}

/* Interrupts stood in for at once, at most: past it, the offset learns. */
#define STAND_MAX	16

void
rp_age_stand_in(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_buf_image *b = rec_events(st->rows, rec);
	struct live_ev l;
	uint64_t in, out, want;
	uint32_t id;
	size_t i;

	for (i = 0; b && elem(b, i, &in, &out, &id); i++) {
		if (!in || out == in)
			continue;
		live_of(st, id, rec->seq, &l);
		/* The CPU sets the capture had by then come first. */
		if (!l.ev || l.ev->type != KFD_ABI_EVENT_SIGNAL ||
		    reached(&l, out) || !cpu_sets_done(st, rec, id, &l))
			continue;
		want = out + l.off;
		if (want - l.age > STAND_MAX)
			want = l.age + 1;
		for (; l.age < want && !st->stop; l.age++)
			rp_wait_set(st, rec, id);
	}
}

void
rp_age_note_wait(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_buf_image *b = rec_events(rp_rows(), rec);
	struct rp_m_aged a;
	uint64_t in, out;
	uint32_t id;
	size_t i;

	memset(&a, 0, sizeof(a));
	a.seq = rec->seq;
	a.ts = rec->ts;
	a.tid = rec->tid;
	a.t_exit = rp_rec_exit(rec);
	for (i = 0; b && elem(b, i, &in, &out, &id) && a.n < RP_AGED_MAX; i++) {
		if (!in)
			continue;
		a.ids[a.n] = id;
		a.ages[a.n] = out;
		a.fired[a.n++] = out != in;
	}
	if (a.n) {
		struct rp_m_aged *p = rp_vec_push(&m->aged);

		if (p)
			*p = a;
	}
}

static int
cmp_swap_c(const void *a, const void *b)
{
	const struct rp_swap *x = a, *y = b;

	return x->c < y->c ? -1 : x->c > y->c;
}

/* Sets looked at past a wait's return, at most (the trace's own slack). */
#define SWAP_SCAN	4096
#define SWAP_TIDS	64
#define SWAP_LATE	64	/* sets of one event in a wait's window */
#define SWAP_BACK	64	/* sets looked at before a wait's entry */

/* Whether event @id released the wait @a in the capture. */
static int
fired_on(const struct rp_m_aged *a, uint32_t id)
{
	unsigned int j;

	for (j = 0; j < a->n; j++)
		if (a->ids[j] == id)
			return a->fired[j];
	return 0;
}

/*
 * Into @late, in entry order: the sets of other threads numbered before
 * the wait @a that entered before it (the first @lo sets entered before
 * it) and returned after it entered, on an event that released it. They
 * were under way when it looked, so they may have reached the kernel
 * after it, as those that entered while it waited. Return: how many.
 */
static size_t
in_flight(const struct rp_m_set *v, size_t lo, const struct rp_m_aged *a,
	  size_t *late)
{
	size_t i = lo, n = 0, k;

	while (i > 0 && lo - i < SWAP_BACK && n < SWAP_LATE) {
		i--;
		if (v[i].exit > a->ts && v[i].seq < a->seq &&
		    v[i].tid != a->tid && fired_on(a, v[i].id))
			late[n++] = i;
	}
	for (k = 0; k < n / 2; k++) {
		size_t t = late[k];

		late[k] = late[n - 1 - k];
		late[n - 1 - k] = t;
	}
	return n;
}

/*
 * How many more sets of event @a->ids[@j] the sets numbered before the
 * wait @a make than its returned age @age allows (1 at creation, one per
 * set; an engine's interrupts only add): those that reached the kernel
 * after it looked, at least.
 */
static uint64_t
excess(const struct rp_model *m, const struct rp_m_aged *a, unsigned int j,
       uint64_t age)
{
	const struct rp_m_event *ev = rp_model_event_at(m, a->ids[j], a->seq);
	const struct rp_m_set *v = m->sets.data;
	uint64_t n = 1;
	size_t i;

	if (!ev)
		return 0;
	for (i = 0; i < m->sets.n; i++)
		if (v[i].id == a->ids[j] && v[i].seq > ev->create_seq &&
		    v[i].seq < a->seq)
			n++;
	return n > age ? n - age : 0;
}

static void
add_swap(struct rp_model *m, uint64_t c, uint64_t e)
{
	struct rp_swap *sw = rp_vec_push(&m->swaps);

	if (sw) {
		sw->c = c;
		sw->e = e;
	}
}

void
rp_age_swaps(struct rp_model *m)
{
	const struct rp_m_set *v = m->sets.data;
	size_t i, k, w, lo, hi, late[SWAP_LATE], nlate;
	uint32_t tids[SWAP_TIDS];
	unsigned int nt, j;

	for (w = 0; w < m->aged.n; w++) {
		const struct rp_m_aged *a = RP_AT(&m->aged, struct rp_m_aged, w);

		lo = 0;
		hi = m->sets.n;
		while (lo < hi) {	/* the first set entered after it */
			size_t mid = lo + (hi - lo) / 2;

			if (v[mid].ts <= a->ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		nlate = in_flight(v, lo, a, late);
		for (i = lo, k = 0, nt = 0;
		     i < m->sets.n && k < SWAP_SCAN; i++) {
			if (v[i].ts > a->t_exit)
				k++;
			if (v[i].seq >= a->seq)
				continue;
			/* Per thread, its first: the stream holds the rest
			 * of the thread behind it. */
			for (j = 0; j < nt && tids[j] != v[i].tid; j++)
				;
			if (j < nt)
				continue;
			/*
			 * Numbered before the wait, entered after it: on an
			 * event it found unchanged (or entered after it
			 * returned), it reached the kernel after the wait
			 * looked: it goes after the wait. On an event that
			 * released it, while it waited: maybe (below).
			 */
			for (j = 0; j < a->n; j++)
				if (a->ids[j] == v[i].id)
					break;
			if (j == a->n)
				continue;
			if (a->fired[j] && v[i].ts <= a->t_exit) {
				if (nlate < SWAP_LATE)
					late[nlate++] = i;
				continue;
			}
			add_swap(m, v[i].seq, a->seq);
			if (nt < SWAP_TIDS)
				tids[nt++] = v[i].tid;
		}
		/*
		 * Of the sets that entered while it waited, the last ones
		 * went after it as far as its returned age says.
		 */
		for (j = 0; j < a->n && nlate; j++) {
			uint64_t x;
			size_t q;

			if (!a->fired[j] || !(x = excess(m, a, j, a->ages[j])))
				continue;
			for (q = nlate; q-- > 0 && x;)
				if (v[late[q]].id == a->ids[j]) {
					add_swap(m, v[late[q]].seq, a->seq);
					x--;
				}
		}
	}
	/* The order checks' swaps are sorted; one end may wait for two uses. */
	if (!m->swaps.n)
		return;
	qsort(m->swaps.data, m->swaps.n, sizeof(struct rp_swap), cmp_swap_c);
	/* One swap per record: after the last wait it must follow. */
	for (i = k = 0; i < m->swaps.n; i++) {
		struct rp_swap *s = RP_AT(&m->swaps, struct rp_swap, i);
		struct rp_swap *p = k ? RP_AT(&m->swaps, struct rp_swap, k - 1) : NULL;

		if (p && p->c == s->c) {
			if (s->e > p->e)
				p->e = s->e;
			continue;
		}
		*RP_AT(&m->swaps, struct rp_swap, k++) = *s;
	}
	m->swaps.n = k;
}
