/* SPDX-License-Identifier: MIT */
/*
 * --threads: each captured thread replayed on a thread of its own.
 *
 * The caller's thread reads the stream, in sequence order, and hands each
 * record to the worker of its captured thread, with what it waits for
 * (threads_order.c). A worker replays its records in order, each once the
 * records it waits for are done.
 *
 * A wait that completed is numbered when it returns, maybe long after it
 * entered: the reader reads up to RP_MT_AHEAD records ahead and hands such
 * a wait over before the records that entered after it, so that it is in
 * the kernel before the SET_EVENT that released it in the capture. Records
 * that returned before it entered stay before it, so what it waits for is
 * handed over first.
 *
 * With event ages (KFD 1.14, ages.c), a held wait is issued once its
 * events were set as often as when it returned in the capture, and a
 * SET_EVENT waits while another thread's held wait has an event at the
 * age it got back (that wait returns at once, before the set). Both
 * checks are made again every millisecond, and end when no other thread
 * can go on (the wait then blocks in the kernel as any).
 *
 * The replay state (fd table, bindings, address space, counters) stays one
 * struct under one lock. A worker holds the lock while it translates,
 * verifies and reports, and lets go of it only while its ioctl is in the
 * kernel, so a WAIT_EVENTS blocks for real while another thread's
 * SET_EVENT runs. What belongs to the record in hand (its argument arena,
 * its number and name, its live result) is swapped in with the lock.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kfdtrace/decode.h"
#include "kfdtrace/fork_quiet.h"
#include "threads.h"

#define RP_MT_WORKERS	64	/* captured threads past this share one */
#define RP_MT_QUEUE	1024	/* records queued per worker */
#define RP_MT_AHEAD	4096	/* records read ahead, to move waits */

struct rp_mt_job {
	struct kt_record *rec;
	struct rp_mt_needs nd;	/* its arrays: one allocation */
};

/* The part of struct rp_run that belongs to the record in hand. */
struct rp_mt_ctx {
	uint8_t *arena;
	size_t arena_cap;
	uint64_t cur_seq;
	const char *cur_name;
	int diverged_now;
	int have_live;
	int64_t live_ret;
	int live_err;
	int in_retry, wait_final, wait_still;
};

struct rp_mt_worker {
	struct rp_mt *mt;
	pthread_t th;
	uint32_t tid;
	struct rp_mt_job *q;	/* ring of RP_MT_QUEUE */
	size_t head, n;
	uint64_t done;		/* records replayed */
	int held;		/* the wait in hand is issued */
	uint64_t last_seq;
	struct rp_mt_ctx ctx;
	struct rp_m_node dep;	/* of the record in hand */
	pthread_cond_t cv;	/* it waits here (for work, or its turn) */
	int waiting;
	int age_waiting;	/* a held wait, for the sets of its events */
	int set_waiting;	/* a set, for another thread's held wait */
	struct kt_quiet quiet;	/* busy in a call that returns by itself */
	int quiet_held;
};

struct ahead;

struct rp_mt {
	pthread_mutex_t lock;
	pthread_cond_t room;	/* the reader waits here for queue room */
	int reader_waiting;
	struct rp_run *st;
	unsigned int nw, started;
	struct rp_mt_worker *w;
	int reading_done;
	uint64_t next_exit;		/* the reader's record in hand */
	uint64_t ahead_min;		/* earliest exit read ahead (trees) */
	struct ahead *ahead;		/* the reader's */
	struct rp_mt_order order;	/* the reader's */
};

/* The worker the calling thread is (NULL: the reader). */
static __thread struct rp_mt_worker *self;

static void
ctx_save(const struct rp_run *st, struct rp_mt_ctx *c)
{
	c->arena = st->arena;
	c->arena_cap = st->arena_cap;
	c->cur_seq = st->cur_seq;
	c->cur_name = st->cur_name;
	c->diverged_now = st->diverged_now;
	c->have_live = st->have_live;
	c->live_ret = st->live_ret;
	c->live_err = st->live_err;
	c->in_retry = st->in_retry;
	c->wait_final = st->wait_final;
	c->wait_still = st->wait_still;
}

