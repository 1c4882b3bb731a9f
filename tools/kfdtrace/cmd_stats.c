/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats: what a process asked of KFD, how long it took, what
 * failed, how much memory it held, and what it never gave back; optionally
 * broken down per thread and per GPU.
 *
 * Objects and memory come from the shared tracker (report_objects.h), so
 * stats, report and the Perfetto export agree. Records are processed in
 * sequence order (see cli_reorder) so that a handle freed and reused by two
 * threads is attributed correctly.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "run.h"
#include "report_objects.h"
#include "stats_submit.h"
#include "kfdtrace/topology.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

/* Unknown requests are kept apart per request code, up to this many. */
#define MAX_UNKNOWN_KINDS 256

struct errno_count {
	int32_t err;
	uint64_t count;
};

struct ioctl_stat {
	const char *name;		/* schema name, or NULL */
	uint32_t request;		/* the row's code, or the unknown one */
	uint64_t count;
	uint64_t errors;
	struct errno_count *errnos;
	size_t nerrnos;
	uint64_t *lat;			/* ns, one per call with a t_exit */
	size_t nlat, caplat;
};

/* Per-ioctl statistics of the whole trace, one thread or one GPU. */
struct stat_group {
	uint64_t key;			/* tid or gpu_id */
	struct ioctl_stat *per_row;	/* one per schema row */
	struct ioctl_stat *unknown;	/* MAX_UNKNOWN_KINDS, on first use */
	size_t nunknown;
	uint64_t ioctls, failed;
	uint64_t busy_ns;		/* time spent inside ioctls */
};

/* Groups by key, in order of first appearance. */
struct group_set {
	struct stat_group **v;
	size_t n;
	struct u64map index;		/* key -> position in v (val.size) */
};

struct thread_name {
	uint32_t tid;
	char *name;
};

struct stats {
	const struct kfd_ioctl_desc *rows;
	unsigned int nrows;
	struct stat_group all;
	struct errno_count *errnos;	/* all ioctls */
	size_t nerrnos;
	uint64_t records;
	struct obj_tracker objs;

	int by_thread, by_gpu;
	struct group_set threads, gpus;
	struct thread_name *names;	/* latest name per thread */
	size_t nnames;
	struct kt_topo topo;	/* from the first TOPOLOGY record */
	int have_topo;
	struct sub_stats subs;	/* submit records, per queue */
	int run_only;		/* the whole run's: ioctls and errors only */
	int oom;
};

void
kfdtrace_help_stats(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace stats FILE|DIR... [--json] [--by-thread] [--by-gpu] [--window N]\n"
		"\n"
		"Summarize a trace:\n"
		"  - per ioctl: calls, failures by errno name, and latency (time from\n"
		"    entry to exit): minimum, percentiles p50, p90, p99 and p99.9\n"
		"    (nearest rank), and maximum;\n"
		"  - failures by errno name over all ioctls;\n"
		"  - memory per GPU and heap (VRAM, GTT, userptr, doorbell, MMIO,\n"
		"    import): allocations, frees, bytes live at the end and the\n"
		"    high-water mark, from ALLOC_MEMORY_OF_GPU / FREE_MEMORY_OF_GPU\n"
		"    and IMPORT_DMABUF;\n"
		"  - objects alive at the end: BOs not freed, queues not destroyed,\n"
		"    events not destroyed (leaks, unless the process meant to exit\n"
		"    with them).\n"
		"Several files, or a directory, are one run: each process's tables,\n"
		"then the whole run's ioctls and errors and what each process left.\n"
		"\n"
		"Options:\n"
		"  --json        one JSON object instead of tables\n"
		"  --by-thread   add the per-ioctl table of every thread\n"
		"  --by-gpu      add the per-ioctl table and memory of every GPU (the\n"
		"                GPU an ioctl names by gpu_id, handle or queue id)\n"
		"  --window N    records held to restore sequence order (default %d)\n"
		"  -h, --help    this text\n"
		"\n"
		"Exit status: 0 when the whole trace was read, 1 when it is truncated\n"
		"or corrupt (statistics cover the records before the damage) or on\n"
		"error, 2 for bad usage.\n",
		CLI_REORDER_WINDOW);
}

