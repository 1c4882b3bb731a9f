/* SPDX-License-Identifier: MIT */
/*
 * What one doorbell costs the thread that rings it (the benchmark
 * doorbell-cost, bench_doorbell.sh): one AQL queue on kfdsim, rung once
 * per packet. Without KFDTRACE_SUBMISSIONS the doorbell is a plain store,
 * as an HSA runtime rings it; with it, the store goes through the capture
 * library's hsa_signal_store_screlease(), which records the packet first
 * (docs/submissions.md).
 *
 * The rings are timed in batches of BATCH (one rdtsc pair a batch, so the
 * clock's cost and resolution do not count), with the packets written
 * before the batch. A batch the host interrupted is slower, never faster:
 * the least and the median of BATCHES batches are printed, in ns a ring.
 * Prints the number of doorbells rung, for the script to count records.
 */
#include <dlfcn.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/packet_abi.h>

#include "stress_util.h"
#include "tc_host.h"

#define RING		256		/* packets */
#define PKT		64
#define BATCH		16
#define BATCHES		4000
#define WARM		2000		/* rings before the timed batches */

/* ROCr's hsa_signal_t and the head of amd_signal_t (amd_hsa_signal.h). */
struct bd_signal {
	uint64_t handle;
};

struct bd_amd_signal {
	int64_t kind;			/* -1: a queue's doorbell */
	uint64_t doorbell;		/* hardware_doorbell_ptr */
	uint8_t rest[48];
};

typedef void (*bd_store_fn)(struct bd_signal, int64_t);

struct bd_queue {
	uint8_t *ring, *aq;
	HsaQueueResource res;
	volatile uint64_t *db;
	uint64_t next;
	bd_store_fn store;		/* NULL: a plain store */
	struct bd_signal sig;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Write @n barrier packets from q->next on, and the write index. */
static void
put(struct bd_queue *q, unsigned int n)
{
	volatile uint64_t *rd = (volatile uint64_t *)(q->aq + 128);

	while (q->next + n - __atomic_load_n(rd, __ATOMIC_ACQUIRE) > RING)
		sched_yield();
	for (unsigned int k = 0; k < n; k++) {
		uint8_t *p = q->ring + ((q->next + k) % RING) * PKT;

		memset(p + 2, 0, PKT - 2);
		__atomic_store_n((uint16_t *)p, (uint16_t)KFD_AQL_TYPE_BARRIER_AND,
				 __ATOMIC_RELEASE);
	}
	__atomic_store_n((uint64_t *)(q->aq + 56), q->next + n, __ATOMIC_RELEASE);
}

/* Ring for each of the @n packets put; return the rdtsc ticks taken. */
static uint64_t
ring(struct bd_queue *q, unsigned int n)
{
	uint64_t t0 = __rdtsc();

	for (unsigned int k = 0; k < n; k++) {
		if (q->store)
			q->store(q->sig, (int64_t)(q->next + k));
		else
			__atomic_store_n(q->db, q->next + k, __ATOMIC_RELEASE);
	}
	t0 = __rdtsc() - t0;
	q->next += n;
	return t0;
}

/* ns per rdtsc tick, against CLOCK_MONOTONIC over 20 ms. */
static double
tick_ns(void)
{
	double t0 = tc_host_now();
	uint64_t r0 = __rdtsc();
	struct timespec z = { 0, 20000000 };

	nanosleep(&z, NULL);
	return (tc_host_now() - t0) * 1e9 / (double)(__rdtsc() - r0);
}

int
main(void)
{
	static struct bd_amd_signal amd;
	static uint64_t t[BATCHES];
	struct stress_machine m;
	struct bd_queue q = { 0 };
	volatile uint64_t *rd;
	const char *sub = getenv("KFDTRACE_SUBMISSIONS");
	double ns;

	tc_host_costs();
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS || stress_machine_get(&m)) {
		fprintf(stderr, "bench_doorbell: no simulated GPU\n");
		return 2;
	}
	q.ring = stress_alloc_host(m.gpus[0], RING * PKT);
	q.aq = stress_alloc_host(m.gpus[0], 4096);
	if (!q.ring || !q.aq)
		return 2;
	for (unsigned int s = 0; s < RING; s++)
		q.ring[s * PKT] = KFD_AQL_TYPE_INVALID;
	q.res.QueueRptrValue = (uintptr_t)(q.aq + 128);
	q.res.QueueWptrValue = (uintptr_t)(q.aq + 56);
	if (hsaKmtCreateQueue(m.gpus[0], HSA_QUEUE_COMPUTE_AQL, 100,
			      HSA_QUEUE_PRIORITY_NORMAL, q.ring, RING * PKT, NULL,
			      &q.res) != HSAKMT_STATUS_SUCCESS)
		return 2;
	q.db = (volatile uint64_t *)(uintptr_t)q.res.Queue_DoorBell;
	if (sub && strcmp(sub, "0")) {
		q.store = (bd_store_fn)dlsym(RTLD_DEFAULT, "hsa_signal_store_screlease");
		if (!q.store) {
			fprintf(stderr, "bench_doorbell: no hsa_signal_store_screlease()\n");
			return 2;
		}
		amd.kind = -1;
		amd.doorbell = (uintptr_t)q.db;
		q.sig.handle = (uintptr_t)&amd;
	}
	for (unsigned int i = 0; i < WARM / BATCH; i++) {
		put(&q, BATCH);
		ring(&q, BATCH);
	}
	for (unsigned int i = 0; i < BATCHES; i++) {
		put(&q, BATCH);
		t[i] = ring(&q, BATCH);
	}
	rd = (volatile uint64_t *)(q.aq + 128);
	while (__atomic_load_n(rd, __ATOMIC_ACQUIRE) < q.next)
		sched_yield();
	ns = tick_ns() / BATCH;
	qsort(t, BATCHES, sizeof(t[0]), cmp_u64);
	printf("doorbell_ns: %.1f least, %.1f median (%s, batches of %d)\n",
	       (double)t[0] * ns, (double)t[BATCHES / 2] * ns,
	       q.store ? "hsa_signal_store_screlease" : "a plain store", BATCH);
	printf("doorbells: %llu\n", (unsigned long long)q.next);
	hsaKmtDestroyQueue(q.res.QueueId);
	hsaKmtCloseKFD();
	return 0;
}
