/* SPDX-License-Identifier: MIT */
/*
 * The habits users bring from strace, perf and git (docs/cli.md):
 *
 *   - one spelling of the simulated profile: --profile P and --sim=P on
 *     sim, record, replay and reduce alike, and an unknown profile
 *     answered with the builtin ones; diff's --max-reported is replay's;
 *   - "-" is standard input for every command that reads a trace, and
 *     standard output where the output is a stream (report, emit-c,
 *     export --perfetto); a trace or a directory output (record -o,
 *     reduce -o, replay --record, export --ctf) refuses it with a
 *     reason, never a file named "-";
 *   - "did you mean" for a mistyped command, option or ioctl name;
 *   - every line of an error starts "kfdtrace CMD:", getopt's included;
 *   - --version --build-options names the optional parts;
 *   - dump --time-format rel|abs|wall.
 *
 *   test-habits KFDTRACE CLI-FORK-APP
 *
 * The trace is cli-fork-app's on kfdsim (its first process's file).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static const char *kfdtrace_bin;
static const char *fork_app_bin;
static char tmpdir[] = "/tmp/kfdtrace-habits-XXXXXX";
static char trace[400];			/* made by the first test */

#define RUN(res, ...)							\
	do {								\
		char *argv_[] = { (char *)kfdtrace_bin, __VA_ARGS__, NULL }; \
		assert_int_equal(tc_run(argv_, (res)), 0);		\
	} while (0)

static char *
tmp_path(const char *name)
{
	return tc_scratch_path(tmpdir, name);
}

/* Fail, showing stderr, unless @res's stderr holds @want. */
static void
expect_err(const struct tc_run *res, const char *want)
{
	if (!strstr(res->err, want)) {
		fputs(res->err, stderr);
		fail_msg("no \"%s\" in stderr above", want);
	}
}

/* sh -c @fmt...: for pipes into kfdtrace. */
static void __attribute__((format(printf, 2, 3)))
shell(struct tc_run *res, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	assert_int_equal(tc_run(argv, res), 0);
}

/* --profile P and --sim=P are one option on sim, record and replay. */
static void
test_profile_spelling(void **state)
{
	char dir[400];
	struct tc_run res;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/", tmp_path("run"));
	RUN(&res, "record", "--profile", "mi100", "-o", dir, "--",
	    (char *)fork_app_bin, "exec");
	if (res.status != 0)
		fputs(res.err, stderr);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	/* The first process's file: the one without .exec1 or a child pid. */
	shell(&res, "ls %s*.kfdtrace | grep -v exec1 | head -1", dir);
	assert_int_equal(res.status, 0);
	assert_true(strlen(res.out) > 1);
	snprintf(trace, sizeof(trace), "%.*s", (int)strcspn(res.out, "\n"),
		 res.out);
	tc_run_free(&res);

	/* mi100 is arcturus: record --profile chose the profile. */
	RUN(&res, "info", trace);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "arcturus"));
	tc_run_free(&res);

	RUN(&res, "replay", "--profile", "mi100", trace);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "on kfdsim, profile mi100"));
	tc_run_free(&res);
	RUN(&res, "replay", "--profile=mi100", trace);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "on kfdsim, profile mi100"));
	tc_run_free(&res);

	RUN(&res, "sim", "--sim=mi100", "--", "/bin/true");
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	RUN(&res, "sim", "--profile=mi100", "--", "/bin/true");
	assert_int_equal(res.status, 0);
	tc_run_free(&res);

	/* Two different profiles at once are refused. */
	RUN(&res, "record", "--sim=mi100", "--profile", "mi210", "-o",
	    tmp_path("two.kfdtrace"), "--", "/bin/true");
	assert_int_equal(res.status, 2);
	expect_err(&res, "kfdtrace record: two profiles: mi100 and mi210");
	tc_run_free(&res);
}

