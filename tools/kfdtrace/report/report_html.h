/* SPDX-License-Identifier: MIT */
/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script,
 * no fonts or images from anywhere) built from a report model.
 */
#ifndef KFDTRACE_REPORT_HTML_H
#define KFDTRACE_REPORT_HTML_H

#include "report/report_run.h"
#include "kfdtrace/decode.h"

/*
 * report_html() - append the whole page about a run (one process or
 * several).
 *
 * Return: 0, or -ENOMEM when @sb could not grow.
 */
int report_html(struct kt_strbuf *sb, const struct report_run *rr);

/*
 * report_integrity() - a trace's integrity as a word ("complete",
 * "truncated", ...) and its badge class ("ok", "warn", "bad").
 */
const char *report_integrity(const struct report_model *m, const char **cls);

#endif /* KFDTRACE_REPORT_HTML_H */
