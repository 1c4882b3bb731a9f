/* SPDX-License-Identifier: MIT */
/*
 * Event classes of the records that are not schema ioctls, and their
 * payloads. Each class is a table of members; the fill functions set the
 * members by the same indices, so a member added here is added in both.
 *
 * Field names of kfd:mmap and kfd:munmap are those of the lttng provider
 * (tracer/lttng), so one analysis reads both kinds of trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/packets.h>

#include "kbt.h"

enum kbt_mt {
	MT_S32,
	MT_ERRNO,	/* signed 32, errno names (fc_names.c) */
	MT_S64,
	MT_U32,
	MT_U64,
	MT_X32,		/* unsigned 32, hex */
	MT_X64,		/* unsigned 64, hex */
	MT_SX32,	/* signed 32, hex (open/mmap flags) */
	MT_O32,		/* unsigned 32, octal (mode) */
	MT_STR,
	MT_FILE,	/* enum kfd_file_kind */
	MT_DUP,		/* enum kt_dup_kind */
	MT_ENDF,	/* enum kt_end_flags */
	MT_LEN,		/* u32 length of the dynamic array that follows */
	MT_BYTES,	/* dynamic array of u8, hex */
	MT_STRS,	/* dynamic array of strings */
	MT_GPU_IDS,	/* dynamic array of u32 gpu ids (hex, as dump) */
};

struct kbt_member {
	const char *name;
	uint8_t type;
};

struct kbt_fixed_spec {
	const char *name;
	const struct kbt_member *m;
	unsigned int n;
};

#define M(list) list, sizeof(list) / sizeof(list[0])

static const struct kbt_member m_open[] = {
	{ "path", MT_STR }, { "flags", MT_SX32 }, { "mode", MT_O32 },
	{ "file", MT_FILE }, { "rdev", MT_X64 }, { "ret", MT_S64 },
	{ "err", MT_ERRNO },
	/* Names of the flags as dump prints them; last, not to move the rest. */
	{ "flags_names", MT_STR },
};
static const struct kbt_member m_close[] = {
	{ "fd", MT_S32 }, { "ret", MT_S64 }, { "err", MT_ERRNO },
};
static const struct kbt_member m_dup[] = {
	{ "kind", MT_DUP }, { "oldfd", MT_S32 }, { "newfd", MT_S32 },
	{ "flags", MT_SX32 }, { "ret", MT_S64 }, { "err", MT_ERRNO },
};
static const struct kbt_member m_mmap[] = {
	{ "addr", MT_X64 }, { "len", MT_U64 }, { "prot", MT_SX32 },
	{ "flags", MT_SX32 }, { "fd", MT_S32 }, { "kind", MT_FILE },
	{ "offset", MT_X64 }, { "result", MT_X64 }, { "err", MT_ERRNO },
	{ "prot_names", MT_STR }, { "flags_names", MT_STR },
};
static const struct kbt_member m_munmap[] = {
	{ "addr", MT_X64 }, { "len", MT_U64 }, { "ret", MT_S64 },
	{ "err", MT_ERRNO },
};
static const struct kbt_member m_fork[] = {
	{ "parent_pid", MT_S32 }, { "child_pid", MT_S32 },
};
static const struct kbt_member m_exec[] = {
	{ "path", MT_STR }, { "argc", MT_LEN }, { "argv", MT_STRS },
};
static const struct kbt_member m_thread_name[] = {
	{ "name", MT_STR },
};
static const struct kbt_member m_topology[] = {
	{ "nfiles", MT_U32 }, { "bytes", MT_U64 }, { "ngpus", MT_LEN },
	{ "gpu_ids", MT_GPU_IDS },
};
static const struct kbt_member m_annotation[] = {
	{ "text", MT_STR },
};
static const struct kbt_member m_api_call[] = {
	{ "name", MT_STR }, { "args", MT_STR }, { "status", MT_S32 },
	{ "dur_ns", MT_U64 }, { "first_seq", MT_U64 }, { "last_seq", MT_U64 },
};
static const struct kbt_member m_end[] = {
	{ "flags", MT_ENDF }, { "records", MT_U64 }, { "lost", MT_U64 },
	{ "left_out", MT_U64 },
};
/* A doorbell: its packets decoded, one string each (docs/submissions.md). */
static const struct kbt_member m_submit[] = {
	{ "queue_id", MT_U32 }, { "gpu_id", MT_X32 }, { "engine", MT_STR },
	{ "first", MT_U64 }, { "last", MT_U64 }, { "npackets", MT_LEN },
	{ "packets", MT_STRS },
};
static const struct kbt_member m_memory[] = {
	{ "kind", MT_STR }, { "addr", MT_X64 }, { "len", MT_U32 },
	{ "full_len", MT_U32 }, { "flags", MT_U32 },
};
static const struct kbt_member m_unknown_ioctl[] = {
	{ "fd", MT_S32 }, { "file", MT_FILE }, { "request", MT_X32 },
	{ "size", MT_U32 }, { "ret", MT_S64 }, { "err", MT_ERRNO },
	{ "dur_ns", MT_U64 }, { "args_in_len", MT_LEN }, { "args_in", MT_BYTES },
	{ "args_out_len", MT_LEN }, { "args_out", MT_BYTES },
};

