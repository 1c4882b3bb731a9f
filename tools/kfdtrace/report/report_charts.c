/* SPDX-License-Identifier: MIT */
/*
 * The report's SVG charts: object lifetimes per GPU and memory per heap
 * over time (the latency histograms are in report_latency.c). Charts are
 * plain inline SVG with <title> tooltips, so the page needs no script.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "report/report_charts.h"
#include "report/report_draw.h"

#define CHART_W 1160.0
#define LABEL_W 150.0		/* left margin for group labels */
#define RIGHT_PAD 16.0
#define LANE_H 12.0
#define LANE_GAP 3.0
#define GROUP_GAP 10.0
#define MAX_LANES 16		/* per group; more overlap in the last lane */
#define GROUP_BARS 600		/* per group; more are drawn as a density band */
#define BAND_LANES 4		/* a density band is as tall as this many lanes */
#define BAND_COL 2.0		/* pixels per column of a density band */
#define MAX_STEPS 1500		/* memory chart columns kept per series */

/* The time domain every chart shares: the run's first record to its last. */
static void
time_scale(const struct report_model *m, struct rd_scale *x)
{
	uint64_t t0 = m->view_t0, t1 = m->view_t1;

	if (t1 <= t0)
		t1 = t0 + 1000;
	x->d0 = (double)t0;
	x->d1 = (double)t1;
	x->r0 = LABEL_W;
	x->r1 = CHART_W - RIGHT_PAD;
}

static void
span_title(struct kt_strbuf *sb, const struct report_model *m,
	   const struct rm_span *sp, const char *what)
{
	char a[32], b[32], d[32], sz[32];
	uint64_t o = m->origin;

	rd_duration(a, sizeof(a), (double)sp->t0 - (double)o);
	rd_duration(b, sizeof(b), (double)sp->t1 - (double)o);
	rd_duration(d, sizeof(d), (double)(sp->t1 - sp->t0));
	kt_strbuf_printf(sb, "<title>%s ", what);
	if (sp->what == RM_BO)
		kt_strbuf_printf(sb, "0x%llx_%08llx, %s",
				 (unsigned long long)(sp->key >> 32),
				 (unsigned long long)(sp->key & 0xffffffffu),
				 rd_bytes(sz, sizeof(sz), sp->size));
	else
		kt_strbuf_printf(sb, "%llu", (unsigned long long)sp->key);
	kt_strbuf_printf(sb, "\n+%s → %s%s (%s), created by #%llu</title>",
			 a, sp->leaked ? "exit " : "+", sp->leaked ? "" : b,
			 d, (unsigned long long)sp->seq);
}

