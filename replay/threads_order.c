/* SPDX-License-Identifier: MIT */
/*
 * --threads: what each record waits for (threads.c replays them).
 *
 * The order kept is the capture's happens-before order as its clocks show
 * it: a call waits for the calls of other threads that had returned (their
 * exit time) before it was entered (its enter time), and for the earlier
 * calls of its own thread. Calls that overlapped in the capture may run at
 * the same time and in either order, so a race the capture had can happen
 * again.
 *
 * Two orders the clocks do not show:
 *
 *  - Which SET_EVENT released which wait. Auto-reset events do not count:
 *    two sets before a wait took the first make one signal, and a later
 *    wait never returns. A completed wait is handed over at its entry,
 *    before the records that entered after it (threads.c), so on each
 *    event the sets and those waits come in the order they reached the
 *    kernel. A set goes after the set before it, after the waits before
 *    that one, and once the waits since that one are issued (held: in the
 *    kernel or about to be), since it may be what releases them. A signal
 *    a wait has not taken yet is taken when it enters, so a set that
 *    comes first loses nothing. Sequence numbers are taken at return, so
 *    a set that released a wait can be numbered after the next set of
 *    the waiting thread: a set that entered before a wait returned, a
 *    wait before the set before it, goes once that wait is issued, not
 *    after it (nor after the set behind it on its thread, or the waits
 *    that thread made since, which could only come after the wait
 *    returned).
 *
 *  - The kernel's reuse of ids: a FREE on one thread and an ALLOC on
 *    another that overlapped it may get the freed handle back (the lowest
 *    free id); replayed the other way round, the ALLOC gets another one.
 *    A call that creates an id that another thread's call ended before it
 *    in sequence order goes after that call.
 *
 * Only records handed over earlier are waited for, and the stream hands
 * them over in sequence order, so the earliest record not done yet waits
 * for nothing but the kernel: the replay cannot deadlock, whatever the
 * timestamps of a trace say (a wait that nothing releases ends at its
 * timeout, capped by --wait-timeout).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/decode.h>

#include "threads.h"

#define RING	4096	/* exit times kept per thread */
#define EVENTS	8	/* events of one wait ordered */
#define COUNT_MASK ((1ull << 40) - 1)

/* When one of a thread's records returned, and its count. */
struct ord_exit {
	uint64_t t_exit;
	uint64_t count;
	struct rp_m_node node;
};

struct ord_thread {
	uint32_t tid;
	uint64_t queued;
	struct ord_exit *ring;
	uint64_t nring;
};

/* An event's sets and completed waits so far. */
struct ord_event {
	uint64_t last_set;	/* worker << 40 | count; 0: none */
	uint64_t *since;	/* per worker: its last wait since then */
	uint64_t *before;	/* ... between the set before it and it */
	uint64_t *since_exit;	/* when those waits returned */
	uint64_t *before_exit;
	uint64_t *last;		/* per worker: its last wait on it */
	uint64_t *last_exit;	/* ... when it returned */
	uint64_t set_wait;	/* the last set's worker's last wait before it */
	uint64_t set_wait_exit;	/* ... when it returned */
};

static int
cmp_first(const void *a, const void *b)
{
	const struct rp_m_thread *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Workers for the captured threads of @m: one each, up to @max. Past
 * @max, a thread whose first call entered after the last call of a
 * worker's threads returned takes that worker: it cannot release (or
 * wait for) anything of theirs, so it never queues behind a wait it
 * should end. Runtimes start many short threads (a HIP library test: 239
 * over its run, at most a few at once). When no worker is free, it shares
 * the one whose threads end first (o->shared counts its records).
 * Return: the number of workers, or -ENOMEM.
 */
