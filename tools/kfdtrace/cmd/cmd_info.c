/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace info: what a trace holds and whether it is intact.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"
#include "core/run.h"
#include "kfdtrace/topology.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

void
kfdtrace_help_info(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace info [--json] FILE|DIR...\n"
		"\n"
		"Show the trace header (producer, host, process, KFD ABI), a summary\n"
		"of the captured topology (nodes, gpu_ids, names, gfx targets),\n"
		"record counts by type, the time span, and the file's integrity:\n"
		"  ok         a clean END record closes the trace\n"
		"  no-end     every frame is complete but the writer never closed it\n"
		"  truncated  the file ends inside a frame; the recovered count is\n"
		"             the number of records readable before that point\n"
		"  corrupt    bytes that no writer produced (a record time outside\n"
		"             the header's clock range too), at the offset shown\n"
		"  damaged    every frame reads, but records are missing, repeated\n"
		"             or added\n"
		"  incomplete the writer lost records\n"
		"\n"
		"Several files, or a directory, are one run (the files kfdtrace\n"
		"record writes for a process tree): each file's facts, then the\n"
		"run's process tree and totals.\n"
		"\n"
		"Options:\n"
		"  --json      one JSON object (with \"processes\" and \"run\" for\n"
		"              several files)\n"
		"  -h, --help  this text\n"
		"\n"
		"Exit status: 0 for ok and no-end, 1 for damage (truncated, corrupt,\n"
		"damaged, incomplete) or unreadable files, 2 for bad usage.\n");
}

static void
print_bytes_h(uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		printf("%llu B", (unsigned long long)b);
	else
		printf("%.1f %s", v, unit[u]);
}

/* A NUL-separated command line, spaces between arguments. */
static void
print_argv(const char *argv, uint32_t argv_len, uint32_t room)
{
	uint32_t len = argv_len < room ? argv_len : room;
	char buf[1024];
	uint32_t i;

	/* Arguments are NUL-separated; each is escaped on its own. */
	for (i = 0; i < len; i += (uint32_t)strnlen(argv + i, len - i) + 1) {
		if (i)
			putchar(' ');
		fputs(kfd_text_safe(buf, sizeof(buf), argv + i, len - i),
		      stdout);
	}
}

/* The same as a JSON array of strings, then a comma. */
static void
json_argv(struct kt_strbuf *sb, const char *key, const char *argv,
	  uint32_t argv_len, uint32_t room)
{
	uint32_t len = argv_len < room ? argv_len : room, i;

	kt_strbuf_printf(sb, "\"%s\":[", key);
	for (i = 0; i < len; i += (uint32_t)strnlen(argv + i, len - i) + 1) {
		if (i)
			kt_strbuf_append(sb, ",", 1);
		kfd_json_escape(sb, argv + i, strnlen(argv + i, len - i));
	}
	kt_strbuf_printf(sb, "],");
}

/* A header string: bounded by its field and escaped (a forged trace must
 * not be able to move the cursor or print a fake line). */
/* The header flags info names; others show as a number. */
#define INFO_KNOWN_FLAGS (KT_HDR_NO_BUFFERS | KT_HDR_SIMULATED | KT_HDR_SELECTED)

#define HSTR(buf, field) kfd_text_safe(buf, sizeof(buf), field, sizeof(field))

static void
print_topology(const struct kt_topo *s)
{
	unsigned int i;
	char gfx[16], name[256];

	printf("topology:   %u nodes, %u GPUs (%u files, %llu bytes)\n",
	       s->nnodes, s->ngpus, s->files, (unsigned long long)s->bytes);
	for (i = 0; i < s->nnodes; i++) {
		const struct kt_topo_node *n = &s->nodes[i];

		if (!n->present)
			continue;
		if (!n->gpu_id) {
			printf("  node %u: CPU, %" PRIu64 " cores", i,
			       n->cpu_cores);
			if (n->sys_bytes) {
				printf(", ");
				print_bytes_h(n->sys_bytes);
				printf(" RAM");
			}
			printf("\n");
			continue;
		}
		printf("  node %u: gpu_id 0x%x", i, n->gpu_id);
		if (n->name[0])
			printf(" \"%s\"", kfd_text_safe(name, sizeof(name), n->name,
							sizeof(n->name)));
		if (n->gfx_target_version)
			printf(" %s", kfd_gfx_target_name(n->gfx_target_version,
							  gfx, sizeof(gfx)));
		if (n->simd_per_cu)
			printf(", %" PRIu64 " CUs",
			       n->simd_count / n->simd_per_cu);
		if (n->vram_bytes) {
			printf(", ");
			print_bytes_h(n->vram_bytes);
			printf(" VRAM");
		}
		printf("\n");
	}
}

