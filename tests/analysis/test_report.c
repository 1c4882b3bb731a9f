/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace report: the page is one self-contained file (no scripts, no
 * network references) and holds every section with the facts of the
 * generated rich trace; damaged traces and bad usage are handled.
 * (test_render.c renders the page in a browser.)
 */
#include "analysis_util.h"
#include "tc_rec.h"

static char *
report(const char *trace, const char *out)
{
	struct tc_run res;
	char *html;

	RUN(&res, "report", (char *)trace, "-o", (char *)out);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "");
	tc_run_free(&res);
	html = tc_read_file(out, NULL);
	assert_non_null(html);
	return html;
}

/* Nothing the page could fetch: no script, link, import or URL. */
static void
test_self_contained(void **state)
{
	char *html = report(tmp_path("rich.kft"), tmp_path("rich.html"));

	(void)state;
	assert_true(strncmp(html, "<!DOCTYPE html>\n", 16) == 0);
	assert_non_null(strstr(html, "<meta charset=\"utf-8\">"));
	assert_non_null(strstr(html, "<style>"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "<img"));
	assert_null(strstr(html, "@import"));
	assert_null(strstr(html, "url("));
	assert_null(strstr(html, "http:"));
	assert_null(strstr(html, "https:"));
	assert_null(strstr(html, "src="));
	assert_non_null(strstr(html, "</html>\n"));
	free(html);
}

static void
test_sections(void **state)
{
	static const char *const ids[] = {
		"summary", "facts", "processes", "topology", "timeline", "memory",
		"latency", "errors", "leaks", "threads",
	};
	char *html = tc_read_file(tmp_path("rich.html"), NULL);
	size_t i;

	(void)state;
	assert_non_null(html);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char id[64];

		snprintf(id, sizeof(id), " id=\"%s\"", ids[i]);
		assert_int_equal(tc_count_str(html, id), 1);
	}
	/* Header facts. */
	assert_non_null(strstr(html, "<h1>train<span class=\"badge ok\">"
			       "complete</span>"));
	assert_non_null(strstr(html, "train --epochs 2"));
	assert_non_null(strstr(html, "<dt>KFD ABI</dt><dd>1.16</dd>"));
	assert_non_null(strstr(html, "<dt>pid</dt><dd>4242 (parent 1)</dd>"));
	assert_non_null(strstr(html, "closed cleanly by the writer"));
	assert_non_null(strstr(html, "<div class=\"v\">1044</div><div class=\"k\">"
			       "ioctls</div>"));
	assert_non_null(strstr(html, "<div class=\"tile bad\"><div class=\"v\">"
			       "2</div><div class=\"k\">failed</div>"));
	/* Topology: two gfx90a GPUs, PCIe and XGMI links. */
	assert_int_equal(tc_count_str(html, "<td class=\"mono\">gfx90a</td>"), 2);
	assert_non_null(strstr(html, "<td class=\"mono\">0x2222</td>"));
	assert_non_null(strstr(html, "renderD129"));
	assert_non_null(strstr(html, "<td>XGMI</td>"));
	assert_int_equal(tc_count_str(html, "<td>PCIe</td>"), 2);
	free(html);
}

/* One bar per BO and queue; one chart per GPU; one histogram per kind. */
static void
test_charts(void **state)
{
	char *html = tc_read_file(tmp_path("rich.html"), NULL);

	(void)state;
	assert_non_null(html);
	assert_int_equal(tc_count_str(html, "<rect class=\"bar"),
			 GEN_BOS + GEN_QUEUES);
	/* The BO and the queue left alive are marked. */
	assert_int_equal(tc_count_str(html, "<rect class=\"bar leaked\""), 2);
	assert_int_equal(tc_count_str(html, "<svg class=\"chart timeline\""), 2);
	assert_int_equal(tc_count_str(html, "<svg class=\"chart memory\""), 2);
	assert_non_null(strstr(html, "aria-label=\"memory of GPU 0x1111\""));
	/* 10 ioctl kinds, the busiest first. */
	assert_int_equal(tc_count_str(html, "<div class=\"hist\">"), 10);
	assert_non_null(strstr(html, "<div class=\"hist\"><h3>GET_CLOCK_COUNTERS"
			       "</h3><div class=\"meta\">1000 calls · p50 500 µs "
			       "· p99 990 µs · max 1.00 ms</div>"));
	/* Memory legend with the high-water marks. */
	assert_non_null(strstr(html, "VRAM · peak 96.0 MiB"));
	assert_non_null(strstr(html, "VRAM · peak 256 MiB"));
	assert_non_null(strstr(html, "ms since trace start"));
	free(html);
}

