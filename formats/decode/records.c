/* SPDX-License-Identifier: MIT */
/*
 * The entry points, the line prefix, and every record kind but ioctl.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>

#include "decode_priv.h"

static void
dec_init(struct dec *d, struct kt_strbuf *sb,
	 const struct kfd_decode_opts *opts, int json)
{
	d->sb = sb;
	d->json = json;
	d->max_elems = KFD_DECODE_DEFAULT_ELEMS;
	d->max_bytes = KFD_DECODE_DEFAULT_BYTES;
	d->flags = 0;
	d->start_ns = 0;
	d->time_format = KFD_DECODE_TIME_REL;
	d->wall_offset_ns = 0;
	if (opts) {
		if (opts->max_elems)
			d->max_elems = opts->max_elems;
		if (opts->max_bytes)
			d->max_bytes = opts->max_bytes;
		d->flags = opts->flags;
		d->start_ns = opts->start_ns;
		d->time_format = opts->time_format;
		d->wall_offset_ns = opts->wall_offset_ns;
		d->kernels = opts->kernels;
	}
}

/* JSON: a string member. */
static void
json_str(struct dec *d, int *first, const char *key, const char *s)
{
	dec_key(d, first, key);
	dec_str(d, s, s ? strlen(s) : 0);
}

static void
json_s64(struct dec *d, int *first, const char *key, int64_t v)
{
	dec_key(d, first, key);
	dec_s64(d, v);
}

static void
json_u64(struct dec *d, int *first, const char *key, uint64_t v)
{
	dec_key(d, first, key);
	dec_u64(d, v);
}

/*
 * Text: a name recorded by the traced program (api-call names and their
 * argument strings) printed bare, except that anything that could break
 * the one-line-per-record format is escaped.
 */
static void
text_bare(struct dec *d, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	static const char hexdig[] = "0123456789abcdef";

	for (; *p; p++) {
		if (*p >= 0x20 && *p < 0x7f) {
			kt_strbuf_putc(d->sb, (char)*p);
		} else {
			char esc[4] = { '\\', 'x', hexdig[*p >> 4],
					hexdig[*p & 0xf] };

			kt_strbuf_append(d->sb, esc, sizeof(esc));
		}
	}
}

static void
text_kind_comment(struct dec *d, uint8_t kind, uint64_t rdev)
{
	if (kind == KFD_FILE_UNKNOWN && !rdev)
		return;
	kt_strbuf_append(d->sb, " /* ", 4);
	kt_strbuf_puts(d->sb, kfd_file_kind_name((enum kfd_file_kind)kind));
	if (rdev) {
		/* Linux dev_t: major in bits 8-19 and 32-43. */
		kt_strbuf_putc(d->sb, ' ');
		kt_strbuf_put_u64(d->sb, ((rdev >> 8) & 0xfff) |
					 ((rdev >> 32) & ~0xfffULL));
		kt_strbuf_putc(d->sb, ':');
		kt_strbuf_put_u64(d->sb, (rdev & 0xff) |
					 ((rdev >> 12) & ~0xffULL));
	}
	kt_strbuf_append(d->sb, " */", 3);
}

static void
dec_open(struct dec *d, int *first, const struct kt_open_rec *o)
{
	uint64_t rest = (uint32_t)o->flags & ~(uint32_t)O_ACCMODE;
	const char *acc = dec_open_accmode(o->flags);
	int has_mode = (o->flags & O_CREAT) || (o->flags & O_TMPFILE) == O_TMPFILE;

	if (d->json) {
		json_str(d, first, "path", o->path);
		dec_key(d, first, "flags");
		dec_flags_lead(d, acc, &dec_open_flags, (uint32_t)o->flags,
			       rest);
		json_u64(d, first, "mode", o->mode);
		json_str(d, first, "file",
			 kfd_file_kind_name((enum kfd_file_kind)o->file_kind));
		json_u64(d, first, "rdev", o->rdev);
		dec_json_ret(d, first, o->ret, o->err);
		return;
	}
	kt_strbuf_append(d->sb, "open(", 5);
	dec_str(d, o->path, o->path ? strlen(o->path) : 0);
	kt_strbuf_append(d->sb, ", ", 2);
	dec_flags_lead(d, acc, &dec_open_flags, (uint32_t)o->flags, rest);
	if (has_mode) {
		kt_strbuf_append(d->sb, ", 0", 3);
		kt_strbuf_printf(d->sb, "%03o", o->mode);
	}
	kt_strbuf_append(d->sb, ") = ", 4);
	dec_text_ret(d, o->ret, o->err);
	if (o->ret >= 0)
		text_kind_comment(d, o->file_kind, o->rdev);
}

