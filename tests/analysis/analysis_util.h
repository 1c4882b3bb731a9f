/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the analysis tests: a scratch directory, running kfdtrace and
 * analysis-gen, and small string checks. Each test program is run as
 *   test-x PATH-TO-KFDTRACE PATH-TO-ANALYSIS-GEN [more...]
 * and calls analysis_main() from its main().
 */
#ifndef KFDTRACE_ANALYSIS_UTIL_H
#define KFDTRACE_ANALYSIS_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

#include "analysis_gen.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static const char *kfdtrace_bin;
static const char *gen_bin;
static char tmpdir[] = "/tmp/kfdtrace-analysis-XXXXXX";

/* A path in the scratch directory (eight live at a time). */
static inline char *
tmp_path(const char *name)
{
	return tc_scratch_path(tmpdir, name);
}

/* Run kfdtrace with the given arguments. */
#define RUN(res, ...)							\
	do {								\
		char *argv_[] = { (char *)kfdtrace_bin, __VA_ARGS__, NULL }; \
		assert_int_equal(tc_run(argv_, (res)), 0);		\
	} while (0)

/* Run analysis-gen; it must succeed. */
#define GEN(...)							\
	do {								\
		char *argv_[] = { (char *)gen_bin, __VA_ARGS__, NULL };	\
		struct tc_run r_;						\
		assert_int_equal(tc_run(argv_, &r_), 0);		\
		if (r_.status != 0)					\
			fail_msg("analysis-gen: %s", r_.err);		\
		tc_run_free(&r_);						\
	} while (0)

/*
 * cut_copy() - the first @n bytes of @src as @dst: a trace that ends in
 * the middle of a frame, as when the writer was killed.
 */
static inline void
cut_copy(const char *src, const char *dst, size_t n)
{
	size_t len;
	char *data = tc_read_file(src, &len);
	FILE *f = fopen(dst, "w");

	assert_non_null(data);
	assert_non_null(f);
	if (len > n)
		len = n;
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(data);
}

/*
 * seq_of() - the sequence number of the @nth (0-based) record that
 * `kfdtrace dump --filter @filter` prints, so tests need not hard-code
 * record positions.
 */
static inline unsigned long long
seq_of(const char *trace, const char *filter, int nth)
{
	struct tc_run res;
	const char *p;
	unsigned long long seq;

	RUN(&res, "dump", "--seq", "--filter", (char *)filter, (char *)trace);
	assert_int_equal(res.status, 0);
	p = res.out;
	while (nth-- > 0 && p) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || *p != '#')
		fail_msg("no record %s in %s", filter, trace);
	seq = strtoull(p + 1, NULL, 10);
	tc_run_free(&res);
	return seq;
}

/* The rich trace and its variants, written once per test program. */
static inline int
analysis_setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	GEN("rich", tmp_path("rich.kft"));
	GEN("rich", tmp_path("remap.kft"), "remap");
	GEN("rich", tmp_path("extra.kft"), "extra");
	return 0;
}

static inline int
analysis_teardown(void **state)
{
	(void)state;
	/* KFDTRACE_ANALYSIS_KEEP=1 keeps the files for a look by hand. */
	return tc_scratch_remove(tmpdir, "KFDTRACE_ANALYSIS_KEEP");
}

/* Run @tests after @setup (which makes the scratch directory). */
static inline int
analysis_run(int argc, char **argv, const struct CMUnitTest *tests,
	     size_t ntests, CMFixtureFunction setup)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s KFDTRACE ANALYSIS-GEN [...]\n",
			argv[0]);
		return 2;
	}
	kfdtrace_bin = argv[1];
	gen_bin = argv[2];
	return _cmocka_run_group_tests("analysis", tests, ntests, setup,
				       analysis_teardown);
}

static inline int
analysis_main(int argc, char **argv, const struct CMUnitTest *tests,
	      size_t ntests)
{
	return analysis_run(argc, argv, tests, ntests, analysis_setup);
}

#endif /* KFDTRACE_ANALYSIS_UTIL_H */
