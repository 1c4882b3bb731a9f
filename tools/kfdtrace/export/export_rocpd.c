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
#include "kfdtrace/packet_abi.h"
#include "kfdtrace/packets.h"
#include "kfdtrace/topology.h"

enum rd_stmt {
	ST_EVENT, ST_REGION, ST_ARG, ST_ALLOC, ST_DISPATCH, ST_COPY, ST_STRING,
	ST_THREAD, ST_THREAD_END, ST_AGENT, ST_QUEUE, ST_SYMBOL, ST_ARGS,
	ST_EVENTS, ST_REGIONS, ST_COUNT
};

/* Argument rows go in batches of this many, one statement each. */
#define RD_ARG_BATCH 32

static const char *const rd_sql[ST_COUNT] = {
	[ST_EVENT] = "INSERT INTO \"rocpd_event%s\" (id, category_id, "
		"correlation_id, extdata) VALUES (?, ?, ?, ?)",
	[ST_REGION] = "INSERT INTO \"rocpd_region%s\" (nid, pid, tid, start, "
		"end, name_id, event_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
	[ST_ARG] = "INSERT INTO \"rocpd_arg%s\" (event_id, position, type, "
		"name, value) VALUES (?, ?, ?, ?, ?)",
	[ST_ALLOC] = "INSERT INTO \"rocpd_memory_allocate%s\" (nid, pid, tid, "
		"agent_id, type, level, start, end, address, size, event_id) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_DISPATCH] = "INSERT INTO \"rocpd_kernel_dispatch%s\" (nid, pid, "
		"tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, "
		"start, end, private_segment_size, group_segment_size, "
		"workgroup_size_x, workgroup_size_y, workgroup_size_z, "
		"grid_size_x, grid_size_y, grid_size_z, region_name_id, "
		"event_id) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, "
		"?, ?, ?, ?, ?, ?)",
	[ST_COPY] = "INSERT INTO \"rocpd_memory_copy%s\" (nid, pid, tid, "
		"start, end, name_id, dst_agent_id, dst_address, src_agent_id, "
		"src_address, size, queue_id, region_name_id, event_id) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_STRING] = "INSERT INTO \"rocpd_string%s\" (string) VALUES (?)",
	[ST_THREAD] = "INSERT INTO \"rocpd_info_thread%s\" (nid, ppid, pid, "
		"tid, start, end) VALUES (?, ?, ?, ?, ?, ?)",
	[ST_THREAD_END] = "UPDATE \"rocpd_info_thread%s\" SET end = ?, "
		"name = ? WHERE id = ?",
	[ST_AGENT] = "INSERT INTO \"rocpd_info_agent%s\" (nid, pid, type, "
		"absolute_index, logical_index, type_index, uuid, name, "
		"model_name, vendor_name, product_name, extdata) VALUES (?, ?, "
		"?, ?, ?, ?, ?, ?, ?, ?, ?, json_object('gpu_id', ?, "
		"'device_id', ?, 'location_id', ?, 'drm_render_minor', ?))",
	[ST_QUEUE] = "INSERT INTO \"rocpd_info_queue%s\" (nid, pid, name, "
		"extdata) VALUES (?, ?, ?, json_object('gpu_id', ?, "
		"'queue_id', ?, 'engine', ?))",
	[ST_SYMBOL] = "INSERT INTO \"rocpd_info_kernel_symbol%s\" (nid, pid, "
		"code_object_id, kernel_name, display_name, kernel_object) "
		"VALUES (?, ?, ?, ?, ?, ?)",
	/* Made by prepare(): RD_ARG_BATCH rows of ST_ARG, ST_EVENT and
	 * ST_REGION. */
	[ST_ARGS] = NULL, [ST_EVENTS] = NULL, [ST_REGIONS] = NULL,
};

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

static uint64_t
fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

/* An SQLite failure: say it once, remember it. */
static int
sql_fail(struct rd *d)
{
	if (!d->failed)
		cli_err("sqlite: %s", sqlite3_errmsg(d->db));
	d->failed = 1;
	return -1;
}