static void
ctx_load(struct rp_run *st, const struct rp_mt_ctx *c)
{
	st->arena = c->arena;
	st->arena_cap = c->arena_cap;
	st->cur_seq = c->cur_seq;
	st->cur_name = c->cur_name;
	st->diverged_now = c->diverged_now;
	st->have_live = c->have_live;
	st->live_ret = c->live_ret;
	st->live_err = c->live_err;
	st->in_retry = c->in_retry;
	st->wait_final = c->wait_final;
	st->wait_still = c->wait_still;
}

/*
 * Outside the lock a worker may be in the allocator (the dispatch's hooks
 * run there), so a fork() of the tree's replay, made under the lock,
 * waits until it is back (fork_quiet.h); not for a call that may block
 * until another thread acts, which could be after the fork. Only a tree
 * forks: other replays skip the two extra locks an ioctl.
 */
static void
mt_leave(struct rp_run *st, bool may_block)
{
	if (!st->mt || !self)
		return;
	ctx_save(st, &self->ctx);
	pthread_mutex_unlock(&st->mt->lock);
	if (!may_block && st->r->tree) {
		kt_quiet_busy(&self->quiet);
		self->quiet_held = 1;
	}
}

static void
mt_enter(struct rp_run *st)
{
	int err = errno;	/* the ioctl's, for the caller */

	if (!st->mt || !self)
		return;
	if (self->quiet_held) {
		self->quiet_held = 0;
		kt_quiet_idle(&self->quiet);
	}
	pthread_mutex_lock(&st->mt->lock);
	ctx_load(st, &self->ctx);
	errno = err;
}

/*
 * The earliest exit among records handed over and not done (mt->lock
 * held): a worker's are its thread's, in order, so its head's is its
 * earliest.
 */
static uint64_t
frontier(const struct rp_mt *mt)
{
	uint64_t f = mt->next_exit < mt->ahead_min ? mt->next_exit :
		     mt->ahead_min;
	unsigned int u;

	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *w = &mt->w[u];
		uint64_t e;

		if (w->n && (e = rp_rec_exit(w->q[w->head].rec)) < f)
			f = e;
	}
	return f;
}

static uint64_t
mt_frontier(struct rp_run *st, uint64_t next)
{
	struct rp_mt *mt = st->mt;
	uint64_t f;

	pthread_mutex_lock(&mt->lock);
	mt->next_exit = next;
	f = frontier(mt);
	pthread_mutex_unlock(&mt->lock);
	return f;
}

static void
mt_dep_note(struct rp_run *st)
{
	const struct rp_m_node *d;

	if (!st->mt || !self || !self->dep.seq)
		return;
	d = &self->dep;
	fprintf(st->out, "  (on thread %u, after #%" PRIu64 " %s [%u]: the last "
		"call of another thread that had returned before it was "
		"entered)\n", self->tid, d->seq, d->name, d->tid);
}

/* Whether every record @j waits for is done (or, where that is enough, held). */
static int
ready(const struct rp_mt *mt, const struct rp_mt_job *j)
{
	unsigned int u;

	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *o = &mt->w[u];

		if (j->nd.done[u] > o->done ||
		    j->nd.held[u] > o->done + (uint64_t)o->held)
			return 0;
	}
	return 1;
}

/*
 * A record @j waits for that is not done (or held) yet: the record in
 * hand of the first worker it waits for, or NULL.
 */
static const struct kt_record *
pending_dep(const struct rp_mt *mt, const struct rp_mt_job *j)
{
	unsigned int u;

	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *o = &mt->w[u];

		if ((j->nd.done[u] > o->done ||
		     j->nd.held[u] > o->done + (uint64_t)o->held) && o->n)
			return o->q[o->head].rec;
	}
	return NULL;
}

/* Seconds of @ts after @base, for the dump. */
static double
rel_s(uint64_t ts, uint64_t base)
{
	return ts == UINT64_MAX ? -1.0 :
	       ts >= base ? (double)(ts - base) / 1e9 :
	       -(double)(base - ts) / 1e9;
}

