/* SPDX-License-Identifier: MIT */
/*
 * The report of the big run (big_run.sh: two processes, four threads,
 * about a million ioctls on kfdsim, tens of thousands of GTT BOs): one
 * page for the whole run whose totals are the program's own counts, every
 * heap and the queue with a lane in each process, every histogram's
 * maximum the true count of its tallest bin, every thread active; and in
 * headless Chromium no chart text outside its chart and every heap's
 * colour on screen.
 *
 * Usage: test-big-run KFDTRACE ANALYSIS-GEN CHROMIUM RUN-DIR RUN-OUT
 * RUN-OUT holds big-run-app's lines "pid P ioctls N failed F gtt G vram V".
 */
#include "analysis_util.h"
#include "browser.h"

static const char *chromium, *run_dir, *run_out;

struct proc_counts {
	int pid;
	unsigned long long ioctls, failed, gtt, vram;
};

static struct proc_counts procs[2];

static void
read_counts(void)
{
	char *text = tc_read_file(run_out, NULL), *p;
	int i;

	assert_non_null(text);
	for (i = 0, p = text; i < 2; i++) {
		p = strstr(p, "pid ");
		assert_non_null(p);
		assert_int_equal(sscanf(p, "pid %d ioctls %llu failed %llu gtt "
					"%llu vram %llu", &procs[i].pid,
					&procs[i].ioctls, &procs[i].failed,
					&procs[i].gtt, &procs[i].vram), 5);
		p++;
	}
	free(text);
}

static char *html;

/* The text between @from and the next @to, in a new string. */
static char *
between(const char *s, const char *from, const char *to)
{
	const char *a = strstr(s, from), *b;

	if (!a)
		return NULL;
	a += strlen(from);
	b = strstr(a, to);
	if (!b)
		return NULL;
	return strndup(a, (size_t)(b - a));
}

static void
test_report(void **state)
{
	char want[128];
	struct tc_run res;
	size_t len;

	(void)state;
	read_counts();
	RUN(&res, "report", (char *)run_dir, "-o", tmp_path("big.html"));
	if (res.status)
		print_message("report: %s\n", res.err);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	html = tc_read_file(tmp_path("big.html"), &len);
	assert_non_null(html);
	print_message("page: %zu bytes\n", len);
	/* Drawn as shapes, not 70,000 bars: a page a browser opens at once. */
	assert_true(len < 4u << 20);

	/* The whole run's totals are the program's. */
	snprintf(want, sizeof(want), "<div class=\"v\">%llu</div><div class=\"k\">"
		 "ioctls</div>", procs[0].ioctls + procs[1].ioctls);
	assert_non_null(strstr(html, want));
	snprintf(want, sizeof(want), "<div class=\"v\">%llu</div><div class=\"k\">"
		 "failed</div>", procs[0].failed + procs[1].failed);
	assert_non_null(strstr(html, want));
	assert_non_null(strstr(html, "<div class=\"v\">2</div><div class=\"k\">"
			       "processes</div>"));
	assert_non_null(strstr(html, "<div class=\"v\">4</div><div class=\"k\">"
			       "threads</div>"));
	assert_non_null(strstr(html, "<span class=\"badge info\">2 processes"));
	/* Titled by the command record ran (argv[0] by its base name),
	 * which every trace's header carries. */
	{
		const char *h1 = strstr(html, "<h1>big-run-app ");
		unsigned long long n = 0;

		assert_non_null(h1);
		assert_int_equal(sscanf(h1, "<h1>big-run-app %llu<span", &n), 1);
		assert_true(n >= 4000);
	}
}

/* Each process's row in the tree, a child under its parent. */
static void
test_process_tree(void **state)
{
	char *sec = between(html, "<section id=\"processes\">", "</section>");
	char want[160];
	int i;

	(void)state;
	assert_non_null(sec);
	assert_int_equal(tc_count_str(sec, "<rect class=\"proc\""), 2);
	assert_int_equal(tc_count_str(sec, "└ "), 1);
	for (i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "[%d]</td><td class=\"num\">%d</td>",
			 procs[i].pid, procs[i].pid);
		assert_non_null(strstr(sec, want));
		snprintf(want, sizeof(want), "<td class=\"num\">%llu</td>"
			 "<td class=\"num fail\">%llu</td>", procs[i].ioctls,
			 procs[i].failed);
		assert_non_null(strstr(sec, want));
	}
	free(sec);
}

/*
 * Every heap and the queues have a lane in each process, with something
 * drawn in it: bars, or a density band with columns. GTT and VRAM hold
 * the churned BOs (plus GTT's queue ring, pointers and events page).
 */
