/* SPDX-License-Identifier: MIT */
/*
 * The rocpd export's rows (export_rocpd.h): the statements of a run, the
 * strings, threads, and the rows that come by the million (events,
 * regions, argument fields), written 128 to a statement: a statement per
 * row was most of the export's cost.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "export/export_rocpd.h"
#include "kfdtrace/decode.h"

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

uint64_t
rd_fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

/* An SQLite failure: say it once, remember it. */
int
rd_sql_fail(struct rd *d)
{
	if (!d->failed)
		cli_err("sqlite: %s", sqlite3_errmsg(d->db));
	d->failed = 1;
	return -1;
}

/* Run a prepared insert whose values are bound. Return: its row, or 0. */
int64_t
rd_step(struct rd *d, enum rd_stmt s)
{
	sqlite3_stmt *st = d->st[s];
	int rc = sqlite3_step(st);

	/* Every column is bound again for the next row (NULL included). */
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		rd_sql_fail(d);
		return 0;
	}
	return sqlite3_last_insert_rowid(d->db);
}

void
rd_bind_i(struct rd *d, enum rd_stmt s, int col, int64_t v)
{
	sqlite3_bind_int64(d->st[s], col, v);
}

/* Text that stays valid until the row is inserted (rd_step()), or NULL. */
void
rd_bind_t(struct rd *d, enum rd_stmt s, int col, const char *v)
{
	if (v)
		sqlite3_bind_text(d->st[s], col, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(d->st[s], col);
}

/* The row of @s in rocpd_string, made on first use. */
int64_t
rd_string_id(struct rd *d, const char *s)
{
	uint64_t h = rd_fnv1a(s), id;

	if (kc_u64map_get64(&d->strings, 0, h, &id))
		return (int64_t)id;
	rd_bind_t(d, ST_STRING, 1, s);
	id = (uint64_t)rd_step(d, ST_STRING);
	if (id && kc_u64map_put64(&d->strings, 0, h, id))
		d->oom = 1;
	return (int64_t)id;
}

/* The thread row of @tid, made when first seen at @ts. */
int64_t
rd_thread_id(struct rd *d, uint32_t tid, uint64_t ts)
{
	struct rd_thread *t = kc_u64map_get(&d->threads, 0, tid), nt = { 0 };

	if (t) {
		if (rd_boot_ts(d, ts) > t->end)
			t->end = rd_boot_ts(d, ts);
		return t->id;
	}
	rd_bind_i(d, ST_THREAD, 1, d->nid);
	rd_bind_i(d, ST_THREAD, 2, d->ppid);
	rd_bind_i(d, ST_THREAD, 3, d->pid);
	rd_bind_i(d, ST_THREAD, 4, tid);
	rd_bind_i(d, ST_THREAD, 5, rd_boot_ts(d, ts));
	rd_bind_i(d, ST_THREAD, 6, rd_boot_ts(d, ts));
	nt.id = rd_step(d, ST_THREAD);
	nt.end = rd_boot_ts(d, ts);
	if (kc_u64map_put(&d->threads, 0, tid, &nt))
		d->oom = 1;
	return nt.id;
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
 * @v in @buf (24 bytes): base 16 with "0x", 10, or -10 for a negative
 * signed value. snprintf() took a tenth of the export.
 */
static void
u64_text(char *buf, uint64_t v, int base)
{
	char tmp[24];
	unsigned int n = 0, i = 0;

	if (base == -10) {
		buf[i++] = '-';
		v = -v;
		base = 10;
	} else if (base == 16) {
		buf[i++] = '0';
		buf[i++] = 'x';
	}
	do {
		tmp[n++] = "0123456789abcdef"[v % (unsigned int)base];
		v /= (unsigned int)base;
	} while (v);
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
}

/*
 * Write the waiting argument rows: a whole batch in one statement (rows
 * cost a third less so), fewer one by one.
 */
void
rd_args_flush(struct rd *d)
{
	unsigned int i, c = 1, n = d->nargs;
	enum rd_stmt s = n == RD_ARG_BATCH ? ST_ARGS : ST_ARG;

	for (i = 0; i < n && !d->failed; i++) {
		const struct rd_arg *a = &d->args[i];

		if (s == ST_ARG)
			c = 1;
		rd_bind_i(d, s, c++, a->event);
		rd_bind_i(d, s, c++, a->pos);
		rd_bind_t(d, s, c++, a->type);
		rd_bind_t(d, s, c++, a->name);
		rd_bind_t(d, s, c++, a->val);
		if (s == ST_ARG)
			rd_step(d, s);
	}
	if (s == ST_ARGS && !d->failed)
		rd_step(d, s);
	d->nargs = 0;
}

/* The argument struct's fields: inputs as passed, outputs as returned. */
void
rd_ioctl_args(struct rd *d, const struct kt_ioctl_rec *io,
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
			u64_text(a_row->val, v, 16);
		else if (f->is_signed && (int64_t)v < 0)
			u64_text(a_row->val, v, -10);
		else
			u64_text(a_row->val, v, 10);
		a_row->event = event;
		a_row->pos = pos++;
		a_row->type = field_type(f);
		a_row->name = f->name;
		if (d->nargs == RD_ARG_BATCH)
			rd_args_flush(d);
	}
}

/*
 * Write the waiting events and their regions: whole batches in one
 * statement each, fewer one by one.
 */
void
rd_events_flush(struct rd *d)
{
	unsigned int i, n = d->nevents, nr = 0, c = 1, cr = 1;
	int many = n == RD_ARG_BATCH;
	enum rd_stmt se = many ? ST_EVENTS : ST_EVENT;

	for (i = 0; i < n && !d->failed; i++) {
		const struct rd_event *e = &d->events[i];

		if (!many)
			c = 1;
		rd_bind_i(d, se, c++, e->id);
		rd_bind_i(d, se, c++, e->category);
		rd_bind_i(d, se, c++, e->seq);
		rd_bind_t(d, se, c++, e->ext[0] ? e->ext : "{}");
		if (!many)
			rd_step(d, se);
		nr += e->region;
	}
	if (many && !d->failed)
		rd_step(d, se);
	/* Regions: a batch when every event had one. */
	many = nr == RD_ARG_BATCH;
	se = many ? ST_REGIONS : ST_REGION;
	for (i = 0; i < n && !d->failed; i++) {
		const struct rd_event *e = &d->events[i];

		if (!e->region)
			continue;
		if (!many)
			cr = 1;
		rd_bind_i(d, se, cr++, d->nid);
		rd_bind_i(d, se, cr++, d->pid);
		rd_bind_i(d, se, cr++, e->tid);
		rd_bind_i(d, se, cr++, e->start);
		rd_bind_i(d, se, cr++, e->end);
		rd_bind_i(d, se, cr++, e->name);
		rd_bind_i(d, se, cr++, e->id);
		if (!many)
			rd_step(d, se);
	}
	if (many && !d->failed)
		rd_step(d, se);
	d->nevents = 0;
}

/* A new event: its id, the row written later (rd_events_flush()). */
int64_t
rd_event_add(struct rd *d, int64_t category, uint64_t seq, const char *extdata)
{
	struct rd_event *e;

	/* Written when the next one comes: its region joins it first. */
	if (d->nevents == RD_ARG_BATCH)
		rd_events_flush(d);
	e = &d->events[d->nevents++];
	e->id = ++d->last_event;
	e->category = category;
	e->seq = (int64_t)seq;
	snprintf(e->ext, sizeof(e->ext), "%s", extdata ? extdata : "");
	e->region = 0;
	return e->id;
}

/* The region of the event added last (still waiting for its batch). */
void
rd_region_add(struct rd *d, int64_t tid, uint64_t start, uint64_t end,
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
		rd_bind_i(d, ST_REGION, 1, d->nid);
		rd_bind_i(d, ST_REGION, 2, d->pid);
		rd_bind_i(d, ST_REGION, 3, tid);
		rd_bind_i(d, ST_REGION, 4, rd_boot_ts(d, start));
		rd_bind_i(d, ST_REGION, 5, rd_boot_ts(d, end));
		rd_bind_i(d, ST_REGION, 6, name);
		rd_bind_i(d, ST_REGION, 7, event);
		rd_step(d, ST_REGION);
	} else {
		e->region = 1;
		e->tid = tid;
		e->start = rd_boot_ts(d, start);
		e->end = rd_boot_ts(d, end);
		e->name = name;
	}
	d->regions++;
}

