/* SPDX-License-Identifier: MIT */
/*
 * The rocpd export (kfdtrace export --rocpd): a run as an SQLite database
 * in the schema of rocprofiler-sdk's rocpd (schema version 3), the format
 * ROCm 7's rocprofv3 writes. export_rocpd_schema.c makes the tables and
 * views; export_rocpd.c reads the run and fills them.
 *
 * One export is one rocpd "run": its own set of tables, each named with
 * the run's uuid as a suffix (rocpd_region_<uuid>), every row carrying
 * the run's guid. The unsuffixed names (rocpd_region, ...) are views: the
 * UNION ALL of every run's table. A second export into the same file adds
 * a run and widens the views, so ids repeat across runs and every join
 * pairs (id, guid), as rocpd's own views do.
 *
 * The driver (export_rocpd.c) reads records and makes calls, allocations
 * and processes; export_rocpd_rows.c holds the statements and the batched
 * rows (events, regions, arguments), strings and threads;
 * export_rocpd_gpu.c the agents, queues, kernels, dispatches and copies.
 */
#ifndef KFDTRACE_EXPORT_ROCPD_H
#define KFDTRACE_EXPORT_ROCPD_H

#include <stdint.h>

#include <sqlite3.h>

#include "core/objects.h"
#include "core/run.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/* A run's names: "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" and the suffix. */
struct rd_ids {
	char guid[40];
	char uuid[40];
	char suffix[40];		/* "_" + uuid with '_' for '-' */
};

/* rd_ids_new() - a fresh random guid and uuid. Return: 0, or -1. */
int rd_ids_new(struct rd_ids *ids);

/*
 * rd_schema_is_rocpd() - whether @db holds rocpd tables already.
 * Return: 1 yes, 0 no (an empty or foreign database), -1 on error.
 */
int rd_schema_is_rocpd(sqlite3 *db);

/*
 * rd_schema_create() - the run's tables and metadata rows, inside the
 * caller's transaction. Return: 0, or -1 (the message is in @db).
 */
int rd_schema_create(sqlite3 *db, const struct rd_ids *ids);

/*
 * rd_schema_views() - (re)make the unsuffixed views over every run in the
 * file, and the data views (processes, threads, regions, region_args,
 * kernels, memory_copies, memory_allocations) if missing.
 * Return: 0, or -1.
 */
int rd_schema_views(sqlite3 *db);

/* rd_exec() - run @sql (several statements). Return: 0, or -1. */
int rd_exec(sqlite3 *db, const char *sql);

enum rd_stmt {
	ST_EVENT, ST_REGION, ST_ARG, ST_ALLOC, ST_DISPATCH, ST_COPY, ST_STRING,
	ST_THREAD, ST_THREAD_END, ST_AGENT, ST_QUEUE, ST_SYMBOL, ST_ARGS,
	ST_EVENTS, ST_REGIONS, ST_COUNT
};

/* Events, regions and argument rows go in batches of this many, one
 * statement a batch. */
#define RD_ARG_BATCH 128


/* An event (with its region, if any) waiting for its batch. */
struct rd_event {
	int64_t id, category, seq;
	char ext[96];			/* extdata, "" for "{}" */
	int region;			/* a region follows: */
	int64_t tid, start, end, name;
};

/* An ioctl's argument field, waiting for its batch. */
struct rd_arg {
	int64_t event;
	unsigned int pos;
	const char *type, *name;	/* static: the schema's */
	char val[24];
};

/* One thread of the process being exported. */
struct rd_thread {
	int64_t id;			/* its row */
	int64_t end;
	char *name;
};

struct rd {
	sqlite3 *db;
	struct rd_ids ids;
	sqlite3_stmt *st[ST_COUNT];
	struct kc_u64map strings;	/* FNV-1a of a string -> its row */
	struct kc_u64map nodes;		/* FNV-1a of a host -> its row */
	struct kc_u64map ioctl_names;	/* request code -> its name's row */
	int64_t cat_ioctl, cat_api, cat_dispatch, cat_copy, name_submit;
	struct rd_arg args[RD_ARG_BATCH];
	unsigned int nargs;
	struct rd_event events[RD_ARG_BATCH];
	unsigned int nevents;
	int64_t last_event;		/* ids are ours: 1, 2, ... per run */
	int failed;			/* SQLite said no; the message printed */
	int oom;
	uint64_t regions, allocs, dispatches, copies;