static void
dec_close(struct dec *d, int *first, const struct kt_close_rec *c)
{
	if (d->json) {
		json_s64(d, first, "fd", c->fd);
		dec_json_ret(d, first, c->ret, c->err);
		return;
	}
	kt_strbuf_append(d->sb, "close(", 6);
	kt_strbuf_put_s64(d->sb, c->fd);
	kt_strbuf_append(d->sb, ") = ", 4);
	dec_text_ret(d, c->ret, c->err);
}

static const char *const dup_kind_names[] = {
	[KT_DUP] = "dup",
	[KT_DUP2] = "dup2",
	[KT_DUP3] = "dup3",
	[KT_FCNTL_DUPFD] = "F_DUPFD",
	[KT_FCNTL_DUPFD_CLOEXEC] = "F_DUPFD_CLOEXEC",
};

static void
dec_dup(struct dec *d, int *first, const struct kt_dup_rec *r)
{
	const char *kind = r->kind < sizeof(dup_kind_names) /
				     sizeof(dup_kind_names[0]) ?
			   dup_kind_names[r->kind] : NULL;

	if (d->json) {
		dec_key(d, first, "kind");
		if (kind)
			dec_str(d, kind, strlen(kind));
		else
			dec_u64(d, r->kind);
		json_s64(d, first, "oldfd", r->oldfd);
		json_s64(d, first, "newfd", r->newfd);
		json_s64(d, first, "flags", r->flags);
		dec_json_ret(d, first, r->ret, r->err);
		return;
	}
	switch (r->kind) {
	case KT_DUP:
		kt_strbuf_append(d->sb, "dup(", 4);
		kt_strbuf_put_s64(d->sb, r->oldfd);
		break;
	case KT_DUP2:
	case KT_DUP3:
		kt_strbuf_puts(d->sb, kind);
		kt_strbuf_putc(d->sb, '(');
		kt_strbuf_put_s64(d->sb, r->oldfd);
		kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_put_s64(d->sb, r->newfd);
		if (r->kind == KT_DUP3) {
			kt_strbuf_append(d->sb, ", ", 2);
			if (r->flags == O_CLOEXEC)
				kt_strbuf_puts(d->sb, "O_CLOEXEC");
			else
				kt_strbuf_put_hex(d->sb, (uint32_t)r->flags);
		}
		break;
	case KT_FCNTL_DUPFD:
	case KT_FCNTL_DUPFD_CLOEXEC:
		kt_strbuf_append(d->sb, "fcntl(", 6);
		kt_strbuf_put_s64(d->sb, r->oldfd);
		kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_puts(d->sb, kind);
		kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_put_s64(d->sb, r->newfd);
		break;
	default:
		kt_strbuf_append(d->sb, "dup(kind=", 9);
		kt_strbuf_put_u64(d->sb, r->kind);
		kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_put_s64(d->sb, r->oldfd);
		kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_put_s64(d->sb, r->newfd);
		break;
	}
	kt_strbuf_append(d->sb, ") = ", 4);
	dec_text_ret(d, r->ret, r->err);
}