/*
 * At a stall: the reader's place and each worker's record in hand, with
 * what holds it (its turn: the record of another thread it waits for; a
 * held wait; a set behind a held wait; or a call out of the lock, such as
 * a receive of fds). Called by the reader without the lock, or by a
 * worker with it.
 */
static void
mt_dump(struct rp_run *st, FILE *out, uint64_t base)
{
	struct rp_mt *mt = st->mt;
	unsigned int u;

	if (!self)
		pthread_mutex_lock(&mt->lock);
	fprintf(out, "  reader: %s; next exit %.6f, earliest read ahead %.6f\n",
		mt->reading_done ? "done" : mt->reader_waiting ?
		"waits for queue room" : "reading", rel_s(mt->next_exit, base),
		rel_s(mt->ahead_min, base));
	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *w = &mt->w[u];
		const struct rp_mt_job *j;
		const struct kt_record *p;

		if (!w->n)
			continue;
		j = &w->q[w->head];
		fprintf(out, "  thread %u: %" PRIu64 " done, %zu queued; #%"
			PRIu64 " %s (entered %.6f, exit %.6f) ", w->tid, w->done,
			w->n, j->rec->seq, rp_rec_name(j->rec),
			rel_s(j->rec->ts, base), rel_s(rp_rec_exit(j->rec), base));
		if (w == self)
			fprintf(out, "is this thread's\n");
		else if (w->waiting && !ready(mt, j) && (p = pending_dep(mt, j)))
			fprintf(out, "waits for #%" PRIu64 " %s [%u]\n", p->seq,
				rp_rec_name(p), p->tid);
		else if (w->waiting)
			fprintf(out, "waits for its turn\n");
		else if (w->age_waiting)
			fprintf(out, "is a held wait, for the sets of its events\n");
		else if (w->set_waiting)
			fprintf(out, "is a set, behind a held wait\n");
		else
			fprintf(out, "is in a call%s\n", w->held ?
				" (a held wait)" : "");
	}
	if (!self)
		pthread_mutex_unlock(&mt->lock);
}

/*
 * Wake the workers that can go on now (after a record was done, held or
 * queued): each waits on a condition of its own, so that a record done
 * wakes only the threads it lets go, not all of them.
 */
static void
wake_ready(struct rp_mt *mt)
{
	unsigned int u;

	for (u = 0; u < mt->nw; u++) {
		struct rp_mt_worker *o = &mt->w[u];

		if (o->waiting && (mt->st->stop || mt->reading_done ||
				   (o->n && ready(mt, &o->q[o->head]))))
			pthread_cond_signal(&o->cv);
	}
}

static void
job_free(struct rp_mt_job *j)
{
	free(j->rec);
	free(j->nd.done);
	j->rec = NULL;
	j->nd.done = NULL;
}

/* Sleep on @w's condition for up to a millisecond (mt->lock held). */
static void
nap(struct rp_mt *mt, struct rp_mt_worker *w, int *flag)
{
	struct rp_run *st = mt->st;
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += 1000000;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	ctx_save(st, &w->ctx);
	*flag = 1;
	pthread_cond_timedwait(&w->cv, &mt->lock, &t);
	*flag = 0;
	ctx_load(st, &w->ctx);
}

/*
 * Whether the SET_EVENT @rec must wait for another worker's held wait:
 * its event reached the age the wait got back in the capture, so the
 * wait returns at once, before this set in the capture (ages.c).
 */
static int
set_waits(const struct rp_mt *mt, const struct rp_mt_worker *me,
	  const struct kt_record *rec)
{
	uint32_t id;
	unsigned int u;

	if (!rp_set_event_id(mt->st->rows, rec, &id))
		return 0;
	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *o = &mt->w[u];

		if (o != me && o->held && o->n &&
		    rp_age_reached(mt->st, o->q[o->head].rec, id))
			return 1;
	}
	return 0;
}

/*
 * Whether no record can be done until @me goes on: every other worker
 * waits (for its turn, or as @me does) or has nothing left, and the
 * reader has nothing more to hand over or no room for it.
 */
