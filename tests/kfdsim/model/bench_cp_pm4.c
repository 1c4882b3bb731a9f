/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: a PM4 round trip (WRITE_DATA + RELEASE_MEM published, the
 * CPU spinning on the fence RELEASE_MEM stores) against an AQL one (a
 * BARRIER_AND published, the CPU spinning on its completion signal), on
 * the model's engine (mi210), in one run. Rounds of each alternate, so
 * that both see the same host. Prints ns per round trip (the mean, and
 * the best round's: a round the host did not preempt) and the ratio of
 * the best rounds, beside the host's syscall and rdtsc costs; the target
 * is a ratio of at most 1. Fails above BENCH_MAX_RATIO (a margin for
 * noisy hosts) or when a round trip does not complete.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfdtrace/packet_abi.h>

#include "ktest.h"
#include "tc_host.h"

#define ROUNDS		10
#define PER_ROUND	2000
#define BENCH_MAX_RATIO	1.5
#define RING_SIZE	4096u
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define AQL_VA		0x10000000ULL	/* ring; amd_queue_t +1 MiB; signal +2 MiB */
#define PM4_VA		0x11000000ULL	/* ring; pointers +1 MiB; data +2 MiB */
#define SPIN_MAX	2000000000ULL	/* ns: a round trip that never ends */

/* Spin until *@p == @want; 0 on time-out. */
static int
spin32(const uint32_t *p, uint32_t want)
{
	uint64_t t0 = kt_now_ns(CLOCK_MONOTONIC);

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want)
		if (kt_now_ns(CLOCK_MONOTONIC) - t0 > SPIN_MAX)
			return 0;
	return 1;
}

static int
spin64(const int64_t *p, int64_t want)
{
	uint64_t t0 = kt_now_ns(CLOCK_MONOTONIC);

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want)
		if (kt_now_ns(CLOCK_MONOTONIC) - t0 > SPIN_MAX)
			return 0;
	return 1;
}

/* One AQL round trip: a BARRIER_AND whose completion signal drops by 1. */
static int
aql_once(struct kt_queue *q)
{
	uint8_t *pkt = q->ring + (q->wr % (RING_SIZE / 64)) * 64;
	int64_t *value = (int64_t *)(q->data + 8);
	uint64_t sig = AQL_VA + 0x200000;
	int64_t before = __atomic_load_n(value, __ATOMIC_ACQUIRE);

	memset(pkt + 2, 0, 62);
	memcpy(pkt + 56, &sig, 8);
	__atomic_store_n((uint16_t *)pkt, (uint16_t)(KFD_AQL_TYPE_BARRIER_AND |
			 KFD_AQL_FENCE_BARRIER << 8), __ATOMIC_RELEASE);
	q->wr++;
	__atomic_store_n((uint64_t *)(q->aux + 56), q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr - 1, __ATOMIC_RELEASE);
	return spin64(value, before - 1);
}

static void
pm4_emit(struct kt_queue *q, const uint32_t *d, unsigned int n)
{
	uint32_t *ring = (uint32_t *)q->ring, ring_dw = RING_SIZE / 4;

	while (q->wr % ring_dw + n > ring_dw)
		ring[q->wr++ % ring_dw] = KFD_PM4_NOP_FILLER;
	memcpy(ring + q->wr % ring_dw, d, n * 4);
	q->wr += n;
}

/* One PM4 round trip: WRITE_DATA, then RELEASE_MEM of the fence @seq. */
static int
pm4_once(struct kt_queue *q, uint32_t seq)
{
	uint64_t data = PM4_VA + 0x200000, fence = data + 64;
	uint32_t w[5] = { KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 3),
			  KFD_PM4_DST_MEM << 8, (uint32_t)data,
			  (uint32_t)(data >> 32), seq };
	uint32_t r[8] = { KFD_PM4_HDR(KFD_PM4_OP_RELEASE_MEM, 6), 0x14 | 5u << 8,
			  KFD_PM4_DATA_32 << 29 | KFD_PM4_INT_DATA_ONLY << 24,
			  (uint32_t)fence, (uint32_t)(fence >> 32), seq, 0, 0 };

	pm4_emit(q, w, 5);
	pm4_emit(q, r, 8);
	__atomic_store_n((uint64_t *)(q->aux + 8), q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
	return spin32((const uint32_t *)(q->data + 64), seq);
}

static void
bench(void **state)
{
	struct kt *t = *state;
	uint64_t t_aql = 0, t_pm4 = 0, b_aql = UINT64_MAX, b_pm4 = UINT64_MAX, t0, dt;
	unsigned int ok = 1;
	uint32_t seq = 0;
	struct kt_queue aql, pm4;
	double a, p, ba, bp;

	kt_queue_areas(t, EOP_VA, CWSR_VA);
	kt_queue_create(t, &aql, AQL_VA, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL, RING_SIZE,
			EOP_VA, CWSR_VA, 8);
	kt_queue_create(t, &pm4, PM4_VA, KFD_ABI_QUEUE_TYPE_COMPUTE, RING_SIZE,
			EOP_VA, CWSR_VA, 8);
	*(int64_t *)(aql.data + 8) = 1LL << 40;
	/* Warm both up: the engine's first pass maps and checks memory. */
	for (unsigned int i = 0; i < 100 && ok; i++)
		ok = aql_once(&aql) && pm4_once(&pm4, ++seq);
	for (unsigned int r = 0; r < ROUNDS && ok; r++) {
		t0 = kt_now_ns(CLOCK_MONOTONIC);
		for (unsigned int i = 0; i < PER_ROUND && ok; i++)
			ok = aql_once(&aql);
		dt = kt_now_ns(CLOCK_MONOTONIC) - t0;
		t_aql += dt;
		b_aql = dt < b_aql ? dt : b_aql;
		t0 = kt_now_ns(CLOCK_MONOTONIC);
		for (unsigned int i = 0; i < PER_ROUND && ok; i++)
			ok = pm4_once(&pm4, ++seq);
		dt = kt_now_ns(CLOCK_MONOTONIC) - t0;
		t_pm4 += dt;
		b_pm4 = dt < b_pm4 ? dt : b_pm4;
	}
	assert_true(ok);
	a = (double)t_aql / (ROUNDS * PER_ROUND);
	p = (double)t_pm4 / (ROUNDS * PER_ROUND);
	ba = (double)b_aql / PER_ROUND;
	bp = (double)b_pm4 / PER_ROUND;
	tc_host_costs();
	printf("AQL BARRIER_AND round trip:              %8.1f ns (best round "
	       "%.1f ns)\n", a, ba);
	printf("PM4 WRITE_DATA + RELEASE_MEM round trip: %8.1f ns (best round "
	       "%.1f ns)\n", p, bp);
	printf("PM4/AQL: %.2fx (best rounds; mean %.2fx); target at most 1x\n",
	       bp / ba, p / a);
	assert_true(bp / ba <= BENCH_MAX_RATIO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(bench, kt_setup_mi210, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