/* Spans of one group in start order, for lane packing. */
static int
cmp_span_ptr(const void *a, const void *b)
{
	const struct rm_span *x = *(const struct rm_span *const *)a;
	const struct rm_span *y = *(const struct rm_span *const *)b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct group {
	const char *label;
	const char *color;
	struct rm_span **v;
	size_t n;
	unsigned int lanes;
	int overflow;		/* some spans share the last lane */
	int band;		/* too many to draw: a density band */
};

/*
 * Greedy interval packing: each span takes the first lane free at its
 * start (with a pixel of air), so concurrent objects stack and sequential
 * ones share a lane.
 */
static void
pack(struct group *g, const struct rd_scale *x, unsigned char *lane_of)
{
	double end[MAX_LANES];
	unsigned int i, l;

	g->lanes = 0;
	for (i = 0; i < g->n; i++) {
		double x0 = rd_map(x, (double)g->v[i]->t0);
		double x1 = rd_map(x, (double)g->v[i]->t1);

		if (x1 < x0 + 2)
			x1 = x0 + 2;
		for (l = 0; l < g->lanes; l++)
			if (end[l] + 1 <= x0)
				break;
		if (l == g->lanes) {
			if (g->lanes < MAX_LANES) {
				g->lanes++;
			} else {
				l = MAX_LANES - 1;
				g->overflow = 1;
			}
		}
		end[l] = x1;
		lane_of[i] = (unsigned char)l;
	}
}

/* A group is at least tall enough for its three label lines. */
static double
group_height(const struct group *g)
{
	double h = g->lanes * (LANE_H + LANE_GAP) - LANE_GAP;

	return h < 3 * LANE_H + LANE_GAP ? 3 * LANE_H + LANE_GAP : h;
}

/*
 * A group with more objects than GROUP_BARS: per column of BAND_COL
 * pixels, a bar as tall as the number of its objects alive in that
 * column (relative to the most at once), so that a heap of 60,000 BOs
 * is a shape of a few kilobytes and every heap keeps its lane.
 */
static void
band(struct kt_strbuf *sb, const struct group *g, const struct rd_scale *x,
     double y, double h)
{
	size_t ncol = (size_t)((x->r1 - x->r0) / BAND_COL) + 1, i, c0, c1;
	long long *col = calloc(ncol + 1, sizeof(*col)), live = 0, peak = 1;
	char a[32];

	if (!col) {
		sb->failed = 1;
		return;
	}
	for (i = 0; i < g->n; i++) {
		double p0 = (rd_map(x, (double)g->v[i]->t0) - x->r0) / BAND_COL;
		double p1 = (rd_map(x, (double)g->v[i]->t1) - x->r0) / BAND_COL;

		c0 = p0 < 0 ? 0 : (size_t)p0;
		c1 = p1 < 0 ? 0 : (size_t)p1;
		if (c0 >= ncol)
			c0 = ncol - 1;
		if (c1 >= ncol)
			c1 = ncol - 1;
		col[c0]++;
		col[c1 + 1]--;
	}
	for (i = 0; i < ncol; i++) {
		live += col[i];
		col[i] = live;
		if (live > peak)
			peak = live;
	}
	kt_strbuf_printf(sb, "<path class=\"band\" fill=\"%s\" d=\"", g->color);
	for (i = 0; i < ncol; i++) {
		double bh;

		if (col[i] <= 0)
			continue;
		/* At least a pixel and a half, so one object still shows. */
		bh = (double)col[i] * h / (double)peak;
		if (bh < 1.5)
			bh = 1.5;
		kt_strbuf_printf(sb, "M%.1f %.1fh%.1fv%.1fh-%.1fZ",
				 x->r0 + (double)i * BAND_COL, y + h - bh,
				 BAND_COL, bh, BAND_COL);
	}
	kt_strbuf_printf(sb, "\"><title>%zu %s objects, at most %lld alive in "
			 "one column (%s wide): each column is as tall as the "
			 "objects alive in it</title></path>", g->n, g->label,
			 peak, rd_duration(a, sizeof(a), (x->d1 - x->d0) *
					   BAND_COL / (x->r1 - x->r0)));
	free(col);
}

static void
timeline_gpu(struct kt_strbuf *sb, const struct report_model *m,
	     uint32_t gpu_id, struct rm_span **buf)
{
	struct group groups[OBJ_HEAP_COUNT + 1];
	unsigned char *lanes[OBJ_HEAP_COUNT + 1];
	unsigned int ng = 0, gi, h;
	struct rd_scale x;
	size_t i, used = 0;
	double y, height;
	char cnt[32];

	time_scale(m, &x);
	memset(groups, 0, sizeof(groups));
	memset(lanes, 0, sizeof(lanes));
	/* One group per heap in heap order, then the queues. */
	for (h = 0; h <= OBJ_HEAP_COUNT; h++) {
		struct group *g = &groups[ng];

		g->v = buf + used;
		for (i = 0; i < m->nspans; i++) {
			const struct rm_span *sp = &m->spans[i];

			if (sp->gpu_id != gpu_id)
				continue;
			if (h < OBJ_HEAP_COUNT ?
			    sp->what != RM_BO || sp->kind != h :
			    sp->what != RM_QUEUE)
				continue;
			g->v[g->n++] = (struct rm_span *)sp;
			used++;
		}
		if (!g->n)
			continue;
		g->label = h < OBJ_HEAP_COUNT ? obj_heap_names[h] : "queues";
		g->color = h < OBJ_HEAP_COUNT ? rd_heap_color(h) :
			   RD_QUEUE_COLOR;
		if (g->n > GROUP_BARS) {
			g->band = 1;
			g->lanes = BAND_LANES;
			ng++;
			continue;
		}
		qsort(g->v, g->n, sizeof(*g->v), cmp_span_ptr);
		lanes[ng] = malloc(g->n);
		if (!lanes[ng]) {
			sb->failed = 1;
			goto out;
		}
		pack(g, &x, lanes[ng]);
		ng++;
	}
	height = 8;
	for (gi = 0; gi < ng; gi++)
		height += group_height(&groups[gi]) + LANE_GAP + GROUP_GAP;
	kt_strbuf_printf(sb, "<svg class=\"chart timeline\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"object lifetimes of GPU 0x%x\">",
			 CHART_W, height + 40, gpu_id);
	rd_time_axis(sb, &x, m->origin, 4, height);
	y = 8;
	for (gi = 0; gi < ng; gi++) {
		struct group *g = &groups[gi];
		double gh = group_height(g);

		kt_strbuf_printf(sb, "<g class=\"lane\" data-group=\"%s\" "
				 "data-objects=\"%zu\" data-drawn=\"%s\">",
				 g->label, g->n, g->band ? "band" : "bars");
		kt_strbuf_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				 "height=\"%.1f\" fill=\"%s\" "
				 "fill-opacity=\"0.06\" rx=\"4\"/>",
				 x.r0 - 4, y - 2, x.r1 - x.r0 + 8, gh + 4,
				 g->color);
		/* Counts abbreviated (66.7k), so a label fits its margin. */
		kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"end\" class=\"group-label\">%s"
				 "</text><text x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"end\" class=\"group-count\">"
				 "%s %s</text>",
				 x.r0 - 12, y + gh / 2 - 4, g->label,
				 x.r0 - 12, y + gh / 2 + 9,
				 rd_count(cnt, sizeof(cnt), g->n),
				 g->n == 1 ? "object" : "objects");
		if (g->band || g->overflow)
			kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" "
					 "text-anchor=\"end\" class=\"group-count\">"
					 "%s</text>", x.r0 - 12, y + gh / 2 + 21,
					 g->band ? "density" : "overlapping");
		if (g->band) {
			band(sb, g, &x, y, gh);
			kt_strbuf_puts(sb, "</g>");
			y += gh + LANE_GAP + GROUP_GAP;
			continue;
		}
		for (i = 0; i < g->n; i++) {
			const struct rm_span *sp = g->v[i];
			double x0 = rd_map(&x, (double)sp->t0);
			double x1 = rd_map(&x, (double)sp->t1);
			double ly = y + (gh - (g->lanes * (LANE_H + LANE_GAP) -
					       LANE_GAP)) / 2 +
				    lanes[gi][i] * (LANE_H + LANE_GAP);

			if (x1 < x0 + 2)
				x1 = x0 + 2;
			kt_strbuf_printf(sb, "<rect class=\"bar%s\" x=\"%.1f\" "
					 "y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" "
					 "rx=\"2\" fill=\"%s\">",
					 sp->leaked ? " leaked" : "", x0, ly,
					 x1 - x0, LANE_H, g->color);
			span_title(sb, m, sp, sp->what == RM_BO ?
				   obj_heap_names[sp->kind] : "queue");
			kt_strbuf_puts(sb, "</rect>");
		}
		kt_strbuf_puts(sb, "</g>");
		y += gh + LANE_GAP + GROUP_GAP;
	}
	kt_strbuf_puts(sb, "</svg>");