	/* The process being exported. */
	struct cli_run_proc *rp;
	int64_t nid, pid, ppid;
	int64_t boot_off;		/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
	int64_t last;
	struct kc_u64map threads;	/* tid -> struct rd_thread */
	struct kc_u64map agents;	/* gpu_id -> agent row */
	struct kc_u64map queues;	/* gpu_id << 32 | queue_id -> row */
	struct kc_u64map symbols;	/* kernel_object -> symbol row */
	struct kc_u64map bo_va;		/* BO handle -> its GPU address */
	int64_t code_object;		/* the one code object row, or 0 */
	int have_topo;
	unsigned int nagents, ngpus, ncpus;
	struct obj_tracker objs;
};

static inline int64_t
rd_boot_ts(const struct rd *d, uint64_t mono)
{
	return (int64_t)mono + d->boot_off;
}

/* rd_fnv1a() - the FNV-1a hash of @s, the key of strings and hosts. */
uint64_t rd_fnv1a(const char *s);

/* rd_sql_fail() - say SQLite's error once and remember it. Return: -1. */
int rd_sql_fail(struct rd *d);

/* rd_prepare() - the run's statements and its categories' strings.
 * Return: 0, or -1 (said). */
int rd_prepare(struct rd *d);

/* rd_step() - insert the row whose columns are bound to statement @s.
 * Return: its id, or 0 (d->failed set). */
int64_t rd_step(struct rd *d, enum rd_stmt s);

/* rd_bind_i(), rd_bind_t() - bind column @col of @s; text must stay
 * valid until rd_step() (NULL binds NULL). */
void rd_bind_i(struct rd *d, enum rd_stmt s, int col, int64_t v);
void rd_bind_t(struct rd *d, enum rd_stmt s, int col, const char *v);

/* rd_string_id() - the rocpd_string row of @s, made on first use. */
int64_t rd_string_id(struct rd *d, const char *s);

/* rd_thread_id() - the thread row of @tid, made when first seen at @ts
 * (CLOCK_MONOTONIC), which also moves its end. */
int64_t rd_thread_id(struct rd *d, uint32_t tid, uint64_t ts);

/*
 * rd_event_add() - a new event (@extdata NULL: "{}"); rd_region_add()
 * gives the event just added its region. Both are written in batches
 * (rd_events_flush() writes what waits). Return: the event's id.
 */
int64_t rd_event_add(struct rd *d, int64_t category, uint64_t seq,
		     const char *extdata);
void rd_region_add(struct rd *d, int64_t tid, uint64_t start, uint64_t end,
		   int64_t name, int64_t event);
void rd_events_flush(struct rd *d);

/* rd_ioctl_args() - an ioctl's argument fields as rows of rocpd_arg for
 * @event, batched; rd_args_flush() writes what waits. */
void rd_ioctl_args(struct rd *d, const struct kt_ioctl_rec *io,
		   const struct kfd_ioctl_desc *desc, int64_t event);
void rd_args_flush(struct rd *d);

/* rd_agent_id() - the agent of @gpu_id (0: none, returns 0): the
 * topology's, else one made for it. */
int64_t rd_agent_id(struct rd *d, uint32_t gpu_id);

/* rd_topology() - the first TOPOLOGY record's nodes as agents. */
void rd_topology(struct rd *d, const struct kt_record *rec);

/* rd_submit_record() - a doorbell's AQL kernel dispatches and SDMA
 * linear copies as kernel dispatches and memory copies. */
void rd_submit_record(struct rd *d, const struct kt_record *rec);

#endif /* KFDTRACE_EXPORT_ROCPD_H */
