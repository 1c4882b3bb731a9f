/* SPDX-License-Identifier: MIT */
/*
 * What the model knows of events and waits: an event's life at a record,
 * the SET_EVENTs of the capture by time, the completed waits that passed
 * event ages (KFD 1.14) and the reuses of event ids they put right
 * (swaps, ages.c explains the ages), and the events stand-in SET_EVENTs
 * raise for a completed wait no CPU call released. The run (ages.c,
 * wait.c) and emit-c both use them.
 */
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_model.h"

int
rp_model_cpu_set(const struct rp_model *m, const uint32_t *ids, int n,
		 uint64_t from, uint64_t to)
{
	const struct rp_m_set *v = m->sets.data;
	size_t lo = 0, hi = m->sets.n;
	int k;

	while (lo < hi) {	/* the first that entered at @from or later */
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].ts < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->sets.n && v[lo].ts < to; lo++)
		for (k = 0; k < n; k++)
			if (v[lo].id == ids[k])
				return 1;
	return 0;
}

const struct rp_m_event *
rp_model_event_at(const struct rp_model *m, uint32_t id, uint64_t seq)
{
	size_t i;

	for (i = 0; i < m->events.n; i++) {
		const struct rp_m_event *e = RP_AT(&m->events, struct rp_m_event, i);

		if (e->id == id && e->create_seq < seq && seq < e->destroy_seq)
			return e;
	}
	return NULL;
}

uint64_t
rp_model_sets_before(const struct rp_model *m, uint32_t id, uint64_t from,
		     uint64_t to, uint64_t ts)
{
	const struct rp_m_set *v = m->sets.data;
	uint64_t n = 0;
	size_t i;

	/* By entry time: the first at @ts or later ends it. */
	for (i = 0; i < m->sets.n && v[i].ts < ts; i++)
		if (v[i].id == id && v[i].seq > from && v[i].seq < to)
			n++;
	return n;
}

void
rp_age_note_wait(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_buf_image *b = rp_wait_events(rp_rows(), rec);
	struct rp_m_aged a;
	uint64_t in, out;
	uint32_t id;
	size_t i;

	memset(&a, 0, sizeof(a));
	a.seq = rec->seq;
	a.ts = rec->ts;
	a.tid = rec->tid;
	a.t_exit = rp_rec_exit(rec);
	for (i = 0; b && rp_age_elem(b, i, &in, &out, &id) && a.n < RP_AGED_MAX; i++) {
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

/*
 * Whether event @id, as the capture had it at @seq, is one the CPU may
 * set (a signal event); 1 when the capture did not create it.
 */
static int
settable(const struct rp_model *m, uint32_t id, uint64_t seq)
{
	const struct rp_m_event *e = rp_model_event_at(m, id, seq);

	return !e || e->type == KFD_ABI_EVENT_SIGNAL;
}

int
rp_wait_stand_in_ids(const struct rp_model *m, const struct rp_rows *r,
		     const struct kt_record *rec, uint32_t *ids, int max)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	uint32_t named[64];
	int n = rp_wait_ids(r, rec, named, 64), all, i, k = 0;

	if (n <= 0 || n > 64 || !r->set_event || !r->se_id ||
	    rec->type != KT_REC_IOCTL || io->t_exit < rec->ts)
		return 0;
	/* With event ages (KFD 1.14), ages.c stands in, by the ages. */
	if (rp_wait_fired(r, rec, named, 64) >= 0)
		return 0;
	/* A CPU call was there to release it: a wait it did not release
	 * live is a divergence, not the GPU's. */
	if (rp_model_cpu_set(m, named, n, rec->ts, io->t_exit))
		return 0;
	/*
	 * Signal events only (an engine raises no other kind); for a wait
	 * for any, the first of them: the capture does not say which fired
	 * when the runtime passes no event ages (ROCr 5.2.3 does not).
	 */
	all = io->arg_before && rp_fhas(r->we_all, io->arg_size) &&
	      rp_fget(r->we_all, io->arg_before, io->arg_size);
	for (i = 0; i < n && k < max && (all || !k); i++)
		if (settable(m, named[i], rec->seq))
			ids[k++] = named[i];
	return k;
}