/*
 * A call's entry (begin-events): stamped at the entry, which the call's own
 * event (stamped at its end) cannot give an XML analysis. The result is
 * call_ret/call_err, not ret/err: handlers of every kfd:* event that test
 * "ret" must not take an entry for a result.
 */
static const struct kbt_member m_call_begin[] = {
	{ "name", MT_STR }, { "kind", MT_STR }, { "begin_ns", MT_U64 },
	{ "end_ns", MT_U64 }, { "dur_ns", MT_U64 }, { "call_ret", MT_S64 },
	{ "call_err", MT_ERRNO },
};

static const struct kbt_fixed_spec specs[KBT_EC_COUNT] = {
	[KBT_EC_OPEN] = { "kfd:open", M(m_open) },
	[KBT_EC_CLOSE] = { "kfd:close", M(m_close) },
	[KBT_EC_DUP] = { "kfd:dup", M(m_dup) },
	[KBT_EC_MMAP] = { "kfd:mmap", M(m_mmap) },
	[KBT_EC_MUNMAP] = { "kfd:munmap", M(m_munmap) },
	[KBT_EC_FORK] = { "kfd:fork", M(m_fork) },
	[KBT_EC_EXEC] = { "kfd:exec", M(m_exec) },
	[KBT_EC_THREAD_NAME] = { "kfd:thread_name", M(m_thread_name) },
	[KBT_EC_TOPOLOGY] = { "kfd:topology", M(m_topology) },
	[KBT_EC_ANNOTATION] = { "kfd:annotation", M(m_annotation) },
	[KBT_EC_API_CALL] = { "kfd:api_call", M(m_api_call) },
	[KBT_EC_END] = { "kfd:end", M(m_end) },
	[KBT_EC_SUBMIT] = { "kfd:submit", M(m_submit) },
	[KBT_EC_MEMORY] = { "kfd:memory", M(m_memory) },
	[KBT_EC_UNKNOWN_IOCTL] = { "kfd:unknown_ioctl", M(m_unknown_ioctl) },
	[KBT_EC_CALL_BEGIN] = { "kfd:call_begin", M(m_call_begin) },
};

