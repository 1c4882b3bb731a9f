/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats, accumulation: per-ioctl counts, errnos and latencies of
 * the whole trace, each thread and each GPU, thread names, and the object
 * tracker, fed one record at a time in sequence order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "kfdtrace/decode.h"

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
	struct obj_val *pos = kc_u64map_get(&set->index, 0, key);
	struct obj_val v = { .size = set->n };
	struct stat_group **nv, *g;

	if (pos)
		return set->v[pos->size];
	if (set->n == set->cap) {
		/* Doubling: a group per thread, up to millions of them. */
		size_t cap = set->cap ? set->cap * 2 : 16;

		nv = realloc(set->v, cap * sizeof(*nv));
		if (!nv)
			return NULL;
		set->v = nv;
		set->cap = cap;
	}
	g = malloc(sizeof(*g));
	if (!g || group_init(g, s, key)) {
		free(g);
		return NULL;
	}
	if (kc_u64map_put(&set->index, 0, key, &v)) {
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
	kc_u64map_free(&set->index);
}

/* A map finds a thread's name: a trace may name a million threads. */
static int
name_thread(struct stats *s, uint32_t tid, const char *name)
{
	char *copy = strdup(name ? name : "");
	size_t i;
	int rc;

	if (!copy)
		return -1;
	rc = cli_index_for(&s->name_of, 0, tid, (void **)&s->names, &s->nnames,
			   &s->capnames, sizeof(*s->names), &i);
	if (rc < 0) {
		free(copy);
		return -1;
	}
	free(s->names[i].name);
	s->names[i].tid = tid;
	s->names[i].name = copy;
	return 0;
}

const char *
stats_thread_name(const struct stats *s, uint64_t tid)
{
	uint64_t i;

	if (tid > UINT32_MAX || !kc_u64map_get64(&s->name_of, 0, tid, &i))
		return NULL;
	return s->names[i].name;
}

static int
stats_emit(void *ctx, const struct kt_record *rec)
{
	struct stats *s = ctx;
	struct obj_change ch[OBJ_MAX_CHANGES];
	const struct kfd_ioctl_desc *desc;
	struct stat_group *g;

	s->records++;
	if (rec->type == KT_REC_END)
		s->left_out += rec->u.end.left_out;
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
	desc = kt_ioctl_row(&rec->u.ioctl);
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

void
stats_free(struct stats *s)
{
	size_t i;

	group_release(&s->all, s->nrows);
	set_release(&s->threads, s->nrows);
	set_release(&s->gpus, s->nrows);
	for (i = 0; i < s->nnames; i++)
		free(s->names[i].name);
	free(s->names);
	kc_u64map_free(&s->name_of);
	free(s->errnos);
	obj_tracker_release(&s->objs);
	sub_stats_free(&s->subs);
}

int
stats_init(struct stats *s, const struct stats *like)
{
	memset(s, 0, sizeof(*s));
	s->by_thread = like->by_thread;
	s->by_gpu = like->by_gpu;
	s->rows = kfd_schema_rows(&s->nrows);
	obj_tracker_init(&s->objs);
	kc_u64map_init(&s->threads.index, sizeof(struct obj_val));
	kc_u64map_init(&s->gpus.index, sizeof(struct obj_val));
	kc_u64map_init(&s->name_of, sizeof(uint64_t));
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
int
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
