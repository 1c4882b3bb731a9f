/* SPDX-License-Identifier: MIT */
/*
 * Building the report of a run: a model per process, then the totals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_run.h"

/* Add one process's calls of kind @k to the run's. */
static int
merge_kind(struct report_run *rr, const struct rm_kind *k)
{
	struct rm_kind *t = NULL;
	uint64_t *lat;
	size_t i;

	for (i = 0; i < rr->nkinds; i++)
		if (!strcmp(rr->kinds[i].name, k->name))
			t = &rr->kinds[i];
	if (!t) {
		t = realloc(rr->kinds, (rr->nkinds + 1) * sizeof(*t));
		if (!t)
			return -1;
		rr->kinds = t;
		t = &t[rr->nkinds++];
		memset(t, 0, sizeof(*t));
		memcpy(t->name, k->name, sizeof(t->name));
		t->request = k->request;
	}
	t->count += k->count;
	t->failed += k->failed;
	for (i = 0; i < RM_LAT_BINS; i++)
		t->bins[i] += k->bins[i];
	if (!k->nlat)
		return 0;
	lat = realloc(t->lat, (t->nlat + k->nlat) * sizeof(*lat));
	if (!lat)
		return -1;
	memcpy(lat + t->nlat, k->lat, k->nlat * sizeof(*lat));
	t->lat = lat;
	t->nlat += k->nlat;
	t->cap = t->nlat;
	return 0;
}

int
report_run_build(struct report_run *rr, struct cli_run *run, size_t window)
{
	size_t i, k;

	memset(rr, 0, sizeof(*rr));
	rr->p = calloc(run->n ? run->n : 1, sizeof(*rr->p));
	if (!rr->p)
		return -ENOMEM;
	for (i = 0; i < run->n; i++) {
		struct report_model *m = &rr->p[i].m;
		struct cli_progress prog;
		int rc;

		rr->p[i].rp = &run->p[i];
		rr->n++;
		/* A progress line per process, named by its label. */
		cli_progress_start(&prog, run->p[i].label, 0);
		rc = report_model_build(m, run->p[i].r, window, &prog);
		cli_progress_end(&prog);
		if (rc)
			return -ENOMEM;
		run->p[i].read_rc = m->read_rc;
		if (m->ioctls || m->records > m->per_type[KT_REC_END]) {
			if (!rr->t_first || m->t_first < rr->t_first)
				rr->t_first = m->t_first;
			if (m->t_last > rr->t_last)
				rr->t_last = m->t_last;
		}
		if (!rr->origin || m->hdr.start_monotonic < rr->origin)
			rr->origin = m->hdr.start_monotonic;
		rr->records += m->records;
		rr->ioctls += m->ioctls;
		rr->failed += m->failed;
		rr->nthreads += m->nthreads;
		rr->nleaks += m->nleaks;
		for (k = 0; k < m->nkinds; k++)
			if (merge_kind(rr, &m->kinds[k]))
				return -ENOMEM;
	}
	if (rr->t_last < rr->t_first)
		rr->t_last = rr->t_first;
	/* Every process draws on the run's axis. */
	for (i = 0; i < rr->n; i++) {
		rr->p[i].m.view_t0 = rr->t_first;
		rr->p[i].m.view_t1 = rr->t_last;
		rr->p[i].m.origin = rr->origin;
	}
	for (k = 0; k < rr->nkinds; k++)
		if (rr->kinds[k].nlat > 1)
			qsort(rr->kinds[k].lat, rr->kinds[k].nlat,
			      sizeof(uint64_t), rm_cmp_u64);
	if (rr->nkinds > 1)
		qsort(rr->kinds, rr->nkinds, sizeof(*rr->kinds), rm_cmp_kind);
	return 0;
}

void
report_run_release(struct report_run *rr)
{
	size_t i;

	for (i = 0; i < rr->n; i++)
		report_model_release(&rr->p[i].m);
	free(rr->p);
	for (i = 0; i < rr->nkinds; i++)
		free(rr->kinds[i].lat);
	free(rr->kinds);
	memset(rr, 0, sizeof(*rr));
}