static int
assign(struct rp_mt_order *o, const struct rp_model *m, unsigned int max,
       uint32_t *first_tid)
{
	const size_t n = m->threads.n;
	struct rp_m_thread *th = NULL;
	uint64_t *busy = calloc(max, sizeof(*busy));	/* a worker's last exit */
	unsigned int nw = 0, u, best;
	size_t i;

	if (n)
		th = malloc(n * sizeof(*th));
	if (!busy || (n && !th)) {
		free(busy);
		free(th);
		return -ENOMEM;
	}
	if (n)
		memcpy(th, m->threads.data, n * sizeof(*th));
	qsort(th, n, sizeof(*th), cmp_first);
	for (i = 0; i < n; i++) {
		/* A worker whose threads end first: ended, or the next to. */
		for (best = 0, u = 1; u < nw; u++)
			if (busy[u] < busy[best])
				best = u;
		if (nw < max) {
			first_tid[nw] = th[i].tid;
			best = nw++;
		} else if (busy[best] >= th[i].first) {
			o->shared += th[i].nrec;
		}
		if (th[i].last_exit > busy[best])
			busy[best] = th[i].last_exit;
		if (rp_map_put(&o->workers, 0, 0, th[i].tid, best) < 0) {
			free(busy);
			free(th);
			return -ENOMEM;
		}
	}
	free(busy);
	free(th);
	o->ncaptured = n;
	return (int)nw;
}

int
rp_mt_order_init(struct rp_mt_order *o, const struct rp_model *m,
		 unsigned int max)
{
	uint32_t *first_tid = calloc(max ? max : 1, sizeof(*first_tid));
	unsigned int u;
	int n;

	memset(o, 0, sizeof(*o));
	rp_vec_init(&o->events, sizeof(struct ord_event));
	if (!first_tid)
		return -ENOMEM;
	n = assign(o, m, max ? max : 1, first_tid);
	if (n < 0) {
		free(first_tid);
		return n;
	}
	o->nw = n ? (unsigned int)n : 1;
	o->t = calloc(o->nw, sizeof(*o->t));
	if (!o->t) {
		free(first_tid);
		return -ENOMEM;
	}
	for (u = 0; u < o->nw; u++) {
		struct ord_thread *t = &o->t[u];

		t->tid = first_tid[u];
		t->ring = calloc(RING, sizeof(*t->ring));
		if (!t->ring) {
			free(first_tid);
			return -ENOMEM;
		}
	}
	free(first_tid);
	return 0;
}

void
rp_mt_order_free(struct rp_mt_order *o)
{
	unsigned int u;
	size_t i;

	for (u = 0; o->t && u < o->nw; u++)
		free(o->t[u].ring);
	free(o->t);
	for (i = 0; i < o->events.n; i++) {
		struct ord_event *e = RP_AT(&o->events, struct ord_event, i);

		free(e->since);
	}
	rp_vec_free(&o->events);
	rp_map_free(&o->event_idx);
	rp_map_free(&o->ended);
	rp_map_free(&o->used);
	rp_map_free(&o->workers);
	o->t = NULL;
}

uint32_t
rp_mt_order_tid(const struct rp_mt_order *o, unsigned int u)
{
	return o->t[u].tid;
}

/* The worker of @tid's records (a thread that made no call: any). */
static unsigned int
worker_of(const struct rp_mt_order *o, uint32_t tid)
{
	uint64_t u;

	if (rp_map_get(&o->workers, 0, 0, tid, &u) && u < o->nw)
		return (unsigned int)u;
	return tid % o->nw;
}

static void
at_least(uint64_t *v, uint64_t n)
{
	if (n > *v)
		*v = n;
}

/*
 * Per other thread, the number of its records that had returned by @ts
 * (exit times follow sequence order within a thread, so a binary search
 * over the last ones finds it), and the latest of them, for reports.
 */
static void
by_time(struct rp_mt_order *o, unsigned int me, uint64_t ts,
	struct rp_mt_needs *nd)
{
	unsigned int u;

	for (u = 0; u < o->nw; u++) {
		const struct ord_thread *t = &o->t[u];
		const struct ord_exit *e;
		uint64_t lo, hi, first;

		if (u == me || !t->nring)
			continue;
		first = t->nring > RING ? t->nring - RING : 0;
		lo = first;
		hi = t->nring;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (t->ring[mid % RING].t_exit <= ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == first) {
			/* Older than the ring: what it has forgotten. */
			if (first)
				at_least(&nd->done[u], t->ring[first % RING].count - 1);
			continue;
		}
		e = &t->ring[(lo - 1) % RING];
		at_least(&nd->done[u], e->count);
		if (!nd->dep.seq || e->t_exit > nd->dep.ts) {
			nd->dep = e->node;
			nd->dep.ts = e->t_exit;
		}
	}
}

