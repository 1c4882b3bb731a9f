/* SPDX-License-Identifier: MIT */
/*
 * A KFD process for monitoring tests (run_rocm_smi.sh): through libhsakmt
 * it opens the device, creates an SDMA queue on the first GPU, then at
 * every line it reads on stdin allocates another STEP_MIB MiB of VRAM
 * there, and answers on stdout:
 *
 *	ready <pid>
 *	step <n> <bytes of VRAM allocated so far>
 *	...
 *	done
 *
 * At end of input it frees everything and exits 0. The test runs a
 * monitoring tool between the steps, in the same simulated machine.
 *
 *	vram_steps STEP_MIB MAX_STEPS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hsakmt.h>

#define MAX_ALLOCS 64

static void __attribute__((noreturn))
die(const char *what, HSAKMT_STATUS st)
{
	fprintf(stderr, "vram_steps: %s: status %d\n", what, (int)st);
	exit(1);
}

int
main(int argc, char **argv)
{
	HsaSystemProperties sys;
	HsaNodeProperties props;
	HsaQueueResource res;
	HsaMemFlags flags = { 0 };
	HSAuint32 gpu = 0;
	HSAuint64 step, va, total = 0;
	void *allocs[MAX_ALLOCS], *ring = NULL, *ptrs = NULL;
	unsigned int max_steps, n = 0;
	HSAKMT_STATUS st;
	char line[64];
	int found = 0;

	if (argc != 3 || atoi(argv[1]) <= 0 || atoi(argv[2]) <= 0 ||
	    atoi(argv[2]) > MAX_ALLOCS) {
		fprintf(stderr, "usage: vram_steps STEP_MIB MAX_STEPS (at most %d)\n",
			MAX_ALLOCS);
		return 2;
	}
	step = (HSAuint64)atoi(argv[1]) << 20;
	max_steps = (unsigned int)atoi(argv[2]);

	if ((st = hsaKmtOpenKFD()) != HSAKMT_STATUS_SUCCESS)
		die("hsaKmtOpenKFD", st);
	if ((st = hsaKmtAcquireSystemProperties(&sys)) != HSAKMT_STATUS_SUCCESS)
		die("hsaKmtAcquireSystemProperties", st);
	for (HSAuint32 i = 0; i < sys.NumNodes && !found; i++) {
		if (hsaKmtGetNodeProperties(i, &props) == HSAKMT_STATUS_SUCCESS &&
		    props.NumFComputeCores) {
			gpu = i;
			found = 1;
		}
	}
	if (!found)
		die("no GPU node", HSAKMT_STATUS_ERROR);

	/* an SDMA queue: its ring and pointers in system memory */
	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	if ((st = hsaKmtAllocMemory(0, 64 << 10, flags, &ring)) != HSAKMT_STATUS_SUCCESS ||
	    (st = hsaKmtMapMemoryToGPUNodes(ring, 64 << 10, &va, (HsaMemMapFlags){ 0 }, 1,
					    &gpu)) != HSAKMT_STATUS_SUCCESS ||
	    (st = hsaKmtAllocMemory(0, 4096, flags, &ptrs)) != HSAKMT_STATUS_SUCCESS ||
	    (st = hsaKmtMapMemoryToGPUNodes(ptrs, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
					    &gpu)) != HSAKMT_STATUS_SUCCESS)
		die("queue memory", st);
	memset(ptrs, 0, 4096);
	memset(&res, 0, sizeof(res));
	if ((st = hsaKmtCreateQueue(gpu, HSA_QUEUE_SDMA, 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
				    64 << 10, NULL, &res)) != HSAKMT_STATUS_SUCCESS)
		die("hsaKmtCreateQueue", st);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);

	memset(&flags, 0, sizeof(flags));
	flags.ui32.NonPaged = 1;
	flags.ui32.NoSubstitute = 1;
	while (fgets(line, sizeof(line), stdin)) {
		if (n == max_steps)
			die("too many steps", HSAKMT_STATUS_ERROR);
		if ((st = hsaKmtAllocMemory(gpu, step, flags, &allocs[n])) != HSAKMT_STATUS_SUCCESS)
			die("hsaKmtAllocMemory", st);
		total += step;
		n++;
		printf("step %u %llu\n", n, (unsigned long long)total);
		fflush(stdout);
	}

	while (n)
		if ((st = hsaKmtFreeMemory(allocs[--n], step)) != HSAKMT_STATUS_SUCCESS)
			die("hsaKmtFreeMemory", st);
	if ((st = hsaKmtDestroyQueue(res.QueueId)) != HSAKMT_STATUS_SUCCESS)
		die("hsaKmtDestroyQueue", st);
	hsaKmtUnmapMemoryToGPU(ring);
	hsaKmtFreeMemory(ring, 64 << 10);
	hsaKmtUnmapMemoryToGPU(ptrs);
	hsaKmtFreeMemory(ptrs, 4096);
	if ((st = hsaKmtCloseKFD()) != HSAKMT_STATUS_SUCCESS)
		die("hsaKmtCloseKFD", st);
	printf("done\n");
	return 0;
}
