/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats, --json output: the same figures as the text tables, as
 * one object per process or run.
 */
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "kfdtrace/decode.h"

static void
json_key(struct kt_strbuf *sb, int *first, const char *key)
{
	if (!*first)
		kt_strbuf_putc(sb, ',');
	*first = 0;
	kfd_json_escape(sb, key, strlen(key));
	kt_strbuf_putc(sb, ':');
}

static void
json_num(struct kt_strbuf *sb, int *first, const char *key, uint64_t v)
{
	json_key(sb, first, key);
	kfd_json_u64(sb, v);
}

static void
json_str(struct kt_strbuf *sb, int *first, const char *key, const char *v)
{
	json_key(sb, first, key);
	kfd_json_escape(sb, v, strlen(v));
}

static void
json_errnos(struct kt_strbuf *sb, struct errno_count *e, size_t n)
{
	char buf[32];
	int first = 1;
	size_t i;

	stats_sort_any(e, n, sizeof(*e), stats_cmp_errno);
	kt_strbuf_putc(sb, '{');
	for (i = 0; i < n; i++)
		json_num(sb, &first, stats_errno_label(e[i].err, buf, sizeof(buf)),
			 e[i].count);
	kt_strbuf_putc(sb, '}');
}

/* The "per_ioctl" array of a group. */
static void
json_per_ioctl(struct kt_strbuf *sb, const struct stats *s,
	       struct stat_group *g, struct ioctl_stat **v)
{
	size_t nv = stats_collect(s, g, v), i;
	char buf[32];
	int f2, f3;

	kt_strbuf_putc(sb, '[');
	for (i = 0; i < nv; i++) {
		struct lat_summary l;

		stats_lat_summarize(v[i], &l);
		if (i)
			kt_strbuf_putc(sb, ',');
		kt_strbuf_putc(sb, '{');
		f2 = 1;
		json_str(sb, &f2, "name", stats_row_label(v[i], buf, sizeof(buf)));
		json_num(sb, &f2, "request", v[i]->request);
		json_num(sb, &f2, "calls", v[i]->count);
		json_num(sb, &f2, "failed", v[i]->errors);
		json_key(sb, &f2, "errors");
		json_errnos(sb, v[i]->errnos, v[i]->nerrnos);
		json_key(sb, &f2, "latency_ns");
		if (v[i]->nlat) {
			kt_strbuf_putc(sb, '{');
			f3 = 1;
			json_num(sb, &f3, "min", l.min);
			json_num(sb, &f3, "p50", l.p50);
			json_num(sb, &f3, "p90", l.p90);
			json_num(sb, &f3, "p99", l.p99);
			json_num(sb, &f3, "p999", l.p999);
			json_num(sb, &f3, "max", l.max);
			/* The name of p50 before p90 and p999 existed. */
			json_num(sb, &f3, "median", l.p50);
			kt_strbuf_putc(sb, '}');
		} else {
			kt_strbuf_puts(sb, "null");
		}
		kt_strbuf_putc(sb, '}');
	}
	kt_strbuf_putc(sb, ']');
}

static void
json_mem(struct kt_strbuf *sb, const struct obj_mem *m)
{
	int f = 1;

	kt_strbuf_putc(sb, '{');
	json_num(sb, &f, "gpu_id", m->gpu_id);
	json_str(sb, &f, "heap", obj_heap_names[m->heap]);
	json_num(sb, &f, "allocs", m->allocs);
	json_num(sb, &f, "frees", m->frees);
	json_num(sb, &f, "allocated", m->allocated);
	json_num(sb, &f, "freed", m->freed);
	json_num(sb, &f, "live", m->live);
	json_num(sb, &f, "high_water", m->high_water);
	kt_strbuf_putc(sb, '}');
}

static void
json_group_head(struct kt_strbuf *sb, int *f, const struct stat_group *g)
{
	json_num(sb, f, "ioctls", g->ioctls);
	json_num(sb, f, "failed", g->failed);
	json_num(sb, f, "busy_ns", g->busy_ns);
}

static void
json_groups(struct kt_strbuf *sb, int *first, struct stats *s,
	    struct ioctl_stat **v)
{
	size_t i, j, k;
	int f;

