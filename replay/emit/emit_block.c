/* SPDX-License-Identifier: MIT */
/*
 * emit-c, blocks: each record as the C block of its thread's function (a
 * leading comment with the call as dump prints it, then the call: a system
 * call here, an ioctl in emit_ioctl.c), and the fds the program has while
 * it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* ------------------------------------------------------------------ */
/* Files while emitting                                                 */

static int
fd_grow(struct em *e, int32_t fd)
{
	int32_t *p;
	int n;

	if (fd < 0 || fd >= RP_MAX_FD)
		return -1;
	if (fd < e->nfd)
		return 0;
	n = e->nfd ? e->nfd : 64;
	while (n <= fd)
		n *= 2;
	p = realloc(e->fd_ofd, (size_t)n * sizeof(*p));
	if (!p)
		return -1;
	memset(p + e->nfd, 0, (size_t)(n - e->nfd) * sizeof(*p));
	e->fd_ofd = p;
	e->nfd = n;
	return 0;
}

/* Whether the program has @fd: opened, dup'ed or returned by an ioctl. */
static int
fd_known(const struct em *e, int32_t fd)
{
	return fd >= 0 && fd < e->nfd && e->fd_ofd[fd] != 0;
}

/* An ioctl returned fds (FD-role outputs): the program has them. */
static void
fds_from_ioctl(struct em *e, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_ioctl_desc *d;
	unsigned int i;

	if (io->ret < 0 || !io->arg_after)
		return;
	d = kt_ioctl_row(io);
	for (i = 0; d && d->args && i < d->args->nfields; i++) {
		const struct kfd_field *f = &d->args->fields[i];
		uint64_t v;

		if (!(f->dir & KFD_DIR_OUT) || f->role != KFD_ROLE_FD ||
		    kfd_field_load(f, io->arg_after, io->arg_size, &v) < 0 ||
		    (int32_t)(uint32_t)v < 0 || fd_grow(e, (int32_t)v) < 0)
			continue;
		e->fd_ofd[(int32_t)v] = -1;
	}
}

/* ------------------------------------------------------------------ */
/* Blocks                                                               */

void
em_comment(struct em *e, struct kt_strbuf *sb, const struct kt_record *rec,
	   const char *indent)
{
	struct kfd_decode_opts o = { .start_ns = e->m.hdr.start_monotonic,
				     .max_elems = 4, .max_bytes = 16 };
	struct kt_strbuf t;
	const char *p, *q;
	size_t n;

	kt_strbuf_init(&t);
	kfd_decode_text(&t, rec, &o);
	p = t.data ? t.data : "";
	/* Drop "[tid] +time " (the block says the thread). */
	q = strchr(p, ' ');
	if (q && *p == '[' && (q = strchr(q + 1, ' ')))
		p = q + 1;
	kt_strbuf_printf(sb, "%s/* #%" PRIu64 " ", indent, rec->seq);
	n = strlen(p);
	em_escape(sb, p, n < EM_COMMENT_MAX ? n : EM_COMMENT_MAX, EM_IN_COMMENT);
	kt_strbuf_puts(sb, n > EM_COMMENT_MAX ? " ... */\n" : " */\n");
	kt_strbuf_release(&t);
}

static void
c_string(struct kt_strbuf *sb, const char *s)
{
	kt_strbuf_putc(sb, '"');
	em_escape(sb, s, strlen(s), EM_IN_STRING);
	kt_strbuf_putc(sb, '"');
}

