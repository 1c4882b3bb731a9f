/* SPDX-License-Identifier: MIT */
/*
 * An idle engine costs (next to) no CPU: with a PM4 and an AQL queue
 * created and a PM4 round trip done, the engine thread (kfdsim-cp) left
 * idle past its deep-sleep point uses less than IDLE_MAX_PERMILLE of a
 * core, and still serves the next doorbell; so does a polling one
 * (KFDSIM_IDLE=poll). Prints the engine's CPU time and wake-ups per
 * second of idleness in both modes (mi210).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/packet_abi.h>

#include "ktest.h"

#define RING_SIZE		4096u
#define EOP_VA			0x30000000ULL
#define CWSR_VA			0x40000000ULL
#define AQL_VA			0x10000000ULL
#define PM4_VA			0x11000000ULL	/* ring; pointers +1 MiB; data +2 MiB */
#define SETTLE_MS		400	/* past the engine's deep-sleep point */
#define WINDOW_MS		1000
/* A spinning engine would use ~1000 permille; a sleeping one ~0. */
#define IDLE_MAX_PERMILLE	10
#define SPIN_MAX_NS		5000000000ULL

/* WRITE_DATA @seq, RELEASE_MEM of fence @seq; 1 once the fence lands. */
static int
pm4_round_trip(struct kt_queue *q, uint32_t seq)
{
	uint64_t data = PM4_VA + 0x200000, fence = data + 64, t0;
	uint32_t d[13] = { KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 3),
			   KFD_PM4_DST_MEM << 8, (uint32_t)data,
			   (uint32_t)(data >> 32), seq,
			   KFD_PM4_HDR(KFD_PM4_OP_RELEASE_MEM, 6), 0x14 | 5u << 8,
			   KFD_PM4_DATA_32 << 29 | KFD_PM4_INT_DATA_ONLY << 24,
			   (uint32_t)fence, (uint32_t)(fence >> 32), seq, 0, 0 };
	uint32_t *ring = (uint32_t *)q->ring;

	memcpy(ring + q->wr, d, sizeof(d));
	q->wr += 13;
	__atomic_store_n((uint64_t *)(q->aux + 64), q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
	t0 = kt_now_ns(CLOCK_MONOTONIC);
	while (__atomic_load_n((uint32_t *)(q->data + 64), __ATOMIC_ACQUIRE) != seq)
		if (kt_now_ns(CLOCK_MONOTONIC) - t0 > SPIN_MAX_NS)
			return 0;
	return *(uint32_t *)q->data == seq;
}

static void
idle_engine(struct kt *t, int poll)
{
	uint64_t cpu0, cpu1, wall0, wall1;
	unsigned long sw0, sw1;
	struct kt_queue aql, pm4;
	clockid_t cpu_clock;
	double permille;
	pid_t tid;

	/* The engine reads it with the first doorbell mapping. */
	if (poll)
		setenv("KFDSIM_IDLE", "poll", 1);
	kt_queue_areas(t, EOP_VA, CWSR_VA);
	kt_queue_create(t, &aql, AQL_VA, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL, RING_SIZE,
			EOP_VA, CWSR_VA, 64);
	kt_queue_create(t, &pm4, PM4_VA, KFD_ABI_QUEUE_TYPE_COMPUTE, RING_SIZE,
			EOP_VA, CWSR_VA, 64);
	unsetenv("KFDSIM_IDLE");
	assert_true(pm4_round_trip(&pm4, 1));
	tid = kt_engine_tid();
	assert_true(tid > 0);
	cpu_clock = kt_task_clock(tid);
	assert_true(kt_now_ns(cpu_clock) > 0);
	usleep(SETTLE_MS * 1000);
	sw0 = kt_task_switches(tid);
	cpu0 = kt_now_ns(cpu_clock);
	wall0 = kt_now_ns(CLOCK_MONOTONIC);
	usleep(WINDOW_MS * 1000);
	cpu1 = kt_now_ns(cpu_clock);
	wall1 = kt_now_ns(CLOCK_MONOTONIC);
	sw1 = kt_task_switches(tid);
	permille = (double)(cpu1 - cpu0) * 1000.0 / (double)(wall1 - wall0);
	printf("idle engine (%s): %.1f us of CPU per s (%.2f permille of a "
	       "core), %.0f wake-ups per s\n",
	       ksim_idle_mode(t->dev) == KSIM_IDLE_UFFD ? "blocks" : "polls",
	       (double)(cpu1 - cpu0) / 1e3 * 1e9 / (double)(wall1 - wall0),
	       permille, (double)(sw1 - sw0) * 1e9 / (double)(wall1 - wall0));
	assert_true(permille < IDLE_MAX_PERMILLE);
	/* Asleep, not gone: the next doorbell is served. */
	assert_true(pm4_round_trip(&pm4, 2));
}

/* Blocking where the host allows it (model-cp-block tests that it does). */
static void
idle_default(void **state)
{
	idle_engine(*state, 0);
}

/* KFDSIM_IDLE=poll: the sleep with backoff, as on a host without it. */
static void
idle_polling(void **state)
{
	idle_engine(*state, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(idle_default, kt_setup_mi210,
						kt_teardown),
		cmocka_unit_test_setup_teardown(idle_polling, kt_setup_mi210,
						kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
