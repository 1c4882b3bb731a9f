/* SPDX-License-Identifier: MIT */
/*
 * Time in the driver per thread, and the slowest calls of a run.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_calls.h"
#include "report/report_draw.h"

#define SW 1160.0		/* the charts' width */
#define SLABEL 150.0		/* the left margin, for thread labels */
#define SRIGHT 16.0
#define SH 16.0			/* a strip's height */
#define SGAP 6.0
#define SCOL 2.0		/* pixels per column */
#define STRIP_COLOR "#ff9da7"	/* Tableau 10, used by no heap */

/* A thread's label cut to fit the margin: "tid name". */
static void
strip_label(char *buf, size_t size, const struct rm_thread *t)
{
	size_t n;

	snprintf(buf, size, "%u %s", t->tid, t->name);
	n = strlen(buf);
	while (n > 4 && rd_text_width(buf, 11) > SLABEL - 12) {
		/* Back to a UTF-8 boundary, then an ellipsis. */
		n--;
		while (n && ((unsigned char)buf[n] & 0xc0) == 0x80)
			n--;
		snprintf(buf + n, size - n, "…");
	}
}

/* One thread's strip: a column's height is its busy share. */
static void
strip(struct kt_strbuf *sb, const struct rm_thread *t,
      const struct rm_strip *s, const struct rd_scale *x, double y)
{
	double base = y + SH, cols = (x->r1 - x->r0) / SCOL, h, last = -1;
	double span = (x->d1 - x->d0) / cols;
	char lab[96], busy[32], act[32];
	unsigned int c;

	strip_label(lab, sizeof(lab), t);
	kt_strbuf_printf(sb, "<g class=\"strip\" data-tid=\"%u\" data-busy=\"%llu\">"
			 "<text x=\"4\" y=\"%.1f\">", t->tid,
			 (unsigned long long)t->busy_ns, y + 12);
	rd_escape(sb, lab);
	kt_strbuf_printf(sb, "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			 "height=\"%.0f\" fill=\"#f3f4f6\"><title>",
			 x->r0, y, x->r1 - x->r0, SH);
	rd_escape(sb, lab);
	kt_strbuf_printf(sb, ": %s in %llu ioctls over %s</title></rect>"
			 "<path d=\"M%.1f %.1f",
			 rd_duration(busy, sizeof(busy), (double)t->busy_ns),
			 (unsigned long long)t->ioctls,
			 rd_duration(act, sizeof(act), (double)(t->last -
							       t->first)),
			 x->r0, base);
	for (c = 0; c < (unsigned int)cols; c++) {
		uint64_t c0 = (uint64_t)(x->d0 + c * span);
		uint64_t c1 = (uint64_t)(x->d0 + (c + 1) * span);
		double f = c1 > c0 ? rm_strip_busy(s, c0, c1) /
				     (double)(c1 - c0) : 0;

		if (f > 1)
			f = 1;
		/* Half pixels; any time in the driver shows. */
		h = (double)(long long)(f * SH * 2 + 0.5) / 2;
		if (f > 0 && h < 1)
			h = 1;
		if (h == last)
			continue;
		if (c)
			kt_strbuf_printf(sb, "H%.1f", x->r0 + c * SCOL);
		kt_strbuf_printf(sb, "V%.1f", base - h);
		last = h;
	}
	kt_strbuf_printf(sb, "H%.1fV%.1fZ\" fill=\"" STRIP_COLOR "\"/></g>",
			 x->r1, base);
}

void
report_driver_time(struct kt_strbuf *sb, const struct report_run *rr)
{
	size_t k, i, shown = 0, n;
	struct rd_scale x;

	kt_strbuf_printf(sb, "<section id=\"driver\"><h2>Time in the driver"
			 "</h2><p class=\"note\">A strip per thread: each "
			 "column as tall as the share of its time the thread "
			 "spent inside ioctls, entry to exit. Hover a strip's "
			 "label for its totals. At most %u threads of a process "
			 "have a strip.</p>", RM_STRIP_THREADS);
	x.d0 = (double)rr->t_first;
	x.d1 = (double)(rr->t_last > rr->t_first ? rr->t_last :
			rr->t_first + 1000);
	x.r0 = SLABEL;
	x.r1 = SW - SRIGHT;
	for (k = 0; k < rr->n && shown < REPORT_MAX_STRIPS; k++) {
		const struct report_model *m = &rr->p[k].m;

		for (n = 0; n < m->nthreads && n < RM_STRIP_THREADS &&
			    m->strips[n]; n++)
			;
		if (n > REPORT_MAX_STRIPS - shown)
			n = REPORT_MAX_STRIPS - shown;
		if (!n)
			continue;
		if (rr->n > 1) {
			kt_strbuf_puts(sb, "<h3 class=\"proc\">");
			rd_escape(sb, rr->p[k].rp->label);
			kt_strbuf_puts(sb, "</h3>");
		}
		kt_strbuf_printf(sb, "<svg class=\"chart driver\" viewBox=\"0 0 "
				 "%.0f %.0f\" role=\"img\" aria-label=\"time in "
				 "the driver per thread\">", SW,
				 8 + n * (SH + SGAP) + 34);
		rd_time_axis(sb, &x, rr->origin, 4, 4 + n * (SH + SGAP));
		for (i = 0; i < n; i++)
			strip(sb, &m->threads[i], m->strips[i], &x,
			      4 + i * (SH + SGAP));
		kt_strbuf_puts(sb, "</svg>");
		shown += n;
	}
	if (rr->nthreads > shown)
		kt_strbuf_printf(sb, "<p class=\"note more-strips\">%zu more "
				 "threads have no strip; the Threads table "
				 "lists their totals.</p>", rr->nthreads - shown);
	kt_strbuf_puts(sb, "</section>\n");
}

