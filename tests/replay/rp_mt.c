/* SPDX-License-Identifier: MIT */
/*
 * A multi-threaded workload on the thunk API (AMD's libhsakmt, or ours
 * first in LD_LIBRARY_PATH) for the replay tests: N threads each allocate,
 * map and unmap buffers (VRAM and host memory, alternately) and hand every
 * one to the next thread, which frees it; the handing-over thread sets the
 * receiver's event, on which the receiver waits. So buffers are allocated
 * in one thread and freed in another, and events are set in one thread and
 * waited in another: a replay must issue them in the captured order.
 *
 * `rp_mt block` instead has one thread wait on an event that the main
 * thread sets 250 ms later: a wait that is in the kernel while the call
 * that releases it runs, for the test that --threads replays it so.
 *
 * `rp_mt held [ROUNDS]` has one thread wait on one event ROUNDS times,
 * each wait released by a SET_EVENT of its own from the main thread,
 * made once the previous wait has returned: many waits on the same
 * events, for the test that a replay holding several of them at once
 * pairs each try with its own completion.
 *
 * `rp_mt relay [N]` has one thread wait on an event while N short threads
 * run one after another, each setting another event; the last sets the
 * awaited one: more threads than a replay runs at once, the last of
 * which releases a wait that was entered before it started.
 *
 * Usage: rp_mt THREADS [ROUNDS] | rp_mt block | rp_mt held [ROUNDS] |
 * rp_mt relay [N]. It
 * prints the file the thunk was loaded from ("thunk: PATH"). Unexpected
 * statuses go to stderr and make the exit status 1.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hsakmt.h>

#include "rp_kmt.h"

#define RP_MT_MAX	64

struct mailbox {
	pthread_mutex_t lock;
	void *bufs[256];
	HSAuint64 sizes[256];
	unsigned int n;
};

static unsigned int nthreads, rounds;
static HSAuint32 gpu;
static HsaEvent *events[RP_MT_MAX];
static struct mailbox boxes[RP_MT_MAX];
/* Free what the previous thread handed over; return how many. */
static unsigned int
drain(struct mailbox *b)
{
	void *bufs[256];
	HSAuint64 sizes[256];
	unsigned int n, i;

	pthread_mutex_lock(&b->lock);
	n = b->n;
	memcpy(bufs, b->bufs, n * sizeof(bufs[0]));
	memcpy(sizes, b->sizes, n * sizeof(sizes[0]));
	b->n = 0;
	pthread_mutex_unlock(&b->lock);
	for (i = 0; i < n; i++)
		rp_kmt_check(hsaKmtFreeMemory(bufs[i], sizes[i]), "FreeMemory");
	return n;
}

static void *
worker(void *arg)
{
	unsigned int self = (unsigned int)(uintptr_t)arg;
	unsigned int next = (self + 1) % nthreads, freed = 0, i;
	struct mailbox *out = &boxes[next];

	for (i = 0; i < rounds; i++) {
		HsaMemFlags flags = { 0 };
		HSAuint64 size = (HSAuint64)(1 + (self + i) % 4) << 16, va;
		HSAuint32 node = (i & 1) ? 0 : gpu;
		void *p = NULL;

		flags.ui32.NonPaged = 1;
		flags.ui32.HostAccess = 1;
		if (node)
			flags.ui32.NoSubstitute = 1;
		rp_kmt_check(hsaKmtAllocMemory(node, size, flags, &p), "AllocMemory");
		if (!p)
			continue;
		rp_kmt_check(hsaKmtMapMemoryToGPUNodes(p, size, &va, (HsaMemMapFlags){ 0 },
						1, &gpu), "MapMemoryToGPUNodes");
		rp_kmt_check(hsaKmtUnmapMemoryToGPU(p), "UnmapMemoryToGPU");
		pthread_mutex_lock(&out->lock);
		out->bufs[out->n] = p;
		out->sizes[out->n++] = size;
		pthread_mutex_unlock(&out->lock);
		rp_kmt_check(hsaKmtSetEvent(events[next]), "SetEvent");
		/* Free a few as they come, the rest at the end. */
		if (i % 3 == 2)
			freed += drain(&boxes[self]);
	}
	/*
	 * The previous thread hands over @rounds buffers; a set may cover
	 * several (the events reset when a wait returns).
	 */
	while (freed < rounds) {
		HSAKMT_STATUS st = hsaKmtWaitOnEvent(events[self], 20000);

		if (st != HSAKMT_STATUS_SUCCESS) {
			rp_kmt_check(st, "WaitOnEvent");
			break;
		}
		freed += drain(&boxes[self]);
	}
	return NULL;
}

