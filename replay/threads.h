/* SPDX-License-Identifier: MIT */
/*
 * --threads, between the replay of records on their threads (threads.c)
 * and what each of them waits for (threads_order.c). Private to replay/.
 */
#ifndef RP_THREADS_H
#define RP_THREADS_H

#include <stdint.h>

#include "replay_run.h"
#include "replay_stream.h"

/* The reader's own bookkeeping of the records it handed over. */
struct rp_mt_order {
	unsigned int nw;		/* workers (assign() in threads_order.c) */
	struct ord_thread *t;
	struct rp_vec events;		/* struct ord_event */
	struct kc_u64map event_idx;	/* event id -> index into events */
	struct kc_u64map ended;		/* (kind, id) -> who ended it last */
	struct kc_u64map used;		/* (kind, worker, id) -> its last use */
	struct kc_u64map workers;	/* captured tid -> worker */
	size_t ncaptured;		/* captured threads that call */
	uint64_t shared;		/* records of threads past the cap that
					 * share a worker with one running */
};

/* What one record waits for, per worker (arrays of nw counts). */
struct rp_mt_needs {
	uint64_t *done;		/* its records done */
	uint64_t *held;		/* ... or the last of them held (a wait
				 * issued, not returned) */
	struct rp_m_node dep;	/* the latest record by time (seq 0: none) */
	int wait;		/* it is a wait that completed */
};

/*
 * rp_mt_order_init() - workers for the captured threads of @m: one per
 * thread up to @max; past it, a thread that starts after the threads of a
 * worker ended takes that worker.
 * Return: 0, or -ENOMEM (free it anyway).
 */
int rp_mt_order_init(struct rp_mt_order *o, const struct rp_model *m,
		     unsigned int max);
/* rp_mt_order_free() - free it. */
void rp_mt_order_free(struct rp_mt_order *o);
/* rp_mt_order_tid() - the first captured thread worker @u replays. */
uint32_t rp_mt_order_tid(const struct rp_mt_order *o, unsigned int u);
/*
 * rp_mt_order_next() - @rec is handed over next, in stream order: fill
 * @nd with what it waits for and count it as its worker's.
 * Return: its worker.
 */
unsigned int rp_mt_order_next(struct rp_mt_order *o, const struct rp_rows *r,
			      const struct kt_record *rec,
			      struct rp_mt_needs *nd);

/*
 * rp_threads_run() - --threads: replay the pass from @s with each
 * captured thread on a thread of its own; the caller's thread reads the
 * stream and hands every record to its thread's queue. It sets the run's
 * rp_mt_ops (replay_run.h) for the time it runs.
 * Return: as rp_stream_next() at the end of the stream (0, or negative).
 */
int rp_threads_run(struct rp_run *st, struct rp_stream *s);

#endif
