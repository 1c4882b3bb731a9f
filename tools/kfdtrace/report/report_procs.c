/* SPDX-License-Identifier: MIT */
/*
 * The report's run-wide sections: the process tree, and the failed calls,
 * leaks and threads of every process.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cli_opt.h"
#include "report/report_draw.h"
#include "report/report_html.h"
#include "report/report_procs.h"

#define PW 1160.0
#define PRIGHT 16.0
#define PLANE 16.0
#define PGAP 6.0
#define PINDENT 14.0

/* The label cell of a process: its run label. */
static void
proc_cell(struct kt_strbuf *sb, const struct report_proc *p)
{
	kt_strbuf_puts(sb, "<td class=\"mono pname\">");
	rd_escape(sb, p->rp->label);
	kt_strbuf_puts(sb, "</td>");
}

static void
proc_lanes(struct kt_strbuf *sb, const struct report_run *rr)
{
	double left = 0, h = 8 + rr->n * (PLANE + PGAP), y = 8;
	struct rd_scale x;
	size_t i;

	/* The margin is as wide as the widest indented label. */
	for (i = 0; i < rr->n; i++) {
		double w = rd_text_width(rr->p[i].rp->label, 12) +
			   PINDENT * rr->p[i].rp->depth + 16;

		if (w > left)
			left = w;
	}
	if (left > PW / 2)
		left = PW / 2;
	x.d0 = (double)rr->t_first;
	x.d1 = (double)(rr->t_last > rr->t_first ? rr->t_last :
			rr->t_first + 1000);
	x.r0 = left;
	x.r1 = PW - PRIGHT;
	kt_strbuf_printf(sb, "<svg class=\"chart procs\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"processes over time\">",
			 PW, h + 40);
	rd_time_axis(sb, &x, rr->origin, 4, h);
	for (i = 0; i < rr->n; i++, y += PLANE + PGAP) {
		const struct report_model *m = &rr->p[i].m;
		double x0 = rd_map(&x, (double)m->t_first);
		double x1 = rd_map(&x, (double)m->t_last);
		char a[32];

		if (x1 < x0 + 2)
			x1 = x0 + 2;
		kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
				 "class=\"group-label\">",
				 4 + PINDENT * rr->p[i].rp->depth, y + 12);
		rd_escape(sb, rr->p[i].rp->label);
		kt_strbuf_printf(sb, "</text><rect class=\"proc\" x=\"%.1f\" "
				 "y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" "
				 "rx=\"3\" fill=\"#64748b\"><title>",
				 x0, y, x1 - x0, PLANE);
		rd_escape(sb, rr->p[i].rp->label);
		kt_strbuf_printf(sb, ": %llu ioctls over %s</title></rect>",
				 (unsigned long long)m->ioctls,
				 rd_duration(a, sizeof(a), (double)(m->t_last -
								   m->t_first)));
	}
	kt_strbuf_puts(sb, "</svg>");
}