/* An unknown profile: the builtin names, the nearest first. */
static void
test_profile_unknown(void **state)
{
	static const char *const spellings[][2] = {
		{ "sim", "--profile" }, { "record", "--profile" },
		{ "record", "--sim=nope" }, { "replay", "--profile" },
		{ "reduce", "--profile" }, { "reduce", "--sim=nope" },
	};
	struct tc_run res;

	(void)state;
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		const char *cmd = spellings[i][0], *opt = spellings[i][1];
		int eq = strchr(opt, '=') != NULL;
		char want[64];

		if (!strcmp(cmd, "replay"))
			RUN(&res, (char *)cmd, (char *)opt, "nope", trace);
		else if (!strcmp(cmd, "reduce") && eq)
			RUN(&res, (char *)cmd, (char *)opt, "-o",
			    tmp_path("never.kfdtrace"), trace);
		else if (!strcmp(cmd, "reduce"))
			RUN(&res, (char *)cmd, (char *)opt, "nope", "-o",
			    tmp_path("never.kfdtrace"), trace);
		else if (eq)
			RUN(&res, (char *)cmd, (char *)opt, "--", "/bin/true");
		else
			RUN(&res, (char *)cmd, (char *)opt, "nope", "--",
			    "/bin/true");
		assert_int_not_equal(res.status, 0);
		snprintf(want, sizeof(want), "kfdtrace %s: ", cmd);
		expect_err(&res, want);
		expect_err(&res, "nope: no such profile");
		expect_err(&res, "The builtin profiles: mi210, mi100");
		assert_null(strstr(res.err, "No such file or directory"));
		tc_run_free(&res);
	}
	/* Refused before the search: nothing was written. */
	assert_int_equal(access(tmp_path("never.kfdtrace"), F_OK), -1);
	RUN(&res, "sim", "--profile", "mi21", "--", "/bin/true");
	assert_int_equal(res.status, 1);
	expect_err(&res, "did you mean 'mi210'?");
	tc_run_free(&res);
}

/* Every reading command takes "-"; its output is the file's. */
static void
test_stdin(void **state)
{
	static const char *const cmds[] = { "dump", "stats" };
	struct tc_run a, b;

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		RUN(&a, (char *)cmds[i], trace);
		assert_int_equal(a.status, 0);
		/* A pipe, copied; a redirected file, read in place. */
		shell(&b, "cat %s | %s %s -", trace, kfdtrace_bin, cmds[i]);
		assert_int_equal(b.status, 0);
		assert_string_equal(a.out, b.out);
		tc_run_free(&b);
		shell(&b, "%s %s - < %s", kfdtrace_bin, cmds[i], trace);
		assert_int_equal(b.status, 0);
		assert_string_equal(a.out, b.out);
		tc_run_free(&b);
		tc_run_free(&a);
	}
	/* report and info name standard input "-". */
	shell(&b, "cat %s | %s report -", trace, kfdtrace_bin);
	assert_int_equal(b.status, 0);
	assert_non_null(strstr(b.out, "Generated by kfdtrace"));
	assert_non_null(strstr(b.out, " from -. "));
	tc_run_free(&b);
	shell(&b, "cat %s | %s info -", trace, kfdtrace_bin);
	assert_int_equal(b.status, 0);
	assert_non_null(strstr(b.out, "file:       -\n"));
	assert_non_null(strstr(b.out, "arcturus"));
	tc_run_free(&b);
	/* Commands that open the file again by name: diff, emit-c, replay. */
	shell(&b, "cat %s | %s diff - %s", trace, kfdtrace_bin, trace);
	assert_int_equal(b.status, 0);
	assert_non_null(strstr(b.out, "--- A -: "));
	tc_run_free(&b);
	shell(&b, "cat %s | %s emit-c -o %s -", trace, kfdtrace_bin,
	      tmp_path("stdin.c"));
	assert_int_equal(b.status, 0);
	assert_int_equal(access(tmp_path("stdin.c"), F_OK), 0);
	tc_run_free(&b);
	shell(&b, "cat %s | %s replay --sim -", trace, kfdtrace_bin);
	assert_int_equal(b.status, 0);
	assert_non_null(strstr(b.out, "replaying - on kfdsim"));
	tc_run_free(&b);
	shell(&b, "cat %s | %s export --perfetto %s -", trace, kfdtrace_bin,
	      tmp_path("stdin.json"));
	assert_int_equal(b.status, 0);
	tc_run_free(&b);
	/* reduce too (a predicate that always holds: a quick search). */
	shell(&b, "cat %s | %s reduce --predicate true -o %s -", trace,
	      kfdtrace_bin, tmp_path("stdin-reduced.kfdtrace"));
	assert_int_equal(b.status, 0);
	assert_non_null(strstr(b.out, "wrote:   "));
	assert_int_equal(access(tmp_path("stdin-reduced.kfdtrace"), F_OK), 0);
	tc_run_free(&b);

	/* Read once only; a damaged pipe is damage (exit 1), said as "-". */
	shell(&b, "%s dump - - < %s", kfdtrace_bin, trace);
	assert_int_equal(b.status, 1);
	expect_err(&b, "kfdtrace dump: -: standard input given 2 times");
	tc_run_free(&b);
	shell(&b, "head -c 3000 %s | %s dump -", trace, kfdtrace_bin);
	assert_int_equal(b.status, 1);
	expect_err(&b, "kfdtrace dump: warning: -: truncated");
	tc_run_free(&b);
	/* Past the bound: refused, with the variable that sets it. */
	shell(&b, "cat %s | KFDTRACE_STDIN_MAX=100 %s dump -", trace,
	      kfdtrace_bin);
	assert_int_equal(b.status, 1);
	expect_err(&b, "over 100 bytes (KFDTRACE_STDIN_MAX)");
	tc_run_free(&b);
}

