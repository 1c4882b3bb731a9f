/* SPDX-License-Identifier: MIT */
/*
 * The report's latency histograms: one per ioctl kind, quarter-decade
 * bins on one shared x axis, a count axis each (logarithmic for long
 * tails), p50 and p99 markers.
 */
#include <stdio.h>

#include "report/report_charts.h"
#include "report/report_draw.h"

/* Pixel position of @ns on a histogram spanning bins [b0, b1). */
static double
lat_x(double ns, unsigned int b0, unsigned int b1, double left, double width)
{
	unsigned int i = 0;
	double lo = rm_lat_bin_lo(0), hi = rm_lat_bin_lo(1), pos;

	while (i + 1 < RM_LAT_BINS && ns >= hi) {
		i++;
		lo = hi;
		hi = rm_lat_bin_lo(i + 1);
	}
	/* Linear inside a quarter decade: close enough for a marker. */
	pos = i + (ns - lo) / (hi - lo);
	if (pos < b0)
		pos = b0;
	if (pos > b1)
		pos = b1;
	return left + (pos - b0) * width / (b1 - b0);
}

/* Labels of the bin edges that start a decade: bins / 4 + 1 of them. */
static const char *const decade_label[RM_LAT_BINS / RM_LAT_BINS_PER_DECADE +
				       1] = {
	"100 ns", "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s",
	"10 s", "100 s",
};

/* Count axis of one histogram: linear, or log when the tail would vanish. */
struct count_axis {
	double top, bottom;
	double ymax;
	int log;
};

/* log10(1 + v) without libm: digits, then a short series. */
static double
log1p10(double v)
{
	double x = 1 + v, r = 0, t, t2, sum = 0;
	int k;

	while (x >= 10) {
		x /= 10;
		r += 1;
	}
	/* ln(x) = 2 atanh((x-1)/(x+1)), x in [1, 10). */
	t = (x - 1) / (x + 1);
	t2 = t * t;
	for (k = 0; k < 40; k++) {
		sum += t / (2 * k + 1);
		t *= t2;
	}
	return r + 2 * sum / 2.302585092994046;
}

static double
count_y(const struct count_axis *a, double v)
{
	double f = a->log ? log1p10(v) / log1p10(a->ymax) : v / a->ymax;

	return a->bottom - f * (a->bottom - a->top);
}

/* The widest count label of a histogram, for the shared left margin. */
static double
count_label_width(uint64_t ymax)
{
	char t[32];

	snprintf(t, sizeof(t), "%llu", (unsigned long long)ymax);
	return rd_text_width(t, 11);
}

