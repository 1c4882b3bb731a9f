/* SPDX-License-Identifier: MIT */
/*
 * A HIP process for monitoring tests (tests/kfdsim/run_rocm_smi.sh), as
 * tests/kfdsim/vram_steps.c is on libhsakmt: it starts HIP on the first
 * GPU, then at every line it reads on stdin allocates another STEP_MIB
 * MiB of VRAM with hipMalloc, and answers on stdout:
 *
 *	ready <pid>
 *	step <n> <bytes of VRAM allocated so far>
 *	...
 *	done
 *
 * At end of input it frees everything and exits 0.
 *
 *	hip_vram_steps STEP_MIB MAX_STEPS
 */
#include "hip_check.h"

#include <unistd.h>

#define MAX_ALLOCS 64

int
main(int argc, char **argv)
{
	void *allocs[MAX_ALLOCS], *warm;
	unsigned int max_steps, n = 0;
	unsigned long long total = 0;
	size_t step;
	char line[64];

	if (argc != 3 || atoi(argv[1]) <= 0 || atoi(argv[2]) <= 0 ||
	    atoi(argv[2]) > MAX_ALLOCS) {
		fprintf(stderr, "usage: hip_vram_steps STEP_MIB MAX_STEPS (at most %d)\n",
			MAX_ALLOCS);
		return 2;
	}
	step = (size_t)atoi(argv[1]) << 20;
	max_steps = (unsigned int)atoi(argv[2]);

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	/*
	 * HIP creates its queues and device memory at the first operation,
	 * not at start: without one before "ready", rocm-smi would list the
	 * process on no GPU and with no VRAM in use.
	 */
	HIP_CHECK(hipMalloc(&warm, 4096));
	HIP_CHECK(hipMemset(warm, 0, 4096));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipFree(warm));
	printf("ready %d\n", (int)getpid());

	while (fgets(line, sizeof(line), stdin)) {
		if (n == max_steps)
			HIP_FAIL("more than %u steps", max_steps);
		HIP_CHECK(hipMalloc(&allocs[n], step));
		total += step;
		n++;
		printf("step %u %llu\n", n, total);
	}

	while (n)
		HIP_CHECK(hipFree(allocs[--n]));
	printf("done\n");
	return 0;
}
