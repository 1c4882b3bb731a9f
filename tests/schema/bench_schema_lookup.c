/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: the recorder resolves every ioctl through kfd_schema_lookup()
 * and reads a few fields; both must stay in the nanoseconds.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/drm_abi.h"
#include "tc_host.h"

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int
main(void)
{
	static const unsigned long reqs[] = {
		KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, KFD_ABI_IOC_MAP_MEMORY_TO_GPU,
		KFD_ABI_IOC_WAIT_EVENTS, KFD_ABI_IOC_CREATE_QUEUE,
		KFD_ABI_IOC_SVM_NATTR(4), 0x4B3B, KFD_ABI_IOC_DBG_TRAP_OLD,
		KFD_ABI_IOC_GET_VERSION,
	};
	struct kfd_abi_map_memory_to_gpu_args a = {
		.handle = 1, .device_ids_array_ptr = 0x1000, .n_devices = 2,
	};
	const struct kfd_ioctl_desc *map = kfd_schema_lookup(KFD_FILE_KFD, reqs[1]);
	const unsigned long n = 20000000;
	unsigned long i, hits = 0;
	size_t len, total = 0;
	double t0, t1, t2;

	tc_host_costs();
	if (!map)
		return 1;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		hits += kfd_schema_lookup(KFD_FILE_KFD, reqs[i & 7]) != NULL;
	t1 = now_ns();
	for (i = 0; i < n; i++) {
		a.n_devices = (uint32_t)(i & 7) + 1;
		if (kfd_indirect_len(map, &map->bufs[0], &a, sizeof(a), 0, 4096, &len) == 0)
			total += len;
	}
	t2 = now_ns();
	printf("kfd_schema_lookup: %.2f ns/call (%lu hits)\n", (t1 - t0) / n, hits);
	printf("kfd_indirect_len: %.2f ns/call (%zu bytes)\n", (t2 - t1) / n, total);
	return hits == n / 8 * 7 ? 0 : 1;
}
