/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the kfdtrace commands: opening traces with readable
 * errors, reporting how a trace ended, number parsing, copying records and
 * putting them back into sequence order.
 */
#ifndef KFDTRACE_CLI_H
#define KFDTRACE_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kfdtrace/trace.h"

/*
 * cli_open() - open a trace; on failure print "kfdtrace: PATH: reason".
 *
 * Return: 0, or -1.
 */
int cli_open(const char *path, struct kt_reader **out);

/*
 * cli_finish() - report how reading ended and choose the exit status.
 * @path:	the trace, for messages
 * @r:		the reader
 * @rc:		the last kt_reader_next() result (0, -KT_ETRUNC, ...)
 *
 * Prints a warning on stderr for a truncated, corrupt or END-less trace.
 *
 * Return: KFDTRACE_EXIT_OK for a complete trace (with or without END),
 * KFDTRACE_EXIT_ERROR for truncated, corrupt or unreadable ones.
 */
int cli_finish(const char *path, struct kt_reader *r, int rc);

/* cli_parse_u64() - a decimal or 0x-hex number. Return: 0, or -1. */
int cli_parse_u64(const char *s, uint64_t *out);

/*
 * cli_record_clone() - a deep copy of a record in one allocation (free()
 * it), so it outlives the reader's next call.
 *
 * Return: the copy, or NULL when memory ran out.
 */
struct kt_record *cli_record_clone(const struct kt_record *rec);

/*
 * Reordering: the writer appends each thread's records in bursts, so a
 * file holds per-thread runs whose sequence numbers interleave. The
 * reorder buffer keeps up to @window records in a min-heap by seq and
 * emits the smallest when the window is full, or at once when it is the
 * next expected number. Records more than @window positions late come
 * out of order (counted in @late).
 */
struct cli_reorder {
	struct kt_record **heap;
	size_t n;
	size_t cap;
	size_t window;
	uint64_t next;		/* the seq that may be emitted at once */
	uint64_t late;		/* records emitted out of order */
	int (*emit)(void *ctx, const struct kt_record *rec);
	void *ctx;
};

#define CLI_REORDER_WINDOW 65536

void cli_reorder_init(struct cli_reorder *ro, size_t window, uint64_t first,
		      int (*emit)(void *ctx, const struct kt_record *rec),
		      void *ctx);

/*
 * cli_reorder_push() - hand over one record (copied when it must wait).
 *
 * Return: 0, the emit callback's non-zero result (stop), or -1 when
 * memory ran out.
 */
int cli_reorder_push(struct cli_reorder *ro, const struct kt_record *rec);

/* cli_reorder_flush() - emit everything still held. Return: as push. */
int cli_reorder_flush(struct cli_reorder *ro);

/* cli_reorder_free() - drop held records without emitting them. */
void cli_reorder_free(struct cli_reorder *ro);

/*
 * cli_help_requested() - whether argv holds "--help" or "-h" before a
 * "--". Commands check it first so that help works with any other
 * arguments.
 */
int cli_help_requested(int argc, char **argv);

#endif /* KFDTRACE_CLI_H */
