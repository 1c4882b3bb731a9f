/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace reduce on captures of rp_oom (AMD's libhsakmt on kfdsim):
 *  - noise interleaved with 4 GiB VRAM allocations until one fails: the
 *    reduced trace keeps at most a quarter of the ioctls, ends in the
 *    failing ALLOC with its errno, and replays to the same failure;
 *  - the 10th MAP failed by KFDSIM_FAULTS: the replay alone does not show
 *    it (exit 3, nothing written), a predicate that replays under the
 *    same fault finds it, with the 10 MAPs it needs;
 *  - five threads (rp_mt), the 20th MAP failed: the same, with calls of
 *    several threads kept;
 *  - a forked process tree (rp_tree), reduced as one run into a file per
 *    process, which replay as the tree to the failure;
 *  - bad input: no such failure, a bad errno, a predicate that cannot
 *    run or never sees the bug, a corrupt trace.
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

static const char *kfdtrace, *oom, *our_thunk;
/*
 * RP_TEST_SCALE=small (meson option test_scale, the sanitizer stage's):
 * the same searches on smaller inputs. The out-of-memory reduction runs
 * on a profile with less VRAM, which runs out after 4 allocations instead
 * of 16 (a seventh of the candidates), and the multi-threaded one on 2
 * threads up to the 8th map instead of 4 threads and the 20th.
 */
static int small;
static char oom_sim[64] = "--sim";

/* Capture "rp_oom ARGS" on AMD's thunk into @file, with @fault set. */
static void
capture_on(const char *sim, const char *file, const char *arg,
	   const char *fault)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, fault, NULL };

	rp_lib_path(lib, sizeof(lib), NULL, our_thunk);
	snprintf(path, sizeof(path), "%s", tmp(file));
	assert_int_equal(run_env((const char *const[]){ kfdtrace, "record", "-o",
				 path, sim, "--", oom, arg, NULL }, env), 0);
	assert_null(strstr(out, "rp_kmt:"));
}

/* capture_on() the default machine. */
static void
capture(const char *file, const char *arg, const char *fault)
{
	capture_on("--sim", file, arg, fault);
}

/* The number after @key in the last output ("before:  N records, M"). */
static unsigned long
field(const char *key, int second)
{
	const char *p = strstr(out, key);
	char *end;
	unsigned long v;

	assert_non_null(p);
	v = strtoul(p + strlen(key), &end, 10);
	if (second)
		v = strtoul(strstr(end, ", ") + 2, NULL, 10);
	return v;
}

/* How many records named @name the last dump printed, and the last one. */
static int
count(const char *name, const char **last)
{
	char want[96];
	const char *p = out;
	int n = 0;

	snprintf(want, sizeof(want), "\"name\":\"%s\"", name);
	*last = NULL;
	while ((p = strstr(p, want))) {
		*last = p;
		n++;
		p++;
	}
	return n;
}

static void
test_oom(void **state)
{
	char in[4200], red[4200], *first;
	const char *last;
	unsigned long before, after;

	(void)state;
	capture_on(oom_sim, "oom.kft", "", NULL);
	expect_out("oom: allocation");
	snprintf(in, sizeof(in), "%s", tmp("oom.kft"));
	snprintf(red, sizeof(red), "%s", tmp("oom-red.kft"));
	/* Three candidates at once, whatever the host has. */
	if (RUN(kfdtrace, "reduce", in, "-o", red, oom_sim, "--jobs", "3")) {
		fputs(out, stderr);
		fail_msg("reduce failed");
	}
	before = field("before:  ", 1);
	after = field("after:   ", 1);
	print_message("reduce: %lu -> %lu ioctls, %lu tests\n", before, after,
		      field("tests:   ", 0));
	assert_true(after * 4 <= before);
	expect_out("no single record more can go");
	/* It ends in the failing ALLOC, with the capture's errno. */
	assert_int_equal(RUN(kfdtrace, "dump", "--json", red), 0);
	assert_true(count("ALLOC_MEMORY_OF_GPU", &last) >= 2);
	assert_non_null(strstr(last, "ENOMEM"));
	assert_null(strstr(last, "\"type\":\"ioctl\"")); /* the last ioctl */
	/* The reduced trace replays to the same failure. */
	assert_int_equal(RUN(kfdtrace, "replay", oom_sim, "--verify=results", red),
			 0);
	expect_out("result:      match (results)");
	/* Deterministic: the same input, the same result, tested one
	 * candidate at a time as three at once. */
	/* (The END records differ: each says when it was written.) */
	assert_int_equal(RUN(kfdtrace, "dump", "--filter", "!end", red), 0);
	first = strdup(out);
	assert_non_null(first);
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", tmp("oom-red2.kft"),
			     oom_sim, "--jobs", "1"), 0);
	assert_int_equal(field("after:   ", 1), after);
	assert_int_equal(RUN(kfdtrace, "dump", "--filter", "!end",
			     tmp("oom-red2.kft")), 0);
	assert_string_equal(out, first);
	free(first);
}