static int
stuck(const struct rp_mt *mt, const struct rp_mt_worker *me)
{
	unsigned int u;

	if (!mt->reading_done && !mt->reader_waiting)
		return 0;
	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *o = &mt->w[u];
		const struct kt_record *head = o->n ? o->q[o->head].rec : NULL;

		if (o == me || (mt->reading_done && !o->n))
			continue;
		/* Woken for its turn, or at its next check, it goes on. */
		if (o->waiting ? head && ready(mt, &o->q[o->head]) :
		    o->age_waiting ? head && rp_age_due(mt->st, head) :
		    o->set_waiting ? head && !set_waits(mt, o, head) : 1)
			return 0;
	}
	return 1;
}

/*
 * A held wait with event ages is issued once its events were set live as
 * often as when it returned in the capture (ages.c): blocked in the
 * kernel, the first set would wake it with an age too young when more
 * sets came before it returned in the capture. Checked again every
 * millisecond; given up (the wait blocks in the kernel as any) when the
 * sets it needs cannot come.
 */
static void
age_wait(struct rp_mt *mt, struct rp_mt_worker *w, const struct kt_record *rec)
{
	struct rp_run *st = mt->st;

	for (;;) {
		rp_age_stand_in(st, rec);
		if (st->stop || rp_age_due(st, rec) || stuck(mt, w))
			break;
		nap(mt, w, &w->age_waiting);
	}
}

/*
 * A wait that completed in the capture: first issued with timeout 0, so
 * that a signal an earlier set left is taken before any later set can
 * join it; if its events are not signalled, then the next set (its
 * releaser) may go, and it is issued again with its captured timeout
 * (capped) and compared.
 */
static void
run_wait(struct rp_mt *mt, struct rp_mt_worker *w, const struct kt_record *rec)
{
	struct rp_run *st = mt->st;

	st->in_retry = 1;
	st->wait_still = 0;
	rp_run_record(st, rec);
	st->in_retry = 0;
	if (!st->wait_still || st->stop)
		return;
	st->wait_still = 0;
	w->held = 1;
	wake_ready(mt);
	rp_wait_stand_in(st, rec);	/* if no CPU call released it */
	age_wait(mt, w, rec);
	st->wait_final = 1;
	st->diverged_now = 0;
	st->have_live = 0;
	rp_run_ioctl(st, rec);
	st->wait_final = 0;
	/* The issue compared (if made): diff gives it the try's place. */
	if (st->have_live)
		rp_mark_own(st, KFD_REPLAY_DONE_NOTE, rec->seq);
	if (!st->diverged_now)
		st->sum.last_ok_seq = rec->seq;
}

static void *
worker_main(void *arg)
{
	struct rp_mt_worker *w = arg;
	struct rp_mt *mt = w->mt;
	struct rp_run *st = mt->st;

	self = w;
	/*
	 * Born busy (fork_quiet.h): idle from here, where its start-up is
	 * done, except in a call out of the lock; busy again as it ends.
	 */
	kt_quiet_idle(&w->quiet);
	pthread_mutex_lock(&mt->lock);
	for (;;) {
		struct rp_mt_job *j;
		uint64_t ns;

		while (!st->stop && !(w->n && ready(mt, &w->q[w->head])) &&
		       !(mt->reading_done && !w->n)) {
			w->waiting = 1;
			pthread_cond_wait(&w->cv, &mt->lock);
			w->waiting = 0;
		}
		if (st->stop || !w->n)
			break;
		j = &w->q[w->head];
		w->dep = j->nd.dep;
		ctx_load(st, &w->ctx);
		if (st->o->timing == KFD_REPLAY_TIMING_ORIGINAL &&
		    (ns = rp_time_due(st, j->rec))) {
			ctx_save(st, &w->ctx);
			pthread_mutex_unlock(&mt->lock);
			rp_sleep_ns(ns);
			pthread_mutex_lock(&mt->lock);
			ctx_load(st, &w->ctx);
		}
		while (!st->stop && set_waits(mt, w, j->rec) && !stuck(mt, w))
			nap(mt, w, &w->set_waiting);
		if (j->nd.wait)
			run_wait(mt, w, j->rec);
		else
			rp_run_record(st, j->rec);
		ctx_save(st, &w->ctx);
		w->held = 0;
		w->last_seq = j->rec->seq;
		job_free(j);
		w->head = (w->head + 1) % RP_MT_QUEUE;
		if (w->n-- == RP_MT_QUEUE && mt->reader_waiting)
			pthread_cond_signal(&mt->room);
		w->done++;
		if (st->stop && mt->reader_waiting)
			pthread_cond_signal(&mt->room);
		/* Stopped (at a divergence): nothing more is done here. */
		if (st->r->tree)
			rp_tree_publish(st, st->stop ? UINT64_MAX : frontier(mt));
		wake_ready(mt);
	}
	pthread_mutex_unlock(&mt->lock);
	kt_quiet_busy(&w->quiet);
	return NULL;
}

