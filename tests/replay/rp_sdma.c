/* SPDX-License-Identifier: MIT */
/*
 * SDMA fills and copies on our thunk, for the replay's comparison of copy
 * sources (replay/compare.c, test_compare.c). Two threads, each with an
 * SDMA queue of its own, take turns; each waits until its queue's read
 * pointer reaches its write pointer before handing over.
 *
 *  1. fill:  CONST_FILL of VRAM buffer V (CPU-visible) with FILL_A.
 *  2. copy:  V+SRC_OFF to host buffer H (a source the replay compares),
 *            then the same range again (nothing wrote it since: written
 *            back, not compared).
 *  3. copy:  one submit that fills V+LATE_OFF with FILL_B and copies it
 *            to H (captured before its own fill ran: kept as replayed);
 *            the same in VRAM buffer W, which no packet wrote before (its
 *            captured bytes are written back, and the copy not checked).
 *  4. fill:  CONST_FILL of VRAM buffer U (no CPU mapping: the capture
 *            cannot read it) with FILL_C, and a copy of U to VRAM buffer W.
 *  5. copy:  W to H (W holds what a copy made from a source the trace
 *            lacks).
 *
 * With "stall", a third queue holds a memory POLL_REGMEM on a host word
 * from before step 1 until the end, when the program sets the word. The
 * replay does not store that word, so its queue never drains there.
 *
 *   rp_sdma [stall]
 *
 * Prints "sdma: ok", or fails (exit 1) naming the step.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hsakmt/hsakmt.h"

#define RING_SIZE	4096u
#define V_SIZE		(1u << 20)
#define W_SIZE		(64u << 10)
#define H_SIZE		(64u << 10)
#define SRC_OFF		4096u		/* the compared source, in V */
#define SRC_LEN		(32u << 10)
#define LATE_OFF	(512u << 10)	/* step 3's range, in V */
#define LATE_LEN	4096u
#define FILL_A		0xc0ffee11u
#define FILL_B		0x5a5a5a5au
#define FILL_C		0x13579bdfu
#define WAIT_NS		10000000000ull

/* SDMA packets: the opcode in bits 0-7 of the first dword. */
#define SDMA_COPY	1u		/* sub-op 0: COPY_LINEAR */
#define SDMA_POLL_MEM	(8u | 3u << 28 | 1u << 31)	/* equal, memory */
#define SDMA_FILL_DW	(11u | 2u << 30)		/* dword fill */

struct sq {
	const char *name;
	uint32_t *ring;
	uint64_t *ptrs;
	HsaQueueResource res;
	uint64_t wr;			/* bytes written, monotonic */
};

static HSAuint32 gpu;
static uint8_t *v, *w, *u, *h;
static uint32_t *word;			/* the stall's host word */
static struct sq qa = { .name = "fill" }, qb = { .name = "copy" },
		 qp = { .name = "poll" };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn = 1;			/* the step that may run */
static int failed;

static void
fail(const char *what)
{
	fprintf(stderr, "sdma: %s failed\n", what);
	__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
}

static int
check(HSAKMT_STATUS st, const char *what)
{
	if (st == HSAKMT_STATUS_SUCCESS)
		return 0;
	fprintf(stderr, "sdma: %s: status %d\n", what, (int)st);
	failed = 1;
	return -1;
}

static uint64_t
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* @size bytes on @node (0: host memory), mapped on the GPU. */
static uint8_t *
alloc(HSAuint32 node, HSAuint64 size, int cpu)
{
	HsaMemFlags f = { 0 };
	HSAuint64 va;
	void *p = NULL;

	f.ui32.NonPaged = 1;
	f.ui32.HostAccess = !!cpu;
	if (node)
		f.ui32.NoSubstitute = 1;
	else
		f.ui32.CoarseGrain = 1;
	if (check(hsaKmtAllocMemory(node, size, f, &p), "AllocMemory") ||
	    check(hsaKmtMapMemoryToGPU(p, size, &va), "MapMemoryToGPU"))
		return NULL;
	return p;
}

static int
sq_new(struct sq *q)
{
	q->ring = (uint32_t *)alloc(0, RING_SIZE, 1);
	q->ptrs = (uint64_t *)alloc(0, 4096, 1);
	if (!q->ring || !q->ptrs)
		return -1;
	memset(q->ring, 0, RING_SIZE);
	memset(q->ptrs, 0, 4096);
	q->res.Queue_read_ptr_aql = &q->ptrs[0];
	q->res.Queue_write_ptr_aql = &q->ptrs[1];
	return check(hsaKmtCreateQueue(gpu, HSA_QUEUE_SDMA, 100,
				       HSA_QUEUE_PRIORITY_NORMAL, q->ring,
				       RING_SIZE, NULL, &q->res), "CreateQueue");
}

/* Append @n dwords (no packet wraps: the rings hold all of them). */
static void
put(struct sq *q, const uint32_t *d, unsigned int n)
{
	memcpy((uint8_t *)q->ring + q->wr, d, n * 4);
	q->wr += n * 4;
}

static void
ring(struct sq *q)
{
	__atomic_store_n(q->res.Queue_write_ptr_aql, q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->res.Queue_DoorBell_aql, q->wr, __ATOMIC_RELEASE);
}