static void
test_errors_and_leaks(void **state)
{
	char *html = tc_read_file(tmp_path("rich.html"), NULL);
	const char *errors, *leaks;

	(void)state;
	assert_non_null(html);
	errors = strstr(html, "<section id=\"errors\">");
	leaks = strstr(html, "<section id=\"leaks\">");
	assert_non_null(errors);
	assert_non_null(leaks);
	assert_non_null(strstr(errors, "Failed calls <span class=\"dim\">(2)"));
	assert_non_null(strstr(errors, "title=\"Cannot allocate memory\">ENOMEM"));
	assert_non_null(strstr(errors, ">EINVAL</td>"));
	/* Decoded arguments of the failed calls. */
	assert_non_null(strstr(errors, "ALLOC_MEMORY_OF_GPU(va_addr=0x7f0100000000, "
			       "size=1099511627776, mmap_offset=0x0, gpu_id=0x1111,"
			       " flags=VRAM) = -1 ENOMEM (Cannot allocate memory)"));
	assert_non_null(strstr(errors, "FREE_MEMORY_OF_GPU(handle=0x1111_00000063)"));
	assert_non_null(strstr(leaks, "Alive at exit <span class=\"dim\">(3)"));
	assert_non_null(strstr(leaks, "(256 MiB of buffer memory)"));
	assert_non_null(strstr(leaks, "0x2222_00000002"));
	assert_non_null(strstr(leaks, "queue</td><td class=\"mono\">1</td>"));
	assert_non_null(strstr(leaks, "event</td><td class=\"mono\">3</td>"));
	assert_non_null(strstr(html, "<td>worker</td><td class=\"num\">1000</td>"));
	free(html);
}

/* To stdout by default; a cut trace still gets a page, and exit 1. */
static void
test_stdout_damaged_usage(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "report", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_true(strncmp(res.out, "<!DOCTYPE html>", 15) == 0);
	tc_run_free(&res);

	cut_copy(tmp_path("rich.kft"), tmp_path("cut.kft"), 9000);
	RUN(&res, "report", tmp_path("cut.kft"), "-o", tmp_path("cut.html"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "truncated"));
	tc_run_free(&res);
	{
		char *html = tc_read_file(tmp_path("cut.html"), NULL);

		assert_non_null(html);
		assert_non_null(strstr(html, "<span class=\"badge bad\">"
				       "truncated</span>"));
		assert_non_null(strstr(html, "</html>\n"));
		free(html);
	}

	RUN(&res, "report", tmp_path("missing.kft"));
	assert_int_equal(res.status, 1);
	tc_run_free(&res);
	RUN(&res, "report");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "report", "--bogus", tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
}

/*
 * A directory stands for the traces in it (a run of one process here); an
 * existing page is replaced only with -f; a directory without traces is an
 * error.
 */
static void
test_dir_and_force(void **state)
{
	struct tc_run res;
	char *html;

	(void)state;
	assert_int_equal(mkdir(tmp_path("run"), 0700), 0);
	assert_int_equal(mkdir(tmp_path("none"), 0700), 0);
	cut_copy(tmp_path("rich.kft"), tmp_path("run/4242.kfdtrace"), SIZE_MAX);
	RUN(&res, "report", tmp_path("run"), "-o", tmp_path("dir.html"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	html = tc_read_file(tmp_path("dir.html"), NULL);
	assert_non_null(html);
	assert_non_null(strstr(html, "<div class=\"v\">1044</div><div class=\"k\">"
			       "ioctls</div>"));
	assert_non_null(strstr(html, "<div class=\"v\">1</div><div class=\"k\">"
			       "process</div>"));
	assert_non_null(strstr(html, "<section id=\"processes\">"));
	assert_non_null(strstr(html, "4242.kfdtrace</span>"));
	free(html);

	RUN(&res, "report", tmp_path("rich.kft"), "-o", tmp_path("dir.html"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "kfdtrace report: "));
	tc_run_free(&res);
	RUN(&res, "report", "-f", tmp_path("rich.kft"), "-o", tmp_path("dir.html"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	RUN(&res, "report", tmp_path("none"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "kfdtrace report: "));
	assert_non_null(strstr(res.err, "no traces"));
	tc_run_free(&res);
}

/*
 * A thread of one call is active for that call (a thread with 285 us
 * in ioctls once showed "active 0 ns"): both columns say 285 µs.
 */
static void
test_one_call_thread(void **state)
{
	struct kfd_abi_get_version_args v = { 1, 16 };
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	struct tc_run res;
	char *html;

	(void)state;
	kt_header_init(&hdr, "kfdtrace-test");
	assert_int_equal(kt_writer_open(tmp_path("one.kft"), &hdr, NULL, &w), 0);
	r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v, &v,
			 sizeof(v), 0, 0);
	r.seq = kt_writer_next_seq(w);
	r.tid = 77;
	r.ts = hdr.start_monotonic + 1000;
	r.u.ioctl.t_exit = r.ts + 285000;
	assert_int_equal(kt_writer_append(w, &r), 0);
	assert_int_equal(kt_writer_close(w), 0);
	RUN(&res, "report", tmp_path("one.kft"), "-o", tmp_path("one.html"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	html = tc_read_file(tmp_path("one.html"), NULL);
	assert_non_null(html);
	assert_non_null(strstr(html, "<td class=\"num\">77</td><td></td>"
			       "<td class=\"num\">1</td><td class=\"num\">0</td>"
			       "<td class=\"num busy\">285 µs</td>"
			       "<td class=\"num active\">285 µs</td>"));
	free(html);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_contained),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_charts),
		cmocka_unit_test(test_errors_and_leaks),
		cmocka_unit_test(test_stdout_damaged_usage),
		cmocka_unit_test(test_dir_and_force),
		cmocka_unit_test(test_one_call_thread),
	};

	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
