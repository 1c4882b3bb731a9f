/* SPDX-License-Identifier: MIT */
/*
 * The reorderers' ordering buffer (kfdtrace/reorder.h): a binary min-heap
 * whose entries carry their keys. Sifting moves the hole rather than
 * swapping, and picks the left child on equal keys: the order of equal
 * entries is the one the replay's and the CLI's heaps gave.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/reorder.h"

/* Whether (@ak, @ao) comes before (@bk, @bo). */
static inline int
before(uint64_t ak, uint64_t ao, uint64_t bk, uint64_t bo)
{
	return ak < bk || (ak == bk && ao < bo);
}

void
kt_heap_init(struct kt_heap *h)
{
	memset(h, 0, sizeof(*h));
}

int
kt_heap_push(struct kt_heap *h, uint64_t key, uint64_t ord, size_t bytes,
	     void *p)
{
	size_t i;

	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		struct kt_heap_ent *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	i = h->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(key, ord, h->v[parent].key, h->v[parent].ord))
			break;
		h->v[i] = h->v[parent];
		i = parent;
	}
	h->v[i].key = key;
	h->v[i].ord = ord;
	h->v[i].bytes = bytes;
	h->v[i].p = p;
	h->bytes += bytes;
	return 0;
}

void *
kt_heap_pop(struct kt_heap *h, size_t *bytes)
{
	struct kt_heap_ent top, last;
	size_t i = 0;

	if (!h->n)
		return NULL;
	top = h->v[0];
	last = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m;

		if (l >= h->n)
			break;
		m = r < h->n && before(h->v[r].key, h->v[r].ord,
				       h->v[l].key, h->v[l].ord) ? r : l;
		if (!before(h->v[m].key, h->v[m].ord, last.key, last.ord))
			break;
		h->v[i] = h->v[m];
		i = m;
	}
	if (h->n)
		h->v[i] = last;
	h->bytes -= top.bytes;
	if (bytes)
		*bytes = top.bytes;
	return top.p;
}

void
kt_heap_fini(struct kt_heap *h, void (*drop)(void *p))
{
	size_t i;

	for (i = 0; drop && i < h->n; i++)
		drop(h->v[i].p);
	free(h->v);
	memset(h, 0, sizeof(*h));
}