static void
dec_mmap(struct dec *d, int *first, const struct kt_mmap_rec *m)
{
	const char *type = dec_map_type(m->flags);
	uint64_t rest = (uint32_t)m->flags & ~(uint32_t)(type ? MAP_TYPE : 0);
	int failed = m->result == (uint64_t)-1;

	if (d->json) {
		json_u64(d, first, "addr", m->addr);
		json_u64(d, first, "len", m->len);
		dec_key(d, first, "prot");
		dec_flags(d, &dec_prot_flags, (uint32_t)m->prot);
		dec_key(d, first, "flags");
		dec_flags_lead(d, type, &dec_map_flags, (uint32_t)m->flags,
			       rest);
		json_s64(d, first, "fd", m->fd);
		json_str(d, first, "file",
			 kfd_file_kind_name((enum kfd_file_kind)m->file_kind));
		json_u64(d, first, "offset", m->offset);
		if (failed) {
			dec_json_ret(d, first, -1, m->err);
		} else {
			json_u64(d, first, "result", m->result);
		}
		return;
	}
	kt_strbuf_append(d->sb, "mmap(", 5);
	if (m->addr)
		kt_strbuf_put_hex(d->sb, m->addr);
	else
		kt_strbuf_append(d->sb, "NULL", 4);
	kt_strbuf_append(d->sb, ", ", 2);
	kt_strbuf_put_u64(d->sb, m->len);
	kt_strbuf_append(d->sb, ", ", 2);
	if (m->prot == PROT_NONE)
		kt_strbuf_puts(d->sb, "PROT_NONE");
	else
		dec_flags(d, &dec_prot_flags, (uint32_t)m->prot);
	kt_strbuf_append(d->sb, ", ", 2);
	dec_flags_lead(d, type, &dec_map_flags, (uint32_t)m->flags, rest);
	kt_strbuf_append(d->sb, ", ", 2);
	kt_strbuf_put_s64(d->sb, m->fd);
	kt_strbuf_append(d->sb, ", ", 2);
	kt_strbuf_put_hex(d->sb, m->offset);
	kt_strbuf_append(d->sb, ") = ", 4);
	if (failed) {
		dec_text_ret(d, -1, m->err);
	} else {
		kt_strbuf_put_hex(d->sb, m->result);
		text_kind_comment(d, m->file_kind, 0);
	}
}

static void
dec_munmap(struct dec *d, int *first, const struct kt_munmap_rec *m)
{
	if (d->json) {
		json_u64(d, first, "addr", m->addr);
		json_u64(d, first, "len", m->len);
		dec_json_ret(d, first, m->ret, m->err);
		return;
	}
	kt_strbuf_append(d->sb, "munmap(", 7);
	kt_strbuf_put_hex(d->sb, m->addr);
	kt_strbuf_append(d->sb, ", ", 2);
	kt_strbuf_put_u64(d->sb, m->len);
	kt_strbuf_append(d->sb, ") = ", 4);
	dec_text_ret(d, m->ret, m->err);
}

static void
dec_fork(struct dec *d, int *first, const struct kt_fork_rec *f)
{
	if (d->json) {
		json_s64(d, first, "parent_pid", f->parent_pid);
		json_s64(d, first, "child_pid", f->child_pid);
		return;
	}
	kt_strbuf_append(d->sb, "fork() = ", 9);
	kt_strbuf_put_s64(d->sb, f->child_pid);
	if (f->child_pid)
		kt_strbuf_append(d->sb, " /* parent ", 11);
	else
		kt_strbuf_append(d->sb, " /* child of ", 13);
	kt_strbuf_put_s64(d->sb, f->parent_pid);
	kt_strbuf_append(d->sb, " */", 3);
}

static void
dec_exec(struct dec *d, int *first, const struct kt_exec_rec *e)
{
	const char *p = e->argv;
	const char *end = e->argv ? e->argv + e->argv_len : NULL;
	unsigned int n = 0;
	int afirst = 1;

	if (d->json) {
		json_str(d, first, "path", e->path);
		dec_key(d, first, "argv");
	} else {
		kt_strbuf_append(d->sb, "execve(", 7);
		dec_str(d, e->path, e->path ? strlen(e->path) : 0);
		kt_strbuf_append(d->sb, ", ", 2);
	}
	kt_strbuf_putc(d->sb, '[');
	while (p && p < end) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);

		dec_sep(d, &afirst);
		if (n++ == d->max_elems) {
			if (d->json)
				kt_strbuf_append(d->sb, "\"...\"", 5);
			else
				kt_strbuf_append(d->sb, "...", 3);
			break;
		}
		dec_str(d, p, len);
		p += len + 1;
	}
	kt_strbuf_putc(d->sb, ']');
	if (!d->json)
		kt_strbuf_putc(d->sb, ')');
}

static void
dec_topology(struct dec *d, int *first, const struct kt_topology_rec *t)
{
	uint64_t bytes = 0;
	uint32_t i;

	for (i = 0; t->files && i < t->nfiles; i++)
		bytes += t->files[i].len;
	if (d->json) {
		json_u64(d, first, "nfiles", t->nfiles);
		json_u64(d, first, "bytes", bytes);
		return;
	}
	kt_strbuf_append(d->sb, "topology(", 9);
	kt_strbuf_put_u64(d->sb, t->nfiles);
	kt_strbuf_append(d->sb, " files, ", 8);
	kt_strbuf_put_u64(d->sb, bytes);
	kt_strbuf_append(d->sb, " bytes)", 7);
}