static void
test_lanes(void **state)
{
	static const char *const groups[] = {
		"VRAM", "GTT", "userptr", "doorbell", "MMIO", "queues",
	};
	const char *p = strstr(html, "<section id=\"timeline\">");
	size_t i;
	int k;

	(void)state;
	assert_non_null(p);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
			char want[64], drawn[8], *lane;
			unsigned long long n;
			const char *q;

			snprintf(want, sizeof(want), "data-group=\"%s\"", groups[i]);
			q = strstr(p, want);
			if (!q)
				fail_msg("process %d: no %s lane", k, groups[i]);
			assert_int_equal(sscanf(q + strlen(want),
						" data-objects=\"%llu\" "
						"data-drawn=\"%7[a-z]\"", &n,
						drawn), 2);
			lane = between(q, ">", "</g>");
			assert_non_null(lane);
			if (!strcmp(groups[i], "GTT"))
				assert_int_equal(n, procs[k].gtt + 4);
			if (!strcmp(groups[i], "VRAM"))
				assert_int_equal(n, procs[k].vram);
			if (!strcmp(drawn, "band"))
				assert_non_null(strstr(lane, "class=\"band\" "));
			else
				assert_int_equal(tc_count_str(lane,
					"<rect class=\"bar"), n);
			/* A band's columns, or the bars: something drawn. */
			assert_true(strstr(lane, "d=\"M") ||
				    strstr(lane, "<rect class=\"bar"));
			free(lane);
			p = q + 1;
		}
	}
}

/* The tallest bin's label is its count in full (titles say each bin's). */
static void
test_histogram_maxima(void **state)
{
	const char *p = html;
	int hists = 0, logs = 0;

	(void)state;
	while ((p = strstr(p, "<svg class=\"chart lat"))) {
		char *svg = between(p, "", "</svg>");
		unsigned long long top, max = 0, v;
		const char *t;

		assert_non_null(svg);
		logs += strncmp(svg, "<svg class=\"chart lat log\"", 26) == 0;
		t = strstr(svg, "class=\"ymax\"");
		assert_non_null(t);
		t = strchr(t, '>');
		assert_non_null(t);
		top = strtoull(t + 1, NULL, 10);
		for (t = svg; (t = strstr(t, "<title>")); t++)
			if (sscanf(t, "<title>%llu call", &v) == 1 && v > max)
				max = v;
		assert_true(max > 0);
		assert_int_equal(top, max);
		free(svg);
		hists++;
		p++;
	}
	print_message("%d histograms, %d with a log count axis\n", hists, logs);
	/* The seven kinds the program calls in every loop; the events'
	 * and queues' few calls are rows of the rare-kinds table. */
	assert_true(hists >= 7);
	assert_non_null(strstr(html, "<tr><td class=\"mono\">CREATE_QUEUE</td>"));
	/* A million calls leave tails a linear axis would hide. */
	assert_true(logs >= 1);
}

/* Four threads, each with time in ioctls and a span, none "0 ns". */
static void
test_threads(void **state)
{
	char *sec = between(html, "<section id=\"threads\">", "</section>");
	unsigned long long sum = 0;
	const char *p;
	int rows = 0;

	(void)state;
	assert_non_null(sec);
	for (p = sec; (p = strstr(p, "<tr><td class=\"mono pname\">")); p++) {
		char *busy = between(p, "<td class=\"num busy\">", "</td>");
		char *active = between(p, "<td class=\"num active\">", "</td>");
		const char *n = strstr(p, "</td><td class=\"num\">");
		unsigned long long calls;

		assert_non_null(busy);
		assert_non_null(active);
		/* tid, name, then the ioctl count. */
		n = strstr(n + 1, "</td><td class=\"num\">");
		assert_non_null(n);
		calls = strtoull(n + strlen("</td><td class=\"num\">"), NULL, 10);
		/* Each thread makes about a quarter of the run's calls. */
		assert_true(calls > (procs[0].ioctls + procs[1].ioctls) / 8);
		sum += calls;
		assert_string_not_equal(busy, "0 ns");
		assert_string_not_equal(active, "0 ns");
		free(busy);
		free(active);
		rows++;
	}
	assert_int_equal(rows, 4);
	assert_int_equal(sum, procs[0].ioctls + procs[1].ioctls);
	free(sec);
}

/*
 * A strip per thread, each one path however many calls; the 20 slowest
 * calls of a million, slowest first, each with the 8 calls before it.
 */
