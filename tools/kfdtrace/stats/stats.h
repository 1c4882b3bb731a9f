/* SPDX-License-Identifier: MIT */
/*
 * What the parts of kfdtrace stats share (private to tools/kfdtrace):
 * the accumulated statistics (stats_acc.c), the sorted views and
 * summaries both outputs print (stats_summary.c), the text tables
 * (stats_text.c) and the --json object (stats_json.c). cmd_stats.c parses
 * the command line and runs one process or a whole run through them.
 */
#ifndef KFDTRACE_STATS_H
#define KFDTRACE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "core/cli.h"
#include "core/run.h"
#include "core/objects.h"
#include "stats/stats_submit.h"
#include "core/obj_val.h"
#include "kfdtrace/topology.h"
#include "kfdtrace/schema.h"

/* Unknown requests are kept apart per request code, up to this many. */
#define MAX_UNKNOWN_KINDS 256

struct errno_count {
	int32_t err;
	uint64_t count;
};

struct ioctl_stat {
	const char *name;		/* schema name, or NULL */
	uint32_t request;		/* the row's code, or the unknown one */
	uint64_t count;
	uint64_t errors;
	struct errno_count *errnos;
	size_t nerrnos;
	uint64_t *lat;			/* ns, one per call with a t_exit */
	size_t nlat, caplat;
};

/* Per-ioctl statistics of the whole trace, one thread or one GPU. */
struct stat_group {
	uint64_t key;			/* tid or gpu_id */
	struct ioctl_stat *per_row;	/* one per schema row */
	struct ioctl_stat *unknown;	/* MAX_UNKNOWN_KINDS, on first use */
	size_t nunknown;
	uint64_t ioctls, failed;
	uint64_t busy_ns;		/* time spent inside ioctls */
};

/* Groups by key, in order of first appearance. */
struct group_set {
	struct stat_group **v;
	size_t n, cap;
	struct kc_u64map index;		/* key -> position in v (val.size) */
};

struct thread_name {
	uint32_t tid;
	char *name;
};

struct stats {
	const struct kfd_ioctl_desc *rows;
	unsigned int nrows;
	struct stat_group all;
	struct errno_count *errnos;	/* all ioctls */
	size_t nerrnos;
	uint64_t records;
	/* Ioctls record --only/--except left out (END records' count). */
	uint64_t left_out;
	struct obj_tracker objs;

	int by_thread, by_gpu;
	struct group_set threads, gpus;
	struct thread_name *names;	/* latest name per thread */
	size_t nnames, capnames;
	struct kc_u64map name_of;	/* tid -> index in names */
	struct kt_topo topo;	/* from the first TOPOLOGY record */
	int have_topo;
	struct sub_stats subs;	/* submit records, per queue */
	int run_only;		/* the whole run's: ioctls and errors only */
	int oom;
};

struct lat_summary {
	uint64_t min, p50, p90, p99, p999, max;
};

/* stats_acc.c: accumulation. */

/* Set up @s empty, with @like's by_thread and by_gpu. Return: 0, or -1
 * when out of memory. */
int stats_init(struct stats *s, const struct stats *like);
/* Release everything @s holds. */
void stats_free(struct stats *s);
/* Read one process's file @p in sequence order (@window records held)
 * into @s and, unless NULL, @run. Return: the reader's last result, or
 * -ENOMEM. */
int stats_read(struct cli_run_proc *p, size_t window, struct stats *s,
	       struct stats *run);
/* The latest name of thread @tid, or NULL. */
const char *stats_thread_name(const struct stats *s, uint64_t tid);

/* stats_summary.c: the sorted views and summaries both outputs print. */

/* qsort() of possibly empty (NULL) arrays, which qsort itself forbids. */
void stats_sort_any(void *base, size_t n, size_t size,
		    int (*cmp)(const void *, const void *));
/* Errno counts, most frequent first. */
int stats_cmp_errno(const void *a, const void *b);
/* GPUs in id order, the "no GPU" group (0) last. */
int stats_cmp_gpu_group(const void *a, const void *b);
/* Sort @st's latencies and summarize them into @l (all 0 without any). */
void stats_lat_summarize(struct ioctl_stat *st, struct lat_summary *l);
/* The errno's name, or "errno N" in @buf. */
const char *stats_errno_label(int32_t err, char *buf, size_t size);
/* The row's schema name, or "ioctl 0x..." in @buf. */
const char *stats_row_label(const struct ioctl_stat *st, char *buf,
			    size_t size);
/* Every kind @g called into @v (room for nrows + MAX_UNKNOWN_KINDS), in a
 * stable order: schema rows, unknowns. Return: how many. */
size_t stats_collect(const struct stats *s, struct stat_group *g,
		     struct ioctl_stat **v);

/* stats_text.c: the text tables on stdout; @v is scratch as above. */

/* One process's (or a single file's) report. */
void stats_report_text(struct stats *s, struct ioctl_stat **v);
/* The whole run's section: totals, the per-ioctl table, errors and one
 * line per process (@procs, one per cr->p). */
void stats_report_run_text(struct stats *run, struct ioctl_stat **v,
			   const struct cli_run *cr, struct stats *procs);

/* stats_json.c: the --json object. */

/* Append @s as one JSON object to @out. */
void stats_report_json(struct kt_strbuf *out, struct stats *s,
		       struct ioctl_stat **v);

#endif
