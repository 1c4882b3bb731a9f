/* SPDX-License-Identifier: MIT */
/*
 * rocpd's tables and views (export_rocpd.h). The columns are those of
 * rocprofiler-sdk's rocpd schema version 3 (rocpd_tables.sql), so rocpd's
 * tools and its views read what we write. Every table starts with id and
 * guid; the lists below hold the rest. Foreign keys are left out: rocpd
 * declares them for ON UPDATE CASCADE only, which an export never needs.
 *
 * rocpd stores the guid in every row (a column whose default is the
 * run's guid). Here it is a virtual generated column of the same name and
 * value: every row of a run has the same guid, and 36 bytes a row were
 * most of a region's size. Readers see the same column; only a writer
 * that inserts a guid of its own into our tables is refused.
 *
 * rocpd's ids are AUTOINCREMENT, which only keeps the ids of deleted rows
 * from coming back; a table written once numbers its rows 1, 2, ...
 * either way, and AUTOINCREMENT costs an update of sqlite_sequence for
 * every row. The ids here are plain INTEGER PRIMARY KEYs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "kfdtrace/decode.h"
#include "export/export_rocpd.h"

struct rd_table {
	const char *name;		/* without "rocpd_" and the suffix */
	const char *cols;
};

#define JSONB(c) "\"" c "\" JSONB DEFAULT '{}' NOT NULL"