static void
test_predicate(void **state)
{
	static const char fault[] = "KFDSIM_FAULTS=MAP_MEMORY_TO_GPU:10:EIO";
	char in[4200], red[4200], pred[4400];
	const char *last;
	unsigned long before, after;

	(void)state;
	capture("maps.kft", "15", fault);
	expect_out("maps: 15 done");
	snprintf(in, sizeof(in), "%s", tmp("maps.kft"));
	snprintf(red, sizeof(red), "%s", tmp("maps-red.kft"));
	/* Without the fault the MAP succeeds: nothing to reduce. */
	unlink(red);
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", red), 3);
	expect_out("does not show");
	assert_int_not_equal(access(red, F_OK), 0);
	/* The predicate replays under the fault: the 10th MAP fails. */
	snprintf(pred, sizeof(pred), "%s %s replay --sim --verify=results",
		 fault, kfdtrace);
	if (RUN(kfdtrace, "reduce", in, "-o", red, "--predicate", pred)) {
		fputs(out, stderr);
		fail_msg("reduce --predicate failed");
	}
	before = field("before:  ", 1);
	after = field("after:   ", 1);
	print_message("reduce --predicate: %lu -> %lu ioctls, %lu tests\n",
		      before, after, field("tests:   ", 0));
	assert_true(after * 4 <= before);
	assert_int_equal(RUN(kfdtrace, "dump", "--json", red), 0);
	assert_int_equal(count("MAP_MEMORY_TO_GPU", &last), 10);
	assert_non_null(strstr(last, "EIO"));
}

/* Capture "@prog ARGS..." on AMD's thunk into @file under @fault. */
static void
capture_prog(const char *file, const char *prog, const char *arg1,
	     const char *arg2, const char *fault)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, fault, NULL };

	rp_lib_path(lib, sizeof(lib), NULL, our_thunk);
	snprintf(path, sizeof(path), "%s", tmp(file));
	/* The program reports the injected failure: its status is not 0. */
	run_env((const char *const[]){ kfdtrace, "record", "-o", path, "--sim",
				       "--", prog, arg1, arg2, NULL }, env);
	assert_int_equal(access(path, F_OK), 0);
}

/* The threads the last dump (text) showed calls of. */
static int
threads_in_dump(void)
{
	unsigned long tids[64];
	int n = 0, i;
	const char *p;

	for (p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long t;

		if (*p != '[' || !strstr(p, "(") || strncmp(strchr(p, ' ') + 1, "+", 1))
			continue;
		t = strtoul(p + 1, NULL, 10);
		for (i = 0; i < n && tids[i] != t; i++)
			;
		if (i == n && n < 64)
			tids[n++] = t;
	}
	return n;
}

/*
 * Five threads handing buffers and events to one another, the 20th MAP
 * failed: the predicate finds it, the result keeps calls of several
 * threads and replays to the failure under the same fault.
 */
static void
test_threads(void **state)
{
	const int nmap = small ? 8 : 20;
	char in[4200], red[4200], pred[4400], fault[64];
	const char *mt = getenv("RP_MT"), *last;
	unsigned long before, after;

	(void)state;
	assert_non_null(mt);
	snprintf(fault, sizeof(fault), "KFDSIM_FAULTS=MAP_MEMORY_TO_GPU:%d:EIO",
		 nmap);
	capture_prog("mt.kft", mt, small ? "2" : "4", NULL, fault);
	snprintf(in, sizeof(in), "%s", tmp("mt.kft"));
	snprintf(red, sizeof(red), "%s", tmp("mt-red.kft"));
	snprintf(pred, sizeof(pred), "%s %s replay --sim --verify=results",
		 fault, kfdtrace);
	if (RUN(kfdtrace, "reduce", in, "-o", red, "--predicate", pred)) {
		fputs(out, stderr);
		fail_msg("reduce --predicate of a multi-threaded capture failed");
	}
	before = field("before:  ", 1);
	after = field("after:   ", 1);
	print_message("reduce --predicate, %s threads: %lu -> %lu ioctls, %lu "
		      "tests\n", small ? "3" : "5", before, after,
		      field("tests:   ", 0));
	assert_true(after * 4 <= before);
	assert_int_equal(RUN(kfdtrace, "dump", "--json", red), 0);
	assert_int_equal(count("MAP_MEMORY_TO_GPU", &last), nmap);
	assert_non_null(strstr(last, "EIO"));
	assert_int_equal(RUN(kfdtrace, "dump", red), 0);
	assert_true(threads_in_dump() >= 2);
	assert_int_equal(run_env((const char *const[]){ kfdtrace, "replay", "--sim",
							"--verify=results", red, NULL },
				 (const char *const[]){ fault, NULL }), 0);
}

