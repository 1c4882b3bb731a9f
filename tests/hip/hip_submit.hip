/* SPDX-License-Identifier: MIT */
/*
 * Submission capture's workload: four streams, 200 kernel
 * launches (50 per stream, each stream with its own grid and work-group
 * size, so a decoder can tell them apart), a cross-stream wait every 10
 * launches (stream i waits on the event stream i-1 recorded: a barrier
 * packet on one queue naming another queue's signal), and a 1 MiB
 * hipMemcpy each way (SDMA copies). Prints the counts a test checks.
 */
#include "hip_check.h"

#define NSTREAM 4
#define PER_STREAM 50
#define WAIT_EVERY 10
#define COPY_BYTES (1 << 20)

__global__ void
bump(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i]++;
}

int
main(void)
{
	hipStream_t s[NSTREAM];
	hipEvent_t ev[NSTREAM];
	int *x[NSTREAM], *dev;
	unsigned char *host;
	unsigned int waits = 0;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	for (int i = 0; i < NSTREAM; i++) {
		HIP_CHECK(hipStreamCreate(&s[i]));
		HIP_CHECK(hipEventCreateWithFlags(&ev[i], hipEventDisableTiming));
		HIP_CHECK(hipMalloc(&x[i], 65536 * sizeof(int)));
	}
	for (int k = 0; k < PER_STREAM; k++) {
		for (int i = 0; i < NSTREAM; i++) {
			/* Stream i: work-groups of 64 << i, grid 4096 << i. */
			int wg = 64 << i, grid = 4096 << i;

			if (k % WAIT_EVERY == WAIT_EVERY - 1) {
				int from = (i + NSTREAM - 1) % NSTREAM;

				HIP_CHECK(hipEventRecord(ev[from], s[from]));
				HIP_CHECK(hipStreamWaitEvent(s[i], ev[from], 0));
				waits++;
			}
			hipLaunchKernelGGL(bump, dim3(grid / wg), dim3(wg), 0, s[i],
					   x[i], grid);
			HIP_CHECK(hipGetLastError());
		}
	}
	for (int i = 0; i < NSTREAM; i++)
		HIP_CHECK(hipStreamSynchronize(s[i]));
	host = (unsigned char *)malloc(COPY_BYTES);
	if (!host)
		HIP_FAIL("no memory");
	memset(host, 0x5a, COPY_BYTES);
	HIP_CHECK(hipMalloc(&dev, COPY_BYTES));
	HIP_CHECK(hipMemcpy(dev, host, COPY_BYTES, hipMemcpyHostToDevice));
	memset(host, 0, COPY_BYTES);
	HIP_CHECK(hipMemcpy(host, dev, COPY_BYTES, hipMemcpyDeviceToHost));
	if (host[0] != 0x5a || host[COPY_BYTES - 1] != 0x5a)
		HIP_FAIL("the copies did not move the bytes");
	for (int i = 0; i < NSTREAM; i++) {
		HIP_CHECK(hipFree(x[i]));
		HIP_CHECK(hipEventDestroy(ev[i]));
		HIP_CHECK(hipStreamDestroy(s[i]));
	}
	HIP_CHECK(hipFree(dev));
	free(host);
	printf("launches: %d on %d streams, cross-stream waits: %u, copies: 2 of %d bytes\n",
	       NSTREAM * PER_STREAM, NSTREAM, waits, COPY_BYTES);
	printf("PASS: hip_submit\n");
	return 0;
}