/* record -o -: refused before the program runs, no file named "-". */
static void
test_record_stdout(void **state)
{
	char ran[400];
	struct tc_run res;

	(void)state;
	snprintf(ran, sizeof(ran), "%s", tmp_path("ran"));
	shell(&res, "cd %s && %s record -o - -- /bin/touch %s", tmpdir,
	      kfdtrace_bin, ran);
	assert_int_equal(res.status, 2);
	expect_err(&res, "kfdtrace record: -o -: a trace cannot be written "
		   "to standard output");
	assert_int_equal(access(tmp_path("-"), F_OK), -1);
	assert_int_equal(access(ran, F_OK), -1);
	tc_run_free(&res);
}

/*
 * "-" as an output: standard output for a stream, refused for a trace or
 * a directory; never a file named "-" (the commands run in tmpdir).
 */
static void
test_stdout_dash(void **state)
{
	static const char *const refused[][3] = {
		{ "reduce --predicate true -o -", "kfdtrace reduce: -: a trace "
		  "cannot be written to standard output; give a path", "1" },
		{ "export --ctf -", "kfdtrace export: -: a directory cannot be "
		  "written to standard output; give a path", "1" },
		{ "export --rocpd -", "kfdtrace export: --rocpd writes a "
		  "database file, not standard output", "2" },
		{ "replay --record -", "kfdtrace replay: --record -: a trace "
		  "cannot be written to standard output", "2" },
	};
	struct tc_run res;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		shell(&res, "cd %s && %s %s %s", tmpdir, kfdtrace_bin,
		      refused[i][0], trace);
		assert_int_equal(res.status, atoi(refused[i][2]));
		expect_err(&res, refused[i][1]);
		assert_int_equal(access(tmp_path("-"), F_OK), -1);
		tc_run_free(&res);
	}
	/* emit-c -o -: the program on standard output, the summary not. */
	shell(&res, "cd %s && %s emit-c -o - %s", tmpdir, kfdtrace_bin, trace);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "Written by `kfdtrace emit-c`"));
	assert_non_null(strstr(res.out, "int\nmain("));
	expect_err(&res, "kfdtrace emit-c: wrote -: ");
	assert_null(strstr(res.out, "wrote -"));
	assert_int_equal(access(tmp_path("-"), F_OK), -1);
	tc_run_free(&res);
	/* report and export --perfetto stream too. */
	shell(&res, "cd %s && %s report -o - %s", tmpdir, kfdtrace_bin, trace);
	assert_int_equal(res.status, 0);
	assert_memory_equal(res.out, "<!DOCTYPE html>", 15);
	tc_run_free(&res);
	shell(&res, "cd %s && %s export --perfetto - %s", tmpdir, kfdtrace_bin,
	      trace);
	assert_int_equal(res.status, 0);
	assert_memory_equal(res.out, "{\"traceEvents\":[", 16);
	assert_int_equal(access(tmp_path("-"), F_OK), -1);
	tc_run_free(&res);
}

/* diff takes replay's spelling of the divergences shown in full. */
static void
test_max_reported(void **state)
{
	struct tc_run a, b;

	(void)state;
	RUN(&a, "diff", "--max-reported", "0", trace, trace);
	assert_int_equal(a.status, 0);
	RUN(&b, "diff", "--max", "0", trace, trace);
	assert_int_equal(b.status, 0);
	assert_string_equal(a.out, b.out);
	tc_run_free(&a);
	tc_run_free(&b);
	RUN(&a, "diff", "--help");
	assert_non_null(strstr(a.out, "--max-reported N"));
	tc_run_free(&a);
}

