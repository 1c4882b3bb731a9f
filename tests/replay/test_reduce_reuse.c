/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace reduce and emit-c where the kernel reuses numbers, and reduce's
 * choice of a target, on kfdsim:
 *  - a memory handle freed and given back to a later allocation at the
 *    same VA (rp_gen reuse): the reduction keeps the earlier buffer's
 *    FREE while it keeps both buffers, its result replays, and the
 *    program emit-c writes of it builds and exits 0;
 *  - the same trace with that FREE (and its UNMAP) left out: the emitted
 *    program stops at the record the replay diverges at (the handle's
 *    number bound to a buffer still there), not at a later call;
 *  - rocminfo (ROCr 5.2.3), whose only failures are ROCr's probes of the
 *    old debugger interface (DBG_TRAP_OLD, EINVAL): reduce says it skips
 *    them and what it targets, and a predicate's reduction is not the
 *    probe alone; without a predicate it asks for --target.
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

static const char *kfdtrace, *gen, *alter, *gcc, *rocminfo, *our_thunk;

/* rp_gen @n rounds of the reuse pattern into @file, on kfdsim. */
static void
gen_reuse(const char *file, const char *n)
{
	expect_ok(RUN(kfdtrace, "sim", "--", gen, tmp(file), n, "reuse"));
}

/*
 * The ioctls of the last JSON dump, in order: their seq, name and return
 * value, in @seq, @name (the first 63 characters) and @ret. Return: how
 * many, at most @max.
 */
static int
ioctls(uint64_t *seq, char (*name)[64], long *ret, int max)
{
	const char *p = out;
	int n = 0;

	while (p && *p && n < max) {
		const char *eol = strchr(p, '\n'), *f;

		f = strstr(p, "\"type\":\"ioctl\"");
		if (f && (!eol || f < eol)) {
			const char *nm = strstr(p, "\"name\":\""), *r;

			seq[n] = strtoull(strstr(p, "\"seq\":") + 6, NULL, 10);
			assert_non_null(nm);
			nm += 8;
			snprintf(name[n], 64, "%.*s", (int)(strchr(nm, '"') - nm),
				 nm);
			r = strstr(p, "\"ret\":");
			assert_non_null(r);
			ret[n] = strtol(r + 6, NULL, 10);
			n++;
		}
		p = eol ? eol + 1 : NULL;
	}
	return n;
}

/* emit-c of @trace as NAME.c, built by gcc and run on kfdsim. */
static int
emit_run(const char *trace, const char *name)
{
	char c[4200], bin[4200];

	snprintf(c, sizeof(c), "%s.c", tmp(name));
	snprintf(bin, sizeof(bin), "%s", tmp(name));
	expect_ok(RUN(kfdtrace, "emit-c", "-f", trace, "-o", c));
	expect_ok(RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-o",
		      bin, c));
	return RUN(kfdtrace, "sim", "--", bin);
}

/*
 * Two rounds of a handle's reuse; the bug (a predicate) needs two
 * allocations. Taking the first buffer's FREE out leaves a replay that
 * matches (its handle binding stays on the first buffer), so a reduction
 * that knows only creations and uses ends there; the emitted program
 * then maps the second buffer over the first one's range.
 */
static void
test_reuse_keeps_end(void **state)
{
	char in[4200], red[4200], pred[4400], script[4200];
	uint64_t seq[64];
	char name[64][64];
	long ret[64];
	int n, i, last_alloc = -1, freed = 0;
	FILE *f;

	(void)state;
	gen_reuse("reuse2.kft", "2");
	snprintf(in, sizeof(in), "%s", tmp("reuse2.kft"));
	snprintf(red, sizeof(red), "%s", tmp("reuse2-red.kft"));
	snprintf(script, sizeof(script), "%s", tmp("two-allocs.sh"));
	f = fopen(script, "w");
	assert_non_null(f);
	fprintf(f, "%s replay --sim --verify=results \"$1\" >/dev/null 2>&1 "
		"|| exit 1\n[ $(%s dump \"$1\" | grep -c ALLOC_MEMORY_OF_GPU) "
		"-ge 2 ]\n", kfdtrace, kfdtrace);
	fclose(f);
	snprintf(pred, sizeof(pred), "sh %s", script);
	expect_ok(RUN(kfdtrace, "reduce", in, "-o", red, "-f", "--sim",
		      "--predicate", pred));
	expect_ok(RUN(kfdtrace, "dump", "--json", red));
	n = ioctls(seq, name, ret, 64);
	for (i = 0; i < n; i++)
		if (!strcmp(name[i], "ALLOC_MEMORY_OF_GPU"))
			last_alloc = i;
	assert_true(last_alloc > 0);
	/* The earlier buffer is kept, and so is its end. */
	for (i = 0; i < last_alloc; i++)
		freed += !strcmp(name[i], "FREE_MEMORY_OF_GPU") && ret[i] == 0;
	if (!freed) {
		RUN(kfdtrace, "dump", red);
		fputs(out, stderr);
		fail_msg("the reduction left out the FREE of the handle the "
			 "last allocation reuses");
	}
	/* It replays strictly, and its program runs as captured. */
	expect_ok(RUN(kfdtrace, "replay", "--sim", red));
	expect_out("result:      match");
	expect_ok(emit_run(red, "reuse2-red"));
	expect_out("every result as captured");

	/* Without a predicate: the failed FREE, said up front. */
	expect_ok(RUN(kfdtrace, "reduce", in, "-o", red, "-f", "--sim"));
	expect_out("reduce: target: #");
	expect_out("FREE_MEMORY_OF_GPU errno EBUSY");
	expect_out("target:  #");
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--verify=results", red));
}

