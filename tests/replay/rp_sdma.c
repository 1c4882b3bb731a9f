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
 *            back, not compared); then, in one submit, three more ranges
 *            of V, one of them into a registered page of the program's
 *            (a userptr).
 *  3. copy:  one submit that fills V+LATE_OFF with FILL_B and copies it
 *            to H (captured before its own fill ran: kept as replayed);
 *            the same in VRAM buffer W, which no packet wrote before (its
 *            captured bytes are written back, and the copy not checked);
 *            a memory POLL_REGMEM (on a word of V that step 1 filled) and
 *            a copy of V (captured before what the copy waits for: kept).
 *  4. fill:  CONST_FILL of VRAM buffer U (no CPU mapping: the capture
 *            cannot read it) with FILL_C, and a copy of U to VRAM buffer W.
 *  5. copy:  W to H (W holds what a copy made from a source the trace
 *            lacks).
 *  6. fill:  a copy of H to VRAM buffer D (a source in host memory), and
 *            on an AQL queue a kernel of one s_endpgm whose arguments
 *            point to D and to host memory no record holds.
 *  7. copy:  D to H (D may hold what the kernel made from inputs the
 *            trace lacks).
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
#include <sys/mman.h>
#include <time.h>

#include "hsakmt/hsakmt.h"
#include "tc_host.h"

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
#define PAGE		4096u
#define AQL_SLOTS	64u		/* 64-byte packets in the AQL ring */

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
static uint8_t *d_buf, *up, *kern, *args, *aq, *aql_ring;
static struct sq qa = { .name = "fill" }, qb = { .name = "copy" },
		 qp = { .name = "poll" };
