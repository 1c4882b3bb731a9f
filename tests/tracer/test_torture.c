/* SPDX-License-Identifier: MIT */
/*
 * The capture library under hostile program behaviour, end to end as in
 * test_capture.c: the traced program crashes right after an allocation or
 * with a SIGSEGV handler of its own, is killed with SIGKILL, closes every
 * fd (the trace's too, also behind the wrappers' backs) and puts its own
 * file there, fills the disk; and a symlink waits at the output path.
 * Each time the program must behave as untraced and the trace keep what
 * was written.
 *
 * Paths come from the environment (tests/tracer/meson.build); without a
 * kfdtrace binary or kfdsim library every test here is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/trace.h>

#include "tc_text.h"
#include "tt_capture.h"

static void
test_crash_after_alloc(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "crash", NULL };
	struct tt_trace t;
	const struct tt_rec *r;
	int status;

	tt_need_tools();
	status = tt_record(cx, NULL, NULL, args);
	/* record passes the death on as 128 + SIGSEGV. */
	assert_true(tt_exited(status, 128 + SIGSEGV));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	r = tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.ret, 0);
	assert_true(((struct kfd_abi_alloc_memory_of_gpu_args *)r->arg_after)->handle);
	/* And it is the last ioctl. */
	assert_ptr_equal(r, tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU",
					  tt_count_ioctl(&t, "ALLOC_MEMORY_OF_GPU") - 1));
	assert_int_equal(tt_count(&t, KT_REC_END), 0);
	assert_int_not_equal(t.st.integrity, KT_INTEGRITY_CORRUPT);
	tt_check_counts(cx, &t, t.hdr.pid);
	tt_trace_free(&t);
}

/* The program's own SIGSEGV handler, installed after the trace began,
 * runs after ours: the ALLOC is in the trace and the program exits 42. */
static void
test_crash_app_handler(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "apphandler", NULL };
	struct tt_trace t;
	int status;

	tt_need_tools();
	status = tt_record(cx, NULL, NULL, args);
	if (!tt_exited(status, 42))
		tt_show_log(cx);
	assert_true(tt_exited(status, 42));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	assert_non_null(tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 0));
	tt_check_counts(cx, &t, t.hdr.pid);
	tt_trace_free(&t);
}

static void
test_sigkill(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "sigkill", NULL };
	struct tt_trace t;

	tt_need_tools();
	assert_true(tt_exited(tt_record(cx, NULL, NULL, args), 128 + SIGKILL));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	assert_true(t.st.integrity == KT_INTEGRITY_NO_END ||
		    t.st.integrity == KT_INTEGRITY_TRUNCATED);
	assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 500);
	tt_trace_free(&t);
}

static void
test_closeall(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "closeall", NULL };
	struct tt_trace t;

	tt_need_tools();
	assert_true(tt_exited(tt_record(cx, NULL, NULL, args), 0));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	/* The trace file survived close(), close_range() and dup2(). */
	assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
	assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 4);
	tt_trace_free(&t);
}

/*
 * The program takes the trace's fd away where no wrapper sees it
 * (closefrom(), the close_range and close system calls, dup2 system calls
 * of its own file over it), then puts its own file at every number up to
 * 1023: that file must come out byte for byte as in an untraced run, and
 * the trace must still end properly (exit) or keep what was flushed
 * (SIGSEGV; SIGKILL while the writer is busy with 20,000 more records).
 */
static void
test_ownfile(void **state)
{
	static const char *const hows[] = {
		"closefrom", "close_range", "rawclose", "rawdup2",
	};
	struct tt_cx *cx = *state;
	char *plain = tt_path(cx->dir, "plain.dat");
	char *traced = tt_path(cx->dir, "traced.dat");

	tt_need_tools();
	static const char *const endings[] = { "exit", "crash", "kill" };
	static const int sigs[] = { 0, SIGSEGV, SIGKILL };

	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		for (int e = 0; e < 3; e++) {
			const char *sim[] = {
				getenv("KT_KFDTRACE"), "sim", "--",
				getenv("KT_WORKLOAD"), "ownfile", hows[i], plain,
				endings[e], NULL,
			};
			const char *args[] = {
				getenv("KT_WORKLOAD"), "ownfile", hows[i], traced,
				endings[e], NULL,
			};
			int want = sigs[e] ? 128 + sigs[e] : 0;
			char *a, *b;
			size_t alen, blen;
			struct tt_trace t;
			int status;

			print_message("ownfile %s %s\n", hows[i], endings[e]);
			unlink(cx->out);
			unlink(cx->counts);
			status = tt_run((char *const *)sim, NULL, cx->log);
			assert_true(tt_exited(status, want) ||
				    (sigs[e] && WIFSIGNALED(status) &&
				     WTERMSIG(status) == sigs[e]));
			status = tt_record(cx, NULL, NULL, args);
			if (!tt_exited(status, want))
				tt_show_log(cx);
			assert_true(tt_exited(status, want));
			a = tc_read_file(plain, &alen);
			b = tc_read_file(traced, &blen);
			assert_non_null(a);
			assert_non_null(b);
			assert_int_equal(alen, 65536);
			assert_int_equal(blen, alen);
			assert_memory_equal(a, b, alen);
			free(a);
			free(b);
			assert_int_equal(tt_trace_load(cx->out, &t), 0);
			if (e == 0) {
				assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 1);
				assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
				assert_int_equal(tt_count(&t, KT_REC_END), 1);
			} else {
				/* What was written is whole: cut short at
				 * most (SIGKILL mid-write), never damaged. */
				assert_true(tt_count_ioctl(&t, "GET_VERSION") >= 1);
				assert_int_not_equal(t.st.integrity,
						     KT_INTEGRITY_CORRUPT);
				assert_int_not_equal(t.st.integrity,
						     KT_INTEGRITY_DAMAGED);
			}
			tt_trace_free(&t);
		}
	}
	free(plain);
	free(traced);
}