/*
 * The header's KFD ABI, else the one the first successful GET_VERSION
 * returned (@ver, NULL when there was none).
 */
static void
print_abi(const struct kt_header *h, const uint32_t *ver)
{
	if (h->kfd_major || h->kfd_minor)
		printf("kfd abi:    %u.%u\n", h->kfd_major, h->kfd_minor);
	else if (ver)
		printf("kfd abi:    %u.%u (from GET_VERSION)\n", ver[0], ver[1]);
	else
		printf("kfd abi:    unknown\n");
}

static void
print_header(const char *path, const struct kt_header *h, const uint32_t *ver)
{
	char when[64] = "", b1[1024], b2[1024];
	time_t secs = (time_t)(h->start_realtime / 1000000000ULL);
	struct tm tm;

	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("file:       %s\n", cli_name(path));
	printf("format:     %u.%u\n", h->format_major, h->format_minor);
	printf("producer:   %s %s\n", HSTR(b1, h->producer),
	       HSTR(b2, h->producer_version));
	printf("host:       %s, kernel %s\n", HSTR(b1, h->host),
	       HSTR(b2, h->kernel_release));
	printf("process:    pid %d, ppid %d, exe %s\n", h->pid, h->ppid,
	       HSTR(b1, h->exe));
	printf("cmdline:    ");
	print_argv(h->cmdline, h->cmdline_len, sizeof(h->cmdline));
	printf("\n");
	if (h->run_cmdline_len) {
		/* What `record` ran: a shell's command when it is not this. */
		printf("run:        ");
		print_argv(h->run_cmdline, h->run_cmdline_len,
			   sizeof(h->run_cmdline));
		printf("\n");
	}
	print_abi(h, ver);
	printf("started:    %s\n", when);
	if (h->flags) {
		printf("flags:     ");
		if (h->flags & KT_HDR_NO_BUFFERS)
			printf(" no-buffers");
		if (h->flags & KT_HDR_SIMULATED)
			printf(" simulated");
		if (h->flags & KT_HDR_SELECTED)
			printf(" selected");
		if (h->flags & ~(uint32_t)INFO_KNOWN_FLAGS)
			printf(" 0x%x", h->flags & ~(uint32_t)INFO_KNOWN_FLAGS);
		printf("\n");
	}
}

#define INFO_MAX_PEERS 64

/*
 * A trace recorded with --only/--except: how many ioctls it left out, as
 * its END record counts them, or that nothing says (no END).
 */
static void
print_left_out(const struct kt_header *h, const struct kt_reader_status *st,
	       const char *integrity)
{
	if (!(h->flags & KT_HDR_SELECTED))
		return;
	if (!strcmp(integrity, "ok") || !strcmp(integrity, "incomplete") ||
	    st->end_records)
		printf("left out:   %llu ioctls (recorded with --only/--except: "
		       "a partial trace)\n", (unsigned long long)st->left_out);
	else
		printf("left out:   unknown, no END record (recorded with "
		       "--only/--except: a partial trace)\n");
}

/* What one pass over a trace finds. */
struct info_facts {
	uint64_t counts[KT_REC_TYPE_MAX + 1];
	uint64_t total, unknown_ioctls, ioctls, failed, first_ts, last_ts;
	struct kt_topo *topo;
	struct kt_reader_status st;
	uint32_t ver[2];
	int have_ver;
	/* fd_transfer records: messages each way, fds, and distinct peers. */
	uint64_t xfer_sent, xfer_recv, xfer_fds, xfer_dmabufs;
	unsigned int npeers;
	uint64_t peers[INFO_MAX_PEERS];
	int rc;
	int status;
	enum kt_integrity verdict;
	const char *integrity;		/* "ok", "no-end", "truncated", ... */
};

