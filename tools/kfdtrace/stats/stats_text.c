/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats, text output: the per-ioctl tables, errors, memory,
 * objects alive at the end, per thread and per GPU, and a run's section.
 */
#include <stdio.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "kfdtrace/decode.h"

static void
print_table(const struct stats *s, struct stat_group *g, struct ioctl_stat **v,
	    const char *indent)
{
	size_t nv = stats_collect(s, g, v), i, j;
	char buf[32];

	printf("%s%-28s %9s %7s %10s %10s %10s %10s %10s %10s  %s\n", indent,
	       "IOCTL", "CALLS", "FAILED", "MIN(us)", "P50(us)", "P90(us)",
	       "P99(us)", "P99.9(us)", "MAX(us)", "ERRORS");
	for (i = 0; i < nv; i++) {
		struct lat_summary l;

		stats_lat_summarize(v[i], &l);
		printf("%s%-28s %9llu %7llu", indent,
		       stats_row_label(v[i], buf, sizeof(buf)),
		       (unsigned long long)v[i]->count,
		       (unsigned long long)v[i]->errors);
		if (v[i]->nlat) {
			uint64_t col[6] = { l.min, l.p50, l.p90, l.p99,
					    l.p999, l.max };

			for (j = 0; j < 6; j++)
				printf(" %10.1f", (double)col[j] / 1000.0);
		} else {
			printf(" %10s %10s %10s %10s %10s %10s", "-", "-", "-",
			       "-", "-", "-");
		}
		stats_sort_any(v[i]->errnos, v[i]->nerrnos,
			       sizeof(*v[i]->errnos), stats_cmp_errno);
		if (v[i]->nerrnos)
			printf(" ");
		for (j = 0; j < v[i]->nerrnos; j++)
			printf(" %s:%llu",
			       stats_errno_label(v[i]->errnos[j].err, buf, sizeof(buf)),
			       (unsigned long long)v[i]->errnos[j].count);
		printf("\n");
	}
}

static void
print_mem_row(const char *indent, const struct obj_mem *m)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%x", m->gpu_id);
	printf("%s%-10s %-9s %8llu %8llu %14llu %14llu %14llu %14llu\n", indent,
	       buf, obj_heap_names[m->heap], (unsigned long long)m->allocs,
	       (unsigned long long)m->frees, (unsigned long long)m->allocated,
	       (unsigned long long)m->freed, (unsigned long long)m->live,
	       (unsigned long long)m->high_water);
}

static void
print_mem_header(const char *indent)
{
	printf("%s%-10s %-9s %8s %8s %14s %14s %14s %14s\n", indent, "GPU",
	       "HEAP", "ALLOCS", "FREES", "ALLOCATED", "FREED", "LIVE",
	       "HIGH-WATER");
}

static void
print_groups(struct stats *s, struct ioctl_stat **v)
{
	size_t i, j;

	if (s->by_thread) {
		printf("\nby thread: %zu\n", s->threads.n);
		for (i = 0; i < s->threads.n; i++) {
			struct stat_group *g = s->threads.v[i];
			const char *name = stats_thread_name(s, g->key);
			char safe[128];

			printf("\nthread %llu", (unsigned long long)g->key);
			if (name)
				printf(" \"%s\"", kfd_text_safe(safe, sizeof(safe),
							       name, 64));
			printf(": %llu ioctls, %llu failed, %.3f ms in ioctls\n",
			       (unsigned long long)g->ioctls,
			       (unsigned long long)g->failed,
			       (double)g->busy_ns / 1e6);
			print_table(s, g, v, "  ");
		}
	}
	if (s->by_gpu) {
		stats_sort_any(s->gpus.v, s->gpus.n, sizeof(*s->gpus.v),
			       stats_cmp_gpu_group);
		printf("\nby gpu: %zu\n", s->gpus.n);
		for (i = 0; i < s->gpus.n; i++) {
			struct stat_group *g = s->gpus.v[i];
			const struct kt_topo_node *n;
			char gfx[16];
			int header = 0;

			if (!g->key)
				printf("\nno gpu (process-wide ioctls)");
			else
				printf("\ngpu 0x%llx",
				       (unsigned long long)g->key);
			n = s->have_topo ?
				kt_topo_gpu(&s->topo, (uint32_t)g->key) : NULL;
			if (g->key && n)
				printf(" (node %u, %s \"%s\")",
				       (unsigned int)(n - s->topo.nodes),
				       kfd_gfx_target_name(n->gfx_target_version,
							   gfx, sizeof(gfx)),
				       n->name);
			printf(": %llu ioctls, %llu failed, %.3f ms in ioctls\n",
			       (unsigned long long)g->ioctls,
			       (unsigned long long)g->failed,
			       (double)g->busy_ns / 1e6);
			print_table(s, g, v, "  ");
			for (j = 0; j < s->objs.nmem; j++) {
				if (s->objs.mem[j].gpu_id != g->key)
					continue;
				if (!header++) {
					printf("\n");
					print_mem_header("  ");
				}
				print_mem_row("  ", &s->objs.mem[j]);
			}
		}
	}
}

