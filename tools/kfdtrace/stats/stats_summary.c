/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats, summaries: the sort orders and the latency percentiles
 * and labels that the text and the JSON output both print.
 */
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "kfdtrace/decode.h"

/* qsort() of possibly empty (NULL) arrays, which qsort itself forbids. */
void
stats_sort_any(void *base, size_t n, size_t size,
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

int
stats_cmp_errno(const void *a, const void *b)
{
	const struct errno_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

/* GPUs in id order, the "no GPU" group (0) last. */
int
stats_cmp_gpu_group(const void *a, const void *b)
{
	const struct stat_group *x = *(struct stat_group *const *)a;
	const struct stat_group *y = *(struct stat_group *const *)b;

	if ((x->key == 0) != (y->key == 0))
		return x->key == 0 ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* The nearest-rank percentile @permille of @n sorted samples. */
static uint64_t
rank(const uint64_t *v, size_t n, unsigned int permille)
{
	size_t r = (n * permille + 999) / 1000;

	return v[(r ? r : 1) - 1];
}

void
stats_lat_summarize(struct ioctl_stat *st, struct lat_summary *l)
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

const char *
stats_errno_label(int32_t err, char *buf, size_t size)
{
	const char *n = kfd_errno_name(err);

	if (n)
		return n;
	snprintf(buf, size, "errno %d", err);
	return buf;
}

const char *
stats_row_label(const struct ioctl_stat *st, char *buf, size_t size)
{
	if (st->name)
		return st->name;
	snprintf(buf, size, "ioctl 0x%08x", st->request);
	return buf;
}

/* Every kind a group called, in a stable order: schema rows, unknowns. */
size_t
stats_collect(const struct stats *s, struct stat_group *g,
	      struct ioctl_stat **v)
{
	size_t n = 0, i;

	for (i = 0; i < s->nrows; i++)
		if (g->per_row[i].count)
			v[n++] = &g->per_row[i];
	for (i = 0; g->unknown && i < g->nunknown; i++)
		v[n++] = &g->unknown[i];
	return n;
}