static const struct rd_table rd_tables[] = {
	{ "string", "\"string\" TEXT NOT NULL UNIQUE ON CONFLICT ABORT" },
	{ "info_node", "\"hash\" BIGINT NOT NULL UNIQUE, "
	  "\"machine_id\" TEXT NOT NULL UNIQUE, \"system_name\" TEXT, "
	  "\"hostname\" TEXT, \"release\" TEXT, \"version\" TEXT, "
	  "\"hardware_name\" TEXT, \"domain_name\" TEXT" },
	{ "info_process", "\"nid\" INTEGER NOT NULL, \"ppid\" INTEGER, "
	  "\"pid\" INTEGER NOT NULL, \"init\" BIGINT, \"fini\" BIGINT, "
	  "\"start\" BIGINT, \"end\" BIGINT, \"command\" TEXT, "
	  JSONB("environment") ", " JSONB("extdata") },
	{ "info_thread", "\"nid\" INTEGER NOT NULL, \"ppid\" INTEGER, "
	  "\"pid\" INTEGER NOT NULL, \"tid\" INTEGER NOT NULL, \"name\" TEXT, "
	  "\"start\" BIGINT, \"end\" BIGINT, " JSONB("extdata") },
	{ "info_agent", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER NOT NULL, "
	  "\"type\" TEXT CHECK (\"type\" IN ('CPU', 'GPU')), "
	  "\"absolute_index\" INTEGER, \"logical_index\" INTEGER, "
	  "\"type_index\" INTEGER, \"uuid\" INTEGER, \"name\" TEXT, "
	  "\"model_name\" TEXT, \"vendor_name\" TEXT, \"product_name\" TEXT, "
	  "\"user_name\" TEXT, " JSONB("extdata") },
	{ "info_queue", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER NOT NULL, "
	  "\"name\" TEXT, " JSONB("extdata") },
	{ "info_stream", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER NOT NULL, "
	  "\"name\" TEXT, " JSONB("extdata") },
	{ "info_pmc", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER NOT NULL, "
	  "\"agent_id\" INTEGER, \"target_arch\" TEXT CHECK (\"target_arch\" "
	  "IN ('CPU', 'GPU')), \"event_code\" INT, \"instance_id\" INTEGER, "
	  "\"name\" TEXT NOT NULL, \"symbol\" TEXT NOT NULL, "
	  "\"description\" TEXT, \"long_description\" TEXT DEFAULT '', "
	  "\"component\" TEXT, \"units\" TEXT DEFAULT '', \"value_type\" TEXT "
	  "CHECK (\"value_type\" IN ('ABS', 'ACCUM', 'RELATIVE')), "
	  "\"block\" TEXT, \"expression\" TEXT, \"is_constant\" INTEGER, "
	  "\"is_derived\" INTEGER, " JSONB("extdata") },
	{ "info_code_object", "\"nid\" INTEGER NOT NULL, "
	  "\"pid\" INTEGER NOT NULL, \"agent_id\" INTEGER, \"uri\" TEXT, "
	  "\"load_base\" BIGINT, \"load_size\" BIGINT, \"load_delta\" BIGINT, "
	  "\"storage_type\" TEXT CHECK (\"storage_type\" IN ('FILE', 'MEMORY')), "
	  JSONB("extdata") },
	{ "info_kernel_symbol", "\"nid\" INTEGER NOT NULL, "
	  "\"pid\" INTEGER NOT NULL, \"code_object_id\" INTEGER NOT NULL, "
	  "\"kernel_name\" TEXT, \"display_name\" TEXT, "
	  "\"kernel_object\" INTEGER, \"kernarg_segment_size\" INTEGER, "
	  "\"kernarg_segment_alignment\" INTEGER, "
	  "\"group_segment_size\" INTEGER, \"private_segment_size\" INTEGER, "
	  "\"sgpr_count\" INTEGER, \"arch_vgpr_count\" INTEGER, "
	  "\"accum_vgpr_count\" INTEGER, " JSONB("extdata") },
	{ "track", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER, \"tid\" INTEGER, "
	  "\"name_id\" INTEGER, " JSONB("extdata") },
	{ "event", "\"category_id\" INTEGER, \"stack_id\" INTEGER, "
	  "\"parent_stack_id\" INTEGER, \"correlation_id\" INTEGER, "
	  JSONB("call_stack") ", " JSONB("line_info") ", " JSONB("extdata") },
	{ "arg", "\"event_id\" INTEGER NOT NULL, \"position\" INTEGER NOT NULL, "
	  "\"type\" TEXT NOT NULL, \"name\" TEXT NOT NULL, \"value\" TEXT, "
	  JSONB("extdata") },
	{ "pmc_event", "\"event_id\" INTEGER, \"pmc_id\" INTEGER NOT NULL, "
	  "\"value\" REAL DEFAULT 0.0, \"extdata\" JSONB DEFAULT '{}'" },
	{ "region", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER NOT NULL, "
	  "\"tid\" INTEGER NOT NULL, \"start\" BIGINT NOT NULL, "
	  "\"end\" BIGINT NOT NULL, \"name_id\" INTEGER NOT NULL, "
	  "\"event_id\" INTEGER, " JSONB("extdata") },
	{ "sample", "\"track_id\" INTEGER NOT NULL, "
	  "\"timestamp\" BIGINT NOT NULL, \"event_id\" INTEGER, "
	  JSONB("extdata") },
	{ "kernel_dispatch", "\"nid\" INTEGER NOT NULL, "
	  "\"pid\" INTEGER NOT NULL, \"tid\" INTEGER, "
	  "\"agent_id\" INTEGER NOT NULL, \"kernel_id\" INTEGER NOT NULL, "
	  "\"dispatch_id\" INTEGER NOT NULL, \"queue_id\" INTEGER NOT NULL, "
	  "\"stream_id\" INTEGER NOT NULL, \"start\" BIGINT NOT NULL, "
	  "\"end\" BIGINT NOT NULL, \"private_segment_size\" INTEGER, "
	  "\"group_segment_size\" INTEGER, "
	  "\"workgroup_size_x\" INTEGER NOT NULL, "
	  "\"workgroup_size_y\" INTEGER NOT NULL, "
	  "\"workgroup_size_z\" INTEGER NOT NULL, "
	  "\"grid_size_x\" INTEGER NOT NULL, \"grid_size_y\" INTEGER NOT NULL, "
	  "\"grid_size_z\" INTEGER NOT NULL, \"region_name_id\" INTEGER, "
	  "\"event_id\" INTEGER, " JSONB("extdata") },
	{ "memory_copy", "\"nid\" INTEGER NOT NULL, \"pid\" INTEGER NOT NULL, "
	  "\"tid\" INTEGER, \"start\" BIGINT NOT NULL, \"end\" BIGINT NOT NULL, "
	  "\"name_id\" INTEGER NOT NULL, \"dst_agent_id\" INTEGER, "
	  "\"dst_address\" INTEGER, \"src_agent_id\" INTEGER, "
	  "\"src_address\" INTEGER, \"size\" INTEGER NOT NULL, "
	  "\"queue_id\" INTEGER, \"stream_id\" INTEGER, "
	  "\"region_name_id\" INTEGER, \"event_id\" INTEGER, "
	  JSONB("extdata") },
	{ "memory_allocate", "\"nid\" INTEGER NOT NULL, "
	  "\"pid\" INTEGER NOT NULL, \"tid\" INTEGER, \"agent_id\" INTEGER, "
	  "\"type\" TEXT CHECK (\"type\" IN "
	  "('ALLOC', 'FREE', 'REALLOC', 'RECLAIM')), "
	  "\"level\" TEXT CHECK (\"level\" IN ('REAL', 'VIRTUAL', 'SCRATCH')), "
	  "\"start\" BIGINT NOT NULL, \"end\" BIGINT NOT NULL, "
	  "\"address\" INTEGER, \"size\" INTEGER NOT NULL, "
	  "\"queue_id\" INTEGER, \"stream_id\" INTEGER, \"event_id\" INTEGER, "
	  JSONB("extdata") },
};

