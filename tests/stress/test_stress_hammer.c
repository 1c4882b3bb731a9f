/* SPDX-License-Identifier: MIT */
/*
 * Sixteen threads on kfdtrace's libhsakmt at once, on kfdsim, for a
 * bounded time (STRESS_SECONDS, default 3): fourteen run a random mix of
 * allocate / GPU-map / unmap / free, QueryPointerInfo of their own and of
 * other threads' buffers (which may be being freed), event cycles, queue
 * create/destroy and read-only queries; two play ping-pong on a pair of
 * auto-reset events, each wait blocking until the other thread sets.
 *
 * Afterwards the books must balance: every allocation freed, every map
 * undone, ping-pong counts equal, VRAM available per GPU back to its value
 * before the run, the same number of open file descriptors, and no call
 * answered anything unexpected. A watchdog fails the test if any thread
 * hangs (a deadlock in the library or the simulator).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "stress_util.h"
#include "tc_run.h"

#define PINGPONG_WAIT_MS	10000

static struct stress_machine mach;
static atomic_bool stop, pp_done;
static HsaEvent *ping, *pong;
static unsigned long pings, pongs;

/* Sets ping, then blocks until the ponger answers. */
static void *
pinger(void *arg)
{
	HSAKMT_STATUS st;

	(void)arg;
	while (!atomic_load(&stop)) {
		st = hsaKmtSetEvent(ping);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		st = hsaKmtWaitOnEvent(pong, PINGPONG_WAIT_MS);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		if (st != HSAKMT_STATUS_SUCCESS)
			break;
		pings++;
	}
	/* Only set after the last pong came back: the ponger sees it next. */
	atomic_store(&pp_done, true);
	st = hsaKmtSetEvent(ping);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
	return NULL;
}

static void *
ponger(void *arg)
{
	HSAKMT_STATUS st;

	(void)arg;
	for (;;) {
		st = hsaKmtWaitOnEvent(ping, PINGPONG_WAIT_MS);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		if (st != HSAKMT_STATUS_SUCCESS || atomic_load(&pp_done))
			break;
		pongs++;
		st = hsaKmtSetEvent(pong);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
	}
	return NULL;
}

static void
test_hammer(void **state)
{
	static struct stress_worker workers[STRESS_THREADS - 2];
	struct stress_books before, after;
	pthread_t th[STRESS_THREADS];
	struct stress_counts sum = { 0 };
	double secs = stress_seconds(3), t0;
	unsigned int n = 0;

	(void)state;
	stress_watchdog((unsigned int)secs + 200);
	/* The baseline is taken once the library's per-process setup is done. */
	assert_int_equal(stress_open_warm(&mach), 0);
	assert_int_equal(stress_books_get(&mach, &before), 0);
	assert_true(before.fds > 0);

	ping = stress_event_new(false);
	pong = stress_event_new(false);
	assert_non_null(ping);
	assert_non_null(pong);

	t0 = tc_now();
	for (unsigned int i = 0; i < STRESS_THREADS - 2; i++) {
		stress_worker_init(&workers[i], i, STRESS_OP_ALL, &mach, &stop, NULL);
		assert_int_equal(pthread_create(&th[n++], NULL, stress_worker_main, &workers[i]), 0);
	}
	assert_int_equal(pthread_create(&th[n++], NULL, pinger, NULL), 0);
	assert_int_equal(pthread_create(&th[n++], NULL, ponger, NULL), 0);
	while (tc_now() - t0 < secs)
		usleep(20000);
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);

	assert_int_equal(hsaKmtDestroyEvent(ping), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(pong), HSAKMT_STATUS_SUCCESS);
	for (unsigned int i = 0; i < STRESS_THREADS - 2; i++)
		stress_counts_add(&sum, &workers[i].n);

	printf("stress-hammer: %u threads, %.1f s, %u GPU(s): %lu allocs, %lu frees, "
	       "%lu maps, %lu unmaps, %lu pointer queries, %lu event cycles, %lu queue cycles, "
	       "%lu reads, %lu ping-pongs, %lu failures\n",
	       n, tc_now() - t0, mach.n_gpus, sum.allocs, sum.frees, sum.maps, sum.unmaps,
	       sum.queries, sum.events, sum.queues, sum.reads, pings, stress_failures());
	assert_int_equal(stress_failures(), 0);
	/* Everything was exercised, and everything was undone. */
	assert_true(sum.allocs > 0 && sum.events > 0 && sum.queues > 0 && pings > 0);
	assert_int_equal(sum.allocs, sum.frees);
	assert_int_equal(sum.maps, sum.unmaps);
	assert_int_equal(pings, pongs);
	assert_int_equal(stress_books_get(&mach, &after), 0);
	for (unsigned int g = 0; g < mach.n_gpus; g++)
		assert_int_equal(after.avail[g], before.avail[g]);
	assert_int_equal(after.fds, before.fds);
	printf("stress-hammer: bookkeeping: VRAM available and %d open fds as before the run\n",
	       after.fds);

	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	stress_watchdog(0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hammer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
