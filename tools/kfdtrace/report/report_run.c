/* SPDX-License-Identifier: MIT */
/*
 * Building the report of a run: a model per process, then the totals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_run.h"

/*
 * Add one process's calls of kind @k to the run's; @kind_of finds the
 * run's kind by rm_kind_key().
 */
static int
merge_kind(struct report_run *rr, struct kc_u64map *kind_of,
	   const struct rm_kind *k)
{
	struct rm_kind *t;
	uint32_t tag;
	uint64_t key = rm_kind_key(k->known, k->request, &tag);
	uint64_t *lat;
	size_t i;
	int rc = cli_index_for(kind_of, tag, key, (void **)&rr->kinds,
			       &rr->nkinds, &rr->capkinds, sizeof(*rr->kinds),
			       &i);

	if (rc < 0)
		return -1;
	t = &rr->kinds[i];
	if (!rc) {
		memcpy(t->name, k->name, sizeof(t->name));
		t->request = k->request;
		t->known = k->known;
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
	struct kc_u64map kind_of;
	size_t i, k;
	int rc = -ENOMEM;

	memset(rr, 0, sizeof(*rr));
	kc_u64map_init(&kind_of, sizeof(uint64_t));
	rr->p = calloc(run->n ? run->n : 1, sizeof(*rr->p));
	if (!rr->p)
		return -ENOMEM;
	for (i = 0; i < run->n; i++) {
		struct report_model *m = &rr->p[i].m;
		struct cli_progress prog;

		rr->p[i].rp = &run->p[i];
		rr->n++;
		/* A progress line per process, named by its label. */
		cli_progress_start(&prog, run->p[i].label, 0);
		if (report_model_build(m, run->p[i].r, window, &prog)) {
			cli_progress_end(&prog);
			goto out;
		}
		cli_progress_end(&prog);
		run->p[i].read_rc = m->read_rc;
		if (m->ioctls || m->records > m->per_type[KT_REC_END]) {
			if (!rr->t_first || m->t_first < rr->t_first)
				rr->t_first = m->t_first;
			if (m->t_last > rr->t_last)
				rr->t_last = m->t_last;
		}
		if (!rr->origin || rm_time_origin(&m->hdr) < rr->origin)
			rr->origin = rm_time_origin(&m->hdr);
		rr->records += m->records;
		rr->ioctls += m->ioctls;
		rr->failed += m->failed;
		rr->nthreads += m->nthreads;
		rr->nleaks += m->nleaks;
		for (k = 0; k < m->nkinds; k++)
			if (merge_kind(rr, &kind_of, &m->kinds[k]))
				goto out;
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
	rc = 0;
out:
	kc_u64map_free(&kind_of);
	return rc;
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