/* "did you mean", for commands and options, parsed by getopt or not. */
static void
test_did_you_mean(void **state)
{
	static const char *const cases[][3] = {
		{ "dupm", NULL, "kfdtrace: unknown command 'dupm'; did you "
				"mean 'dump'?" },
		{ "dump", "--fiter=x", "kfdtrace dump: unknown option "
			"'--fiter=x'; did you mean '--filter'?" },
		{ "stats", "--jsno", "did you mean '--json'?" },
		{ "info", "--jsn", "did you mean '--json'?" },
		{ "report", "--outptu", "did you mean '--output'?" },
		{ "replay", "--verfy", "kfdtrace replay: unknown option "
				       "'--verfy'; did you mean '--verify'?" },
		{ "sim", "--profil", "kfdtrace sim: unknown option "
				     "'--profil'; did you mean '--profile'?" },
		{ "record", "--lttgn", "did you mean '--lttng'?" },
		{ "export", "--perfeto", "did you mean '--perfetto'?" },
		{ "diff", "--quite", "did you mean '--quiet'?" },
		{ "reduce", "--outptu", "kfdtrace reduce: unknown option "
					"'--outptu'; did you mean '--output'?" },
		{ "emit-c", "--forec", "kfdtrace emit-c: unknown option "
				       "'--forec'; did you mean '--force'?" },
	};
	struct tc_run res;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i][1])
			RUN(&res, (char *)cases[i][0], (char *)cases[i][1],
			    trace);
		else
			RUN(&res, (char *)cases[i][0], trace);
		assert_int_equal(res.status, 2);
		expect_err(&res, cases[i][2]);
		tc_run_free(&res);
	}
	/* Names of ioctls and record kinds given as values. */
	RUN(&res, "replay", "--only", "ALLOC_MEMORY_OF_GPX", trace);
	assert_int_equal(res.status, 2);
	expect_err(&res, "kfdtrace replay: unknown record kind "
		   "'ALLOC_MEMORY_OF_GPX'; did you mean 'ALLOC_MEMORY_OF_GPU'?");
	tc_run_free(&res);
	RUN(&res, "replay", "--skip", "mmpa", trace);
	assert_int_equal(res.status, 2);
	expect_err(&res, "did you mean 'mmap'?");
	tc_run_free(&res);
	RUN(&res, "reduce", "--ioctl", "GET_VERSON", "-o",
	    tmp_path("never.kfdtrace"), trace);
	assert_int_equal(res.status, 2);
	expect_err(&res, "kfdtrace reduce: --ioctl: 'GET_VERSON' is not an "
		   "ioctl; did you mean 'GET_VERSION'?");
	tc_run_free(&res);
	/* Far from every name: no guess. */
	RUN(&res, "zzzzzz");
	assert_int_equal(res.status, 2);
	assert_null(strstr(res.err, "did you mean"));
	tc_run_free(&res);
}

/* getopt's own complaints carry the prefix too. */
static void
test_prefix(void **state)
{
	static const char *const cmds[] = {
		"info", "dump", "stats", "report", "diff", "record", "sim",
		"replay", "reduce", "emit-c", "export",
	};
	static const char *const bad[] = { "--no-such-option", "-Z" };
	struct tc_run res;

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		for (size_t k = 0; k < 2; k++) {
			char want[64];

			const char *line;

			RUN(&res, (char *)cmds[i], (char *)bad[k], trace);
			assert_int_equal(res.status, 2);
			snprintf(want, sizeof(want), "kfdtrace %s: ", cmds[i]);
			/* Every line, the hint at help included. */
			for (line = res.err; *line;
			     line += strcspn(line, "\n") + (line[strcspn(line,
							       "\n")] != 0)) {
				if (!strncmp(line, want, strlen(want)))
					continue;
				fputs(res.err, stderr);
				fail_msg("%s %s: a line of stderr does not "
					 "start \"%s\"", cmds[i], bad[k], want);
			}
			assert_non_null(strstr(res.err, "--help"));
			tc_run_free(&res);
		}
	}
	RUN(&res, "dump", trace, "--from");
	assert_int_equal(res.status, 2);
	expect_err(&res, "kfdtrace dump: option '--from' needs a value");
	tc_run_free(&res);
}