#define RD_NTABLES (sizeof(rd_tables) / sizeof(rd_tables[0]))

int
rd_exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int
rd_ids_new(struct rd_ids *ids)
{
	uint8_t b[32];
	size_t got = 0;
	ssize_t n;
	int i;

	while (got < sizeof(b)) {
		n = getrandom(b + got, sizeof(b) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	/* RFC 4122 version 4 (random) ids. */
	for (i = 0; i < 2; i++) {
		uint8_t *u = b + 16 * i;

		u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
		u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
		snprintf(i ? ids->uuid : ids->guid, sizeof(ids->guid),
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
			 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
			 u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
			 u[12], u[13], u[14], u[15]);
	}
	ids->suffix[0] = '_';
	for (i = 0; ids->uuid[i]; i++)
		ids->suffix[i + 1] = ids->uuid[i] == '-' ? '_' : ids->uuid[i];
	ids->suffix[i + 1] = '\0';
	return 0;
}

int
rd_schema_is_rocpd(sqlite3 *db)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE "
			       "type = 'table' AND name LIKE 'rocpd\\_metadata%' "
			       "ESCAPE '\\'", -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) > 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int
rd_schema_create(sqlite3 *db, const struct rd_ids *ids)
{
	char *sql;
	size_t i;
	int rc = 0;

	/* The metadata table has no guid column (rocpd's neither). */
	sql = sqlite3_mprintf(
		"CREATE TABLE \"rocpd_metadata%s\" (\"id\" INTEGER NOT NULL "
		"PRIMARY KEY AUTOINCREMENT, \"tag\" TEXT NOT NULL, "
		"\"value\" TEXT NOT NULL);"
		"INSERT INTO \"rocpd_metadata%s\" (\"tag\", \"value\") VALUES "
		"('schema_version', '3'), ('uuid', %Q), ('guid', %Q), "
		"('producer', 'kfdtrace');",
		ids->suffix, ids->suffix, ids->suffix, ids->guid);
	if (!sql || rd_exec(db, sql))
		rc = -1;
	sqlite3_free(sql);
	for (i = 0; i < RD_NTABLES && !rc; i++) {
		sql = sqlite3_mprintf(
			"CREATE TABLE \"rocpd_%s%s\" (\"id\" INTEGER NOT NULL "
			"PRIMARY KEY, \"guid\" TEXT GENERATED "
			"ALWAYS AS (%Q) VIRTUAL NOT NULL, %s);",
			rd_tables[i].name, ids->suffix,
			ids->guid, rd_tables[i].cols);
		if (!sql || rd_exec(db, sql))
			rc = -1;
		sqlite3_free(sql);
	}
	return rc;
}

/* The suffixes of every run in the file, in the order they were made. */
static char **
run_suffixes(sqlite3 *db, size_t *n)
{
	sqlite3_stmt *st;
	char **v = NULL, **nv;
	size_t cap = 0;

	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT substr(name, 15) FROM sqlite_master "
			       "WHERE type = 'table' AND name LIKE "
			       "'rocpd\\_metadata%' ESCAPE '\\' ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);

		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto fail;
			v = nv;
		}
		v[*n] = strdup(s ? s : "");
		if (!v[*n])
			goto fail;
		(*n)++;
	}
	sqlite3_finalize(st);
	return v;
