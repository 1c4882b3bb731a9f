/* SPDX-License-Identifier: MIT */
/*
 * The ranges whose unmap the kernel's KFD sees: device mappings (mmap()ed
 * from a KFD or render fd) and SVM ranges (given to SVM SET_ATTR; the
 * MMU notifier drops them when their pages go).
 *
 * munmap() takes no fd, so this is how we tell such an unmap (recorded)
 * from the allocator's (not recorded). The common case, no device
 * mapping at all, costs one relaxed load; otherwise a sorted array under
 * a lock (mappings number in the hundreds for a real ROCm process).
 */
#include "capture.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct kcap_range {
	uint64_t start, end;	/* [start, end) */
};

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kcap_range *maps;
static size_t maps_n, maps_cap;
static atomic_size_t maps_count;

/* Index of the first range whose end is above @addr. */
static size_t
maps_lower(uint64_t addr)
{
	size_t lo = 0, hi = maps_n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
maps_insert_at(size_t i, uint64_t start, uint64_t end)
{
	if (maps_n == maps_cap) {
		size_t cap = maps_cap ? maps_cap * 2 : 64;
		struct kcap_range *m = realloc(maps, cap * sizeof(*m));

		if (!m)
			return -1;
		maps = m;
		maps_cap = cap;
	}
	memmove(&maps[i + 1], &maps[i], (maps_n - i) * sizeof(*maps));
	maps[i].start = start;
	maps[i].end = end;
	maps_n++;
	return 0;
}

/* Cut [start, end) out of the set. Locked. Return: 1 if anything was cut. */
static int
maps_cut(uint64_t start, uint64_t end)
{
	size_t i = maps_lower(start);
	int hit = 0;

	while (i < maps_n && maps[i].start < end) {
		struct kcap_range r = maps[i];

		hit = 1;
		if (r.start < start && r.end > end) {
			/* A hole in the middle: split in two. */
			maps[i].end = start;
			if (maps_insert_at(i + 1, end, r.end))
				maps[i].end = r.end;	/* keep it whole */
			break;
		}
		if (r.start < start) {
			maps[i].end = start;
			i++;
		} else if (r.end > end) {
			maps[i].start = end;
			break;
		} else {
			memmove(&maps[i], &maps[i + 1],
				(maps_n - i - 1) * sizeof(*maps));
			maps_n--;
		}
	}
	return hit;
}

void
kcap_maps_add(uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len;

	if (!len || end < addr)
		return;
	pthread_mutex_lock(&maps_lock);
	/* MAP_FIXED over an old device mapping replaces it. */
	maps_cut(addr, end);
	maps_insert_at(maps_lower(addr), addr, end);
	atomic_store_explicit(&maps_count, maps_n, memory_order_relaxed);
	pthread_mutex_unlock(&maps_lock);
}

int
kcap_maps_remove(uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len;
	int hit;

	if (!atomic_load_explicit(&maps_count, memory_order_relaxed) || !len)
		return 0;
	if (end < addr)
		end = UINT64_MAX;
	pthread_mutex_lock(&maps_lock);
	hit = maps_cut(addr, end);
	atomic_store_explicit(&maps_count, maps_n, memory_order_relaxed);
	pthread_mutex_unlock(&maps_lock);
	return hit;
}

void
kcap_maps_reset(void)
{
	/* In a forked child: the lock may have been held by a thread that
	 * does not exist here. The ranges stay (mappings are inherited). */
	pthread_mutex_init(&maps_lock, NULL);
}
