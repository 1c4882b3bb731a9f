/* SPDX-License-Identifier: MIT */
/*
 * The report page: header facts, topology, charts and tables.
 *
 * Every section has a stable id (facts, processes, topology, timeline,
 * memory, latency, queues, errors, leaks, threads) so that tests and links
 * can find it. A run of several processes has one page: the first
 * process's facts, the process tree, each process's charts on the run's
 * time axis, and tables over every process.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/cli_opt.h"
#include "report/report_calls.h"
#include "report/report_charts.h"
#include "report/report_draw.h"
#include "report/report_html.h"
#include "report/report_procs.h"
#include "report/report_queues.h"

#ifndef KFDTRACE_VERSION
#define KFDTRACE_VERSION "unknown"
#endif

static const char css[] =
	":root{--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--bg:#f4f5f7;"
	"--card:#fff;--bad:#b91c1c;--warn:#b45309;--ok:#15803d}"
	"*{box-sizing:border-box}"
	"body{margin:0;background:var(--bg);color:var(--fg);"
	"font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'Helvetica Neue',Arial,sans-serif}"
	"code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"
	"'DejaVu Sans Mono',monospace;font-size:12px}"
	"header.top{background:#111827;color:#f9fafb;padding:28px 0 26px}"
	".wrap{max-width:1240px;margin:0 auto;padding:0 40px}"
	".eyebrow{color:#9ca3af;font-size:12px;text-transform:uppercase;"
	"letter-spacing:.08em;font-weight:600}"
	"header.top h1{margin:4px 0 6px;font-size:26px;font-weight:650;"
	"letter-spacing:-.01em}"
	"header.top .sub{color:#cbd5e1;word-break:break-all}"
	".badge{display:inline-block;padding:2px 10px;border-radius:999px;"
	"font-size:12px;font-weight:600;margin-left:8px;vertical-align:4px}"
	".badge.ok{background:#dcfce7;color:#166534}"
	".badge.bad{background:#fee2e2;color:#991b1b}"
	".badge.warn{background:#fef3c7;color:#92400e}"
	".badge.info{background:#dbeafe;color:#1e40af}"
	"main.wrap{padding-top:24px;padding-bottom:24px}"
	".tiles{display:grid;grid-template-columns:repeat(7,1fr);gap:12px;"
	"margin-bottom:20px}"
	".tile{background:var(--card);border:1px solid var(--line);"
	"border-radius:10px;padding:14px 16px}"
	".tile .v{font-size:24px;font-weight:650;line-height:1.2;"
	"font-variant-numeric:tabular-nums}"
	".tile .k{color:var(--muted);font-size:12px;text-transform:uppercase;"
	"letter-spacing:.05em}"
	".tile.bad .v{color:var(--bad)}.tile.warn .v{color:var(--warn)}"
	"section{background:var(--card);border:1px solid var(--line);"
	"border-radius:10px;padding:20px 24px;margin:0 0 20px}"
	"section h2{margin:0 0 2px;font-size:18px;font-weight:650}"
	"section>p.note,p.note{margin:0 0 14px;color:var(--muted);font-size:13px}"
	"h3.gpu{font-size:14px;margin:18px 0 6px;font-weight:600}"
	"h3.proc{font-size:15px;margin:22px 0 4px;font-weight:650;"
	"border-top:1px solid var(--line);padding-top:12px}"
	".dim{color:var(--muted);font-weight:400}"
	".cols{display:grid;grid-template-columns:1fr 1fr;gap:8px 40px}"
	"dl.facts{display:grid;grid-template-columns:max-content 1fr;"
	"gap:6px 18px;margin:0}"
	"dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;word-break:break-word}"
	"table{border-collapse:collapse;width:100%;font-size:13px}"
	"th{text-align:left;font-weight:600;color:var(--muted);font-size:11px;"
	"text-transform:uppercase;letter-spacing:.04em;"
	"border-bottom:1px solid var(--line);padding:6px 10px}"
	"td{border-bottom:1px solid #f0f1f3;padding:6px 10px;vertical-align:top}"
	"tr:last-child td{border-bottom:0}"
	".num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}"
	"td.call{white-space:pre-wrap;word-break:break-all}"
	"td.pname{white-space:nowrap}"
	".err{color:var(--bad);font-weight:600;white-space:nowrap}"
	".fail{color:var(--bad)}"
	".legend{display:flex;gap:18px;flex-wrap:wrap;font-size:12px;"
	"color:var(--muted);margin:4px 0 8px}"
	".legend .sw{display:inline-block;width:12px;height:12px;"
	"border-radius:3px;margin-right:6px;vertical-align:-2px}"
	".legend .sw.leak{background:#fff;border:2px solid #7f1d1d}"
	".legend .ln{display:inline-block;width:16px;height:0;"
	"border-top:2px dashed;margin-right:6px;vertical-align:3px}"
	".ln.p50{border-color:#15803d}.ln.p99{border-color:#c2410c}"
	"svg.chart{width:100%;height:auto;display:block}"
	"svg text{font-size:11px;fill:#4b5563}"
	"svg .group-label{font-size:12px;font-weight:600;fill:#1f2937}"
	"svg .group-count{font-size:10px;fill:#6b7280}"
	"svg .axis-label{font-size:10px;fill:#6b7280}"
	"svg .bar{stroke:#fff;stroke-width:.5}"
	"svg .bar.leaked{stroke:#7f1d1d;stroke-width:1.5}"
	"svg .hbar{fill:#4e79a7}"
	"svg line.p50{stroke:#15803d;stroke-width:1.5;stroke-dasharray:4 3}"
	"svg line.p99{stroke:#c2410c;stroke-width:1.5;stroke-dasharray:4 3}"
	".grid{display:grid;grid-template-columns:repeat(3,1fr);gap:14px}"
	".hist{border:1px solid var(--line);border-radius:8px;padding:10px 12px 6px}"
	".hist h3{margin:0;font-size:13px;font-weight:600;font-family:"
	"ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace}"
	".hist .meta{color:var(--muted);font-size:12px;margin-bottom:4px}"
	".empty{color:var(--muted);font-style:italic;margin:6px 0}"
	"details.before{margin-top:6px}"
	"details.before summary{cursor:pointer;color:var(--muted);"
	"font-family:system-ui,sans-serif;font-size:12px}"
	"table.before{margin:4px 0 2px;background:#f9fafb}"
	"table.before td,table.before th{padding:2px 8px}"
	"td.took{font-weight:600}"
	"footer{color:var(--muted);font-size:12px;text-align:center;"
	"padding:0 0 36px}"
	"@media (max-width:900px){.tiles{grid-template-columns:repeat(3,1fr)}"
	".cols,.grid{grid-template-columns:1fr}}";

static const char *
basename_of(const char *path)
{
	const char *s;

	path = cli_name(path);
	s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/*
 * A NUL-separated command line as a shell would take it: arguments with
 * spaces or quotes in single quotes; argv[0] by its base name when
 * @short_name. Cut after @max bytes (0: never) with an ellipsis.
 */
