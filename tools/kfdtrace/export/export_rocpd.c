/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export --rocpd: the driver (export_rocpd.h). Each process of
 * the run is read in sequence order on its own, and its records become
 * rows of one rocpd run:
 *  - the host a node, the trace a process, every thread seen a thread;
 *  - the topology's nodes agents (CPU and GPU) of the process;
 *  - every ioctl a region (category KFD_IOCTL) named by its ioctl, with
 *    an event (correlation_id: the record's seq) and its argument
 *    struct's fields as args; API calls regions of category HSAKMT_API;
 *  - BOs allocated, imported and freed, and SVM ranges set, memory
 *    allocations (REAL for BOs, VIRTUAL for SVM) sharing the call's event;
 *  - captured AQL kernel dispatches kernel dispatches, and SDMA linear
 *    copies memory copies, on a queue per KFD queue. A submit record
 *    holds when the doorbell rang, not when the GPU ran the packet: start
 *    and end are both that time.
 * Times are CLOCK_BOOTTIME ns, rocprofv3's clock: the trace's
 * CLOCK_MONOTONIC stamps moved by the header's two start times.
 *
 * Memory is bounded by the run's threads, GPUs, queues, kernels and live
 * BOs; rows go straight to SQLite in one transaction.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/objects.h"
#include "core/run.h"
#include "export/export.h"
#include "export/export_rocpd.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/kfd_abi.h"

static void
alloc_add(struct rd *d, int64_t tid, const struct kt_record *rec,
	  uint64_t end, uint32_t gpu_id, const char *type, const char *level,
	  uint64_t addr, uint64_t size, int64_t event)
{
	rd_bind_i(d, ST_ALLOC, 1, d->nid);
	rd_bind_i(d, ST_ALLOC, 2, d->pid);
	rd_bind_i(d, ST_ALLOC, 3, tid);
	if (gpu_id)
		rd_bind_i(d, ST_ALLOC, 4, rd_agent_id(d, gpu_id));
	else
		sqlite3_bind_null(d->st[ST_ALLOC], 4);
	rd_bind_t(d, ST_ALLOC, 5, type);
	rd_bind_t(d, ST_ALLOC, 6, level);
	rd_bind_i(d, ST_ALLOC, 7, rd_boot_ts(d, rec->ts));
	rd_bind_i(d, ST_ALLOC, 8, rd_boot_ts(d, end));
	rd_bind_i(d, ST_ALLOC, 9, (int64_t)addr);
	rd_bind_i(d, ST_ALLOC, 10, (int64_t)size);
	rd_bind_i(d, ST_ALLOC, 11, event);
	rd_step(d, ST_ALLOC);
	d->allocs++;
}

/* BOs made and freed, and SVM ranges set, by a successful call. */
static void
allocations(struct rd *d, const struct kt_record *rec,
	    const struct kfd_ioctl_desc *desc, uint64_t end, int64_t tid,
	    int64_t event)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct obj_change ch[OBJ_MAX_CHANGES];
	uint64_t va, size, op;
	unsigned int n, i;

	n = obj_tracker_ioctl(&d->objs, rec, desc, ch);
	for (i = 0; i < n; i++) {
		if (ch[i].kind == OBJ_BO_NEW) {
			if (obj_arg_get(desc, "va_addr", io->arg_before,
					io->arg_size, &va))
				va = 0;
			if (kc_u64map_put64(&d->bo_va, 0, ch[i].key, va))
				d->oom = 1;
			alloc_add(d, tid, rec, end, ch[i].val.gpu_id, "ALLOC",
				  "REAL", va, ch[i].val.size, event);
		} else if (ch[i].kind == OBJ_BO_GONE) {
			/* A handle that came back from an allocation was
			 * freed unseen (a capture's thread order): reclaimed,
			 * not a FREE the process made. */
			va = 0;
			kc_u64map_get64(&d->bo_va, 0, ch[i].key, &va);
			kc_u64map_del(&d->bo_va, 0, ch[i].key, NULL);
			alloc_add(d, tid, rec, end, ch[i].val.gpu_id,
				  desc == d->objs.free_mem ? "FREE" : "RECLAIM",
				  "REAL", va, ch[i].val.size, event);
		}
	}
	if (desc && io->ret >= 0 && strcmp(desc->name, "SVM") == 0 &&
	    !obj_arg_get(desc, "op", io->arg_before, io->arg_size, &op) &&
	    op == KFD_ABI_SVM_OP_SET_ATTR &&
	    !obj_arg_get(desc, "start_addr", io->arg_before, io->arg_size,
			 &va) &&
	    !obj_arg_get(desc, "size", io->arg_before, io->arg_size, &size))
		alloc_add(d, tid, rec, end, 0, "ALLOC", "VIRTUAL", va, size,
			  event);
}

