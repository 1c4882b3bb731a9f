/* SPDX-License-Identifier: MIT */
/*
 * A reduction through LDS: each work-group of 256 (four waves) sums its
 * part of the input in shared memory, halving with a __syncthreads()
 * barrier between steps, and adds its sum to the total with atomicAdd.
 * The host checks the total and each work-group's partial sum, so the
 * test fails if the shader did not run, if a barrier let a wave read LDS
 * before another wrote it, or if an atomic lost an update. Run where
 * kfdsim interprets the family's shaders (gfx90a).
 */
#include "hip_check.h"

#define N (1 << 18)
#define BLOCK 256

__global__ void
reduce(const unsigned int *in, unsigned int *partial, unsigned int *total,
       unsigned int n)
{
	__shared__ unsigned int part[BLOCK];
	unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;

	part[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (t < s)
			part[t] += part[t + s];
		__syncthreads();
	}
	if (t == 0) {
		partial[blockIdx.x] = part[0];
		atomicAdd(total, part[0]);
	}
}

int
main(void)
{
	static unsigned int hin[N], hpart[N / BLOCK];
	unsigned int *in, *part, *total, htotal = 0, want = 0;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	for (unsigned int i = 0; i < N; i++) {
		hin[i] = (i * 2654435761u) >> 20;
		want += hin[i];
	}
	HIP_CHECK(hipMalloc(&in, sizeof(hin)));
	HIP_CHECK(hipMalloc(&part, sizeof(hpart)));
	HIP_CHECK(hipMalloc(&total, sizeof(*total)));
	HIP_CHECK(hipMemcpy(in, hin, sizeof(hin), hipMemcpyHostToDevice));
	HIP_CHECK(hipMemset(total, 0, sizeof(*total)));
	HIP_CHECK(hipMemset(part, 0xff, sizeof(hpart)));
	hipLaunchKernelGGL(reduce, dim3(N / BLOCK), dim3(BLOCK), 0, 0, in, part, total, N);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(hpart, part, sizeof(hpart), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(&htotal, total, sizeof(htotal), hipMemcpyDeviceToHost));
	for (unsigned int g = 0; g < N / BLOCK; g++) {
		unsigned int s = 0;

		for (unsigned int k = 0; k < BLOCK; k++)
			s += hin[g * BLOCK + k];
		if (hpart[g] != s)
			HIP_FAIL("work-group %u: partial sum %u, want %u", g, hpart[g], s);
	}
	printf("%u partial sums equal\n", N / BLOCK);
	if (htotal != want)
		HIP_FAIL("total %u, want %u", htotal, want);
	printf("total %u equal\n", htotal);
	HIP_CHECK(hipFree(in));
	HIP_CHECK(hipFree(part));
	HIP_CHECK(hipFree(total));
	printf("PASS: hip_reduce\n");
	return 0;
}
