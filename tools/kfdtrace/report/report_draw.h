/* SPDX-License-Identifier: MIT */
/*
 * Small drawing and formatting helpers for the HTML report: escaping,
 * human-readable numbers, linear scales with round tick values, and the
 * colour of each heap. Everything appends to a kt_strbuf.
 */
#ifndef KFDTRACE_REPORT_DRAW_H
#define KFDTRACE_REPORT_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "core/objects.h"
#include "kfdtrace/decode.h"

/* A linear map from a data interval to a pixel interval. */
struct rd_scale {
	double d0, d1;		/* data */
	double r0, r1;		/* pixels */
};

/* rd_map() - the pixel position of data value @v (not clamped). */
double rd_map(const struct rd_scale *s, double v);

/*
 * rd_nice_step() - a round tick step (1, 2 or 5 times a power of ten)
 * giving at most about @max_ticks ticks over @span.
 */
double rd_nice_step(double span, int max_ticks);

/*
 * rd_escape() - append @s escaped for HTML: control bytes and bytes that
 * are not UTF-8 as the text \xNN (kfd_text_clean(), the rule of every
 * trace string shown), then &, <, >, " and ' as entities; so a page
 * declared UTF-8 is valid UTF-8 whatever a trace holds.
 */
void rd_escape(struct kt_strbuf *sb, const char *s);

/*
 * rd_call_text() - a decoded call line without its "[tid] +t " prefix,
 * for tables that show the thread and time in columns of their own.
 * Return: a pointer into @line (or @line when it has no such prefix).
 */
const char *rd_call_text(const char *line);

/* rd_bytes() - "512 B", "4.0 KiB", "1.50 GiB". Return: @buf. */
char *rd_bytes(char *buf, size_t size, uint64_t v);

/* rd_duration() - "850 ns", "2.1 µs", "9.89 ms", "1.20 s". Return: @buf. */
char *rd_duration(char *buf, size_t size, double ns);

/*
 * rd_count() - a count short enough for a chart label: exact below
 * 10,000, else three significant digits with k, M or G ("66.7k", "179k",
 * "1.00M"). Return: @buf.
 */
char *rd_count(char *buf, size_t size, uint64_t v);

/*
 * rd_text_width() - a generous estimate of the width of @s in pixels at
 * font size @px in the report's sans-serif font (DejaVu Sans's digits are
 * 0.64 em, its widest letters under 0.8 em), so margins sized from it
 * never clip a label.
 */
double rd_text_width(const char *s, double px);

/* rd_heap_color() - the fill colour of a heap ("#4e79a7"). */
const char *rd_heap_color(enum obj_heap heap);

/* The colour of queue bars. */
#define RD_QUEUE_COLOR "#e15759"
#define RD_EVENT_COLOR "#edc948"

/*
 * rd_time_axis() - vertical grid lines and labels along the bottom of a
 * chart, in milliseconds since @origin (ns).
 * @x:		the time scale (data in ns)
 * @top:	where grid lines start
 * @bottom:	the axis line; labels go below it
 */
void rd_time_axis(struct kt_strbuf *sb, const struct rd_scale *x,
		  uint64_t origin, double top, double bottom);

#endif /* KFDTRACE_REPORT_DRAW_H */
