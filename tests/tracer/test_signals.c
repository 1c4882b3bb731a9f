/* SPDX-License-Identifier: MIT */
/*
 * A traced program that ends on a signal keeps every record: N ioctls,
 * then a signal whose default action ends the process (sent by itself
 * with raise() or kill(), from a second thread, or by the test), and the
 * trace holds all N and an END record flagged KT_END_SIGNAL; the program
 * dies of the same signal, with the same wait status as under kfdsim
 * alone. A program with a handler of its own keeps it (and sees it, not
 * ours, in sigaction()); one that ignores SIGPIPE is not disturbed. And
 * SIGTERM sent to four threads busy with ioctls ends the trace properly.
 *
 * The program runs straight under LD_PRELOAD (not through kfdtrace
 * record, which turns a death into an exit status). Paths come from the
 * environment (tests/tracer/meson.build).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/trace.h>

#include "tc_text.h"
#include "tt_capture.h"

#define CALLS "20000"

/* Run kt_workload signal @sig CALLS @how; return its wait status. */
static int
run_signal(struct tt_cx *cx, int traced, int sig, const char *how)
{
	char num[16], *ready = tt_path(cx->dir, "ready"), *env[2];
	const char *args[] = { getenv("KT_WORKLOAD"), "signal", num, CALLS,
			       how, NULL };
	pid_t pid;
	int status;

	snprintf(num, sizeof(num), "%d", sig);
	unlink(cx->out);
	unlink(cx->counts);
	unlink(ready);
	assert_true(asprintf(&env[0], "KT_READY=%s", ready) > 0);
	env[1] = NULL;
	pid = tt_spawn_preloaded(cx, traced, env, args);
	assert_true(pid > 0);
	if (!strcmp(how, "parent")) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		/* No time limit of our own: the test's timeout is the bound. */
		while (access(ready, F_OK) != 0) {
			assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
			nanosleep(&ts, NULL);
		}
		assert_int_equal(kill(pid, sig), 0);
	}
	status = tt_wait(pid);
	free(env[0]);
	free(ready);
	return status;
}

/* The trace of a run that ended on @sig: whole, every call in it. */
static void
check_signal_trace(struct tt_cx *cx, int end_flags)
{
	struct tt_trace t;
	const struct tt_rec *end;

	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	tt_check_complete(&t);
	tt_check_counts(cx, &t, 0);
	assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"),
			 tt_counted(cx, 0, "GET_VERSION"));
	assert_true(tt_count_ioctl(&t, "GET_VERSION") >= 20000);
	end = tt_find_type(&t, KT_REC_END, 0);
	assert_non_null(end);
	assert_int_equal(end->r.u.end.flags & KT_END_SIGNAL, end_flags);
	tt_trace_free(&t);
}

static void
test_signal_endings(void **state)
{
	static const char *const hows[] = { "raise", "kill", "thread", "parent" };
	const int sigs[] = {
		SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGXCPU, SIGUSR1, SIGALRM,
		SIGQUIT, SIGRTMIN + 1,
	};
	struct tt_cx *cx = *state;

	tt_need_tools();
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int plain = run_signal(cx, 0, sigs[i], "raise");

		/* Untraced, the program dies of it. */
		assert_true(WIFSIGNALED(plain));
		assert_int_equal(WTERMSIG(plain), sigs[i]);
		for (size_t h = 0; h < sizeof(hows) / sizeof(hows[0]); h++) {
			int status;

			print_message("signal %d, %s\n", sigs[i], hows[h]);
			status = run_signal(cx, 1, sigs[i], hows[h]);
			if (status != plain)
				tt_show_log(cx);
			/* The same death: signal and core flag. */
			assert_int_equal(status, plain);
			check_signal_trace(cx, KT_END_SIGNAL);
		}
	}
}

/*
 * The program's own SIGTERM handler runs (it exits 43: a normal END);
 * one that sets the default and raises again dies of it with the trace
 * whole; an ignored SIGPIPE stays ignored.
 */
static void
test_signal_program_handlers(void **state)
{
	struct tt_cx *cx = *state;
	char *log;
	size_t len;
	int status;

	tt_need_tools();
	status = run_signal(cx, 1, SIGTERM, "ownexit");
	if (!tt_exited(status, 43))
		tt_show_log(cx);
	assert_true(tt_exited(status, 43));
	log = tc_read_file(cx->log, &len);
	assert_non_null(log);
	assert_non_null(strstr(log, "own handler ran"));
	free(log);
	check_signal_trace(cx, 0);

	status = run_signal(cx, 1, SIGTERM, "reraise");
	if (!WIFSIGNALED(status))
		tt_show_log(cx);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	check_signal_trace(cx, KT_END_SIGNAL);

	status = run_signal(cx, 1, SIGPIPE, "ignore");
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	assert_true(tt_exited(status, 0));
	check_signal_trace(cx, 0);
}

/*
 * SIGTERM from outside while four threads are busy with ioctls (inside the
 * recorder, or the writer compressing): no deadlock, the same death, a
 * whole trace with its END record, holding every ioctl the device
 * answered. Repeated: the signal lands anywhere.
 */
static void
test_signal_busy_threads(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "threads", "4", "100000000",
			       NULL };
	char *count = tt_path(cx->dir, "count");
	char *env[2] = { NULL, NULL };

	tt_need_tools();
	assert_true(asprintf(&env[0], "KFDSIM_IOCTL_COUNT=%s", count) > 0);
	for (int i = 0; i < 5; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		struct tt_trace t;
		struct stat st;
		int status;
		pid_t pid;

		unlink(cx->out);
		unlink(count);
		pid = tt_spawn_preloaded(cx, 1, env, args);
		assert_true(pid > 0);
		/* Until some frames are out: the writer is working. */
		while (stat(cx->out, &st) != 0 || st.st_size < (256 << 10)) {
			assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
			nanosleep(&ts, NULL);
		}
		assert_int_equal(kill(pid, SIGTERM), 0);
		status = tt_wait(pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGTERM);
		assert_int_equal(tt_trace_load(cx->out, &t), 0);
		assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
		assert_true(tt_count(&t, KT_REC_IOCTL) > 0);
		assert_non_null(tt_find_type(&t, KT_REC_END, 0));
		assert_true(tt_find_type(&t, KT_REC_END, 0)->r.u.end.flags &
			    KT_END_SIGNAL);
		assert_int_equal(tt_count(&t, KT_REC_IOCTL), tt_device_count(count));
		tt_trace_free(&t);
	}
	free(env[0]);
	free(count);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_signal_endings, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_signal_program_handlers,
						tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_signal_busy_threads,
						tt_cx_setup, tt_cx_teardown),
	};
	struct rlimit nocore = { 0, 0 };

	/* SIGQUIT dumps core: not into the build tree. */
	setrlimit(RLIMIT_CORE, &nocore);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
