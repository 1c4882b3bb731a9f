/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the concurrency stress tests (tests/stress): a
 * watchdog that turns a deadlock into a failure with a message, a
 * deadline, the simulated machine's nodes, a per-thread operation mix on
 * the thunk, and the process-wide bookkeeping the tests compare before and
 * after (open file descriptors, VRAM available per GPU).
 *
 * Worker threads never call cmocka's assertions (they longjmp into the
 * main thread's stack): they report through stress_fail(), and the main
 * thread asserts stress_failures() == 0 once they are joined.
 */
#ifndef KFDTRACE_STRESS_UTIL_H
#define KFDTRACE_STRESS_UTIL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsakmt/hsakmt.h"

#define STRESS_MAX_GPUS		8
#define STRESS_THREADS		16
/* Allocations one worker holds at most at a time. */
#define STRESS_LIVE		6

/* The machine as the thunk reports it. */
struct stress_machine {
	HSAuint32 cpu;				/* first CPU node */
	HSAuint32 gpus[STRESS_MAX_GPUS];	/* GPU nodes */
	unsigned int n_gpus;
};

/* What one worker did; summed by the main thread after the join. */
struct stress_counts {
	unsigned long allocs, frees, maps, unmaps, queries;
	unsigned long events, queues, reads;
};

/* One allocation a worker holds. */
struct stress_buf {
	void *p;
	HSAuint64 size;
	bool mapped;
};

/* A worker's state: its random stream, what it holds, what it did. */
struct stress_worker {
	unsigned int id;
	uint64_t rng;
	struct stress_buf live[STRESS_LIVE];
	struct stress_counts n;
	/* Which operations it may do (STRESS_OP_* bits). */
	unsigned int ops;
	/* For stress_worker_main(): where it runs, and until when. */
	const struct stress_machine *m;
	atomic_bool *stop;
	/* NULL, or how many workers are inside an operation right now. */
	atomic_int *in_call;
	/*
	 * NULL (stress_worker_init()'s), or a pause gate set after it: while
	 * *pause_req, the worker waits between two operations, outside the
	 * library, counted in *paused.
	 */
	atomic_bool *pause_req;
	atomic_int *paused;
};

/* What must be back to its value after a run: open fds, VRAM per GPU. */
struct stress_books {
	int fds;
	HSAuint64 avail[STRESS_MAX_GPUS];
};

enum stress_op {
	STRESS_OP_MEMORY = 1 << 0,	/* alloc, map, unmap, free, own queries */
	STRESS_OP_QUERY = 1 << 1,	/* QueryPointerInfo of others' buffers */
	STRESS_OP_EVENTS = 1 << 2,	/* create, set, wait, destroy */
	STRESS_OP_QUEUES = 1 << 3,	/* ring buffers + queue create/destroy */
	STRESS_OP_READ = 1 << 4,	/* clock counters, node properties */
	STRESS_OP_ALL = 0x1f,
};

/*
 * stress_watchdog() - make the process fail with a message (exit 99) if it
 * is still running @seconds from now; 0 disarms it.
 */
void stress_watchdog(unsigned int seconds);

/* stress_seconds() - the run length: STRESS_SECONDS, else @dflt. */
double stress_seconds(double dflt);

/* stress_fail() - count a failure seen on any thread; prints the first few. */
void stress_fail(const char *file, int line, const char *what, long got);

/* stress_failures() - how many stress_fail() calls there were. */
unsigned long stress_failures(void);

/* STRESS_CHECK() - on a worker: record a failure when @cond is false. */
#define STRESS_CHECK(cond, got) \
	do { \
		if (!(cond)) \
			stress_fail(__FILE__, __LINE__, #cond, (long)(got)); \
	} while (0)

/*
 * stress_machine_get() - the nodes of the open thunk. Return: 0, -1 when
 * the topology has no GPU or no CPU node.
 */
int stress_machine_get(struct stress_machine *m);

/*
 * stress_open_warm() - open the thunk, fill @m with its nodes, and warm up
 * what the library sets up once per process and keeps (the events page,
 * the doorbell slice) with an event cycle and a queue cycle per GPU, so
 * that a baseline taken afterwards is the one a run must come back to.
 * Return: 0, or -1 with the failing step on stderr.
 */
int stress_open_warm(struct stress_machine *m);

/* stress_count_fds() - how many file descriptors the process has open. */
int stress_count_fds(void);

/*
 * stress_vram_avail() - hsaKmtAvailableMemory() of every GPU of @m into
 * @avail. Return: 0, or -1 when a call fails.
 */
int stress_vram_avail(const struct stress_machine *m, HSAuint64 *avail);

/*
 * stress_books_get() - the open file descriptors and the VRAM available
 * on every GPU of @m, into @b (fds -1 when they cannot be counted).
 * Return: 0, or -1 when a VRAM query fails.
 */
int stress_books_get(const struct stress_machine *m, struct stress_books *b);

/*
 * stress_publish() / stress_published() - a shared board of buffer
 * addresses: workers post what they allocate, others query them while
 * the owner may be freeing them (the answer may be either, never a crash).
 */
void stress_publish(unsigned int slot, void *p);
void *stress_published(unsigned int slot);

/*
 * stress_worker_init() - seed @w for worker @id doing @ops on machine @m
 * until *@stop; @in_call (may be NULL) counts it while inside an operation.
 */
void stress_worker_init(struct stress_worker *w, unsigned int id, unsigned int ops,
			const struct stress_machine *m, atomic_bool *stop, atomic_int *in_call);

/*
 * stress_worker_main() - a thread's body (@arg: its struct stress_worker):
 * stress_worker_step() until *stop (pausing at the worker's gate, if it has
 * one), then stress_worker_drain().
 */
void *stress_worker_main(void *arg);

/*
 * stress_worker_step() - one random operation of the worker's mix on
 * machine @m; checks every result it can predict.
 */
void stress_worker_step(struct stress_worker *w, const struct stress_machine *m);

/* stress_worker_drain() - free everything the worker still holds. */
void stress_worker_drain(struct stress_worker *w);

/* stress_counts_add() - @sum += @n. */
void stress_counts_add(struct stress_counts *sum, const struct stress_counts *n);

/*
 * stress_queue_cycle() - allocate and GPU-map a ring and a pointer page on
 * @node, create an AQL queue on them, destroy it, free both.
 * Return: HSAKMT_STATUS_SUCCESS, or the first failing call's status.
 */
HSAKMT_STATUS stress_queue_cycle(HSAuint32 node);

/*
 * stress_event_new() - a signal event, auto-reset unless @manual_reset.
 * Return: the event, or NULL when it could not be created.
 */
HsaEvent *stress_event_new(bool manual_reset);

/*
 * stress_event_cycle() - create an auto-reset signal event, set it, wait
 * (it completes), wait again (times out), destroy it.
 * Return: HSAKMT_STATUS_SUCCESS, or the first unexpected status.
 */
HSAKMT_STATUS stress_event_cycle(void);

/*
 * stress_alloc_host() - @size bytes of coarse-grained, non-paged system
 * memory mapped on GPU node @gpu (a queue's ring or amd_queue_t).
 * Return: the memory, or NULL.
 */
void *stress_alloc_host(HSAuint32 gpu, HSAuint64 size);

#endif /* KFDTRACE_STRESS_UTIL_H */