static void
command_text(char *out, size_t size, const char *args, uint32_t len,
	     int short_name, size_t max)
{
	size_t n = 0;
	uint32_t i = 0;
	int first = 1;

	out[0] = '\0';
	while (i < len && n + 8 < size) {
		const char *a = args + i;
		size_t alen = strnlen(a, len - i);
		int quote = !alen || strpbrk(a, " \t'\"$&;|<>()*?`\\") != NULL;
		size_t k;

		if (first && short_name && strrchr(a, '/') &&
		    strrchr(a, '/')[1]) {
			size_t cut = (size_t)(strrchr(a, '/') + 1 - a);

			a += cut;
			alen -= cut;
		}
		if (!first)
			out[n++] = ' ';
		if (quote)
			out[n++] = '\'';
		for (k = 0; k < alen && n + 6 < size; k++) {
			if (a[k] == '\'') {
				memcpy(out + n, "'\\''", 4);
				n += 4;
			} else {
				out[n++] = a[k];
			}
		}
		if (quote)
			out[n++] = '\'';
		out[n] = '\0';
		i += (uint32_t)alen + 1 + (uint32_t)(a - (args + i));
		first = 0;
	}
	if (max && n > max) {
		/* Cut on a UTF-8 boundary. */
		while (max && ((unsigned char)out[max] & 0xc0) == 0x80)
			max--;
		snprintf(out + max, size - max, "…");
	}
}

