/* SPDX-License-Identifier: MIT */
/*
 * Concurrency stress: emergency flushes fired by signals that land at any
 * point of a thread's appends (including inside kt_writer_append()) while
 * the writer thread steals buffers every few milliseconds; and a producer
 * faster than the compressor, which must wait rather than lose records.
 * Every record must come back exactly once, in per-thread order.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define STORM_SIGNALS	400

static struct kt_writer *storm_w;
static _Atomic int storm_flushes, storm_errors;
static _Atomic int storm_stop;
static uint64_t storm_records;

static void
on_usr1(int sig)
{
	int saved = errno;

	if (kt_writer_emergency_flush(storm_w))
		storm_errors++;
	storm_flushes++;
	errno = saved;
	(void)sig;
}

static void *
storm_main(void *arg)
{
	struct kt_test_rec g;

	uint64_t i;

	for (i = 0; !storm_stop; i++) {
		kt_test_gen_ioctl(&g, i, 24 + (uint32_t)(i % 40));
		g.rec.tid = 1000;
		g.rec.seq = i;
		if (kt_writer_append(storm_w, &g.rec))
			storm_errors++;
		if (i % 256 == 255)
			usleep(20);
	}
	storm_records = i;
	(void)arg;
	return NULL;
}

static void
test_signal_storm(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 2048, .flush_ms = 4 };
	const char *path = kt_test_path("storm.kfdt");
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	struct kt_reader_status st;
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_reader *r;
	struct kt_record rec;
	pthread_t th;
	uint64_t n = 0;
	int ret;

	sigaction(SIGUSR1, &sa, NULL);
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &storm_w), 0);
	pthread_create(&th, NULL, storm_main, NULL);
	for (int k = 0; k < STORM_SIGNALS; k++) {
		/* One at a time: pending signals of a kind do not queue. */
		pthread_kill(th, SIGUSR1);
		while (storm_flushes <= k)
			usleep(10);
		if (k % 3 == 0)
			usleep(100);
	}
	storm_stop = 1;
	pthread_join(th, NULL);
	assert_int_equal(kt_writer_close(storm_w), 0);
	signal(SIGUSR1, SIG_DFL);
	print_message("%d emergency flushes during %llu appends\n",
		      (int)storm_flushes, (unsigned long long)storm_records);
	assert_int_equal(storm_errors, 0);
	assert_int_equal(storm_flushes, STORM_SIGNALS);

	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		if (rec.type == KT_REC_END) {
			assert_int_equal(rec.u.end.records, storm_records);
			assert_int_equal(rec.u.end.lost, 0);
			continue;
		}
		kt_test_gen_ioctl(&g, n, 24 + (uint32_t)(n % 40));
		g.rec.tid = 1000;
		g.rec.seq = n;
		if (kt_test_rec_diff(&g.rec, &rec, true))
			fail_msg("record %llu: %s", (unsigned long long)n,
				 kt_test_rec_diff(&g.rec, &rec, true));
		n++;
	}
	kt_reader_get_status(r, &st);
	assert_int_equal(ret, 0);
	assert_int_equal(st.integrity, KT_INTEGRITY_OK);
	assert_int_equal(n, storm_records);
	kt_reader_close(r);
	(void)state;
}

/*
 * Records as fast as one thread can append them, into a queue of a few
 * buffers compressed at a slow level: appends must wait, not drop.
 */
static void
test_backpressure(void **state)
{
	const char *path = kt_test_path("flood.kfdt");
	struct kt_writer_opts opts = { .frame_raw_size = 4096, .level = 5,
				       .max_queued_bytes = 3 * 5120 };
	struct kt_test_rec *g = calloc(64, sizeof(*g));
	struct kt_writer_stats ws;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;
	struct kt_record rec;
	uint64_t n = 0, total = 60000;
	int ret;

	for (int i = 0; i < 64; i++)
		kt_test_gen_ioctl(&g[i], (uint64_t)i, 54);
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (uint64_t i = 0; i < total; i++) {
		g[i % 64].rec.seq = i;
		assert_int_equal(kt_writer_append(w, &g[i % 64].rec), 0);
	}
	assert_int_equal(kt_writer_flush(w), 0);
	kt_writer_get_stats(w, &ws);
	assert_int_equal(ws.records, total);
	assert_int_equal(ws.lost, 0);
	assert_true(ws.raw_bytes >= total * 128);
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1)
		if (rec.type != KT_REC_END)
			assert_int_equal(rec.seq, n++);
	assert_int_equal(ret, 0);
	assert_int_equal(n, total);
	kt_reader_close(r);
	free(g);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_storm),
		cmocka_unit_test(test_backpressure),
	};

	return cmocka_run_group_tests_name("trace_stress", tests, NULL, NULL);
}
