/* SPDX-License-Identifier: MIT */
/*
 * The report's sections over every process of a run (report_procs.c): the
 * process tree, failed calls, objects alive at exit and threads, each row
 * naming its process.
 */
#ifndef KFDTRACE_REPORT_PROCS_H
#define KFDTRACE_REPORT_PROCS_H

#include "report/report_run.h"
#include "kfdtrace/decode.h"

/* report_processes() - the process tree as a table and a lane per process. */
void report_processes(struct kt_strbuf *sb, const struct report_run *rr);

/* report_errors() - failed calls of every process in time order (the first
 * RM_MAX_ERRORS of each process are kept, with their decoded text). */
void report_errors(struct kt_strbuf *sb, const struct report_run *rr);

/* report_leaks() - objects never released, process by process. */
void report_leaks(struct kt_strbuf *sb, const struct report_run *rr);

/*
 * Rows of the threads table at most: past it a line says how many more
 * threads there are, so that a trace of a million threads stays a page a
 * browser opens (`kfdtrace stats` lists every thread).
 */
#define REPORT_MAX_THREADS 1000

/* report_threads() - each thread (the first REPORT_MAX_THREADS of the run,
 * process by process): calls, failures, time in calls, span. */
void report_threads(struct kt_strbuf *sb, const struct report_run *rr);

#endif
