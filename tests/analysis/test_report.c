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
	/* Titled by the run's command, not by its first traced process. */
	assert_non_null(strstr(html, "<h1>sh -c &#39;train --epochs 2 &amp;&amp; "
			       "eval&#39;<span class=\"badge ok\">"
			       "complete</span>"));
	assert_non_null(strstr(html, "<title>kfdtrace report · sh -c &#39;train"));
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
	/* 10 ioctl kinds: the three with 10 calls or more have a histogram,
	 * the busiest first. */
	assert_int_equal(tc_count_str(html, "<div class=\"hist\">"), 3);
	assert_non_null(strstr(html, "<div class=\"hist\"><h3>GET_CLOCK_COUNTERS"
			       "</h3><div class=\"meta\">1000 calls · p50 500 µs "
			       "· p99 990 µs · max 1.00 ms</div>"));
	/* Memory legend with the high-water marks. */
	assert_non_null(strstr(html, "VRAM · peak 96.0 MiB"));
	assert_non_null(strstr(html, "VRAM · peak 256 MiB"));
	assert_non_null(strstr(html, "ms since the run&#39;s start") ||
			strstr(html, "ms since the run's start"));
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
	/* Not made by record: titled by its process, timed from its start. */
	assert_non_null(strstr(html, "<h1>test-analysis-report<span"));
	assert_non_null(strstr(html, "<dt>times count from</dt><dd>the first "
			       "trace&#39;s start</dd>"));
	free(html);
}

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

/*
 * One time origin: the run's start, 3 ms before train's trace began and
 * so 4 ms before its first record; the overview, the process table and
 * the failed calls all count from it, and the page says so.
 */
static void
test_one_origin(void **state)
{
	char *html = tc_read_file(tmp_path("rich.html"), NULL);
	char *from, *procs, *errs;

	(void)state;
	assert_non_null(html);
	from = between(html, "<dt>time span</dt><dd>", "</dd>");
	assert_non_null(from);
	assert_non_null(strstr(from, ", from +4.00 ms"));
	procs = between(html, "<section id=\"processes\">", "</section>");
	assert_non_null(procs);
	assert_non_null(strstr(procs, "<td class=\"num\">+4.00 ms</td>"));
	assert_non_null(strstr(html, "<dt>times count from</dt><dd>the run&#39;s "
			       "start"));
	/* The first failed ALLOC: 3 ms before the trace, then the main
	 * thread's calls; the same figure `dump` gives from the trace's
	 * start, plus 3 ms. */
	errs = between(html, "<section id=\"errors\">", "</section>");
	assert_non_null(errs);
	{
		struct tc_run res;
		const char *p;
		double dump_s, page_ms;
		char *t;

		RUN(&res, "dump", "--filter", "ALLOC_MEMORY_OF_GPU",
		    tmp_path("rich.kft"));
		p = strstr(res.out, "ENOMEM");
		assert_non_null(p);
		while (p > res.out && p[-1] != '\n')
			p--;
		assert_int_equal(sscanf(p, "[%*u] +%lf", &dump_s), 1);
		tc_run_free(&res);
		t = between(errs, "<td class=\"num\">+", "</td>");
		assert_non_null(t);
		page_ms = strtod(t, NULL);
		assert_non_null(strstr(t, " ms"));
		assert_true(page_ms > dump_s * 1000 + 3 - 0.01 &&
			    page_ms < dump_s * 1000 + 3 + 0.01);
		free(t);
	}
	free(errs);
	free(procs);
	free(from);
	free(html);
}

/*
 * The slowest calls: 20 rows, slowest first, the worker's 1000..981 us
 * calls; each call's text is `dump`'s for its record, and each row holds
 * the 8 records before it in sequence order.
 */
static void
test_outliers(void **state)
{
	char *html = tc_read_file(tmp_path("rich.html"), NULL);
	char *sec, key[64];
	struct tc_run dump;
	const char *p;
	unsigned long long ns, seq, prev = ~0ull;
	unsigned int tid;
	int i, k;

	(void)state;
	assert_non_null(html);
	sec = between(html, "<section id=\"outliers\">", "</section>");
	assert_non_null(sec);
	assert_int_equal(tc_count_str(sec, "<tr id=\"outlier-"), 20);
	RUN(&dump, "dump", "--seq", tmp_path("rich.kft"));
	assert_int_equal(dump.status, 0);
	for (i = 1, p = sec; i <= 20; i++) {
		char *row, *call, *line;
		const char *d;

		snprintf(key, sizeof(key), "<tr id=\"outlier-%d\"", i);
		p = strstr(p, key);
		assert_non_null(p);
		assert_int_equal(sscanf(p + strlen(key), " data-ns=\"%llu\" "
					"data-tid=\"%u\" data-seq=\"%llu\"", &ns,
					&tid, &seq), 3);
		/* 1000 us, 999 us, ...: sorted, and the right calls. */
		assert_int_equal(ns, (unsigned long long)(1001 - i) * 1000);
		assert_true(ns < prev);
		prev = ns;
		assert_int_equal(tid, GEN_WORKER_TID);
		/* The row up to the end of its list (a table of its own). */
		row = between(p, ">", "</details>");
		assert_non_null(row);
		call = between(row, "<td class=\"call mono\">", "<details");
		assert_non_null(call);
		assert_true(strncmp(call, "GET_CLOCK_COUNTERS(gpu_id=0x", 28) == 0);
		/* `dump --seq`'s line for the record: "#seq [tid] +t TEXT". */
		snprintf(key, sizeof(key), "\n#%llu [%u] +", seq, tid);
		d = strstr(dump.out, key);
		assert_non_null(d);
		d = strchr(d + strlen(key), ' ');
		assert_non_null(d);
		line = strndup(d + 1, strcspn(d + 1, "\n"));
		assert_string_equal(call, line);
		free(line);
		/* The 8 records before it, oldest first. */
		for (k = 8; k >= 1; k--) {
			snprintf(key, sizeof(key), "<td class=\"num mono\">#%llu"
				 "</td>", seq - (unsigned long long)k);
			assert_non_null(strstr(row, key));
		}
		/* Those 8 and the row's own seq. */
		assert_int_equal(tc_count_str(row, "<td class=\"num mono\">#"), 9);
		/* The first row's list is open. */
		assert_int_equal(strstr(row, "<details class=\"before\" open>") !=
				 NULL, i == 1);
		free(call);
		free(row);
	}
	tc_run_free(&dump);
	free(sec);
	free(html);
}