static void
ring_push(struct ord_thread *t, const struct kt_record *rec)
{
	struct ord_exit *e = &t->ring[t->nring % RING];

	e->t_exit = rec->type == KT_REC_IOCTL && rec->u.ioctl.t_exit >= rec->ts ?
		    rec->u.ioctl.t_exit : rec->ts;
	e->count = t->queued;
	e->node.seq = rec->seq;
	e->node.ts = rec->ts;
	e->node.tid = rec->tid;
	e->node.name = rp_rec_name(rec);
	t->nring++;
}

/* The events a SET_EVENT sets or a completed wait took a signal from. */
static int
event_ids(const struct rp_rows *r, const struct kfd_ioctl_desc *d,
	  const struct kt_record *rec, uint32_t *ids, int *is_set)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	int n;

	*is_set = d == r->set_event;
	if (*is_set) {
		if (!io->arg_before || !rp_fhas(r->se_id, io->arg_size))
			return 0;
		ids[0] = (uint32_t)rp_fget(r->se_id, io->arg_before, io->arg_size);
		return 1;
	}
	if (!rp_wait_completed(r, d, io))
		return 0;
	n = rp_wait_ids(r, rec, ids, EVENTS);
	return n < 0 ? 0 : n > EVENTS ? EVENTS : n;
}

static struct ord_event *
event_get(struct rp_mt_order *o, uint32_t id)
{
	struct ord_event *e;
	uint64_t i;

	if (rp_map_get(&o->event_idx, RP_K_EVENT, 0, id, &i))
		return RP_AT(&o->events, struct ord_event, i);
	e = rp_vec_push(&o->events);
	if (!e)
		return NULL;
	e->last_set = 0;
	e->set_wait = e->set_wait_exit = 0;
	/* One allocation: since, before, their exits, last, its exit. */
	e->since = calloc(6 * (size_t)o->nw, sizeof(*e->since));
	if (!e->since ||
	    rp_map_put(&o->event_idx, RP_K_EVENT, 0, id, o->events.n - 1) < 0) {
		free(e->since);
		o->events.n--;
		return NULL;
	}
	e->before = e->since + o->nw;
	e->since_exit = e->since + 2 * o->nw;
	e->before_exit = e->since + 3 * o->nw;
	e->last = e->since + 4 * o->nw;
	e->last_exit = e->since + 5 * o->nw;
	return e;
}

/*
 * Whether the set @rec may be what released worker @u's wait before the
 * set before it: it entered before that wait returned.
 */
static int
may_release(const struct ord_event *e, unsigned int u,
	    const struct kt_record *rec)
{
	return e->before[u] && rec->ts < e->before_exit[u];
}

/*
 * Whether the set @rec may be what released the last wait on the event
 * of the worker of the set before it, a wait that came before that set:
 * then that set is not (its thread was in the wait until then), and @rec
 * does not go after it. Waits that worker made after its set do not
 * count: they come after that set on its thread.
 */
static int
may_release_last(const struct ord_event *e, const struct kt_record *rec)
{
	return e->set_wait && rec->ts < e->set_wait_exit;
}