/* A peer socket's identity: its inode, else its pid, else its address. */
static uint64_t
peer_key(const struct kt_fd_transfer_rec *x)
{
	uint64_t h = 1469598103934665603ull;
	const char *p;

	if (x->peer_ino)
		return x->peer_ino;
	if (x->peer_pid)
		return 1ull << 62 | (uint32_t)x->peer_pid;
	for (p = x->peer_name ? x->peer_name : ""; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	return h | 1ull << 63;
}

static void
info_xfer(struct info_facts *f, const struct kt_fd_transfer_rec *x)
{
	uint64_t key = peer_key(x);
	unsigned int i;

	if (x->dir == KT_XFER_SEND)
		f->xfer_sent++;
	else
		f->xfer_recv++;
	f->xfer_fds += x->nfds_total;
	for (i = 0; i < x->nfds; i++)
		f->xfer_dmabufs += x->fds[i].kind == KT_XFER_FD_DMABUF;
	for (i = 0; i < f->npeers && f->peers[i] != key; i++)
		;
	if (i == f->npeers && f->npeers < INFO_MAX_PEERS)
		f->peers[f->npeers++] = key;
}

static void
info_scan(struct kt_reader *r, struct info_facts *f)
{
	struct kt_record rec;

	memset(f, 0, sizeof(*f));
	while ((f->rc = kt_reader_next(r, &rec)) == 1) {
		if (f->total == 0 || rec.ts < f->first_ts)
			f->first_ts = rec.ts;
		if (rec.ts > f->last_ts)
			f->last_ts = rec.ts;
		f->total++;
		f->counts[rec.type < KT_REC_TYPE_MAX ? rec.type :
			  KT_REC_TYPE_MAX]++;
		if (rec.type == KT_REC_IOCTL) {
			const struct kfd_ioctl_desc *d =
				kt_ioctl_row(&rec.u.ioctl);

			f->ioctls++;
			f->failed += rec.u.ioctl.ret < 0;
			if (!d)
				f->unknown_ioctls++;
			else if (!f->have_ver)
				f->have_ver = kt_ioctl_version(d, &rec.u.ioctl,
							      &f->ver[0],
							      &f->ver[1]);
		}
		if (rec.type == KT_REC_FD_TRANSFER)
			info_xfer(f, &rec.u.xfer);
		if (rec.type == KT_REC_TOPOLOGY && !f->topo) {
			f->topo = malloc(sizeof(*f->topo));
			if (f->topo)
				kt_topo_parse(rec.u.topology.files,
					      rec.u.topology.nfiles, f->topo);
		}
	}
	kt_reader_get_status(r, &f->st);
	f->verdict = kt_reader_verdict(r, f->rc);
	f->status = cli_status(f->verdict, f->rc);
	f->integrity = f->rc < 0 && !kt_integrity_damage(f->verdict) ?
		       "unreadable" : kt_integrity_name(f->verdict);
}

static void
info_print(const char *path, const struct kt_header *h,
	   const struct info_facts *f)
{
	const struct kt_reader_status *st = &f->st;
	unsigned int t;

	print_header(path, h, f->have_ver ? f->ver : NULL);
	print_left_out(h, st, f->integrity);
	if (f->topo)
		print_topology(f->topo);
	else
		printf("topology:   none recorded\n");
	printf("records:    %llu\n", (unsigned long long)f->total);
	for (t = 1; t <= KT_REC_TYPE_MAX; t++) {
		const char *name = t < KT_REC_TYPE_MAX ? kt_rec_type_name(t) :
				   "unknown-type";

		if (!f->counts[t])
			continue;
		printf("  %-12s %llu", name ? name : "?",
		       (unsigned long long)f->counts[t]);
		if (t == KT_REC_IOCTL && f->unknown_ioctls)
			printf(" (%llu unknown requests)",
			       (unsigned long long)f->unknown_ioctls);
		printf("\n");
	}
	if (f->xfer_sent || f->xfer_recv)
		printf("fd passing: %llu sent, %llu received, %llu fds "
		       "(%llu dma-bufs), %u peer%s%s\n",
		       (unsigned long long)f->xfer_sent,
		       (unsigned long long)f->xfer_recv,
		       (unsigned long long)f->xfer_fds,
		       (unsigned long long)f->xfer_dmabufs, f->npeers,
		       f->npeers == 1 ? "" : "s",
		       f->npeers == INFO_MAX_PEERS ? " or more" : "");
	if (f->total) {
		uint64_t span = f->last_ts - f->first_ts;
		int64_t off = (int64_t)(f->first_ts - h->start_monotonic);

		printf("time span:  %llu.%06llu s (first record at %+.6f s)\n",
		       (unsigned long long)(span / 1000000000ULL),
		       (unsigned long long)(span % 1000000000ULL / 1000),
		       (double)off / 1e9);
	}
	printf("file size:  %llu bytes, %llu frames\n",
	       (unsigned long long)st->file_size, (unsigned long long)st->frames);

	if (!strcmp(f->integrity, "truncated"))
		printf("integrity:  truncated: recovered %llu records\n",
		       (unsigned long long)st->records);
	else if (!strcmp(f->integrity, "corrupt"))
		printf("integrity:  corrupt at byte offset %llu (%llu records before it)\n",
		       (unsigned long long)st->corrupt_offset,
		       (unsigned long long)st->records);
	else if (!strcmp(f->integrity, "unreadable"))
		printf("integrity:  unreadable: %s\n", kt_strerror(f->rc));
	else if (!strcmp(f->integrity, "damaged"))
		printf("integrity:  damaged: every frame reads, but records are "
		       "missing, repeated or added\n");
	else if (!strcmp(f->integrity, "incomplete"))
		printf("integrity:  incomplete: the writer lost %llu records "
		       "(%llu written)\n", (unsigned long long)st->lost,
		       (unsigned long long)st->end_records);
	else if (!strcmp(f->integrity, "no-end"))
		printf("integrity:  no-end: all frames complete, no END record\n");
	else
		printf("integrity:  ok\n");
	if (st->message[0] && f->status != KFDTRACE_EXIT_OK)
		printf("detail:     %.*s\n", (int)sizeof(st->message),
		       st->message);
}

/* The run's first and last record times, over all its processes. */
static void
run_span(const struct info_facts *f, size_t n, uint64_t *t0, uint64_t *t1)
{
	size_t i;
	int any = 0;

	*t0 = *t1 = 0;
	for (i = 0; i < n; i++) {
		if (!f[i].total)
			continue;
		if (!any || f[i].first_ts < *t0)
			*t0 = f[i].first_ts;
		if (!any || f[i].last_ts > *t1)
			*t1 = f[i].last_ts;
		any = 1;
	}
}

static void
info_print_run(const struct cli_run *run, const struct info_facts *f)
{
	uint64_t records = 0, ioctls = 0, failed = 0, t0, t1;
	size_t i;

	run_span(f, run->n, &t0, &t1);
	printf("run:        %zu processes", run->n);
	if (run->nhosts > 1)
		printf(" on %zu hosts", run->nhosts);
	printf("\n");
	for (i = 0; i < run->n; i++) {
		const struct cli_run_proc *p = &run->p[i];
		char b[1024];

		records += f[i].total;
		ioctls += f[i].ioctls;
		failed += f[i].failed;
		printf("  %*s%s  ppid %d, %llu ioctls (%llu failed), %s\n",
		       (int)(2 * p->depth), "",
		       kfd_text_safe(b, sizeof(b), p->label, sizeof(p->label)),
		       (int)p->hdr->ppid, (unsigned long long)f[i].ioctls,
		       (unsigned long long)f[i].failed, f[i].integrity);
	}
	printf("records:    %llu, %llu ioctls (%llu failed)\n",
	       (unsigned long long)records, (unsigned long long)ioctls,
	       (unsigned long long)failed);
	printf("time span:  %.6f s\n", (double)(t1 - t0) / 1e9);
}

/* ---- --json ---- */

static void
js_key(struct kt_strbuf *sb, const char *key)
{
	kt_strbuf_printf(sb, "\"%s\":", key);
}

static void
js_str(struct kt_strbuf *sb, const char *key, const char *s, size_t max)
{
	js_key(sb, key);
	kfd_json_escape(sb, s, strnlen(s, max));
	kt_strbuf_append(sb, ",", 1);
}

static void
js_u64(struct kt_strbuf *sb, const char *key, uint64_t v)
{
	js_key(sb, key);
	kfd_json_u64(sb, v);
	kt_strbuf_append(sb, ",", 1);
}

static void
info_json_topology(struct kt_strbuf *sb, const struct kt_topo *s)
{
	unsigned int i;
	int first = 1;
	char gfx[16];

	kt_strbuf_printf(sb, "\"topology\":{\"nodes\":%u,\"gpus\":%u,\"gpu\":[",
			 s->nnodes, s->ngpus);
	for (i = 0; i < s->nnodes; i++) {
		const struct kt_topo_node *n = &s->nodes[i];

		if (!n->present || !n->gpu_id)
			continue;
		kt_strbuf_printf(sb, "%s{\"node\":%u,\"gpu_id\":\"0x%x\",",
				 first ? "" : ",", i, n->gpu_id);
		first = 0;
		js_str(sb, "name", n->name, sizeof(n->name));
		gfx[0] = '\0';
		if (n->gfx_target_version)
			kfd_gfx_target_name(n->gfx_target_version, gfx,
					    sizeof(gfx));
		js_str(sb, "gfx", gfx, sizeof(gfx));
		kt_strbuf_printf(sb, "\"cus\":%" PRIu64 ",\"vram_bytes\":",
				 n->simd_per_cu ? n->simd_count / n->simd_per_cu : 0);
		kfd_json_u64(sb, n->vram_bytes);
		kt_strbuf_append(sb, "}", 1);
	}
	kt_strbuf_append(sb, "]},", 3);
}

static void
info_json_file(struct kt_strbuf *sb, const char *path,
	       const struct kt_header *h, const struct info_facts *f)
{
	unsigned int t;
	int first = 1;

	kt_strbuf_append(sb, "{", 1);
	js_str(sb, "file", cli_name(path), PATH_MAX);
	kt_strbuf_printf(sb, "\"format\":\"%u.%u\",", h->format_major,
			 h->format_minor);
	js_str(sb, "producer", h->producer, sizeof(h->producer));
	js_str(sb, "producer_version", h->producer_version,
	       sizeof(h->producer_version));
	js_str(sb, "host", h->host, sizeof(h->host));
	js_str(sb, "kernel", h->kernel_release, sizeof(h->kernel_release));
	kt_strbuf_printf(sb, "\"pid\":%d,\"ppid\":%d,", h->pid, h->ppid);
	js_str(sb, "exe", h->exe, sizeof(h->exe));
	json_argv(sb, "cmdline", h->cmdline, h->cmdline_len,
		  sizeof(h->cmdline));
	if (h->run_cmdline_len)
		json_argv(sb, "run_cmdline", h->run_cmdline,
			  h->run_cmdline_len, sizeof(h->run_cmdline));
	if (h->kfd_major || h->kfd_minor)
		kt_strbuf_printf(sb, "\"kfd_abi\":\"%u.%u\",\"kfd_abi_from\":\"header\",",
				 h->kfd_major, h->kfd_minor);
	else if (f->have_ver)
		kt_strbuf_printf(sb, "\"kfd_abi\":\"%u.%u\",\"kfd_abi_from\":\"GET_VERSION\",",
				 f->ver[0], f->ver[1]);
	else
		kt_strbuf_printf(sb, "\"kfd_abi\":null,");
	js_u64(sb, "start_realtime_ns", h->start_realtime);
	js_u64(sb, "start_monotonic_ns", h->start_monotonic);
	kt_strbuf_printf(sb, "\"simulated\":%s,\"no_buffers\":%s,",
			 h->flags & KT_HDR_SIMULATED ? "true" : "false",
			 h->flags & KT_HDR_NO_BUFFERS ? "true" : "false");
	/* record --only/--except: the END record's count (null: no END). */
	if (h->flags & KT_HDR_SELECTED) {
		if (!strcmp(f->integrity, "ok") ||
		    !strcmp(f->integrity, "incomplete") || f->st.end_records)
			js_u64(sb, "left_out_ioctls", f->st.left_out);
		else
			kt_strbuf_printf(sb, "\"left_out_ioctls\":null,");
	}
	if (f->topo)
		info_json_topology(sb, f->topo);
	js_u64(sb, "records", f->total);
	kt_strbuf_printf(sb, "\"counts\":{");
	for (t = 1; t <= KT_REC_TYPE_MAX; t++) {
		const char *name = t < KT_REC_TYPE_MAX ? kt_rec_type_name(t) :
				   "unknown-type";

		if (!f->counts[t])
			continue;
		kt_strbuf_printf(sb, "%s\"%s\":", first ? "" : ",",
				 name ? name : "?");
		kfd_json_u64(sb, f->counts[t]);
		first = 0;
	}
	kt_strbuf_printf(sb, "},");
	js_u64(sb, "ioctls", f->ioctls);
	js_u64(sb, "failed_ioctls", f->failed);
	js_u64(sb, "unknown_ioctls", f->unknown_ioctls);
	if (f->xfer_sent || f->xfer_recv) {
		kt_strbuf_printf(sb, "\"fd_transfers\":{");
		js_u64(sb, "sent", f->xfer_sent);
		js_u64(sb, "received", f->xfer_recv);
		js_u64(sb, "fds", f->xfer_fds);
		js_u64(sb, "dmabufs", f->xfer_dmabufs);
		js_u64(sb, "peers", f->npeers);
		sb->len--;
		kt_strbuf_printf(sb, "},");
	}
	if (f->total) {
		js_u64(sb, "first_ts_ns", f->first_ts);
		js_u64(sb, "span_ns", f->last_ts - f->first_ts);
	}
	js_u64(sb, "file_size", f->st.file_size);
	js_u64(sb, "frames", f->st.frames);
	if (!strcmp(f->integrity, "truncated") || !strcmp(f->integrity, "corrupt"))
		js_u64(sb, "recovered_records", f->st.records);
	if (!strcmp(f->integrity, "corrupt"))
		js_u64(sb, "corrupt_offset", f->st.corrupt_offset);
	if (f->st.message[0] && f->status != KFDTRACE_EXIT_OK)
		js_str(sb, "detail", f->st.message, sizeof(f->st.message));
	kt_strbuf_printf(sb, "\"integrity\":\"%s\"}", f->integrity);
}

static void
info_json_run(struct kt_strbuf *sb, const struct cli_run *run,
	      const struct info_facts *f)
{
	uint64_t records = 0, ioctls = 0, failed = 0, t0, t1;
	size_t i;

	kt_strbuf_printf(sb, "{\"processes\":[");
	for (i = 0; i < run->n; i++) {
		const struct cli_run_proc *p = &run->p[i];

		if (i)
			kt_strbuf_append(sb, ",", 1);
		info_json_file(sb, p->path, p->hdr, &f[i]);
		/* The tree facts go inside the object just written. */
		sb->len--;
		kt_strbuf_printf(sb, ",\"parent\":%d,\"depth\":%u,", p->parent,
				 p->depth);
		js_str(sb, "label", p->label, sizeof(p->label));
		sb->len--;
		kt_strbuf_append(sb, "}", 1);
		records += f[i].total;
		ioctls += f[i].ioctls;
		failed += f[i].failed;
	}
	run_span(f, run->n, &t0, &t1);
	kt_strbuf_printf(sb, "],\"run\":{\"processes\":%zu,\"hosts\":%zu,",
			 run->n, run->nhosts);
	js_u64(sb, "records", records);
	js_u64(sb, "ioctls", ioctls);
	js_u64(sb, "failed_ioctls", failed);
	js_u64(sb, "span_ns", t1 - t0);
	sb->len--;
	kt_strbuf_append(sb, "}}", 2);
}

int
kfdtrace_cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct info_facts *f;
	struct cli_run run;
	int opt, json = 0, status = KFDTRACE_EXIT_OK;
	size_t i;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_info(stdout);
		return KFDTRACE_EXIT_OK;
	}
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (opt == 'j') {
			json = 1;
			continue;
		}
		cli_opt_error(argv, "+h", longopts);
		cli_try_help();
		return KFDTRACE_EXIT_USAGE;
	}
	if (optind >= argc) {
		cli_err("expected a trace file (see 'kfdtrace info --help')");
		return KFDTRACE_EXIT_USAGE;
	}
	if (cli_stdin_args(argv + optind, (size_t)(argc - optind)))
		return KFDTRACE_EXIT_ERROR;
	if (cli_run_open(&run, argv + optind, (size_t)(argc - optind), "info"))
		return KFDTRACE_EXIT_ERROR;
	f = calloc(run.n, sizeof(*f));
	if (!f) {
		cli_err("out of memory");
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	for (i = 0; i < run.n; i++) {
		info_scan(run.p[i].r, &f[i]);
		if (f[i].status > status)
			status = f[i].status;
	}
	if (json) {
		struct kt_strbuf sb;

		kt_strbuf_init(&sb);
		if (run.n == 1)
			info_json_file(&sb, run.p[0].path, run.p[0].hdr, &f[0]);
		else
			info_json_run(&sb, &run, f);
		kt_strbuf_append(&sb, "\n", 1);
		if (fwrite(sb.data, 1, sb.len, stdout) != sb.len)
			status = KFDTRACE_EXIT_ERROR;
		kt_strbuf_release(&sb);
	} else {
		for (i = 0; i < run.n; i++) {
			if (i)
				printf("\n");
			info_print(run.p[i].path, run.p[i].hdr, &f[i]);
		}
		if (run.n > 1) {
			printf("\n");
			info_print_run(&run, f);
		}
	}
	for (i = 0; i < run.n; i++)
		free(f[i].topo);
	free(f);
	cli_run_close(&run);
	if (fflush(stdout) != 0)
		return KFDTRACE_EXIT_ERROR;
	return status;
}
