/* SPDX-License-Identifier: MIT */
/*
 * Resubmission of captured packets (docs/submissions.md) on kfdsim:
 * rp_badpkt publishes a packet the engine cannot decode and waits for the
 * HW_EXCEPTION event the queue error raises. Recorded with --submissions
 * on AMD's libhsakmt and on ours, its replay publishes the packet again,
 * the engine fails on it again and the wait completes as captured (serial
 * and --threads); with --no-resubmit nothing raises the event and the
 * replay diverges at the wait. Without --submissions the trace has no
 * submit record at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rp_test.h"

static const char *kfdtrace, *badpkt, *our_thunk;

static void
capture(const char *file, int ours, int submissions)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, NULL };

	const char *with[] = { kfdtrace, "record", "-o", path, "--sim",
			       "--submissions", "--", badpkt, NULL };
	const char *without[] = { kfdtrace, "record", "-o", path, "--sim", "--",
				  badpkt, NULL };

	rp_lib_path(lib, sizeof(lib), ours ? our_thunk : NULL, our_thunk);
	snprintf(path, sizeof(path), "%s", tmp(file));
	if (run_env(submissions ? with : without, env)) {
		fputs(out, stderr);
		fail_msg("the capture of rp_badpkt failed");
	}
	expect_out("badpkt: the queue error was reported");
}

static void
check(const char *file)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s", tmp(file));
	assert_int_equal(RUN(kfdtrace, "dump", path), 0);
	expect_out("submit(queue=");
	expect_out("UNKNOWN{bytes=<07");
	/* The engine fails on the packet again: the wait completes. */
	if (RUN(kfdtrace, "replay", "--sim", path)) {
		fputs(out, stderr);
		fail_msg("the replay of %s diverged", file);
	}
	expect_out("1 doorbells of captured packets published again, 1 not run");
	expect_out("result:      match (strict)");
	assert_null(strstr(out, "in the GPU's stead"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--threads", path), 0);
	expect_out("result:      match (strict)");
	/* Without the packet nothing raises the event. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--no-resubmit", path), 1);
	expect_out("divergence at #");
	expect_out("WAIT_EVENTS: wait_result");
}

static void
test_amd(void **state)
{
	(void)state;
	capture("amd.kft", 0, 1);
	check("amd.kft");
}

static void
test_ours(void **state)
{
	(void)state;
	capture("ours.kft", 1, 1);
	check("ours.kft");
}

static void
test_off(void **state)
{
	(void)state;
	capture("off.kft", 0, 0);
	assert_int_equal(RUN(kfdtrace, "dump", tmp("off.kft")), 0);
	assert_null(strstr(out, "submit("));
	assert_null(strstr(out, "kfdtrace-submit"));
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	badpkt = getenv("RP_BADPKT");
	our_thunk = getenv("RP_OUR_THUNK");
	if (!kfdtrace || !badpkt || !our_thunk) {
		fprintf(stderr, "KFDTRACE, RP_BADPKT and RP_OUR_THUNK must be set\n");
		return -1;
	}
	return rp_make_dir("resubmit");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_ours),
		cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