/* A system call record. Return: 1 when it is a call of the program. */
static int
em_sys(struct em *e, struct kt_strbuf *sb, const struct kt_record *rec)
{
	switch (rec->type) {
	case KT_REC_OPEN: {
		const struct kt_open_rec *o = &rec->u.open;
		struct em_ofd *ofd;

		if (!o->path || !rp_device_path(o->path, o->file_kind)) {
			kt_strbuf_puts(sb, "\t/* Not reissued: not a KFD or "
				       "render-node path. */\n");
			e->res.skipped++;
			return 0;
		}
		kt_strbuf_printf(sb, "\trr_open(%" PRIu64 ", %" PRId64 ", ",
				 rec->seq, o->ret < 0 ? (int64_t)-1 : o->ret);
		c_string(sb, o->path);
		kt_strbuf_puts(sb, ", ");
		kfd_decode_sys_flags(sb, KFD_SYS_OPEN_FLAGS,
				     o->flags & (O_ACCMODE | O_CLOEXEC | O_NONBLOCK));
		kt_strbuf_puts(sb, ", ");
		em_errno(sb, o->ret < 0 ? o->err : 0);
		kt_strbuf_puts(sb, ");\n");
		if (o->ret >= 0 && o->ret < RP_MAX_FD && fd_grow(e, (int32_t)o->ret) == 0 &&
		    (ofd = rp_vec_push(&e->ofds))) {
			ofd->kind = o->file_kind;
			ofd->proc = 0;
			e->fd_ofd[o->ret] = (int32_t)e->ofds.n;
		}
		return 1;
	}
	case KT_REC_CLOSE: {
		const struct kt_close_rec *c = &rec->u.close;

		if (!fd_known(e, c->fd)) {
			kt_strbuf_puts(sb, "\t/* Not reissued: the program does not "
				       "have this fd. */\n");
			e->res.skipped++;
			return 0;
		}
		kt_strbuf_printf(sb, "\trr_close(%" PRIu64 ", %d, %" PRId64 ", ",
				 rec->seq, c->fd, c->ret);
		em_errno(sb, c->ret < 0 ? c->err : 0);
		kt_strbuf_puts(sb, ");\n");
		if (c->ret == 0)
			e->fd_ofd[c->fd] = 0;
		return 1;
	}
	case KT_REC_DUP: {
		const struct kt_dup_rec *d = &rec->u.dup;
		int cloexec = d->kind == KT_FCNTL_DUPFD_CLOEXEC ||
			      (d->kind == KT_DUP3 && (d->flags & O_CLOEXEC));

		if (!fd_known(e, d->oldfd)) {
			kt_strbuf_puts(sb, "\t/* Not reissued: the program does not "
				       "have this fd. */\n");
			e->res.skipped++;
			return 0;
		}
		kt_strbuf_printf(sb, "\trr_dup(%" PRIu64 ", %d, %" PRId64 ", %d, ",
				 rec->seq, d->oldfd, d->ret < 0 ? (int64_t)-1 : d->ret,
				 cloexec);
		em_errno(sb, d->ret < 0 ? d->err : 0);
		kt_strbuf_puts(sb, ");\n");
		if (d->ret >= 0 && d->ret < RP_MAX_FD && fd_grow(e, (int32_t)d->ret) == 0)
			e->fd_ofd[d->ret] = e->fd_ofd[d->oldfd];
		return 1;
	}
	case KT_REC_MMAP: {
		const struct kt_mmap_rec *m = &rec->u.mmap;
		int ok = m->result != (uint64_t)-1;

		kt_strbuf_printf(sb, "\trr_mmap(%" PRIu64 ", ", rec->seq);
		em_num(sb, ok ? m->result : m->addr);
		kt_strbuf_printf(sb, ", %" PRIu64 ", ", m->len);
		kfd_decode_sys_flags(sb, KFD_SYS_PROT, m->prot);
		kt_strbuf_puts(sb, ", ");
		kfd_decode_sys_flags(sb, KFD_SYS_MAP_FLAGS, m->flags);
		kt_strbuf_printf(sb, ", %d, %s(", m->fd,
				 m->file_kind == KFD_FILE_KFD ? "rr_kfd_offset" :
				 m->file_kind == KFD_FILE_RENDER ? "rr_offset" : "");
		em_num(sb, m->offset);
		kt_strbuf_printf(sb, "), %d, ", ok);
		em_errno(sb, ok ? 0 : m->err);
		kt_strbuf_puts(sb, ");\n");
		return 1;
	}
	case KT_REC_MUNMAP: {
		const struct kt_munmap_rec *m = &rec->u.munmap;

		kt_strbuf_printf(sb, "\trr_munmap(%" PRIu64 ", ", rec->seq);
		em_num(sb, m->addr);
		kt_strbuf_printf(sb, ", %" PRIu64 ", %" PRId64 ", ", m->len, m->ret);
		em_errno(sb, m->ret < 0 ? m->err : 0);
		kt_strbuf_puts(sb, ");\n");
		return 1;
	}
	case KT_REC_FORK:
		kt_strbuf_puts(sb, "\t/* The capture forked here: the child's calls "
			       "are in its own trace. */\n");
		return 0;
	case KT_REC_EXEC:
		kt_strbuf_puts(sb, "\t/* The capture exec'd here: what ran next is "
			       "in its own trace. */\n");
		return 0;
	case KT_REC_FD_TRANSFER:
		/* The other end is another process: not this program's. */
		kt_strbuf_printf(sb, "\t/* Not reissued: fd_transfer, fds %s "
				 "another process over a Unix socket; a program "
				 "is one process (replay the run's traces "
				 "together). */\n",
				 rec->u.xfer.dir == KT_XFER_SEND ? "sent to" :
				 "received from");
		e->res.skipped++;
		e->res.fd_transfers++;
		return 0;
	default:
		return 0;
	}
}

