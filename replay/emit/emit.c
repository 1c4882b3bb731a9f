/* SPDX-License-Identifier: MIT */
/*
 * kfd_emit_c(): a capture as a standalone C program.
 *
 * The records are read in sequence order, as the serial replay issues
 * them, with the corrections the replay makes by holding calls. Records
 * are numbered when they are appended, after their calls returned, so a
 * call can be numbered after one it came before:
 *  - a SET_EVENT that released a completed WAIT_EVENTS numbered before
 *    it goes just before that wait;
 *  - a wait numbered after a SET_EVENT that entered once the wait had
 *    returned goes just before that SET_EVENT (or the set would signal
 *    the event again before the wait consumed it once);
 *  - the end of an id's previous life goes just before the creation that
 *    got the id back (the model's swaps).
 * A moved record passes no call of its own thread (those were appended,
 * and numbered, before it entered its call), so every thread keeps its
 * order: the program runs each captured thread on a thread of its own,
 * and rr_turn() lets one call run at a time, in this order.
 *
 * Each thread's blocks go to a temporary file as they are made; the
 * definitions they used (emit_abi.c) are written before them at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* The runtime's text (repro_rt.c), embedded at build time. */
extern const char em_runtime[];

/* How far a released wait looks for the SET_EVENT that released it. */
#define EM_WAIT_WINDOW 4096

struct em_item {
	struct kt_record *rec;
	uint64_t major;		/* the seq it goes with (its own, or another's) */
	int8_t moved;		/* -1: just before that record */
};

static int
cmp_item(const void *a, const void *b)
{
	const struct em_item *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->moved != y->moved)
		return x->moved < y->moved ? -1 : 1;
	return x->rec->seq < y->rec->seq ? -1 : x->rec->seq > y->rec->seq;
}

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

struct em_ofd *
em_fd_ofd(struct em *e, int32_t fd)
{
	if (fd < 0 || fd >= e->nfd || e->fd_ofd[fd] <= 0)
		return NULL;
	return RP_AT(&e->ofds, struct em_ofd, e->fd_ofd[fd] - 1);
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
	d = kfd_schema_lookup((enum kfd_file_kind)io->file_kind, io->request);
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
	for (n = 0; p[n] && n < EM_COMMENT_MAX; n++) {
		/* Dump's own comments become parentheses. */
		if (p[n] == '/' && p[n + 1] == '*') {
			kt_strbuf_putc(sb, '(');
			n += 1 + (p[n + 2] == ' ');
		} else if (p[n] == ' ' && p[n + 1] == '*' && p[n + 2] == '/') {
			kt_strbuf_putc(sb, ')');
			n += 2;
		} else if (p[n] == '*' && p[n + 1] == '/') {
			kt_strbuf_putc(sb, ')');
			n++;
		} else if (p[n] == '\n')
			kt_strbuf_putc(sb, ' ');
		else
			kt_strbuf_putc(sb, p[n]);
	}
	kt_strbuf_puts(sb, p[n] ? " ... */\n" : " */\n");
	kt_strbuf_release(&t);
}

static void
c_string(struct kt_strbuf *sb, const char *s)
{
	kt_strbuf_putc(sb, '"');
	kfd_text_escape(sb, s, strlen(s));
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
		if (o->ret >= 0 && fd_grow(e, (int32_t)o->ret) == 0 &&
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
		if (d->ret >= 0 && fd_grow(e, (int32_t)d->ret) == 0)
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
	default:
		return 0;
	}
}

static struct em_thread *
thread_of(struct em *e, uint32_t tid)
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

static int
emit_record(struct em *e, const struct kt_record *rec)
{
	struct em_thread *t = thread_of(e, rec->tid);
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
	if (sb->failed || body->failed)
		return -ENOMEM;
	return put_block(e, t, sb);
}

/* ------------------------------------------------------------------ */
/* Order                                                                */

