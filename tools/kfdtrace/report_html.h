/* SPDX-License-Identifier: MIT */
/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script,
 * no fonts or images from anywhere) built from a report model.
 */
#ifndef KFDTRACE_REPORT_HTML_H
#define KFDTRACE_REPORT_HTML_H

#include "report_model.h"
#include "kfdtrace/decode.h"

/*
 * report_html() - append the whole page.
 * @trace_name:	the trace file's name, shown in the footer
 *
 * Return: 0, or -ENOMEM when @sb could not grow.
 */
int report_html(struct kt_strbuf *sb, const struct report_model *m,
		const char *trace_name);

#endif /* KFDTRACE_REPORT_HTML_H */
