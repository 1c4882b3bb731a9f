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
 */
#ifndef KFDTRACE_EXPORT_ROCPD_H
#define KFDTRACE_EXPORT_ROCPD_H

#include <sqlite3.h>

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

#endif /* KFDTRACE_EXPORT_ROCPD_H */
