/* SPDX-License-Identifier: MIT */
/*
 * The trace holds every device call to the very end of the process, and
 * its END record counts what the device answered. kt_teardown (see there)
 * uses the device from an atexit() handler, from the destructor of a
 * library it links (finalized after the preloaded capture library), from
 * an atexit() handler that destructor registers and from a thread still
 * busy while the process exits. kfdsim counts the ioctls it answers
 * (KFDSIM_IOCTL_COUNT); the trace must hold as many.
 *
 * Paths come from the environment (tests/tracer/meson.build): KT_TEARDOWN,
 * KFDTRACE_CAPTURE_LIB and KFDTRACE_SIM_LIB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/trace.h>

#include "kt_teardown.h"
#include "tt_capture.h"

/*
 * Run kt_teardown @mode traced; load its trace into @t. Return: what the
 * device answered.
 */
static uint64_t
run_teardown(struct tt_cx *cx, const char *mode, struct tt_trace *t)
{
	const char *args[] = { getenv("KT_TEARDOWN"), mode, NULL };
	char *count = tt_path(cx->dir, "count");
	char *env[2] = { NULL, NULL };
	uint64_t answered;
	int status;

	if (!tt_env_path("KT_TEARDOWN") || !tt_env_path("KFDTRACE_CAPTURE_LIB") ||
	    !tt_env_path("KFDTRACE_SIM_LIB")) {
		print_message("kt_teardown or the libraries are not built\n");
		skip();
	}
	assert_true(asprintf(&env[0], "KFDSIM_IOCTL_COUNT=%s", count) > 0);
	status = tt_wait(tt_spawn_preloaded(cx, 1, env, args));
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	assert_true(tt_exited(status, 0));
	answered = tt_device_count(count);
	free(env[0]);
	free(count);
	if (tt_trace_load(cx->out, t)) {
		tt_show_log(cx);
		fail_msg("no trace at %s", cx->out);
	}
	return answered;
}

/*
 * Run kt_teardown @mode traced into @t: a whole trace with every part's
 * calls, and as many ioctls as the device answered.
 */
static void
run_complete(struct tt_cx *cx, const char *mode, struct tt_trace *t)
{
	uint64_t answered = run_teardown(cx, mode, t);

	tt_check_complete(t);
	assert_int_equal(tt_count_ioctl(t, "GET_CLOCK_COUNTERS"),
			 KT_TD_ATEXIT_CALLS);
	assert_int_equal(tt_count_ioctl(t, "AVAILABLE_MEMORY"),
			 KT_TD_DTOR_CALLS);
	assert_int_equal(tt_count_ioctl(t, "SET_MEMORY_POLICY"),
			 KT_TD_LATE_CALLS);
	/* main()'s and the loop's, at least 100 of which came first. */
	assert_true(tt_count_ioctl(t, "GET_VERSION") >= KT_TD_MAIN_CALLS + 100);
	assert_int_equal(tt_count(t, KT_REC_IOCTL), answered);
}

/* main() returns: the destructor's and the handler's calls come last. */
static void
test_main_returns(void **state)
{
	struct tt_trace t;

	run_complete(*state, "main", &t);
	/* The library's destructor runs after the atexit() handler. */
	assert_true(tt_find_ioctl(&t, "AVAILABLE_MEMORY", 0)->r.seq >
		    tt_find_ioctl(&t, "GET_CLOCK_COUNTERS",
				  KT_TD_ATEXIT_CALLS - 1)->r.seq);
	tt_trace_free(&t);
}

/* Another thread calls exit() while the main thread uses the device. */
static void
test_thread_exits(void **state)
{
	struct tt_trace t;

	run_complete(*state, "thread-exit", &t);
	tt_trace_free(&t);
}

/*
 * A call that never returns (WAIT_EVENTS with no timeout) holds the end
 * up only briefly: the device never answered it, the trace says so in an
 * annotation, and everything the device did answer is in the trace.
 */
static void
test_blocked_call(void **state)
{
	struct tt_trace t;
	const struct tt_rec *note;

	run_complete(*state, "blocked", &t);
	assert_int_equal(tt_count_ioctl(&t, "WAIT_EVENTS"), 0);
	assert_int_equal(tt_count_ioctl(&t, "CREATE_EVENT"), 1);
	note = tt_find_type(&t, KT_REC_ANNOTATION, 0);
	assert_non_null(note);
	assert_non_null(strstr(note->str, "1 device call (waits) had not returned"));
	tt_trace_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_main_returns, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_thread_exits, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_blocked_call, tt_cx_setup,
						tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
