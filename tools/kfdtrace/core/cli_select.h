/* SPDX-License-Identifier: MIT */
/*
 * Choosing records by name, outcome, thread and time: the selection
 * options `kfdtrace dump` and `kfdtrace export` share (--filter [!]NAME,
 * --failed, --tid, --time A..B), parsed and matched in one place so the
 * commands agree on what they select.
 */
#ifndef KFDTRACE_CLI_SELECT_H
#define KFDTRACE_CLI_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/* One side of --filter: the names it lists, or the !NAMEs. */
struct cli_names {
	int active;
	uint32_t types;			/* bit per enum kt_rec_type */
	int unknown_ioctls;		/* "unknown-ioctl" */
	const struct kfd_ioctl_desc **descs;
	size_t ndescs;
};

#define CLI_SELECT_MAX_TIDS 64

struct cli_select {
	struct cli_names in, out;	/* NAME, !NAME */
	int failed;			/* --failed */
	uint32_t tids[CLI_SELECT_MAX_TIDS];	/* --tid */
	unsigned int ntids;
	uint32_t pids[CLI_SELECT_MAX_TIDS];	/* --pid: whole files of a run */
	unsigned int npids;
	int timed;			/* --time A..B */
	uint64_t t0, t1;		/* ns since the trace's start */
};

/*
 * cli_select_filter() - add a --filter list: comma-separated ioctl names,
 * event names, record types or "unknown-ioctl", each optionally prefixed
 * by '!' to leave those out; case-insensitive.
 *
 * Return: 0, or -1 after printing why (cli_err()).
 */
int cli_select_filter(struct cli_select *s, const char *list);

/*
 * cli_select_ioctls() - check a record --only/--except list: ioctl names
 * as --filter takes them (schema or event names, case-insensitive) and
 * "unknown-ioctl", comma-separated. A name the schema does not know is
 * refused with the nearest one ("did you mean").
 * @opt:	the option, for messages
 * @out:	set to the list in the schema's spelling (free() it)
 *
 * Return: 0, or -1 after printing why (cli_err()).
 */
int cli_select_ioctls(const char *opt, const char *list, char **out);

/*
 * cli_select_nearest() - the known name nearest to @word, for "did you
 * mean": an ioctl's name or event name, "unknown-ioctl", and with @types
 * the record types.
 *
 * Return: the name, or NULL when none is near enough.
 */
const char *cli_select_nearest(const char *word, int types);

/* cli_select_tids() - add a --tid list (N[,N...]). Return: 0, or -1 (said). */
int cli_select_tids(struct cli_select *s, const char *list);

/* cli_select_pids() - add a --pid list (N[,N...]). Return: 0, or -1 (said). */
int cli_select_pids(struct cli_select *s, const char *list);

/*
 * cli_select_pid() - whether the records of process @pid (a run's file:
 * its header's pid) are selected: always, without --pid.
 */
int cli_select_pid(const struct cli_select *s, int pid);

/*
 * cli_select_time() - set --time A..B, seconds since the trace's start
 * (either side may be empty). Return: 0, or -1 (said).
 */
int cli_select_time(struct cli_select *s, const char *range);

/* cli_select_active() - whether any option narrowed the selection. */
int cli_select_active(const struct cli_select *s);

/*
 * cli_select_match() - whether @rec is selected; @start_ns is the time
 * --time counts from (the trace's, or a run's, start_monotonic).
 */
int cli_select_match(const struct cli_select *s, const struct kt_record *rec,
		     uint64_t start_ns);

/* cli_select_in_time() - whether @ts is within --time (always, without). */
int cli_select_in_time(const struct cli_select *s, uint64_t ts,
		       uint64_t start_ns);

/* cli_record_failed() - whether @rec is a call that failed (strace -Z). */
int cli_record_failed(const struct kt_record *rec);

/* cli_select_release() - free what the parsers allocated. */
void cli_select_release(struct cli_select *s);

#endif /* KFDTRACE_CLI_SELECT_H */