void
report_processes(struct kt_strbuf *sb, const struct report_run *rr)
{
	size_t i;

	kt_strbuf_printf(sb, "<section id=\"processes\"><h2>Processes "
			 "<span class=\"dim\">(%zu)</span></h2><p class=\"note\">"
			 "The traces of the run as a tree: children under their "
			 "parent, in start order.</p>", rr->n);
	proc_lanes(sb, rr);
	kt_strbuf_puts(sb, "<table><thead><tr><th>process</th>"
		       "<th class=\"num\">pid</th><th class=\"num\">parent</th>"
		       "<th>command</th><th class=\"num\">from</th>"
		       "<th class=\"num\">for</th><th class=\"num\">ioctls</th>"
		       "<th class=\"num\">failed</th><th class=\"num\">threads</th>"
		       "<th class=\"num\">alive at exit</th><th>trace</th>"
		       "</tr></thead><tbody>");
	for (i = 0; i < rr->n; i++) {
		const struct report_proc *p = &rr->p[i];
		const struct report_model *m = &p->m;
		const char *cls, *word = report_integrity(m, &cls);
		char a[32], b[32], cmd[sizeof(m->hdr.cmdline) + 1];
		uint32_t k, n = m->hdr.cmdline_len < sizeof(m->hdr.cmdline) ?
				m->hdr.cmdline_len : sizeof(m->hdr.cmdline);

		memcpy(cmd, m->hdr.cmdline, n);
		cmd[n] = '\0';
		while (n && cmd[n - 1] == '\0')
			n--;
		for (k = 0; k < n; k++)
			if (cmd[k] == '\0')
				cmd[k] = ' ';
		kt_strbuf_printf(sb, "<tr><td class=\"mono\" style=\"padding-left:"
				 "%.0fpx\">%s", 10 + PINDENT * p->rp->depth,
				 p->rp->depth ? "└ " : "");
		rd_escape(sb, p->rp->label);
		kt_strbuf_printf(sb, "</td><td class=\"num\">%d</td>"
				 "<td class=\"num\">%d</td><td class=\"mono\">",
				 (int)m->hdr.pid, (int)m->hdr.ppid);
		rd_escape(sb, cmd);
		kt_strbuf_printf(sb, "</td><td class=\"num\">+%s</td>"
				 "<td class=\"num\">%s</td><td class=\"num\">%llu"
				 "</td><td class=\"num%s\">%llu</td>"
				 "<td class=\"num\">%zu</td><td class=\"num\">%zu"
				 "</td><td><span class=\"badge %s\" style=\""
				 "margin-left:0\">%s</span> <span class=\"mono\">",
				 rd_duration(a, sizeof(a), (double)m->t_first -
					     (double)rr->origin),
				 rd_duration(b, sizeof(b), (double)(m->t_last -
								   m->t_first)),
				 (unsigned long long)m->ioctls,
				 m->failed ? " fail" : "",
				 (unsigned long long)m->failed, m->nthreads,
				 m->nleaks, cls, word);
		{
			const char *path = cli_name(p->rp->path);
			const char *base = strrchr(path, '/');

			rd_escape(sb, base && base[1] ? base + 1 : path);
		}
		kt_strbuf_puts(sb, "</span></td></tr>");
	}
	kt_strbuf_puts(sb, "</tbody></table></section>\n");
}

struct err_ref {
	const struct report_proc *p;
	const struct rm_error *e;
};

static int
cmp_err(const void *a, const void *b)
{
	const struct err_ref *x = a, *y = b;

	if (x->e->ts != y->e->ts)
		return x->e->ts < y->e->ts ? -1 : 1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->e->seq < y->e->seq ? -1 : x->e->seq > y->e->seq;
}