/* The process of a run that knows the run's command, or NULL. */
static const struct kt_header *
run_header(const struct report_run *rr)
{
	size_t i;

	for (i = 0; i < rr->n; i++)
		if (rr->p[i].m.hdr.run_cmdline_len)
			return &rr->p[i].m.hdr;
	return NULL;
}

/*
 * The page's title: the run's command (what `kfdtrace record` ran), or for
 * a trace made otherwise its first process's name.
 */
static void
title(struct kt_strbuf *sb, const struct report_run *rr)
{
	const struct kt_header *h = run_header(rr), *m = &rr->p[0].m.hdr;
	char buf[3 * 1024];

	if (h) {
		command_text(buf, sizeof(buf), h->run_cmdline,
			     h->run_cmdline_len < sizeof(h->run_cmdline) ?
			     h->run_cmdline_len : sizeof(h->run_cmdline), 1, 80);
		rd_escape(sb, buf);
		return;
	}
	rd_escape(sb, m->exe[0] ? basename_of(m->exe) : "trace");
}

static void
page_head(struct kt_strbuf *sb, const struct report_run *rr)
{
	kt_strbuf_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		       "<meta charset=\"utf-8\"><meta name=\"viewport\" "
		       "content=\"width=device-width,initial-scale=1\">"
		       "<title>kfdtrace report · ");
	title(sb, rr);
	kt_strbuf_printf(sb, "</title><style>%s</style></head>\n<body>\n", css);
}

/* The integrity verdict as a short word, a badge class and detail. */
const char *
report_integrity(const struct report_model *m, const char **cls)
{
	const struct kt_reader_status *st = &m->status;

	if (m->read_rc == -KT_ETRUNC || st->integrity == KT_INTEGRITY_TRUNCATED) {
		*cls = "bad";
		return "truncated";
	}
	if (m->read_rc == -KT_ECORRUPT || st->integrity == KT_INTEGRITY_CORRUPT) {
		*cls = "bad";
		return "corrupt";
	}
	if (m->read_rc < 0) {
		*cls = "bad";
		return "unreadable";
	}
	if (st->integrity == KT_INTEGRITY_DAMAGED) {
		*cls = "bad";
		return "damaged (records missing, repeated or added)";
	}
	if (st->integrity == KT_INTEGRITY_INCOMPLETE) {
		*cls = "bad";
		return "incomplete (the writer lost records)";
	}
	if (st->integrity == KT_INTEGRITY_NO_END) {
		*cls = "warn";
		return "no END record";
	}
	*cls = "ok";
	return "complete";
}

/* The command line with its NUL separators as spaces. */
static void
cmdline(struct kt_strbuf *sb, const struct kt_header *h)
{
	char buf[sizeof(h->cmdline) + 1];
	uint32_t i, n = h->cmdline_len < sizeof(h->cmdline) ?
			h->cmdline_len : sizeof(h->cmdline);

	memcpy(buf, h->cmdline, n);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	rd_escape(sb, buf);
}

/* The worst integrity of a run's processes, for the page's badge. */
static const char *
run_integrity(const struct report_run *rr, const char **cls)
{
	const char *word = NULL, *c;
	size_t i;

	*cls = "ok";
	for (i = 0; i < rr->n; i++) {
		const char *w = report_integrity(&rr->p[i].m, &c);

		if (!word || (!strcmp(c, "bad") && strcmp(*cls, "bad")) ||
		    (!strcmp(c, "warn") && !strcmp(*cls, "ok"))) {
			word = w;
			*cls = c;
		}
	}
	return word;
}

