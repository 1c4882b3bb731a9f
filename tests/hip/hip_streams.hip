/* SPDX-License-Identifier: MIT */
/*
 * Four streams with events: each stream records a start event, runs a
 * kernel and records an end event; stream i+1 waits on stream i's end
 * event (hipStreamWaitEvent, a barrier packet across queues). Then
 * hipEventSynchronize and hipEventElapsedTime on each. Kernel results are
 * not checked (kfdsim does not run shaders).
 */
#include "hip_check.h"

#define NSTREAM 4
#define N 4096

__global__ void
scale(float *x, float f, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] *= f;
}

int
main(void)
{
	hipStream_t s[NSTREAM];
	hipEvent_t start[NSTREAM], end[NSTREAM];
	float *x[NSTREAM];

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	for (int i = 0; i < NSTREAM; i++) {
		HIP_CHECK(hipStreamCreate(&s[i]));
		HIP_CHECK(hipEventCreate(&start[i]));
		HIP_CHECK(hipEventCreate(&end[i]));
		HIP_CHECK(hipMalloc(&x[i], N * sizeof(float)));
	}
	for (int i = 0; i < NSTREAM; i++) {
		if (i > 0)
			HIP_CHECK(hipStreamWaitEvent(s[i], end[i - 1], 0));
		HIP_CHECK(hipEventRecord(start[i], s[i]));
		hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, s[i],
				   x[i], 2.0f, N);
		HIP_CHECK(hipGetLastError());
		HIP_CHECK(hipEventRecord(end[i], s[i]));
	}
	printf("queued work on %d streams, each waiting on the previous\n",
	       NSTREAM);
	for (int i = 0; i < NSTREAM; i++) {
		float ms = -1;

		HIP_CHECK(hipEventSynchronize(end[i]));
		HIP_CHECK(hipEventElapsedTime(&ms, start[i], end[i]));
		printf("stream %d: %.3f ms\n", i, ms);
		if (ms < 0)
			HIP_FAIL("stream %d: elapsed time %f ms", i, ms);
		HIP_CHECK(hipEventQuery(end[i]));
	}
	for (int i = 0; i < NSTREAM; i++) {
		HIP_CHECK(hipStreamSynchronize(s[i]));
		HIP_CHECK(hipFree(x[i]));
		HIP_CHECK(hipEventDestroy(start[i]));
		HIP_CHECK(hipEventDestroy(end[i]));
		HIP_CHECK(hipStreamDestroy(s[i]));
	}
	printf("PASS: hip_streams\n");
	return 0;
}
