/* SPDX-License-Identifier: MIT */
/*
 * Dying writers. A child that faults (SIGSEGV raised, or a fault inside
 * kt_writer_append() itself) calls kt_writer_emergency_flush() from its
 * signal handler: every record it appended is in the file. A child that is
 * SIGKILLed mid-stream leaves a readable prefix of every thread's records.
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define MAXT	4

static struct kt_writer *crash_w;

static void
on_fault(int sig)
{
	kt_writer_emergency_flush(crash_w);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
child_setup(void)
{
	struct rlimit rl = { 0, 0 };
	struct sigaction sa = { .sa_handler = on_fault };

	setrlimit(RLIMIT_CORE, &rl);
	sigaction(SIGSEGV, &sa, NULL);
}

struct worker {
	unsigned int t;
	uint64_t n;		/* 0: until killed */
};

static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct kt_test_rec g;

	for (uint64_t i = 0; !wk->n || i < wk->n; i++) {
		kt_test_gen(&g, wk->t, i);
		g.rec.seq = kt_writer_next_seq(crash_w);
		kt_writer_append(crash_w, &g.rec);
		if (!wk->n && i % 64 == 63)
			usleep(200);
	}
	return NULL;
}

/*
 * Read a trace whose writer died: every thread's records must be exactly
 * its first ones, in order. Return: the integrity; counts in @count.
 */
static enum kt_integrity
check_prefixes(const char *path, uint64_t *count, unsigned int nthreads)
{
	struct kt_reader_status st;
	struct kt_test_rec g;
	struct kt_reader *r;
	struct kt_record rec;
	int ret;

	memset(count, 0, sizeof(*count) * nthreads);
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		unsigned int t = rec.tid - 1000;
		const char *d;

		assert_true(t < nthreads);
		assert_int_not_equal(rec.type, KT_REC_END);
		kt_test_gen(&g, t, count[t]);
		d = kt_test_rec_diff(&g.rec, &rec, false);
		if (d)
			fail_msg("thread %u record %llu: %s", t,
				 (unsigned long long)count[t], d);
		count[t]++;
	}
	kt_reader_get_status(r, &st);
	if (ret && ret != -KT_ETRUNC)
		fail_msg("%s: %s", kt_strerror(ret), st.message);
	kt_reader_close(r);
	return st.integrity;
}

/* The whole file decodes with the standard zstd decoder. */
static void
check_standard_zstd(const char *path, size_t *raw_frames)
{
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	struct kt_test_frame fr[1024];
	uint8_t *data, out[1 << 16];
	size_t len, ret = 0;
	ZSTD_inBuffer in;
	int n;

	data = kt_test_slurp(path, &len);
	in = (ZSTD_inBuffer){ data, len, 0 };
	while (in.pos < in.size) {
		ZSTD_outBuffer ob = { out, sizeof(out), 0 };

		ret = ZSTD_decompressStream(dc, &ob, &in);
		assert_false(ZSTD_isError(ret));
	}
	assert_int_equal(ret, 0);
	/* Frames made by the emergency flush: raw blocks, no checksum. */
	n = kt_test_walk(data, len, fr, 1024);
	assert_true(n > 0);
	*raw_frames = 0;
	for (int i = 0; i < n; i++)
		if (fr[i].data && data[fr[i].off + 4] == 0xA0)
			(*raw_frames)++;
	ZSTD_freeDCtx(dc);
	free(data);
}

static void
wait_signaled(pid_t pid, int sig)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
		fail_msg("child status %#x, expected signal %d", status, sig);
}

static void
test_emergency_on_sigsegv(void **state)
{
	const char *path = kt_test_path("segv.kfdt");
	struct kt_writer_opts opts = { .frame_raw_size = 1 << 20,
				       .flush_ms = 60000 };
	uint64_t count[MAXT];
	size_t raw_frames;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct worker wk[MAXT];
		pthread_t th[MAXT];
		struct kt_header hdr;

		child_setup();
		kt_test_header_init(&hdr, "test");
		if (kt_writer_open(path, &hdr, &opts, &crash_w))
			_exit(1);
		/* Three threads append and exit; their buffers stay behind. */
		for (unsigned int t = 1; t < MAXT; t++) {
			wk[t] = (struct worker){ .t = t, .n = 500 };
			pthread_create(&th[t], NULL, worker_main, &wk[t]);
		}
		for (unsigned int t = 1; t < MAXT; t++)
			pthread_join(th[t], NULL);
		wk[0] = (struct worker){ .t = 0, .n = 700 };
		worker_main(&wk[0]);
		raise(SIGSEGV);
		_exit(2);
	}
	wait_signaled(pid, SIGSEGV);
	assert_int_equal(check_prefixes(path, count, MAXT), KT_INTEGRITY_NO_END);
	assert_int_equal(count[0], 700);
	for (unsigned int t = 1; t < MAXT; t++)
		assert_int_equal(count[t], 500);
	check_standard_zstd(path, &raw_frames);
	assert_true(raw_frames >= MAXT);
	(void)state;
}