/* Wait until @q's engine ran everything published. */
static int
drain(struct sq *q)
{
	uint64_t t0 = now_ns();
	struct timespec nap = { 0, 100000 };

	while (__atomic_load_n(q->res.Queue_read_ptr_aql, __ATOMIC_ACQUIRE) < q->wr) {
		if (now_ns() - t0 > WAIT_NS) {
			fprintf(stderr, "sdma: queue %s did not drain\n", q->name);
			__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	return 0;
}

static void
fill(struct sq *q, const void *dst, uint32_t value, uint32_t len)
{
	uint64_t a = (uintptr_t)dst;
	uint32_t d[5] = { SDMA_FILL_DW, (uint32_t)a, (uint32_t)(a >> 32), value,
			  len - 1 };

	put(q, d, 5);
}

static void
copy(struct sq *q, const void *dst, const void *src, uint32_t len)
{
	uint64_t s = (uintptr_t)src, t = (uintptr_t)dst;
	uint32_t d[7] = { SDMA_COPY, len - 1, 0, (uint32_t)s, (uint32_t)(s >> 32),
			  (uint32_t)t, (uint32_t)(t >> 32) };

	put(q, d, 7);
}

/* Whether the @len bytes at @p all hold dword @value. */
static int
holds(const uint8_t *p, uint32_t value, uint32_t len)
{
	uint32_t x, i;

	for (i = 0; i < len; i += 4) {
		memcpy(&x, p + i, 4);
		if (x != value)
			return 0;
	}
	return 1;
}

/* Wait for step @n's turn; the thread that ran the step before hands on. */
static void
wait_turn(int n)
{
	pthread_mutex_lock(&lock);
	while (turn != n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
}

static void
hand_on(void)
{
	pthread_mutex_lock(&lock);
	turn++;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/* Queue qp polls *word until it is 1 (the program's last store). */
static int
stall_start(void)
{
	uint32_t d[6] = { SDMA_POLL_MEM, 0, 0, 1, ~0u, 0 };

	word = (uint32_t *)alloc(0, 4096, 1);
	if (!word || sq_new(&qp))
		return -1;
	d[1] = (uint32_t)(uintptr_t)word;
	d[2] = (uint32_t)((uint64_t)(uintptr_t)word >> 32);
	put(&qp, d, 6);
	ring(&qp);
	return 0;
}

static void *
filler(void *arg)
{
	(void)arg;
	wait_turn(1);
	fill(&qa, v, FILL_A, V_SIZE);
	ring(&qa);
	if (drain(&qa))
		fail("step 1 (fill V)");
	hand_on();

	wait_turn(4);
	fill(&qa, u, FILL_C, W_SIZE);
	copy(&qa, w, u, W_SIZE);
	ring(&qa);
	if (drain(&qa))
		fail("step 4 (fill U, copy to W)");
	hand_on();
	return NULL;
}

static void *
copier(void *arg)
{
	(void)arg;
	wait_turn(2);
	copy(&qb, h, v + SRC_OFF, SRC_LEN);
	ring(&qb);
	if (drain(&qb) || !holds(h, FILL_A, SRC_LEN))
		fail("step 2 (copy V to H)");
	memset(h, 0, H_SIZE);
	copy(&qb, h, v + SRC_OFF, SRC_LEN);
	ring(&qb);
	if (drain(&qb) || !holds(h, FILL_A, SRC_LEN))
		fail("step 2 (copy V to H again)");
	hand_on();

	wait_turn(3);
	fill(&qb, v + LATE_OFF, FILL_B, LATE_LEN);
	copy(&qb, h, v + LATE_OFF, LATE_LEN);
	ring(&qb);
	if (drain(&qb) || !holds(h, FILL_B, LATE_LEN))
		fail("step 3 (fill and copy in one submit)");
	fill(&qb, w, FILL_B, LATE_LEN);
	copy(&qb, h + LATE_LEN, w, LATE_LEN);
	ring(&qb);
	if (drain(&qb) || !holds(h + LATE_LEN, FILL_B, LATE_LEN))
		fail("step 3 (fill and copy W in one submit)");
	hand_on();

	wait_turn(5);
	copy(&qb, h, w, W_SIZE);
	ring(&qb);
	if (drain(&qb) || !holds(h, FILL_C, W_SIZE))
		fail("step 5 (copy W to H)");
	hand_on();
	return NULL;
}

int
main(int argc, char **argv)
{
	int stall = argc > 1 && !strcmp(argv[1], "stall");
	HsaSystemProperties sp;
	HsaNodeProperties np;
	pthread_t ta, tb;
	HSAuint32 n;

	if (check(hsaKmtOpenKFD(), "OpenKFD") ||
	    check(hsaKmtAcquireSystemProperties(&sp), "AcquireSystemProperties"))
		return 1;
	for (n = 0; n < sp.NumNodes && !gpu; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			gpu = n;
	if (!gpu) {
		fprintf(stderr, "sdma: no GPU node\n");
		return 1;
	}
	v = alloc(gpu, V_SIZE, 1);
	w = alloc(gpu, W_SIZE, 1);
	u = alloc(gpu, W_SIZE, 0);
	h = alloc(0, H_SIZE, 1);
	if (!v || !w || !u || !h || sq_new(&qa) || sq_new(&qb))
		return 1;
	if (stall && stall_start())
		return 1;
	if (pthread_create(&ta, NULL, filler, NULL) ||
	    pthread_create(&tb, NULL, copier, NULL)) {
		fprintf(stderr, "sdma: pthread_create failed\n");
		return 1;
	}
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (stall) {
		__atomic_store_n(word, 1, __ATOMIC_RELEASE);
		if (drain(&qp))
			fail("the stalled queue");
		check(hsaKmtDestroyQueue(qp.res.QueueId), "DestroyQueue");
	}
	check(hsaKmtDestroyQueue(qa.res.QueueId), "DestroyQueue");
	check(hsaKmtDestroyQueue(qb.res.QueueId), "DestroyQueue");
	check(hsaKmtCloseKFD(), "CloseKFD");
	if (failed)
		return 1;
	printf("sdma: ok\n");
	return 0;
}