/*
 * A full disk, made with RLIMIT_FSIZE on the traced program (128 KiB,
 * SIGXFSZ ignored: writes fail with EFBIG as they would with ENOSPC):
 * the writer keeps what fits and ends the trace with an END record that
 * counts the loss; record warns with the number, info says "incomplete"
 * and exits 1. Nothing reads as complete.
 */
static void
test_disk_full(void **state)
{
	struct tt_cx *cx = *state;
	char *script;
	const char *args[] = { "/bin/sh", "-c", NULL, NULL };
	const char *info[] = { getenv("KT_KFDTRACE"), "info", cx->out, NULL };
	struct kt_reader_status st;
	struct kt_record rec;
	struct kt_reader *r;
	char *log;
	size_t len;

	tt_need_tools();
	assert_true(asprintf(&script, "ulimit -f 256; trap '' XFSZ; exec %s "
			     "threads 2 50000", getenv("KT_WORKLOAD")) > 0);
	args[2] = script;
	unlink(cx->log);
	assert_true(tt_exited(tt_record(cx, NULL, NULL, args), 0));
	free(script);
	log = tc_read_file(cx->log, &len);
	assert_non_null(log);
	assert_non_null(strstr(log, "is incomplete: "));
	assert_non_null(strstr(log, " records were lost"));
	free(log);

	assert_int_equal(kt_reader_open(cx->out, &r), 0);
	while (kt_reader_next(r, &rec) == 1)
		;
	kt_reader_get_status(r, &st);
	kt_reader_close(r);
	assert_int_equal(st.integrity, KT_INTEGRITY_INCOMPLETE);
	assert_true(st.lost > 0);
	/* Every record the program's ioctls made is written or counted lost. */
	assert_true(st.end_records + st.lost >= 100000);

	unlink(cx->log);
	assert_true(tt_exited(tt_run((char *const *)info, NULL, cx->log), 1));
	log = tc_read_file(cx->log, &len);
	assert_non_null(strstr(log, "integrity:  incomplete: the writer lost "));
	free(log);
}

/*
 * The capture library never writes through a symlink planted at the
 * output path (O_EXCL|O_NOFOLLOW): neither into an existing file it points
 * to nor by creating a dangling one's target. The trace goes to the next
 * free name instead, mode 0600 whatever the umask.
 */
static void
test_output_symlink(void **state)
{
	struct tt_cx *cx = *state;
	const char *targets[] = { "victim", "nowhere" };

	tt_need_tools();
	for (int k = 0; k < 2; k++) {
		char *target = tt_path(cx->dir, targets[k]);
		char *next, *preload, *output, *env[3];
		char *args[] = { (char *)getenv("KT_WORKLOAD"), "basic", NULL };
		char buf[32] = "";
		struct stat st;
		mode_t old;
		int fd, status;

		if (k == 0) {
			fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0644);
			assert_true(fd >= 0);
			assert_int_equal(write(fd, "precious", 8), 8);
			close(fd);
		}
		assert_int_equal(symlink(target, cx->out), 0);
		/* OUT exists (the link): the next free name, STEM.1.kfdtrace. */
		assert_true(asprintf(&next, "%.*s.1.kfdtrace",
				     (int)(strlen(cx->out) - strlen(".kfdtrace")),
				     cx->out) > 0);
		assert_true(asprintf(&preload, "LD_PRELOAD=%s:%s",
				     getenv("KFDTRACE_CAPTURE_LIB"),
				     getenv("KFDTRACE_SIM_LIB")) > 0);
		assert_true(asprintf(&output, "KFDTRACE_OUTPUT=%s", cx->out) > 0);
		env[0] = preload;
		env[1] = output;
		env[2] = NULL;
		old = umask(0);
		status = tt_run(args, env, cx->log);
		umask(old);
		if (!tt_exited(status, 0))
			tt_show_log(cx);
		assert_true(tt_exited(status, 0));

		/* The link and what it points at are as they were. */
		assert_int_equal(lstat(cx->out, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		if (k == 0) {
			fd = open(target, O_RDONLY);
			assert_true(fd >= 0);
			assert_int_equal(read(fd, buf, sizeof(buf)), 8);
			close(fd);
			assert_memory_equal(buf, "precious", 8);
		} else {
			assert_int_equal(lstat(target, &st), -1);
			assert_int_equal(errno, ENOENT);
		}
		/* The trace, complete, private to its owner. */
		assert_int_equal(lstat(next, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(st.st_mode & 0777, 0600);
		{
			struct tt_trace t;

			assert_int_equal(tt_trace_load(next, &t), 0);
			assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
			assert_true(tt_count_ioctl(&t, "GET_VERSION") >= 2);
			tt_trace_free(&t);
		}
		unlink(next);
		unlink(cx->out);
		unlink(target);
		unlink(cx->counts);
		free(next);
		free(preload);
		free(output);
		free(target);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_crash_after_alloc, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_crash_app_handler, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_sigkill, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_closeall, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_ownfile, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_disk_full, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_output_symlink, tt_cx_setup, tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