static void
dec_api(struct dec *d, int *first, const struct kt_record *rec)
{
	const struct kt_api_call_rec *a = &rec->u.api;
	const char *sname = dec_hsakmt_status_name(a->status);

	if (d->json) {
		json_str(d, first, "name", a->name);
		json_str(d, first, "args", a->args);
		json_s64(d, first, "status", a->status);
		dec_key(d, first, "status_name");
		if (sname)
			dec_str(d, sname, strlen(sname));
		else
			kt_strbuf_append(d->sb, "null", 4);
		json_u64(d, first, "first_seq", a->first_seq);
		json_u64(d, first, "last_seq", a->last_seq);
		if (a->t_exit >= rec->ts)
			json_u64(d, first, "dur_ns", a->t_exit - rec->ts);
		return;
	}
	text_bare(d, a->name);
	kt_strbuf_putc(d->sb, '(');
	text_bare(d, a->args);
	kt_strbuf_append(d->sb, ") = ", 4);
	kt_strbuf_put_s64(d->sb, a->status);
	if (sname) {
		kt_strbuf_putc(d->sb, ' ');
		kt_strbuf_puts(d->sb, sname);
	}
	if (a->first_seq <= a->last_seq) {
		kt_strbuf_append(d->sb, " /* ioctls #", 12);
		kt_strbuf_put_u64(d->sb, a->first_seq);
		if (a->last_seq != a->first_seq) {
			kt_strbuf_append(d->sb, "..#", 3);
			kt_strbuf_put_u64(d->sb, a->last_seq);
		}
		kt_strbuf_append(d->sb, " */", 3);
	}
	if ((d->flags & KFD_DECODE_DURATION) && a->t_exit >= rec->ts) {
		kt_strbuf_append(d->sb, " <", 2);
		dec_duration(d, a->t_exit - rec->ts);
		kt_strbuf_putc(d->sb, '>');
	}
}

static const struct kfd_name end_flag_names[] = {
	{ KT_END_INCOMPLETE, "INCOMPLETE" },
	{ KT_END_SIGNAL, "SIGNAL" },
};

static const struct kfd_name_table end_flags = {
	"end_flags", end_flag_names,
	sizeof(end_flag_names) / sizeof(end_flag_names[0]),
};

static void
dec_end(struct dec *d, int *first, const struct kt_end_rec *e)
{
	if (d->json) {
		dec_key(d, first, "flags");
		dec_flags(d, &end_flags, e->flags);
		json_u64(d, first, "records", e->records);
		json_u64(d, first, "lost", e->lost);
		/* Only when some were: older traces and most have none. */
		if (e->left_out)
			json_u64(d, first, "left_out", e->left_out);
		return;
	}
	kt_strbuf_append(d->sb, "end(", 4);
	if (e->flags == KT_END_CLEAN)
		kt_strbuf_append(d->sb, "clean", 5);
	else
		dec_flags(d, &end_flags, e->flags);
	kt_strbuf_append(d->sb, ", records=", 10);
	kt_strbuf_put_u64(d->sb, e->records);
	kt_strbuf_append(d->sb, ", lost=", 7);
	kt_strbuf_put_u64(d->sb, e->lost);
	if (e->left_out) {
		kt_strbuf_append(d->sb, ", left_out=", 11);
		kt_strbuf_put_u64(d->sb, e->left_out);
	}
	kt_strbuf_putc(d->sb, ')');
}