static void
page_header(struct kt_strbuf *sb, const struct report_run *rr)
{
	const struct report_model *m = &rr->p[0].m;
	const char *cls, *word = run_integrity(rr, &cls);

	kt_strbuf_puts(sb, "<header class=\"top\"><div class=\"wrap\">"
		       "<div class=\"eyebrow\">kfdtrace report</div><h1>");
	title(sb, rr);
	kt_strbuf_printf(sb, "<span class=\"badge %s\">%s</span>", cls, word);
	if (m->hdr.flags & KT_HDR_SIMULATED)
		kt_strbuf_puts(sb, "<span class=\"badge info\">simulated "
			       "device</span>");
	if (rr->n > 1)
		kt_strbuf_printf(sb, "<span class=\"badge info\">%zu processes"
				 "</span>", rr->n);
	kt_strbuf_puts(sb, "</h1><div class=\"sub mono\">");
	if (run_header(rr)) {
		const struct kt_header *h = run_header(rr);
		char buf[3 * 1024];

		command_text(buf, sizeof(buf), h->run_cmdline,
			     h->run_cmdline_len < sizeof(h->run_cmdline) ?
			     h->run_cmdline_len : sizeof(h->run_cmdline), 0, 0);
		rd_escape(sb, buf);
	} else {
		cmdline(sb, &m->hdr);
	}
	kt_strbuf_puts(sb, "</div></div></header>\n<main class=\"wrap\">\n");
}

static void
tile(struct kt_strbuf *sb, const char *cls, const char *key, const char *val)
{
	kt_strbuf_printf(sb, "<div class=\"tile %s\"><div class=\"v\">", cls);
	rd_escape(sb, val);
	kt_strbuf_printf(sb, "</div><div class=\"k\">%s</div></div>", key);
}

static unsigned int
gpu_count(const struct report_model *m)
{
	return m->have_topo ? m->topo.ngpus : 0;
}

/* The whole run's totals. */
static void
tiles(struct kt_strbuf *sb, const struct report_run *rr)
{
	unsigned int gpus = 0;
	char v[64];
	size_t i;

	for (i = 0; i < rr->n; i++)
		if (gpu_count(&rr->p[i].m) > gpus)
			gpus = gpu_count(&rr->p[i].m);
	kt_strbuf_puts(sb, "<div class=\"tiles\" id=\"summary\">");
	tile(sb, "", "duration",
	     rd_duration(v, sizeof(v), (double)(rr->t_last - rr->t_first)));
	snprintf(v, sizeof(v), "%llu", (unsigned long long)rr->ioctls);
	tile(sb, "", "ioctls", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)rr->failed);
	tile(sb, rr->failed ? "bad" : "", "failed", v);
	snprintf(v, sizeof(v), "%zu", rr->n);
	tile(sb, "", rr->n == 1 ? "process" : "processes", v);
	snprintf(v, sizeof(v), "%zu", rr->nthreads);
	tile(sb, "", "threads", v);
	snprintf(v, sizeof(v), "%u", gpus);
	tile(sb, "", "GPUs", v);
	snprintf(v, sizeof(v), "%zu", rr->nleaks);
	tile(sb, rr->nleaks ? "warn" : "", "alive at exit", v);
	kt_strbuf_puts(sb, "</div>\n");
}

static void
fact(struct kt_strbuf *sb, const char *key, const char *val)
{
	kt_strbuf_printf(sb, "<dt>%s</dt><dd>", key);
	rd_escape(sb, val);
	kt_strbuf_puts(sb, "</dd>");
}

