/* SPDX-License-Identifier: MIT */
/*
 * The report's queues section: one track per queue that a capture with
 * --submissions has doorbells for (docs/submissions.md), a tick at each
 * doorbell on the report's shared time axis, and per queue its engine,
 * doorbells, packets and packets by kind. Ticks that fall on the same
 * pixel are drawn once, so a queue of a million doorbells stays a small
 * page.
 */
#include <stdlib.h>

#include <kfdtrace/packets.h>

#include "report/report_draw.h"
#include "report/report_queues.h"

#define QW 1160.0
#define QLABEL_W 170.0
#define QRIGHT 16.0
#define QLANE 18.0
#define QGAP 8.0

static void
kinds(struct kt_strbuf *sb, const struct sub_queue_stats *q)
{
	unsigned int k;
	int first = 1;

	for (k = 0; k <= SUB_STATS_KINDS; k++)
		if (q->kinds[k]) {
			kt_strbuf_printf(sb, "%s%s %llu", first ? "" : ", ",
					 sub_stats_kind(k),
					 (unsigned long long)q->kinds[k]);
			first = 0;
		}
}

void
report_queues(struct kt_strbuf *sb, const struct report_model *m)
{
	const struct sub_stats *ss = &m->subs;
	struct rd_scale x;
	double h, y;
	size_t i, j;

	if (!ss->n)
		return;
	x.d0 = (double)m->view_t0;
	x.d1 = (double)(m->view_t1 > m->view_t0 ? m->view_t1 : m->view_t0 + 1000);
	x.r0 = QLABEL_W;
	x.r1 = QW - QRIGHT;
	h = 8 + ss->n * (QLANE + QGAP);
	kt_strbuf_printf(sb, "<svg class=\"chart queues\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"doorbells per queue\">",
			 QW, h + 40);
	rd_time_axis(sb, &x, m->origin, 4, h);
	for (i = 0, y = 8; i < ss->n; i++, y += QLANE + QGAP) {
		const struct sub_queue_stats *q = &ss->q[i];
		double last = -1;

		kt_strbuf_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				 "class=\"group-label\">queue %u (%s)</text>"
				 "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				 "class=\"group-count\">gpu 0x%x, %llu doorbells</text>",
				 x.r0 - 12, y + 8, q->queue_id,
				 kfd_engine_name(q->engine), x.r0 - 12, y + 20,
				 q->gpu_id, (unsigned long long)q->doorbells);
		kt_strbuf_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				 "height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.06\" "
				 "rx=\"4\"><title>", x.r0 - 4, y - 2,
				 x.r1 - x.r0 + 8, QLANE + 4, RD_QUEUE_COLOR);
		kinds(sb, q);
		kt_strbuf_puts(sb, "</title></rect>");
		for (j = 0; j < q->nts; j++) {
			double px = rd_map(&x, (double)q->ts[j]);

			if (px - last < 1.0)
				continue;
			last = px;
			kt_strbuf_printf(sb, "<rect class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
					 "width=\"1.5\" height=\"%.0f\" fill=\"%s\"/>",
					 px, y, QLANE, RD_QUEUE_COLOR);
		}
	}
	kt_strbuf_puts(sb, "</svg><table><thead><tr><th>queue</th><th>gpu</th>"
		       "<th>engine</th><th>doorbells</th><th>packets</th>"
		       "<th>kinds</th></tr></thead><tbody>");
	for (i = 0; i < ss->n; i++) {
		const struct sub_queue_stats *q = &ss->q[i];

		kt_strbuf_printf(sb, "<tr><td>%u</td><td>0x%x</td><td>%s</td>"
				 "<td>%llu</td><td>%llu</td><td>", q->queue_id,
				 q->gpu_id, kfd_engine_name(q->engine),
				 (unsigned long long)q->doorbells,
				 (unsigned long long)q->packets);
		kinds(sb, q);
		kt_strbuf_puts(sb, "</td></tr>");
	}
	kt_strbuf_puts(sb, "</tbody></table>");
}
