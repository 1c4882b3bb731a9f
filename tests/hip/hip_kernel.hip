/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches: a vector add dispatched 16 times, then
 * hipDeviceSynchronize. With the argument "check" (the profiles whose
 * family kfdsim interprets: gfx90a) the inputs are copied in, the result
 * is copied back and every element must be a + b, so the test fails if the
 * shader did not run. Without it, only that the launches complete.
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
main(int argc, char **argv)
{
	int check = argc > 1 && !strcmp(argv[1], "check");
	static float ha[N], hb[N], hc[N];
	float *a, *b, *c;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&a, N * sizeof(float)));
	HIP_CHECK(hipMalloc(&b, N * sizeof(float)));
	HIP_CHECK(hipMalloc(&c, N * sizeof(float)));
	for (int i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 0.5f * (float)(N - i);
		hc[i] = -1.0f;
	}
	HIP_CHECK(hipMemcpy(a, ha, sizeof(ha), hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpy(b, hb, sizeof(hb), hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpy(c, hc, sizeof(hc), hipMemcpyHostToDevice));
	for (int i = 0; i < LAUNCHES; i++) {
		hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, 0,
				   a, b, c, N);
		HIP_CHECK(hipGetLastError());
	}
	printf("launched vadd %d times (%d threads each)\n", LAUNCHES, N);
	HIP_CHECK(hipDeviceSynchronize());
	printf("hipDeviceSynchronize returned\n");
	if (check) {
		HIP_CHECK(hipMemcpy(hc, c, sizeof(hc), hipMemcpyDeviceToHost));
		for (int i = 0; i < N; i++)
			if (hc[i] != ha[i] + hb[i])
				HIP_FAIL("c[%d] = %g, not %g + %g", i, hc[i], ha[i], hb[i]);
		printf("c = a + b in all %d elements\n", N);
	}
	HIP_CHECK(hipFree(a));
	HIP_CHECK(hipFree(b));
	HIP_CHECK(hipFree(c));
	printf("PASS: hip_kernel\n");
	return 0;
}
