/* SPDX-License-Identifier: MIT */
/*
 * The ordering buffer the reorderers hold early records in: a binary
 * min-heap of pointers, each with its key beside it (16 bytes an entry),
 * so that a comparison reads no record unless the keys are equal and the
 * heap has a tie-break.
 *
 * Three reorderers use it, each with its own policy of when the smallest
 * held record may go, because what they know about the next record
 * differs (docs/architecture.md):
 *  - the replay's stream (replay/stream.c) pulls records in seq order:
 *    the expected seq goes at once, uncopied when it comes from the
 *    reader; a count window and a byte bound release the smallest early;
 *  - the CLI's (tools/kfdtrace/core/reorder.c) is pushed records, in seq order
 *    the same way, or in time order, where nothing is known to be next:
 *    a record goes when the window is full and it is CLI_REORDER_LAG_NS
 *    older than the latest end read; the ties keep the heap's order;
 *  - the babeltrace2 source (formats/bt2/reorder.c) orders by event time
 *    then file order, releases by a slack behind the newest time and a
 *    byte budget, and queues records that arrive in order in a FIFO in
 *    front of the heap.
 */
#ifndef KFDTRACE_REORDER_H
#define KFDTRACE_REORDER_H

#include <stddef.h>
#include <stdint.h>

/* One held record under its key. */
struct kt_heap_ent {
	uint64_t key;
	void *p;
};

/*
 * Whether held @a goes before held @b of the same key (a tie-break that
 * reads the records, so only on equal keys).
 */
typedef int kt_heap_tie_fn(const void *a, const void *b);

struct kt_heap {
	struct kt_heap_ent *v;
	size_t n, cap;
	kt_heap_tie_fn *tie;	/* NULL: none */
};

/*
 * kt_heap_init() - an empty heap ordered by key, then by @tie (NULL: equal
 * keys come out in the order a binary heap gives them, which is not the
 * order they went in). The first push allocates.
 */
void kt_heap_init(struct kt_heap *h, kt_heap_tie_fn *tie);

/*
 * kt_heap_push() - hold @p under @key.
 *
 * Return: 0, or -ENOMEM (then nothing changed).
 */
int kt_heap_push(struct kt_heap *h, uint64_t key, void *p);

/*
 * kt_heap_top() - the smallest entry, or NULL when the heap is empty. It
 * stays valid until the next push or pop.
 */
static inline const struct kt_heap_ent *
kt_heap_top(const struct kt_heap *h)
{
	return h->n ? &h->v[0] : NULL;
}

/*
 * kt_heap_pop() - remove the smallest entry and return its pointer, or
 * NULL when the heap is empty.
 */
void *kt_heap_pop(struct kt_heap *h);

/*
 * kt_heap_fini() - release the heap's array; each pointer still held is
 * given to @drop (NULL: they are only forgotten). The heap is then empty.
 */
void kt_heap_fini(struct kt_heap *h, void (*drop)(void *p));

#endif /* KFDTRACE_REORDER_H */