static void
histogram(struct kt_strbuf *sb, const struct rm_kind *k, unsigned int b0,
	  unsigned int b1, double left)
{
	const double w = 340, h = 120, bottom = 96, top = 8;
	const double width = w - left - 24;
	double bw = width / (b1 - b0);
	struct count_axis ca = { .top = top, .bottom = bottom, .ymax = 1 };
	uint64_t ymax = 1, ymin = 0;
	char p50[32], p99[32], mx[32];
	unsigned int i;

	for (i = b0; i < b1; i++) {
		if (k->bins[i] > ymax)
			ymax = k->bins[i];
		if (k->bins[i] && (!ymin || k->bins[i] < ymin))
			ymin = k->bins[i];
	}
	ca.ymax = (double)ymax;
	/* A bin 100 times smaller than the tallest is under a pixel high
	 * on a linear axis: the tail a latency histogram is read for. */
	ca.log = ymin && ymax >= 100 * ymin;
	kt_strbuf_puts(sb, "<div class=\"hist\"><h3>");
	rd_escape(sb, k->name);
	kt_strbuf_printf(sb, "</h3><div class=\"meta\">%llu call%s",
			 (unsigned long long)k->count, k->count == 1 ? "" : "s");
	if (k->failed)
		kt_strbuf_printf(sb, " · <span class=\"fail\">%llu failed</span>",
				 (unsigned long long)k->failed);
	if (k->nlat)
		kt_strbuf_printf(sb, " · p50 %s · p99 %s · max %s",
				 rd_duration(p50, sizeof(p50), (double)
					     rm_percentile(k->lat, k->nlat, 500)),
				 rd_duration(p99, sizeof(p99), (double)
					     rm_percentile(k->lat, k->nlat, 990)),
				 rd_duration(mx, sizeof(mx),
					     (double)k->lat[k->nlat - 1]));
	kt_strbuf_printf(sb, "</div><svg class=\"chart lat%s\" viewBox=\"0 0 %.0f "
			 "%.0f\" role=\"img\" aria-label=\"latency of %s\">",
			 ca.log ? " log" : "", w, h, k->name);
	/* The tallest bin's count, exact, at the top of the axis. */
	kt_strbuf_printf(sb, "<text class=\"ymax\" x=\"%.1f\" y=\"%.1f\" "
			 "text-anchor=\"end\">%llu</text><line x1=\"%.1f\" "
			 "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eef0f3\"/>",
			 left - 4, top + 4, (unsigned long long)ymax, left, top,
			 left + width, top);
	if (ca.log) {
		uint64_t v;

		/* Powers of ten below it, where they do not crowd it. */
		for (v = 1; v < ymax; v *= 10) {
			double py = count_y(&ca, (double)v);

			if (py - top < 14)
				break;
			kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
					 "text-anchor=\"end\" class=\"axis-label\">"
					 "%llu</text><line x1=\"%.1f\" y1=\"%.1f\" "
					 "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eef0f3\"/>",
					 left - 4, py + 3, (unsigned long long)v,
					 left, py, left + width, py);
		}
	}
	for (i = b0; i < b1; i++) {
		double by = count_y(&ca, (double)k->bins[i]);
		char lo[32], hi[32];

		if (!k->bins[i])
			continue;
		kt_strbuf_printf(sb, "<rect class=\"hbar\" x=\"%.1f\" y=\"%.1f\" "
				 "width=\"%.1f\" height=\"%.1f\" rx=\"1.5\">"
				 "<title>%llu call%s between %s and %s</title>"
				 "</rect>",
				 left + (i - b0) * bw + 1, by, bw - 2,
				 bottom - by, (unsigned long long)k->bins[i],
				 k->bins[i] == 1 ? "" : "s",
				 rd_duration(lo, sizeof(lo), rm_lat_bin_lo(i)),
				 rd_duration(hi, sizeof(hi),
					     rm_lat_bin_lo(i + 1)));
	}
	kt_strbuf_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			 "y2=\"%.1f\" stroke=\"#9ca3af\"/>",
			 left, bottom, left + width, bottom);
	for (i = b0; i <= b1; i++) {
		if (i % RM_LAT_BINS_PER_DECADE)
			continue;
		kt_strbuf_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				 "y2=\"%.1f\" stroke=\"#9ca3af\"/>"
				 "<text x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"middle\">%s</text>",
				 left + (i - b0) * bw, bottom,
				 left + (i - b0) * bw, bottom + 4,
				 left + (i - b0) * bw, bottom + 16,
				 decade_label[i / RM_LAT_BINS_PER_DECADE]);
	}
	if (k->nlat) {
		double x50 = lat_x((double)rm_percentile(k->lat, k->nlat, 500),
				   b0, b1, left, width);
		double x99 = lat_x((double)rm_percentile(k->lat, k->nlat, 990),
				   b0, b1, left, width);

		kt_strbuf_printf(sb, "<line class=\"p50\" x1=\"%.1f\" y1=\"%.1f\" "
				 "x2=\"%.1f\" y2=\"%.1f\"/><line class=\"p99\" "
				 "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				 "y2=\"%.1f\"/>",
				 x50, top, x50, bottom, x99, top, x99, bottom);
	}
	kt_strbuf_puts(sb, "</svg></div>");
}

