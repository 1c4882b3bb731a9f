/* SPDX-License-Identifier: MIT */
/*
 * The report's charts, each appended to a page as HTML with inline SVG.
 */
#ifndef KFDTRACE_REPORT_CHARTS_H
#define KFDTRACE_REPORT_CHARTS_H

#include "report/report_model.h"
#include "kfdtrace/decode.h"

/* report_timeline() - BO and queue lifetimes, one chart per GPU. */
void report_timeline(struct kt_strbuf *sb, const struct report_model *m);

/* report_memory() - live bytes per heap over time, one chart per GPU. */
void report_memory(struct kt_strbuf *sb, const struct report_model *m);

/*
 * A kind with fewer calls than this has a row in one table instead of a
 * histogram: a histogram of a few calls says nothing its numbers do not.
 */
#define REPORT_RARE_CALLS 10

/*
 * report_latency() - a latency histogram per ioctl kind (@kinds, most
 * called first), on a shared x axis, then one table of the kinds with
 * fewer than REPORT_RARE_CALLS calls; the count axis turns logarithmic
 * when a bin is under a hundredth of the tallest, and the tallest bin's
 * count is written in full.
 */
void report_latency(struct kt_strbuf *sb, const struct rm_kind *kinds,
		    size_t nkinds);

#endif /* KFDTRACE_REPORT_CHARTS_H */
