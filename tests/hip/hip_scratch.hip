/* SPDX-License-Identifier: MIT */
/*
 * Private (scratch) memory: a kernel with a dynamically indexed private
 * array, and a recursive function the compiler cannot inline, whose frames
 * live in scratch. Every work-item's results are checked, so the test
 * fails if lanes or waves share scratch, or if it does not hold stores.
 */
#include "hip_check.h"

#define N	1024
#define LOCAL	64

__device__ __attribute__((noinline)) unsigned int
walk(unsigned int depth, unsigned int x)
{
	volatile unsigned int frame[4];

	frame[depth & 3] = x * 3u + depth;
	if (!depth)
		return frame[0];
	return walk(depth - 1, frame[depth & 3] ^ depth) + frame[depth & 3];
}

static unsigned int
walk_host(unsigned int depth, unsigned int x)
{
	unsigned int f = x * 3u + depth;

	if (!depth)
		return f;
	return walk_host(depth - 1, f ^ depth) + f;
}

__global__ void
privates(const unsigned int *idx, unsigned int *out)
{
	unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int a[LOCAL];

	for (unsigned int k = 0; k < LOCAL; k++)
		a[k] = t * 131u + k;
	/* indices known only at run time: the array stays in scratch */
	for (unsigned int k = 0; k < 8; k++)
		a[idx[(t + k) % N] % LOCAL] += k;
	out[t] = a[idx[t] % LOCAL] + walk(t % 7 + 3, t);
}

int
main(void)
{
	static unsigned int hidx[N], hout[N];
	unsigned int *idx, *out;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	for (unsigned int t = 0; t < N; t++)
		hidx[t] = (t * 2654435761u) >> 7;
	HIP_CHECK(hipMalloc(&idx, sizeof(hidx)));
	HIP_CHECK(hipMalloc(&out, sizeof(hout)));
	HIP_CHECK(hipMemcpy(idx, hidx, sizeof(hidx), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(privates, dim3(N / 256), dim3(256), 0, 0, idx, out);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(hout, out, sizeof(hout), hipMemcpyDeviceToHost));
	for (unsigned int t = 0; t < N; t++) {
		unsigned int a[LOCAL], want;

		for (unsigned int k = 0; k < LOCAL; k++)
			a[k] = t * 131u + k;
		for (unsigned int k = 0; k < 8; k++)
			a[hidx[(t + k) % N] % LOCAL] += k;
		want = a[hidx[t] % LOCAL] + walk_host(t % 7 + 3, t);
		if (hout[t] != want)
			HIP_FAIL("out[%u] = %u, not %u", t, hout[t], want);
	}
	printf("all %d work-items' private results are right\n", N);
	HIP_CHECK(hipFree(idx));
	HIP_CHECK(hipFree(out));
	printf("PASS: hip_scratch\n");
	return 0;
}