static bt_field_class *
member_fc(bt_trace_class *tc, uint8_t type, bt_field_class *len)
{
	static const char *const dup_labels[] = {
		"dup", "dup2", "dup3", "F_DUPFD", "F_DUPFD_CLOEXEC",
	};
	static const uint64_t dup_values[] = {
		KT_DUP, KT_DUP2, KT_DUP3, KT_FCNTL_DUPFD, KT_FCNTL_DUPFD_CLOEXEC,
	};
	static const char *const end_labels[] = { "CLEAN", "INCOMPLETE",
						  "SIGNAL" };
	static const uint64_t end_values[] = { KT_END_CLEAN, KT_END_INCOMPLETE,
					       KT_END_SIGNAL };
	const char *file_labels[KFD_FILE_KIND_COUNT];
	uint64_t file_values[KFD_FILE_KIND_COUNT];
	bt_field_class *fc, *elem;
	unsigned int i;

	switch (type) {
	case MT_S32:
		return kbt_fc_sint(tc, 32, 0);
	case MT_ERRNO:
		return kbt_fc_errno(tc);
	case MT_S64:
		return kbt_fc_sint(tc, 64, 0);
	case MT_U32:
	case MT_LEN:
		return kbt_fc_uint(tc, 32, 0);
	case MT_U64:
		return kbt_fc_uint(tc, 64, 0);
	case MT_X32:
		return kbt_fc_uint(tc, 32, 1);
	case MT_X64:
		return kbt_fc_uint(tc, 64, 1);
	case MT_SX32:
		return kbt_fc_sint(tc, 32, 1);
	case MT_O32:
		fc = kbt_fc_uint(tc, 32, 0);
		if (fc)
			bt_field_class_integer_set_preferred_display_base(fc,
				BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_OCTAL);
		return fc;
	case MT_STR:
		return bt_field_class_string_create(tc);
	case MT_FILE:
		for (i = 0; i < KFD_FILE_KIND_COUNT; i++) {
			file_labels[i] = kfd_file_kind_name(i);
			file_values[i] = i;
		}
		return kbt_fc_enum_labels(tc, 8, file_labels, file_values,
					  KFD_FILE_KIND_COUNT);
	case MT_DUP:
		return kbt_fc_enum_labels(tc, 8, dup_labels, dup_values, 5);
	case MT_ENDF:
		fc = kbt_fc_enum_labels(tc, 32, end_labels, end_values, 3);
		if (fc)
			bt_field_class_integer_set_preferred_display_base(fc,
				BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
		return fc;
	case MT_BYTES:
		elem = kbt_fc_uint(tc, 8, 1);
		break;
	case MT_STRS:
		elem = bt_field_class_string_create(tc);
		break;
	case MT_GPU_IDS:
		elem = kbt_fc_gpu_id(tc);
		break;
	default:
		return NULL;
	}
	if (!elem || !len) {
		bt_field_class_put_ref(elem);
		return NULL;
	}
	fc = bt_field_class_array_dynamic_create(tc, elem, len);
	bt_field_class_put_ref(elem);
	return fc;
}

bt_event_class *
kbt_fixed_class(bt_stream_class *sc, enum kbt_fixed_ec which)
{
	bt_trace_class *tc = bt_stream_class_borrow_trace_class(sc);
	const struct kbt_fixed_spec *s = &specs[which];
	bt_field_class *st, *last = NULL;
	bt_event_class *ec;
	unsigned int i;

	ec = bt_event_class_create(sc);
	st = bt_field_class_structure_create(tc);
	if (!ec || !st || bt_event_class_set_name(ec, s->name))
		goto fail;
	for (i = 0; i < s->n; i++) {
		bt_field_class *fc = member_fc(tc, s->m[i].type, last);

		/* The length member stays alive in the structure. */
		last = s->m[i].type == MT_LEN ? fc : NULL;
		if (kbt_struct_add(st, s->m[i].name, fc))
			goto fail;
	}
	if (bt_event_class_set_payload_field_class(ec, st))
		goto fail;
	bt_field_class_put_ref(st);
	return ec;
fail:
	bt_field_class_put_ref(st);
	bt_event_class_put_ref(ec);
	return NULL;
}

/* ---- filling ---- */

static inline void
set_u(bt_field *p, uint64_t i, uint64_t v)
{
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(p, i), v);
}

static inline void
set_s(bt_field *p, uint64_t i, int64_t v)
{
	bt_field_integer_signed_set_value(
		bt_field_structure_borrow_member_field_by_index(p, i), v);
}

/* A string of the trace: escaped (kbt_string_set()). */
static inline int
set_str(bt_field *p, uint64_t i, const char *s)
{
	return kbt_string_set(bt_field_structure_borrow_member_field_by_index(p, i),
			      s, SIZE_MAX);
}