/* Run a prepared insert whose values are bound. Return: its row, or 0. */
static int64_t
step(struct rd *d, enum rd_stmt s)
{
	sqlite3_stmt *st = d->st[s];
	int rc = sqlite3_step(st);

	/* Every column is bound again for the next row (NULL included). */
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		sql_fail(d);
		return 0;
	}
	return sqlite3_last_insert_rowid(d->db);
}

static void
bind_i(struct rd *d, enum rd_stmt s, int col, int64_t v)
{
	sqlite3_bind_int64(d->st[s], col, v);
}

/* Text that stays valid until the row is inserted (step()), or NULL. */
static void
bind_t(struct rd *d, enum rd_stmt s, int col, const char *v)
{
	if (v)
		sqlite3_bind_text(d->st[s], col, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(d->st[s], col);
}

/* The row of @s in rocpd_string, made on first use. */
static int64_t
string_id(struct rd *d, const char *s)
{
	uint64_t h = fnv1a(s), id;

	if (kc_u64map_get64(&d->strings, 0, h, &id))
		return (int64_t)id;
	bind_t(d, ST_STRING, 1, s);
	id = (uint64_t)step(d, ST_STRING);
	if (id && kc_u64map_put64(&d->strings, 0, h, id))
		d->oom = 1;
	return (int64_t)id;
}

static int64_t
boot_ts(const struct rd *d, uint64_t mono)
{
	return (int64_t)mono + d->boot_off;
}

/* The thread row of @tid, made when first seen at @ts. */
static int64_t
thread_id(struct rd *d, uint32_t tid, uint64_t ts)
{
	struct rd_thread *t = kc_u64map_get(&d->threads, 0, tid), nt = { 0 };

	if (t) {
		if (boot_ts(d, ts) > t->end)
			t->end = boot_ts(d, ts);
		return t->id;
	}
	bind_i(d, ST_THREAD, 1, d->nid);
	bind_i(d, ST_THREAD, 2, d->ppid);
	bind_i(d, ST_THREAD, 3, d->pid);
	bind_i(d, ST_THREAD, 4, tid);
	bind_i(d, ST_THREAD, 5, boot_ts(d, ts));
	bind_i(d, ST_THREAD, 6, boot_ts(d, ts));
	nt.id = step(d, ST_THREAD);
	nt.end = boot_ts(d, ts);
	if (kc_u64map_put(&d->threads, 0, tid, &nt))
		d->oom = 1;
	return nt.id;
}

/* "gfx90a" from gfx_target_version 90010. */
static void
gfx_name(char *buf, size_t size, uint64_t v)
{
	snprintf(buf, size, "gfx%" PRIu64 "%" PRIu64 "%" PRIx64, v / 10000,
		 v / 100 % 100, v % 100);
}

static int64_t
agent_add(struct rd *d, const struct kt_topo_node *n, unsigned int idx,
	  uint32_t gpu_id)
{
	char model[32] = "";
	int64_t id;

	bind_i(d, ST_AGENT, 1, d->nid);
	bind_i(d, ST_AGENT, 2, d->pid);
	bind_t(d, ST_AGENT, 3, gpu_id ? "GPU" : "CPU");
	bind_i(d, ST_AGENT, 4, idx);
	bind_i(d, ST_AGENT, 5, idx);
	bind_i(d, ST_AGENT, 6, gpu_id ? d->ngpus++ : d->ncpus++);
	bind_i(d, ST_AGENT, 7, gpu_id);
	if (n && gpu_id)
		gfx_name(model, sizeof(model), n->gfx_target_version);
	bind_t(d, ST_AGENT, 8, n && n->name[0] ? n->name : model[0] ? model :
	       gpu_id ? "gpu" : "cpu");
	bind_t(d, ST_AGENT, 9, model[0] ? model : n ? n->name : NULL);
	bind_t(d, ST_AGENT, 10, n && n->vendor_id == 0x1002 ? "AMD" : NULL);
	bind_t(d, ST_AGENT, 11, n ? n->name : NULL);
	bind_i(d, ST_AGENT, 12, gpu_id);
	bind_i(d, ST_AGENT, 13, n ? (int64_t)n->device_id : 0);
	bind_i(d, ST_AGENT, 14, n ? (int64_t)n->location_id : 0);
	bind_i(d, ST_AGENT, 15, n ? (int64_t)n->drm_render_minor : 0);
	id = step(d, ST_AGENT);
	d->nagents++;
	if (gpu_id && kc_u64map_put64(&d->agents, 0, gpu_id, (uint64_t)id))
		d->oom = 1;
	return id;
}

/* The agent of @gpu_id: the topology's, else one made for it. */
static int64_t
agent_id(struct rd *d, uint32_t gpu_id)
{
	uint64_t id;

	if (!gpu_id)
		return 0;
	if (kc_u64map_get64(&d->agents, 0, gpu_id, &id))
		return (int64_t)id;
	return agent_add(d, NULL, KT_TOPO_MAX_NODES + d->nagents, gpu_id);
}

static void
topology(struct rd *d, const struct kt_record *rec)
{
	struct kt_topo *t;
	unsigned int i;

	if (d->have_topo)
		return;
	t = malloc(sizeof(*t));
	if (!t) {
		d->oom = 1;
		return;
	}
	d->have_topo = 1;
	kt_topo_parse(rec->u.topology.files, rec->u.topology.nfiles, t);
	obj_tracker_topology(&d->objs, t);
	for (i = 0; i < t->nnodes; i++) {
		const struct kt_topo_node *n = &t->nodes[i];

		if (n->present && !(n->gpu_id &&
				    kc_u64map_get(&d->agents, 0, n->gpu_id)))
			agent_add(d, n, i, n->gpu_id);
	}
	free(t);
}

/* A field's C type, for rocpd_arg.type. */
static const char *
field_type(const struct kfd_field *f)
{
	static const char *const u[] = { "uint8_t", "uint16_t", "uint32_t",
					 "uint64_t" };
	static const char *const s[] = { "int8_t", "int16_t", "int32_t",
					 "int64_t" };
	int i = f->width == 1 ? 0 : f->width == 2 ? 1 : f->width == 4 ? 2 : 3;

	return f->is_signed ? s[i] : u[i];
}

static uint64_t
field_value(const struct kfd_field *f, const uint8_t *img)
{
	uint64_t v = 0;

	memcpy(&v, img + f->offset, f->width);	/* little-endian hosts */
	if (f->is_signed && f->width < 8 && (v >> (8 * f->width - 1)) & 1)
		v |= ~0ull << (8 * f->width);
	return v;
}

static int
field_hex(const struct kfd_field *f)
{
	switch (f->role) {
	case KFD_ROLE_HEX: case KFD_ROLE_HANDLE: case KFD_ROLE_GPU_VA:
	case KFD_ROLE_CPU_ADDR: case KFD_ROLE_PTR: case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET: case KFD_ROLE_FLAGS:
	case KFD_ROLE_GPU_ID:
		return 1;
	default:
		return 0;
	}
}

/*
 * Write the waiting argument rows: a whole batch in one statement (rows
 * cost a third less so), fewer one by one.
 */
static void
args_flush(struct rd *d)
{
	unsigned int i, c = 1, n = d->nargs;
	enum rd_stmt s = n == RD_ARG_BATCH ? ST_ARGS : ST_ARG;

	for (i = 0; i < n && !d->failed; i++) {
		const struct rd_arg *a = &d->args[i];

		if (s == ST_ARG)
			c = 1;
		bind_i(d, s, c++, a->event);
		bind_i(d, s, c++, a->pos);
		bind_t(d, s, c++, a->type);
		bind_t(d, s, c++, a->name);
		bind_t(d, s, c++, a->val);
		if (s == ST_ARG)
			step(d, s);
	}
	if (s == ST_ARGS && !d->failed)
		step(d, s);
	d->nargs = 0;
}

/* The argument struct's fields: inputs as passed, outputs as returned. */
static void
ioctl_args(struct rd *d, const struct kt_ioctl_rec *io,
	   const struct kfd_ioctl_desc *desc, int64_t event)
{
	const struct kfd_struct_desc *a = desc ? desc->args : NULL;
	unsigned int i, pos = 0;
	struct rd_arg *a_row;

	for (i = 0; a && i < a->nfields && !d->failed; i++) {
		const struct kfd_field *f = &a->fields[i];
		const uint8_t *img = f->dir == KFD_DIR_IN || io->ret < 0 ?
				     io->arg_before : io->arg_after;
		uint64_t v;

		if (!img || f->role == KFD_ROLE_PAD ||
		    f->role == KFD_ROLE_BYTES || f->role == KFD_ROLE_STRING ||
		    (f->width != 1 && f->width != 2 && f->width != 4 &&
		     f->width != 8) || f->offset + f->width > io->arg_size)
			continue;
		if (f->select >= 0 && (unsigned int)f->select < a->nfields &&
		    field_value(&a->fields[f->select], img) != f->select_value)
			continue;
		v = field_value(f, img);
		a_row = &d->args[d->nargs++];
		if (field_hex(f))
			snprintf(a_row->val, sizeof(a_row->val), "0x%" PRIx64, v);
		else if (f->is_signed)
			snprintf(a_row->val, sizeof(a_row->val), "%" PRId64,
				 (int64_t)v);
		else
			snprintf(a_row->val, sizeof(a_row->val), "%" PRIu64, v);
		a_row->event = event;
		a_row->pos = pos++;
		a_row->type = field_type(f);
		a_row->name = f->name;
		if (d->nargs == RD_ARG_BATCH)
			args_flush(d);
	}
}

/*
 * Write the waiting events and their regions: whole batches in one
 * statement each, fewer one by one.
 */
static void
events_flush(struct rd *d)
{
	unsigned int i, n = d->nevents, nr = 0, c = 1, cr = 1;
	int many = n == RD_ARG_BATCH;
	enum rd_stmt se = many ? ST_EVENTS : ST_EVENT;

	for (i = 0; i < n && !d->failed; i++) {
		const struct rd_event *e = &d->events[i];

		if (!many)
			c = 1;
		bind_i(d, se, c++, e->id);
		bind_i(d, se, c++, e->category);
		bind_i(d, se, c++, e->seq);
		bind_t(d, se, c++, e->ext[0] ? e->ext : "{}");
		if (!many)
			step(d, se);
		nr += e->region;
	}
	if (many && !d->failed)
		step(d, se);
	/* Regions: a batch when every event had one. */
	many = nr == RD_ARG_BATCH;
	se = many ? ST_REGIONS : ST_REGION;
	for (i = 0; i < n && !d->failed; i++) {
		const struct rd_event *e = &d->events[i];

		if (!e->region)
			continue;
		if (!many)
			cr = 1;
		bind_i(d, se, cr++, d->nid);
		bind_i(d, se, cr++, d->pid);
		bind_i(d, se, cr++, e->tid);
		bind_i(d, se, cr++, e->start);
		bind_i(d, se, cr++, e->end);
		bind_i(d, se, cr++, e->name);
		bind_i(d, se, cr++, e->id);
		if (!many)
			step(d, se);
	}
	if (many && !d->failed)
		step(d, se);
	d->nevents = 0;
}

/* A new event: its id, the row written later (events_flush()). */
static int64_t
event_add(struct rd *d, int64_t category, uint64_t seq, const char *extdata)
{
	struct rd_event *e;

	/* Written when the next one comes: its region joins it first. */
	if (d->nevents == RD_ARG_BATCH)
		events_flush(d);
	e = &d->events[d->nevents++];
	e->id = ++d->last_event;
	e->category = category;
	e->seq = (int64_t)seq;
	snprintf(e->ext, sizeof(e->ext), "%s", extdata ? extdata : "");
	e->region = 0;
	return e->id;
}

/* The region of the event added last (still waiting for its batch). */
static void
region_add(struct rd *d, int64_t tid, uint64_t start, uint64_t end,
	   int64_t name, int64_t event)
{
	struct rd_event *e = NULL;
	unsigned int i;

	for (i = d->nevents; i-- > 0;)
		if (d->events[i].id == event) {
			e = &d->events[i];
			break;
		}
	if (!e) {
		/* Its batch was written: the region goes alone. */
		bind_i(d, ST_REGION, 1, d->nid);
		bind_i(d, ST_REGION, 2, d->pid);
		bind_i(d, ST_REGION, 3, tid);
		bind_i(d, ST_REGION, 4, boot_ts(d, start));
		bind_i(d, ST_REGION, 5, boot_ts(d, end));
		bind_i(d, ST_REGION, 6, name);
		bind_i(d, ST_REGION, 7, event);
		step(d, ST_REGION);
	} else {
		e->region = 1;
		e->tid = tid;
		e->start = boot_ts(d, start);
		e->end = boot_ts(d, end);
		e->name = name;
	}
	d->regions++;
}

static void
alloc_add(struct rd *d, int64_t tid, const struct kt_record *rec,
	  uint64_t end, uint32_t gpu_id, const char *type, const char *level,
	  uint64_t addr, uint64_t size, int64_t event)
{
	bind_i(d, ST_ALLOC, 1, d->nid);
	bind_i(d, ST_ALLOC, 2, d->pid);
	bind_i(d, ST_ALLOC, 3, tid);
	if (gpu_id)
		bind_i(d, ST_ALLOC, 4, agent_id(d, gpu_id));
	else
		sqlite3_bind_null(d->st[ST_ALLOC], 4);
	bind_t(d, ST_ALLOC, 5, type);
	bind_t(d, ST_ALLOC, 6, level);
	bind_i(d, ST_ALLOC, 7, boot_ts(d, rec->ts));
	bind_i(d, ST_ALLOC, 8, boot_ts(d, end));
	bind_i(d, ST_ALLOC, 9, (int64_t)addr);
	bind_i(d, ST_ALLOC, 10, (int64_t)size);
	bind_i(d, ST_ALLOC, 11, event);
	step(d, ST_ALLOC);
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
	int64_t tid = thread_id(d, rec->tid, end), event;
	char name[32], ext[96];
	const char *en;

	if (desc) {
		snprintf(name, sizeof(name), "%s", desc->name);
	} else {
		snprintf(name, sizeof(name), "ioctl 0x%08x", io->request);
	}
	if (io->ret < 0) {
		en = kfd_errno_name(io->err);
		snprintf(ext, sizeof(ext), "{\"ret\":%" PRId64 ",\"errno\":"
			 "\"%s\"}", io->ret, en ? en : "unknown");
	}
	event = event_add(d, d->cat_ioctl, rec->seq, io->ret < 0 ? ext : NULL);
	region_add(d, tid, rec->ts, end, string_id(d, name), event);
	ioctl_args(d, io, desc, event);
	allocations(d, rec, desc, end, tid, event);
}

static void
api_record(struct rd *d, const struct kt_record *rec)
{
	uint64_t end = kt_record_end(rec);
	int64_t tid = thread_id(d, rec->tid, end), event;

	event = event_add(d, d->cat_api, rec->seq, NULL);
	region_add(d, tid, rec->ts, end,
		   string_id(d, rec->u.api.name ? rec->u.api.name : "api"),
		   event);
	bind_i(d, ST_ARG, 1, event);
	bind_i(d, ST_ARG, 2, 0);
	bind_t(d, ST_ARG, 3, "const char*");
	bind_t(d, ST_ARG, 4, "args");
	bind_t(d, ST_ARG, 5, rec->u.api.args ? rec->u.api.args : "");
	step(d, ST_ARG);
}

static int64_t
queue_id(struct rd *d, const struct kt_submit_rec *s)
{
	uint64_t key = (uint64_t)s->gpu_id << 32 | s->queue_id, id;
	char name[64];

	if (kc_u64map_get64(&d->queues, 0, key, &id))
		return (int64_t)id;
	snprintf(name, sizeof(name), "%s queue %u gpu 0x%x",
		 kfd_engine_name(s->engine), s->queue_id, s->gpu_id);
	bind_i(d, ST_QUEUE, 1, d->nid);
	bind_i(d, ST_QUEUE, 2, d->pid);
	bind_t(d, ST_QUEUE, 3, name);
	bind_i(d, ST_QUEUE, 4, s->gpu_id);
	bind_i(d, ST_QUEUE, 5, s->queue_id);
	bind_t(d, ST_QUEUE, 6, kfd_engine_name(s->engine));
	id = (uint64_t)step(d, ST_QUEUE);
	if (kc_u64map_put64(&d->queues, 0, key, id))
		d->oom = 1;
	return (int64_t)id;
}

/* A kernel is known by its kernel_object address: one symbol each. */
static int64_t
symbol_id(struct rd *d, uint64_t kobj)
{
	uint64_t id;
	char name[48];
	char *sql;

	if (kc_u64map_get64(&d->symbols, 0, kobj, &id))
		return (int64_t)id;
	if (!d->code_object) {
		/* The code objects' loads are not traced: one stands in. */
		sql = sqlite3_mprintf("INSERT INTO \"rocpd_info_code_object%s\" "
				      "(nid, pid, uri, storage_type) VALUES "
				      "(%lld, %lld, 'kfdtrace://unknown', "
				      "'MEMORY')", d->ids.suffix,
				      (long long)d->nid, (long long)d->pid);
		if (!sql || rd_exec(d->db, sql))
			sql_fail(d);
		sqlite3_free(sql);
		d->code_object = sqlite3_last_insert_rowid(d->db);
	}
	snprintf(name, sizeof(name), "kernel_object 0x%" PRIx64, kobj);
	bind_i(d, ST_SYMBOL, 1, d->nid);
	bind_i(d, ST_SYMBOL, 2, d->pid);
	bind_i(d, ST_SYMBOL, 3, d->code_object);
	bind_t(d, ST_SYMBOL, 4, name);
	bind_t(d, ST_SYMBOL, 5, name);
	bind_i(d, ST_SYMBOL, 6, (int64_t)kobj);
	id = (uint64_t)step(d, ST_SYMBOL);
	if (kc_u64map_put64(&d->symbols, 0, kobj, id))
		d->oom = 1;
	return (int64_t)id;
}

static void
dispatch_add(struct rd *d, const struct kt_record *rec, int64_t tid,
	     int64_t queue, const struct kfd_aql_dispatch *k, uint64_t index)
{
	int64_t event = event_add(d, d->cat_dispatch, rec->seq, NULL);
	int c = 1;

	bind_i(d, ST_DISPATCH, c++, d->nid);
	bind_i(d, ST_DISPATCH, c++, d->pid);
	bind_i(d, ST_DISPATCH, c++, tid);
	bind_i(d, ST_DISPATCH, c++, agent_id(d, rec->u.submit.gpu_id));
	bind_i(d, ST_DISPATCH, c++, symbol_id(d, k->kernel_object));
	bind_i(d, ST_DISPATCH, c++, (int64_t)index);
	bind_i(d, ST_DISPATCH, c++, queue);
	bind_i(d, ST_DISPATCH, c++, boot_ts(d, rec->ts));
	bind_i(d, ST_DISPATCH, c++, boot_ts(d, rec->ts));
	bind_i(d, ST_DISPATCH, c++, k->private_segment_size);
	bind_i(d, ST_DISPATCH, c++, k->group_segment_size);
	bind_i(d, ST_DISPATCH, c++, k->workgroup_size_x);
	bind_i(d, ST_DISPATCH, c++, k->workgroup_size_y);
	bind_i(d, ST_DISPATCH, c++, k->workgroup_size_z);
	bind_i(d, ST_DISPATCH, c++, k->grid_size_x);
	bind_i(d, ST_DISPATCH, c++, k->grid_size_y);
	bind_i(d, ST_DISPATCH, c++, k->grid_size_z);
	bind_i(d, ST_DISPATCH, c++, d->name_submit);
	bind_i(d, ST_DISPATCH, c++, event);
	step(d, ST_DISPATCH);
	d->dispatches++;
}

static void
copy_add(struct rd *d, const struct kt_record *rec, int64_t tid,
	 int64_t queue, const struct kfd_sdma_copy_linear *p)
{
	int64_t event = event_add(d, d->cat_copy, rec->seq, NULL);
	/* The engine's GPU: which memory each address is in is not known. */
	int64_t agent = agent_id(d, rec->u.submit.gpu_id);
	int c = 1;

	bind_i(d, ST_COPY, c++, d->nid);
	bind_i(d, ST_COPY, c++, d->pid);
	bind_i(d, ST_COPY, c++, tid);
	bind_i(d, ST_COPY, c++, boot_ts(d, rec->ts));
	bind_i(d, ST_COPY, c++, boot_ts(d, rec->ts));
	bind_i(d, ST_COPY, c++, string_id(d, "COPY_LINEAR"));
	bind_i(d, ST_COPY, c++, agent);
	bind_i(d, ST_COPY, c++, (int64_t)p->dst);
	bind_i(d, ST_COPY, c++, agent);
	bind_i(d, ST_COPY, c++, (int64_t)p->src);
	bind_i(d, ST_COPY, c++, (int64_t)(p->count & KFD_SDMA_COPY_COUNT_MASK) + 1);
	bind_i(d, ST_COPY, c++, queue);
	bind_i(d, ST_COPY, c++, d->name_submit);
	bind_i(d, ST_COPY, c++, event);
	step(d, ST_COPY);
	d->copies++;
}

/* The kernel dispatches and linear copies of a doorbell's packets. */
static void
submit_record(struct rd *d, const struct kt_record *rec)
{
	const struct kt_submit_rec *s = &rec->u.submit;
	const struct kfd_packet_desc *row;
	int64_t tid = thread_id(d, rec->tid, rec->ts), queue = 0;
	size_t off, size;

	if (!s->data)
		return;
	if (s->engine == KFD_ENGINE_AQL) {
		for (off = 0; off + KFD_AQL_PACKET_SIZE <= s->len && !d->failed;
		     off += KFD_AQL_PACKET_SIZE) {
			struct kfd_aql_dispatch k;

			row = kfd_aql_packet(s->data + off);
			if (!row || strcmp(row->name, "KERNEL_DISPATCH"))
				continue;
			memcpy(&k, s->data + off, sizeof(k));
			if (!queue)
				queue = queue_id(d, s);
			dispatch_add(d, rec, tid, queue, &k,
				     s->first + off / KFD_AQL_PACKET_SIZE);
		}
	} else if (s->engine == KFD_ENGINE_SDMA) {
		for (off = 0; off < s->len && !d->failed; off += size) {
			struct kfd_sdma_copy_linear p;

			row = kfd_sdma_packet(s->data + off, s->len - off, &size);
			if (!size)
				break;
			if (!row || strcmp(row->name, "COPY_LINEAR") ||
			    off + sizeof(p) > s->len)
				continue;
			memcpy(&p, s->data + off, sizeof(p));
			if (!queue)
				queue = queue_id(d, s);
			copy_add(d, rec, tid, queue, &p);
		}
	}
}

static int
rd_emit(void *ctx, const struct kt_record *rec)
{
	struct rd *d = ctx;
	struct rd_thread *t;
	int64_t end = boot_ts(d, kt_record_end(rec));

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
		submit_record(d, rec);
		break;
	case KT_REC_TOPOLOGY:
		topology(d, rec);
		break;
	case KT_REC_THREAD_NAME:
		thread_id(d, rec->tid, rec->ts);
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
	uint64_t key = fnv1a(host) & INT64_MAX, id;
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
		return sql_fail(d), 0;
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
	d->last = boot_ts(d, h->start_monotonic);
	d->ppid = h->ppid;
	d->nid = node_id(d, h, rp->host && rp->host[0] ? rp->host : h->host);
	sql = sqlite3_mprintf("INSERT INTO \"rocpd_info_process%s\" (nid, "
			      "ppid, pid, init, start, command, extdata) VALUES "
			      "(?, ?, ?, ?, ?, ?, json_object('exe', ?, "
			      "'label', ?, 'kfd_abi', ?, 'producer', ?))",
			      d->ids.suffix);
	if (!sql || sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		return sql_fail(d);
	}
	sqlite3_free(sql);
	sqlite3_bind_int64(st, 1, d->nid);
	sqlite3_bind_int64(st, 2, h->ppid);
	sqlite3_bind_int64(st, 3, h->pid);
	sqlite3_bind_int64(st, 4, boot_ts(d, h->start_monotonic));
	sqlite3_bind_int64(st, 5, boot_ts(d, h->start_monotonic));
	sqlite3_bind_text(st, 6, cmd[0] ? cmd : h->exe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, h->exe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, rp->label, -1, SQLITE_TRANSIENT);
	sql = sqlite3_mprintf("%u.%u", h->kfd_major, h->kfd_minor);
	sqlite3_bind_text(st, 9, sql ? sql : "", -1, SQLITE_TRANSIENT);
	sqlite3_free(sql);
	sqlite3_bind_text(st, 10, h->producer, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		return sql_fail(d);
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

	events_flush(d);
	args_flush(d);
	while ((s = kc_u64map_next(&d->threads, &pos))) {
		struct rd_thread *t = (struct rd_thread *)(void *)s->val;

		if (!d->failed) {
			bind_i(d, ST_THREAD_END, 1, t->end);
			bind_t(d, ST_THREAD_END, 2, t->name);
			bind_i(d, ST_THREAD_END, 3, t->id);
			step(d, ST_THREAD_END);
		}
		free(t->name);
	}
	sql = sqlite3_mprintf("UPDATE \"rocpd_info_process%s\" SET end = %lld, "
			      "fini = %lld WHERE id = %lld", d->ids.suffix,
			      (long long)d->last, (long long)d->last,
			      (long long)d->pid);
	if (!d->failed && (!sql || rd_exec(d->db, sql)))
		sql_fail(d);
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

static int
prepare(struct rd *d)
{
	int i, rc;

	struct kt_strbuf sb;

	kt_strbuf_init(&sb);
	kt_strbuf_printf(&sb, "INSERT INTO \"rocpd_arg%s\" (event_id, position, "
			 "type, name, value) VALUES ", d->ids.suffix);
	for (i = 0; i < RD_ARG_BATCH; i++)
		kt_strbuf_printf(&sb, "%s(?, ?, ?, ?, ?)", i ? ", " : "");
	if (sb.failed || sqlite3_prepare_v2(d->db, sb.data, -1,
					    &d->st[ST_ARGS], NULL) != SQLITE_OK) {
		kt_strbuf_release(&sb);
		return sql_fail(d);
	}
	kt_strbuf_clear(&sb);
	kt_strbuf_printf(&sb, "INSERT INTO \"rocpd_event%s\" (id, category_id, "
			 "correlation_id, extdata) VALUES ", d->ids.suffix);
	for (i = 0; i < RD_ARG_BATCH; i++)
		kt_strbuf_printf(&sb, "%s(?, ?, ?, ?)", i ? ", " : "");
	if (sb.failed || sqlite3_prepare_v2(d->db, sb.data, -1,
					    &d->st[ST_EVENTS], NULL) != SQLITE_OK) {
		kt_strbuf_release(&sb);
		return sql_fail(d);
	}
	kt_strbuf_clear(&sb);
	kt_strbuf_printf(&sb, "INSERT INTO \"rocpd_region%s\" (nid, pid, tid, "
			 "start, end, name_id, event_id) VALUES ", d->ids.suffix);
	for (i = 0; i < RD_ARG_BATCH; i++)
		kt_strbuf_printf(&sb, "%s(?, ?, ?, ?, ?, ?, ?)", i ? ", " : "");
	if (sb.failed || sqlite3_prepare_v2(d->db, sb.data, -1,
					    &d->st[ST_REGIONS], NULL) != SQLITE_OK) {
		kt_strbuf_release(&sb);
		return sql_fail(d);
	}
	kt_strbuf_release(&sb);
	for (i = 0; i < ST_COUNT; i++) {
		char *sql;

		if (!rd_sql[i])
			continue;
		sql = sqlite3_mprintf(rd_sql[i], d->ids.suffix);
		rc = sql ? sqlite3_prepare_v2(d->db, sql, -1, &d->st[i],
					      NULL) : SQLITE_NOMEM;
		sqlite3_free(sql);
		if (rc != SQLITE_OK)
			return sql_fail(d);
	}
	d->cat_ioctl = string_id(d, "KFD_IOCTL");
	d->cat_api = string_id(d, "HSAKMT_API");
	d->cat_dispatch = string_id(d, "KERNEL_DISPATCH");
	d->cat_copy = string_id(d, "MEMORY_COPY");
	d->name_submit = string_id(d, "doorbell");
	return d->failed ? -1 : 0;
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
		return sql_fail(d);
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
	if (rd_ids_new(&d.ids)) {
		cli_err("no random numbers for the run's guid");
		err = -1;
	}
	if (!err && open_db(&d, dest, o->force, &created))
		err = -1;
	if (!err && (rd_schema_create(d.db, &d.ids) || prepare(&d)))
		err = sql_fail(&d);
	for (k = 0; k < run.n && !err; k++)
		err = export_proc(&d, &run.p[k], o->window);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(d.st[i]);
	if (!err && (rd_schema_views(d.db) || rd_exec(d.db, "COMMIT")))
		err = sql_fail(&d);
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
	cli_run_close(&run);
	return status;
}
