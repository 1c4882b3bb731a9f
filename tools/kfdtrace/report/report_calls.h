/* SPDX-License-Identifier: MIT */
/*
 * The report's sections about single calls and threads over time
 * (report_calls.c): each thread's time in the driver as a strip, and the
 * slowest calls of the run with the calls before each.
 */
#ifndef KFDTRACE_REPORT_CALLS_H
#define KFDTRACE_REPORT_CALLS_H

#include "report/report_run.h"
#include "kfdtrace/decode.h"

/*
 * Strips on a page at most (RM_STRIP_THREADS per process at most): past
 * it a line says how many threads have none.
 */
#define REPORT_MAX_STRIPS 64

/*
 * report_driver_time() - a strip per thread (the first RM_STRIP_THREADS
 * of each process, REPORT_MAX_STRIPS in all) on the run's time axis:
 * each pixel column as tall as the share of its time the thread spent in
 * ioctls. A strip is one path, whatever the number of calls.
 */
void report_driver_time(struct kt_strbuf *sb, const struct report_run *rr);

/*
 * report_outliers() - the RM_OUTLIERS slowest calls of the run, slowest
 * first: the decoded call, its thread and time, and the RM_BEFORE calls
 * its process made before it in a collapsible row (the first one open).
 */
void report_outliers(struct kt_strbuf *sb, const struct report_run *rr);

#endif /* KFDTRACE_REPORT_CALLS_H */
