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
 * Each thread's blocks go to a temporary file as they are made
 * (emit_block.c); the definitions they used (emit_abi.c) are written
 * before them at the end. The order is emit_order.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* The runtime's text (repro_rt.c), embedded at build time. */
extern const char em_runtime[];

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
		em_order(&e, it, n);
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
			em_thread_of(&e, tids[k]);
	}
	for (i = 0; r == 0 && i < n; i++)
		r = em_record(&e, it[i].rec);
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
	em_free(&e, it, n);
	return r;
}