/* --version alone: one line; with --build-options, the optional parts. */
static void
test_version(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "--version");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), 1);
	assert_memory_equal(res.out, "kfdtrace ", 9);
	tc_run_free(&res);
	RUN(&res, "--version", "--build-options");
	assert_int_equal(res.status, 0);
	assert_true(tc_count_lines(res.out) >= 5);
	assert_non_null(strstr(res.out,
			       "\nlttng-ust provider (record --lttng): "));
	assert_non_null(strstr(res.out,
			       "\nbabeltrace2 plugin and CTF export "));
	assert_non_null(strstr(res.out, "\nPerfetto protobuf export "));
	assert_non_null(strstr(res.out, "\nSQLite (export --rocpd): "));
	tc_run_free(&res);
	RUN(&res, "--version", "--bogus");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
}

/* A number after @key in @s (decimal, or a "0x..." string). */
static uint64_t
json_u64(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	assert_non_null(p);
	p += strlen(key);
	if (*p == '"')
		p++;
	return strtoull(p, NULL, 0);
}

/* The time column of the first line of `dump --time-format=@f`. */
static void
first_time(const char *f, char *out, size_t size)
{
	char opt[64];
	char *env[] = { "TZ=UTC", NULL };
	struct tc_run res;
	const char *p;

	snprintf(opt, sizeof(opt), "--time-format=%s", f);
	char *argv[] = { (char *)kfdtrace_bin, "dump", opt, trace, NULL };
	assert_int_equal(tc_run_env(argv, env, 0, &res), 0);
	assert_int_equal(res.status, 0);
	p = strstr(res.out, "] ");
	assert_non_null(p);
	p += 2;
	snprintf(out, size, "%.*s", (int)strcspn(p, " "), p);
	tc_run_free(&res);
}

/* rel: +seconds from the start; abs: CLOCK_MONOTONIC; wall: as -tt. */
static void
test_time_format(void **state)
{
	char rel[64], abs_[64], wall[64], want[64], def[64];
	uint64_t ts, mono, real, w;
	struct tc_run res;
	struct tm tm;
	time_t secs;

	(void)state;
	RUN(&res, "info", "--json", trace);
	assert_int_equal(res.status, 0);
	mono = json_u64(res.out, "\"start_monotonic_ns\":");
	real = json_u64(res.out, "\"start_realtime_ns\":");
	tc_run_free(&res);
	RUN(&res, "dump", "--json", trace);
	assert_int_equal(res.status, 0);
	ts = json_u64(res.out, "\"ts\":");
	tc_run_free(&res);

	first_time("rel", rel, sizeof(rel));
	RUN(&res, "dump", trace);
	snprintf(def, sizeof(def), "%.*s", (int)strcspn(strstr(res.out, "] ")
		 + 2, " "), strstr(res.out, "] ") + 2);
	tc_run_free(&res);
	assert_string_equal(rel, def);
	snprintf(want, sizeof(want), "+%" PRIu64 ".%06" PRIu64,
		 (ts - mono) / 1000000000u, (ts - mono) / 1000 % 1000000);
	assert_string_equal(rel, want);

	first_time("abs", abs_, sizeof(abs_));
	snprintf(want, sizeof(want), "%" PRIu64 ".%06" PRIu64,
		 ts / 1000000000u, ts / 1000 % 1000000);
	assert_string_equal(abs_, want);

	first_time("wall", wall, sizeof(wall));
	w = real + (ts - mono);
	secs = (time_t)(w / 1000000000u);
	assert_non_null(gmtime_r(&secs, &tm));
	snprintf(want, sizeof(want), "%02d:%02d:%02d.%06" PRIu64, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, w / 1000 % 1000000);
	assert_string_equal(wall, want);

	RUN(&res, "dump", "--time-format", "local", trace);
	assert_int_equal(res.status, 2);
	expect_err(&res, "kfdtrace dump: --time-format takes rel, abs or wall");
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_spelling),
		cmocka_unit_test(test_profile_unknown),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_record_stdout),
		cmocka_unit_test(test_stdout_dash),
		cmocka_unit_test(test_max_reported),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_time_format),
	};
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: %s KFDTRACE CLI-FORK-APP\n", argv[0]);
		return 2;
	}
	/* Absolute: the shell commands run in other directories. */
	kfdtrace_bin = realpath(argv[1], NULL);
	fork_app_bin = argv[2];
	if (!kfdtrace_bin) {
		perror(argv[1]);
		return 1;
	}
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tc_scratch_remove(tmpdir, "KFDTRACE_KEEP_TMP");
	return rc;
}
