/* SPDX-License-Identifier: MIT */
/*
 * The reorderers' ordering buffer (kfdtrace/reorder.h): a binary min-heap
 * whose entries carry their keys. Sifting moves the hole rather than
 * swapping, and picks the left child on equal keys: the order of equal
 * entries without a tie-break is the one the replay's and the CLI's heaps
 * gave.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/reorder.h"

/*
 * Whether @a goes before @b. The callers keep the array and its length in
 * locals: the build does not assume strict aliasing, so every store into
 * the array would make them read h->v and h->n again.
 */
static inline int
before(kt_heap_tie_fn *tie, const struct kt_heap_ent *a,
       const struct kt_heap_ent *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return tie && tie(a->p, b->p);
}

void
kt_heap_init(struct kt_heap *h, kt_heap_tie_fn *tie)
{
	memset(h, 0, sizeof(*h));
	h->tie = tie;
}

int
kt_heap_push(struct kt_heap *h, uint64_t key, void *p)
{
	struct kt_heap_ent x = { key, p }, *v;
	kt_heap_tie_fn *tie = h->tie;
	size_t i;

	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;

		v = realloc(h->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	v = h->v;
	i = h->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(tie, &x, &v[parent]))
			break;
		v[i] = v[parent];
		i = parent;
	}
	v[i] = x;
	return 0;
}

void *
kt_heap_pop(struct kt_heap *h)
{
	struct kt_heap_ent *v = h->v, top, last;
	kt_heap_tie_fn *tie = h->tie;
	size_t i = 0, n;

	if (!h->n)
		return NULL;
	n = --h->n;
	top = v[0];
	last = v[n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m;

		if (l >= n)
			break;
		m = r < n && before(tie, &v[r], &v[l]) ? r : l;
		if (!before(tie, &v[m], &last))
			break;
		v[i] = v[m];
		i = m;
	}
	if (n)
		v[i] = last;
	return top.p;
}

void
kt_heap_fini(struct kt_heap *h, void (*drop)(void *p))
{
	kt_heap_tie_fn *tie = h->tie;
	size_t i;

	for (i = 0; drop && i < h->n; i++)
		drop(h->v[i].p);
	free(h->v);
	memset(h, 0, sizeof(*h));
	h->tie = tie;
}
