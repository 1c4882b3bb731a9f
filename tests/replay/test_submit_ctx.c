/* SPDX-License-Identifier: MIT */
/*
 * Submission capture and resubmission with two KFD processes in one
 * program (rp_ctxq: our thunk's secondary contexts A and B, each with an
 * AQL queue of the same id and a doorbell at the same offset of its own
 * /dev/kfd file). Under `record --submissions` both queues still run their
 * packets (the program prints "ctxq: done"); the submit records name each
 * queue's file, so A's 3 packets and B's 5 + 2 are told apart; the replay
 * publishes each batch again on its own queue, serially and with
 * --threads, and matches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rp_test.h"

static const char *kfdtrace, *ctxq, *our_thunk;

/* In the dump @text, the fd of the submit line holding @range, or -1. */
static int
submit_fd(const char *text, const char *range)
{
	const char *p = text;

	while ((p = strstr(p, "submit(queue=")) != NULL) {
		const char *eol = strchr(p, '\n'), *f = strstr(p, ", fd="),
			   *r = strstr(p, range);

		if (r && (!eol || r < eol) && f && (!eol || f < eol))
			return atoi(f + 5);
		p += 13;
	}
	return -1;
}

static void
test_two_contexts(void **state)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, NULL };
	int a, b1, b2;

	(void)state;
	snprintf(lib, sizeof(lib), "LD_LIBRARY_PATH=%s", our_thunk);
	snprintf(path, sizeof(path), "%s", tmp("ctxq.kft"));
	if (run_env((const char *const[]){ kfdtrace, "record", "-o", path, "--sim",
					   "--submissions", "--", ctxq, NULL }, env)) {
		fputs(out, stderr);
		fail_msg("rp_ctxq failed under record --submissions");
	}
	expect_out("ctxq: done");

	/* A: #0..#2; B: #0..#4, then #5..#6; B's on another file than A's. */
	expect_ok(RUN(kfdtrace, "dump", "--filter", "submit", path));
	a = submit_fd(out, "aql, #0..#2)");
	b1 = submit_fd(out, "aql, #0..#4)");
	b2 = submit_fd(out, "aql, #5..#6)");
	assert_true(a >= 0 && b1 >= 0);
	assert_int_not_equal(a, b1);
	assert_int_equal(b1, b2);

	expect_ok(RUN(kfdtrace, "replay", "--sim", path));
	expect_out("3 doorbells of captured packets published again, 0 not run");
	expect_out("result:      match (strict)");
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--threads", path));
	expect_out("3 doorbells of captured packets published again, 0 not run");
	expect_out("result:      match (strict)");
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	ctxq = getenv("RP_CTXQ");
	our_thunk = getenv("RP_OUR_THUNK_DIR");
	if (!kfdtrace || !ctxq || !our_thunk) {
		fprintf(stderr, "KFDTRACE, RP_CTXQ and RP_OUR_THUNK_DIR must be set\n");
		return -1;
	}
	return rp_make_dir("submit-ctx");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_contexts),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
