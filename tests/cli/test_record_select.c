/* SPDX-License-Identifier: MIT */
/*
 * record --only and --except (strace -e): the ioctls a trace records.
 *
 *   - what they name is recorded and nothing else; what they leave out is
 *     counted in the END record, and dump, info and stats show the count;
 *   - info shows the command record ran (text and JSON);
 *   - the names are the schema's, as dump prints them and --filter takes
 *     them; an unknown one is refused with "did you mean" before the
 *     program runs (--filter's too);
 *   - replay and emit-c refuse a trace that left calls out, and take one
 *     whose END says nothing was; reduce takes it with --predicate only.
 *
 *   test-record-select KFDTRACE CLI-FORK-APP
 *
 * cli-fork-app calls: GET_VERSION, GET_CLOCK_COUNTERS 5 times and one
 * request no schema row describes, on kfdsim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static const char *kfdtrace_bin;
static const char *fork_app_bin;
static char tmpdir[] = "/tmp/kfdtrace-select-XXXXXX";

#define RUN(res, ...)							\
	do {								\
		char *argv_[] = { (char *)kfdtrace_bin, __VA_ARGS__, NULL }; \
		assert_int_equal(tc_run(argv_, (res)), 0);		\
	} while (0)

/* Fail, showing @what, unless @s holds @want. */
static void
expect_in(const char *s, const char *want, const char *what)
{
	if (!strstr(s, want)) {
		fputs(s, stderr);
		fail_msg("no \"%s\" in the %s above", want, what);
	}
}

/* Record `cli-fork-app @mode` into @name with @opt and @list (or none). */
static const char *
record(const char *name, const char *mode, const char *opt, const char *list)
{
	static char path[400];
	struct tc_run res;

	snprintf(path, sizeof(path), "%s", tc_scratch_path(tmpdir, name));
	if (opt)
		RUN(&res, "record", "-o", path, (char *)opt, (char *)list,
		    "--", (char *)fork_app_bin, (char *)mode);
	else
		RUN(&res, "record", "-o", path, "--", (char *)fork_app_bin,
		    (char *)mode);
	if (res.status != 0)
		fputs(res.err, stderr);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	return path;
}

/* dump's lines of the trace at @path. */
static char *
dump(const char *path)
{
	struct tc_run res;
	char *out;

	RUN(&res, "dump", (char *)path);
	assert_int_equal(res.status, 0);
	out = strdup(res.out);
	tc_run_free(&res);
	return out;
}

/* The whole trace: every call, no count of calls left out anywhere. */
static void
test_whole(void **state)
{
	const char *path = record("whole.kfdtrace", "calls", NULL, NULL);
	struct tc_run res;
	char *d = dump(path);

	(void)state;
	assert_int_equal(tc_count_str(d, "GET_CLOCK_COUNTERS("), 5);
	assert_int_equal(tc_count_str(d, "GET_VERSION("), 1);
	assert_int_equal(tc_count_str(d, "ioctl(fd="), 1);
	assert_null(strstr(d, "left_out"));
	free(d);
	RUN(&res, "info", (char *)path);
	assert_null(strstr(res.out, "left out"));
	assert_null(strstr(res.out, "selected"));
	/* The run's command as record ran it, beside the process's own. */
	expect_in(res.out, "\nrun:        ", "info");
	expect_in(strstr(res.out, "\nrun:        "), " calls\n", "info");
	tc_run_free(&res);
	RUN(&res, "info", "--json", (char *)path);
	expect_in(res.out, "\"run_cmdline\":[", "info --json");
	expect_in(res.out, "\"calls\"],", "info --json");
	tc_run_free(&res);
}

/* --only: those calls alone; the rest counted in END, info and stats. */
static void
test_only(void **state)
{
	const char *path = tc_scratch_path(tmpdir, "only.kfdtrace");
	struct tc_run res;
	char *d;

	(void)state;
	/* record's own summary says it first. */
	RUN(&res, "record", "-o", (char *)path, "--only", "get_clock_counters",
	    "--", (char *)fork_app_bin, "calls");
	assert_int_equal(res.status, 0);
	expect_in(res.err, ": 10 records, 5 ioctls (0 failed), 2 left out, ",
		  "stderr");
	tc_run_free(&res);
	d = dump(path);
	assert_int_equal(tc_count_str(d, "GET_CLOCK_COUNTERS("), 5);
	assert_null(strstr(d, "GET_VERSION("));
	assert_null(strstr(d, "ioctl(fd="));
	/* The device still answered them: the open and close are there. */
	assert_non_null(strstr(d, "open(\"/dev/kfd\""));
	expect_in(d, "end(clean, records=", "dump");
	expect_in(d, ", left_out=2)", "dump");
	free(d);

	RUN(&res, "info", (char *)path);
	assert_int_equal(res.status, 0);
	expect_in(res.out, "flags:      simulated selected\n", "info");
	expect_in(res.out, "left out:   2 ioctls (recorded with "
		  "--only/--except: a partial trace)", "info");
	tc_run_free(&res);
	RUN(&res, "info", "--json", (char *)path);
	expect_in(res.out, "\"left_out_ioctls\":2,", "info --json");
	tc_run_free(&res);
	RUN(&res, "stats", (char *)path);
	expect_in(res.out, "records: 10, ioctls: 5, failed: 0, left out: 2 "
		  "(record --only/--except)\n", "stats");
	tc_run_free(&res);
	RUN(&res, "stats", "--json", (char *)path);
	expect_in(res.out, "\"left_out\":2,", "stats --json");
	tc_run_free(&res);
	RUN(&res, "dump", "--json", (char *)path);
	expect_in(res.out, "\"left_out\":2}", "dump --json");
	tc_run_free(&res);
}