static void
facts(struct kt_strbuf *sb, const struct report_model *m,
      const struct report_run *rr)
{
	size_t nprocs = rr->n;
	const struct kt_header *h = &m->hdr;
	const char *cls, *word = report_integrity(m, &cls);
	char buf[512], a[32];
	time_t secs = (time_t)(h->start_realtime / 1000000000u);
	struct tm tm;
	unsigned int t;
	int n = 0;

	kt_strbuf_printf(sb, "<section id=\"facts\"><h2>Overview</h2>"
			 "<p class=\"note\">What was traced, where, and whether "
			 "the file is whole%s.</p><div class=\"cols\">"
			 "<dl class=\"facts\">", nprocs > 1 ? ": the run's "
			 "first process (Processes lists them all)" : "");
	fact(sb, "process", h->exe[0] ? h->exe : "unknown");
	kt_strbuf_puts(sb, "<dt>command</dt><dd class=\"mono\">");
	cmdline(sb, h);
	kt_strbuf_puts(sb, "</dd>");
	snprintf(buf, sizeof(buf), "%d (parent %d)", h->pid, h->ppid);
	fact(sb, "pid", buf);
	fact(sb, "host", h->host);
	fact(sb, "kernel", h->kernel_release);
	if (m->abi_major || m->abi_minor)
		snprintf(buf, sizeof(buf), "%u.%u", m->abi_major, m->abi_minor);
	else
		snprintf(buf, sizeof(buf), "unknown");
	fact(sb, "KFD ABI", buf);
	snprintf(buf, sizeof(buf), "%s %s%s", h->producer, h->producer_version,
		 (h->flags & KT_HDR_NO_BUFFERS) ? ", buffers omitted" : "");
	fact(sb, "recorded by", buf);
	kt_strbuf_puts(sb, "</dl><dl class=\"facts\">");
	if (gmtime_r(&secs, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		fact(sb, "started", buf);
	snprintf(buf, sizeof(buf), "%s", rd_duration(a, sizeof(a), (double)
		 (m->t_last - m->t_first)));
	n = (int)strlen(buf);
	snprintf(buf + n, sizeof(buf) - (size_t)n, ", from +%s",
		 rd_duration(a, sizeof(a), (double)m->t_first -
			     (double)rr->origin));
	fact(sb, "time span", buf);
	/* One zero for every time on the page, said once. */
	fact(sb, "times count from", run_header(rr) ?
	     "the run's start (when kfdtrace record ran its command)" :
	     "the first trace's start");
	n = snprintf(buf, sizeof(buf), "%llu:", (unsigned long long)m->records);
	for (t = 1; t < KT_REC_TYPE_MAX && n < (int)sizeof(buf) - 40; t++)
		if (m->per_type[t])
			n += snprintf(buf + n, sizeof(buf) - (size_t)n,
				      " %llu %s,",
				      (unsigned long long)m->per_type[t],
				      kt_rec_type_name(t));
	if (n > 0 && buf[n - 1] == ',')
		buf[n - 1] = '\0';
	fact(sb, "records", buf);
	kt_strbuf_printf(sb, "<dt>integrity</dt><dd><span class=\"badge %s\" "
			 "style=\"margin-left:0\">%s</span> ", cls, word);
	if (!strcmp(cls, "ok"))
		kt_strbuf_puts(sb, "closed cleanly by the writer");
	else if (m->status.message[0])
		rd_escape(sb, m->status.message);
	kt_strbuf_puts(sb, "</dd>");
	kt_strbuf_printf(sb, "<dt>file</dt><dd>%llu bytes in %llu frames</dd>",
			 (unsigned long long)m->status.file_size,
			 (unsigned long long)m->status.frames);
	kt_strbuf_puts(sb, "</dl></div></section>\n");
}

static const char *
link_type(uint32_t type)
{
	switch (type) {
	case 1: return "HyperTransport";
	case 2: return "PCIe";
	case 5: return "QPI";
	case 11: return "XGMI";
	default: return NULL;
	}
}

/* Nodes as boxes in one row, links as arcs below them. */
static void
topology_diagram(struct kt_strbuf *sb, const struct kt_topo *t)
{
	const double bw = 150, bh = 58, gap = 36, top = 10;
	double w, xs[KT_TOPO_MAX_NODES];
	unsigned int i, j, n = 0, order[KT_TOPO_MAX_NODES], pos[KT_TOPO_MAX_NODES];
	char gfx[16], mem[32];

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].present && !t->nodes[i].gpu_id)
			order[n++] = i;
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].present && t->nodes[i].gpu_id)
			order[n++] = i;
	if (!n || n > 8)
		return;
	w = n * bw + (n - 1) * gap;
	for (i = 0; i < n; i++) {
		pos[order[i]] = i;
		xs[i] = i * (bw + gap);
	}
	kt_strbuf_printf(sb, "<svg class=\"chart topo\" viewBox=\"-4 0 %.0f %.0f\" "
			 "style=\"max-width:%.0fpx\" role=\"img\" "
			 "aria-label=\"topology\">", w + 8, top + bh + 20 +
			 24.0 * (n > 1 ? n - 1 : 1), w + 8);
	/* Links first, so boxes sit on top. Draw each pair once. */
	for (i = 0; i < t->nlinks; i++) {
		const struct kt_topo_link *l = &t->links[i];
		double x1, x2, d;
		int dup = 0;

		if (l->from >= t->nnodes || l->to >= t->nnodes ||
		    !t->nodes[l->from].present ||
		    !t->nodes[l->to].present || l->from == l->to)
			continue;
		for (j = 0; j < i; j++)
			if (t->links[j].type == l->type &&
			    ((t->links[j].from == l->to &&
			      t->links[j].to == l->from) ||
			     (t->links[j].from == l->from &&
			      t->links[j].to == l->to)))
				dup = 1;
		if (dup)
			continue;
		x1 = xs[pos[l->from]] + bw / 2;
		x2 = xs[pos[l->to]] + bw / 2;
		/* Longer links dip deeper, so arcs between neighbours stay apart. */
		d = 12 + 12.0 * (x1 > x2 ? x1 - x2 : x2 - x1) / (bw + gap);
		kt_strbuf_printf(sb, "<path d=\"M%.1f %.1f C%.1f %.1f %.1f %.1f "
				 "%.1f %.1f\" fill=\"none\" stroke=\"%s\" "
				 "stroke-width=\"%s\"><title>node %u — node %u: "
				 "%s, weight %u</title></path>",
				 x1, top + bh, x1, top + bh + d * 2, x2,
				 top + bh + d * 2, x2, top + bh,
				 l->type == 11 ? "#e15759" : "#94a3b8",
				 l->type == 11 ? "3" : "1.5", l->from,
				 l->to, link_type(l->type) ?
				 link_type(l->type) : "link", l->weight);
	}
	for (i = 0; i < n; i++) {
		const struct kt_topo_node *nd = &t->nodes[order[i]];
		int gpu = nd->gpu_id != 0;

		kt_strbuf_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
				 "height=\"%.0f\" rx=\"8\" fill=\"%s\" "
				 "stroke=\"%s\"/>",
				 xs[i], top, bw, bh, gpu ? "#eef4fb" : "#f3f4f6",
				 gpu ? "#4e79a7" : "#9ca3af");
		kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"middle\" class=\"group-label\">"
				 "node %u · %s</text>", xs[i] + bw / 2, top + 20,
				 order[i], gpu ? kfd_gfx_target_name(
				 nd->gfx_target_version, gfx, sizeof(gfx)) :
				 "CPU");
		if (gpu)
			kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
					 "text-anchor=\"middle\">0x%x · %s</text>",
					 xs[i] + bw / 2, top + 40, nd->gpu_id,
					 rd_bytes(mem, sizeof(mem),
						  nd->vram_bytes));
		else
			kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
					 "text-anchor=\"middle\">%" PRIu64 " cores · %s"
					 "</text>", xs[i] + bw / 2, top + 40,
					 nd->cpu_cores, rd_bytes(mem, sizeof(mem),
					 nd->sys_bytes));
	}
	kt_strbuf_puts(sb, "</svg>");
}

