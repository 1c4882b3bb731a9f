/* SPDX-License-Identifier: MIT */
/*
 * Running a program from a test: its output captured into memory, or its
 * run timed for a benchmark. Shared by the end-to-end tests (tests/cli,
 * tests/bt2, tests/analysis, tests/replay, tests/kfdsim).
 */
#ifndef KFDTRACE_TC_RUN_H
#define KFDTRACE_TC_RUN_H

/* What a captured run left behind. */
struct tc_run {
	char *out;		/* stdout, NUL-terminated */
	char *err;		/* stderr; "" with TC_RUN_MERGE */
	int status;		/* exit status, or 128 + the signal that killed it */
	int signal;		/* that signal, or 0 */
};

enum tc_run_flags {
	/* stderr goes to out, interleaved with stdout as it was written. */
	TC_RUN_MERGE = 1 << 0,
};

/*
 * tc_run_env() - run a program and wait for it, its output captured.
 * @argv:	NULL-terminated; argv[0] is a path, or a name looked up in PATH
 * @env:	NULL, or NULL-terminated "NAME=VALUE" entries added to (or
 *		replacing those in) this process's environment for the child
 * @flags:	enum tc_run_flags
 * @res:	filled in; free it with tc_run_free(), whatever the result
 *
 * Return: 0, or -1 when the program could not be started or its output
 * not read back.
 */
int tc_run_env(char *const argv[], char *const env[], unsigned int flags,
	       struct tc_run *res);

/*
 * tc_run_bounded() - tc_run_env() (separate stderr) of @argv under
 * timeout(1): still running after @seconds, it gets SIGTERM (SIGKILL 5 s
 * later) and status 124, so a program that hangs fails the test instead of
 * stalling the suite. At most 30 arguments.
 */
int tc_run_bounded(char *const argv[], char *const env[], unsigned int seconds,
		   struct tc_run *res);

/* tc_run() - tc_run_env() with this environment and separate stderr. */
int tc_run(char *const argv[], struct tc_run *res);

/* tc_run_free() - free the captured output. */
void tc_run_free(struct tc_run *res);

/* How long a timed run took. */
struct tc_timing {
	double wall;		/* seconds, from start to reaping */
	double cpu;		/* the child's user + system seconds */
	/*
	 * Its peak resident set in KiB (ru_maxrss): the largest of the
	 * child's and of every descendant it waited for, not their sum.
	 */
	long max_rss_kib;
};

/*
 * tc_run_timed() - run a program for a benchmark and wait for it.
 * @argv:	as for tc_run_env()
 * @out_path:	stdout goes to this file (created or truncated, e.g.
 *		"/dev/null"); NULL: the caller's stdout. stderr is inherited.
 * @t:		the times, set when the program ran
 *
 * Return: its exit status (128 + signal when killed), or -1 when it could
 * not be started.
 */
int tc_run_timed(char *const argv[], const char *out_path,
		 struct tc_timing *t);

/* tc_now() - CLOCK_MONOTONIC in seconds. */
double tc_now(void);

#endif /* KFDTRACE_TC_RUN_H */