static int
errno_add(struct errno_count **v, size_t *n, int32_t err)
{
	struct errno_count *p;
	size_t i;

	for (i = 0; i < *n; i++) {
		if ((*v)[i].err == err) {
			(*v)[i].count++;
			return 0;
		}
	}
	p = realloc(*v, (*n + 1) * sizeof(*p));
	if (!p)
		return -1;
	*v = p;
	p[*n].err = err;
	p[*n].count = 1;
	(*n)++;
	return 0;
}

static int
group_init(struct stat_group *g, const struct stats *s, uint64_t key)
{
	unsigned int i;

	memset(g, 0, sizeof(*g));
	g->key = key;
	g->per_row = calloc(s->nrows ? s->nrows : 1, sizeof(*g->per_row));
	if (!g->per_row)
		return -1;
	for (i = 0; i < s->nrows; i++) {
		g->per_row[i].name = s->rows[i].name;
		g->per_row[i].request = s->rows[i].request;
	}
	return 0;
}

static void
stat_free(struct ioctl_stat *st)
{
	free(st->errnos);
	free(st->lat);
}

static void
group_release(struct stat_group *g, unsigned int nrows)
{
	size_t i;

	for (i = 0; g->per_row && i < nrows; i++)
		stat_free(&g->per_row[i]);
	for (i = 0; g->unknown && i < g->nunknown; i++)
		stat_free(&g->unknown[i]);
	free(g->per_row);
	free(g->unknown);
}

static struct ioctl_stat *
stat_for(struct stats *s, struct stat_group *g,
	 const struct kfd_ioctl_desc *desc, uint32_t request)
{
	size_t i;

	if (desc)
		return &g->per_row[desc - s->rows];
	if (!g->unknown) {
		g->unknown = calloc(MAX_UNKNOWN_KINDS, sizeof(*g->unknown));
		if (!g->unknown)
			return NULL;
	}
	for (i = 0; i < g->nunknown; i++)
		if (g->unknown[i].request == request)
			return &g->unknown[i];
	if (g->nunknown == MAX_UNKNOWN_KINDS)
		return &g->unknown[MAX_UNKNOWN_KINDS - 1];
	g->unknown[g->nunknown].request = request;
	return &g->unknown[g->nunknown++];
}

static int
lat_add(struct ioctl_stat *st, uint64_t ns)
{
	if (st->nlat == st->caplat) {
		size_t cap = st->caplat ? st->caplat * 2 : 64;
		uint64_t *p = realloc(st->lat, cap * sizeof(*p));

		if (!p)
			return -1;
		st->lat = p;
		st->caplat = cap;
	}
	st->lat[st->nlat++] = ns;
	return 0;
}

/* Count one ioctl in a group. Return: 0, or -1 when memory ran out. */
static int
group_add(struct stats *s, struct stat_group *g, const struct kt_record *rec,
	  const struct kfd_ioctl_desc *desc)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct ioctl_stat *st = stat_for(s, g, desc, io->request);

	if (!st)
		return -1;
	g->ioctls++;
	st->count++;
	if (io->ret < 0) {
		g->failed++;
		st->errors++;
		if (errno_add(&st->errnos, &st->nerrnos, io->err))
			return -1;
	}
	if (io->t_exit >= rec->ts) {
		g->busy_ns += io->t_exit - rec->ts;
		if (lat_add(st, io->t_exit - rec->ts))
			return -1;
	}
	return 0;
}

/* The group of @key in @set, created on first use. */
static struct stat_group *
set_get(struct stats *s, struct group_set *set, uint64_t key)
{
	struct u64map_val *pos = u64map_get(&set->index, key);
	struct u64map_val v = { .size = set->n };
	struct stat_group **nv, *g;

	if (pos)
		return set->v[pos->size];
	nv = realloc(set->v, (set->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	set->v = nv;
	g = malloc(sizeof(*g));
	if (!g || group_init(g, s, key)) {
		free(g);
		return NULL;
	}
	if (u64map_put(&set->index, key, &v)) {
		group_release(g, s->nrows);
		free(g);
		return NULL;
	}
	set->v[set->n++] = g;
	return g;
}

static void
set_release(struct group_set *set, unsigned int nrows)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		group_release(set->v[i], nrows);
		free(set->v[i]);
	}
	free(set->v);
	u64map_free(&set->index);
}

