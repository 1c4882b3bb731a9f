/* SPDX-License-Identifier: MIT */
/*
 * Exporting a trace as Chrome trace-event JSON, the format ui.perfetto.dev
 * and chrome://tracing open (docs/analysis.md describes the mapping).
 */
#ifndef KFDTRACE_EXPORT_PERFETTO_H
#define KFDTRACE_EXPORT_PERFETTO_H

#include <stddef.h>
#include <stdio.h>

#include "kfdtrace/trace.h"

/*
 * export_perfetto() - write every record of a trace as trace events.
 * @r:		an open reader, before its first record
 * @out:	where the JSON goes
 * @window:	records held to restore sequence order (0: the default)
 * @read_rc:	set to the last kt_reader_next() result, for cli_finish()
 *
 * The JSON is complete and valid even when the trace is damaged: it covers
 * the records before the damage, and otherData says how reading ended.
 *
 * Return: 0, -ENOMEM, or -EIO when writing @out failed.
 */
int export_perfetto(struct kt_reader *r, FILE *out, size_t window,
		    int *read_rc);

#endif /* KFDTRACE_EXPORT_PERFETTO_H */
