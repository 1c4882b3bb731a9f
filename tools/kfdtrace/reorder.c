/* SPDX-License-Identifier: MIT */
/*
 * Putting records back into sequence order within a bounded window.
 *
 * The common case (one thread, or runs already in order) never copies: a
 * record whose seq is the next expected one goes straight to the callback.
 * Only records that arrive early wait in the heap, and they are bounded
 * twice: in count (the window) and in bytes (the copies' allocations), so
 * that a trace of large records cannot make a command hold gigabytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

void
cli_reorder_init(struct cli_reorder *ro, size_t window, uint64_t first,
		 int (*emit)(void *ctx, const struct kt_record *rec),
		 void *ctx)
{
	ro->heap = NULL;
	ro->n = 0;
	ro->cap = 0;
	ro->window = window ? window : 1;
	ro->bytes = 0;
	ro->max_bytes = CLI_REORDER_BYTES;
	ro->next = first;
	ro->late = 0;
	ro->early = 0;
	ro->by_time = 0;
	ro->end_max = 0;
	ro->emit = emit;
	ro->ctx = ctx;
}

/* What the heap orders by: the sequence number, or the time. */
static inline uint64_t
key(const struct cli_reorder *ro, const struct kt_record *rec)
{
	return ro->by_time ? rec->ts : rec->seq;
}

static void
heap_up(const struct cli_reorder *ro, struct cli_held *h, size_t i)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		struct cli_held t;

		if (key(ro, h[parent].rec) <= key(ro, h[i].rec))
			break;
		t = h[parent];
		h[parent] = h[i];
		h[i] = t;
		i = parent;
	}
}

static void
heap_down(const struct cli_reorder *ro, struct cli_held *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct cli_held t;

		if (l < n && key(ro, h[l].rec) < key(ro, h[m].rec))
			m = l;
		if (r < n && key(ro, h[r].rec) < key(ro, h[m].rec))
			m = r;
		if (m == i)
			break;
		t = h[m];
		h[m] = h[i];
		h[i] = t;
		i = m;
	}
}

static struct kt_record *
heap_pop(struct cli_reorder *ro)
{
	struct cli_held top = ro->heap[0];

	ro->heap[0] = ro->heap[--ro->n];
	heap_down(ro, ro->heap, ro->n, 0);
	ro->bytes -= top.bytes;
	return top.rec;
}

/* Emit one record and advance the expected sequence number. */
static int
emit_one(struct cli_reorder *ro, const struct kt_record *rec)
{
	if (key(ro, rec) < ro->next)
		ro->late++;
	else
		ro->next = key(ro, rec) + !ro->by_time;
	return ro->emit(ro->ctx, rec);
}

/* Emit the smallest held record. */
static int
emit_top(struct cli_reorder *ro)
{
	struct kt_record *top = heap_pop(ro);
	int rc = emit_one(ro, top);

	free(top);
	return rc;
}

/* Emit held records while the smallest is the expected one. */
static int
drain_ready(struct cli_reorder *ro)
{
	int rc;

	/* In time order nothing is known to be next: only a full window
	 * lets a record go. */
	while (!ro->by_time && ro->n && ro->heap[0].rec->seq <= ro->next) {
		rc = emit_top(ro);
		if (rc)
			return rc;
	}
	return 0;
}

/* Over the byte budget: release the smallest held records early. */
static int
release_early(struct cli_reorder *ro)
{
	int rc;

	if (ro->bytes <= ro->max_bytes)
		return 0;
	if (!ro->early)
		cli_warn("records held to restore sequence order take more "
			 "than %zu MiB (at seq %" PRIu64 "): releasing the "
			 "oldest early; later records may come out of order",
			 ro->max_bytes >> 20, ro->heap[0].rec->seq);
	while (ro->n && ro->bytes > ro->max_bytes) {
		ro->early++;
		rc = emit_top(ro);
		if (rc)
			return rc;
		rc = drain_ready(ro);
		if (rc)
			return rc;
	}
	return 0;
}

/* Past the window: may the smallest held record go? */
static int
may_release(const struct cli_reorder *ro)
{
	if (ro->n <= ro->window)
		return 0;
	return !ro->by_time ||
	       ro->heap[0].rec->ts + CLI_REORDER_LAG_NS <= ro->end_max;
}

int
cli_reorder_push(struct cli_reorder *ro, const struct kt_record *rec)
{
	struct kt_record *cp;
	size_t bytes;
	int rc;

	if (!ro->by_time && ro->n == 0 && rec->seq <= ro->next)
		return emit_one(ro, rec);
	if (ro->n == ro->cap) {
		size_t cap = ro->cap ? ro->cap * 2 : 1024;
		struct cli_held *h = realloc(ro->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		ro->heap = h;
		ro->cap = cap;
	}
	cp = kt_record_clone_after(rec, 0, &bytes);
	if (!cp)
		return -1;
	if (ro->by_time && kt_record_end(rec) > ro->end_max)
		ro->end_max = kt_record_end(rec);
	ro->heap[ro->n].rec = cp;
	ro->heap[ro->n].bytes = bytes;
	ro->bytes += bytes;
	heap_up(ro, ro->heap, ro->n++);
	rc = drain_ready(ro);
	if (rc)
		return rc;
	/* Window full: the smallest held record can wait no longer. */
	while (may_release(ro)) {
		rc = emit_top(ro);
		if (rc)
			return rc;
		rc = drain_ready(ro);
		if (rc)
			return rc;
	}
	return release_early(ro);
}

int
cli_reorder_flush(struct cli_reorder *ro)
{
	int rc;

	while (ro->n) {
		rc = emit_top(ro);
		if (rc)
			return rc;
	}
	return 0;
}

void
cli_reorder_free(struct cli_reorder *ro)
{
	while (ro->n)
		free(ro->heap[--ro->n].rec);
	free(ro->heap);
	ro->heap = NULL;
	ro->cap = 0;
	ro->bytes = 0;
}
