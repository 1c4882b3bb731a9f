/* SPDX-License-Identifier: MIT */
/*
 * The reader gate (see gate.h).
 *
 * Why the barrier is enough: a reader stores its odd counter and then
 * loads the pointer; the writer stores the pointer, runs membarrier, then
 * loads the counters. membarrier puts a full barrier in every thread that
 * is running, and a thread that is not running has crossed one in the
 * context switch. So either the writer's scan sees the reader's odd
 * counter (and waits for it), or the reader's load of the pointer comes
 * after the writer's store (and sees the new pointer).
 *
 * Reader records are never freed: a thread's record goes back to a free
 * pool when the thread exits, for the next new thread to take.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gate.h"

static _Atomic(struct kfd_gate_reader *) gate_readers;
static atomic_int gate_next_id;
atomic_int kfd_gate_mb;
static pthread_once_t gate_once = PTHREAD_ONCE_INIT;
static pthread_key_t gate_key;

__thread struct kfd_gate_reader *kfd_gate_me
	__attribute__((tls_model("initial-exec")));

static void
gate_thread_exit(void *p)
{
	struct kfd_gate_reader *r = p;

	/* Every section has ended (a thread exits outside them). */
	atomic_store_explicit(&r->in_use, 0, memory_order_release);
}

static void
gate_setup(void)
{
	pthread_key_create(&gate_key, gate_thread_exit);
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
		    0, 0) == 0)
		atomic_store(&kfd_gate_mb, 1);
}

/* This thread's record: a free one from the pool, or a new one. */
struct kfd_gate_reader *
kfd_gate_register(void)
{
	struct kfd_gate_reader *r, *head;

	pthread_once(&gate_once, gate_setup);
	for (r = atomic_load(&gate_readers); r; r = r->next) {
		int expected = 0;

		if (atomic_compare_exchange_strong(&r->in_use, &expected, 1))
			goto found;
	}
	r = aligned_alloc(64, sizeof(*r));
	if (!r)
		return NULL;
	for (int i = 0; i < KFD_GATE_MAX; i++)
		atomic_init(&r->seq[i], 0);
	atomic_init(&r->in_use, 1);
	head = atomic_load(&gate_readers);
	do
		r->next = head;
	while (!atomic_compare_exchange_weak(&gate_readers, &head, r));
found:
	pthread_setspecific(gate_key, r);
	kfd_gate_me = r;
	return r;
}

/* The gate's first use: give it a slot in the reader records. */
int
kfd_gate_new_id(struct kfd_gate *g)
{
	int fresh = atomic_fetch_add(&gate_next_id, 1) + 1;
	int expected = 0;

	/* More gates than slots is a programming error; such a gate shares
	 * the last slot, which only makes drains wait longer. */
	if (fresh > KFD_GATE_MAX)
		fresh = KFD_GATE_MAX;
	if (atomic_compare_exchange_strong(&g->id, &expected, fresh))
		return fresh;
	return expected;
}

static int
gate_id(struct kfd_gate *g)
{
	int id = atomic_load_explicit(&g->id, memory_order_acquire);

	return id ? id : kfd_gate_new_id(g);
}

/* clock_gettime() itself: async-signal-safe, unlike the TSC clock's seqlock. */
static uint64_t
gate_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

unsigned int
kfd_gate_drain_for(struct kfd_gate *g, uint64_t timeout)
{
	int i = gate_id(g) - 1;
	unsigned int spins = 0, inside = 0;
	uint64_t deadline = timeout ? gate_now() + timeout : 0;

	pthread_once(&gate_once, gate_setup);
	if (!atomic_load(&kfd_gate_mb) ||
	    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
		atomic_thread_fence(memory_order_seq_cst);
	for (struct kfd_gate_reader *r = atomic_load(&gate_readers); r; r = r->next) {
		unsigned long s = atomic_load_explicit(&r->seq[i],
						       memory_order_acquire);

		if (!(s & 1) || r == kfd_gate_me)
			continue;
		/* Inside: wait until it moves on (left, maybe re-entered
		 * afterwards, in which case it sees the new pointer). */
		while (atomic_load_explicit(&r->seq[i], memory_order_acquire) == s) {
			if (deadline && gate_now() >= deadline) {
				inside++;
				break;
			}
			if (++spins < 64) {
				sched_yield();
			} else {
				struct timespec ts = { 0, 50000 };

				nanosleep(&ts, NULL);
			}
		}
	}
	return inside;
}

void
kfd_gate_drain(struct kfd_gate *g)
{
	kfd_gate_drain_for(g, 0);
}

void
kfd_gate_reset(struct kfd_gate *g)
{
	int i = gate_id(g) - 1;

	/* membarrier registration does not survive fork. */
	if (atomic_load(&kfd_gate_mb) &&
	    syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
		    0, 0))
		atomic_store(&kfd_gate_mb, 0);
	for (struct kfd_gate_reader *r = atomic_load(&gate_readers); r; r = r->next) {
		if (r == kfd_gate_me)
			continue;
		/* That thread does not exist here. */
		atomic_store(&r->seq[i], 0);
		atomic_store(&r->in_use, 0);
	}
}
