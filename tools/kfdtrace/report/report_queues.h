/* SPDX-License-Identifier: MIT */
/* The report's queues section (report_queues.c). */
#ifndef KFDTRACE_REPORT_QUEUES_H
#define KFDTRACE_REPORT_QUEUES_H

#include "report/report_model.h"
#include "kfdtrace/decode.h"

/*
 * report_queues() - one process's queues: a track per queue with a tick
 * per doorbell, and a table; nothing without submit records. The caller
 * writes the section around it.
 */
void report_queues(struct kt_strbuf *sb, const struct report_model *m);

#endif