/* Kinds called too rarely for a histogram: a row each. */
static void
rare_table(struct kt_strbuf *sb, const struct rm_kind *kinds, size_t nkinds)
{
	char a[32], b[32], c[32];
	size_t k;

	if (!nkinds)
		return;
	kt_strbuf_printf(sb, "<h3 class=\"gpu\">Rare ioctls <span class=\"dim\">"
			 "(%zu kinds with fewer than %u calls each)</span></h3>"
			 "<table class=\"rare\"><thead><tr><th>ioctl</th>"
			 "<th class=\"num\">calls</th><th class=\"num\">failed"
			 "</th><th class=\"num\">fastest</th><th class=\"num\">"
			 "median</th><th class=\"num\">slowest</th></tr></thead>"
			 "<tbody>", nkinds, REPORT_RARE_CALLS);
	for (k = 0; k < nkinds; k++) {
		const struct rm_kind *r = &kinds[k];

		kt_strbuf_puts(sb, "<tr><td class=\"mono\">");
		rd_escape(sb, r->name);
		kt_strbuf_printf(sb, "</td><td class=\"num\">%llu</td>"
				 "<td class=\"num%s\">%llu</td>",
				 (unsigned long long)r->count,
				 r->failed ? " fail" : "",
				 (unsigned long long)r->failed);
		if (r->nlat)
			kt_strbuf_printf(sb, "<td class=\"num\">%s</td>"
					 "<td class=\"num\">%s</td>"
					 "<td class=\"num\">%s</td></tr>",
					 rd_duration(a, sizeof(a),
						     (double)r->lat[0]),
					 rd_duration(b, sizeof(b), (double)
						     rm_percentile(r->lat,
								   r->nlat,
								   500)),
					 rd_duration(c, sizeof(c), (double)
						     r->lat[r->nlat - 1]));
		else
			kt_strbuf_puts(sb, "<td class=\"num\">—</td><td "
				       "class=\"num\">—</td><td class=\"num\">"
				       "—</td></tr>");
	}
	kt_strbuf_puts(sb, "</tbody></table>");
}

void
report_latency(struct kt_strbuf *sb, const struct rm_kind *kinds,
	       size_t nkinds)
{
	unsigned int b0 = RM_LAT_BINS, b1 = 0, i;
	double left = 30, lw;
	size_t k, nrare = 0, all = nkinds;

	/* Kinds come most called first: the rare ones are the tail. */
	while (nkinds && kinds[nkinds - 1].count < REPORT_RARE_CALLS) {
		nkinds--;
		nrare++;
	}

	/* One x range for every histogram, so they compare at a glance. */
	for (k = 0; k < nkinds; k++) {
		for (i = 0; i < RM_LAT_BINS; i++) {
			if (!kinds[k].bins[i])
				continue;
			if (i < b0)
				b0 = i;
			if (i + 1 > b1)
				b1 = i + 1;
		}
	}
	if (b0 >= b1) {
		if (!nrare)
			kt_strbuf_puts(sb, "<p class=\"empty\">No timed "
				       "ioctls.</p>");
		rare_table(sb, kinds + nkinds, nrare);
		return;
	}
	/* Whole decades, at least two, read best. */
	b0 -= b0 % RM_LAT_BINS_PER_DECADE;
	b1 += (RM_LAT_BINS_PER_DECADE - b1 % RM_LAT_BINS_PER_DECADE) %
	      RM_LAT_BINS_PER_DECADE;
	if (b1 - b0 < 2 * RM_LAT_BINS_PER_DECADE)
		b1 = b0 + 2 * RM_LAT_BINS_PER_DECADE;
	if (b1 > RM_LAT_BINS) {
		b1 = RM_LAT_BINS;
		b0 = b1 - 2 * RM_LAT_BINS_PER_DECADE;
	}
	/* One left margin, wide enough for the largest count in full. */
	for (k = 0; k < nkinds; k++) {
		uint64_t ymax = 1;

		for (i = b0; i < b1; i++)
			if (kinds[k].bins[i] > ymax)
				ymax = kinds[k].bins[i];
		lw = count_label_width(ymax) + 8;
		if (lw > left)
			left = lw;
	}
	kt_strbuf_puts(sb, "<div class=\"legend\"><span><span class=\"sw\" "
		       "style=\"background:#4e79a7\"></span>calls per "
		       "quarter decade</span><span><span class=\"ln p50\">"
		       "</span>p50</span><span><span class=\"ln p99\"></span>"
		       "p99</span></div><div class=\"grid\">");
	for (k = 0; k < nkinds; k++)
		histogram(sb, &kinds[k], b0, b1, left);
	kt_strbuf_puts(sb, "</div>");
	rare_table(sb, kinds + nkinds, all - nkinds);
}
