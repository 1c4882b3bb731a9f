/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff, report and stats on a trace of many threads (two calls
 * each, interleaved): the answers are right, and the commands finish
 * within the test's timeout. Work linear in the threads takes seconds
 * here; a search through every thread per record or per step takes
 * minutes, so a quadratic diff or report fails this test by its meson
 * timeout. There is no timing assert: bench_scale.c measures.
 *
 * Usage: test-analysis-scale KFDTRACE ANALYSIS-GEN THREADS
 * (meson gives 300000, or 100000 for test_scale=small under sanitizers).
 */
#include "analysis_util.h"

static unsigned int scale_threads;
#define SCALE_THREADS scale_threads
/* The thread whose second call fails in the copy. */
#define SCALE_BAD_TID (GEN_THREAD_TID0 + 2u * SCALE_THREADS / 3u)
/* report_procs.h's REPORT_MAX_THREADS, which docs/analysis.md states. */
#define SCALE_LISTED 1000u

static int
scale_setup(void **state)
{
	char n[16], bad[16];

	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(n, sizeof(n), "%u", SCALE_THREADS);
	snprintf(bad, sizeof(bad), "%u", SCALE_BAD_TID);
	GEN("threads", tmp_path("many.kft"), n);
	GEN("threads", tmp_path("many-bad.kft"), n, bad);
	return 0;
}

/* A trace against itself: every call of every thread pairs. */
static void
test_diff_itself(void **state)
{
	char want[128];
	struct tc_run res;

	(void)state;
	RUN(&res, "diff", "-q", tmp_path("many.kft"), tmp_path("many.kft"));
	assert_int_equal(res.status, 0);
	snprintf(want, sizeof(want), "equal: %u ioctls in %u threads match",
		 2 * SCALE_THREADS, SCALE_THREADS);
	assert_non_null(strstr(res.out, want));
	tc_run_free(&res);
}

/* One thread's call changed: one divergence, in that thread. */
static void
test_diff_one_thread(void **state)
{
	char want[128];
	struct tc_run res;

	(void)state;
	RUN(&res, "diff", tmp_path("many.kft"), tmp_path("many-bad.kft"));
	assert_int_equal(res.status, 1);
	assert_int_equal(tc_count_str(res.out, "@@ divergence"), 1);
	snprintf(want, sizeof(want), ": GET_VERSION ret and more (thread tid "
		 "%u / %u)\n", SCALE_BAD_TID, SCALE_BAD_TID);
	assert_non_null(strstr(res.out, want));
	snprintf(want, sizeof(want), "different: 1 divergence in %u ioctls",
		 2 * SCALE_THREADS);
	assert_non_null(strstr(res.out, want));
	tc_run_free(&res);
}

/* The report counts every thread and lists the first SCALE_LISTED. */
static void
test_report_threads(void **state)
{
	char want[160], *html, *sec, *end;
	struct tc_run res;

	(void)state;
	RUN(&res, "report", tmp_path("many.kft"), "-o", tmp_path("many.html"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	html = tc_read_file(tmp_path("many.html"), NULL);
	assert_non_null(html);
	snprintf(want, sizeof(want), "<div class=\"v\">%u</div><div class=\"k\">"
		 "threads</div>", SCALE_THREADS);
	assert_non_null(strstr(html, want));
	sec = strstr(html, "<section id=\"threads\">");
	assert_non_null(sec);
	end = strstr(sec, "</section>");
	assert_non_null(end);
	*end = '\0';
	snprintf(want, sizeof(want), "<h2>Threads <span class=\"dim\">(%u)"
		 "</span></h2>", SCALE_THREADS);
	assert_non_null(strstr(sec, want));
	assert_int_equal(tc_count_str(sec, "<tr><td class=\"mono pname\">"),
			 SCALE_LISTED);
	/* The first thread's row, with its name and two calls. */
	snprintf(want, sizeof(want), "<td class=\"num\">%u</td><td>t0</td>"
		 "<td class=\"num\">2</td><td class=\"num\">0</td>",
		 GEN_THREAD_TID0);
	assert_non_null(strstr(sec, want));
	snprintf(want, sizeof(want), "%u more threads are not listed",
		 SCALE_THREADS - SCALE_LISTED);
	assert_non_null(strstr(sec, want));
	free(html);
}

/*
 * stats, where the report sends a reader for the threads it does not
 * list: every thread with its own name (found by tid among all).
 */
static void
test_stats_threads(void **state)
{
	char want[128];
	struct tc_run res;

	(void)state;
	RUN(&res, "stats", "--by-thread", tmp_path("many.kft"));
	assert_int_equal(res.status, 0);
	snprintf(want, sizeof(want), "by thread: %u\n", SCALE_THREADS);
	assert_non_null(strstr(res.out, want));
	assert_int_equal(tc_count_str(res.out, "\nthread "), SCALE_THREADS);
	snprintf(want, sizeof(want), "\nthread %u \"t%u\": 2 ioctls, 0 failed",
		 GEN_THREAD_TID0 + SCALE_THREADS - 1, SCALE_THREADS - 1);
	assert_non_null(strstr(res.out, want));
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_itself),
		cmocka_unit_test(test_diff_one_thread),
		cmocka_unit_test(test_report_threads),
		cmocka_unit_test(test_stats_threads),
	};

	if (argc < 4 || !(scale_threads = (unsigned int)atoi(argv[3]))) {
		fprintf(stderr, "usage: %s KFDTRACE ANALYSIS-GEN THREADS\n",
			argv[0]);
		return 2;
	}
	return analysis_run(argc, argv, tests, sizeof(tests) / sizeof(tests[0]),
			    scale_setup);
}