/* Members 0-4, then the packets as strings (length 5, array 6). */
static int
set_submit(bt_field *p, const struct kt_submit_rec *s)
{
	bt_field *a = bt_field_structure_borrow_member_field_by_index(p, 6);
	struct kt_strbuf sb;
	size_t off, size;
	uint64_t n = 0, k;
	int rc = 0;

	set_u(p, 0, s->queue_id);
	set_u(p, 1, s->gpu_id);
	set_u(p, 3, s->first);
	set_u(p, 4, s->last);
	if (set_str(p, 2, kfd_engine_name(s->engine)))
		return -1;
	kt_strbuf_init(&sb);
	for (off = 0; n < KBT_MAX_ARGS; off += size, n++) {
		kt_strbuf_clear(&sb);
		size = kfd_decode_packet(&sb, s, off, NULL);
		if (!size)
			break;
	}
	set_u(p, 5, n);
	if (bt_field_array_dynamic_set_length(a, n)) {
		kt_strbuf_release(&sb);
		return -1;
	}
	for (off = 0, k = 0; k < n && !rc; off += size, k++) {
		kt_strbuf_clear(&sb);
		size = kfd_decode_packet(&sb, s, off, NULL);
		rc = bt_field_string_set_value(
			bt_field_array_borrow_element_field_by_index(a, k),
			sb.data ? sb.data : "") ? -1 : 0;
	}
	rc = rc || sb.failed ? -1 : 0;
	kt_strbuf_release(&sb);
	return rc;
}

/* Length member @i, byte array member @i + 1. */
static int
set_bytes(bt_field *p, uint64_t i, const uint8_t *b, uint32_t n)
{
	bt_field *a = bt_field_structure_borrow_member_field_by_index(p, i + 1);
	uint32_t k;

	if (!b)
		n = 0;
	set_u(p, i, n);
	if (bt_field_array_dynamic_set_length(a, n))
		return -1;
	for (k = 0; k < n; k++)
		bt_field_integer_unsigned_set_value(
			bt_field_array_borrow_element_field_by_index(a, k), b[k]);
	return 0;
}

/*
 * exec: argv is NUL-separated; a last argument without a NUL still counts.
 * Every argument is a field of its own, so at most KBT_MAX_ARGS arguments
 * and KBT_MAX_ARGV_BYTES bytes of them are kept (the last kept one may be
 * cut short); then one more argument, the marker, states what the record
 * held.
 */
static int
set_argv(bt_field *p, uint64_t i, const char *argv, uint32_t len,
	 const struct kt_record *rec, struct kbt_cuts *cuts)
{
	bt_field *a = bt_field_structure_borrow_member_field_by_index(p, i + 1);
	uint32_t n = 0, kept = 0, used = 0, k, start;
	int cut = 0, fill;

	for (k = 0; argv && k < len; k++)
		if (argv[k] == '\0' || k + 1 == len)
			n++;
	/* Pass 0 counts what is kept, pass 1 fills it in. */
	for (fill = 0; fill < 2; fill++) {
		uint32_t m = 0;

		for (k = 0, start = 0, used = 0; argv && k < len; k++) {
			uint32_t end, l;

			if (argv[k] != '\0' && k + 1 != len)
				continue;
			if (m == KBT_MAX_ARGS || used == KBT_MAX_ARGV_BYTES)
				break;
			end = argv[k] == '\0' ? k : k + 1;
			l = end - start;
			if (l > KBT_MAX_ARGV_BYTES - used)
				l = KBT_MAX_ARGV_BYTES - used;
			if (fill) {
				bt_field *e = bt_field_array_borrow_element_field_by_index(a, m);

				if (kbt_string_set(e, argv + start, l))
					return -1;
			}
			if (l < end - start)
				cut = 1;	/* this one is cut short */
			m++;
			used += l;
			start = k + 1;
		}
		if (!fill) {
			kept = m;
			cut = cut || kept < n;
			set_u(p, i, kept + (cut ? 1 : 0));
			if (bt_field_array_dynamic_set_length(a, kept + (cut ? 1 : 0)))
				return -1;
		}
	}
	if (cut) {
		char marker[96];

		kbt_cut(cuts, rec, len);
		snprintf(marker, sizeof(marker),
			 "[argv cut: %u arguments, %u bytes in the record]",
			 n, len);
		if (bt_field_string_set_value(
			    bt_field_array_borrow_element_field_by_index(a, kept),
			    marker))
			return -1;
	}
	return 0;
}