static void
ioctl_record(struct rd *d, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_ioctl_desc *desc = kt_ioctl_row(io);
	uint64_t end = kt_record_end(rec);
	int64_t tid = rd_thread_id(d, rec->tid, end), event;
	char name[32], ext[96];
	const char *en;

	uint64_t name_id;

	/* The name's string row, by request code (kept per run). */
	if (!kc_u64map_get64(&d->ioctl_names, 0, io->request, &name_id)) {
		if (desc)
			snprintf(name, sizeof(name), "%s", desc->name);
		else
			snprintf(name, sizeof(name), "ioctl 0x%08x",
				 io->request);
		name_id = (uint64_t)rd_string_id(d, name);
		if (kc_u64map_put64(&d->ioctl_names, 0, io->request, name_id))
			d->oom = 1;
	}
	if (io->ret < 0) {
		en = kfd_errno_name(io->err);
		snprintf(ext, sizeof(ext), "{\"ret\":%" PRId64 ",\"errno\":"
			 "\"%s\"}", io->ret, en ? en : "unknown");
	}
	event = rd_event_add(d, d->cat_ioctl, rec->seq,
			     io->ret < 0 ? ext : NULL);
	rd_region_add(d, tid, rec->ts, end, (int64_t)name_id, event);
	rd_ioctl_args(d, io, desc, event);
	allocations(d, rec, desc, end, tid, event);
}

static void
api_record(struct rd *d, const struct kt_record *rec)
{
	uint64_t end = kt_record_end(rec);
	int64_t tid = rd_thread_id(d, rec->tid, end), event;

	event = rd_event_add(d, d->cat_api, rec->seq, NULL);
	rd_region_add(d, tid, rec->ts, end,
		   rd_string_id(d, rec->u.api.name ? rec->u.api.name : "api"),
		   event);
	rd_bind_i(d, ST_ARG, 1, event);
	rd_bind_i(d, ST_ARG, 2, 0);
	rd_bind_t(d, ST_ARG, 3, "const char*");
	rd_bind_t(d, ST_ARG, 4, "args");
	rd_bind_t(d, ST_ARG, 5, rec->u.api.args ? rec->u.api.args : "");
	rd_step(d, ST_ARG);
}

static int
rd_emit(void *ctx, const struct kt_record *rec)
{
	struct rd *d = ctx;
	struct rd_thread *t;
	int64_t end = rd_boot_ts(d, kt_record_end(rec));

	if (rec->type != KT_REC_END && end > d->last)
		d->last = end;
	switch (rec->type) {
	case KT_REC_IOCTL:
		ioctl_record(d, rec);
		break;
	case KT_REC_API_CALL:
		api_record(d, rec);
		break;
	case KT_REC_SUBMIT:
		rd_submit_record(d, rec);
		break;
	case KT_REC_TOPOLOGY:
		rd_topology(d, rec);
		break;
	case KT_REC_THREAD_NAME:
		rd_thread_id(d, rec->tid, rec->ts);
		t = kc_u64map_get(&d->threads, 0, rec->tid);
		if (t && rec->u.thread_name.name) {
			free(t->name);
			t->name = strdup(rec->u.thread_name.name);
		}
		break;
	case KT_REC_END:
	case KT_REC_MEMORY:
		break;
	default:
		obj_tracker_record(&d->objs, rec);
		break;
	}
	return d->failed || d->oom || d->objs.oom ? -1 : 0;
}

/* The node row of @host, made on first use. */
static int64_t
node_id(struct rd *d, const struct kt_header *h, const char *host)
{
	uint64_t key = rd_fnv1a(host) & INT64_MAX, id;
	char *sql;

	if (kc_u64map_get64(&d->nodes, 0, key, &id))
		return (int64_t)id;
	/* No machine-id is traced: the host name stands for it. */
	sql = sqlite3_mprintf("INSERT INTO \"rocpd_info_node%s\" (hash, "
			      "machine_id, system_name, hostname, release) "
			      "VALUES (%lld, %Q, 'Linux', %Q, %Q)",
			      d->ids.suffix, (long long)key, host, host,
			      h->kernel_release);
	if (!sql || rd_exec(d->db, sql))
		return rd_sql_fail(d), 0;
	sqlite3_free(sql);
	id = (uint64_t)sqlite3_last_insert_rowid(d->db);
	if (kc_u64map_put64(&d->nodes, 0, key, id))
		d->oom = 1;
	return (int64_t)id;
}

