/* SPDX-License-Identifier: MIT */
/*
 * Write errors: the traced process keeps running, records are counted as
 * lost, the first error comes back from flush and close, and what is in
 * the file stays a readable trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "kt_test_util.h"

static void
append_n(struct kt_writer *w, unsigned int t, uint64_t from, uint64_t n)
{
	struct kt_test_rec g;

	for (uint64_t i = from; i < from + n; i++) {
		kt_test_gen(&g, t, i);
		g.rec.seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &g.rec), 0);
	}
}

static void
test_dev_full(void **state)
{
	struct kt_writer_stats st;
	struct kt_header hdr;
	struct kt_writer *w;
	int fd;

	fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		skip();
	kt_test_header_init(&hdr, "test");
	/* Even the header does not fit; the open still succeeds. */
	assert_int_equal(kt_writer_fdopen(fd, &hdr, NULL, &w), 0);
	append_n(w, 0, 0, 1000);
	assert_int_equal(kt_writer_flush(w), -ENOSPC);
	kt_writer_get_stats(w, &st);
	assert_int_equal(st.records, 1000);
	assert_int_equal(st.lost, 1000);
	assert_int_equal(st.file_bytes, 0);
	/* Appends still work (and are dropped). */
	append_n(w, 0, 1000, 10);
	assert_int_equal(kt_writer_close(w), -ENOSPC);
	(void)state;
}

static void
test_broken_pipe(void **state)
{
	struct kt_writer_stats st;
	struct kt_header hdr;
	struct kt_writer *w;
	sigset_t pending;
	int p[2];

	/* SIGPIPE's default action would end this test process. */
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_fdopen(p[1], &hdr, NULL, &w), 0);
	append_n(w, 0, 0, 100);
	assert_int_equal(kt_writer_flush(w), -EPIPE);
	kt_writer_get_stats(w, &st);
	assert_int_equal(st.lost, 100);
	assert_int_equal(kt_writer_close(w), -EPIPE);
	sigpending(&pending);
	assert_false(sigismember(&pending, SIGPIPE));
	(void)state;
}

/*
 * The file-size limit strikes in the middle of a frame: the writer cuts
 * the partial frame off, drops the rest, and still ends the file with an
 * END record saying INCOMPLETE when it fits.
 */
static void
test_file_size_limit(void **state)
{
	const char *path = kt_test_path("fsize.kfdt");
	struct kt_writer_opts opts = { .frame_raw_size = 1024, .index_every = 4 };
	struct kt_reader_status rs;
	struct kt_test_rec g;
	struct kt_reader *r;
	struct kt_record rec;
	struct stat sb;
	bool got_end = false;
	int status, ret;
	uint64_t n = 0;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 9000, 9000 };
		struct kt_writer_stats st;
		struct kt_header hdr;
		struct kt_writer *w;
		int err;

		/* No SIG_IGN: the writer must not let SIGXFSZ kill us. */
		setrlimit(RLIMIT_FSIZE, &rl);
		kt_test_header_init(&hdr, "test");
		if (kt_writer_open(path, &hdr, &opts, &w))
			_exit(10);
		for (uint64_t i = 0; i < 400; i++) {
			kt_test_gen(&g, 0, i);
			g.rec.seq = i;
			if (kt_writer_append(w, &g.rec))
				_exit(11);
			if (i % 40 == 39)
				kt_writer_flush(w);
		}
		err = kt_writer_flush(w);
		kt_writer_get_stats(w, &st);
		if (err != -EFBIG || st.lost == 0)
			_exit(12);
		if (kt_writer_close(w) != -EFBIG)
			_exit(13);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	assert_int_equal(stat(path, &sb), 0);
	assert_true(sb.st_size <= 9000);
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		if (rec.type == KT_REC_END) {
			got_end = true;
			assert_true(rec.u.end.flags & KT_END_INCOMPLETE);
			assert_true(rec.u.end.lost > 0);
			assert_int_equal(rec.u.end.records, n);
			continue;
		}
		assert_false(got_end);
		kt_test_gen(&g, 0, n);
		g.rec.seq = n;
		assert_null(kt_test_rec_diff(&g.rec, &rec, true));
		n++;
	}
	kt_reader_get_status(r, &rs);
	print_message("%llu records kept in %lld bytes, END %s\n",
		      (unsigned long long)n, (long long)sb.st_size,
		      got_end ? "present" : "absent");
	assert_int_equal(ret, 0);
	assert_true(n > 0 && n < 400);
	/* An END that says records were lost: whole, but not complete. */
	assert_int_equal(rs.integrity,
			 got_end ? KT_INTEGRITY_INCOMPLETE : KT_INTEGRITY_NO_END);
	kt_reader_close(r);
	(void)state;
}

static void
test_forked_child(void **state)
{
	const char *path = kt_test_path("fork.kfdt");
	struct kt_header hdr;
	struct kt_writer *w;
	int status;
	pid_t pid;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	append_n(w, 0, 0, 10);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct kt_test_rec g;
		int bad = 0;

		/* The child may not use the parent's writer: errors, no hang. */
		kt_test_gen(&g, 1, 0);
		for (int i = 0; i < 5000; i++)
			if (kt_writer_append(w, &g.rec) != 0)
				bad++;
		if (kt_writer_flush(w) != -ECHILD || !bad)
			_exit(1);
		_exit(kt_writer_close(w) == -ECHILD ? 0 : 2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(kt_writer_close(w), 0);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev_full),
		cmocka_unit_test(test_broken_pipe),
		cmocka_unit_test(test_file_size_limit),
		cmocka_unit_test(test_forked_child),
	};

	return cmocka_run_group_tests_name("trace_errors", tests, NULL, NULL);
}