static int
mt_setup(struct rp_mt *mt, struct rp_run *st)
{
	unsigned int u;

	memset(mt, 0, sizeof(*mt));
	mt->st = st;
	mt->ahead_min = UINT64_MAX;
	if (rp_mt_order_init(&mt->order, &st->r->model, RP_MT_WORKERS) < 0)
		return -ENOMEM;
	mt->nw = mt->order.nw;
	mt->w = calloc(mt->nw, sizeof(*mt->w));
	if (!mt->w)
		return -ENOMEM;
	for (u = 0; u < mt->nw; u++) {
		struct rp_mt_worker *w = &mt->w[u];

		w->mt = mt;
		w->tid = rp_mt_order_tid(&mt->order, u);
		w->q = calloc(RP_MT_QUEUE, sizeof(*w->q));
		if (!w->q)
			return -ENOMEM;
		pthread_cond_init(&w->cv, NULL);
		kt_quiet_register(&w->quiet);
	}
	pthread_mutex_init(&mt->lock, NULL);
	pthread_cond_init(&mt->room, NULL);
	return 0;
}

static void
mt_teardown(struct rp_mt *mt)
{
	unsigned int u;

	for (u = 0; mt->w && u < mt->nw; u++) {
		struct rp_mt_worker *w = &mt->w[u];

		while (w->q && w->n) {
			job_free(&w->q[w->head]);
			w->head = (w->head + 1) % RP_MT_QUEUE;
			w->n--;
		}
		free(w->q);
		free(w->ctx.arena);
		if (w->mt) {
			pthread_cond_destroy(&w->cv);
			kt_quiet_unregister(&w->quiet);
		}
	}
	free(mt->w);
	rp_mt_order_free(&mt->order);
}

/* Per-thread progress, at the end of the pass. */
static void
mt_report(const struct rp_mt *mt, FILE *out)
{
	unsigned int u;

	if (mt->order.ncaptured <= mt->nw)
		fprintf(out, "threads:     %u captured thread%s, each replayed on "
			"a thread of its own\n", mt->nw, mt->nw == 1 ? "" : "s");
	else
		fprintf(out, "threads:     %zu captured threads on %u replay "
			"threads (past %u, a thread that started after another "
			"ended took its replay thread)\n", mt->order.ncaptured, mt->nw, mt->nw);
	for (u = 0; u < mt->nw; u++) {
		const struct rp_mt_worker *w = &mt->w[u];

		fprintf(out, "  thread %u: %" PRIu64 " records replayed", w->tid,
			w->done);
		if (w->done)
			fprintf(out, ", the last #%" PRIu64, w->last_seq);
		if (w->n) {
			const struct rp_mt_job *j = &w->q[w->head];
			const struct kt_record *p;

			fprintf(out, "; stopped before #%" PRIu64 " %s",
				j->rec->seq, rp_rec_name(j->rec));
			if (!ready(mt, j) && (p = pending_dep(mt, j)))
				fprintf(out, " (waiting for #%" PRIu64 " %s [%u])",
					p->seq, rp_rec_name(p), p->tid);
		}
		fprintf(out, "\n");
	}
	if (mt->order.shared)
		fprintf(out, "  (%" PRIu64 " records of threads past %u at once "
			"were replayed on the thread of another that ran)\n",
			mt->order.shared, mt->nw);
}