static void
test_strips_and_outliers(void **state)
{
	char *sec = between(html, "<section id=\"driver\">", "</section>");
	unsigned long long ns, prev = ~0ull;
	const char *p;
	int rows = 0;

	(void)state;
	assert_non_null(sec);
	assert_int_equal(tc_count_str(sec, "<g class=\"strip\""), 4);
	assert_int_equal(tc_count_str(sec, "<path "), 4);
	print_message("driver strips: %zu bytes\n", strlen(sec));
	/* Bounded: at most a few H and V steps per pixel column. */
	assert_true(strlen(sec) < 4 * 16000);
	free(sec);
	sec = between(html, "<section id=\"outliers\">", "</section>");
	assert_non_null(sec);
	for (p = sec; (p = strstr(p, "<tr id=\"outlier-")); p++) {
		p = strstr(p, "data-ns=\"");
		assert_non_null(p);
		ns = strtoull(p + 9, NULL, 10);
		assert_true(ns <= prev);
		prev = ns;
		rows++;
	}
	assert_int_equal(rows, 20);
	assert_int_equal(tc_count_str(sec, "<details class=\"before\""), 20);
	free(sec);
}

/*
 * In the browser: each chart's text lies inside its chart (a label cut at
 * the edge of its SVG is what the issue saw), measured with getBBox() by
 * a script the test adds to a copy of the page (the page has none).
 */
static void
test_browser_text(void **state)
{
	static const char check[] =
		"<script>(function(){var bad=[],n=0;"
		"document.querySelectorAll('svg').forEach(function(s){"
		"var v=s.viewBox.baseVal;s.querySelectorAll('text').forEach("
		"function(t){var b=t.getBBox();n++;if(b.x<v.x-0.5||"
		"b.x+b.width>v.x+v.width+0.5||b.y<v.y-0.5||"
		"b.y+b.height>v.y+v.height+0.5)bad.push(t.textContent)})});"
		"var p=document.createElement('pre');p.id='kt-check';"
		"p.textContent='texts '+n+' clipped '+bad.length+' ['+"
		"bad.join('|')+']';document.body.appendChild(p)})()</script>";
	char *page = strdup(html), *body, *out;
	struct tc_run res;
	unsigned int n = 0, clipped = 1;
	FILE *f;

	(void)state;
	assert_non_null(page);
	body = strstr(page, "</body>");
	assert_non_null(body);
	*body = '\0';
	f = fopen(tmp_path("big-check.html"), "w");
	assert_non_null(f);
	fprintf(f, "%s%s</body></html>\n", page, check);
	assert_int_equal(fclose(f), 0);
	free(page);
	browse(chromium, tmp_path("big-check.html"), "--dump-dom", NULL, &res);
	out = between(res.out, "<pre id=\"kt-check\">", "</pre>");
	assert_non_null(out);
	print_message("browser: %s\n", out);
	assert_int_equal(sscanf(out, "texts %u clipped %u", &n, &clipped), 2);
	assert_true(n > 150);
	assert_int_equal(clipped, 0);
	free(out);
	tc_run_free(&res);
}

/* On screen: the colour of every heap that has objects, and the queue's. */
static void
test_screenshot(void **state)
{
	static const uint32_t colors[] = {
		0x4e79a7, 0xf28e2b, 0x59a14f, 0xb07aa1, 0x9c755f, 0xe15759,
	};
	struct png_image img;
	struct tc_run res;
	char shot[300];
	size_t i;

	(void)state;
	snprintf(shot, sizeof(shot), "--screenshot=%s", tmp_path("big.png"));
	browse(chromium, tmp_path("big.html"), shot, "--window-size=1280,2600",
	       &res);
	tc_run_free(&res);
	read_png(tmp_path("big.png"), &img);
	assert_int_equal(img.w, 1280);
	for (i = 0; i < sizeof(colors) / sizeof(colors[0]); i++)
		if (!has_color(&img, colors[i], 12))
			fail_msg("no #%06x on screen", colors[i]);
	/* The bands are areas: thousands of VRAM and GTT pixels. */
	assert_true(has_color(&img, 0x4e79a7, 20000));
	assert_true(has_color(&img, 0xf28e2b, 20000));
	free(img.rgba);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_process_tree),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_histogram_maxima),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_strips_and_outliers),
		cmocka_unit_test(test_browser_text),
		cmocka_unit_test(test_screenshot),
	};
	int rc;

	if (argc != 6) {
		fprintf(stderr, "usage: %s KFDTRACE ANALYSIS-GEN CHROMIUM RUN-DIR "
			"RUN-OUT\n", argv[0]);
		return 2;
	}
	if (!*argv[3] || access(argv[3], X_OK) != 0) {
		fprintf(stderr, "test-big-run: chromium is not installed (run "
			"scripts/setup.sh)\n");
		return 1;
	}
	chromium = argv[3];
	run_dir = argv[4];
	run_out = argv[5];
	rc = analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
	free(html);
	return rc;
}
