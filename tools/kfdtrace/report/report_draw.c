/* SPDX-License-Identifier: MIT */
/*
 * Drawing and formatting helpers for the HTML report.
 */
#include <stdio.h>
#include <string.h>

#include "kfdtrace/decode.h"
#include "report/report_draw.h"

double
rd_map(const struct rd_scale *s, double v)
{
	if (s->d1 == s->d0)
		return s->r0;
	return s->r0 + (v - s->d0) * (s->r1 - s->r0) / (s->d1 - s->d0);
}

double
rd_nice_step(double span, int max_ticks)
{
	double step = 1e-9, raw;

	if (span <= 0 || max_ticks < 1)
		return 1;
	raw = span / max_ticks;
	while (step * 10 <= raw)
		step *= 10;
	while (step > raw * 10)
		step /= 10;
	if (step >= raw)
		return step;
	if (step * 2 >= raw)
		return step * 2;
	if (step * 5 >= raw)
		return step * 5;
	return step * 10;
}

const char *
rd_call_text(const char *line)
{
	const char *p = line;

	if (*p != '[' || !(p = strchr(p, ' ')) || !(p = strchr(p + 1, ' ')))
		return line;
	return p + 1;
}

void
rd_escape(struct kt_strbuf *sb, const char *s)
{
	struct kt_strbuf clean;
	const char *p, *run;

	/* The terminal's rule first: no control bytes, only UTF-8. */
	kt_strbuf_init(&clean);
	kfd_text_clean(&clean, s, strlen(s));
	if (clean.failed) {
		sb->failed = 1;
		kt_strbuf_release(&clean);
		return;
	}
	p = run = clean.data ? clean.data : "";
	for (; *p; p++) {
		const char *rep;

		switch (*p) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		kt_strbuf_append(sb, run, (size_t)(p - run));
		kt_strbuf_puts(sb, rep);
		run = p + 1;
	}
	kt_strbuf_append(sb, run, (size_t)(p - run));
	kt_strbuf_release(&clean);
}

/* Three significant digits of @v in @unit. */
static char *
sig3(char *buf, size_t size, double v, const char *unit)
{
	snprintf(buf, size, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" :
		 "%.0f %s", v, unit);
	return buf;
}

char *
rd_bytes(char *buf, size_t size, uint64_t v)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double d = (double)v;
	int u = -1;

	if (v < 1024) {
		snprintf(buf, size, "%llu B", (unsigned long long)v);
		return buf;
	}
	while (d >= 1024 && u < 4) {
		d /= 1024;
		u++;
	}
	return sig3(buf, size, d, unit[u]);
}

char *
rd_duration(char *buf, size_t size, double ns)
{
	if (ns < 1000) {
		snprintf(buf, size, "%.0f ns", ns);
		return buf;
	}
	if (ns < 999.5e3)
		return sig3(buf, size, ns / 1e3, "µs");
	if (ns < 999.5e6)
		return sig3(buf, size, ns / 1e6, "ms");
	return sig3(buf, size, ns / 1e9, "s");
}

char *
rd_count(char *buf, size_t size, uint64_t v)
{
	static const char *const unit[] = { "k", "M", "G", "T" };
	double d = (double)v;
	int u = -1;

	if (v < 10000) {
		snprintf(buf, size, "%llu", (unsigned long long)v);
		return buf;
	}
	/* Round first, so 999,999 reads 1.00M and not 1000k. */
	while (u < 3 && d >= 999.5) {
		d /= 1000;
		u++;
	}
	snprintf(buf, size, d < 9.995 ? "%.2f%s" : d < 99.95 ? "%.1f%s" :
		 "%.0f%s", d, unit[u]);
	return buf;
}

double
rd_text_width(const char *s, double px)
{
	double w = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c & 0xc0) == 0x80)
			continue;	/* a UTF-8 continuation byte */
		if (c >= '0' && c <= '9')
			w += 0.66;
		else if (c == ' ' || c == '.' || c == ',' || c == ':' ||
			 c == 'i' || c == 'l' || c == '[' || c == ']' ||
			 c == '(' || c == ')')
			w += 0.40;
		else if (c >= 'A' && c <= 'Z')
			w += 0.78;
		else
			w += 0.66;
	}
	return w * px;
}

const char *
rd_heap_color(enum obj_heap heap)
{
	/* Tableau 10: distinct, readable on white, kind to colour blindness. */
	static const char *const colors[OBJ_HEAP_COUNT] = {
		[OBJ_HEAP_VRAM] = "#4e79a7",
		[OBJ_HEAP_GTT] = "#f28e2b",
		[OBJ_HEAP_USERPTR] = "#59a14f",
		[OBJ_HEAP_DOORBELL] = "#b07aa1",
		[OBJ_HEAP_MMIO] = "#9c755f",
		[OBJ_HEAP_IMPORT] = "#76b7b2",
		[OBJ_HEAP_OTHER] = "#bab0ac",
	};

	return heap < OBJ_HEAP_COUNT ? colors[heap] : "#bab0ac";
}

void
rd_time_axis(struct kt_strbuf *sb, const struct rd_scale *x, uint64_t origin,
	     double top, double bottom)
{
	double lo = (x->d0 - (double)origin) / 1e6;
	double hi = (x->d1 - (double)origin) / 1e6;
	double step = rd_nice_step(hi - lo, 8), v;
	int decimals = 0;
	double s;

	for (s = step; s < 1 && decimals < 6; s *= 10)
		decimals++;
	kt_strbuf_printf(sb, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" "
			 "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#9ca3af\"/>",
			 x->r0, bottom, x->r1, bottom);
	for (v = (double)(long long)(lo / step) * step; v <= hi + step * 1e-9;
	     v += step) {
		double px;

		if (v < lo - step * 1e-9)
			continue;
		px = rd_map(x, v * 1e6 + (double)origin);
		kt_strbuf_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				 "y2=\"%.1f\" stroke=\"#eef0f3\"/>"
				 "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				 "y2=\"%.1f\" stroke=\"#9ca3af\"/>"
				 "<text x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"middle\">%.*f</text>",
				 px, top, px, bottom, px, bottom, px,
				 bottom + 4, px, bottom + 16, decimals, v);
	}
	kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			 "class=\"axis-label\">ms since the run's start</text></g>",
			 x->r1, bottom + 30);
}