static void
topology(struct kt_strbuf *sb, const struct report_model *m)
{
	const struct kt_topo *t = &m->topo;
	char gfx[16], mem[32];
	unsigned int i;

	kt_strbuf_puts(sb, "<section id=\"topology\"><h2>Topology</h2>");
	if (!m->have_topo) {
		kt_strbuf_puts(sb, "<p class=\"empty\">The trace holds no "
			       "topology snapshot.</p></section>\n");
		return;
	}
	kt_strbuf_printf(sb, "<p class=\"note\">The KFD sysfs topology as the "
			 "process read it: %u nodes, %u GPUs, %u links.</p>",
			 t->nnodes, t->ngpus, t->nlinks);
	topology_diagram(sb, t);
	kt_strbuf_puts(sb, "<table class=\"nodes\"><thead><tr><th>node</th>"
		       "<th>kind</th><th>gpu_id</th><th>name</th><th>target</th>"
		       "<th class=\"num\">CUs</th><th class=\"num\">memory</th>"
		       "<th>render node</th></tr></thead><tbody>");
	for (i = 0; i < t->nnodes; i++) {
		const struct kt_topo_node *n = &t->nodes[i];

		if (!n->present)
			continue;
		if (!n->gpu_id) {
			kt_strbuf_printf(sb, "<tr><td>%u</td><td>CPU</td><td>—</td>"
					 "<td>%" PRIu64 " cores</td><td>—</td>"
					 "<td class=\"num\">—</td>"
					 "<td class=\"num\">%s</td><td>—</td>"
					 "</tr>", i, n->cpu_cores,
					 rd_bytes(mem, sizeof(mem), n->sys_bytes));
			continue;
		}
		kt_strbuf_printf(sb, "<tr><td>%u</td><td>GPU</td><td class=\"mono\">"
				 "0x%x</td><td>", i, n->gpu_id);
		rd_escape(sb, n->name);
		kt_strbuf_printf(sb, "</td><td class=\"mono\">%s</td>"
				 "<td class=\"num\">%" PRIu64 "</td><td class=\"num\">%s "
				 "VRAM</td><td class=\"mono\">renderD%" PRIu64
				 "</td></tr>",
				 kfd_gfx_target_name(n->gfx_target_version, gfx,
						     sizeof(gfx)),
				 n->simd_per_cu ? n->simd_count / n->simd_per_cu
						: 0,
				 rd_bytes(mem, sizeof(mem), n->vram_bytes),
				 n->drm_render_minor);
	}
	kt_strbuf_puts(sb, "</tbody></table>");
	if (t->nlinks) {
		kt_strbuf_puts(sb, "<table class=\"links\" style=\"margin-top:14px\">"
			       "<thead><tr><th>link</th><th>type</th>"
			       "<th class=\"num\">weight</th><th class=\"num\">"
			       "max bandwidth</th></tr></thead><tbody>");
		for (i = 0; i < t->nlinks; i++) {
			const struct kt_topo_link *l = &t->links[i];
			const char *ty = link_type(l->type);

			kt_strbuf_printf(sb, "<tr><td>node %u → node %u%s</td>"
					 "<td>", l->from, l->to,
					 l->p2p ? " (p2p)" : "");
			if (ty)
				kt_strbuf_puts(sb, ty);
			else
				kt_strbuf_printf(sb, "type %u", l->type);
			kt_strbuf_printf(sb, "</td><td class=\"num\">%u</td>"
					 "<td class=\"num\">%u MB/s</td></tr>",
					 l->weight, l->max_bandwidth);
		}
		kt_strbuf_puts(sb, "</tbody></table>");
	}
	kt_strbuf_puts(sb, "</section>\n");
}