/* The end of the totals line: what record --only/--except left out. */
static void
print_left_out(const struct stats *s)
{
	if (s->left_out)
		printf(", left out: %llu (record --only/--except)",
		       (unsigned long long)s->left_out);
	printf("\n\n");
}

void
stats_report_text(struct stats *s, struct ioctl_stat **v)
{
	struct obj_tracker *t = &s->objs;
	struct kc_u64map_slot **sorted;
	char buf[32];
	size_t i;

	printf("records: %llu, ioctls: %llu, failed: %llu",
	       (unsigned long long)s->records,
	       (unsigned long long)s->all.ioctls,
	       (unsigned long long)s->all.failed);
	print_left_out(s);
	print_table(s, &s->all, v, "");

	printf("\nerrors:");
	if (!s->nerrnos)
		printf(" none");
	printf("\n");
	stats_sort_any(s->errnos, s->nerrnos, sizeof(*s->errnos),
		       stats_cmp_errno);
	for (i = 0; i < s->nerrnos; i++)
		printf("  %-16s %llu\n",
		       stats_errno_label(s->errnos[i].err, buf, sizeof(buf)),
		       (unsigned long long)s->errnos[i].count);

	printf("\nmemory:");
	if (!t->nmem)
		printf(" none allocated");
	printf("\n");
	if (t->nmem)
		print_mem_header("  ");
	for (i = 0; i < t->nmem; i++)
		print_mem_row("  ", &t->mem[i]);
	if (t->unmatched_frees)
		printf("  (%llu frees of handles never allocated in this trace)\n",
		       (unsigned long long)t->unmatched_frees);

	printf("\nalive at end: %zu BOs, %zu queues, %zu events\n",
	       t->bos.n, t->queues.n, t->events.n);
	sorted = kc_u64map_sorted(&t->bos);
	for (i = 0; sorted && i < t->bos.n; i++)
		printf("  bo     handle=0x%llx_%08llx heap=%s size=%llu (seq %llu)\n",
		       (unsigned long long)(sorted[i]->key >> 32),
		       (unsigned long long)(sorted[i]->key & 0xffffffffu),
		       obj_heap_names[obj_val_of(sorted[i])->kind],
		       (unsigned long long)obj_val_of(sorted[i])->size,
		       (unsigned long long)obj_val_of(sorted[i])->seq);
	free(sorted);
	sorted = kc_u64map_sorted(&t->queues);
	for (i = 0; sorted && i < t->queues.n; i++)
		printf("  queue  queue_id=%llu gpu_id=0x%x (seq %llu)\n",
		       (unsigned long long)sorted[i]->key,
		       obj_val_of(sorted[i])->gpu_id,
		       (unsigned long long)obj_val_of(sorted[i])->seq);
	free(sorted);
	sorted = kc_u64map_sorted(&t->events);
	for (i = 0; sorted && i < t->events.n; i++) {
		const char *tn = obj_event_type_name(t, obj_val_of(sorted[i])->kind);

		printf("  event  event_id=%llu type=",
		       (unsigned long long)sorted[i]->key);
		if (tn)
			printf("%s", tn);
		else
			printf("%u", obj_val_of(sorted[i])->kind);
		printf(" (seq %llu)\n", (unsigned long long)obj_val_of(sorted[i])->seq);
	}
	free(sorted);
	sub_stats_text(&s->subs, stdout);
	print_groups(s, v);
}

/* The whole run's text section: totals, the per-ioctl table, errors and
 * one line per process. */
void
stats_report_run_text(struct stats *run, struct ioctl_stat **v,
		      const struct cli_run *cr, struct stats *procs)
{
	char buf[32];
	size_t i;

	printf("== run: %zu processes", cr->n);
	if (cr->nhosts > 1)
		printf(" on %zu hosts", cr->nhosts);
	printf("\n");
	printf("records: %llu, ioctls: %llu, failed: %llu",
	       (unsigned long long)run->records,
	       (unsigned long long)run->all.ioctls,
	       (unsigned long long)run->all.failed);
	print_left_out(run);
	print_table(run, &run->all, v, "");
	printf("\nerrors:");
	if (!run->nerrnos)
		printf(" none");
	printf("\n");
	stats_sort_any(run->errnos, run->nerrnos, sizeof(*run->errnos),
		       stats_cmp_errno);
	for (i = 0; i < run->nerrnos; i++)
		printf("  %-16s %llu\n",
		       stats_errno_label(run->errnos[i].err, buf, sizeof(buf)),
		       (unsigned long long)run->errnos[i].count);
	printf("\nprocesses:\n");
	for (i = 0; i < cr->n; i++) {
		const struct obj_tracker *t = &procs[i].objs;

		printf("  %*s%-*s ioctls %llu, failed %llu, alive at end: "
		       "%zu BOs, %zu queues, %zu events\n",
		       (int)(2 * cr->p[i].depth), "",
		       24 - (int)(2 * cr->p[i].depth), cr->p[i].label,
		       (unsigned long long)procs[i].all.ioctls,
		       (unsigned long long)procs[i].all.failed,
		       t->bos.n, t->queues.n, t->events.n);
	}
}
