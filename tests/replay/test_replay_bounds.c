/* SPDX-License-Identifier: MIT */
/*
 * The replay stays bounded on traces that push its limits:
 *
 *   userptrs	20,000 userptr ranges (past the 8,192 the plan reserves up
 *		front): the replay's time grows about linearly with their
 *		number (before: 0.4 s for 5,000, 265 s for 20,000)
 *   gap	a forged 10^18 ns pause between two records: --timing=original
 *		cuts it to its cap (10 s), warns once naming the record, and
 *		keeps the gaps after it
 *
 * The traces are real captures on kfdsim (rp_gen), the forged one a copy
 * made here with the reader and writer.
 *
 * Environment: KFDTRACE, RP_GEN, KFDTRACE_SIM_LIB (see meson.build).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kfdtrace/trace.h"
#include "tc_run.h"
#include "tc_scratch.h"

static const char *kfdtrace, *gen;
static char dir[] = "/tmp/kfdtrace-replay-bounds-XXXXXX";

/* Capture @n calls of rp_gen's @mode ("" or "userptr") into @name. */
static void
capture(const char *name, const char *n, const char *mode)
{
	struct tc_run res;

	assert_int_equal(tc_run((char *const[]){ (char *)kfdtrace, "sim", "--",
		(char *)gen, tc_scratch_path(dir, name), (char *)n,
		*mode ? (char *)mode : NULL, NULL }, &res), 0);
	if (res.status != 0)
		fprintf(stderr, "%s%s", res.out, res.err);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
}

/* Replay @name with @timing and @extra (or NULL); Return: the wall seconds. */
static double
replay(const char *name, const char *timing, const char *extra,
       struct tc_run *res)
{
	double t0 = tc_now(), secs;

	assert_int_equal(tc_run((char *const[]){ (char *)kfdtrace, "replay",
		"--sim", (char *)timing, tc_scratch_path(dir, name),
		(char *)extra, NULL }, res), 0);
	secs = tc_now() - t0;
	if (res->status != 0)
		fprintf(stderr, "%s%s", res->out, res->err);
	assert_int_equal(res->status, 0);
	assert_non_null(strstr(res->out, "result:      match"));
	return secs;
}

static void
test_userptr_scaling(void **state)
{
	struct tc_run res;
	double t5, t20;

	capture("up5000.kft", "5000", "userptr");
	capture("up20000.kft", "20000", "userptr");
	t5 = replay("up5000.kft", "--timing=asap", NULL, &res);
	tc_run_free(&res);
	t20 = replay("up20000.kft", "--timing=asap", NULL, &res);
	tc_run_free(&res);
	fprintf(stderr, "  5,000 userptrs: %.2f s; 20,000: %.2f s (ratio %.1f)\n",
		t5, t20, t20 / t5);
	/* Linear is 4; quadratic 16 and more. */
	assert_true(t20 / t5 < 8.0);
	assert_true(t20 < 60.0);
}

/*
 * A copy of trace @from into @to in which every record after sequence
 * number @after is @shift ns later.
 */
static void
forge_gap(const char *from, const char *to, uint64_t after, uint64_t shift)
{
	struct kt_reader *r;
	struct kt_writer *w;
	struct kt_record rec;
	int rc;

	assert_int_equal(kt_reader_open(tc_scratch_path(dir, from), &r), 0);
	assert_int_equal(kt_writer_open(tc_scratch_path(dir, to),
					kt_reader_header(r), NULL, &w), 0);
	while ((rc = kt_reader_next(r, &rec)) == 1) {
		if (rec.type == KT_REC_END)
			continue;
		if (rec.seq > after) {
			rec.ts += shift;
			if (rec.type == KT_REC_IOCTL)
				rec.u.ioctl.t_exit += shift;
			if (rec.type == KT_REC_API_CALL)
				rec.u.api.t_exit += shift;
		}
		assert_int_equal(kt_writer_append(w, &rec), 0);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(kt_writer_close(w), 0);
	kt_reader_close(r);
}

static void
test_forged_gap(void **state)
{
	struct tc_run res;
	unsigned long long seq;
	double secs;
	char *warn;

	capture("small.kft", "40", "");
	forge_gap("small.kft", "gap.kft", 10, 1000000000000000000ull);
	secs = replay("gap.kft", "--timing=original", "--max-sleep=1000", &res);
	fprintf(stderr, "  forged 10^18 ns gap: replayed in %.2f s\n", secs);
	/* The cap (1 s here; 10 s by default) once, not 31 years, and not
	 * once per record. */
	assert_true(secs >= 0.95);
	assert_true(secs < 8.0);
	/* Named: the first record replayed after the gap. */
	warn = strstr(res.out, "warning: #");
	assert_non_null(warn);
	assert_int_equal(sscanf(warn, "warning: #%llu", &seq), 1);
	assert_true(seq > 10 && seq < 20);
	warn = strstr(warn, "pauses are cut to 1.000 s");
	assert_non_null(warn);
	/* Once. */
	assert_null(strstr(warn + 1, "pauses are cut"));
	tc_run_free(&res);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_userptr_scaling),
		cmocka_unit_test(test_forged_gap),
	};
	int rc;

	kfdtrace = getenv("KFDTRACE");
	gen = getenv("RP_GEN");
	if (!kfdtrace || !gen) {
		fprintf(stderr, "test-replay-bounds: KFDTRACE and RP_GEN must be set\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tc_scratch_remove(dir, "KFDTRACE_KEEP_TEST_FILES");
	return rc;
}
