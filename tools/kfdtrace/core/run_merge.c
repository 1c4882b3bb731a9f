/* SPDX-License-Identifier: MIT */
/*
 * The records of a run's processes in one time order (run.h).
 *
 * Each process has a queue fed by its own reorder buffer; the merge takes
 * the queue head with the smallest timestamp. Records that come in order
 * are copied once, into the queue, since the reader reuses its buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/run.h"

struct merge_q {
	struct kt_record **rec;		/* a ring of copies */
	size_t head, n, cap;
	struct cli_reorder ro;
	int eof;			/* the reader is done and flushed */
	int err;			/* reader error, once */
	int nomem;
};

struct cli_run_merge {
	struct cli_run *run;
	struct merge_q *q;
	struct kt_record *last;		/* returned by the previous call */
};

static int
merge_emit(void *ctx, const struct kt_record *rec)
{
	struct merge_q *q = ctx;
	struct kt_record *c;

	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64, i;
		struct kt_record **nr = malloc(cap * sizeof(*nr));

		if (!nr)
			return q->nomem = -1;
		for (i = 0; i < q->n; i++)
			nr[i] = q->rec[(q->head + i) % q->cap];
		free(q->rec);
		q->rec = nr;
		q->head = 0;
		q->cap = cap;
	}
	c = kt_record_clone(rec);
	if (!c)
		return q->nomem = -1;
	q->rec[(q->head + q->n++) % q->cap] = c;
	return 0;
}

int
cli_run_merge_open(struct cli_run *run, size_t window,
		   struct cli_run_merge **out)
{
	struct cli_run_merge *m = calloc(1, sizeof(*m));
	size_t i;

	if (!m || !(m->q = calloc(run->n ? run->n : 1, sizeof(*m->q)))) {
		free(m);
		return -ENOMEM;
	}
	m->run = run;
	for (i = 0; i < run->n; i++)
		cli_reorder_init(&m->q[i].ro, window, 0, merge_emit, &m->q[i]);
	*out = m;
	return 0;
}

/* Read @p's file until its queue has a record or the file ends. */
static int
merge_fill(struct cli_run_proc *p, struct merge_q *q)
{
	struct kt_record rec;
	int rc;

	while (q->n == 0 && !q->eof) {
		rc = kt_reader_next(p->r, &rec);
		if (rc == 1) {
			if (cli_reorder_push(&q->ro, &rec) || q->nomem)
				return -ENOMEM;
			continue;
		}
		p->read_rc = rc;
		if (cli_reorder_flush(&q->ro) || q->nomem)
			return -ENOMEM;
		q->eof = 1;
		if (rc < 0 && !q->err) {
			q->err = 1;
			return rc;
		}
	}
	return 0;
}

int
cli_run_merge_next(struct cli_run_merge *m, const struct kt_record **rec,
		   size_t *proc)
{
	size_t i, best = SIZE_MAX;
	int rc;

	free(m->last);
	m->last = NULL;
	for (i = 0; i < m->run->n; i++) {
		struct merge_q *q = &m->q[i];

		rc = merge_fill(&m->run->p[i], q);
		if (rc < 0)
			return rc;
		if (q->n && (best == SIZE_MAX ||
			     q->rec[q->head]->ts <
			     m->q[best].rec[m->q[best].head]->ts))
			best = i;
	}
	if (best == SIZE_MAX)
		return 0;
	m->last = m->q[best].rec[m->q[best].head];
	m->q[best].head = (m->q[best].head + 1) % m->q[best].cap;
	m->q[best].n--;
	*rec = m->last;
	*proc = best;
	return 1;
}

void
cli_run_merge_by_time(struct cli_run_merge *m)
{
	for (size_t i = 0; i < m->run->n; i++) {
		m->q[i].ro.by_time = 1;
		m->q[i].ro.next = 0;
	}
}

uint64_t
cli_run_merge_late(const struct cli_run_merge *m)
{
	uint64_t late = 0;

	for (size_t i = 0; i < m->run->n; i++)
		late += m->q[i].ro.late;
	return late;
}

void
cli_run_merge_close(struct cli_run_merge *m)
{
	size_t i, k;

	if (!m)
		return;
	for (i = 0; i < m->run->n; i++) {
		struct merge_q *q = &m->q[i];

		cli_reorder_free(&q->ro);
		for (k = 0; k < q->n; k++)
			free(q->rec[(q->head + k) % q->cap]);
		free(q->rec);
	}
	free(m->q);
	free(m->last);
	free(m);
}