/*
 * @many: RD_ARG_BATCH rows of @one's, in one statement: its VALUES tuple
 * repeated.
 */
static int
prepare_batch(struct rd *d, enum rd_stmt many, enum rd_stmt one)
{
	char *sql = sqlite3_mprintf(rd_sql[one], d->ids.suffix);
	const char *tuple = sql ? strstr(sql, "VALUES ") : NULL;
	struct kt_strbuf sb;
	int i, rc;

	if (!tuple) {
		sqlite3_free(sql);
		return rd_sql_fail(d);
	}
	tuple += strlen("VALUES ");
	kt_strbuf_init(&sb);
	kt_strbuf_printf(&sb, "%s", sql);
	for (i = 1; i < RD_ARG_BATCH; i++)
		kt_strbuf_printf(&sb, ", %s", tuple);
	rc = sb.failed ? SQLITE_NOMEM :
	     sqlite3_prepare_v2(d->db, sb.data, -1, &d->st[many], NULL);
	kt_strbuf_release(&sb);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : rd_sql_fail(d);
}

int
rd_prepare(struct rd *d)
{
	int i, rc;

	if (prepare_batch(d, ST_ARGS, ST_ARG) ||
	    prepare_batch(d, ST_EVENTS, ST_EVENT) ||
	    prepare_batch(d, ST_REGIONS, ST_REGION))
		return -1;
	for (i = 0; i < ST_COUNT; i++) {
		char *sql;

		if (!rd_sql[i])
			continue;
		sql = sqlite3_mprintf(rd_sql[i], d->ids.suffix);
		rc = sql ? sqlite3_prepare_v2(d->db, sql, -1, &d->st[i],
					      NULL) : SQLITE_NOMEM;
		sqlite3_free(sql);
		if (rc != SQLITE_OK)
			return rd_sql_fail(d);
	}
	d->cat_ioctl = rd_string_id(d, "KFD_IOCTL");
	d->cat_api = rd_string_id(d, "HSAKMT_API");
	d->cat_dispatch = rd_string_id(d, "KERNEL_DISPATCH");
	d->cat_copy = rd_string_id(d, "MEMORY_COPY");
	d->name_submit = rd_string_id(d, "doorbell");
	return d->failed ? -1 : 0;
}