static void *
blocked(void *arg)
{
	(void)arg;
	rp_kmt_check(hsaKmtWaitOnEvent(events[0], 10000), "WaitOnEvent");
	return NULL;
}

static sem_t returned;

static void *
held_waits(void *arg)
{
	unsigned int i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		rp_kmt_check(hsaKmtWaitOnEvent(events[0], 10000), "WaitOnEvent");
		sem_post(&returned);
	}
	return NULL;
}

/*
 * rp_mt held: a set for each wait, made while it waits (most likely: the
 * pause lets it get into the kernel) and only once the one before
 * returned, so that no set releases two waits.
 */
static void
held(void)
{
	struct timespec ts = { 0, 1000 * 1000 };
	pthread_t t;
	unsigned int i;

	sem_init(&returned, 0, 0);
	pthread_create(&t, NULL, held_waits, NULL);
	for (i = 0; i < rounds; i++) {
		nanosleep(&ts, NULL);
		rp_kmt_check(hsaKmtSetEvent(events[0]), "SetEvent");
		while (sem_wait(&returned) != 0)
			;
	}
	pthread_join(t, NULL);
	sem_destroy(&returned);
}

static void *
relay_step(void *arg)
{
	rp_kmt_check(hsaKmtSetEvent(events[(uintptr_t)arg]), "SetEvent");
	return NULL;
}

/* rp_mt relay: @rounds threads one after another; the last releases 0. */
static void
relay(void)
{
	pthread_t w, t;
	unsigned int i;

	pthread_create(&w, NULL, blocked, NULL);
	for (i = 0; i < rounds; i++) {
		pthread_create(&t, NULL, relay_step,
			       (void *)(uintptr_t)(i + 1 < rounds ? 1 : 0));
		pthread_join(t, NULL);
	}
	pthread_join(w, NULL);
}

/* rp_mt block: the wait is entered long before its set. */
static void
block(void)
{
	struct timespec ts = { 0, 250 * 1000 * 1000 };
	pthread_t t;

	pthread_create(&t, NULL, blocked, NULL);
	nanosleep(&ts, NULL);
	rp_kmt_check(hsaKmtSetEvent(events[0]), "SetEvent");
	pthread_join(t, NULL);
}

int
main(int argc, char **argv)
{
	pthread_t t[RP_MT_MAX];
	unsigned int i;
	int block_mode = argc > 1 && !strcmp(argv[1], "block");
	int held_mode = argc > 1 && !strcmp(argv[1], "held");
	int relay_mode = argc > 1 && !strcmp(argv[1], "relay");

	int special = block_mode || held_mode || relay_mode;

	nthreads = block_mode || held_mode ? 1 : relay_mode ? 2 :
		   argc > 1 ? (unsigned int)atoi(argv[1]) : 2;
	rounds = argc > 2 ? (unsigned int)atoi(argv[2]) : relay_mode ? 80 : 24;
	if (nthreads < 1 || nthreads > RP_MT_MAX || rounds < 1 || rounds > 256) {
		fprintf(stderr, "usage: rp_mt THREADS(1-%d) [ROUNDS(1-256)] | "
			"block | held [ROUNDS] | relay [N(1-256)]\n", RP_MT_MAX);
		return 2;
	}
	/* Which thunk: the tests run this on AMD's and on ours. */
	rp_kmt_prog = "rp_mt";
	rp_kmt_print_thunk();
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_mt: cannot open the KFD\n");
		return 1;
	}
	gpu = rp_kmt_first_gpu();
	for (i = 0; i < nthreads; i++) {
		HsaEventDescriptor ed = { 0 };

		ed.EventType = HSA_EVENTTYPE_SIGNAL;
		ed.NodeId = gpu;
		pthread_mutex_init(&boxes[i].lock, NULL);
		rp_kmt_check(hsaKmtCreateEvent(&ed, false, false, &events[i]),
		      "CreateEvent");
		if (!events[i])
			return 1;
	}
	if (block_mode)
		block();
	else if (held_mode)
		held();
	else if (relay_mode)
		relay();
	for (i = 0; i < nthreads && !special; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	for (i = 0; i < nthreads && !special; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < nthreads; i++) {
		drain(&boxes[i]);
		rp_kmt_check(hsaKmtDestroyEvent(events[i]), "DestroyEvent");
	}
	rp_kmt_check(hsaKmtReleaseSystemProperties(), "ReleaseSystemProperties");
	rp_kmt_check(hsaKmtCloseKFD(), "CloseKFD");
	if (rp_kmt_failed())
		fprintf(stderr, "rp_mt: some calls did not succeed\n");
	return rp_kmt_failed();
}
