/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace reduce's test processes, on a small rp_gen capture (its one
 * failed FREE is the target) with predicates that misbehave:
 *  - one that never ends: --budget ends it, the first test as a later one;
 *  - one that leaves work in the background: it is killed when the
 *    predicate exits;
 *  - SIGTERM, SIGINT and SIGHUP to reduce mid-search: reduce dies of the
 *    signal, its predicate's process group and its scratch directory
 *    (under $TMPDIR) are gone, nothing is written;
 *  - a predicate of 10,000 characters and more runs whole: its last part
 *    decides; one that fails on the whole trace is exit 3 after one test.
 * Every reduce runs with TMPDIR at a directory of the test, which must be
 * empty afterwards, and is waited for at most a minute.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rp_test.h"

extern char **environ;

/* Longer than any run here takes: a hang is a failure, not a stuck suite. */
#define BOUND_S 60

static const char *kfdtrace;
static char trace[600], scratch[600];

/* The text of file @name in the test's directory ("" when missing). */
static const char *
slurp(const char *name)
{
	static char buf[4096];
	FILE *f = fopen(tmp(name), "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/*
 * Start `kfdtrace reduce TRACE -o OUT ARGS...` (NULL-terminated), its
 * output to the file "reduce.out", the signals it is sent at their
 * default action whatever this test's are. Return: its pid.
 */
static pid_t
start_reduce(const char *first, ...)
{
	const char *argv[16] = { kfdtrace, "reduce", trace, "-o", tmp("out.kft") };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t sigs;
	unsigned int n = 5;
	va_list ap;
	pid_t pid;

	unlink(tmp("out.kft"));
	va_start(ap, first);
	for (const char *a = first; a && n < 15; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, tmp("reduce.out"),
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawnattr_init(&at);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	posix_spawnattr_setsigdefault(&at, &sigs);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	assert_int_equal(posix_spawn(&pid, kfdtrace, &fa, &at, (char **)argv,
				     environ), 0);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

/*
 * Wait for reduce, at most BOUND_S seconds (then it is killed). Its
 * output goes to out. Return: its wait status, or -1 when it had to be
 * killed.
 */
static int
wait_reduce(pid_t pid)
{
	double end = tc_now() + BOUND_S;
	int st;

	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (tc_now() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			st = -1;
			break;
		}
		usleep(20000);
	}
	free(out);
	out = strdup(slurp("reduce.out"));
	assert_non_null(out);
	return st;
}

/* Has process @pid ended (gone, or a zombie its reaper has yet to see)? */
static int
ended(pid_t pid)
{
	char path[64], st[512], *p;
	FILE *f;
	size_t n;

	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	n = fread(st, 1, sizeof(st) - 1, f);
	fclose(f);
	st[n] = '\0';
	p = strrchr(st, ')');
	return p && (p[2] == 'Z' || p[2] == 'X');
}

/*
 * The pid the predicate wrote to the file @name has ended (within a few
 * seconds: its reaper may be slow). Return: 0, or -1 when it still runs
 * (it is killed then, so that a failure leaves nothing behind).
 */
static int
check_ended(const char *name)
{
	pid_t pid = (pid_t)atoi(slurp(name));

	if (pid <= 0) {
		print_message("%s: no pid written\n", name);
		return -1;
	}
	for (int i = 0; i < 500 && !ended(pid); i++)
		usleep(10000);
	if (ended(pid))
		return 0;
	print_message("process %d (%s) outlived reduce\n", (int)pid, name);
	kill(pid, SIGKILL);
	return -1;
}

/* The entries of the TMPDIR reduce ran with (its scratch directories). */
static int
scratch_entries(void)
{
	DIR *d = opendir(scratch);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Nothing of reduce's is left in its TMPDIR; a failure clears it. */
static void
expect_no_scratch(void)
{
	if (scratch_entries()) {
		tc_scratch_remove(scratch, NULL);
		mkdir(scratch, 0700);
		fail_msg("reduce left files in its TMPDIR");
	}
}

/* The marker files a predicate writes, gone before each run. */
static void
clear_marks(void)
{
	static const char *const names[] = { "pid", "bg", "seen", "dir", "ran",
					     "calls" };

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		unlink(tmp(names[i]));
}

/*
 * A predicate that never ends, on the whole trace: the budget is its
 * deadline. Exit 3 (the whole trace did not show the target within
 * it), its shell and the sleep it waits for are killed.
 */
static void
test_budget_first(void **state)
{
	char pred[1024];
	int st, gone;

	(void)state;
	clear_marks();
	snprintf(pred, sizeof(pred), "echo $$ > %s; sleep 1000 & echo $! > %s; "
		 "wait; false", tmp("pid"), tmp("bg"));
	st = wait_reduce(start_reduce("--predicate", pred, "--budget", "2",
				      NULL));
	/* Both: each kills what outlived reduce. */
	gone = !check_ended("pid");
	gone = !check_ended("bg") && gone;
	if (st == -1)
		fail_msg("reduce --budget 2 ran for %d s", BOUND_S);
	assert_true(gone);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	expect_out("the budget ran out");
	assert_int_not_equal(access(tmp("out.kft"), F_OK), 0);
	expect_no_scratch();
}

/*
 * The whole trace shows the target; every later candidate hangs: the
 * budget stops the search with the whole trace as the best so far.
 */
static void
test_budget_search(void **state)
{
	char pred[1024];
	int st, gone;

	(void)state;
	clear_marks();
	snprintf(pred, sizeof(pred), "if [ -e %s ]; then sleep 1000 & "
		 "echo $! > %s; wait; fi; touch %s; :", tmp("seen"), tmp("bg"),
		 tmp("seen"));
	st = wait_reduce(start_reduce("--predicate", pred, "--budget", "2",
				      NULL));
	gone = !check_ended("bg");
	if (st == -1)
		fail_msg("reduce --budget 2 ran for %d s", BOUND_S);
	assert_true(gone);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fputs(out, stderr);
		fail_msg("reduce: status 0x%x", st);
	}
	expect_out("the budget ran out: not minimal");
	/* The best so far: it still has the target. */
	expect_ok(RUN(kfdtrace, "dump", tmp("out.kft")));
	expect_out("= -1 EINVAL");
	expect_no_scratch();
}

/* What a predicate leaves in the background ends when it exits. */
static void
test_background(void **state)
{
	char pred[1024];
	int st, gone;

	(void)state;
	clear_marks();
	snprintf(pred, sizeof(pred), "sleep 1000 & echo $! > %s; :", tmp("bg"));
	st = wait_reduce(start_reduce("--predicate", pred, NULL));
	gone = !check_ended("bg");
	assert_int_equal(st, 0);
	assert_true(gone);
	expect_out("no single record more can go");
	expect_no_scratch();
}

/*
 * @sig to reduce while its predicate waits on a sleep: reduce dies of
 * it, the predicate's group and the scratch directory (which was under
 * TMPDIR) are gone, no output.
 */
static void
stop_with(int sig)
{
	char pred[1024], dirname[600];
	double end = tc_now() + BOUND_S;
	pid_t pid;
	int st, gone;

	clear_marks();
	/* The first test (the whole trace) shows the target; the second
	 * one waits. */
	snprintf(pred, sizeof(pred), "if [ -e %s ]; then echo \"$1\" > %s; "
		 "sleep 1000 & echo $! > %s; wait; fi; touch %s; :",
		 tmp("seen"), tmp("dir"), tmp("bg"), tmp("seen"));
	pid = start_reduce("--predicate", pred, NULL);
	while (atoi(slurp("bg")) <= 0 && tc_now() < end)
		usleep(20000);
	/* The candidate's directory: where reduce made it. */
	snprintf(dirname, sizeof(dirname), "%s", slurp("dir"));
	if (strrchr(dirname, '/'))
		*strrchr(dirname, '/') = '\0';
	kill(pid, sig);
	st = wait_reduce(pid);
	gone = !check_ended("bg");
	if (!dirname[0])
		fail_msg("the predicate never got to its second test");
	if (strncmp(dirname, scratch, strlen(scratch))) {
		tc_scratch_remove(dirname, NULL);
		fail_msg("the scratch directory '%s' is not under TMPDIR (%s)",
			 dirname, scratch);
	}
	if (st == -1)
		fail_msg("reduce did not end after signal %d", sig);
	assert_true(gone);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != sig) {
		fputs(out, stderr);
		fail_msg("reduce: status 0x%x, not killed by signal %d", st, sig);
	}
	expect_out("nothing written");
	assert_int_not_equal(access(dirname, F_OK), 0);
	assert_int_not_equal(access(tmp("out.kft"), F_OK), 0);
	expect_no_scratch();
}

static void
test_signals(void **state)
{
	(void)state;
	stop_with(SIGTERM);
	stop_with(SIGINT);
	stop_with(SIGHUP);
}

/*
 * reduce with the predicate ": xxx...x; " (@n x's) then @tail: n + 4
 * characters and more, whose end decides. Return: its wait status.
 */
static int
reduce_long(size_t n, const char *tail)
{
	size_t len = n + strlen(tail) + 5;
	char *pred = malloc(len);
	int st;

	assert_non_null(pred);
	memcpy(pred, ": ", 2);
	memset(pred + 2, 'x', n);
	snprintf(pred + 2 + n, len - 2 - n, "; %s", tail);
	st = wait_reduce(start_reduce("--predicate", pred, NULL));
	free(pred);
	return st;
}

/* 12,000 characters: the command's last part runs. */
static void
test_long_predicate(void **state)
{
	char tail[700];
	int st;

	(void)state;
	clear_marks();
	snprintf(tail, sizeof(tail), "touch %s; :", tmp("ran"));
	st = reduce_long(12000, tail);
	if (st != 0) {
		fputs(out, stderr);
		fail_msg("reduce: status 0x%x", st);
	}
	assert_int_equal(access(tmp("ran"), F_OK), 0);
	expect_out("no single record more can go");
	expect_no_scratch();
}

/*
 * A predicate (long, its failure at the end) that does not show the
 * target on the whole trace: exit 3 after that one test, nothing written.
 */
static void
test_fails_whole(void **state)
{
	char tail[700];
	int st;

	(void)state;
	clear_marks();
	snprintf(tail, sizeof(tail), "echo x >> %s; false", tmp("calls"));
	st = reduce_long(10000, tail);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	expect_out("does not show");
	assert_string_equal(slurp("calls"), "x\n");
	assert_int_not_equal(access(tmp("out.kft"), F_OK), 0);
	expect_no_scratch();
}

static int
setup(void **state)
{
	const char *gen = getenv("RP_GEN");
	struct tc_run res;

	(void)state;
	kfdtrace = getenv("KFDTRACE");
	if (!kfdtrace || !gen || rp_make_dir("reduce-proc")) {
		fprintf(stderr, "KFDTRACE and RP_GEN must be set\n");
		return -1;
	}
	snprintf(trace, sizeof(trace), "%s", tmp("gen.kft"));
	snprintf(scratch, sizeof(scratch), "%s", tmp("tmp"));
	/* Every reduce of this test makes its scratch directory there. */
	if (mkdir(scratch, 0700) || setenv("TMPDIR", scratch, 1))
		return -1;
	/* About 30 calls, one of which (an unknown handle's FREE) fails. */
	if (tc_run((char *const[]){ (char *)kfdtrace, "sim", "--",
				    (char *)gen, trace, "30", NULL }, &res) ||
	    res.status) {
		fprintf(stderr, "rp_gen: %s%s\n", res.out ? res.out : "",
			res.err ? res.err : "");
		tc_run_free(&res);
		return -1;
	}
	tc_run_free(&res);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_first),
		cmocka_unit_test(test_budget_search),
		cmocka_unit_test(test_background),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_long_predicate),
		cmocka_unit_test(test_fails_whole),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
