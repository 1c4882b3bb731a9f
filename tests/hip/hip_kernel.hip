/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches: a vector add dispatched 16 times, then
 * hipDeviceSynchronize. kfdsim completes dispatches without running the
 * shader, so this checks that the launches complete, not what they
 * computed.
 */
#include "hip_check.h"

#define N (1 << 16)
#define LAUNCHES 16

__global__ void
vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

int
main(void)
{
	float *a, *b, *c;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&a, N * sizeof(float)));
	HIP_CHECK(hipMalloc(&b, N * sizeof(float)));
	HIP_CHECK(hipMalloc(&c, N * sizeof(float)));
	for (int i = 0; i < LAUNCHES; i++) {
		hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, 0,
				   a, b, c, N);
		HIP_CHECK(hipGetLastError());
	}
	printf("launched vadd %d times (%d threads each)\n", LAUNCHES, N);
	HIP_CHECK(hipDeviceSynchronize());
	printf("hipDeviceSynchronize returned\n");
	HIP_CHECK(hipFree(a));
	HIP_CHECK(hipFree(b));
	HIP_CHECK(hipFree(c));
	printf("PASS: hip_kernel\n");
	return 0;
}