/*
 * The topology summary: file count, bytes, and the gpu_id of every node
 * that has one (".../topology/nodes/N/gpu_id" holds it in decimal; CPU
 * nodes hold 0).
 */
static int
set_topology(bt_field *p, const struct kt_topology_rec *t)
{
	bt_field *a = bt_field_structure_borrow_member_field_by_index(p, 3);
	uint64_t bytes = 0;
	uint32_t *ids, n = 0, i;
	int rc = 0;

	ids = calloc(t->nfiles ? t->nfiles : 1, sizeof(*ids));
	if (!ids)
		return -1;
	for (i = 0; i < t->nfiles; i++) {
		const struct kt_topo_file *f = &t->files[i];
		const char *s = f->path ? strrchr(f->path, '/') : NULL;
		char num[24];
		size_t l;

		bytes += f->len;
		if (!s || strcmp(s, "/gpu_id") != 0 || !strstr(f->path, "/nodes/"))
			continue;
		l = f->len < sizeof(num) - 1 ? f->len : sizeof(num) - 1;
		memcpy(num, f->data, l);
		num[l] = '\0';
		if (strtoul(num, NULL, 10))
			ids[n++] = (uint32_t)strtoul(num, NULL, 10);
	}
	set_u(p, 0, t->nfiles);
	set_u(p, 1, bytes);
	set_u(p, 2, n);
	if (bt_field_array_dynamic_set_length(a, n))
		rc = -1;
	for (i = 0; !rc && i < n; i++)
		bt_field_integer_unsigned_set_value(
			bt_field_array_borrow_element_field_by_index(a, i), ids[i]);
	free(ids);
	return rc;
}