struct em_thread *
em_thread_of(struct em *e, uint32_t tid)
{
	unsigned int i;

	for (i = 0; i < e->nthreads; i++)
		if (e->th[i].tid == tid)
			return &e->th[i];
	if (e->nthreads == EM_MAX_THREADS)
		return NULL;
	e->th[e->nthreads].tid = tid;
	return &e->th[e->nthreads++];
}

/* Append block @sb to its thread's function, starting a new one if due. */
static int
put_block(struct em *e, struct em_thread *t, const struct kt_strbuf *sb)
{
	unsigned int ti = (unsigned int)(t - e->th);

	if (!t->body) {
		t->body = tmpfile();
		if (!t->body)
			return -errno;
	}
	if (!t->parts || t->blocks == EM_PART_BLOCKS) {
		if (t->parts)
			fputs("}\n\n", t->body);
		fprintf(t->body, "static void\nt%u_%u(void)\n{\n", ti, t->parts);
		t->parts++;
		t->blocks = 0;
	} else {
		fputc('\n', t->body);
	}
	t->blocks++;
	if (fwrite(sb->data, 1, sb->len, t->body) != sb->len)
		return -EIO;
	return 0;
}

int
em_record(struct em *e, const struct kt_record *rec)
{
	struct em_thread *t = em_thread_of(e, rec->tid);
	struct kt_strbuf *sb = &e->sb, *body = &e->body;
	int call;

	if (!t) {
		snprintf(e->err, e->errlen, "more than %d threads", EM_MAX_THREADS);
		return -E2BIG;
	}
	kt_strbuf_clear(sb);
	kt_strbuf_clear(body);
	em_comment(e, sb, rec, "\t");
	if (rec->type == KT_REC_IOCTL) {
		uint64_t before = e->res.skipped;

		em_ioctl(e, body, rec);
		call = e->res.skipped == before;
		if (call)
			fds_from_ioctl(e, rec);
	} else {
		call = em_sys(e, body, rec);
		if (call)
			e->res.calls++;
	}
	/* One call at a time, in this order; a comment takes no turn. */
	if (call && e->threaded)
		kt_strbuf_printf(sb, "\trr_turn(%lu);\n", e->turns++);
	kt_strbuf_append(sb, body->data ? body->data : "", body->len);
	if (call && e->threaded)
		kt_strbuf_puts(sb, "\trr_done();\n");
	if (e->blob_err)
		return e->blob_err;
	if (sb->failed || body->failed)
		return -ENOMEM;
	return put_block(e, t, sb);
}