/*
 * Put items[@y] just before items[@x]: keys only, the sort comes after
 * all moves. The calls a record is moved past are never of its own
 * thread: records are numbered as they are appended, after their calls
 * returned, so the calls its thread made before it were numbered before
 * the record it now precedes (see order()).
 */
static void
move_before(struct em_item *it, size_t y, size_t x)
{
	it[y].major = it[x].major;
	it[y].moved = -1;
}

/* Whether every thread's records are in its own (sequence) order. */
static int
thread_ordered(const struct em_item *it, size_t n)
{
	struct { uint32_t tid; uint64_t seq; } last[EM_MAX_THREADS];
	unsigned int nl = 0, k;
	size_t i;

	for (i = 0; i < n; i++) {
		for (k = 0; k < nl && last[k].tid != it[i].rec->tid; k++)
			;
		if (k == nl) {
			if (nl == EM_MAX_THREADS)
				return 0;
			last[nl].tid = it[i].rec->tid;
			nl++;
		} else if (it[i].rec->seq < last[k].seq) {
			return 0;
		}
		last[k].seq = it[i].rec->seq;
	}
	return 1;
}

static size_t
find_seq(const struct em_item *it, size_t n, uint64_t seq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (it[mid].rec->seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && it[lo].rec->seq == seq ? lo : n;
}

/* Whether items[i] is a SET_EVENT of one of @ids entered in [from, to]. */
static int
sets_one(const struct em *e, const struct em_item *it, size_t i,
	 const uint32_t *ids, int n, uint64_t from, uint64_t to)
{
	uint32_t id;
	int k;

	if (!rp_set_event_id(e->rows, it[i].rec, &id) ||
	    it[i].rec->u.ioctl.ret < 0 || it[i].rec->ts < from ||
	    it[i].rec->ts > to)
		return 0;
	for (k = 0; k < n; k++)
		if (ids[k] == id)
			return 1;
	return 0;
}

static void
order(struct em *e, struct em_item *it, size_t n)
{
	const struct rp_rows *r = e->rows;
	size_t i, j;

	/* Swaps: the end of an id's previous life first. */
	for (i = 0; i < e->m.swaps.n; i++) {
		const struct rp_swap *s = RP_AT(&e->m.swaps, struct rp_swap, i);
		size_t c = find_seq(it, n, s->c), d = find_seq(it, n, s->e);

		if (c < n && d < n && c < d)
			move_before(it, d, c);
	}
	/* Waits: after the SET_EVENT that released them. */
	for (i = 0; i < n; i++) {
		const struct kt_record *w = it[i].rec;
		const struct kfd_ioctl_desc *d;
		uint32_t ids[64];
		int k, before = 0;

		if (w->type != KT_REC_IOCTL)
			continue;
		d = kfd_schema_lookup((enum kfd_file_kind)w->u.ioctl.file_kind,
				      w->u.ioctl.request);
		if (d != r->wait_events || !rp_wait_completed(r, d, &w->u.ioctl))
			continue;
		k = rp_wait_ids(r, w, ids, 64);
		if (k <= 0 || k > 64)
			continue;
		/*
		 * A SET_EVENT numbered before it that entered after it had
		 * returned did not release it (a wait's record can be
		 * appended late): the wait goes before it, or that set would
		 * signal the event again before the wait consumed it once.
		 * (The wait's thread was in the wait meanwhile: none of its
		 * own calls lie between.)
		 */
		for (j = i > EM_WAIT_WINDOW ? i - EM_WAIT_WINDOW : 0; j < i; j++)
			if (sets_one(e, it, j, ids, k, w->u.ioctl.t_exit + 1, UINT64_MAX)) {
				move_before(it, i, j);
				break;
			}
		for (j = i > EM_WAIT_WINDOW ? i - EM_WAIT_WINDOW : 0; j < i && !before; j++)
			before = sets_one(e, it, j, ids, k, w->ts, w->u.ioctl.t_exit);
		if (before)
			continue;
		/*
		 * One numbered after it that entered before it returned may
		 * have signalled before the wait entered, or while it waited.
		 */
		for (j = i + 1; j < n && j <= i + EM_WAIT_WINDOW; j++)
			if (sets_one(e, it, j, ids, k, 0, w->u.ioctl.t_exit)) {
				move_before(it, j, i);
				break;
			}
	}
	qsort(it, n, sizeof(*it), cmp_item);
	if (!thread_ordered(it, n)) {
		/* Never a program that waits for itself: sequence order. */
		for (i = 0; i < n; i++) {
			it[i].major = it[i].rec->seq;
			it[i].moved = 0;
		}
		qsort(it, n, sizeof(*it), cmp_item);
	}
}

/* ------------------------------------------------------------------ */
/* The program                                                          */

static int
load(struct em *e, struct em_item **out, size_t *nout)
{
	const struct kt_record *rec;
	struct em_item *it = NULL;
	struct rp_stream s;
	size_t n = 0, cap = 0;
	int r;

	r = rp_stream_open(&s, e->path, e->m.first_seq);
	if (r < 0) {
		snprintf(e->err, e->errlen, "%s: %s", e->path, kt_strerror(r));
		return r;
	}
	while ((r = rp_stream_next(&s, &rec)) > 0) {
		e->res.records++;
		if (rec->type < KT_REC_IOCTL || rec->type > KT_REC_EXEC)
			continue;
		if (n == cap) {
			struct em_item *p;

			cap = cap ? 2 * cap : 1024;
			p = realloc(it, cap * sizeof(*it));
			if (!p) {
				r = -ENOMEM;
				break;
			}
			it = p;
		}
		it[n].rec = kt_record_clone(rec);
		if (!it[n].rec) {
			r = -ENOMEM;
			break;
		}
		it[n].major = rec->seq;
		it[n].moved = 0;
		n++;
	}
	rp_stream_close(&s);
	*out = it;
	*nout = n;
	if (r < 0) {
		snprintf(e->err, e->errlen, "%s: %s", e->path, kt_strerror(r));
		return r;
	}
	return 0;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct rp_m_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void
write_data(struct em *e, FILE *out)
{
	const struct kt_topo *t = &e->m.topo;
	struct rp_m_range *rs = NULL;
	size_t n = 0, i;
	unsigned int k, ng = 0;

	fputs("/* The captured GPUs, in topology order, and their render nodes. */\n"
	      "static const uint32_t cap_gpus[] = {", out);
	for (k = 0; e->m.have_topo && k < t->nnodes; k++)
		if (t->nodes[k].present && t->nodes[k].gpu_id)
			fprintf(out, "%s0x%" PRIx32, ng++ ? ", " : " ",
				t->nodes[k].gpu_id);
	fputs(ng ? " };\nstatic const int cap_minors[] = {" : " 0 };\n"
	      "static const int cap_minors[] = {", out);
	ng = 0;
	for (k = 0; e->m.have_topo && k < t->nnodes; k++)
		if (t->nodes[k].present && t->nodes[k].gpu_id)
			fprintf(out, "%s%" PRIu64, ng++ ? ", " : " ",
				t->nodes[k].drm_render_minor);
	fprintf(out, "%s };\n#define CAP_NGPUS %uu\n\n", ng ? "" : " 0", ng);

	/* Captured CPU ranges: page-aligned, sorted, merged. */
	if (e->m.ranges.n)
		rs = calloc(e->m.ranges.n, sizeof(*rs));
	for (i = 0; rs && i < e->m.ranges.n; i++) {
		const struct rp_m_range *g = RP_AT(&e->m.ranges, struct rp_m_range, i);
		uint64_t s = RP_PAGE_ALIGN_DOWN(g->start), end = RP_PAGE_ALIGN_UP(g->end);

		if (s < RP_USER_MIN || end > RP_USER_MAX || end <= s)
			continue;
		rs[n].start = s;
		rs[n].end = end;
		n++;
	}
	if (n)
		qsort(rs, n, sizeof(*rs), cmp_range);
	fputs("/* CPU ranges the capture had device mappings or user memory "
	      "at. */\nstatic struct rr_range cap_ranges[] = {\n", out);
	for (i = 0, k = 0; i < n; k++) {
		uint64_t s = rs[i].start, end = rs[i].end;

		for (i++; i < n && rs[i].start <= end; i++)
			if (rs[i].end > end)
				end = rs[i].end;
		fprintf(out, "\t{ 0x%" PRIx64 "ull, 0x%" PRIx64 "ull, 0 },\n", s, end);
	}
	if (!k)
		fputs("\t{ 0, 0, 0 },\n", out);
	fprintf(out, "};\n#define CAP_NRANGES %uu\n\n", k);
	free(rs);
}

static int
copy_file(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -EIO;
	return ferror(from) ? -EIO : 0;
}

static void
write_head(struct em *e, FILE *out)
{
	const struct kt_header *h = &e->m.hdr;

	fprintf(out, "/*\n * Written by `kfdtrace emit-c` from %s:\n"
		" * pid %d (%s), captured on %s, Linux %s, KFD ABI %u.%u%s.\n"
		" * %" PRIu64 " calls (%" PRIu64 " ioctls) on %u thread%s; %" PRIu64
		" left out, each with a comment saying why.\n"
		" *\n"
		" * It needs libc only. Build and run it:\n"
		" *\tcc -pthread -Wall -Wextra -o repro repro.c\n"
		" *\t./repro                     (a machine with /dev/kfd)\n"
		" *\tkfdtrace sim -- ./repro     (kfdsim)\n"
		" * Exit status: 0 when every call returned what it returned in the\n"
		" * capture, 1 at the first difference, which it prints.\n */\n",
		e->path, h->pid, h->exe, h->host, h->kernel_release,
		e->m.abi_major, e->m.abi_minor,
		h->flags & KT_HDR_SIMULATED ? " (kfdsim)" : "",
		e->res.calls, e->res.ioctls, e->res.threads,
		e->res.threads == 1 ? "" : "s", e->res.skipped);
	if (e->m.integrity != KT_INTEGRITY_OK)
		fprintf(out, "/* The capture is incomplete: %s */\n", e->m.integrity_msg);
}

static int
write_program(struct em *e, FILE *out)
{
	unsigned int i, k;
	int r;

	write_head(e, out);
	fputs(em_runtime, out);
	fputc('\n', out);
	em_write_defs(e, out);
	write_data(e, out);
	fputs("/* ---------------------------------------------------------- */\n"
	      "/* The calls, per captured thread.                              */\n\n",
	      out);
	for (i = 0; i < e->nthreads; i++) {
		struct em_thread *t = &e->th[i];

		if (!t->body)
			continue;
		fprintf(out, "/* Thread %u: tid %" PRIu32 " of the capture. */\n", i,
			t->tid);
		r = copy_file(t->body, out);
		if (r < 0)
			return r;
		fputs("}\n\n", out);
		fprintf(out, "static void *\nthread_%u(void *arg)\n{\n\t(void)arg;\n", i);
		for (k = 0; k < t->parts; k++)
			fprintf(out, "\tt%u_%u();\n", i, k);
		fputs("\treturn NULL;\n}\n\n", out);
	}
	fputs("int\nmain(void)\n{\n", out);
	if (e->res.threads > 1)
		fprintf(out, "\tpthread_t t[%u];\n\n", e->nthreads);
	fputs("\trr_init(cap_gpus, cap_minors, CAP_NGPUS, cap_ranges, "
	      "CAP_NRANGES);\n", out);
	for (i = 1; i < e->nthreads && e->res.threads > 1; i++)
		if (e->th[i].body)
			fprintf(out, "\trr_start(&t[%u], thread_%u);\n", i, i);
	if (e->nthreads && e->th[0].body)
		fputs("\tthread_0(NULL);\n", out);
	for (i = 1; i < e->nthreads && e->res.threads > 1; i++)
		if (e->th[i].body)
			fprintf(out, "\tpthread_join(t[%u], NULL);\n", i);
	fputs("\treturn rr_finish();\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

static void
em_free(struct em *e, struct em_item *it, size_t n)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < n; i++)
		free(it[i].rec);
	free(it);
	for (k = 0; k < e->nthreads; k++)
		if (e->th[k].body)
			fclose(e->th[k].body);
	free(e->fd_ofd);
	rp_vec_free(&e->ofds);
	rp_map_free(&e->events);
	em_defs_free(e);
	kt_strbuf_release(&e->sb);
	kt_strbuf_release(&e->body);
	rp_model_free(&e->m);
}

int
kfd_emit_c(const char *in, const char *out_path, struct kfd_emit_result *res,
	   char *err, size_t errlen)
{
	char ebuf[512];
	struct em e;
	struct em_item *it = NULL;
	size_t n = 0, i;
	unsigned int nrows;
	uint32_t tids[EM_MAX_THREADS];
	unsigned int ntids = 0, k;
	FILE *out;
	int r;

	memset(&e, 0, sizeof(e));
	e.path = in;
	e.err = err ? err : ebuf;
	e.errlen = err ? errlen : sizeof(ebuf);
	e.err[0] = '\0';
	kt_strbuf_init(&e.sb);
	kt_strbuf_init(&e.body);
	rp_vec_init(&e.ofds, sizeof(struct em_ofd));
	rp_vec_init(&e.layouts, sizeof(struct em_layout *));
	rp_vec_init(&e.names, sizeof(struct em_names));
	e.rows = rp_rows();
	e.reset_event = kfd_schema_by_name("RESET_EVENT");
	kfd_schema_rows(&nrows);
	e.req_used = calloc(nrows, 1);
	if (!e.rows || !e.rows->plans || !e.req_used) {
		free(e.req_used);
		/* A row or field the replayer needs is not in the schema. */
		snprintf(e.err, e.errlen, "%s",
			 rp_rows_error() ? rp_rows_error() : "out of memory");
		return rp_rows_error() ? -EINVAL : -ENOMEM;
	}
	r = rp_model_build(&e.m, in, e.err, e.errlen);
	if (r < 0) {
		em_free(&e, NULL, 0);
		return r;
	}
	if (e.m.integrity == KT_INTEGRITY_TRUNCATED ||
	    e.m.integrity == KT_INTEGRITY_CORRUPT ||
	    e.m.integrity == KT_INTEGRITY_DAMAGED) {
		snprintf(e.err, e.errlen, "%s: %s", in, e.m.integrity_msg);
		r = e.m.integrity == KT_INTEGRITY_TRUNCATED ? -KT_ETRUNC : -KT_ECORRUPT;
		em_free(&e, NULL, 0);
		return r;
	}
	r = load(&e, &it, &n);
	if (r == 0) {
		order(&e, it, n);
		/* Threads with calls, in the order of their first. */
		for (i = 0; i < n; i++) {
			for (k = 0; k < ntids && tids[k] != it[i].rec->tid; k++)
				;
			if (k == ntids && ntids < EM_MAX_THREADS)
				tids[ntids++] = it[i].rec->tid;
		}
		e.threaded = ntids > 1;
		e.res.threads = ntids;
		for (k = 0; k < ntids; k++)
			thread_of(&e, tids[k]);
	}
	for (i = 0; r == 0 && i < n; i++)
		r = emit_record(&e, it[i].rec);
	if (r == 0) {
		out = fopen(out_path, "w");
		if (!out) {
			r = -errno;
			snprintf(e.err, e.errlen, "%s: %s", out_path, strerror(errno));
		} else {
			r = write_program(&e, out);
			if (fclose(out) && !r)
				r = -errno;
			if (r < 0) {
				snprintf(e.err, e.errlen, "%s: %s", out_path,
					 strerror(-r));
				unlink(out_path);
			}
		}
	} else if (!e.err[0]) {
		snprintf(e.err, e.errlen, "%s", strerror(-r));
	}
	if (res)
		*res = e.res;
	em_free(&e, it, n);
	return r;
}