void
report_errors(struct kt_strbuf *sb, const struct report_run *rr)
{
	struct err_ref *v;
	size_t i, j, n = 0, shown;
	char t[32];

	kt_strbuf_printf(sb, "<section id=\"errors\"><h2>Failed calls "
			 "<span class=\"dim\">(%llu)</span></h2>",
			 (unsigned long long)rr->failed);
	if (!rr->failed) {
		kt_strbuf_puts(sb, "<p class=\"empty\">Every ioctl succeeded."
			       "</p></section>\n");
		return;
	}
	for (i = 0; i < rr->n; i++)
		n += rr->p[i].m.nerrors;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		sb->failed = 1;
		return;
	}
	for (i = 0, n = 0; i < rr->n; i++)
		for (j = 0; j < rr->p[i].m.nerrors; j++) {
			v[n].p = &rr->p[i];
			v[n++].e = &rr->p[i].m.errors[j];
		}
	qsort(v, n, sizeof(*v), cmp_err);
	shown = n < RM_MAX_ERRORS ? n : RM_MAX_ERRORS;
	kt_strbuf_puts(sb, "<p class=\"note\">Each failed ioctl with its decoded "
		       "arguments, in time order.</p><table><thead><tr>"
		       "<th>process</th><th class=\"num\">seq</th>"
		       "<th class=\"num\">time</th><th class=\"num\">thread</th>"
		       "<th>error</th><th>call</th></tr></thead><tbody>");
	for (i = 0; i < shown; i++) {
		const struct rm_error *e = v[i].e;
		const char *en = kfd_errno_name(e->err);
		const char *ed = kfd_errno_desc(e->err);

		kt_strbuf_puts(sb, "<tr>");
		proc_cell(sb, v[i].p);
		kt_strbuf_printf(sb, "<td class=\"num mono\">#%llu</td>"
				 "<td class=\"num\">+%s</td><td class=\"num\">"
				 "%u</td><td class=\"err\"",
				 (unsigned long long)e->seq,
				 rd_duration(t, sizeof(t), (double)e->ts -
					     (double)v[i].p->m.origin),
				 e->tid);
		if (ed) {
			kt_strbuf_puts(sb, " title=\"");
			rd_escape(sb, ed);
			kt_strbuf_puts(sb, "\"");
		}
		if (en)
			kt_strbuf_printf(sb, ">%s", en);
		else
			kt_strbuf_printf(sb, ">errno %d", e->err);
		kt_strbuf_puts(sb, "</td><td class=\"call mono\">");
		rd_escape(sb, rd_call_text(e->text));
		kt_strbuf_puts(sb, "</td></tr>");
	}
	kt_strbuf_puts(sb, "</tbody></table>");
	if (rr->failed > shown)
		kt_strbuf_printf(sb, "<p class=\"note\">%llu more failed calls "
				 "are not listed; `kfdtrace dump` shows them.</p>",
				 (unsigned long long)(rr->failed - shown));
	kt_strbuf_puts(sb, "</section>\n");
	free(v);
}

static void
leak_row(struct kt_strbuf *sb, const struct report_proc *p,
	 const struct rm_span *sp)
{
	const struct report_model *m = &p->m;
	const char *tn;
	char a[32], b[32];

	kt_strbuf_puts(sb, "<tr>");
	proc_cell(sb, p);
	kt_strbuf_puts(sb, "<td>");
	switch (sp->what) {
	case RM_BO:
		kt_strbuf_printf(sb, "<span class=\"legend\" style=\"display:"
				 "inline\"><span class=\"sw\" style=\"background:"
				 "%s\"></span></span>BO</td><td class=\"mono\">"
				 "0x%llx_%08llx</td><td class=\"mono\">0x%x</td>"
				 "<td>%s</td><td class=\"num\">%s</td>",
				 rd_heap_color(sp->kind),
				 (unsigned long long)(sp->key >> 32),
				 (unsigned long long)(sp->key & 0xffffffffu),
				 sp->gpu_id, obj_heap_names[sp->kind],
				 rd_bytes(a, sizeof(a), sp->size));
		break;
	case RM_QUEUE:
		tn = obj_queue_type_name(&m->objs, sp->kind);
		kt_strbuf_printf(sb, "queue</td><td class=\"mono\">%llu</td>"
				 "<td class=\"mono\">0x%x</td><td>%s</td>"
				 "<td class=\"num\">—</td>",
				 (unsigned long long)sp->key, sp->gpu_id,
				 tn ? tn : "");
		break;
	default:
		tn = obj_event_type_name(&m->objs, sp->kind);
		kt_strbuf_printf(sb, "event</td><td class=\"mono\">%llu</td>"
				 "<td>—</td><td>%s</td><td class=\"num\">—</td>",
				 (unsigned long long)sp->key, tn ? tn : "");
		break;
	}
	kt_strbuf_printf(sb, "<td class=\"num mono\">#%llu</td><td class=\"num\">"
			 "+%s</td><td class=\"num\">%s</td></tr>",
			 (unsigned long long)sp->seq,
			 rd_duration(a, sizeof(a), (double)sp->t0 -
				     (double)m->origin),
			 rd_duration(b, sizeof(b), (double)(sp->t1 - sp->t0)));
}

