/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace emit-c on captures of programs we did not write and of our own
 * (AMD's libhsakmt on kfdsim). Each program emitted must compile without
 * a warning under gcc and clang (-Wall -Wextra -Werror), run on kfdsim,
 * exit 0, and its own capture must equal the trace it came from
 * (`kfdtrace diff`):
 *  - the reduced trace of rp_oom's out-of-memory failure (it ends in the
 *    failing ALLOC, which the program expects to fail with ENOMEM);
 *  - rocminfo (ROCr 5.2.3: often two threads, a wait released by a
 *    SET_EVENT of the other thread);
 *  - rp_mt 4 (five threads handing buffers and events to one another).
 * rp_mt is captured on our thunk too. A difference is found and named:
 * the same program under KFDSIM_FAULTS exits 1 at the failed call. Bad input: a damaged trace, an existing
 * output, a bad command line.
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

static const char *kfdtrace, *oom, *mt, *rocminfo, *gcc, *clang, *our_thunk;
/* "-fsanitize=..." in a sanitized build (meson's b_sanitize), else NULL. */
static const char *cflags;

/*
 * Capture @argv (a program and its arguments) into @file, on AMD's thunk
 * or (@ours) on ours.
 */
static void
capture(const char *file, const char *const *argv, int ours)
{
	const char *cmd[16] = { kfdtrace, "record", "-o", NULL, "--sim", "--" };
	char lib[4200], path[4200];
	const char *env[] = { lib, NULL };
	unsigned int i;

	rp_lib_path(lib, sizeof(lib), ours ? our_thunk : NULL, our_thunk);
	snprintf(path, sizeof(path), "%s", tmp(file));
	cmd[3] = path;
	for (i = 0; argv[i] && i < 9; i++)
		cmd[6 + i] = argv[i];
	if (run_env(cmd, env)) {
		fputs(out, stderr);
		fail_msg("the capture of %s failed", argv[0]);
	}
}

/*
 * emit-c of @trace into NAME.c; built by both compilers; the gcc build run
 * on kfdsim under capture, which must equal @trace; the clang build run.
 */
static void
emit_and_check(const char *trace, const char *name)
{
	char in[4200], c[4200], bin[4200], bin2[4200], rec[4200];
	const char *env[] = { NULL, NULL };

	snprintf(in, sizeof(in), "%s", tmp(trace));
	snprintf(c, sizeof(c), "%s/%s.c", dir, name);
	snprintf(bin, sizeof(bin), "%s/%s", dir, name);
	snprintf(bin2, sizeof(bin2), "%s/%s-clang", dir, name);
	snprintf(rec, sizeof(rec), "%s/%s-own.kft", dir, name);
	if (RUN(kfdtrace, "emit-c", in, "-o", c)) {
		fputs(out, stderr);
		fail_msg("emit-c %s failed", trace);
	}
	expect_out("wrote ");
	print_message("%s: %s", name, out);
	if (RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-o", bin, c,
		cflags ? cflags : "-O1")) {
		fputs(out, stderr);
		fail_msg("gcc rejected %s", c);
	}
	if (RUN(clang, "-pthread", "-Wall", "-Wextra", "-Werror", "-o", bin2, c)) {
		fputs(out, stderr);
		fail_msg("clang rejected %s", c);
	}
	/* Not under the capture's thunk: the program needs libc only. */
	if (run_env((const char *const[]){ kfdtrace, "record", "-o", rec, "--sim",
					   "--", bin, NULL }, env)) {
		fputs(out, stderr);
		fail_msg("%s did not exit 0", bin);
	}
	expect_out("every result as captured");
	if (RUN(kfdtrace, "diff", in, rec)) {
		fputs(out, stderr);
		fail_msg("the capture of %s differs from %s", bin, trace);
	}
	expect_out("equal: ");
	/*
	 * Under a sanitizer, kfdsim is gcc-instrumented, which a clang-built
	 * program cannot load: there the clang build is only compiled.
	 */
	if (cflags)
		return;
	if (RUN(kfdtrace, "sim", "--", bin2)) {
		fputs(out, stderr);
		fail_msg("%s did not exit 0", bin2);
	}
	expect_out("every result as captured");
}

/* Whether file @path holds @needle. */
static int
file_has(const char *path, const char *needle)
{
	char *text;
	size_t n = 0;
	FILE *f = fopen(path, "r");
	int has;

	assert_non_null(f);
	text = calloc(1, 64 << 20);
	assert_non_null(text);
	n = fread(text, 1, (64 << 20) - 1, f);
	fclose(f);
	text[n] = '\0';
	has = strstr(text, needle) != NULL;
	free(text);
	return has;
}