/* A process's heading inside a section, when the run has several. */
static void
proc_heading(struct kt_strbuf *sb, const struct report_run *rr, size_t i)
{
	if (rr->n < 2)
		return;
	kt_strbuf_puts(sb, "<h3 class=\"proc\">");
	rd_escape(sb, rr->p[i].rp->label);
	kt_strbuf_puts(sb, "</h3>");
}

static void
charts(struct kt_strbuf *sb, const struct report_run *rr)
{
	unsigned int h;
	size_t i;

	kt_strbuf_puts(sb, "<section id=\"timeline\"><h2>Object lifetimes</h2>"
		       "<p class=\"note\">Each bar is one buffer object or queue, "
		       "from the call that created it to the one that released "
		       "it; concurrent objects stack. A heap with more objects "
		       "than can be drawn one by one is a density band: each "
		       "column as tall as the objects alive in it. Hover a bar "
		       "for its handle, size and times.</p><div class=\"legend\">");
	for (h = 0; h < OBJ_HEAP_COUNT; h++)
		kt_strbuf_printf(sb, "<span><span class=\"sw\" style=\"background:"
				 "%s\"></span>%s</span>", rd_heap_color(h),
				 obj_heap_names[h]);
	kt_strbuf_puts(sb, "<span><span class=\"sw\" style=\"background:"
		       RD_QUEUE_COLOR "\"></span>queue</span><span><span "
		       "class=\"sw leak\"></span>alive at exit</span></div>");
	for (i = 0; i < rr->n; i++) {
		proc_heading(sb, rr, i);
		report_timeline(sb, &rr->p[i].m);
	}
	kt_strbuf_puts(sb, "</section>\n<section id=\"memory\"><h2>Memory over "
		       "time</h2><p class=\"note\">Bytes held per GPU and heap, "
		       "counted from ALLOC_MEMORY_OF_GPU, IMPORT_DMABUF and "
		       "FREE_MEMORY_OF_GPU.</p>");
	for (i = 0; i < rr->n; i++) {
		proc_heading(sb, rr, i);
		report_memory(sb, &rr->p[i].m);
	}
	kt_strbuf_puts(sb, "</section>\n");
	report_driver_time(sb, rr);
	kt_strbuf_printf(sb, "<section id=\"latency\"><h2>Latency by "
			 "ioctl</h2><p class=\"note\">Time from entry to exit of "
			 "each call%s, on a logarithmic axis shared by all "
			 "histograms; most frequent first. A count axis is "
			 "logarithmic too when a bin holds under a hundredth "
			 "of the tallest. Kinds with fewer than %u calls are "
			 "rows of one table below.</p>", rr->n > 1 ?
			 " of every process" : "", REPORT_RARE_CALLS);
	report_latency(sb, rr->kinds, rr->nkinds);
	kt_strbuf_puts(sb, "</section>\n");
}