out:
	for (gi = 0; gi < OBJ_HEAP_COUNT + 1; gi++)
		free(lanes[gi]);
}

/* The GPUs that own spans or memory, in id order. */
static size_t
gpus_of(const struct report_model *m, uint32_t *v, size_t max)
{
	size_t n = 0, i, j;

	for (i = 0; i < m->nspans; i++) {
		if (m->spans[i].what == RM_EVENT)
			continue;
		for (j = 0; j < n; j++)
			if (v[j] == m->spans[i].gpu_id)
				break;
		if (j == n && n < max)
			v[n++] = m->spans[i].gpu_id;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint32_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n;
}

static void
gpu_heading(struct kt_strbuf *sb, const struct report_model *m,
	    uint32_t gpu_id)
{
	unsigned int i;
	char gfx[16];

	kt_strbuf_printf(sb, "<h3 class=\"gpu\">GPU 0x%x", gpu_id);
	for (i = 0; m->have_topo && i < m->topo.nnodes; i++) {
		const struct kt_topo_node *n = &m->topo.nodes[i];

		if (!n->present || n->gpu_id != gpu_id)
			continue;
		kt_strbuf_printf(sb, " <span class=\"dim\">node %u · %s", i,
				 kfd_gfx_target_name(n->gfx_target_version,
						     gfx, sizeof(gfx)));
		if (n->name[0]) {
			kt_strbuf_puts(sb, " · ");
			rd_escape(sb, n->name);
		}
		kt_strbuf_puts(sb, "</span>");
		break;
	}
	kt_strbuf_puts(sb, "</h3>");
}

void
report_timeline(struct kt_strbuf *sb, const struct report_model *m)
{
	struct rm_span **buf;
	uint32_t gpus[64];
	size_t n = gpus_of(m, gpus, 64), i;

	if (!n) {
		kt_strbuf_puts(sb, "<p class=\"empty\">No buffer objects or "
			       "queues were created.</p>");
		return;
	}
	buf = malloc((m->nspans ? m->nspans : 1) * sizeof(*buf));
	if (!buf) {
		sb->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		gpu_heading(sb, m, gpus[i]);
		timeline_gpu(sb, m, gpus[i], buf);
	}
	free(buf);
}

/* Memory axis: a unit that keeps labels short, and round ticks in it. */
static void
bytes_axis(struct kt_strbuf *sb, double top, double bottom, double left,
	   double right, double max, int ticks, struct rd_scale *y)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double div = 1, step, v;
	int u = 0;

	while (max / div >= 1024 * 4 && u < 4) {
		div *= 1024;
		u++;
	}
	step = rd_nice_step(max / div, ticks);
	y->d0 = 0;
	y->d1 = step * div * (double)(long long)(max / div / step + 1);
	y->r0 = bottom;
	y->r1 = top;
	for (v = 0; v * div <= y->d1 + 1e-9; v += step) {
		double py = rd_map(y, v * div);

		kt_strbuf_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				 "y2=\"%.1f\" stroke=\"#eef0f3\"/>"
				 "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
				 "%g %s</text>",
				 left, py, right, py, left - 8, py + 4, v,
				 unit[u]);
	}
}

