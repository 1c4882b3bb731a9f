/* SPDX-License-Identifier: MIT */
/*
 * Containers of the replayer: bounded growable arrays and an open-addressing
 * hash map keyed by (kind, scope, value).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay_priv.h"

void
rp_vec_init(struct rp_vec *v, size_t esz)
{
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
	v->esz = esz;
}

void
rp_vec_free(struct rp_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
}

void *
rp_vec_push(struct rp_vec *v)
{
	void *slot;

	if (v->n >= RP_MAX_OBJS)
		return NULL;
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 16;
		void *nd;

		if (ncap > RP_MAX_OBJS)
			ncap = RP_MAX_OBJS;
		nd = realloc(v->data, ncap * v->esz);
		if (!nd)
			return NULL;
		v->data = nd;
		v->cap = ncap;
	}
	slot = (char *)v->data + v->n * v->esz;
	memset(slot, 0, v->esz);
	v->n++;
	return slot;
}

/* ------------------------------------------------------------------ */

static inline uint64_t
map_hash(uint32_t ks, uint64_t key)
{
	uint64_t h = key ^ ((uint64_t)ks << 32 | ks);

	/* splitmix64 finaliser: handles and offsets differ in high bits. */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h;
}

static inline uint32_t
map_ks(unsigned int kind, unsigned int scope)
{
	return (uint32_t)kind << 24 | (scope & 0xffffff);
}

void
rp_map_free(struct rp_map *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = 0;
	m->used = 0;
	m->n = 0;
}

/*
 * Linear probing; deletion shifts the following entries back instead of
 * leaving tombstones, so a map that sees millions of create/destroy pairs
 * keeps short probe chains.
 */
static struct rp_map_slot *
map_find(const struct rp_map *m, uint32_t ks, uint64_t key)
{
	size_t mask, i;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = map_hash(ks, key) & mask;; i = (i + 1) & mask) {
		struct rp_map_slot *s = &m->s[i];

		if (!s->state)
			return NULL;
		if (s->ks == ks && s->key == key)
			return s;
	}
}

static int
map_grow(struct rp_map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 256;
	struct rp_map_slot *old = m->s, *ns;
	size_t ocap = m->cap, i;

	if (ncap > ((size_t)1 << 30))
		return -ENOMEM;
	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	m->s = ns;
	m->cap = ncap;
	for (i = 0; i < ocap; i++) {
		if (old[i].state) {
			size_t mask = ncap - 1, j;

			for (j = map_hash(old[i].ks, old[i].key) & mask;
			     ns[j].state; j = (j + 1) & mask)
				;
			ns[j] = old[i];
		}
	}
	free(old);
	return 0;
}

int
rp_map_put(struct rp_map *m, unsigned int kind, unsigned int scope,
	   uint64_t key, uint64_t val)
{
	uint32_t ks = map_ks(kind, scope);
	struct rp_map_slot *s = map_find(m, ks, key);
	size_t mask, i;

	if (s) {
		s->val = val;
		return 0;
	}
	if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0)
		return -ENOMEM;
	mask = m->cap - 1;
	for (i = map_hash(ks, key) & mask; m->s[i].state; i = (i + 1) & mask)
		;
	m->s[i].state = 1;
	m->s[i].ks = ks;
	m->s[i].key = key;
	m->s[i].val = val;
	m->n++;
	m->used = m->n;
	return 0;
}

int
rp_map_get(const struct rp_map *m, unsigned int kind, unsigned int scope,
	   uint64_t key, uint64_t *val)
{
	struct rp_map_slot *s = map_find(m, map_ks(kind, scope), key);

	if (!s)
		return 0;
	if (val)
		*val = s->val;
	return 1;
}

int
rp_map_del(struct rp_map *m, unsigned int kind, unsigned int scope,
	   uint64_t key)
{
	struct rp_map_slot *s = map_find(m, map_ks(kind, scope), key);
	size_t mask, i, j;

	if (!s)
		return 0;
	mask = m->cap - 1;
	i = (size_t)(s - m->s);
	/* Move back every entry whose home lies at or before the hole. */
	for (j = (i + 1) & mask; m->s[j].state; j = (j + 1) & mask) {
		size_t home = map_hash(m->s[j].ks, m->s[j].key) & mask;

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->s[i] = m->s[j];
			i = j;
		}
	}
	m->s[i].state = 0;
	m->n--;
	m->used = m->n;
	return 1;
}
