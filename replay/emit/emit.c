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
 * The trace is read twice after the model: once for what ordering needs
 * of each record (struct em_item, not the record), once to emit, holding
 * only the records that come before their turn. Each thread's blocks go
 * to a temporary file as they are made (emit_block.c), captured buffers
 * to another (emit_text.c); the definitions the blocks used (emit_abi.c)
 * are written before them at the end. The order is emit_order.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* The runtime's text (repro_rt.c), embedded at build time. */
extern const char em_runtime[];

/* ------------------------------------------------------------------ */
/* The program                                                          */

/* The ages element @i of the wait @rec passed and got back (0 if none). */
static struct em_age
wait_age(const struct kt_record *rec, size_t i)
{
	const struct kt_buf_image *b = rp_find_image(&rec->u.ioctl, 0);
	const size_t el = sizeof(struct kfd_abi_event_data);
	struct kfd_abi_event_data in, out;
	struct em_age a = { 0, 0 };

	if (!b || (i + 1) * el > b->len_before || (i + 1) * el > b->len_after)
		return a;
	memcpy(&in, b->before + i * el, el);
	memcpy(&out, b->after + i * el, el);
	a.in = in.signal_event_data.last_event_age;
	a.out = out.signal_event_data.last_event_age;
	return a;
}

/* What ordering needs of @rec (struct em_item). Return: 0, or -ENOMEM. */
static int
item_of(struct em *e, const struct kt_record *rec, struct em_item *it)
{
	const struct rp_rows *r = e->rows;
	const struct kfd_ioctl_desc *d;
	uint32_t ids[64], *p;
	struct em_age *a;
	int k;

	memset(it, 0, sizeof(*it));
	it->seq = it->major = rec->seq;
	it->tid = rec->tid;
	if (rec->type != KT_REC_IOCTL)
		return 0;
	it->ts = rec->ts;
	it->t_exit = rec->u.ioctl.t_exit;
	if (rp_set_event_id(r, rec, &it->ev)) {
		if (rec->u.ioctl.ret >= 0)
			it->kind = EM_I_SET;
		return 0;
	}
	d = kt_ioctl_row(&rec->u.ioctl);
	if (d && d->creates == KFD_OBJ_EVENT) {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;
		const struct kfd_field *id = kfd_schema_attr(d->args, KFD_ATTR_OBJ);

		if (io->ret >= 0 && io->arg_after && rp_fhas(id, io->arg_size)) {
			it->kind = EM_I_CREATE;
			it->ev = (uint32_t)rp_fget(id, io->arg_after, io->arg_size);
		}
		return 0;
	}
	if (d != r->wait_events || !rp_wait_completed(r, d, &rec->u.ioctl))
		return 0;
	k = rp_wait_ids(r, rec, ids, 64);
	if (k <= 0 || k > 64)
		return 0;
	it->kind = EM_I_WAIT;
	it->nids = (uint8_t)k;
	it->ev = (uint32_t)e->wait_ids.n;
	it->aged = rp_wait_fired(r, rec, ids, 0) >= 0;
	for (int i = 0; i < k; i++) {
		p = rp_vec_push(&e->wait_ids);
		a = rp_vec_push(&e->wait_ages);
		if (!p || !a)
			return -ENOMEM;
		*p = ids[i];
		*a = wait_age(rec, (size_t)i);
	}
	return 0;
}

/* Whether emit-c issues or comments @rec (the rest it leaves out). */
static int
emitted(const struct kt_record *rec)
{
	return (rec->type >= KT_REC_IOCTL && rec->type <= KT_REC_EXEC) ||
	       rec->type == KT_REC_FD_TRANSFER;
}

/*
 * The first pass: what ordering needs of every record, not the records
 * (the emitting pass reads them again).
 */
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
		if (!emitted(rec))
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
		r = item_of(e, rec, &it[n]);
		if (r < 0)
			break;
		it[n].pos = n;
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

/*
 * The second pass: each record as its block, in the order of @it. The
 * records come in the trace's order; one the order wants later than it
 * comes is held (a copy) until its turn: moves are short (emit_order.c),
 * so few are held at once, whatever the trace's size.
 */
