/* SPDX-License-Identifier: MIT */
/*
 * The u64 map (kfdtrace/common/u64map.h): linear probing over one array of
 * slots, each the key, the tag, a used mark and the value, so a lookup
 * reads one cache line. Deletion shifts the rest of the probe run back
 * instead of leaving tombstones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/u64map.h>

#define HDR_SIZE offsetof(struct kc_u64map_slot, val)

/*
 * splitmix64's finaliser over the key with the tag folded into both
 * halves: handles and mmap offsets differ only in their high bits, and the
 * same id under two tags must not share a home slot.
 */
static inline uint64_t
hash(uint32_t tag, uint64_t key)
{
	uint64_t h = key ^ ((uint64_t)tag << 32 | tag);

	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h;
}

static inline struct kc_u64map_slot *
slot_at(const struct kc_u64map *m, size_t i)
{
	return (struct kc_u64map_slot *)(m->slots + i * m->stride);
}

void
kc_u64map_init(struct kc_u64map *m, size_t vsize)
{
	m->slots = NULL;
	m->cap = 0;
	m->n = 0;
	m->vsize = vsize;
	m->stride = HDR_SIZE + ((vsize + 7) & ~(size_t)7);
}

void
kc_u64map_free(struct kc_u64map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = 0;
	m->n = 0;
}

/* A zeroed map is a map of uint64_t values (the header says so). */
static inline void
settle(struct kc_u64map *m)
{
	if (!m->stride)
		kc_u64map_init(m, sizeof(uint64_t));
}

/*
 * The slot holding (@tag, @key), or the empty slot that ends its probe run
 * (where it would go); @found says which. The table must not be empty.
 */
static inline struct kc_u64map_slot *
probe(const struct kc_u64map *m, uint32_t tag, uint64_t key, int *found)
{
	size_t mask = m->cap - 1, i;

	for (i = hash(tag, key) & mask;; i = (i + 1) & mask) {
		struct kc_u64map_slot *s = slot_at(m, i);

		if (!s->used) {
			*found = 0;
			return s;
		}
		if (s->key == key && s->tag == tag) {
			*found = 1;
			return s;
		}
	}
}

static inline struct kc_u64map_slot *
find(const struct kc_u64map *m, uint32_t tag, uint64_t key)
{
	struct kc_u64map_slot *s;
	int found;

	if (!m->n)
		return NULL;
	s = probe(m, tag, key, &found);
	return found ? s : NULL;
}

static int
grow(struct kc_u64map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64, i;
	struct kc_u64map old = *m;
	unsigned char *ns;

	if (ncap > KC_U64MAP_MAX_SLOTS || ncap > SIZE_MAX / m->stride)
		return -ENOMEM;
	ns = calloc(ncap, m->stride);
	if (!ns)
		return -ENOMEM;
	m->slots = ns;
	m->cap = ncap;
	for (i = 0; i < old.cap; i++) {
		struct kc_u64map_slot *s = slot_at(&old, i), *d;
		int found;

		if (!s->used)
			continue;
		d = probe(m, s->tag, s->key, &found);
		memcpy(d, s, m->stride);
	}
	free(old.slots);
	return 0;
}

/*
 * The slot of (@tag, @key), a new one when absent (the table grown first
 * when one more entry would make it over half full), or NULL when it
 * could not grow.
 */
static struct kc_u64map_slot *
upsert(struct kc_u64map *m, uint32_t tag, uint64_t key)
{
	struct kc_u64map_slot *s = NULL;
	int found;

	settle(m);
	if (m->cap) {
		s = probe(m, tag, key, &found);
		if (found)
			return s;
	}
	if ((m->n + 1) * 2 > m->cap) {
		if (grow(m))
			return NULL;
		s = probe(m, tag, key, &found);
	}
	s->used = 1;
	s->tag = tag;
	s->key = key;
	m->n++;
	return s;
}

int
kc_u64map_put(struct kc_u64map *m, uint32_t tag, uint64_t key,
	      const void *val)
{
	struct kc_u64map_slot *s = upsert(m, tag, key);

	if (!s)
		return -ENOMEM;
	if (val)
		memcpy(s->val, val, m->vsize);
	else
		memset(s->val, 0, m->vsize);
	return 0;
}

int
kc_u64map_put64(struct kc_u64map *m, uint32_t tag, uint64_t key,
		uint64_t val)
{
	return kc_u64map_put(m, tag, key, &val);
}

void *
kc_u64map_get(const struct kc_u64map *m, uint32_t tag, uint64_t key)
{
	struct kc_u64map_slot *s = find(m, tag, key);

	return s ? s->val : NULL;
}

int
kc_u64map_get64(const struct kc_u64map *m, uint32_t tag, uint64_t key,
		uint64_t *val)
{
	const void *v = kc_u64map_get(m, tag, key);

	if (!v)
		return 0;
	if (val)
		memcpy(val, v, sizeof(*val));
	return 1;
}

int
kc_u64map_del(struct kc_u64map *m, uint32_t tag, uint64_t key, void *out)
{
	struct kc_u64map_slot *s = find(m, tag, key), *t;
	size_t mask, i, j;

	if (!s)
		return 0;
	if (out)
		memcpy(out, s->val, m->vsize);
	mask = m->cap - 1;
	i = (size_t)((unsigned char *)s - m->slots) / m->stride;
	/*
	 * Move back every later member of the run whose home lies at or
	 * before the hole (cyclically), so no lookup meets a gap before it.
	 */
	for (j = (i + 1) & mask; (t = slot_at(m, j))->used; j = (j + 1) & mask) {
		size_t home = hash(t->tag, t->key) & mask;

		if (((j - home) & mask) >= ((j - i) & mask)) {
			memcpy(slot_at(m, i), t, m->stride);
			i = j;
		}
	}
	slot_at(m, i)->used = 0;
	m->n--;
	return 1;
}

struct kc_u64map_slot *
kc_u64map_next(const struct kc_u64map *m, size_t *pos)
{
	for (; *pos < m->cap; (*pos)++) {
		struct kc_u64map_slot *s = slot_at(m, *pos);

		if (s->used) {
			(*pos)++;
			return s;
		}
	}
	return NULL;
}

static int
cmp_slot(const void *a, const void *b)
{
	const struct kc_u64map_slot *x = *(const struct kc_u64map_slot *const *)a;
	const struct kc_u64map_slot *y = *(const struct kc_u64map_slot *const *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

struct kc_u64map_slot **
kc_u64map_sorted(const struct kc_u64map *m)
{
	struct kc_u64map_slot **v, *s;
	size_t n = 0, pos = 0;

	if (!m->n)
		return NULL;
	v = malloc(m->n * sizeof(*v));
	if (!v)
		return NULL;
	while ((s = kc_u64map_next(m, &pos)))
		v[n++] = s;
	qsort(v, n, sizeof(*v), cmp_slot);
	return v;
}