/*
 * A parent and its forked child, the parent's 4th MAP failed (and the
 * child's first: it inherits the count): the files of the run reduce
 * together into OUT and OUT.<child pid>, which replay as a tree to the
 * failure under the same fault.
 */
static void
test_tree(void **state)
{
	static const char fault[] = "KFDSIM_FAULTS=MAP_MEMORY_TO_GPU:4:EIO";
	const char *tree = getenv("RP_TREE");
	char in[4200], child[4300], red[4200], redc[4300], pred[4400];
	unsigned long before, after;
	FILE *ls;
	int pid = 0;

	(void)state;
	assert_non_null(tree);
	capture_prog("tree.kft", tree, "fork", NULL, fault);
	snprintf(in, sizeof(in), "%s", tmp("tree.kft"));
	/* The child's file: tree.kft.<pid>.kfdtrace. */
	snprintf(pred, sizeof(pred), "ls %s | sed -n 's/^tree\\.kft\\.\\([0-9]*\\)\\.kfdtrace$/\\1/p'",
		 dir);
	ls = popen(pred, "r");
	assert_non_null(ls);
	assert_int_equal(fscanf(ls, "%d", &pid), 1);
	pclose(ls);
	snprintf(child, sizeof(child), "%s.%d.kfdtrace", in, pid);
	snprintf(red, sizeof(red), "%s", tmp("tree-red.kft"));
	snprintf(redc, sizeof(redc), "%s.%d.kfdtrace", red, pid);
	snprintf(pred, sizeof(pred), "%s %s replay --sim --verify=results",
		 fault, kfdtrace);
	if (RUN(kfdtrace, "reduce", in, child, "-o", red, "--predicate", pred)) {
		fputs(out, stderr);
		fail_msg("reduce --predicate of a process tree failed");
	}
	expect_out("and 1 more");
	before = field("before:  ", 1);
	after = field("after:   ", 1);
	print_message("reduce --predicate, 2 processes: %lu -> %lu ioctls, %lu "
		      "tests\n", before, after, field("tests:   ", 0));
	assert_true(after * 4 <= before);
	assert_int_equal(access(redc, F_OK), 0);
	assert_int_equal(RUN(kfdtrace, "dump", red), 0);
	expect_out("EIO");
	expect_out("fork() = ");
	assert_int_equal(run_env((const char *const[]){ kfdtrace, "replay", "--sim",
							"--verify=results", red, redc,
							NULL },
				 (const char *const[]){ fault, NULL }), 0);
	expect_out("process tree");
}

static void
test_bad_input(void **state)
{
	char in[4200], bad[4200];
	FILE *f;

	(void)state;
	snprintf(in, sizeof(in), "%s", tmp("maps.kft"));
	if (access(in, F_OK))
		capture("maps.kft", "15", "KFDSIM_FAULTS=MAP_MEMORY_TO_GPU:10:EIO");
	/* No such failure: a clear message, exit 2. */
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", tmp("x.kft"),
			     "--ioctl", "CREATE_QUEUE"), 2);
	expect_out("no failed ioctl");
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", tmp("x.kft"),
			     "--errno", "EBOGUS"), 2);
	expect_out("unknown errno");
	assert_int_equal(RUN(kfdtrace, "reduce", in), 2);
	/* A predicate that cannot run: said before any search, exit 2. */
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", tmp("x.kft"),
			     "--predicate", "/nonexistent/predicate"), 2);
	expect_out("the predicate cannot run");
	/* One that runs and never sees the bug: nothing to reduce. */
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", tmp("x.kft"),
			     "--predicate", "false"), 3);
	expect_out("does not show");
	/* A corrupt trace: the reader's error. */
	snprintf(bad, sizeof(bad), "%s", tmp("bad.kft"));
	f = fopen(bad, "w");
	assert_non_null(f);
	fputs("not a trace at all, just some text\n", f);
	fclose(f);
	assert_int_equal(RUN(kfdtrace, "reduce", bad, "-o", tmp("x.kft")), 1);
	expect_out("kfdtrace reduce:");
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	oom = getenv("RP_OOM");
	our_thunk = getenv("RP_OUR_THUNK");
	small = getenv("RP_TEST_SCALE") && !strcmp(getenv("RP_TEST_SCALE"),
						   "small");
	if (small)
		snprintf(oom_sim, sizeof(oom_sim), "--sim=rx6900xt");
	if (!kfdtrace || !oom || !our_thunk) {
		fprintf(stderr, "KFDTRACE, RP_OOM and RP_OUR_THUNK must be set\n");
		return -1;
	}
	return rp_make_dir("reduce");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oom),
		cmocka_unit_test(test_predicate),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
