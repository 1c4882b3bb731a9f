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
 * replayed (rp_age_lack(); wait.c stands in); the wait is issued once
 * those events were set as often live as then (rp_age_due()).
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

#include "replay_state.h"

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
	if (c->d != st->rows->wait_events || !(b = rp_wait_events_io(st->rows, c->io)))
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
	const struct kt_buf_image *b = rp_wait_events_io(st->rows, c->io);
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
	const struct kt_buf_image *b = rp_wait_events(st->rows, rec);
	struct live_ev l;
	uint64_t in, out;
	uint32_t eid;
	size_t i;

	/* Only an age that grew: a wait given the age it has blocks. */
	for (i = 0; b && rp_age_elem(b, i, &in, &out, &eid); i++)
		if (in && out > in && eid == id) {
			live_of(st, id, rec->seq, &l);
			return reached(&l, out) && l.age != in + l.off;
		}
	return 0;
}

int
rp_age_due(const struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_buf_image *b = rp_wait_events(st->rows, rec);
	struct live_ev l;
	uint64_t in, out;
	uint32_t id;
	size_t i;

	/*
	 * Its live age reached the returned one, or the capture's CPU sets
	 * are all there (the offset may be out of date: an interrupt no
	 * wait needed is never replayed).
	 */
	for (i = 0; b && rp_age_elem(b, i, &in, &out, &id); i++) {
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

int
rp_age_lack(const struct rp_run *st, const struct kt_record *rec, size_t i,
	    uint32_t *id, uint64_t *n)
{
	const struct kt_buf_image *b = rp_wait_events(st->rows, rec);
	struct live_ev l;
	uint64_t in, out, want;

	*n = 0;
	if (!b || !rp_age_elem(b, i, &in, &out, id))
		return 0;
	if (!in || out == in)
		return 1;
	live_of(st, *id, rec->seq, &l);
	/* The CPU sets the capture had by then come first. */
	if (!l.ev || l.ev->type != KFD_ABI_EVENT_SIGNAL ||
	    reached(&l, out) || !cpu_sets_done(st, rec, *id, &l))
		return 1;
	want = out + l.off;
	if (want - l.age > STAND_MAX)
		want = l.age + 1;
	if (l.age < want)
		*n = want - l.age;
	return 1;
}