/* One heap's live bytes as a step line, at most one step per column. */
static void
step_path(struct kt_strbuf *sb, const struct rm_series *s,
	  const struct rd_scale *x, const struct rd_scale *y, int area)
{
	double col = -1, peak = 0, last = 0, px;
	size_t i;

	kt_strbuf_printf(sb, "<path d=\"M%.1f %.1f", x->r0, rd_map(y, 0));
	for (i = 0; i < s->n; i++) {
		px = rd_map(x, (double)s->pts[i].t);
		/* Points within one column: rise to their peak, then settle. */
		if (col >= 0 && px - col < (x->r1 - x->r0) / MAX_STEPS) {
			if ((double)s->pts[i].live > peak)
				peak = (double)s->pts[i].live;
			last = (double)s->pts[i].live;
			continue;
		}
		if (col >= 0 && peak > last)
			kt_strbuf_printf(sb, "V%.1f", rd_map(y, peak));
		if (col >= 0)
			kt_strbuf_printf(sb, "V%.1f", rd_map(y, last));
		kt_strbuf_printf(sb, "H%.1f", px);
		col = px;
		peak = last = (double)s->pts[i].live;
	}
	if (col >= 0) {
		if (peak > last)
			kt_strbuf_printf(sb, "V%.1f", rd_map(y, peak));
		kt_strbuf_printf(sb, "V%.1f", rd_map(y, last));
	}
	kt_strbuf_printf(sb, "H%.1f", x->r1);
	if (area)
		kt_strbuf_printf(sb, "V%.1fZ\" fill=\"%s\" fill-opacity=\"0.18\" "
				 "stroke=\"none\"/>", rd_map(y, 0),
				 rd_heap_color(s->heap));
	else
		kt_strbuf_printf(sb, "\" fill=\"none\" stroke=\"%s\" "
				 "stroke-width=\"2\" stroke-linejoin=\"round\"/>",
				 rd_heap_color(s->heap));
}

