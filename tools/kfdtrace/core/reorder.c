/* SPDX-License-Identifier: MIT */
/*
 * Putting records back into sequence order within a bounded window.
 *
 * The common case (one thread, or runs already in order) never copies: a
 * record whose seq is the next expected one goes straight to the callback.
 * Only records that arrive early wait in the heap (kfdtrace/reorder.h's
 * ordering buffer, with the key beside each copy), and they are bounded
 * twice: in count (the window) and in bytes (the copies' allocations), so
 * that a trace of large records cannot make a command hold gigabytes.
 * Equal keys get no tie-break: in time order they come out in the heap's
 * order, as they always did.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cli.h"

void
cli_reorder_init(struct cli_reorder *ro, size_t window, uint64_t first,
		 int (*emit)(void *ctx, const struct kt_record *rec),
		 void *ctx)
{
	kt_heap_init(&ro->heap, NULL);
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
	struct cli_held *top = kt_heap_pop(&ro->heap);
	int rc;

	ro->bytes -= top->bytes;
	rc = emit_one(ro, &top->rec);

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
	while (!ro->by_time && ro->heap.n && kt_heap_top(&ro->heap)->key <= ro->next) {
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
			 ro->max_bytes >> 20,
			 ((const struct cli_held *)kt_heap_top(&ro->heap)->p)->rec.seq);
	while (ro->heap.n && ro->bytes > ro->max_bytes) {
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
	if (ro->heap.n <= ro->window)
		return 0;
	return !ro->by_time ||
	       kt_heap_top(&ro->heap)->key + CLI_REORDER_LAG_NS <= ro->end_max;
}

int
cli_reorder_push(struct cli_reorder *ro, const struct kt_record *rec)
{
	struct cli_held *cp;
	size_t bytes;
	int rc;

	if (!ro->by_time && ro->heap.n == 0 && rec->seq <= ro->next)
		return emit_one(ro, rec);
	cp = kt_record_clone_after(rec, offsetof(struct cli_held, rec), &bytes);
	if (!cp)
		return -1;
	if (kt_heap_push(&ro->heap, key(ro, rec), cp)) {
		free(cp);
		return -1;
	}
	cp->bytes = bytes;
	ro->bytes += bytes;
	if (ro->by_time && kt_record_end(rec) > ro->end_max)
		ro->end_max = kt_record_end(rec);
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

	while (ro->heap.n) {
		rc = emit_top(ro);
		if (rc)
			return rc;
	}
	return 0;
}

void
cli_reorder_free(struct cli_reorder *ro)
{
	kt_heap_fini(&ro->heap, free);
	ro->bytes = 0;
}