static void
out_of_memory(struct rp_mt *mt, const struct kt_record *rec)
{
	struct rp_run *st = mt->st;

	pthread_mutex_lock(&mt->lock);
	st->cur_seq = rec->seq;
	st->cur_name = rp_rec_name(rec);
	st->sum.not_replayed++;
	rp_note(st, "out of memory: not replayed");
	pthread_mutex_unlock(&mt->lock);
}

/* Hand @rec (a copy, now the job's) to its worker; -1: the replay stopped. */
static int
hand_over(struct rp_mt *mt, struct kt_record *rec)
{
	struct rp_run *st = mt->st;
	struct rp_mt_worker *w;
	struct rp_mt_job j;
	unsigned int u;

	j.rec = rec;
	j.nd.done = calloc(2 * (size_t)mt->nw, sizeof(*j.nd.done));
	if (!j.nd.done) {
		out_of_memory(mt, rec);
		job_free(&j);
		return 0;
	}
	j.nd.held = j.nd.done + mt->nw;
	u = rp_mt_order_next(&mt->order, st->rows, rec, &j.nd);
	w = &mt->w[u];
	pthread_mutex_lock(&mt->lock);
	while (w->n == RP_MT_QUEUE && !st->stop) {
		mt->reader_waiting = 1;
		pthread_cond_wait(&mt->room, &mt->lock);
		mt->reader_waiting = 0;
	}
	if (st->stop) {
		pthread_mutex_unlock(&mt->lock);
		job_free(&j);
		return -1;
	}
	w->q[(w->head + w->n) % RP_MT_QUEUE] = j;
	w->n++;
	if (w->waiting && w->n == 1 && ready(mt, &w->q[w->head]))
		pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&mt->lock);
	return 0;
}

/* The records read ahead, in the order they are handed over. */
struct ahead {
	struct kt_record *r[RP_MT_AHEAD];
	size_t n;
};

/*
 * Add @c: a completed wait goes before the records after the last one
 * that entered before it did, never before one of its own thread (in a
 * capture they all entered before it; a renumbered trace may say not).
 */
static void
ahead_add(struct ahead *a, struct kt_record *c, int wait)
{
	size_t i = a->n;

	if (wait)
		while (i > 0 && a->r[i - 1]->ts > c->ts &&
		       a->r[i - 1]->tid != c->tid)
			i--;
	memmove(&a->r[i + 1], &a->r[i], (a->n - i) * sizeof(a->r[0]));
	a->r[i] = c;
	a->n++;
}

/*
 * In a tree, the records read ahead are not done either: the earliest
 * exit among them is part of the frontier others wait on.
 */
static void
ahead_note(struct rp_mt *mt, const struct ahead *a)
{
	uint64_t m = UINT64_MAX, e;
	size_t i;

	if (!mt->st->r->tree)
		return;
	for (i = 0; i < a->n; i++)
		if ((e = rp_rec_exit(a->r[i])) < m)
			m = e;
	pthread_mutex_lock(&mt->lock);
	mt->ahead_min = m;
	pthread_mutex_unlock(&mt->lock);
}

/* Hand over the first @n; -1 when the replay stopped (the rest freed). */
static int
ahead_flush(struct rp_mt *mt, struct ahead *a, size_t n)
{
	size_t i;
	int r = 0;

	for (i = 0; i < n; i++) {
		if (r < 0)
			free(a->r[i]);
		else
			r = hand_over(mt, a->r[i]);	/* it owns the copy */
	}
	memmove(&a->r[0], &a->r[n], (a->n - n) * sizeof(a->r[0]));
	a->n -= n;
	return r;
}

static int
mt_stopped(struct rp_run *st)
{
	int stop;

	if (self)
		return st->stop;
	pthread_mutex_lock(&st->mt->lock);
	stop = st->stop;
	pthread_mutex_unlock(&st->mt->lock);
	return stop;
}