void
report_leaks(struct kt_strbuf *sb, const struct report_run *rr)
{
	uint64_t bytes = 0;
	size_t i, k;
	char b[32];
	int what;

	for (k = 0; k < rr->n; k++)
		for (i = 0; i < rr->p[k].m.nspans; i++)
			if (rr->p[k].m.spans[i].leaked &&
			    rr->p[k].m.spans[i].what == RM_BO)
				bytes += rr->p[k].m.spans[i].size;
	kt_strbuf_printf(sb, "<section id=\"leaks\"><h2>Alive at exit "
			 "<span class=\"dim\">(%zu)</span></h2>", rr->nleaks);
	if (!rr->nleaks) {
		kt_strbuf_puts(sb, "<p class=\"empty\">Every object the process "
			       "created was released.</p></section>\n");
		return;
	}
	kt_strbuf_printf(sb, "<p class=\"note\">Objects never released before "
			 "the trace ended (%s of buffer memory): leaks, unless "
			 "the process meant to exit with them.</p>",
			 rd_bytes(b, sizeof(b), bytes));
	kt_strbuf_puts(sb, "<table><thead><tr><th>process</th><th>object</th>"
		       "<th>id</th><th>gpu_id</th><th>heap / type</th>"
		       "<th class=\"num\">size</th><th class=\"num\">created by"
		       "</th><th class=\"num\">at</th><th class=\"num\">age</th>"
		       "</tr></thead><tbody>");
	for (k = 0; k < rr->n; k++)
		for (what = RM_BO; what <= RM_EVENT; what++)
			for (i = 0; i < rr->p[k].m.nspans; i++)
				if (rr->p[k].m.spans[i].leaked &&
				    rr->p[k].m.spans[i].what == what)
					leak_row(sb, &rr->p[k],
						 &rr->p[k].m.spans[i]);
	kt_strbuf_puts(sb, "</tbody></table></section>\n");
}

void
report_threads(struct kt_strbuf *sb, const struct report_run *rr)
{
	char a[32], b[32];
	size_t i, k, shown = 0;

	kt_strbuf_printf(sb, "<section id=\"threads\"><h2>Threads <span "
			 "class=\"dim\">(%zu)</span></h2>", rr->nthreads);
	kt_strbuf_puts(sb, "<p class=\"note\">Time in ioctls is the sum of the "
		       "thread's calls, entry to exit; active is from its first "
		       "record to the end of its last call.</p>"
		       "<table><thead><tr><th>process</th><th class=\"num\">tid"
		       "</th><th>name</th><th class=\"num\">ioctls</th>"
		       "<th class=\"num\">failed</th><th class=\"num\">time in "
		       "ioctls</th><th class=\"num\">active</th></tr></thead>"
		       "<tbody>");
	for (k = 0; k < rr->n && shown < REPORT_MAX_THREADS; k++) {
		for (i = 0; i < rr->p[k].m.nthreads &&
			    shown < REPORT_MAX_THREADS; i++, shown++) {
			const struct rm_thread *t = &rr->p[k].m.threads[i];

			kt_strbuf_puts(sb, "<tr>");
			proc_cell(sb, &rr->p[k]);
			kt_strbuf_printf(sb, "<td class=\"num\">%u</td><td>",
					 t->tid);
			rd_escape(sb, t->name);
			kt_strbuf_printf(sb, "</td><td class=\"num\">%llu</td>"
					 "<td class=\"num%s\">%llu</td>"
					 "<td class=\"num busy\">%s</td>"
					 "<td class=\"num active\">%s</td></tr>",
					 (unsigned long long)t->ioctls,
					 t->failed ? " fail" : "",
					 (unsigned long long)t->failed,
					 rd_duration(a, sizeof(a),
						     (double)t->busy_ns),
					 rd_duration(b, sizeof(b), (double)
						     (t->last - t->first)));
		}
	}
	kt_strbuf_puts(sb, "</tbody></table>");
	if (rr->nthreads > shown)
		kt_strbuf_printf(sb, "<p class=\"note more-threads\">%zu more "
				 "threads are not listed; `kfdtrace stats` "
				 "shows them.</p>", rr->nthreads - shown);
	kt_strbuf_puts(sb, "</section>\n");
}