static void
queues(struct kt_strbuf *sb, const struct report_run *rr)
{
	size_t i;

	for (i = 0; i < rr->n && !rr->p[i].m.subs.n; i++)
		;
	if (i == rr->n)
		return;
	kt_strbuf_puts(sb, "<section id=\"queues\"><h2>Queues</h2>"
		       "<p class=\"note\">Each tick is a doorbell: the packets "
		       "it published, recorded before the engine saw them.</p>");
	for (i = 0; i < rr->n; i++) {
		if (!rr->p[i].m.subs.n)
			continue;
		proc_heading(sb, rr, i);
		report_queues(sb, &rr->p[i].m);
	}
	kt_strbuf_puts(sb, "</section>\n");
}

int
report_html(struct kt_strbuf *sb, const struct report_run *rr)
{
	const struct report_model *m = &rr->p[0].m, *topo = m;
	size_t i;

	for (i = 0; i < rr->n && !topo->have_topo; i++)
		topo = &rr->p[i].m;
	if (!topo->have_topo)
		topo = m;
	page_head(sb, rr);
	page_header(sb, rr);
	tiles(sb, rr);
	facts(sb, m, rr);
	report_processes(sb, rr);
	topology(sb, topo);
	charts(sb, rr);
	report_outliers(sb, rr);
	queues(sb, rr);
	report_errors(sb, rr);
	report_leaks(sb, rr);
	report_threads(sb, rr);
	kt_strbuf_puts(sb, "</main>\n<footer>Generated by kfdtrace "
		       KFDTRACE_VERSION " from ");
	rd_escape(sb, basename_of(rr->p[0].rp->path));
	if (rr->n > 1)
		kt_strbuf_printf(sb, " and %zu more trace%s", rr->n - 1,
				 rr->n > 2 ? "s" : "");
	kt_strbuf_puts(sb, ". One self-contained file: no scripts, fonts or "
		       "network.</footer>\n</body></html>\n");
	return sb->failed ? -ENOMEM : 0;
}