fail:
	sqlite3_finalize(st);
	while (*n)
		free(v[--*n]);
	free(v);
	return NULL;
}

/* rocpd_NAME: every run's rocpd_NAME<suffix>, one after the other. */
static int
union_view(sqlite3 *db, const char *name, char **sfx, size_t n)
{
	struct kt_strbuf sb;
	size_t i;
	int rc;

	kt_strbuf_init(&sb);
	kt_strbuf_printf(&sb, "DROP VIEW IF EXISTS \"rocpd_%s\"; "
			 "CREATE VIEW \"rocpd_%s\" AS ", name, name);
	for (i = 0; i < n; i++)
		kt_strbuf_printf(&sb, "%sSELECT * FROM \"rocpd_%s%s\"",
				 i ? " UNION ALL " : "", name, sfx[i]);
	kt_strbuf_printf(&sb, ";");
	rc = sb.failed ? -1 : rd_exec(db, sb.data);
	kt_strbuf_release(&sb);
	return rc;
}

/*
 * rocpd's data views, written here with the columns of rocpd's own
 * (data_views.sql): what `rocpd` and users query. Every join pairs ids
 * within one guid.
 */
static const char rd_data_views[] =
	"CREATE VIEW IF NOT EXISTS \"processes\" AS SELECT N.id AS nid, "
	" N.machine_id, N.system_name, N.hostname, N.release AS system_release,"
	" N.version AS system_version, P.guid, P.ppid, P.pid, P.init, P.start,"
	" P.end, P.fini, P.command FROM rocpd_info_process P"
	" JOIN rocpd_info_node N ON N.id = P.nid AND N.guid = P.guid;"
	"CREATE VIEW IF NOT EXISTS \"threads\" AS SELECT N.id AS nid,"
	" N.machine_id, N.system_name, N.hostname, N.release AS system_release,"
	" N.version AS system_version, P.guid, P.ppid, P.pid, T.tid, T.start,"
	" T.end, T.name FROM rocpd_info_thread T"
	" JOIN rocpd_info_process P ON P.id = T.pid AND P.guid = T.guid"
	" JOIN rocpd_info_node N ON N.id = T.nid AND N.guid = T.guid;"
	"CREATE VIEW IF NOT EXISTS \"regions\" AS SELECT R.id, R.guid,"
	" C.string AS category, S.string AS name, R.nid, P.pid, T.tid,"
	" R.start, R.end, (R.end - R.start) AS duration, R.event_id,"
	" E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id,"
	" E.extdata, E.call_stack, E.line_info FROM rocpd_region R"
	" JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid"
	" LEFT JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid"
	" JOIN rocpd_string S ON S.id = R.name_id AND S.guid = R.guid"
	" JOIN rocpd_info_process P ON P.id = R.pid AND P.guid = R.guid"
	" JOIN rocpd_info_thread T ON T.id = R.tid AND T.guid = R.guid;"
	"CREATE VIEW IF NOT EXISTS \"region_args\" AS SELECT R.id, R.guid,"
	" R.nid, P.pid, A.type, A.name, A.value FROM rocpd_region R"
	" JOIN rocpd_arg A ON A.event_id = R.event_id AND A.guid = R.guid"
	" JOIN rocpd_info_process P ON P.id = R.pid AND P.guid = R.guid;"
	"CREATE VIEW IF NOT EXISTS \"kernels\" AS SELECT K.id, K.guid, T.tid,"
	" C.string AS category, RN.string AS region, S.display_name AS name,"
	" K.nid, P.pid, A.absolute_index AS agent_abs_index,"
	" A.logical_index AS agent_log_index, A.type_index AS agent_type_index,"
	" A.type AS agent_type, S.code_object_id, K.kernel_id, K.dispatch_id,"
	" K.stream_id, K.queue_id, Q.name AS queue, ST.name AS stream, K.start,"
	" K.end, (K.end - K.start) AS duration, K.grid_size_x AS grid_x,"
	" K.grid_size_y AS grid_y, K.grid_size_z AS grid_z,"
	" K.workgroup_size_x AS workgroup_x, K.workgroup_size_y AS workgroup_y,"
	" K.workgroup_size_z AS workgroup_z, K.group_segment_size AS lds_size,"
	" K.private_segment_size AS scratch_size,"
	" S.group_segment_size AS static_lds_size,"
	" S.private_segment_size AS static_scratch_size, E.stack_id,"
	" E.parent_stack_id, E.correlation_id AS corr_id"
	" FROM rocpd_kernel_dispatch K"
	" JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid"
	" JOIN rocpd_event E ON E.id = K.event_id AND E.guid = K.guid"
	" LEFT JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid"
	" JOIN rocpd_string RN ON RN.id = K.region_name_id AND RN.guid = K.guid"
	" JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id"
	"  AND S.guid = K.guid"
	" LEFT JOIN rocpd_info_stream ST ON ST.id = K.stream_id"
	"  AND ST.guid = K.guid"
	" LEFT JOIN rocpd_info_queue Q ON Q.id = K.queue_id AND Q.guid = K.guid"
	" JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid"
	" JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid;"
	"CREATE VIEW IF NOT EXISTS \"memory_copies\" AS SELECT M.id, M.guid,"
	" C.string AS category, M.nid, P.pid, T.tid, M.start, M.end,"
	" (M.end - M.start) AS duration, S.string AS name,"
	" RN.string AS region_name, M.stream_id, M.queue_id,"
	" ST.name AS stream_name, Q.name AS queue_name, M.size,"
	" DA.name AS dst_device, DA.absolute_index AS dst_agent_abs_index,"
	" DA.logical_index AS dst_agent_log_index,"
	" DA.type_index AS dst_agent_type_index, DA.type AS dst_agent_type,"
	" M.dst_address, SA.name AS src_device,"
	" SA.absolute_index AS src_agent_abs_index,"
	" SA.logical_index AS src_agent_log_index,"
	" SA.type_index AS src_agent_type_index, SA.type AS src_agent_type,"
	" M.src_address, E.stack_id, E.parent_stack_id,"
	" E.correlation_id AS corr_id FROM rocpd_memory_copy M"
	" JOIN rocpd_string S ON S.id = M.name_id AND S.guid = M.guid"
	" LEFT JOIN rocpd_string RN ON RN.id = M.region_name_id"
	"  AND RN.guid = M.guid"
	" JOIN rocpd_info_agent DA ON DA.id = M.dst_agent_id AND DA.guid = M.guid"
	" JOIN rocpd_info_agent SA ON SA.id = M.src_agent_id AND SA.guid = M.guid"
	" LEFT JOIN rocpd_info_queue Q ON Q.id = M.queue_id AND Q.guid = M.guid"
	" LEFT JOIN rocpd_info_stream ST ON ST.id = M.stream_id"
	"  AND ST.guid = M.guid"
	" JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid"
	" LEFT JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid"
	" JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid"
	" JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid;"
	"CREATE VIEW IF NOT EXISTS \"memory_allocations\" AS SELECT M.id,"
	" M.guid, C.string AS category, M.nid, P.pid, T.tid, M.start, M.end,"
	" (M.end - M.start) AS duration, M.type, M.level, A.name AS agent_name,"
	" A.absolute_index AS agent_abs_index,"
	" A.logical_index AS agent_log_index, A.type_index AS agent_type_index,"
	" A.type AS agent_type, M.address, M.size, M.queue_id,"
	" Q.name AS queue_name, M.stream_id, ST.name AS stream_name,"
	" E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id"
	" FROM rocpd_memory_allocate M"
	" LEFT JOIN rocpd_info_agent A ON A.id = M.agent_id AND A.guid = M.guid"
	" LEFT JOIN rocpd_info_queue Q ON Q.id = M.queue_id AND Q.guid = M.guid"
	" LEFT JOIN rocpd_info_stream ST ON ST.id = M.stream_id"
	"  AND ST.guid = M.guid"
	" JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid"
	" LEFT JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid"
	" JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid"
	" JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid;";

int
rd_schema_views(sqlite3 *db)
{
	char **sfx;
	size_t n, i;
	int rc;

	sfx = run_suffixes(db, &n);
	if (!sfx)
		return -1;
	rc = union_view(db, "metadata", sfx, n);
	for (i = 0; i < RD_NTABLES && !rc; i++)
		rc = union_view(db, rd_tables[i].name, sfx, n);
	if (!rc)
		rc = rd_exec(db, rd_data_views);
	for (i = 0; i < n; i++)
		free(sfx[i]);
	free(sfx);
	return rc;
}