/*
 * Kinds under 10 calls are rows of one table, the threshold stated; each
 * kind is a histogram or a row, never both.
 */
static void
test_rare_kinds(void **state)
{
	static const char *const rare[] = {
		"GET_VERSION", "ACQUIRE_VM", "MAP_MEMORY_TO_GPU", "CREATE_QUEUE",
		"CREATE_EVENT", "DESTROY_QUEUE", "DESTROY_EVENT",
	};
	char *html = tc_read_file(tmp_path("rich.html"), NULL);
	char *table, want[96];
	size_t i;

	(void)state;
	assert_non_null(html);
	assert_non_null(strstr(html, "Kinds with fewer than 10 calls are rows "
			       "of one table below."));
	assert_non_null(strstr(html, "(7 kinds with fewer than 10 calls each)"));
	table = between(html, "<table class=\"rare\">", "</table>");
	assert_non_null(table);
	assert_int_equal(tc_count_str(table, "<tr><td class=\"mono\">"), 7);
	for (i = 0; i < sizeof(rare) / sizeof(rare[0]); i++) {
		snprintf(want, sizeof(want), "<tr><td class=\"mono\">%s</td>",
			 rare[i]);
		assert_non_null(strstr(table, want));
		snprintf(want, sizeof(want), "<div class=\"hist\"><h3>%s<",
			 rare[i]);
		assert_null(strstr(html, want));
	}
	/* GET_VERSION: one call of 12 us. */
	assert_non_null(strstr(table, "GET_VERSION</td><td class=\"num\">1</td>"
			       "<td class=\"num\">0</td><td class=\"num\">12.0 µs"
			       "</td>"));
	free(table);
	free(html);
}

/* The area under a strip's path (M, H, V and Z only), in px². */
static double
path_area(const char *d, double *base)
{
	double x = 0, y = 0, area = 0, v;
	char op;
	int n;

	assert_int_equal(sscanf(d, "M%lf %lf%n", &x, &y, &n), 2);
	*base = y;
	for (d += n; *d && *d != '"'; d += n) {
		assert_int_equal(sscanf(d, "%c%lf%n", &op, &v, &n) >= 1, 1);
		if (op == 'Z')
			break;
		if (op == 'H') {
			area += (v - x) * (*base - y);
			x = v;
		} else {
			assert_int_equal(op, 'V');
			y = v;
		}
	}
	return area;
}

/*
 * A strip per thread; the area a strip draws is its thread's time in
 * ioctls (within the rounding to half pixels); one path each.
 */
static void
test_strips(void **state)
{
	static const unsigned int tids[] = { GEN_MAIN_TID, GEN_WORKER_TID };
	char *html = tc_read_file(tmp_path("rich.html"), NULL);
	char *sec, want[96];
	double x0, x1, t0, t1, area, base, busy_px;
	unsigned long long busy;
	size_t i;

	(void)state;
	assert_non_null(html);
	sec = between(html, "<section id=\"driver\">", "</section>");
	assert_non_null(sec);
	assert_int_equal(tc_count_str(sec, "<svg class=\"chart driver\""), 1);
	assert_int_equal(tc_count_str(sec, "<g class=\"strip\""), 2);
	assert_int_equal(tc_count_str(sec, "<path "), 2);
	/* The chart spans the run's window: first to last record. */
	x0 = 150;
	x1 = 1160 - 16;
	{
		char *span = between(html, "<dt>time span</dt><dd>", " ms,");

		assert_non_null(span);
		t1 = strtod(span, NULL) * 1e6;
		t0 = 0;
		free(span);
	}
	for (i = 0; i < 2; i++) {
		const char *g, *d;

		snprintf(want, sizeof(want), "<g class=\"strip\" data-tid=\"%u\" "
			 "data-busy=\"", tids[i]);
		g = strstr(sec, want);
		assert_non_null(g);
		busy = strtoull(g + strlen(want), NULL, 10);
		d = strstr(g, "<path d=\"");
		assert_non_null(d);
		area = path_area(d + 9, &base);
		/* px² / strip height = px of full busy; a px is the span over
		 * the width. */
		busy_px = (double)busy / ((t1 - t0) / (x1 - x0));
		print_message("thread %u: busy %.1f px, drawn %.1f px\n",
			      tids[i], busy_px, area / 16);
		if (tids[i] == GEN_WORKER_TID)
			/* 500.5 ms of 1..1000 us calls: within 2%. */
			assert_true(area / 16 > busy_px * 0.98 &&
				    area / 16 < busy_px * 1.02);
		else
			/* A few short calls: each at least a pixel high. */
			assert_true(area > 0 && area / 16 >= busy_px);
	}
	assert_int_equal(busy, 500500000ull);
	free(sec);
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
		cmocka_unit_test(test_one_origin),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_rare_kinds),
		cmocka_unit_test(test_strips),
		cmocka_unit_test(test_stdout_damaged_usage),
		cmocka_unit_test(test_dir_and_force),
		cmocka_unit_test(test_one_call_thread),
	};

	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
