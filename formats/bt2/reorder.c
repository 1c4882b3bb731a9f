/* SPDX-License-Identifier: MIT */
/*
 * Records held back to be emitted in time order: deep copies (the reader's
 * pointers die at its next call), ordered by event time, then file order.
 * Those that come in order queue in a FIFO; the others wait in the
 * reorderers' ordering buffer (kfdtrace/reorder.h) under (time, ordinal).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kbt.h"

/*
 * Events that span time (ioctls, API calls) are stamped with their end:
 * that is when their results exist (a handle, a queue id), which is what
 * a state analysis needs, and it is how the lttng provider stamps its
 * ioctl events. The start is the timestamp minus dur_ns. A thread appends
 * the record at the end of the call, so its events stay in time order in
 * the file.
 */
uint64_t
kbt_event_time(const struct kt_record *rec)
{
	if (rec->type == KT_REC_IOCTL && rec->u.ioctl.t_exit > rec->ts)
		return rec->u.ioctl.t_exit;
	if (rec->type == KT_REC_API_CALL && rec->u.api.t_exit > rec->ts)
		return rec->u.api.t_exit;
	return rec->ts;
}

struct kbt_held *
kbt_record_clone(const struct kt_record *rec)
{
	size_t bytes;
	struct kbt_held *h = kt_record_clone_after(rec,
						   offsetof(struct kbt_held, rec),
						   &bytes);

	if (!h)
		return NULL;
	h->bytes = bytes;
	h->ts = kbt_event_time(rec);
	h->begin = 0;
	return h;
}

struct kbt_held *
kbt_begin_clone(const struct kt_record *rec)
{
	const char *name = rec->type == KT_REC_API_CALL && rec->u.api.name ?
			   rec->u.api.name : "";
	size_t head = offsetof(struct kbt_held, rec) + sizeof(struct kt_record);
	size_t len = strlen(name) + 1;
	struct kbt_held *h = malloc(head + len);

	if (!h)
		return NULL;
	memset(h, 0, offsetof(struct kbt_held, rec));
	h->rec = *rec;
	h->bytes = head + len;
	h->ts = rec->ts;
	h->begin = 1;
	if (rec->type == KT_REC_IOCTL) {
		h->rec.u.ioctl.arg_before = NULL;
		h->rec.u.ioctl.arg_after = NULL;
		h->rec.u.ioctl.bufs = NULL;
		h->rec.u.ioctl.nbufs = 0;
	} else {
		memcpy((char *)h + head, name, len);
		h->rec.u.api.name = (const char *)h + head;
		h->rec.u.api.args = NULL;
	}
	return h;
}

static int
before(const struct kbt_held *a, const struct kbt_held *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->ord < b->ord);
}

/* Equal times: file order (the heap's tie-break). */
static int
held_tie(const void *a, const void *b)
{
	return ((const struct kbt_held *)a)->ord < ((const struct kbt_held *)b)->ord;
}

static struct kbt_held *
fifo_tail(const struct kbt_heap *h)
{
	return h->q[(h->qhead + h->qlen - 1) % h->qcap];
}

static int
fifo_push(struct kbt_heap *h, struct kbt_held *x)
{
	if (h->qlen == h->qcap) {
		size_t cap = h->qcap ? h->qcap * 2 : 1024, i;
		struct kbt_held **q = malloc(cap * sizeof(*q));

		if (!q)
			return -1;
		for (i = 0; i < h->qlen; i++)
			q[i] = h->q[(h->qhead + i) % h->qcap];
		free(h->q);
		h->q = q;
		h->qcap = cap;
		h->qhead = 0;
	}
	h->q[(h->qhead + h->qlen++) % h->qcap] = x;
	return 0;
}

int
kbt_heap_push(struct kbt_heap *h, struct kbt_held *x)
{
	int rc;

	/* In order with the FIFO's youngest: queue it; else sort it in. */
	if (!h->qlen || !before(x, fifo_tail(h))) {
		rc = fifo_push(h, x);
	} else {
		/* The iterator's heap starts zeroed (and is zeroed again by a
		 * seek): the tie-break is set where it is needed. */
		h->heap.tie = held_tie;
		rc = kt_heap_push(&h->heap, x->ts, x) ? -1 : 0;
	}
	if (!rc)
		h->bytes += x->bytes;
	return rc;
}

const struct kbt_held *
kbt_heap_min(const struct kbt_heap *h)
{
	const struct kbt_held *f = h->qlen ? h->q[h->qhead] : NULL;
	const struct kt_heap_ent *e = kt_heap_top(&h->heap);
	const struct kbt_held *t = e ? e->p : NULL;

	if (f && t)
		return before(t, f) ? t : f;
	return f ? f : t;
}

struct kbt_held *
kbt_heap_pop(struct kbt_heap *h)
{
	const struct kbt_held *m = kbt_heap_min(h);
	struct kbt_held *x;

	if (!m)
		return NULL;
	if (h->qlen && m == h->q[h->qhead]) {
		x = h->q[h->qhead];
		h->qhead = (h->qhead + 1) % h->qcap;
		h->qlen--;
	} else {
		x = kt_heap_pop(&h->heap);
	}
	h->bytes -= x->bytes;
	return x;
}

void
kbt_heap_free(struct kbt_heap *h)
{
	size_t i;

	kt_heap_fini(&h->heap, free);
	for (i = 0; i < h->qlen; i++)
		free(h->q[(h->qhead + i) % h->qcap]);
	free(h->q);
	memset(h, 0, sizeof(*h));
}
