/* SPDX-License-Identifier: MIT */
/*
 * The report in a real browser: headless Chromium, offline, loads the page
 * from a file; its DOM has every section and chart, and its screenshot is
 * a picture (many colours, the heap and queue colours present, mostly not
 * background), not a blank or error page.
 *
 * Usage: test-render KFDTRACE ANALYSIS-GEN CHROMIUM
 * Chromium is installed by scripts/setup.sh: without it the test fails.
 */
#include "analysis_util.h"
#include "browser.h"

static const char *chromium;

static void
test_dom(void **state)
{
	struct tc_run res;

	(void)state;
	{
		struct tc_run r;

		RUN(&r, "report", tmp_path("rich.kft"), "-o",
		    tmp_path("rich.html"));
		assert_int_equal(r.status, 0);
		tc_run_free(&r);
	}
	browse(chromium, tmp_path("rich.html"), "--dump-dom", NULL, &res);
	/* The browser parsed the whole page: sections, charts, tables. */
	assert_non_null(strstr(res.out, "<section id=\"facts\">"));
	assert_non_null(strstr(res.out, "<section id=\"threads\">"));
	assert_non_null(strstr(res.out, "<footer>"));
	assert_int_equal(tc_count_str(res.out, "<rect class=\"bar"),
			 GEN_BOS + GEN_QUEUES);
	assert_int_equal(tc_count_str(res.out, "<svg class=\"chart timeline\""), 2);
	assert_int_equal(tc_count_str(res.out, "<svg class=\"chart memory\""), 2);
	/* Three kinds with 10 calls or more; the rest are table rows. */
	assert_int_equal(tc_count_str(res.out, "<svg class=\"chart lat"), 3);
	assert_int_equal(tc_count_str(res.out, "<table class=\"rare\">"), 1);
	/* Memory: a row per GPU and heap, none drawn over another. */
	assert_int_equal(tc_count_str(res.out, "<g class=\"heap\" "
				      "data-heap=\"VRAM\">"), 2);
	assert_int_equal(tc_count_str(res.out, "<g class=\"heap\""), 4);
	/* A strip per thread; the slowest calls, the first one's list open. */
	assert_int_equal(tc_count_str(res.out, "<svg class=\"chart driver\""), 1);
	assert_int_equal(tc_count_str(res.out, "<g class=\"strip\""), 2);
	assert_int_equal(tc_count_str(res.out, "<tr id=\"outlier-"), 20);
	assert_int_equal(tc_count_str(res.out, "<details class=\"before\" "
				      "open=\"\">"), 1);
	assert_int_equal(tc_count_str(res.out, "<svg class=\"chart topo\""), 1);
	assert_null(strstr(res.out, "<parsererror"));
	tc_run_free(&res);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void
test_screenshot(void **state)
{
	struct png_image img;
	struct tc_run res;
	char shot[300];
	uint32_t *px;
	size_t n, i, distinct = 1, busy = 0;

	(void)state;
	snprintf(shot, sizeof(shot), "--screenshot=%s", tmp_path("rich.png"));
	browse(chromium, tmp_path("rich.html"), shot,
	       "--window-size=1280,2000", &res);
	tc_run_free(&res);
	read_png(tmp_path("rich.png"), &img);
	assert_int_equal(img.w, 1280);
	assert_int_equal(img.h, 2000);

	n = (size_t)img.w * img.h;
	px = malloc(n * sizeof(*px));
	assert_non_null(px);
	for (i = 0; i < n; i++) {
		const uint8_t *p = img.rgba + i * 4;

		px[i] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
		/* Anything but the page and card backgrounds. */
		if (px[i] != 0xf4f5f7 && px[i] != 0xffffff)
			busy++;
	}
	qsort(px, n, sizeof(*px), cmp_u32);
	for (i = 1; i < n; i++)
		distinct += px[i] != px[i - 1];
	free(px);
	print_message("screenshot: %zu colours, %.1f%% drawn\n", distinct,
		      100.0 * (double)busy / (double)n);
	/* Text, charts and badges: a blank or error page has a handful. */
	assert_true(distinct >= 200);
	assert_true(busy * 10 >= n);
	/* The header band, VRAM and GTT bars, and a queue bar are there. */
	assert_true(has_color(&img, 0x111827, 10000));
	assert_true(has_color(&img, 0x4e79a7, 200));
	assert_true(has_color(&img, 0xf28e2b, 50));
	assert_true(has_color(&img, 0xe15759, 50));
	free(img.rgba);
}

/*
 * The whole page: the driver-time strips are drawn (the worker's strip is
 * nearly full: thousands of its colour's pixels), the first slow call's
 * list of calls before it is open (its table's background), and each
 * heap's row has its own colour's area.
 */
static void
test_screenshot_new_parts(void **state)
{
	struct png_image img;
	struct tc_run res;
	char shot[300];

	(void)state;
	snprintf(shot, sizeof(shot), "--screenshot=%s", tmp_path("rich-all.png"));
	browse(chromium, tmp_path("rich.html"), shot,
	       "--window-size=1280,5200", &res);
	tc_run_free(&res);
	read_png(tmp_path("rich-all.png"), &img);
	assert_int_equal(img.w, 1280);
	/* The strips: 994 px wide, the worker's about 15 px high. */
	assert_true(has_color(&img, 0xff9da7, 8000));
	/* The open list of calls before the slowest: its table's grey. */
	assert_true(has_color(&img, 0xf9fafb, 20000));
	/* The memory rows' lines: GTT and userptr, each in its own row. */
	assert_true(has_color(&img, 0xf28e2b, 500));
	assert_true(has_color(&img, 0x59a14f, 500));
	free(img.rgba);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dom),
		cmocka_unit_test(test_screenshot),
		cmocka_unit_test(test_screenshot_new_parts),
	};

	if (argc < 4 || !*argv[3] || access(argv[3], X_OK) != 0) {
		fprintf(stderr, "test-render: chromium is not installed (run "
			"scripts/setup.sh)\n");
		return 1;
	}
	chromium = argv[3];
	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