static void
test_oom_reduced(void **state)
{
	char in[4200], red[4200];

	(void)state;
	capture("oom.kft", (const char *const[]){ oom, NULL }, 0);
	expect_out("oom: allocation");
	snprintf(in, sizeof(in), "%s", tmp("oom.kft"));
	snprintf(red, sizeof(red), "%s", tmp("oom-red.kft"));
	if (RUN(kfdtrace, "reduce", in, "-o", red)) {
		fputs(out, stderr);
		fail_msg("reduce failed");
	}
	emit_and_check("oom-red.kft", "oom");
	/* Named constants: the failing ALLOC expects ENOMEM by name. */
	assert_true(file_has(tmp("oom.c"), "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a, -1, ENOMEM)"));
	assert_true(file_has(tmp("oom.c"), "ALLOC_FLAGS_VRAM"));
	/* No kfdtrace header, no kfdtrace library. */
	assert_false(file_has(tmp("oom.c"), "#include <kfdtrace"));
}

static void
test_rocminfo(void **state)
{
	(void)state;
	if (!rocminfo)
		fail_msg("rocminfo is not installed (scripts/setup.sh installs it)");
	capture("rocminfo.kft", (const char *const[]){ rocminfo, NULL }, 0);
	expect_out("gfx90a");
	emit_and_check("rocminfo.kft", "rocminfo");
}

static void
test_threads(void **state)
{
	const char *env[] = { "KFDSIM_FAULTS=MAP_MEMORY_TO_GPU:3:EIO", NULL };
	char bin[4200];

	(void)state;
	capture("mt.kft", (const char *const[]){ mt, "4", NULL }, 0);
	emit_and_check("mt.kft", "mt");
	assert_true(file_has(tmp("mt.c"), " on 5 threads;"));
	assert_true(file_has(tmp("mt.c"), "rr_start(&t[4], thread_4);"));
	assert_true(file_has(tmp("mt.c"), "rr_turn("));
	/* A call that fails live where it succeeded: named, exit 1. */
	snprintf(bin, sizeof(bin), "%s/mt", dir);
	assert_int_equal(run_env((const char *const[]){ kfdtrace, "sim", "--", bin,
							NULL }, env), 1);
	expect_out(" MAP_MEMORY_TO_GPU: result: captured 0, got errno 5");
	expect_out("repro: #");
	/* Our thunk's capture of the same program. */
	capture("mt-ours.kft", (const char *const[]){ mt, "4", NULL }, 1);
	emit_and_check("mt-ours.kft", "mt-ours");
}

static void
test_bad_input(void **state)
{
	char bad[4200], cut[4200], c[4200];
	FILE *f;
	long n;
	char *buf;

	(void)state;
	if (access(tmp("mt.kft"), F_OK))
		capture("mt.kft", (const char *const[]){ mt, "2", NULL }, 0);
	snprintf(c, sizeof(c), "%s", tmp("x.c"));
	/* Not a trace: the reader's error, exit 1, nothing written. */
	snprintf(bad, sizeof(bad), "%s", tmp("bad.kft"));
	f = fopen(bad, "w");
	assert_non_null(f);
	fputs("not a trace at all, just some text\n", f);
	fclose(f);
	assert_int_equal(RUN(kfdtrace, "emit-c", bad, "-o", c), 1);
	expect_out("kfdtrace emit-c: ");
	assert_int_not_equal(access(c, F_OK), 0);
	/* A trace cut short: said, with where. */
	snprintf(cut, sizeof(cut), "%s", tmp("cut.kft"));
	f = fopen(tmp("mt.kft"), "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	f = fopen(cut, "wb");
	assert_non_null(f);
	fwrite(buf, 1, (size_t)n * 2 / 3, f);
	fclose(f);
	free(buf);
	assert_int_equal(RUN(kfdtrace, "emit-c", cut, "-o", c), 1);
	expect_out("offset");
	assert_int_not_equal(access(c, F_OK), 0);
	/* An existing output is kept unless -f. */
	f = fopen(c, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(RUN(kfdtrace, "emit-c", tmp("mt.kft"), "-o", c), 1);
	expect_out("exists");
	assert_int_equal(RUN(kfdtrace, "emit-c", "-f", tmp("mt.kft"), "-o", c), 0);
	/* Usage. */
	assert_int_equal(RUN(kfdtrace, "emit-c", tmp("mt.kft")), 2);
	assert_int_equal(RUN(kfdtrace, "emit-c"), 2);
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	oom = getenv("RP_OOM");
	mt = getenv("RP_MT");
	our_thunk = getenv("RP_OUR_THUNK");
	rocminfo = getenv("ROCMINFO");
	gcc = getenv("EMIT_GCC");
	clang = getenv("EMIT_CLANG");
	cflags = getenv("EMIT_CFLAGS");
	if (rocminfo && !*rocminfo)
		rocminfo = NULL;
	if (cflags && !*cflags)
		cflags = NULL;
	if (!kfdtrace || !oom || !mt || !our_thunk || !gcc || !clang || !*gcc ||
	    !*clang) {
		fprintf(stderr, "KFDTRACE, RP_OOM, RP_MT, RP_OUR_THUNK, EMIT_GCC "
			"and EMIT_CLANG must be set (gcc and clang: "
			"scripts/setup.sh installs them)\n");
		return -1;
	}
	return rp_make_dir("emit");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oom_reduced),
		cmocka_unit_test(test_rocminfo),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
