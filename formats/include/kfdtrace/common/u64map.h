/* SPDX-License-Identifier: MIT */
/*
 * The one hash map from 64-bit keys to fixed-size values, for tracking live
 * objects (BO handles, queue and event ids, fds, mmap offsets) while reading
 * or replaying a trace. Every layer uses this one: the CLI's statistics,
 * report, diff and Perfetto export, the babeltrace2 plugin's allocations and
 * the replayer's id maps.
 *
 * A key is a uint64_t plus a uint32_t tag: entries with the same key and
 * different tags are different entries, so one map can hold several
 * namespaces (the replayer's (kind, scope) pairs); callers with one
 * namespace pass tag 0. Values are a size the caller picks at
 * kc_u64map_init() and are copied in and out.
 *
 * Open addressing with linear probing, load at most 1/2, and backward-shift
 * deletion: a delete moves the rest of its probe run back over the hole
 * instead of leaving a tombstone, so millions of create/destroy pairs keep
 * the table as short as the live entries need. Not thread-safe.
 */
#ifndef KFDTRACE_COMMON_U64MAP_H
#define KFDTRACE_COMMON_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/* One slot: the key, and the value's bytes (8-byte aligned) after it. */
struct kc_u64map_slot {
	uint64_t key;
	uint32_t tag;
	uint32_t used;		/* 0: empty */
	_Alignas(8) unsigned char val[];
};

struct kc_u64map {
	unsigned char *slots;	/* cap slots of stride bytes */
	size_t cap;		/* a power of two, or 0 before the first put */
	size_t n;		/* entries */
	size_t vsize;		/* value bytes */
	size_t stride;		/* slot bytes: the header and vsize, rounded to 8 */
};

/* The largest number of slots (entries are at most half of it). */
#define KC_U64MAP_MAX_SLOTS ((size_t)1 << 30)

/*
 * kc_u64map_init() - an empty map whose values are @vsize bytes (0 for a
 * set). Allocates nothing. A zeroed struct kc_u64map is an empty map of
 * uint64_t values, as after kc_u64map_init(m, 8).
 */
void kc_u64map_init(struct kc_u64map *m, size_t vsize);

/* kc_u64map_free() - release @m's memory; @m is empty and reusable after. */
void kc_u64map_free(struct kc_u64map *m);

/*
 * kc_u64map_put() - insert (@tag, @key) with the vsize bytes at @val (NULL:
 * zeros), or overwrite its value when present.
 *
 * Return: 0, or -ENOMEM when the table could not grow (@m is unchanged).
 */
int kc_u64map_put(struct kc_u64map *m, uint32_t tag, uint64_t key,
		  const void *val);

/*
 * kc_u64map_get() - the value of (@tag, @key), in place: the caller may
 * change it; it stays valid until the next put or del on @m.
 *
 * Return: a pointer to the value's vsize bytes, or NULL when absent.
 */
void *kc_u64map_get(const struct kc_u64map *m, uint32_t tag, uint64_t key);

/*
 * kc_u64map_del() - remove (@tag, @key), first copying its value to @out
 * (when @out is not NULL).
 *
 * Return: 1 if it was present, else 0.
 */
int kc_u64map_del(struct kc_u64map *m, uint32_t tag, uint64_t key, void *out);

/*
 * kc_u64map_put64() / kc_u64map_get64() - kc_u64map_put() and a lookup for
 * a map whose values are one uint64_t (vsize 8), by value. get64 stores
 * the value in @val (when not NULL).
 *
 * Return: put64 as kc_u64map_put(); get64 1 if present, else 0.
 */
int kc_u64map_put64(struct kc_u64map *m, uint32_t tag, uint64_t key,
		    uint64_t val);
int kc_u64map_get64(const struct kc_u64map *m, uint32_t tag, uint64_t key,
		    uint64_t *val);

/*
 * kc_u64map_next() - iterate: the first used slot at or after *@pos, with
 * *@pos moved past it; start with *@pos = 0. The order is the table's, not
 * the keys'. A put or del during the walk may skip or repeat entries.
 *
 * Return: the slot, or NULL after the last.
 */
struct kc_u64map_slot *kc_u64map_next(const struct kc_u64map *m, size_t *pos);

/*
 * kc_u64map_sorted() - the used slots ordered by key, then tag; free() the
 * array. The pointers stay valid until the next put or del.
 *
 * Return: an array of m->n slot pointers, or NULL when @m is empty or
 * memory ran out.
 */
struct kc_u64map_slot **kc_u64map_sorted(const struct kc_u64map *m);

#endif /* KFDTRACE_COMMON_U64MAP_H */
