/* SPDX-License-Identifier: MIT */
/*
 * What the replay tests (test_replay.c, test_replay_mt.c) share: running
 * kfdtrace with its output kept for checks, and the scratch directory.
 * Each test program includes this once; the state is its own.
 */
#ifndef RP_TEST_H
#define RP_TEST_H

#include <stdlib.h>
#include <string.h>

#include "tc_run.h"
#include "tc_scratch.h"

/* The test's scratch directory (the test makes it with mkdtemp()). */
static char dir[64];
/* The last command's stdout and stderr, interleaved. */
static char *out;

/*
 * run_env() - run @argv with the extra environment @env (NULL: none),
 * keeping its output in out. Return: its exit status.
 */
static int
run_env(const char *const *argv, const char *const *env)
{
	struct tc_run res;

	assert_int_equal(tc_run_env((char *const *)argv, (char *const *)env,
				    TC_RUN_MERGE, &res), 0);
	free(out);
	out = res.out;
	free(res.err);
	return res.status;
}

/* run() - run_env() without extra environment. */
static int
run(const char *const *argv)
{
	return run_env(argv, NULL);
}

#define RUN(...) run((const char *const[]){ __VA_ARGS__, NULL })

/* expect_out() - fail unless the last command printed @needle. */
static void
expect_out(const char *needle)
{
	if (!strstr(out, needle))
		fail_msg("expected \"%s\" in:\n%s", needle, out);
}

/* tmp() - @name in the scratch directory (tc_scratch_path()'s buffer). */
static char *
tmp(const char *name)
{
	return tc_scratch_path(dir, name);
}

#endif
