/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the kfdtrace commands: opening traces with readable
 * errors, reporting how a trace ended, the KFD ABI a trace used, number
 * parsing and putting records back into sequence order.
 */
#ifndef KFDTRACE_CLI_H
#define KFDTRACE_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kfdtrace/reorder.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/*
 * The prefix of every message a command prints on stderr: "kfdtrace CMD"
 * once main() has picked the command, "kfdtrace" before.
 */
extern const char *cli_prefix;

/* cli_set_command() - make cli_prefix "kfdtrace @cmd". */
void cli_set_command(const char *cmd);

/* cli_err() - print "PREFIX: " and the formatted message, and a newline. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_warn() - as cli_err(), with "warning: " after the prefix. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The one overwrite rule of every command that writes a file: an output
 * that exists is refused unless --force (-f) was given; with it, the new
 * file replaces the old one only once it is whole (written beside it and
 * renamed over it), so a failed command leaves the old file as it was.
 * "-" is standard output.
 */
struct cli_out {
	const char *path;	/* as given; NULL or "-" for standard output */
	char *tmp;		/* the file being written, renamed at commit */
	FILE *f;
	int is_dir;		/* cli_out_dir(): a directory */
};

/*
 * cli_out_open() - check and start an output file before any work is
 * done, so that a path that cannot be created fails at once.
 *
 * Return: 0, or -1 after printing why (exists without @force, cannot be
 * created).
 */
int cli_out_open(struct cli_out *o, const char *path, int force);

/*
 * cli_out_check() - the same checks for an output another component
 * writes itself (a directory or a file by name): @path must not exist
 * unless @force, and its directory must be writable.
 *
 * Return: 0, or -1 after printing why.
 */
int cli_out_check(const char *path, int force);

/*
 * cli_out_commit() - flush and close, then put the file in place.
 * @ok:	0 discards the file (the old one, if any, stays)
 *
 * Return: 0, or -1 after printing the write error.
 */
int cli_out_commit(struct cli_out *o, int ok);

/*
 * Progress on stderr for long commands, only when stderr is a terminal
 * (and KFDTRACE_PROGRESS is not 0; KFDTRACE_PROGRESS=1 forces it on).
 * At most about 10 updates a second, one line rewritten in place; the
 * clock is read every 1024th update (KFDTRACE_PROGRESS_EVERY=N: every
 * Nth, so that a test's small trace shows it too).
 */
struct cli_progress {
	int on;
	const char *what;
	uint64_t total;		/* bytes or records; 0 when unknown */
	uint64_t last_ns;
	uint64_t every;
};

/* cli_progress_start() - begin a progress line for @what out of @total. */
void cli_progress_start(struct cli_progress *p, const char *what,
			uint64_t total);

/* cli_progress_update() - show @done (cheap when it is not time to draw). */
void cli_progress_update(struct cli_progress *p, uint64_t done);

/* cli_progress_end() - clear the line. */
void cli_progress_end(struct cli_progress *p);

/*
 * cli_open() - open a trace; on failure print "PREFIX: PATH: reason".
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
 * Prints a warning on stderr for a damaged or END-less trace.
 *
 * Return: cli_status() of the read.
 */
int cli_finish(const char *path, struct kt_reader *r, int rc);

/*
 * cli_status() - the exit status of every reading command for a read whose
 * verdict is @v (kt_reader_verdict()) and last kt_reader_next() result @rc:
 * KFDTRACE_EXIT_ERROR for damage (truncated, corrupt, damaged, incomplete)
 * and for a read that failed, else KFDTRACE_EXIT_OK (a missing END record
 * included). The one rule docs/cli.md states.
 */
int cli_status(enum kt_integrity v, int rc);

/*
 * cli_get_version() - the KFD ABI version a successful GET_VERSION call
 * returned. Traces whose header says 0.0 (the capture library opens the
 * file before the program asks) still hold it this way.
 * @desc:	the schema row of @io (NULL for unknown requests)
 * @io:		an ioctl record
 *
 * Return: 1 with @major and @minor set, or 0 when @io is not a successful
 * GET_VERSION with a readable result.
 */
int cli_get_version(const struct kfd_ioctl_desc *desc,
		    const struct kt_ioctl_rec *io, uint32_t *major,
		    uint32_t *minor);

/* cli_parse_u64() - a decimal or 0x-hex number. Return: 0, or -1. */
int cli_parse_u64(const char *s, uint64_t *out);

/*
 * Reordering: the writer appends each thread's records in bursts, so a
 * file holds per-thread runs whose sequence numbers interleave. The
 * reorder buffer keeps up to @window records in a min-heap by seq and
 * emits the smallest when the window is full, or at once when it is the
 * next expected number. Records more than @window positions late come
 * out of order (counted in @late).
 *
 * The window is bounded in bytes too (CLI_REORDER_BYTES of record copies
 * by default): a record can be 16 MiB, so 65,536 of them would be 1 TiB.
 * Past the budget the smallest held records are released early, in
 * order, with one warning on stderr (counted in @early).
 *
 * In time order (@by_time) nothing is known to be next, and a record is
 * late by time, not by count: a call appended at its exit can have entered
 * long before (a preempted thread, a slow free). So a record also waits
 * until the file has reached CLI_REORDER_LAG_NS past its time (the latest
 * end of a call read so far, @end_max): the window then bounds only how
 * few records are held, the byte budget how many.
 */
/* A held copy (kt_record_clone_after()) with its allocation's size. */
struct cli_held {
	size_t bytes;
	/* Last: its pointers reach into the rest of the same allocation. */
	struct kt_record rec;
};

struct cli_reorder {
	/* cli_helds under seq or ts: kfdtrace/reorder.h's ordering buffer. */
	struct kt_heap heap;
	size_t window;
	size_t bytes;		/* held copies, in all */
	size_t max_bytes;	/* the byte budget */
	uint64_t next;		/* the seq that may be emitted at once */
	uint64_t late;		/* records emitted out of order */
	int by_time;		/* order by timestamp instead (set after init;
				 * @next then is the last time emitted) */
	uint64_t early;		/* released early for the byte budget */
	uint64_t end_max;	/* by time: the latest end read so far */
	int (*emit)(void *ctx, const struct kt_record *rec);
	void *ctx;
};

#define CLI_REORDER_WINDOW 65536
/* The largest --window the commands accept. */
#define CLI_REORDER_WINDOW_MAX (1u << 24)
/* In time order, how long past its time a record is held at least. */
#define CLI_REORDER_LAG_NS (2ull * 1000 * 1000 * 1000)
/* Bytes of record copies a reorder buffer holds at most. */
#define CLI_REORDER_BYTES ((size_t)256 << 20)

/*
 * cli_parse_window() - a --window value: a number from 1 to
 * CLI_REORDER_WINDOW_MAX.
 *
 * Return: 0, or -1 (@out untouched).
 */
int cli_parse_window(const char *s, uint64_t *out);

/*
 * cli_reorder_init() - an empty reorder buffer holding up to @window
 * records (0: 1) and CLI_REORDER_BYTES (ro->max_bytes may be changed
 * before the first push), expecting @first as the first seq, handing
 * records to @emit in order.
 */
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