static int
emit_all(struct em *e, const struct em_item *it, size_t n)
{
	const struct kt_record *rec;
	struct kt_record *own;
	struct kc_u64map held;	/* pos -> struct kt_record * */
	struct kc_u64map_slot *sl;
	struct rp_stream s;
	size_t k, pos = 0, at = 0;
	int r;

	kc_u64map_init(&held, sizeof(own));
	r = rp_stream_open(&s, e->path, e->m.first_seq);
	for (k = 0; r >= 0 && k < n; k++) {
		if (kc_u64map_del(&held, 0, it[k].pos, &own)) {
			r = em_record(e, own);
			free(own);
			continue;
		}
		for (;;) {
			r = rp_stream_next(&s, &rec);
			if (r <= 0) {
				/* The trace changed between the passes. */
				r = r ? r : -KT_ETRUNC;
				snprintf(e->err, e->errlen, "%s: %s", e->path,
					 kt_strerror(r));
				break;
			}
			if (!emitted(rec))
				continue;
			pos = at++;
			if (pos == it[k].pos) {
				r = em_record(e, rec);
				break;
			}
			own = kt_record_clone(rec);
			if (!own || kc_u64map_put(&held, 0, pos, &own)) {
				free(own);
				r = -ENOMEM;
				break;
			}
		}
	}
	for (k = 0; (sl = kc_u64map_next(&held, &k));) {
		memcpy(&own, sl->val, sizeof(own));
		free(own);
	}
	kc_u64map_free(&held);
	rp_stream_close(&s);
	if (r < 0 && !e->err[0])
		snprintf(e->err, e->errlen, "%s: %s", e->path, kt_strerror(r));
	return r > 0 ? 0 : r;
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

/* Header field @s (at most @max bytes) escaped for the opening comment. */
static void
head_text(struct kt_strbuf *sb, const char *s, size_t max)
{
	em_escape(sb, s, strnlen(s, max), EM_IN_COMMENT);
}

static void
write_head(struct em *e, FILE *out)
{
	const struct kt_header *h = &e->m.hdr;
	struct kt_strbuf sb;

	kt_strbuf_init(&sb);
	kt_strbuf_puts(&sb, "/*\n * Written by `kfdtrace emit-c` from ");
	em_escape(&sb, e->path, strlen(e->path), EM_IN_COMMENT);
	kt_strbuf_printf(&sb, ":\n * pid %d (", h->pid);
	head_text(&sb, h->exe, sizeof(h->exe));
	kt_strbuf_puts(&sb, "), captured on ");
	head_text(&sb, h->host, sizeof(h->host));
	kt_strbuf_puts(&sb, ", Linux ");
	head_text(&sb, h->kernel_release, sizeof(h->kernel_release));
	kt_strbuf_printf(&sb, ", KFD ABI %u.%u%s.\n", e->m.abi_major, e->m.abi_minor,
			 h->flags & KT_HDR_SIMULATED ? " (kfdsim)" : "");
	kt_strbuf_printf(&sb, " * %" PRIu64 " calls (%" PRIu64 " ioctls) on %u thread%s; %"
			 PRIu64 " left out, each with a comment saying why.\n",
			 e->res.calls, e->res.ioctls, e->res.threads,
			 e->res.threads == 1 ? "" : "s", e->res.skipped);
	if (e->blobs.n)
		kt_strbuf_printf(&sb, " * %zu captured buffers are data arrays "
				 "(dN below).\n", e->blobs.n);
	fputs(sb.data ? sb.data : "", out);
	fputs(" *\n"
	      " * It needs libc only. Build and run it:\n"
	      " *\tcc -pthread -Wall -Wextra -o repro repro.c\n"
	      " *\t./repro                     (a machine with /dev/kfd)\n"
	      " *\tkfdtrace sim -- ./repro     (kfdsim)\n"
	      " * Exit status: 0 when every call returned what it returned in the\n"
	      " * capture, 1 at the first difference, which it prints.\n */\n", out);
	if (e->m.integrity != KT_INTEGRITY_OK) {
		kt_strbuf_clear(&sb);
		kt_strbuf_puts(&sb, "/* The capture is incomplete: ");
		head_text(&sb, e->m.integrity_msg, sizeof(e->m.integrity_msg));
		fprintf(out, "%s */\n", sb.data);
	}
	kt_strbuf_release(&sb);
}

/*
 * The facts the runtime needs, written above its text so that it types
 * none in: its map kinds, the replayer's for each learned role
 * (em_kind_name(), rp_role_kind()), and a bit above them for reverse
 * bindings; the status bits queue ids carry (the schema's); where memory
 * handles and /dev/kfd mmap offsets keep a gpu_id (the KFD ABI's).
 */
static void
write_facts(FILE *out)
{
	const char *seen[KFD_ROLE_COUNT_MAX];
	unsigned int role, n = 0, i, top = 0, rev = 1;

	fputs("/* The schema's, the KFD ABI's and the replayer's facts. */\n", out);
	for (role = 0; role < KFD_ROLE_COUNT_MAX; role++) {
		const char *name = em_kind_name(role);
		unsigned int kind = rp_role_kind(role);

		if (!(kfd_role_flags((enum kfd_role)role) & KFD_RC_ISSUED))
			continue;
		for (i = 0; i < n && strcmp(seen[i], name); i++)
			;
		if (i < n)
			continue;
		seen[n++] = name;
		fprintf(out, "#define %s %u\n", name, kind);
		if (kind > top)
			top = kind;
	}
	while (rev <= top)
		rev <<= 1;
	fprintf(out, "#define RR_REV 0x%x\n", rev);
	fprintf(out, "#define RR_QUEUE_STATUS 0x%08" PRIx32 "u\n",
		kfd_role_status_bits(KFD_ROLE_QUEUE_ID));
	fprintf(out, "#define RR_HANDLE_GPU_SHIFT %d\n",
		__builtin_ctzll(KFD_ABI_MAKE_HANDLE(1, 0)));
	fprintf(out, "#define RR_OFF_GPU_SHIFT %d\n", KFD_ABI_MMAP_GPU_ID_SHIFT);
	fprintf(out, "#define RR_OFF_GPU_MASK 0x%" PRIx64 "ull\n\n",
		(uint64_t)KFD_ABI_MMAP_GPU_ID_MASK);
}

static int
write_program(struct em *e, FILE *out)
{
	unsigned int i, k;
	int r;

	write_head(e, out);
	write_facts(out);
	fputs(em_runtime, out);
	fputc('\n', out);
	em_write_defs(e, out);
	write_data(e, out);
	if (e->data) {
		fputs("/* Captured buffers (dN: the blocks say which). */\n", out);
		r = copy_file(e->data, out);
		if (r < 0)
			return r;
		fputc('\n', out);
	}
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
em_free(struct em *e, struct em_item *it)
{
	unsigned int k;

	free(it);
	rp_vec_free(&e->wait_ids);
	rp_vec_free(&e->wait_ages);
	em_blobs_free(e);
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
	rp_vec_init(&e.wait_ids, sizeof(uint32_t));
	rp_vec_init(&e.wait_ages, sizeof(struct em_age));
	rp_vec_init(&e.blobs, sizeof(struct em_blob_ent));
	kc_u64map_init(&e.blob_map, 8);
	e.rows = rp_rows();
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
		em_free(&e, NULL);
		return r;
	}
	if (e.m.integrity == KT_INTEGRITY_TRUNCATED ||
	    e.m.integrity == KT_INTEGRITY_CORRUPT ||
	    e.m.integrity == KT_INTEGRITY_DAMAGED) {
		snprintf(e.err, e.errlen, "%s: %s", in, e.m.integrity_msg);
		r = e.m.integrity == KT_INTEGRITY_TRUNCATED ? -KT_ETRUNC : -KT_ECORRUPT;
		em_free(&e, NULL);
		return r;
	}
	r = load(&e, &it, &n);
	if (r == 0) {
		em_order(&e, it, n);
		/* Threads with calls, in the order of their first. */
		for (i = 0; i < n; i++) {
			for (k = 0; k < ntids && tids[k] != it[i].tid; k++)
				;
			if (k == ntids && ntids < EM_MAX_THREADS)
				tids[ntids++] = it[i].tid;
		}
		e.threaded = ntids > 1;
		e.res.threads = ntids;
		for (k = 0; k < ntids; k++)
			em_thread_of(&e, tids[k]);
	}
	if (r == 0)
		r = emit_all(&e, it, n);
	if (r == 0) {
		out = fopen(out_path, "w");
		if (!out) {
			r = -errno;
			snprintf(e.err, e.errlen, "%s: %s", out_path, strerror(errno));
		} else {
			struct stat st;
			/* A device or FIFO written through is not ours to remove. */
			int reg = fstat(fileno(out), &st) == 0 &&
				  S_ISREG(st.st_mode);

			r = write_program(&e, out);
			if (fclose(out) && !r)
				r = -errno;
			if (r < 0) {
				snprintf(e.err, e.errlen, "%s: %s", out_path,
					 strerror(-r));
				if (reg)
					unlink(out_path);
			}
		}
	} else if (!e.err[0]) {
		snprintf(e.err, e.errlen, "%s", strerror(-r));
	}
	if (res)
		*res = e.res;
	em_free(&e, it);
	return r;
}