static int
process_begin(struct rd *d, struct cli_run_proc *rp)
{
	const struct kt_header *h = rp->hdr;
	char cmd[sizeof(h->cmdline) + 1];
	sqlite3_stmt *st;
	char *sql;
	uint32_t i, n = h->cmdline_len < sizeof(h->cmdline) ?
			h->cmdline_len : sizeof(h->cmdline);

	for (i = 0; i < n; i++)
		cmd[i] = h->cmdline[i] ? h->cmdline[i] : ' ';
	while (n && cmd[n - 1] == ' ')
		n--;
	cmd[n] = '\0';
	d->rp = rp;
	d->boot_off = h->start_boottime ? (int64_t)(h->start_boottime -
						    h->start_monotonic) : 0;
	d->last = rd_boot_ts(d, h->start_monotonic);
	d->ppid = h->ppid;
	d->nid = node_id(d, h, rp->host && rp->host[0] ? rp->host : h->host);
	sql = sqlite3_mprintf("INSERT INTO \"rocpd_info_process%s\" (nid, "
			      "ppid, pid, init, start, command, extdata) VALUES "
			      "(?, ?, ?, ?, ?, ?, json_object('exe', ?, "
			      "'label', ?, 'kfd_abi', ?, 'producer', ?))",
			      d->ids.suffix);
	if (!sql || sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		return rd_sql_fail(d);
	}
	sqlite3_free(sql);
	sqlite3_bind_int64(st, 1, d->nid);
	sqlite3_bind_int64(st, 2, h->ppid);
	sqlite3_bind_int64(st, 3, h->pid);
	sqlite3_bind_int64(st, 4, rd_boot_ts(d, h->start_monotonic));
	sqlite3_bind_int64(st, 5, rd_boot_ts(d, h->start_monotonic));
	sqlite3_bind_text(st, 6, cmd[0] ? cmd : h->exe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, h->exe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, rp->label, -1, SQLITE_TRANSIENT);
	sql = sqlite3_mprintf("%u.%u", h->kfd_major, h->kfd_minor);
	sqlite3_bind_text(st, 9, sql ? sql : "", -1, SQLITE_TRANSIENT);
	sqlite3_free(sql);
	sqlite3_bind_text(st, 10, h->producer, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		return rd_sql_fail(d);
	}
	sqlite3_finalize(st);
	d->pid = sqlite3_last_insert_rowid(d->db);
	obj_tracker_init(&d->objs);
	kc_u64map_init(&d->threads, sizeof(struct rd_thread));
	kc_u64map_init(&d->agents, 8);
	kc_u64map_init(&d->queues, 8);
	kc_u64map_init(&d->symbols, 8);
	kc_u64map_init(&d->bo_va, 8);
	d->code_object = 0;
	d->have_topo = 0;
	d->nagents = d->ngpus = d->ncpus = 0;
	return 0;
}

/* The process's end times, its threads' ends and names; free its state. */
static void
process_end(struct rd *d)
{
	struct kc_u64map_slot *s;
	size_t pos = 0;
	char *sql;

	rd_events_flush(d);
	rd_args_flush(d);
	while ((s = kc_u64map_next(&d->threads, &pos))) {
		struct rd_thread *t = (struct rd_thread *)(void *)s->val;

		if (!d->failed) {
			rd_bind_i(d, ST_THREAD_END, 1, t->end);
			rd_bind_t(d, ST_THREAD_END, 2, t->name);
			rd_bind_i(d, ST_THREAD_END, 3, t->id);
			rd_step(d, ST_THREAD_END);
		}
		free(t->name);
	}
	sql = sqlite3_mprintf("UPDATE \"rocpd_info_process%s\" SET end = %lld, "
			      "fini = %lld WHERE id = %lld", d->ids.suffix,
			      (long long)d->last, (long long)d->last,
			      (long long)d->pid);
	if (!d->failed && (!sql || rd_exec(d->db, sql)))
		rd_sql_fail(d);
	sqlite3_free(sql);
	obj_tracker_release(&d->objs);
	kc_u64map_free(&d->threads);
	kc_u64map_free(&d->agents);
	kc_u64map_free(&d->queues);
	kc_u64map_free(&d->symbols);
	kc_u64map_free(&d->bo_va);
}

static int
export_proc(struct rd *d, struct cli_run_proc *rp, size_t window)
{
	struct cli_progress prog;
	struct cli_reorder ro;
	struct kt_record rec;
	uint64_t n = 0;
	int rc, err = 0;

	if (process_begin(d, rp))
		return -1;
	cli_reorder_init(&ro, window ? window : CLI_REORDER_WINDOW, 0, rd_emit,
			 d);
	cli_progress_start(&prog, rp->label, 0);
	while ((rc = kt_reader_next(rp->r, &rec)) == 1) {
		cli_progress_update(&prog, ++n);
		if (cli_reorder_push(&ro, &rec))
			break;
	}
	cli_progress_end(&prog);
	if (rc == 1 || cli_reorder_flush(&ro))
		err = -1;
	cli_reorder_free(&ro);
	rp->read_rc = rc == 1 ? 0 : rc;
	process_end(d);
	if (d->oom || d->objs.oom)
		cli_err("out of memory");
	return err || d->failed || d->oom ? -1 : 0;
}

