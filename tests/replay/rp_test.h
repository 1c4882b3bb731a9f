/* SPDX-License-Identifier: MIT */
/*
 * What the replay tests (test_replay.c, test_replay_mt.c) share: running
 * kfdtrace with its output kept for checks, and the scratch directory.
 * Each test program includes this once; the state is its own.
 */
#ifndef RP_TEST_H
#define RP_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (!strstr(out, needle)) {
		/* All of it: cmocka cuts a long failure message short. */
		fputs(out, stderr);
		fail_msg("expected \"%s\" in the output above", needle);
	}
}

/*
 * expect_ok() - fail unless @status, the last command's exit status, is 0;
 * its output goes to stderr first, so a failure in CI shows why.
 */
static inline void
expect_ok(int status)
{
	if (status != 0) {
		fputs(out, stderr);
		fail_msg("exit status %d, expected 0; output above", status);
	}
}

/* rp_make_dir() - make the scratch directory /tmp/kfdtrace-@name-XXXXXX. */
static inline int
rp_make_dir(const char *name)
{
	snprintf(dir, sizeof(dir), "/tmp/kfdtrace-%s-XXXXXX", name);
	return mkdtemp(dir) ? 0 : -1;
}

/*
 * rp_teardown() - a group teardown: the last output goes, and the scratch
 * directory unless RP_KEEP is set.
 */
static inline int
rp_teardown(void **state)
{
	(void)state;
	free(out);
	out = NULL;
	tc_scratch_remove(dir, "RP_KEEP");
	return 0;
}

/* tmp() - @name in the scratch directory (tc_scratch_path()'s buffer). */
static char *
tmp(const char *name)
{
	return tc_scratch_path(dir, name);
}

/*
 * rp_lib_path() - "LD_LIBRARY_PATH=..." for a capture on a chosen thunk:
 * @ours (our thunk's directory) first, or, with @ours NULL, this test's
 * path without @our_dir (meson puts it there, as the test depends on our
 * thunk), so that AMD's libhsakmt is found.
 */
static inline void
rp_lib_path(char *buf, size_t len, const char *ours, const char *our_dir)
{
	const char *cur = getenv("LD_LIBRARY_PATH");
	char copy[4096], *tok, *save;
	size_t n;

	n = (size_t)snprintf(buf, len, "LD_LIBRARY_PATH=%s", ours ? ours : "");
	snprintf(copy, sizeof(copy), "%s", cur ? cur : "");
	for (tok = strtok_r(copy, ":", &save); tok && n < len;
	     tok = strtok_r(NULL, ":", &save))
		if (strcmp(tok, our_dir))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n > strlen("LD_LIBRARY_PATH=") ?
					      ":" : "", tok);
}

#endif
