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

#include "kfdtrace/common/u64map.h"
#include "kfdtrace/reorder.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/*
 * The exit statuses of every command (main() returns the command's; the
 * helpers here and the exporters return them too).
 */
enum kfdtrace_exit {
	KFDTRACE_EXIT_OK = 0,
	KFDTRACE_EXIT_ERROR = 1,	/* failed, or the trace is damaged */
	KFDTRACE_EXIT_USAGE = 2,	/* bad command line */
};

/*
 * The prefix of every message a command prints on stderr: "kfdtrace CMD"
 * once main() has picked the command, "kfdtrace" before.
 */
extern const char *cli_prefix;

/* cli_set_command() - make cli_prefix "kfdtrace @cmd". */
void cli_set_command(const char *cmd);

/* cli_err() - print "PREFIX: " and the formatted message, and a newline. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cli_try_help() - after a usage error: "PREFIX: see 'PREFIX --help'", so
 * that every line a command prints on stderr carries its prefix.
 */
void cli_try_help(void);

/* cli_warn() - as cli_err(), with "warning: " after the prefix. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The one overwrite rule of every command that writes a file or a
 * directory (docs/cli.md, "Outputs"). What stands at the path, a symbolic
 * link followed, decides:
 *
 *   nothing		created
 *   a regular file	refused unless --force (-f); with it, replaced
 *			only once the new file is whole (written beside it
 *			and renamed over it), so a failed command leaves
 *			the old one as it was
 *   a character device	written through, with or without --force, where
 *   or a FIFO		the output is a stream; refused where it must be a
 *			regular file (a trace) or a directory
 *   a directory	refused, except where the output is a directory:
 *			an empty one is used, one the command itself wrote
 *			(@ours) is replaced with --force
 *   anything else	refused (a block device, a socket)
 *   an input		refused, always: the same file as one of the
 *			command's inputs (through symbolic and hard links),
 *			a trace inside an input directory, an output
 *			directory that holds an input
 *
 * "-" is standard output, and so is a path that names the file standard
 * output already is (/dev/stdout, a shell's redirection). A trace or a
 * directory output refuses "-".
 */
enum cli_out_kind {
	CLI_OUT_STREAM,		/* written front to back (a page, a program) */
	CLI_OUT_TRACE,		/* a regular file only (created by name) */
	CLI_OUT_DIR,		/* a directory (export --ctf) */
};

/* What cli_out_check() found at an output's path. */
enum cli_out_state {
	CLI_OUT_NEW,		/* nothing, or an empty directory */
	CLI_OUT_REPLACE,	/* what --force replaces */
	CLI_OUT_THROUGH,	/* a character device or FIFO: written into */
	CLI_OUT_STDOUT,		/* standard output */
};

struct cli_out_rule {
	enum cli_out_kind kind;
	int force;
	/* The command's inputs as given: trace files and run directories. */
	char *const *ins;
	size_t nins;
	/*
	 * CLI_OUT_DIR: whether the directory @dir (not empty) is one the
	 * command wrote, which --force may replace; NULL: none is.
	 */
	int (*ours)(const char *dir);
};

/*
 * cli_out_check() - apply the rule to @path before any work is done, so
 * that an output that cannot be written fails at once. The command then
 * writes @path itself (or removes what it replaces, for a directory).
 *
 * Return: an enum cli_out_state, or -1 after printing why.
 */
int cli_out_check(const char *path, const struct cli_out_rule *rule);

/* A stream output that cli_out_open() started. */
struct cli_out {
	const char *path;	/* as given; NULL or "-" for standard output */
	char *target;		/* where the file goes (a link's target) */
	char *tmp;		/* the file being written, renamed at commit */
	FILE *f;
	int through;		/* a device or FIFO, written directly */
};

/*
 * cli_out_open() - check and start a CLI_OUT_STREAM output (@rule's kind
 * is not read), so that a path that cannot be created fails at once.
 *
 * Return: 0, or -1 after printing why.
 */
int cli_out_open(struct cli_out *o, const char *path,
		 const struct cli_out_rule *rule);

/*
 * cli_is_trace_name() - whether a directory entry @name is a trace a run
 * directory stands for: NAME.kfdtrace, or an older child name
 * (NAME.kfdtrace.<pid>[.exec<N>]), not hidden.
 */
int cli_is_trace_name(const char *name);

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
 * cli_index_for() - the item named (@tag, @key) in an array that @map
 * indexes: found, or appended (zeroed) at its end, so that a trace of a
 * million threads, kinds, heaps or queues finds each in constant time.
 * @v, @n, @cap:	the array of @size-byte items, its count and its
 *			room (doubled as needed)
 * @i:			set to the item's index
 *
 * Return: 1 found, 0 appended, -1 out of memory (nothing changed but
 * maybe the array's room).
 */
int cli_index_for(struct kc_u64map *map, uint32_t tag, uint64_t key, void **v,
		  size_t *n, size_t *cap, size_t size, size_t *i);

/*
 * cli_help_requested() - whether argv holds "--help" or "-h" before a
 * "--". Commands check it first so that help works with any other
 * arguments.
 */
int cli_help_requested(int argc, char **argv);

#endif /* KFDTRACE_CLI_H */
