/* SPDX-License-Identifier: MIT */
/*
 * A hash map from 64-bit keys to small fixed-size values, for tracking
 * live objects (BO handles, queue ids, event ids) while reading a trace.
 */
#ifndef KFDTRACE_U64MAP_H
#define KFDTRACE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/* What is known about one live object. */
struct u64map_val {
	uint64_t seq;		/* record that created it */
	uint64_t size;		/* bytes (BOs) */
	uint32_t gpu_id;
	uint32_t kind;		/* heap index (BOs), event type (events) */
};

struct u64map_slot {
	uint64_t key;
	struct u64map_val val;
	int used;
};

struct u64map {
	struct u64map_slot *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/* u64map_init() - an empty map. */
void u64map_init(struct u64map *m);

/* u64map_free() - release the map's memory. */
void u64map_free(struct u64map *m);

/*
 * u64map_put() - insert or overwrite @key.
 *
 * Return: 0, or -1 when memory ran out.
 */
int u64map_put(struct u64map *m, uint64_t key, const struct u64map_val *val);

/* u64map_get() - the value of @key, or NULL. */
struct u64map_val *u64map_get(struct u64map *m, uint64_t key);

/* u64map_del() - remove @key into @out (may be NULL). Return: 1 if found. */
int u64map_del(struct u64map *m, uint64_t key, struct u64map_val *out);

/*
 * u64map_sorted() - the used slots sorted by key (free() the array).
 *
 * Return: the array of m->n pointers, or NULL when empty or out of memory.
 */
struct u64map_slot **u64map_sorted(const struct u64map *m);

#endif /* KFDTRACE_U64MAP_H */
