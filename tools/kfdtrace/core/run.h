/* SPDX-License-Identifier: MIT */
/*
 * A run: the trace files one recording made, read as a unit.
 *
 * `kfdtrace record` writes one file per process (OUT.kfdtrace for the
 * first, OUT.<pid>.kfdtrace for each child, OUT[.<pid>].exec<N>.kfdtrace
 * after an exec), or, with `-o DIR/`, DIR/<pid>.kfdtrace for every
 * process. The analysis commands take any mix of files and directories:
 * a directory stands for the traces in it and in its subdirectories one
 * level down (one subdirectory per host of a multi-node job).
 *
 * The run orders its processes as a tree: by host, then parent before
 * child, siblings by start time. A process's parent is the process of the
 * same host whose pid is the header's ppid; one without is a root.
 */
#ifndef KFDTRACE_RUN_H
#define KFDTRACE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include <kfdtrace/trace.h>

/* One process's trace within a run. */
struct cli_run_proc {
	char *path;			/* as given, or DIR/NAME */
	char *host;			/* the subdirectory, else the header's host */
	char label[96];			/* "rocminfo[1234]", host-prefixed when a run spans hosts */
	struct kt_reader *r;
	const struct kt_header *hdr;	/* r's header */
	int parent;			/* index of the parent process, -1 for a root */
	unsigned int depth;		/* 0 for a root */
	int read_rc;			/* the last reader result the command saw */
};

struct cli_run {
	struct cli_run_proc *p;
	size_t n;
	size_t nhosts;			/* distinct hosts */
};

/*
 * cli_run_open() - open every trace that @paths name (files, or
 * directories as above) as one run. @cmd names the command in error
 * messages ("kfdtrace CMD: ..."). A file named twice is opened once.
 *
 * Return: 0, or -1 after printing why (a path that is missing or not a
 * trace, a directory with no traces, out of memory); @run is then empty.
 */
int cli_run_open(struct cli_run *run, char *const *paths, size_t npaths,
		 const char *cmd);

/*
 * cli_run_finish() - report each process's reading as cli_finish() does
 * (warnings for truncated, corrupt, damaged files) using its read_rc.
 *
 * Return: the worst exit status among them.
 */
int cli_run_finish(struct cli_run *run);

/* cli_run_close() - close every reader and free the run. */
void cli_run_close(struct cli_run *run);

/*
 * cli_run_merge - records of all of a run's processes in one time order.
 *
 * Each process's records come in the order cli_reorder gives (sequence
 * order within @window); across processes, the record with the smallest
 * timestamp goes first (ties: the earlier process in the run).
 */
struct cli_run_merge;

/* cli_run_merge_open() - start a merge at each file's beginning. Return: 0 or -ENOMEM. */
int cli_run_merge_open(struct cli_run *run, size_t window,
		       struct cli_run_merge **out);

/*
 * cli_run_merge_next() - the next record and the index of its process.
 * The record stays valid until the next call.
 *
 * Return: 1 with a record, 0 at the end of every file, or a negative
 * reader error for the first file that failed (its read_rc says the
 * same; the other files go on being merged on the next call).
 */
int cli_run_merge_next(struct cli_run_merge *m, const struct kt_record **rec,
		       size_t *proc);

/*
 * cli_run_merge_by_time() - put each file's records in timestamp order
 * (within the window) instead of sequence order, before the first
 * cli_run_merge_next(), so that the merged stream is in time order.
 */
void cli_run_merge_by_time(struct cli_run_merge *m);

/*
 * cli_run_merge_late() - how many records so far came out of order, over
 * every file (each file's reorder buffer counts its own: @late).
 */
uint64_t cli_run_merge_late(const struct cli_run_merge *m);

/* cli_run_merge_close() - free a merge. */
void cli_run_merge_close(struct cli_run_merge *m);

#endif
