/* SPDX-License-Identifier: MIT */
/*
 * AVAILABLE_MEMORY calls whose answer depended on a race in the capture.
 *
 * The kernel answers from its accounting at one instant inside the call.
 * When another thread, or another process on the machine, allocated or
 * freed memory while the call ran (their time spans overlap), the answer
 * may or may not include that change, and the sequence numbers do not say
 * which: each is taken when its call returns. A replay issues them in one
 * order, so the value it gets can differ from the capture's by that change
 * without anything being wrong. Such calls are found here from the spans
 * the model collected, and the check leaves their value out (verify.c).
 *
 * Calls of one thread never overlap, so the overlap test needs no thread:
 * with the changes sorted by entry time and the running maximum of their
 * exit times, a query [ts, exit) raced a change when some change entered
 * before the query returned and returned after it entered.
 */
#include <stdlib.h>

#include "replay_model.h"

void
rp_model_varies(struct rp_model *m, const struct kt_record *rec,
		const struct kfd_ioctl_desc *d)
{
	struct rp_m_span *s;
	struct rp_vec *v;

	/* The schema says which calls read or change the free memory. */
	if (d && d->free_mem == KFD_FREE_MEM_READS)
		v = &m->avail_spans;
	else if (d && d->free_mem == KFD_FREE_MEM_CHANGES &&
		 rec->u.ioctl.ret == 0)
		v = &m->mem_spans;
	else
		return;
	s = rp_vec_push(v);
	if (!s)
		return;
	s->seq = rec->seq;
	s->ts = rec->ts;
	s->exit = kt_record_end(rec);
}

static int
cmp_ts(const void *a, const void *b)
{
	const struct rp_m_span *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Mark @m's queries that overlap one of @chg's changes (sorted by ts). */
static void
mark_overlaps(struct rp_model *m, const struct rp_vec *chg)
{
	const struct rp_m_span *q = m->avail_spans.data, *c = chg->data;
	uint64_t *maxexit;
	size_t i, k = 0;

	if (!m->avail_spans.n || !chg->n)
		return;
	maxexit = malloc(chg->n * sizeof(*maxexit));
	if (!maxexit)
		return;
	for (i = 0; i < chg->n; i++)
		maxexit[i] = i && maxexit[i - 1] > c[i].exit ? maxexit[i - 1] :
			     c[i].exit;
	/* Queries in entry order: the changes entered before each one's
	 * exit only grow, but exits are not sorted, so search each. */
	for (i = 0; i < m->avail_spans.n; i++) {
		size_t lo = 0, hi = chg->n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (c[mid].ts < q[i].exit)
				lo = mid + 1;
			else
				hi = mid;
		}
		k = lo;
		if (k && maxexit[k - 1] > q[i].ts) {
			uint64_t *v = rp_vec_push(&m->avail_varies);

			if (v)
				*v = q[i].seq;
		}
	}
	free(maxexit);
	if (m->avail_varies.n > 1)
		qsort(m->avail_varies.data, m->avail_varies.n, sizeof(uint64_t),
		      cmp_u64);
}

void
rp_model_varies_finish(struct rp_model *m)
{
	if (m->avail_spans.n > 1)
		qsort(m->avail_spans.data, m->avail_spans.n,
		      sizeof(struct rp_m_span), cmp_ts);
	if (m->mem_spans.n > 1)
		qsort(m->mem_spans.data, m->mem_spans.n,
		      sizeof(struct rp_m_span), cmp_ts);
	mark_overlaps(m, &m->mem_spans);
}

void
rp_model_varies_cross(struct rp_model *m, const struct rp_model *other)
{
	mark_overlaps(m, &other->mem_spans);
}

int
rp_model_avail_varies(const struct rp_model *m, uint64_t seq)
{
	const uint64_t *v = m->avail_varies.data;
	size_t lo = 0, hi = m->avail_varies.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < seq)
			lo = mid + 1;
		else if (v[mid] > seq)
			hi = mid;
		else
			return 1;
	}
	return 0;
}