/*
 * The tree's gate is about to wait for another process (the reader's
 * call): hand over what was read ahead, which that process may wait for.
 */
static void
mt_hand_ahead(struct rp_run *st)
{
	struct rp_mt *mt = st->mt;

	if (self || !mt->ahead->n)
		return;
	ahead_flush(mt, mt->ahead, mt->ahead->n);
	ahead_note(mt, mt->ahead);
}

/* What the run calls back into (replay_run.h). */
static const struct rp_mt_ops mt_ops = {
	.leave = mt_leave,
	.enter = mt_enter,
	.dep_note = mt_dep_note,
	.frontier = mt_frontier,
	.dump = mt_dump,
	.hand_ahead = mt_hand_ahead,
	.stopped = mt_stopped,
};

int
rp_threads_run(struct rp_run *st, struct rp_stream *s)
{
	struct rp_mt_ctx main_ctx;
	const struct kt_record *rec;
	struct ahead *ahead;
	struct rp_mt mt;
	uint64_t seen = 0;
	unsigned int u;
	int r = 0, ret = 0;

	ahead = calloc(1, sizeof(*ahead));
	if (!ahead || mt_setup(&mt, st) < 0) {
		free(ahead);
		mt_teardown(&mt);
		fprintf(st->out, "kfdtrace replay: out of memory for --threads\n");
		return -ENOMEM;
	}
	ctx_save(st, &main_ctx);
	mt.ahead = ahead;
	st->mt = &mt;
	st->mt_ops = &mt_ops;
	for (u = 0; u < mt.nw; u++) {
		r = pthread_create(&mt.w[u].th, NULL, worker_main, &mt.w[u]);
		if (r) {
			fprintf(st->out, "kfdtrace replay: cannot start a replay "
				"thread: %s\n", strerror(r));
			st->stop = 1;
			ret = -r;
			break;
		}
		mt.started++;
	}
	while (!ret && (r = rp_stream_next(s, &rec)) > 0) {
		struct kt_record *c;
		int admit;

		/* Read and handed over: at most RP_MT_AHEAD ahead of done. */
		if (st->o->progress)
			st->o->progress(st->o->progress_ctx, ++seen,
					st->r->model.nrec);
		pthread_mutex_lock(&mt.lock);
		if (st->stop) {
			pthread_mutex_unlock(&mt.lock);
			break;
		}
		admit = rp_run_admit(st, rec);
		pthread_mutex_unlock(&mt.lock);
		if (!admit)
			continue;
		if (st->r->tree) {
			/* It hands what was read ahead over before it waits. */
			st->held_exit = rp_stream_held_exit(s);
			rp_tree_gate(st, rec);
		}
		if (!(c = kt_record_clone(rec))) {
			out_of_memory(&mt, rec);
			continue;
		}
		ahead_add(ahead, c, rec->type == KT_REC_IOCTL &&
			  rp_wait_completed(st->rows,
					    kt_ioctl_row(&rec->u.ioctl),
					    &rec->u.ioctl));
		if (ahead->n == RP_MT_AHEAD && ahead_flush(&mt, ahead, 1) < 0)
			break;
		ahead_note(&mt, ahead);
	}
	if (!ret && r < 0)
		ret = r;
	ahead_flush(&mt, ahead, ahead->n);
	ahead_note(&mt, ahead);
	pthread_mutex_lock(&mt.lock);
	mt.reading_done = 1;
	mt.next_exit = UINT64_MAX;	/* the workers' records are the rest */
	wake_ready(&mt);
	pthread_mutex_unlock(&mt.lock);
	for (u = 0; u < mt.started; u++)
		pthread_join(mt.w[u].th, NULL);
	st->mt = NULL;
	ctx_load(st, &main_ctx);
	mt_report(&mt, st->out);
	mt_teardown(&mt);
	pthread_mutex_destroy(&mt.lock);
	pthread_cond_destroy(&mt.room);
	free(ahead);
	return ret;
}