int
kbt_fill_fixed(enum kbt_fixed_ec which, bt_field *p,
	       const struct kt_record *rec, struct kbt_cuts *cuts)
{
	const struct kt_open_rec *o = &rec->u.open;
	const struct kt_mmap_rec *m = &rec->u.mmap;
	const struct kt_api_call_rec *a = &rec->u.api;

	switch (which) {
	case KBT_EC_OPEN:
		set_u(p, 2, o->mode);
		set_s(p, 1, o->flags);
		set_u(p, 3, o->file_kind);
		set_u(p, 4, o->rdev);
		set_s(p, 5, o->ret);
		set_s(p, 6, o->err);
		if (kbt_sys_flag_names_set(p, 7, KFD_SYS_OPEN_FLAGS, o->flags))
			return -1;
		return set_str(p, 0, o->path);
	case KBT_EC_CLOSE:
		set_s(p, 0, rec->u.close.fd);
		set_s(p, 1, rec->u.close.ret);
		set_s(p, 2, rec->u.close.err);
		return 0;
	case KBT_EC_DUP:
		set_u(p, 0, rec->u.dup.kind);
		set_s(p, 1, rec->u.dup.oldfd);
		set_s(p, 2, rec->u.dup.newfd);
		set_s(p, 3, rec->u.dup.flags);
		set_s(p, 4, rec->u.dup.ret);
		set_s(p, 5, rec->u.dup.err);
		return 0;
	case KBT_EC_MMAP:
		set_u(p, 0, m->addr);
		set_u(p, 1, m->len);
		set_s(p, 2, m->prot);
		set_s(p, 3, m->flags);
		set_s(p, 4, m->fd);
		set_u(p, 5, m->file_kind);
		set_u(p, 6, m->offset);
		set_u(p, 7, m->result);
		set_s(p, 8, m->err);
		if (kbt_sys_flag_names_set(p, 9, KFD_SYS_PROT, m->prot) ||
		    kbt_sys_flag_names_set(p, 10, KFD_SYS_MAP_FLAGS, m->flags))
			return -1;
		return 0;
	case KBT_EC_MUNMAP:
		set_u(p, 0, rec->u.munmap.addr);
		set_u(p, 1, rec->u.munmap.len);
		set_s(p, 2, rec->u.munmap.ret);
		set_s(p, 3, rec->u.munmap.err);
		return 0;
	case KBT_EC_FORK:
		set_s(p, 0, rec->u.fork.parent_pid);
		set_s(p, 1, rec->u.fork.child_pid);
		return 0;
	case KBT_EC_EXEC:
		if (set_str(p, 0, rec->u.exec.path))
			return -1;
		return set_argv(p, 1, rec->u.exec.argv, rec->u.exec.argv_len,
				rec, cuts);
	case KBT_EC_THREAD_NAME:
		return set_str(p, 0, rec->u.thread_name.name);
	case KBT_EC_TOPOLOGY:
		return set_topology(p, &rec->u.topology);
	case KBT_EC_ANNOTATION:
		return set_str(p, 0, rec->u.annotation.text);
	case KBT_EC_API_CALL:
		set_s(p, 2, a->status);
		set_u(p, 3, a->t_exit > rec->ts ? a->t_exit - rec->ts : 0);
		set_u(p, 4, a->first_seq);
		set_u(p, 5, a->last_seq);
		if (set_str(p, 0, a->name))
			return -1;
		return set_str(p, 1, a->args);
	case KBT_EC_END:
		set_u(p, 0, rec->u.end.flags);
		set_u(p, 1, rec->u.end.records);
		set_u(p, 2, rec->u.end.lost);
		set_u(p, 3, rec->u.end.left_out);
		return 0;
	case KBT_EC_SUBMIT:
		return set_submit(p, &rec->u.submit);
	case KBT_EC_MEMORY: {
		static const char *const kinds[KT_MEM_KIND_MAX] = {
			"unknown", "code", "kernarg", "signal", "copy_source",
			"indirect_buffer",
		};
		const struct kt_memory_rec *mr = &rec->u.memory;

		set_u(p, 1, mr->addr);
		set_u(p, 2, mr->len);
		set_u(p, 3, mr->full_len);
		set_u(p, 4, mr->flags);
		return set_str(p, 0, mr->kind < KT_MEM_KIND_MAX ? kinds[mr->kind] :
			       "unknown");
	}
	default:
		return -1;
	}
}

/* An ioctl the schema does not know: the request and the raw argument bytes. */
int
kbt_fill_unknown_ioctl(bt_field *p, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;

	set_s(p, 0, io->fd);
	set_u(p, 1, io->file_kind);
	set_u(p, 2, io->request);
	set_u(p, 3, io->arg_size);
	set_s(p, 4, io->ret);
	set_s(p, 5, io->err);
	set_u(p, 6, io->t_exit > rec->ts ? io->t_exit - rec->ts : 0);
	if (set_bytes(p, 7, io->arg_before, io->arg_size))
		return -1;
	return set_bytes(p, 9, io->arg_after, io->arg_size);
}

int
kbt_fill_call_begin(bt_field *p, const struct kt_record *rec,
		    const char *name, int64_t clock_off_ns)
{
	int api = rec->type == KT_REC_API_CALL;
	uint64_t t_exit = api ? rec->u.api.t_exit : rec->u.ioctl.t_exit;
	uint64_t end = t_exit > rec->ts ? t_exit : rec->ts;

	set_u(p, 2, rec->ts + (uint64_t)clock_off_ns);
	set_u(p, 3, end + (uint64_t)clock_off_ns);
	set_u(p, 4, end - rec->ts);
	set_s(p, 5, api ? rec->u.api.status : rec->u.ioctl.ret);
	set_s(p, 6, api ? 0 : rec->u.ioctl.err);
	if (set_str(p, 0, name))
		return -1;
	return set_str(p, 1, api ? "api" : "ioctl");
}
