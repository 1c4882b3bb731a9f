/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the analysis tests: a scratch directory, running kfdtrace and
 * analysis-gen, and small string checks. Each test program is run as
 *   test-x PATH-TO-KFDTRACE PATH-TO-ANALYSIS-GEN [more...]
 * and calls analysis_main() from its main().
 */
#ifndef KFDTRACE_ANALYSIS_UTIL_H
#define KFDTRACE_ANALYSIS_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cli/cli_util.h"
#include "analysis_gen.h"

static const char *kfdtrace_bin;
static const char *gen_bin;
static char tmpdir[] = "/tmp/kfdtrace-analysis-XXXXXX";

/* A path in the scratch directory (four live at a time). */
static inline char *
tmp_path(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmpdir, name);
	return buf[i];
}

/* Run kfdtrace with the given arguments. */
#define RUN(res, ...)							\
	do {								\
		char *argv_[] = { (char *)kfdtrace_bin, __VA_ARGS__, NULL }; \
		assert_int_equal(run_tool(argv_, (res)), 0);		\
	} while (0)

/* Run analysis-gen; it must succeed. */
#define GEN(...)							\
	do {								\
		char *argv_[] = { (char *)gen_bin, __VA_ARGS__, NULL };	\
		struct run r_;						\
		assert_int_equal(run_tool(argv_, &r_), 0);		\
		if (r_.status != 0)					\
			fail_msg("analysis-gen: %s", r_.err);		\
		run_free(&r_);						\
	} while (0)

/* count_str() - non-overlapping occurrences of @needle in @s. */
static inline size_t
count_str(const char *s, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	while ((s = strstr(s, needle))) {
		n++;
		s += len;
	}
	return n;
}

/* read_text() - a whole file, NUL-terminated (free() it), or NULL. */
static inline char *
read_text(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *s;

	if (fd < 0)
		return NULL;
	s = slurp_fd(fd);
	close(fd);
	return s;
}

/*
 * seq_of() - the sequence number of the @nth (0-based) record that
 * `kfdtrace dump --filter @filter` prints, so tests need not hard-code
 * record positions.
 */
static inline unsigned long long
seq_of(const char *trace, const char *filter, int nth)
{
	struct run res;
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
	run_free(&res);
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
	char cmd[512];

	(void)state;
	/* KFDTRACE_ANALYSIS_KEEP=1 keeps the files for a look by hand. */
	if (getenv("KFDTRACE_ANALYSIS_KEEP")) {
		fprintf(stderr, "files kept in %s\n", tmpdir);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static inline int
analysis_main(int argc, char **argv, const struct CMUnitTest *tests,
	      size_t ntests)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s KFDTRACE ANALYSIS-GEN [...]\n",
			argv[0]);
		return 2;
	}
	kfdtrace_bin = argv[1];
	gen_bin = argv[2];
	return _cmocka_run_group_tests("analysis", tests, ntests,
				       analysis_setup, analysis_teardown);
}

#endif /* KFDTRACE_ANALYSIS_UTIL_H */