/*
 * One GPU's memory as small multiples: a row per heap, each on its own
 * byte axis, all on the run's time axis; so a small heap is not flattened
 * by a big one and no heap's area hides another's.
 */
static void
memory_gpu(struct kt_strbuf *sb, const struct report_model *m,
	   uint32_t gpu_id)
{
	const double cap = 16, plot = 52, gap = 12, top = 4;
	struct rd_scale x, y;
	size_t i, rows = 0;
	double ry = top, bottom;
	char b[32];

	time_scale(m, &x);
	for (i = 0; i < m->nseries; i++)
		rows += m->series[i].gpu_id == gpu_id;
	bottom = top + rows * (cap + plot + gap) - gap;
	kt_strbuf_puts(sb, "<div class=\"legend\">");
	for (i = 0; i < m->nseries; i++) {
		const struct rm_series *s = &m->series[i];

		if (s->gpu_id != gpu_id)
			continue;
		kt_strbuf_printf(sb, "<span><span class=\"sw\" style=\"background:"
				 "%s\"></span>%s · peak %s</span>",
				 rd_heap_color(s->heap), obj_heap_names[s->heap],
				 rd_bytes(b, sizeof(b), s->peak));
	}
	kt_strbuf_puts(sb, "</div>");
	kt_strbuf_printf(sb, "<svg class=\"chart memory\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"memory of GPU 0x%x\">",
			 CHART_W, bottom + 40, gpu_id);
	rd_time_axis(sb, &x, m->origin, top, bottom);
	for (i = 0; i < m->nseries; i++) {
		const struct rm_series *s = &m->series[i];

		if (s->gpu_id != gpu_id)
			continue;
		kt_strbuf_printf(sb, "<g class=\"heap\" data-heap=\"%s\">"
				 "<text x=\"%.1f\" y=\"%.1f\" "
				 "class=\"group-label\" style=\"fill:%s\">%s "
				 "<tspan class=\"group-count\">peak %s</tspan>"
				 "</text>", obj_heap_names[s->heap], x.r0,
				 ry + 12, rd_heap_color(s->heap),
				 obj_heap_names[s->heap],
				 rd_bytes(b, sizeof(b), s->peak));
		bytes_axis(sb, ry + cap, ry + cap + plot, x.r0, x.r1,
			   s->peak ? (double)s->peak : 1, 2, &y);
		step_path(sb, s, &x, &y, 1);
		step_path(sb, s, &x, &y, 0);
		kt_strbuf_puts(sb, "</g>");
		ry += cap + plot + gap;
	}
	kt_strbuf_puts(sb, "</svg>");
}

void
report_memory(struct kt_strbuf *sb, const struct report_model *m)
{
	uint32_t gpus[64];
	size_t n = 0, i, j;

	for (i = 0; i < m->nseries; i++) {
		for (j = 0; j < n; j++)
			if (gpus[j] == m->series[i].gpu_id)
				break;
		if (j == n && n < 64)
			gpus[n++] = m->series[i].gpu_id;
	}
	if (!n) {
		kt_strbuf_puts(sb, "<p class=\"empty\">No memory was allocated."
			       "</p>");
		return;
	}
	/* Series are sorted by GPU, so gpus[] is in id order. */
	for (i = 0; i < n; i++) {
		gpu_heading(sb, m, gpus[i]);
		memory_gpu(sb, m, gpus[i]);
	}
}