	if (s->by_thread) {
		json_key(sb, first, "by_thread");
		kt_strbuf_putc(sb, '[');
		for (i = 0; i < s->threads.n; i++) {
			struct stat_group *g = s->threads.v[i];
			const char *name = stats_thread_name(s, g->key);

			if (i)
				kt_strbuf_putc(sb, ',');
			kt_strbuf_putc(sb, '{');
			f = 1;
			json_num(sb, &f, "tid", g->key);
			json_key(sb, &f, "name");
			if (name)
				kfd_json_escape(sb, name, strlen(name));
			else
				kt_strbuf_puts(sb, "null");
			json_group_head(sb, &f, g);
			json_key(sb, &f, "per_ioctl");
			json_per_ioctl(sb, s, g, v);
			kt_strbuf_putc(sb, '}');
		}
		kt_strbuf_putc(sb, ']');
	}
	if (s->by_gpu) {
		stats_sort_any(s->gpus.v, s->gpus.n, sizeof(*s->gpus.v),
			       stats_cmp_gpu_group);
		json_key(sb, first, "by_gpu");
		kt_strbuf_putc(sb, '[');
		for (i = 0; i < s->gpus.n; i++) {
			struct stat_group *g = s->gpus.v[i];

			if (i)
				kt_strbuf_putc(sb, ',');
			kt_strbuf_putc(sb, '{');
			f = 1;
			json_num(sb, &f, "gpu_id", g->key);
			json_group_head(sb, &f, g);
			json_key(sb, &f, "per_ioctl");
			json_per_ioctl(sb, s, g, v);
			json_key(sb, &f, "memory");
			kt_strbuf_putc(sb, '[');
			for (j = 0, k = 0; j < s->objs.nmem; j++) {
				if (s->objs.mem[j].gpu_id != g->key)
					continue;
				if (k++)
					kt_strbuf_putc(sb, ',');
				json_mem(sb, &s->objs.mem[j]);
			}
			kt_strbuf_append(sb, "]}", 2);
		}
		kt_strbuf_putc(sb, ']');
	}
}

void
stats_report_json(struct kt_strbuf *out, struct stats *s,
		  struct ioctl_stat **v)
{
#define sb (*out)
	struct obj_tracker *t = &s->objs;
	struct kc_u64map_slot **sorted;
	int first = 1, f2, f3;
	size_t i;

	kt_strbuf_putc(&sb, '{');
	json_num(&sb, &first, "records", s->records);
	json_num(&sb, &first, "ioctls", s->all.ioctls);
	json_num(&sb, &first, "failed", s->all.failed);
	if (s->left_out)
		json_num(&sb, &first, "left_out", s->left_out);
	json_key(&sb, &first, "per_ioctl");
	json_per_ioctl(&sb, s, &s->all, v);
	json_key(&sb, &first, "errors");
	json_errnos(&sb, s->errnos, s->nerrnos);

	json_key(&sb, &first, "memory");
	kt_strbuf_putc(&sb, '[');
	for (i = 0; i < t->nmem; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		json_mem(&sb, &t->mem[i]);
	}
	kt_strbuf_putc(&sb, ']');
	json_num(&sb, &first, "unmatched_frees", t->unmatched_frees);

	json_key(&sb, &first, "alive");
	kt_strbuf_putc(&sb, '{');
	f2 = 1;
	json_key(&sb, &f2, "bos");
	kt_strbuf_putc(&sb, '[');
	sorted = kc_u64map_sorted(&t->bos);
	for (i = 0; sorted && i < t->bos.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "handle", sorted[i]->key);
		json_num(&sb, &f3, "gpu_id", obj_val_of(sorted[i])->gpu_id);
		json_str(&sb, &f3, "heap", obj_heap_names[obj_val_of(sorted[i])->kind]);
		json_num(&sb, &f3, "size", obj_val_of(sorted[i])->size);
		json_num(&sb, &f3, "seq", obj_val_of(sorted[i])->seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &f2, "queues");
	kt_strbuf_putc(&sb, '[');
	sorted = kc_u64map_sorted(&t->queues);
	for (i = 0; sorted && i < t->queues.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "queue_id", sorted[i]->key);
		json_num(&sb, &f3, "gpu_id", obj_val_of(sorted[i])->gpu_id);
		json_num(&sb, &f3, "seq", obj_val_of(sorted[i])->seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &f2, "events");
	kt_strbuf_putc(&sb, '[');
	sorted = kc_u64map_sorted(&t->events);
	for (i = 0; sorted && i < t->events.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "event_id", sorted[i]->key);
		json_num(&sb, &f3, "event_type", obj_val_of(sorted[i])->kind);
		json_num(&sb, &f3, "seq", obj_val_of(sorted[i])->seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_append(&sb, "]}", 2);
	if (s->subs.n) {
		kt_strbuf_putc(&sb, ',');
		sub_stats_json(&s->subs, &sb);
	}
	json_groups(&sb, &first, s, v);
	kt_strbuf_putc(&sb, '}');
#undef sb
}
