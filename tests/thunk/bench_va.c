/* SPDX-License-Identifier: MIT */
/*
 * Speed of the VA allocator with many live ranges: 200000 allocations of
 * mixed sizes and alignments in a 128 TiB range, half of them freed in
 * random order (fragmenting it), then as many again. With O(log n)
 * operations this takes well under a second; a list-based allocator
 * would take minutes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "memory/va.h"
#include "tc_host.h"

#define N	200000

int
main(void)
{
	static uint64_t addr[N], size[N];
	struct kmt_va va;
	struct timespec t0, t1;
	unsigned int i;

	tc_host_costs();
	if (kmt_va_init(&va, 1ULL << 21, (1ULL << 47) - 1))
		return 1;
	srand(7);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < N; i++) {
		size[i] = (uint64_t)(rand() % 64 + 1) << 12;
		if (kmt_va_alloc(&va, size[i], 4096ULL << (rand() % 6), 0, &addr[i]))
			return 2;
	}
	for (i = 0; i < N; i += 2)
		if (kmt_va_release(&va, addr[i], size[i]))
			return 3;
	for (i = 0; i < N; i += 2)
		if (kmt_va_alloc(&va, size[i], 4096, 0, &addr[i]))
			return 4;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%u VA operations in %.3f s\n", N * 2,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	kmt_va_fini(&va);
	return 0;
}