static int
name_thread(struct stats *s, uint32_t tid, const char *name)
{
	struct thread_name *p;
	char *copy = strdup(name ? name : "");
	size_t i;

	if (!copy)
		return -1;
	for (i = 0; i < s->nnames; i++) {
		if (s->names[i].tid == tid) {
			free(s->names[i].name);
			s->names[i].name = copy;
			return 0;
		}
	}
	p = realloc(s->names, (s->nnames + 1) * sizeof(*p));
	if (!p) {
		free(copy);
		return -1;
	}
	s->names = p;
	p[s->nnames].tid = tid;
	p[s->nnames++].name = copy;
	return 0;
}

static const char *
thread_name(const struct stats *s, uint64_t tid)
{
	size_t i;

	for (i = 0; i < s->nnames; i++)
		if (s->names[i].tid == tid)
			return s->names[i].name;
	return NULL;
}

static int
stats_emit(void *ctx, const struct kt_record *rec)
{
	struct stats *s = ctx;
	struct obj_change ch[OBJ_MAX_CHANGES];
	const struct kfd_ioctl_desc *desc;
	struct stat_group *g;

	s->records++;
	if (rec->type == KT_REC_THREAD_NAME) {
		if (name_thread(s, rec->tid, rec->u.thread_name.name))
			s->oom = 1;
		return s->oom ? -1 : 0;
	}
	if (rec->type == KT_REC_TOPOLOGY && !s->have_topo) {
		kt_topo_parse(rec->u.topology.files, rec->u.topology.nfiles,
			      &s->topo);
		obj_tracker_topology(&s->objs, &s->topo);
		s->have_topo = 1;
	}
	if (rec->type == KT_REC_SUBMIT) {
		if (sub_stats_add(&s->subs, &rec->u.submit, rec->ts))
			s->oom = 1;
		return s->oom ? -1 : 0;
	}
	if (rec->type != KT_REC_IOCTL) {
		if (!s->run_only)
			obj_tracker_record(&s->objs, rec);
		return s->objs.oom ? -1 : 0;
	}
	desc = kfd_schema_lookup((enum kfd_file_kind)rec->u.ioctl.file_kind,
				 rec->u.ioctl.request);
	if (group_add(s, &s->all, rec, desc))
		s->oom = 1;
	if (rec->u.ioctl.ret < 0 &&
	    errno_add(&s->errnos, &s->nerrnos, rec->u.ioctl.err))
		s->oom = 1;
	/* Handles and ids mean something only within their process. */
	if (s->run_only)
		return s->oom ? -1 : 0;
	if (s->by_thread) {
		g = set_get(s, &s->threads, rec->tid);
		if (!g || group_add(s, g, rec, desc))
			s->oom = 1;
	}
	/* Before the tracker runs: DESTROY_QUEUE's GPU is the queue's. */
	if (s->by_gpu) {
		g = set_get(s, &s->gpus, obj_ioctl_gpu(&s->objs, rec, desc));
		if (!g || group_add(s, g, rec, desc))
			s->oom = 1;
	}
	obj_tracker_ioctl(&s->objs, rec, desc, ch);
	if (s->objs.oom)
		s->oom = 1;
	return s->oom ? -1 : 0;
}

