/* SPDX-License-Identifier: MIT */
/*
 * The report's charts, each appended to a page as HTML with inline SVG.
 */
#ifndef KFDTRACE_REPORT_CHARTS_H
#define KFDTRACE_REPORT_CHARTS_H

#include "report_model.h"
#include "kfdtrace/decode.h"

/* report_timeline() - BO and queue lifetimes, one chart per GPU. */
void report_timeline(struct kt_strbuf *sb, const struct report_model *m);

/* report_memory() - live bytes per heap over time, one chart per GPU. */
void report_memory(struct kt_strbuf *sb, const struct report_model *m);

/* report_latency() - a latency histogram per ioctl kind, shared x axis. */
void report_latency(struct kt_strbuf *sb, const struct report_model *m);

#endif /* KFDTRACE_REPORT_CHARTS_H */
