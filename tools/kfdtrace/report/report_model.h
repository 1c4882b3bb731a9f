/* SPDX-License-Identifier: MIT */
/*
 * What `kfdtrace report` shows, gathered in one pass over a trace: header
 * facts, topology, object lifetimes, memory over time, latencies per ioctl
 * kind, failed calls and the objects alive at the end. The HTML writer
 * (report_html.c) only formats this model.
 */
#ifndef KFDTRACE_REPORT_MODEL_H
#define KFDTRACE_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/cli.h"
#include "core/objects.h"
#include "stats/stats_submit.h"
#include "kfdtrace/topology.h"
#include "kfdtrace/trace.h"

/* Failed calls kept with their decoded text; the rest are only counted. */
#define RM_MAX_ERRORS 200

/* The slowest calls kept with their decoded text, and how many calls
 * before each one are kept with it. */
#define RM_OUTLIERS 20
#define RM_BEFORE 8

/*
 * Time in the driver per thread: busy ns in RM_STRIP_BINS equal bins that
 * double in width as the thread's calls reach further, for the first
 * RM_STRIP_THREADS threads of a process; so the strips cost the same on
 * a million calls or a million threads.
 */
#define RM_STRIP_BINS 512
#define RM_STRIP_THREADS 32
#define RM_STRIP_BIN0_NS 1000

/* Latency histogram bins: four per decade from 100 ns to 100 s. */
#define RM_LAT_BIN_MIN_NS 100.0
#define RM_LAT_BINS_PER_DECADE 4
#define RM_LAT_BINS (9 * RM_LAT_BINS_PER_DECADE)

enum rm_what { RM_BO, RM_QUEUE, RM_EVENT };

/* The lifetime of one BO, queue or event. */
struct rm_span {
	uint64_t t0, t1;		/* ns; t1 = the trace's end if leaked */
	uint64_t key;			/* handle, queue_id or event_id */
	uint64_t size;			/* bytes (BOs) */
	uint64_t seq;			/* the creating record */
	uint32_t gpu_id;		/* BOs and queues */
	uint16_t kind;			/* heap, queue type or event type */
	uint8_t what;			/* enum rm_what */
	uint8_t leaked;			/* still alive at the end */
};

struct rm_point {
	uint64_t t;			/* ns */
	uint64_t live;			/* bytes after the change */
};

/* Live bytes of one GPU and heap over time. */
struct rm_series {
	uint32_t gpu_id;
	enum obj_heap heap;
	struct rm_point *pts;
	size_t n, cap;
	uint64_t peak;
};

/* Calls and latencies of one ioctl kind. */
struct rm_kind {
	char name[32];			/* schema name or "ioctl 0x%08x" */
	uint32_t request;
	uint8_t known;			/* a schema row's: request is its own */
	uint64_t count, failed;
	uint64_t *lat;			/* ns */
	size_t nlat, cap;
	uint64_t bins[RM_LAT_BINS];
};

struct rm_error {
	uint64_t seq, ts;
	uint32_t tid;
	int32_t err;
	char name[32];
	char *text;			/* the decoded record */
};

struct rm_thread {
	uint32_t tid;
	char name[64];
	uint64_t ioctls, failed;
	uint64_t busy_ns;		/* the sum of its ioctls' durations */
	uint64_t first, last;		/* ns: its first record's start to the
					 * last end of a call it made */
};

/* Busy ns of one thread in equal bins (see RM_STRIP_BINS). */
struct rm_strip {
	uint64_t t0, ns;		/* the first bin's start, a bin's width;
					 * ns 0: no call yet */
	uint64_t bins[RM_STRIP_BINS];
};

/* One ioctl in brief: the calls before an outlier. */
struct rm_call {
	uint64_t seq, ts, dur;		/* ns; dur is entry to exit */
	uint32_t tid;
	int32_t ret, err;
	char name[32];
};

/* One of the slowest calls. */
struct rm_outlier {
	struct rm_call call;
	char *text;			/* decoded, as `kfdtrace dump` prints it */
	char thread[64];		/* the thread's name then, or "" */
	struct rm_call before[RM_BEFORE];	/* oldest first */
	unsigned int nbefore;
};