static HsaQueueResource aql;
static HSAuint64 up_va;			/* the GPU's address of up */
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
	uint64_t t0 = tc_host_ns(CLOCK_MONOTONIC);
	struct timespec nap = { 0, 100000 };

	while (__atomic_load_n(q->res.Queue_read_ptr_aql, __ATOMIC_ACQUIRE) < q->wr) {
		if (tc_host_ns(CLOCK_MONOTONIC) - t0 > WAIT_NS) {
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

static void
poll_mem(struct sq *q, const uint32_t *at, uint32_t value)
{
	uint64_t a = (uintptr_t)at;
	uint32_t d[6] = { SDMA_POLL_MEM, (uint32_t)a, (uint32_t)(a >> 32), value,
			  ~0u, 0 };

	put(q, d, 6);
}

/*
 * An AQL queue and a kernel of one s_endpgm: a kernel descriptor (code
 * object v3 layout) zero but for kernel_code_entry_byte_offset, its code
 * 256 bytes on; no SGPR enabled, so the kernel reads no argument.
 */
static int
aql_new(void)
{
	const uint32_t endpgm = 0xbf810000;
	const int64_t entry = 256;
	unsigned int i;

	aql_ring = alloc(0, AQL_SLOTS * 64, 1);
	aq = alloc(0, PAGE, 1);
	kern = alloc(0, PAGE, 1);
	args = alloc(0, PAGE, 1);
	if (!aql_ring || !aq || !kern || !args)
		return -1;
	memset(aq, 0, PAGE);
	memset(kern, 0, PAGE);
	memcpy(kern + 16, &entry, sizeof(entry));
	memcpy(kern + entry, &endpgm, sizeof(endpgm));
	for (i = 0; i < AQL_SLOTS; i++)
		aql_ring[i * 64] = 1;		/* INVALID */
	/* amd_queue_t: write_dispatch_id at 56, read_dispatch_id at 128. */
	aql.QueueRptrValue = (uintptr_t)(aq + 128);
	aql.QueueWptrValue = (uintptr_t)(aq + 56);
	return check(hsaKmtCreateQueue(gpu, HSA_QUEUE_COMPUTE_AQL, 100,
				       HSA_QUEUE_PRIORITY_NORMAL, aql_ring,
				       AQL_SLOTS * 64, NULL, &aql), "CreateQueue(AQL)");
}

/* Dispatch the kernel with @nargs 8-byte arguments @a; wait until it ran. */
static int
dispatch(const uint64_t *a, unsigned int nargs)
{
	/* A dispatch with system-scope fences, 1 dimension, 64 work-items. */
	const uint16_t header = 2 | 2u << 9 | 2u << 11;
	uint64_t t0 = tc_host_ns(CLOCK_MONOTONIC), kobj = (uintptr_t)kern, karg = (uintptr_t)args;
	uint8_t *p = aql_ring;
	uint32_t grid = 64;
	uint16_t wg = 64, one = 1, setup = 1;

	memcpy(args, a, nargs * 8);
	memset(p + 2, 0, 62);
	memcpy(p + 2, &setup, 2);
	memcpy(p + 4, &wg, 2);
	memcpy(p + 6, &one, 2);
	memcpy(p + 8, &one, 2);
	memcpy(p + 12, &grid, 4);
	memcpy(p + 16, &one, 2);
	memcpy(p + 20, &one, 2);
	memcpy(p + 32, &kobj, 8);
	memcpy(p + 40, &karg, 8);
	__atomic_store_n((uint16_t *)p, header, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(aq + 56), 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(uintptr_t)aql.Queue_DoorBell, 0,
			 __ATOMIC_RELEASE);
	while (__atomic_load_n((uint64_t *)(aq + 128), __ATOMIC_ACQUIRE) < 1)
		if (tc_host_ns(CLOCK_MONOTONIC) - t0 > WAIT_NS)
			return -1;
	return 0;
}

/* Queue qp polls *word until it is 1 (the program's last store). */
static int
stall_start(void)
{
	word = (uint32_t *)alloc(0, PAGE, 1);
	if (!word || sq_new(&qp))
		return -1;
	memset(word, 0, PAGE);
	poll_mem(&qp, word, 1);
	ring(&qp);
	return 0;
}

static void *
filler(void *arg)
{
	/* D, a length, and host memory no packet names. */
	const uint64_t kargs[3] = { (uintptr_t)d_buf, 42, (uintptr_t)(h + PAGE) };

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

	wait_turn(6);
	memset(h, 0x3c, PAGE);
	copy(&qa, d_buf, h, PAGE);
	ring(&qa);
	if (drain(&qa) || dispatch(kargs, 3))
		fail("step 6 (copy H to D, the kernel)");
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
	copy(&qb, h + SRC_LEN, v + 2 * SRC_LEN, PAGE);
	copy(&qb, h + SRC_LEN + PAGE, v + 3 * SRC_LEN, PAGE);
	copy(&qb, (void *)(uintptr_t)up_va, v + 4 * SRC_LEN, PAGE);
	ring(&qb);
	if (drain(&qb) || !holds(h + SRC_LEN, FILL_A, 2 * PAGE) ||
	    !holds(up, FILL_A, PAGE))
		fail("step 2 (three copies in one submit)");
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
	poll_mem(&qb, (const uint32_t *)(v + LATE_OFF + LATE_LEN), FILL_A);
	copy(&qb, h, v + LATE_OFF + LATE_LEN, LATE_LEN);
	ring(&qb);
	if (drain(&qb) || !holds(h, FILL_A, LATE_LEN))
		fail("step 3 (a poll, then a copy)");
	hand_on();

	wait_turn(5);
	copy(&qb, h, w, W_SIZE);
	ring(&qb);
	if (drain(&qb) || !holds(h, FILL_C, W_SIZE))
		fail("step 5 (copy W to H)");
	hand_on();

	wait_turn(7);
	memset(h, 0, PAGE);
	copy(&qb, h, d_buf, PAGE);
	ring(&qb);
	if (drain(&qb) || !holds(h, 0x3c3c3c3cu, PAGE))
		fail("step 7 (copy D to H)");
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
	d_buf = alloc(gpu, PAGE, 1);
	up = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	if (!v || !w || !u || !h || !d_buf || up == MAP_FAILED ||
	    check(hsaKmtRegisterMemory(up, PAGE), "RegisterMemory") ||
	    check(hsaKmtMapMemoryToGPU(up, PAGE, &up_va), "MapMemoryToGPU(userptr)") ||
	    sq_new(&qa) || sq_new(&qb) || aql_new())
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
	check(hsaKmtDestroyQueue(aql.QueueId), "DestroyQueue(AQL)");
	check(hsaKmtCloseKFD(), "CloseKFD");
	if (failed)
		return 1;
	printf("sdma: ok\n");
	return 0;
}
