/* SPDX-License-Identifier: MIT */
/*
 * The dispatch point and the recorder under concurrent load: kfdtrace's
 * libhsakmt, linked statically so that its ioctls go through this
 * program's dispatch point, runs the random operation mix on eight
 * threads with a recorder attached, a counting hook after it, and a ninth
 * thread adding and removing another hook set all the while (each removal
 * waits out the calls in flight). The hooks check that a cookie set before
 * a call comes back after it.
 *
 * The trace must hold exactly one IOCTL record per attempt the counting
 * hook saw, in increasing sequence order per thread, and end cleanly.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/recorder.h>
#include <kfdtrace/trace.h>

#include "stress_util.h"
#include "tc_run.h"

#define RECORD_THREADS	8
#define MAX_TIDS	64

static struct stress_machine mach;
static atomic_bool stop;
static atomic_ulong counted, churned;

static void
count_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	(void)ctx;
	(void)call;
	(void)cookie;
	atomic_fetch_add(&counted, 1);
}

static const struct kfd_dispatch_hooks count_hooks = {
	.name = "stress-count",
	.after = count_after,
};

static int
churn_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	(void)call;
	*cookie = ctx;
	return KFD_HOOK_CONTINUE;
}

static void
churn_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	(void)call;
	STRESS_CHECK(cookie == ctx, (long)(uintptr_t)cookie);
}

static const struct kfd_dispatch_hooks churn_hooks = {
	.name = "stress-churn",
	.before = churn_before,
	.after = churn_after,
};

static void *
churner(void *arg)
{
	static int token;
	int r;

	(void)arg;
	while (!atomic_load(&stop)) {
		r = kfd_dispatch_hook_add(&churn_hooks, &token);
		STRESS_CHECK(r == 0, r);
		usleep(200);
		r = kfd_dispatch_hook_remove(&churn_hooks, &token);
		STRESS_CHECK(r == 0, r);
		atomic_fetch_add(&churned, 1);
	}
	return NULL;
}

/* Per-thread order: each record's seq above the thread's previous one. */
struct tid_seq {
	uint32_t tid;
	uint64_t last;
};

static bool
seq_in_order(struct tid_seq *t, unsigned int *n, uint32_t tid, uint64_t seq)
{
	for (unsigned int i = 0; i < *n; i++) {
		if (t[i].tid == tid) {
			bool ok = seq > t[i].last;

			t[i].last = seq;
			return ok;
		}
	}
	if (*n == MAX_TIDS)
		return false;
	t[*n].tid = tid;
	t[(*n)++].last = seq;
	return true;
}

static void
test_record_under_load(void **state)
{
	static struct stress_worker workers[RECORD_THREADS];
	struct kfd_recorder_opts opts = { .producer = "stress", .flags = KFD_REC_SIMULATED };
	char dir[] = "/tmp/kfdtrace-stress-XXXXXX", path[64];
	pthread_t th[RECORD_THREADS], churn;
	struct tid_seq tids[MAX_TIDS];
	struct kt_reader_status rs;
	struct kfd_recorder *rec;
	struct kt_reader *rd;
	struct kt_record r;
	unsigned long ioctls = 0, out_of_order = 0;
	unsigned int ntids = 0;
	double secs = stress_seconds(2), t0;
	int ret;

	(void)state;
	stress_watchdog((unsigned int)secs + 200);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(stress_machine_get(&mach), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/stress.kfdtrace", dir);
	assert_int_equal(kfd_recorder_open(path, &opts, &rec), 0);
	assert_int_equal(kfd_recorder_attach(rec), 0);
	assert_int_equal(kfd_dispatch_hook_add(&count_hooks, NULL), 0);

	t0 = tc_now();
	for (unsigned int i = 0; i < RECORD_THREADS; i++) {
		stress_worker_init(&workers[i], 100 + i, STRESS_OP_ALL, &mach, &stop, NULL);
		assert_int_equal(pthread_create(&th[i], NULL, stress_worker_main, &workers[i]), 0);
	}
	assert_int_equal(pthread_create(&churn, NULL, churner, NULL), 0);
	while (tc_now() - t0 < secs)
		usleep(20000);
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < RECORD_THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	assert_int_equal(pthread_join(churn, NULL), 0);
	/* From here on this thread issues no ioctl until the recorder is closed. */
	assert_int_equal(kfd_dispatch_hook_remove(&count_hooks, NULL), 0);
	assert_int_equal(kfd_recorder_close(rec), 0);

	assert_int_equal(kt_reader_open(path, &rd), 0);
	while ((ret = kt_reader_next(rd, &r)) == 1) {
		if (r.type != KT_REC_IOCTL)
			continue;
		ioctls++;
		out_of_order += !seq_in_order(tids, &ntids, r.tid, r.seq);
	}
	assert_int_equal(ret, 0);
	kt_reader_get_status(rd, &rs);
	kt_reader_close(rd);
	unlink(path);
	rmdir(dir);

	printf("stress-record: %u threads, %.1f s, %lu hook add/remove cycles: %lu ioctls "
	       "counted, %lu IOCTL records from %u threads, %lu out of order, %lu failures\n",
	       RECORD_THREADS + 1, tc_now() - t0, atomic_load(&churned),
	       atomic_load(&counted), ioctls, ntids, out_of_order, stress_failures());
	assert_int_equal(stress_failures(), 0);
	assert_int_equal(rs.integrity, KT_INTEGRITY_OK);
	assert_true(atomic_load(&counted) > 0 && atomic_load(&churned) > 0);
	assert_int_equal(ioctls, atomic_load(&counted));
	assert_int_equal(out_of_order, 0);
	assert_true(ntids >= RECORD_THREADS);

	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	stress_watchdog(0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_under_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