/*
 * Open @dest: a new database, or a rocpd one to add a run to; anything
 * else is refused unless @force replaces it. *@created says whether the
 * file is ours to remove on failure.
 */
static int
open_db(struct rd *d, const char *dest, int force, int *created)
{
	struct stat sb;
	int exists = stat(dest, &sb) == 0, r;

	if (exists && force && S_ISREG(sb.st_mode) && unlink(dest)) {
		cli_err("%s: %s", dest, strerror(errno));
		return -1;
	}
	exists = exists && !force;
	*created = !exists;
	if (sqlite3_open_v2(dest, &d->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		cli_err("%s: %s", dest, d->db ? sqlite3_errmsg(d->db) :
			"out of memory");
		return -1;
	}
	r = rd_schema_is_rocpd(d->db);
	if (r < 0 || (exists && !r && sb.st_size > 0)) {
		cli_err("%s: not a rocpd database (-f replaces it)", dest);
		*created = 0;
		return -1;
	}
	/*
	 * One transaction, no syncs: a failure leaves an existing file as it
	 * was (its journal holds the few pages a new run changes), and a
	 * new file is removed. A new file needs no journal at all. The page
	 * cache is bounded (32 MiB), so memory does not grow with the run.
	 */
	if (rd_exec(d->db, "PRAGMA synchronous = OFF; "
		    "PRAGMA cache_size = -32768") ||
	    (!exists && rd_exec(d->db, "PRAGMA journal_mode = OFF")) ||
	    rd_exec(d->db, "BEGIN IMMEDIATE"))
		return rd_sql_fail(d);
	return 0;
}

int
kfdtrace_export_rocpd(char *const *traces, size_t ntraces, const char *dest,
		      const struct kfdtrace_export_opts *o)
{
	struct rd d = { 0 };
	struct cli_run run = { 0 };
	int created = 0, err = 0, status, i;
	size_t k;

	if (strcmp(dest, "-") == 0) {
		cli_err("--rocpd writes a database file, not standard output");
		return KFDTRACE_EXIT_USAGE;
	}
	for (k = 0; k < ntraces; k++)
		if (strcmp(traces[k], dest) == 0) {
			cli_err("%s: is an input", dest);
			return KFDTRACE_EXIT_USAGE;
		}
	if (cli_run_open(&run, traces, ntraces, "export"))
		return KFDTRACE_EXIT_ERROR;
	/*
	 * SQLite's page cache comes and goes in page-sized blocks; with
	 * glibc's default trimming the heap's top is given back and faulted
	 * in again thousands of times, which cost most of an export's time.
	 * Keep what was freed (the cache is bounded anyway).
	 */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	/* One thread uses SQLite: no mutex around every call (a sixth of
	 * the time otherwise), no memory statistics. Refused, harmlessly,
	 * once SQLite is initialized. */
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	kc_u64map_init(&d.strings, 8);
	kc_u64map_init(&d.nodes, 8);
	kc_u64map_init(&d.ioctl_names, 8);
	if (rd_ids_new(&d.ids)) {
		cli_err("no random numbers for the run's guid");
		err = -1;
	}
	if (!err && open_db(&d, dest, o->force, &created))
		err = -1;
	if (!err && (rd_schema_create(d.db, &d.ids) || rd_prepare(&d)))
		err = rd_sql_fail(&d);
	for (k = 0; k < run.n && !err; k++)
		err = export_proc(&d, &run.p[k], o->window);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(d.st[i]);
	if (!err && (rd_schema_views(d.db) || rd_exec(d.db, "COMMIT")))
		err = rd_sql_fail(&d);
	if (err && d.db)
		rd_exec(d.db, "ROLLBACK");
	if (d.db && sqlite3_close(d.db) != SQLITE_OK && !err)
		err = -1;
	if (err && created)
		unlink(dest);
	if (err) {
		status = KFDTRACE_EXIT_ERROR;
	} else {
		status = cli_run_finish(&run);
		if (o->verbose)
			cli_err("wrote %s: run %s, %zu process%s, %" PRIu64
				" regions, %" PRIu64 " allocations, %" PRIu64
				" dispatches, %" PRIu64 " copies", dest,
				d.ids.guid, run.n, run.n == 1 ? "" : "es",
				d.regions, d.allocs, d.dispatches, d.copies);
	}
	kc_u64map_free(&d.strings);
	kc_u64map_free(&d.nodes);
	kc_u64map_free(&d.ioctl_names);
	cli_run_close(&run);
	return status;
}