/* --except, alone and after --only; unknown-ioctl names the rowless. */
static void
test_except(void **state)
{
	const char *path = record("except.kfdtrace", "calls", "--except",
				  "GET_CLOCK_COUNTERS,unknown-ioctl");
	struct tc_run res;
	char *d = dump(path);

	(void)state;
	assert_int_equal(tc_count_str(d, "GET_VERSION("), 1);
	assert_null(strstr(d, "GET_CLOCK_COUNTERS("));
	assert_null(strstr(d, "ioctl(fd="));
	expect_in(d, ", left_out=6)", "dump");
	free(d);

	path = tc_scratch_path(tmpdir, "both.kfdtrace");
	RUN(&res, "record", "-o", (char *)path, "--only",
	    "GET_VERSION,GET_CLOCK_COUNTERS", "--only", "unknown-ioctl",
	    "--except", "get_clock_counters", "--", (char *)fork_app_bin,
	    "calls");
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	d = dump(path);
	assert_int_equal(tc_count_str(d, "GET_VERSION("), 1);
	assert_int_equal(tc_count_str(d, "ioctl(fd="), 1);
	assert_null(strstr(d, "GET_CLOCK_COUNTERS("));
	expect_in(d, ", left_out=5)", "dump");
	free(d);
}

/* A name the schema does not know: refused before the program runs. */
static void
test_unknown_name(void **state)
{
	static const char *const cases[][3] = {
		{ "--only", "ALLOC_MEMORY_OF_GPX", "kfdtrace record: --only: "
		  "'ALLOC_MEMORY_OF_GPX' is not an ioctl; did you mean "
		  "'ALLOC_MEMORY_OF_GPU'?" },
		{ "--except", "GET_VERSION,get_clock_counter",
		  "kfdtrace record: --except: 'get_clock_counter' is not an "
		  "ioctl; did you mean 'get_clock_counters'?" },
		{ "--only", "zzzzzzzzzz", "kfdtrace record: --only: "
		  "'zzzzzzzzzz' is not an ioctl (the names" },
		{ "--only", ",", "kfdtrace record: --only needs at least one "
		  "ioctl name" },
		/* Record types are not ioctls: --filter's, not these. */
		{ "--only", "open", "kfdtrace record: --only: 'open' is not "
		  "an ioctl" },
	};
	char ran[400];
	struct tc_run res;

	(void)state;
	snprintf(ran, sizeof(ran), "%s", tc_scratch_path(tmpdir, "ran"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		RUN(&res, "record", "-o",
		    tc_scratch_path(tmpdir, "never.kfdtrace"),
		    (char *)cases[i][0], (char *)cases[i][1], "--",
		    "/bin/touch", ran);
		assert_int_equal(res.status, 2);
		expect_in(res.err, cases[i][2], "stderr");
		assert_int_equal(access(ran, F_OK), -1);
		tc_run_free(&res);
	}
	/* --filter answers a typo the same way. */
	RUN(&res, "dump", "--filter", "GET_VERSON",
	    tc_scratch_path(tmpdir, "whole.kfdtrace"));
	assert_int_equal(res.status, 2);
	expect_in(res.err, "kfdtrace dump: --filter: 'GET_VERSON' is not an "
		  "ioctl, an event or a record type; did you mean "
		  "'GET_VERSION'?", "stderr");
	tc_run_free(&res);
}

/* A partial trace is not replayed; one that left nothing out is. */
static void
test_replay(void **state)
{
	const char *path = tc_scratch_path(tmpdir, "only.kfdtrace");
	struct tc_run res;

	(void)state;
	RUN(&res, "replay", "--sim", (char *)path);
	assert_int_not_equal(res.status, 0);
	expect_in(res.err, "only.kfdtrace: a partial trace: recorded with "
		  "--only/--except, 2 ioctls left out; a replay needs every "
		  "call", "stderr");
	tc_run_free(&res);
	RUN(&res, "emit-c", "-o", tc_scratch_path(tmpdir, "only.c"),
	    (char *)path);
	assert_int_not_equal(res.status, 0);
	expect_in(res.err, "kfdtrace emit-c: ", "stderr");
	expect_in(res.err, "a partial trace", "stderr");
	tc_run_free(&res);
	/* reduce: only a predicate can judge its candidates. */
	RUN(&res, "reduce", "-o", tc_scratch_path(tmpdir, "only-red.kfdtrace"),
	    (char *)path);
	assert_int_equal(res.status, 2);
	expect_in(res.err, "kfdtrace reduce: ", "stderr");
	expect_in(res.err, "a partial trace (recorded with --only/--except): "
		  "its replays are refused; give --predicate", "stderr");
	tc_run_free(&res);
	RUN(&res, "reduce", "--predicate", "true", "-o",
	    tc_scratch_path(tmpdir, "only-red.kfdtrace"), (char *)path);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);

	/* `again` makes GET_VERSION alone: nothing is left out. */
	path = record("none-left.kfdtrace", "again", "--except",
		      "unknown-ioctl");
	RUN(&res, "info", (char *)path);
	expect_in(res.out, "left out:   0 ioctls", "info");
	tc_run_free(&res);
	RUN(&res, "replay", "--sim", (char *)path);
	if (res.status != 0)
		fputs(res.err, stderr);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_only),
		cmocka_unit_test(test_except),
		cmocka_unit_test(test_unknown_name),
		cmocka_unit_test(test_replay),
	};
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: %s KFDTRACE CLI-FORK-APP\n", argv[0]);
		return 2;
	}
	kfdtrace_bin = argv[1];
	fork_app_bin = argv[2];
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tc_scratch_remove(tmpdir, "KFDTRACE_KEEP_TMP");
	return rc;
}