struct outlier_ref {
	const struct report_proc *p;
	const struct rm_outlier *o;
};

static int
cmp_ref(const void *a, const void *b)
{
	const struct outlier_ref *x = a, *y = b;
	int c = rm_cmp_outlier(x->o, y->o);

	if (c)
		return c;
	return x->p < y->p ? -1 : x->p > y->p;
}

static void
before_rows(struct kt_strbuf *sb, const struct rm_outlier *o, uint64_t origin,
	    int open)
{
	char t[32], d[32];
	unsigned int i;

	if (!o->nbefore)
		return;
	kt_strbuf_printf(sb, "<details class=\"before\"%s><summary>the %u "
			 "calls before it</summary><table class=\"before\">"
			 "<thead><tr><th class=\"num\">seq</th><th class=\"num\">"
			 "time</th><th class=\"num\">thread</th><th>ioctl</th>"
			 "<th class=\"num\">took</th><th class=\"num\">result"
			 "</th></tr></thead><tbody>", open ? " open" : "",
			 o->nbefore);
	for (i = 0; i < o->nbefore; i++) {
		const struct rm_call *c = &o->before[i];

		kt_strbuf_printf(sb, "<tr><td class=\"num mono\">#%llu</td>"
				 "<td class=\"num\">+%s</td><td class=\"num\">"
				 "%u</td><td class=\"mono\">",
				 (unsigned long long)c->seq,
				 rd_duration(t, sizeof(t), (double)c->ts -
					     (double)origin), c->tid);
		rd_escape(sb, c->name);
		kt_strbuf_printf(sb, "</td><td class=\"num\">%s</td>",
				 rd_duration(d, sizeof(d), (double)c->dur));
		if (c->ret < 0 && kfd_errno_name(c->err))
			kt_strbuf_printf(sb, "<td class=\"num err\">%s</td></tr>",
					 kfd_errno_name(c->err));
		else
			kt_strbuf_printf(sb, "<td class=\"num\">%d</td></tr>",
					 c->ret);
	}
	kt_strbuf_puts(sb, "</tbody></table></details>");
}

void
report_outliers(struct kt_strbuf *sb, const struct report_run *rr)
{
	struct outlier_ref *v;
	size_t i, j, n = 0;
	char t[32], d[32];

	for (i = 0; i < rr->n; i++)
		n += rr->p[i].m.noutliers;
	kt_strbuf_printf(sb, "<section id=\"outliers\"><h2>Slowest calls</h2>"
			 "<p class=\"note\">The %u longest ioctls of the run, "
			 "entry to exit, slowest first, with their arguments "
			 "as <code>kfdtrace dump</code> prints them. Open a "
			 "row's details for the %u calls its process recorded "
			 "before it: a call is recorded when it returns, so "
			 "these include calls other threads made while it "
			 "waited.</p>", RM_OUTLIERS, RM_BEFORE);
	if (!n) {
		kt_strbuf_puts(sb, "<p class=\"empty\">No timed ioctls.</p>"
			       "</section>\n");
		return;
	}
	v = calloc(n, sizeof(*v));
	if (!v) {
		sb->failed = 1;
		return;
	}
	for (i = 0, n = 0; i < rr->n; i++)
		for (j = 0; j < rr->p[i].m.noutliers; j++) {
			v[n].p = &rr->p[i];
			v[n++].o = &rr->p[i].m.outliers[j];
		}
	qsort(v, n, sizeof(*v), cmp_ref);
	if (n > RM_OUTLIERS)
		n = RM_OUTLIERS;
	kt_strbuf_puts(sb, "<table class=\"outliers\"><thead><tr>"
		       "<th class=\"num\">#</th><th class=\"num\">took</th>"
		       "<th>process</th><th class=\"num\">thread</th>"
		       "<th class=\"num\">time</th><th class=\"num\">seq</th>"
		       "<th>call</th></tr></thead><tbody>");
	for (i = 0; i < n; i++) {
		const struct rm_outlier *o = v[i].o;

		kt_strbuf_printf(sb, "<tr id=\"outlier-%zu\" data-ns=\"%llu\" "
				 "data-tid=\"%u\" data-seq=\"%llu\"><td class="
				 "\"num\">%zu</td><td class=\"num took\">%s</td>"
				 "<td class=\"mono pname\">", i + 1,
				 (unsigned long long)o->call.dur, o->call.tid,
				 (unsigned long long)o->call.seq, i + 1,
				 rd_duration(d, sizeof(d),
					     (double)o->call.dur));
		rd_escape(sb, v[i].p->rp->label);
		kt_strbuf_printf(sb, "</td><td class=\"num\">%u", o->call.tid);
		if (o->thread[0]) {
			kt_strbuf_puts(sb, " <span class=\"dim\">");
			rd_escape(sb, o->thread);
			kt_strbuf_puts(sb, "</span>");
		}
		kt_strbuf_printf(sb, "</td><td class=\"num\">+%s</td>"
				 "<td class=\"num mono\">#%llu</td>"
				 "<td class=\"call mono\">",
				 rd_duration(t, sizeof(t), (double)o->call.ts -
					     (double)rr->origin),
				 (unsigned long long)o->call.seq);
		rd_escape(sb, rd_call_text(o->text));
		before_rows(sb, o, rr->origin, i == 0);
		kt_strbuf_puts(sb, "</td></tr>");
	}
	kt_strbuf_puts(sb, "</tbody></table></section>\n");
	free(v);
}