/* The fault is inside kt_writer_append(): a bad pointer in the record. */
static void
test_emergency_fault_inside_append(void **state)
{
	const char *path = kt_test_path("inside.kfdt");
	struct kt_writer_opts opts = { .flush_ms = 60000 };
	uint64_t count[1];
	size_t raw_frames;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct worker wk = { .t = 0, .n = 300 };
		struct kt_record bad = { .type = KT_REC_IOCTL, .tid = 1000 };
		struct kt_header hdr;

		child_setup();
		kt_test_header_init(&hdr, "test");
		if (kt_writer_open(path, &hdr, &opts, &crash_w))
			_exit(1);
		worker_main(&wk);
		bad.u.ioctl.arg_size = 64;
		bad.u.ioctl.arg_before = (const uint8_t *)16;
		bad.u.ioctl.arg_after = (const uint8_t *)16;
		kt_writer_append(crash_w, &bad);
		_exit(2);
	}
	wait_signaled(pid, SIGSEGV);
	assert_int_equal(check_prefixes(path, count, 1), KT_INTEGRITY_NO_END);
	assert_int_equal(count[0], 300);
	check_standard_zstd(path, &raw_frames);
	assert_true(raw_frames >= 1);
	(void)state;
}

static void
test_sigkill(void **state)
{
	static const unsigned int delays_ms[] = { 60, 150, 250 };

	for (size_t k = 0; k < sizeof(delays_ms) / sizeof(delays_ms[0]); k++) {
		char name[32];
		const char *path;
		uint64_t count[2];
		enum kt_integrity in;
		pid_t pid;

		snprintf(name, sizeof(name), "kill%zu.kfdt", k);
		path = kt_test_path(name);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct kt_writer_opts opts = { .frame_raw_size = 4096,
						       .flush_ms = 20 };
			struct worker wk[2] = { { .t = 0 }, { .t = 1 } };
			pthread_t th;
			struct kt_header hdr;

			kt_test_header_init(&hdr, "test");
			if (kt_writer_open(path, &hdr, &opts, &crash_w))
				_exit(1);
			pthread_create(&th, NULL, worker_main, &wk[1]);
			worker_main(&wk[0]);
			_exit(2);
		}
		usleep(delays_ms[k] * 1000);
		kill(pid, SIGKILL);
		wait_signaled(pid, SIGKILL);
		in = check_prefixes(path, count, 2);
		print_message("killed after %u ms: %llu + %llu records, %s\n",
			      delays_ms[k], (unsigned long long)count[0],
			      (unsigned long long)count[1],
			      in == KT_INTEGRITY_TRUNCATED ? "truncated" :
			      "no END");
		assert_true(in == KT_INTEGRITY_TRUNCATED ||
			    in == KT_INTEGRITY_NO_END);
		assert_true(count[0] + count[1] > 0);
	}
	(void)state;
}

/* An emergency flush need not be the end: the writer goes on afterwards. */
static void
test_emergency_then_continue(void **state)
{
	const char *path = kt_test_path("continue.kfdt");
	struct kt_reader_status st;
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_reader *r;
	struct kt_record rec;
	uint64_t n = 0;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &crash_w), 0);
	for (uint64_t i = 0; i < 400; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = i;
		assert_int_equal(kt_writer_append(crash_w, &g.rec), 0);
		if (i == 150 || i == 151 || i == 300)
			assert_int_equal(kt_writer_emergency_flush(crash_w), 0);
	}
	assert_int_equal(kt_writer_close(crash_w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	while (kt_reader_next(r, &rec) == 1) {
		if (rec.type == KT_REC_END) {
			assert_int_equal(rec.u.end.records, 400);
			continue;
		}
		kt_test_gen(&g, 0, n);
		g.rec.seq = n;
		assert_null(kt_test_rec_diff(&g.rec, &rec, true));
		n++;
	}
	kt_reader_get_status(r, &st);
	assert_int_equal(n, 400);
	assert_int_equal(st.integrity, KT_INTEGRITY_OK);
	kt_reader_close(r);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emergency_on_sigsegv),
		cmocka_unit_test(test_emergency_fault_inside_append),
		cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_emergency_then_continue),
	};

	return cmocka_run_group_tests_name("trace_crash", tests, NULL, NULL);
}
