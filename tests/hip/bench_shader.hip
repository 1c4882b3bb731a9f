/* SPDX-License-Identifier: MIT */
/*
 * The shader interpreter's speed (the benchmark hip-shader, mi210): a
 * VALU-heavy kernel, eight dependent FMA chains per work-item, run once
 * to warm up and then timed. It prints the lane FMAs per second and the
 * VALU lane-instructions per second they take (clang 15 packs two FMAs
 * in each v_pk_fma_f32: the loop is 4 of them and 3 scalar
 * instructions), with the host's system call and rdtsc cost beside them,
 * and checks one work-item's result against the host's.
 */
#include "hip_check.h"

#include <math.h>

#include "tc_host.h"

#define GROUPS	64
#define BLOCK	256
#define ITERS	256
#define CHAINS	8

__global__ void
fma_chains(float *out, int iters)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v[CHAINS];

	for (int k = 0; k < CHAINS; k++)
		v[k] = (float)(i + k) * 0.001f;
	for (int n = 0; n < iters; n++)
#pragma unroll
		for (int k = 0; k < CHAINS; k++)
			v[k] = fmaf(v[k], 0.999f, 0.001f * (float)k);
	float s = 0;
	for (int k = 0; k < CHAINS; k++)
		s += v[k];
	out[i] = s;
}

static float
host_chains(unsigned int i, int iters)
{
	float v[CHAINS], s = 0;

	for (int k = 0; k < CHAINS; k++)
		v[k] = (float)(i + k) * 0.001f;
	for (int n = 0; n < iters; n++)
		for (int k = 0; k < CHAINS; k++)
			v[k] = fmaf(v[k], 0.999f, 0.001f * (float)k);
	for (int k = 0; k < CHAINS; k++)
		s += v[k];
	return s;
}

int
main(void)
{
	double t0, secs, ops;
	float *out, host[GROUPS * BLOCK], want;

	hip_start();
	tc_host_costs();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&out, sizeof(host)));
	hipLaunchKernelGGL(fma_chains, dim3(GROUPS), dim3(BLOCK), 0, 0, out, 1);
	HIP_CHECK(hipDeviceSynchronize());
	t0 = tc_host_now();
	hipLaunchKernelGGL(fma_chains, dim3(GROUPS), dim3(BLOCK), 0, 0, out, ITERS);
	HIP_CHECK(hipDeviceSynchronize());
	secs = tc_host_now() - t0;
	HIP_CHECK(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
	want = host_chains(1000, ITERS);
	if (fabsf(host[1000] - want) > 1e-3f * fabsf(want))
		HIP_FAIL("work-item 1000: %g, want %g", host[1000], want);
	ops = (double)GROUPS * BLOCK * ITERS * CHAINS;
	printf("lane_fma_per_s: %.3g (%d work-items x %d x %d FMAs in %.3f s, "
	       "launch and synchronize included)\n", ops / secs, GROUPS * BLOCK,
	       ITERS, CHAINS, secs);
	printf("valu_lane_instructions_per_s: %.3g (v_pk_fma_f32 lanes, 2 FMAs each)\n",
	       ops / 2 / secs);
	printf("ns_per_valu_lane_instruction: %.1f\n", secs * 1e9 / (ops / 2));
	HIP_CHECK(hipFree(out));
	printf("PASS: bench_shader\n");
	return 0;
}