/* qsort() of possibly empty (NULL) arrays, which qsort itself forbids. */
static void
sort_any(void *base, size_t n, size_t size,
	 int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_errno(const void *a, const void *b)
{
	const struct errno_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

/* GPUs in id order, the "no GPU" group (0) last. */
static int
cmp_gpu_group(const void *a, const void *b)
{
	const struct stat_group *x = *(struct stat_group *const *)a;
	const struct stat_group *y = *(struct stat_group *const *)b;

	if ((x->key == 0) != (y->key == 0))
		return x->key == 0 ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

struct lat_summary {
	uint64_t min, p50, p90, p99, p999, max;
};

/* The nearest-rank percentile @permille of @n sorted samples. */
static uint64_t
rank(const uint64_t *v, size_t n, unsigned int permille)
{
	size_t r = (n * permille + 999) / 1000;

	return v[(r ? r : 1) - 1];
}

static void
lat_summarize(struct ioctl_stat *st, struct lat_summary *l)
{
	size_t n = st->nlat;

	memset(l, 0, sizeof(*l));
	if (!n)
		return;
	qsort(st->lat, n, sizeof(*st->lat), cmp_u64);
	l->min = st->lat[0];
	l->p50 = rank(st->lat, n, 500);
	l->p90 = rank(st->lat, n, 900);
	l->p99 = rank(st->lat, n, 990);
	l->p999 = rank(st->lat, n, 999);
	l->max = st->lat[n - 1];
}

static const char *
errno_label(int32_t err, char *buf, size_t size)
{
	const char *n = kfd_errno_name(err);

	if (n)
		return n;
	snprintf(buf, size, "errno %d", err);
	return buf;
}

static const char *
stat_label(const struct ioctl_stat *st, char *buf, size_t size)
{
	if (st->name)
		return st->name;
	snprintf(buf, size, "ioctl 0x%08x", st->request);
	return buf;
}

/* Every kind a group called, in a stable order: schema rows, unknowns. */
static size_t
collect(const struct stats *s, struct stat_group *g, struct ioctl_stat **v)
{
	size_t n = 0, i;

	for (i = 0; i < s->nrows; i++)
		if (g->per_row[i].count)
			v[n++] = &g->per_row[i];
	for (i = 0; g->unknown && i < g->nunknown; i++)
		v[n++] = &g->unknown[i];
	return n;
}

static void
print_table(const struct stats *s, struct stat_group *g, struct ioctl_stat **v,
	    const char *indent)
{
	size_t nv = collect(s, g, v), i, j;
	char buf[32];

	printf("%s%-28s %9s %7s %10s %10s %10s %10s %10s %10s  %s\n", indent,
	       "IOCTL", "CALLS", "FAILED", "MIN(us)", "P50(us)", "P90(us)",
	       "P99(us)", "P99.9(us)", "MAX(us)", "ERRORS");
	for (i = 0; i < nv; i++) {
		struct lat_summary l;

		lat_summarize(v[i], &l);
		printf("%s%-28s %9llu %7llu", indent,
		       stat_label(v[i], buf, sizeof(buf)),
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
		sort_any(v[i]->errnos, v[i]->nerrnos, sizeof(*v[i]->errnos),
			 cmp_errno);
		if (v[i]->nerrnos)
			printf(" ");
		for (j = 0; j < v[i]->nerrnos; j++)
			printf(" %s:%llu",
			       errno_label(v[i]->errnos[j].err, buf, sizeof(buf)),
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
			const char *name = thread_name(s, g->key);
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
		sort_any(s->gpus.v, s->gpus.n, sizeof(*s->gpus.v),
			 cmp_gpu_group);
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

static void
report_text(struct stats *s, struct ioctl_stat **v)
{
	struct obj_tracker *t = &s->objs;
	struct u64map_slot **sorted;
	char buf[32];
	size_t i;

	printf("records: %llu, ioctls: %llu, failed: %llu\n\n",
	       (unsigned long long)s->records,
	       (unsigned long long)s->all.ioctls,
	       (unsigned long long)s->all.failed);
	print_table(s, &s->all, v, "");

	printf("\nerrors:");
	if (!s->nerrnos)
		printf(" none");
	printf("\n");
	sort_any(s->errnos, s->nerrnos, sizeof(*s->errnos), cmp_errno);
	for (i = 0; i < s->nerrnos; i++)
		printf("  %-16s %llu\n",
		       errno_label(s->errnos[i].err, buf, sizeof(buf)),
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
	sorted = u64map_sorted(&t->bos);
	for (i = 0; sorted && i < t->bos.n; i++)
		printf("  bo     handle=0x%llx_%08llx heap=%s size=%llu (seq %llu)\n",
		       (unsigned long long)(sorted[i]->key >> 32),
		       (unsigned long long)(sorted[i]->key & 0xffffffffu),
		       obj_heap_names[sorted[i]->val.kind],
		       (unsigned long long)sorted[i]->val.size,
		       (unsigned long long)sorted[i]->val.seq);
	free(sorted);
	sorted = u64map_sorted(&t->queues);
	for (i = 0; sorted && i < t->queues.n; i++)
		printf("  queue  queue_id=%llu gpu_id=0x%x (seq %llu)\n",
		       (unsigned long long)sorted[i]->key,
		       sorted[i]->val.gpu_id,
		       (unsigned long long)sorted[i]->val.seq);
	free(sorted);
	sorted = u64map_sorted(&t->events);
	for (i = 0; sorted && i < t->events.n; i++) {
		const char *tn = obj_event_type_name(t, sorted[i]->val.kind);

		printf("  event  event_id=%llu type=",
		       (unsigned long long)sorted[i]->key);
		if (tn)
			printf("%s", tn);
		else
			printf("%u", sorted[i]->val.kind);
		printf(" (seq %llu)\n", (unsigned long long)sorted[i]->val.seq);
	}
	free(sorted);
	sub_stats_text(&s->subs, stdout);
	print_groups(s, v);
}

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

	sort_any(e, n, sizeof(*e), cmp_errno);
	kt_strbuf_putc(sb, '{');
	for (i = 0; i < n; i++)
		json_num(sb, &first, errno_label(e[i].err, buf, sizeof(buf)),
			 e[i].count);
	kt_strbuf_putc(sb, '}');
}

/* The "per_ioctl" array of a group. */
static void
json_per_ioctl(struct kt_strbuf *sb, const struct stats *s,
	       struct stat_group *g, struct ioctl_stat **v)
{
	size_t nv = collect(s, g, v), i;
	char buf[32];
	int f2, f3;

	kt_strbuf_putc(sb, '[');
	for (i = 0; i < nv; i++) {
		struct lat_summary l;

		lat_summarize(v[i], &l);
		if (i)
			kt_strbuf_putc(sb, ',');
		kt_strbuf_putc(sb, '{');
		f2 = 1;
		json_str(sb, &f2, "name", stat_label(v[i], buf, sizeof(buf)));
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
			const char *name = thread_name(s, g->key);

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
		sort_any(s->gpus.v, s->gpus.n, sizeof(*s->gpus.v),
			 cmp_gpu_group);
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

static void
report_json_sb(struct kt_strbuf *out, struct stats *s, struct ioctl_stat **v)
{
#define sb (*out)
	struct obj_tracker *t = &s->objs;
	struct u64map_slot **sorted;
	int first = 1, f2, f3;
	size_t i;

	kt_strbuf_putc(&sb, '{');
	json_num(&sb, &first, "records", s->records);
	json_num(&sb, &first, "ioctls", s->all.ioctls);
	json_num(&sb, &first, "failed", s->all.failed);
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
	sorted = u64map_sorted(&t->bos);
	for (i = 0; sorted && i < t->bos.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "handle", sorted[i]->key);
		json_num(&sb, &f3, "gpu_id", sorted[i]->val.gpu_id);
		json_str(&sb, &f3, "heap", obj_heap_names[sorted[i]->val.kind]);
		json_num(&sb, &f3, "size", sorted[i]->val.size);
		json_num(&sb, &f3, "seq", sorted[i]->val.seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &f2, "queues");
	kt_strbuf_putc(&sb, '[');
	sorted = u64map_sorted(&t->queues);
	for (i = 0; sorted && i < t->queues.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "queue_id", sorted[i]->key);
		json_num(&sb, &f3, "gpu_id", sorted[i]->val.gpu_id);
		json_num(&sb, &f3, "seq", sorted[i]->val.seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &f2, "events");
	kt_strbuf_putc(&sb, '[');
	sorted = u64map_sorted(&t->events);
	for (i = 0; sorted && i < t->events.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "event_id", sorted[i]->key);
		json_num(&sb, &f3, "event_type", sorted[i]->val.kind);
		json_num(&sb, &f3, "seq", sorted[i]->val.seq);
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

static void
stats_free(struct stats *s)
{
	size_t i;

	group_release(&s->all, s->nrows);
	set_release(&s->threads, s->nrows);
	set_release(&s->gpus, s->nrows);
	for (i = 0; i < s->nnames; i++)
		free(s->names[i].name);
	free(s->names);
	free(s->errnos);
	obj_tracker_release(&s->objs);
	sub_stats_free(&s->subs);
}

static int
stats_init(struct stats *s, const struct stats *like)
{
	memset(s, 0, sizeof(*s));
	s->by_thread = like->by_thread;
	s->by_gpu = like->by_gpu;
	s->rows = kfd_schema_rows(&s->nrows);
	obj_tracker_init(&s->objs);
	u64map_init(&s->threads.index);
	u64map_init(&s->gpus.index);
	return group_init(&s->all, s, 0);
}

/* One process's records go to its own stats and to the run's. */
struct stats_pair {
	struct stats *proc, *run;
};

static int
stats_pair_emit(void *ctx, const struct kt_record *rec)
{
	struct stats_pair *p = ctx;

	if (stats_emit(p->proc, rec))
		return -1;
	return p->run ? stats_emit(p->run, rec) : 0;
}

/* Read one process's file. Return: the reader's last result, or -ENOMEM. */
static int
stats_read(struct cli_run_proc *p, size_t window, struct stats *s,
	   struct stats *run)
{
	struct stats_pair pair = { s, run };
	struct cli_progress prog;
	struct cli_reorder ro;
	struct kt_record rec;
	uint64_t n = 0;
	int rc;

	cli_progress_start(&prog, p->label, 0);
	cli_reorder_init(&ro, window, 0, stats_pair_emit, &pair);
	while ((rc = kt_reader_next(p->r, &rec)) == 1) {
		cli_progress_update(&prog, ++n);
		if (cli_reorder_push(&ro, &rec)) {
			rc = -ENOMEM;
			break;
		}
	}
	if (rc != -ENOMEM && cli_reorder_flush(&ro))
		rc = -ENOMEM;
	cli_reorder_free(&ro);
	cli_progress_end(&prog);
	if (rc != -ENOMEM)
		p->read_rc = rc;
	obj_tracker_sort_mem(&s->objs);
	return rc;
}

/* The whole run's text section: totals, the per-ioctl table, errors and
 * one line per process. */
static void
report_run_text(struct stats *run, struct ioctl_stat **v,
		const struct cli_run *cr, struct stats *procs)
{
	char buf[32];
	size_t i;

	printf("== run: %zu processes", cr->n);
	if (cr->nhosts > 1)
		printf(" on %zu hosts", cr->nhosts);
	printf("\n");
	printf("records: %llu, ioctls: %llu, failed: %llu\n\n",
	       (unsigned long long)run->records,
	       (unsigned long long)run->all.ioctls,
	       (unsigned long long)run->all.failed);
	print_table(run, &run->all, v, "");
	printf("\nerrors:");
	if (!run->nerrnos)
		printf(" none");
	printf("\n");
	sort_any(run->errnos, run->nerrnos, sizeof(*run->errnos), cmp_errno);
	for (i = 0; i < run->nerrnos; i++)
		printf("  %-16s %llu\n",
		       errno_label(run->errnos[i].err, buf, sizeof(buf)),
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

/* Every process, then the run (several files). */
static int
stats_run(struct cli_run *cr, size_t window, int json, struct stats *like,
	  struct ioctl_stat **v)
{
	struct stats run, *procs = calloc(cr->n, sizeof(*procs));
	struct kt_strbuf sb;
	size_t i, n = 0;
	int rc = -1;

	kt_strbuf_init(&sb);
	if (!procs || stats_init(&run, like))
		goto out;
	run.run_only = 1;
	if (json)
		kt_strbuf_append(&sb, "{\"processes\":[", 14);
	for (i = 0; i < cr->n; i++, n++) {
		if (stats_init(&procs[i], like) ||
		    stats_read(&cr->p[i], window, &procs[i], &run) == -ENOMEM)
			goto out;
		if (json) {
			if (i)
				kt_strbuf_putc(&sb, ',');
			kt_strbuf_printf(&sb, "{\"label\":");
			kfd_json_escape(&sb, cr->p[i].label,
					strlen(cr->p[i].label));
			kt_strbuf_printf(&sb, ",\"file\":");
			kfd_json_escape(&sb, cr->p[i].path,
					strlen(cr->p[i].path));
			kt_strbuf_printf(&sb, ",\"pid\":%d,\"parent\":%d,"
					 "\"stats\":", (int)cr->p[i].hdr->pid,
					 cr->p[i].parent);
			report_json_sb(&sb, &procs[i], v);
			kt_strbuf_putc(&sb, '}');
		} else {
			printf("== process %s: %s\n", cr->p[i].label,
			       cr->p[i].path);
			report_text(&procs[i], v);
			printf("\n");
		}
	}
	if (json) {
		kt_strbuf_printf(&sb, "],\"run\":{\"processes\":%zu,"
				 "\"stats\":", cr->n);
		report_json_sb(&sb, &run, v);
		kt_strbuf_append(&sb, "}}\n", 3);
		if (sb.failed || fwrite(sb.data, 1, sb.len, stdout) != sb.len)
			goto out;
	} else {
		report_run_text(&run, v, cr, procs);
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		stats_free(&procs[i]);
	free(procs);
	stats_free(&run);
	kt_strbuf_release(&sb);
	return rc;
}

int
kfdtrace_cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "by-thread", no_argument, NULL, 'T' },
		{ "by-gpu", no_argument, NULL, 'G' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ioctl_stat **v = NULL;
	struct cli_run run = { 0 };
	struct stats s;
	uint64_t window = CLI_REORDER_WINDOW;
	int opt, json = 0, rc, status = KFDTRACE_EXIT_USAGE;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_stats(stdout);
		return KFDTRACE_EXIT_OK;
	}
	memset(&s, 0, sizeof(s));
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'T':
			s.by_thread = 1;
			break;
		case 'G':
			s.by_gpu = 1;
			break;
		case 'w':
			if (cli_parse_window(optarg, &window)) {
				cli_err("bad number '%s'",
					optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		default:
			fprintf(stderr, "Try 'kfdtrace stats --help'.\n");
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_err("expected a trace file (see 'kfdtrace stats --help')");
		return KFDTRACE_EXIT_USAGE;
	}

	status = KFDTRACE_EXIT_ERROR;
	{
		struct stats like = { .by_thread = s.by_thread,
				      .by_gpu = s.by_gpu };

		if (stats_init(&s, &like))
			goto oom;
	}
	if (cli_run_open(&run, argv + optind, (size_t)(argc - optind), "stats"))
		goto out;
	v = malloc((s.nrows + MAX_UNKNOWN_KINDS) * sizeof(*v));
	if (!v)
		goto oom;
	if (run.n > 1) {
		if (stats_run(&run, (size_t)window, json, &s, v))
			goto oom;
	} else {
		if (stats_read(&run.p[0], (size_t)window, &s, NULL) == -ENOMEM)
			goto oom;
		if (json) {
			struct kt_strbuf sb;

			kt_strbuf_init(&sb);
			report_json_sb(&sb, &s, v);
			kt_strbuf_putc(&sb, '\n');
			rc = sb.failed || fwrite(sb.data, 1, sb.len, stdout) !=
					  sb.len;
			kt_strbuf_release(&sb);
			if (rc)
				goto oom;
		} else {
			report_text(&s, v);
		}
	}
	if (fflush(stdout) != 0) {
		cli_err("write error");
		goto out;
	}
	status = cli_run_finish(&run);
	goto out;

oom:
	cli_err("out of memory");
out:
	free(v);
	cli_run_close(&run);
	stats_free(&s);
	return status;
}