struct report_model {
	struct kt_header hdr;
	struct kt_reader_status status;
	int read_rc;			/* the last kt_reader_next() result */
	struct kt_topo topo;
	int have_topo;
	uint32_t abi_major, abi_minor;	/* from GET_VERSION, else header */
	uint64_t t_first, t_last;	/* ns, over all records but END */
	/*
	 * The time window the charts draw and their zero (ns): the trace's
	 * own, or the whole run's when the model is one process of a run
	 * (report_run_build() sets them), so that processes line up.
	 */
	uint64_t view_t0, view_t1, origin;
	uint64_t records, ioctls, failed;
	uint64_t per_type[KT_REC_TYPE_MAX];
	int end_seen;

	struct rm_span *spans;
	size_t nspans, capspans;
	struct rm_series *series;
	size_t nseries, capseries;
	struct rm_kind *kinds;
	size_t nkinds, capkinds;
	struct rm_error *errors;
	size_t nerrors;
	struct rm_thread *threads;	/* in order of their first record */
	size_t nthreads, capthreads;
	size_t nleaks;			/* spans with leaked set */
	/*
	 * The RM_OUTLIERS slowest calls, slowest first (a min-heap while
	 * building), and the last RM_BEFORE calls seen (a ring).
	 */
	struct rm_outlier *outliers;
	size_t noutliers;
	struct rm_call ring[RM_BEFORE];
	uint64_t nring;
	/* Time in ioctls of threads[i], for i < RM_STRIP_THREADS. */
	struct rm_strip *strips[RM_STRIP_THREADS];

	struct obj_tracker objs;
	struct sub_stats subs;		/* submit records per queue, with times */
	struct kc_u64map span_of;	/* creating seq -> span index */
	/*
	 * While building: a thread's, a kind's (rm_kind_key()) and a
	 * series' index, so that each record finds its own in constant
	 * time whatever the number of threads, kinds or GPUs.
	 */
	struct kc_u64map thread_of, kind_of, series_of;
	int oom;
};

/*
 * report_model_build() - read a whole trace into a model.
 * @r:		an open reader, before its first record
 * @window:	records held to restore sequence order (0: the default)
 * @prog:	a progress line to update with the records read, or NULL
 *
 * A damaged trace yields a model of the records before the damage, with
 * m->status and m->read_rc saying what happened.
 *
 * Return: 0, or -ENOMEM.
 */
int report_model_build(struct report_model *m, struct kt_reader *r,
		       size_t window, struct cli_progress *prog);

/* report_model_release() - free everything the model holds. */
void report_model_release(struct report_model *m);

/* qsort() orders shared by a process's model and a run's: latencies
 * ascending; ioctl kinds most called first, ties by name (stable). */
int rm_cmp_u64(const void *a, const void *b);
int rm_cmp_kind(const void *a, const void *b);

/* rm_cmp_outlier() - the slowest call first, ties by sequence. */
int rm_cmp_outlier(const void *a, const void *b);

/*
 * rm_kind_key() - the (tag, key) that names a kind in a map: a schema
 * row (@known) by its request, an unknown request by its own; one for
 * each name, as struct rm_kind's known and request fields hold them.
 */
static inline uint64_t
rm_kind_key(uint8_t known, uint32_t request, uint32_t *tag)
{
	*tag = known;
	return request;
}

/*
 * rm_strip_busy() - the busy ns of a thread between @t0 and @t1 (ns),
 * from its strip @s, a bin's time spread evenly over it.
 */
double rm_strip_busy(const struct rm_strip *s, uint64_t t0, uint64_t t1);

/*
 * rm_time_origin() - the zero of a trace's times: the run's start when
 * `kfdtrace record` made it (header run_start), else the trace's start.
 */
uint64_t rm_time_origin(const struct kt_header *h);

/* rm_lat_bin_lo() - the lower edge of histogram bin @i, in ns. */
double rm_lat_bin_lo(unsigned int i);

/* rm_percentile() - nearest-rank percentile (permille) of sorted samples. */
uint64_t rm_percentile(const uint64_t *v, size_t n, unsigned int permille);

#endif /* KFDTRACE_REPORT_MODEL_H */
