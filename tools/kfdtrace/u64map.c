/* SPDX-License-Identifier: MIT */
/*
 * Open addressing with linear probing and backward-shift deletion, so the
 * table never fills with tombstones while objects come and go.
 */
#include <stdlib.h>
#include <string.h>

#include "u64map.h"

void
u64map_init(struct u64map *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->n = 0;
}

void
u64map_free(struct u64map *m)
{
	free(m->slots);
	u64map_init(m);
}

static size_t
hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (size_t)k;
}

static int
grow(struct u64map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct u64map_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->slots[i].used)
			continue;
		j = hash(m->slots[i].key) & (cap - 1);
		while (s[j].used)
			j = (j + 1) & (cap - 1);
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->cap = cap;
	return 0;
}

static struct u64map_slot *
find(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = hash(key) & (m->cap - 1);
	while (m->slots[i].used) {
		if (m->slots[i].key == key)
			return &m->slots[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

int
u64map_put(struct u64map *m, uint64_t key, const struct u64map_val *val)
{
	struct u64map_slot *s = find(m, key);
	size_t i;

	if (s) {
		s->val = *val;
		return 0;
	}
	/* Keep the load under 1/2 so probes stay short. */
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return -1;
	i = hash(key) & (m->cap - 1);
	while (m->slots[i].used)
		i = (i + 1) & (m->cap - 1);
	m->slots[i].used = 1;
	m->slots[i].key = key;
	m->slots[i].val = *val;
	m->n++;
	return 0;
}

struct u64map_val *
u64map_get(struct u64map *m, uint64_t key)
{
	struct u64map_slot *s = find(m, key);

	return s ? &s->val : NULL;
}

int
u64map_del(struct u64map *m, uint64_t key, struct u64map_val *out)
{
	struct u64map_slot *s = find(m, key);
	size_t i, j, mask = m->cap - 1;

	if (!s)
		return 0;
	if (out)
		*out = s->val;
	i = (size_t)(s - m->slots);
	s->used = 0;
	m->n--;
	/* Move later members of the probe run back over the hole. */
	for (j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
		size_t home = hash(m->slots[j].key) & mask;

		/* Does j's home lie cyclically outside (i, j]? */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->slots[i] = m->slots[j];
			m->slots[j].used = 0;
			i = j;
		}
	}
	return 1;
}

static int
cmp_slot(const void *a, const void *b)
{
	const struct u64map_slot *x = *(const struct u64map_slot *const *)a;
	const struct u64map_slot *y = *(const struct u64map_slot *const *)b;

	return x->key < y->key ? -1 : x->key > y->key;
}

struct u64map_slot **
u64map_sorted(const struct u64map *m)
{
	struct u64map_slot **v;
	size_t i, n = 0;

	if (!m->n)
		return NULL;
	v = malloc(m->n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].used)
			v[n++] = &m->slots[i];
	qsort(v, n, sizeof(*v), cmp_slot);
	return v;
}