/* The number of the record after @key in the last output, or -1. */
static long
record_after(const char *key)
{
	const char *p = strstr(out, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/*
 * The first buffer's UNMAP and FREE left out: its handle number comes
 * back from the capture's second ALLOC while the buffer is still there.
 * The replay diverges at that ALLOC (the number is bound); the program
 * stops at the same record, not at the MAP after it.
 */
static void
test_emit_binds_as_replay(void **state)
{
	char in[4200], cut[4200], drop[64];
	uint64_t seq[64];
	char name[64][64];
	long ret[64], at_replay, at_emit;
	int n, i, unmap = -1, free_at = -1;

	(void)state;
	gen_reuse("reuse1.kft", "1");
	snprintf(in, sizeof(in), "%s", tmp("reuse1.kft"));
	/* The whole trace: both agree that it matches. */
	expect_ok(RUN(kfdtrace, "replay", "--sim", in));
	expect_out("result:      match");
	expect_ok(emit_run(in, "reuse1"));

	expect_ok(RUN(kfdtrace, "dump", "--json", in));
	n = ioctls(seq, name, ret, 64);
	for (i = 0; i < n && free_at < 0; i++) {
		if (!strcmp(name[i], "UNMAP_MEMORY_FROM_GPU") && unmap < 0)
			unmap = i;
		if (!strcmp(name[i], "FREE_MEMORY_OF_GPU") && ret[i] == 0)
			free_at = i;
	}
	assert_true(unmap >= 0 && free_at > unmap);
	snprintf(drop, sizeof(drop), "%llu,%llu",
		 (unsigned long long)seq[unmap], (unsigned long long)seq[free_at]);
	snprintf(cut, sizeof(cut), "%s", tmp("reuse1-cut.kft"));
	unlink(cut);
	expect_ok(RUN(alter, in, cut, "drop", drop));

	assert_int_equal(RUN(kfdtrace, "replay", "--sim", cut), 1);
	at_replay = record_after("divergence at #");
	assert_true(at_replay > 0);
	assert_int_equal(emit_run(cut, "reuse1-cut"), 1);
	at_emit = record_after("repro: #");
	if (at_emit != at_replay) {
		fputs(out, stderr);
		fail_msg("the program stopped at #%ld, the replay at #%ld",
			 at_emit, at_replay);
	}
	expect_out("already bound");
}

/*
 * rocminfo's failures are ROCr's DBG_TRAP_OLD probes: each fails alone.
 * With a predicate and no --target, none is the target.
 */
static void
test_rocminfo_probe(void **state)
{
	char in[4200], red[4200], pred[4200], lib[4200];
	const char *env[] = { lib, NULL };
	uint64_t seq[256];
	char name[256][64];
	long ret[256];
	int n;

	(void)state;
	if (!rocminfo) {
		if (getenv("CI") && !strcmp(getenv("CI"), "true"))
			fail_msg("rocminfo is not installed (scripts/setup.sh "
				 "installs it)");
		print_message("rocminfo is not installed: skipped\n");
		skip();
	}
	snprintf(in, sizeof(in), "%s", tmp("rocminfo.kft"));
	snprintf(red, sizeof(red), "%s", tmp("rocminfo-red.kft"));
	/* Debian's ROCr on Debian's thunk, not ours. */
	rp_lib_path(lib, sizeof(lib), NULL, our_thunk);
	expect_ok(run_env((const char *const[]){ kfdtrace, "record", "-o", in,
						 "--sim", "--", rocminfo, NULL },
			  env));
	expect_out("DBG_TRAP_OLD");

	snprintf(pred, sizeof(pred), "%s replay --sim --verify=results",
		 kfdtrace);
	expect_ok(RUN(kfdtrace, "reduce", in, "-o", red, "--sim",
		      "--predicate", pred));
	expect_out("DBG_TRAP_OLD errno EINVAL: skipped: it fails alone");
	expect_out("reduce: target: ");
	assert_null(strstr(out, "target: #"));
	expect_ok(RUN(kfdtrace, "dump", "--json", red));
	n = ioctls(seq, name, ret, 256);
	assert_false(n == 1 && !strcmp(name[0], "DBG_TRAP_OLD"));

	/* The replay's own test needs a target: it asks for one. */
	assert_int_equal(RUN(kfdtrace, "reduce", in, "-o", tmp("x.kft"),
			     "--sim"), 2);
	expect_out("fails alone");
	expect_out("give --target");
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	gen = getenv("RP_GEN");
	alter = getenv("RP_ALTER");
	our_thunk = getenv("RP_OUR_THUNK");
	gcc = getenv("EMIT_GCC");
	rocminfo = getenv("ROCMINFO");
	if (rocminfo && !*rocminfo)
		rocminfo = NULL;
	if (!kfdtrace || !gen || !alter || !our_thunk) {
		fprintf(stderr, "KFDTRACE, RP_GEN, RP_ALTER and RP_OUR_THUNK "
			"must be set\n");
		return -1;
	}
	return rp_make_dir("reduce-reuse");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse_keeps_end),
		cmocka_unit_test(test_emit_binds_as_replay),
		cmocka_unit_test(test_rocminfo_probe),
	};
	const char *cc = getenv("EMIT_GCC");

	if (!cc || !*cc) {
		const char *ci = getenv("CI");

		fprintf(stderr, "gcc is not installed: the emitted programs "
			"cannot be built\n");
		return ci && !strcmp(ci, "true") ? 1 : 77;
	}
	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