static void
by_event(struct rp_mt_order *o, unsigned int me, const struct kt_record *rec,
	 uint32_t id, int is_set, struct rp_mt_needs *nd)
{
	struct ord_event *e = event_get(o, id);
	unsigned int u, ls;
	int ls_free = 0;

	if (!e)
		return;
	if (!is_set) {
		/* What it waits for by time is enough (above). */
		e->since[me] = e->last[me] = o->t[me].queued;
		e->since_exit[me] = e->last_exit[me] = rp_rec_exit(rec);
		return;
	}
	/*
	 * A set that may have released a wait is never held behind what
	 * comes after that wait on its thread (the set before it, the
	 * waits since then, or the wait itself being done): only the wait
	 * being issued. Else its thread's next set would wait for it, and
	 * it for that set: a stall until the wait times out.
	 */
	ls = (unsigned int)(e->last_set >> 40);
	if (e->last_set && ls != me) {
		if (may_release_last(e, rec)) {
			at_least(&nd->held[ls], e->set_wait);
			ls_free = 1;
		} else {
			at_least(&nd->done[ls], e->last_set & COUNT_MASK);
		}
	}
	for (u = 0; u < o->nw; u++) {
		if (u == me || (ls_free && u == ls))
			continue;
		if (may_release(e, u, rec)) {
			at_least(&nd->held[u], e->before[u]);
			continue;
		}
		at_least(&nd->done[u], e->before[u]);
		at_least(&nd->held[u], e->since[u]);
	}
	memcpy(e->before, e->since, o->nw * sizeof(*e->since));
	memcpy(e->before_exit, e->since_exit, o->nw * sizeof(*e->since));
	memset(e->since, 0, o->nw * sizeof(*e->since));
	e->last_set = (uint64_t)me << 40 | o->t[me].queued;
	e->set_wait = e->last[me];
	e->set_wait_exit = e->last_exit[me];
}

struct id_ctx {
	struct rp_mt_order *o;
	unsigned int me;
	struct rp_mt_needs *nd;
};

/* A created id waits for the other thread's call that ended it. */
static void
id_made(void *ctx, unsigned int kind, uint64_t id, int how)
{
	struct id_ctx *c = ctx;
	uint64_t v;
	unsigned int u;

	if (how == RP_ID_MAKE &&
	    rp_map_get(&c->o->ended, RP_K_HANDLE + kind, 0, id, &v) &&
	    (u = (unsigned int)(v >> 40)) != c->me)
		at_least(&c->nd->done[u], v & COUNT_MASK);
}

/*
 * An ended id remembers its ender, and the end waits for the other
 * threads' uses of it handed over before it: they succeeded, so the
 * kernel ran them first, even one that entered before the end returned
 * and was numbered after it (the stream hands it over first).
 */
static void
id_ended(void *ctx, unsigned int kind, uint64_t id, int how)
{
	struct id_ctx *c = ctx;
	uint64_t v;
	unsigned int u;

	if (how == RP_ID_USE) {
		rp_map_put(&c->o->used, RP_K_HANDLE + kind, c->me, id,
			   c->o->t[c->me].queued);
		return;
	}
	if (how != RP_ID_END)
		return;
	for (u = 0; u < c->o->nw; u++)
		if (u != c->me &&
		    rp_map_get(&c->o->used, RP_K_HANDLE + kind, u, id, &v))
			at_least(&c->nd->done[u], v);
	rp_map_put(&c->o->ended, RP_K_HANDLE + kind, 0, id,
		   (uint64_t)c->me << 40 | c->o->t[c->me].queued);
}

unsigned int
rp_mt_order_next(struct rp_mt_order *o, const struct rp_rows *r,
		 const struct kt_record *rec, struct rp_mt_needs *nd)
{
	unsigned int me = worker_of(o, rec->tid);
	const struct kfd_ioctl_desc *d = NULL;
	struct id_ctx idc = { o, me, nd };
	uint32_t ids[EVENTS];
	int n = 0, k, is_set = 0;

	memset(nd->done, 0, o->nw * sizeof(*nd->done));
	memset(nd->held, 0, o->nw * sizeof(*nd->held));
	memset(&nd->dep, 0, sizeof(nd->dep));
	by_time(o, me, rec->ts, nd);
	/* From here on, the record counts as its thread's. */
	o->t[me].queued++;
	if (rec->type == KT_REC_IOCTL)
		d = kt_ioctl_row(&rec->u.ioctl);
	if (d) {
		n = event_ids(r, d, rec, ids, &is_set);
		for (k = 0; k < n; k++)
			by_event(o, me, rec, ids[k], is_set, nd);
		if (rec->u.ioctl.ret >= 0) {
			rp_ioctl_ids(rec, d, id_made, &idc);
			rp_ioctl_ids(rec, d, id_ended, &idc);
		}
	}
	nd->wait = n && !is_set;
	ring_push(&o->t[me], rec);
	return me;
}