/* The body of a record, after the prefix. */
static void
dec_body(struct dec *d, int *first, const struct kt_record *rec)
{
	switch (rec->type) {
	case KT_REC_IOCTL:
		dec_ioctl(d, first, rec);
		break;
	case KT_REC_OPEN:
		dec_open(d, first, &rec->u.open);
		break;
	case KT_REC_CLOSE:
		dec_close(d, first, &rec->u.close);
		break;
	case KT_REC_DUP:
		dec_dup(d, first, &rec->u.dup);
		break;
	case KT_REC_MMAP:
		dec_mmap(d, first, &rec->u.mmap);
		break;
	case KT_REC_MUNMAP:
		dec_munmap(d, first, &rec->u.munmap);
		break;
	case KT_REC_FORK:
		dec_fork(d, first, &rec->u.fork);
		break;
	case KT_REC_EXEC:
		dec_exec(d, first, &rec->u.exec);
		break;
	case KT_REC_THREAD_NAME:
		if (d->json) {
			json_str(d, first, "name", rec->u.thread_name.name);
		} else {
			kt_strbuf_append(d->sb, "thread_name(", 12);
			dec_str(d, rec->u.thread_name.name,
				rec->u.thread_name.name ?
				strlen(rec->u.thread_name.name) : 0);
			kt_strbuf_putc(d->sb, ')');
		}
		break;
	case KT_REC_TOPOLOGY:
		dec_topology(d, first, &rec->u.topology);
		break;
	case KT_REC_ANNOTATION:
		if (d->json) {
			json_str(d, first, "text", rec->u.annotation.text);
		} else {
			kt_strbuf_append(d->sb, "annotation(", 11);
			dec_str(d, rec->u.annotation.text,
				rec->u.annotation.text ?
				strlen(rec->u.annotation.text) : 0);
			kt_strbuf_putc(d->sb, ')');
		}
		break;
	case KT_REC_API_CALL:
		dec_api(d, first, rec);
		break;
	case KT_REC_END:
		dec_end(d, first, &rec->u.end);
		break;
	case KT_REC_SUBMIT:
		dec_submit(d, first, &rec->u.submit);
		break;
	case KT_REC_MEMORY:
		dec_memory(d, first, &rec->u.memory);
		break;
	case KT_REC_FD_TRANSFER:
		dec_xfer(d, first, &rec->u.xfer);
		break;
	default:
		if (d->json) {
			json_u64(d, first, "type_id", rec->type);
		} else {
			kt_strbuf_append(d->sb, "record(type=", 12);
			kt_strbuf_put_u64(d->sb, rec->type);
			kt_strbuf_putc(d->sb, ')');
		}
		break;
	}
}

int
kfd_decode_text(struct kt_strbuf *sb, const struct kt_record *rec,
		const struct kfd_decode_opts *opts)
{
	struct dec d;
	int first = 1;

	dec_init(&d, sb, opts, 0);
	if (d.flags & KFD_DECODE_SEQ) {
		kt_strbuf_putc(sb, '#');
		kt_strbuf_put_u64(sb, rec->seq);
		kt_strbuf_putc(sb, ' ');
	}
	kt_strbuf_putc(sb, '[');
	kt_strbuf_put_u64(sb, rec->tid);
	kt_strbuf_append(sb, "] ", 2);
	dec_time(&d, rec->ts);
	kt_strbuf_putc(sb, ' ');
	dec_body(&d, &first, rec);
	return sb->failed ? -ENOMEM : 0;
}

int
kfd_decode_json(struct kt_strbuf *sb, const struct kt_record *rec,
		const struct kfd_decode_opts *opts)
{
	const char *tname = kt_rec_type_name(rec->type);
	struct dec d;
	int first = 1;

	dec_init(&d, sb, opts, 1);
	kt_strbuf_putc(sb, '{');
	json_u64(&d, &first, "seq", rec->seq);
	json_u64(&d, &first, "tid", rec->tid);
	dec_key(&d, &first, "t");
	dec_reltime(&d, rec->ts);
	json_u64(&d, &first, "ts", rec->ts);
	json_str(&d, &first, "type", tname ? tname : "unknown");
	dec_body(&d, &first, rec);
	kt_strbuf_putc(sb, '}');
	return sb->failed ? -ENOMEM : 0;
}

void
kfd_decode_flag_names(struct kt_strbuf *sb, const struct kfd_name_table *t,
		      uint64_t v)
{
	struct dec d = { .sb = sb };

	dec_flags(&d, t, v);
}

void
kfd_decode_sys_flags(struct kt_strbuf *sb, enum kfd_sys_flags which, int flags)
{
	struct dec d = { .sb = sb };
	const char *lead;

	switch (which) {
	case KFD_SYS_OPEN_FLAGS:
		lead = dec_open_accmode(flags);
		dec_flags_lead(&d, lead, &dec_open_flags, (uint32_t)flags,
			       (uint32_t)flags & ~(uint32_t)O_ACCMODE);
		break;
	case KFD_SYS_PROT:
		if (flags == PROT_NONE)
			kt_strbuf_puts(sb, "PROT_NONE");
		else
			dec_flags(&d, &dec_prot_flags, (uint32_t)flags);
		break;
	case KFD_SYS_MAP_FLAGS:
		lead = dec_map_type(flags);
		dec_flags_lead(&d, lead, &dec_map_flags, (uint32_t)flags,
			       (uint32_t)flags & ~(uint32_t)(lead ? MAP_TYPE : 0));
		break;
	}
}
