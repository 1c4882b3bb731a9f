/* SPDX-License-Identifier: MIT */
/*
 * The shader interpreter's speed (the benchmark hip-shader, mi210): a
 * VALU-heavy kernel, eight dependent FMA chains per work-item, run once
 * to warm up and then timed. It prints the lane FMAs per second and the
 * VALU lane-instructions per second they take (clang 15 packs two FMAs
 * in each v_pk_fma_f32: the loop is 4 of them and 3 scalar
 * instructions), with the host's system call and rdtsc cost beside them,
 * and checks one work-item's result against the host's.
 *
 * Then a 1M-element vector add, a kernel of loads and a store: the time
 * of its launch and synchronize against the same loop in C on the host,
 * in this process (the best of a few runs each), and the results
 * compared. Under kfdsim both kernels also print the CPU time of the
 * engine threads, the cost a host busy with other work leaves alone.
 * Last, the CPU the process burns while the GPU sits idle: the engine
 * threads wait, they do not poll.
 */
#include "hip_check.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

#define VADD_N		(1 << 20)
#define VADD_RUNS	3

__global__ void
vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

static void
host_vadd(const float *a, const float *b, float *c, int n)
{
	for (int i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The CPU time, in s, of kfdsim's engine threads (kfdsim-cp, in this
 * process under kfdtrace sim), from their schedstat: what the kernels
 * cost, which a host loaded by other work does not inflate as it does
 * the wall time. -1 when there are none (a real GPU) or no schedstat.
 */
static double
engine_cpu(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	double sum = -1;

	if (!dir)
		return -1;
	while ((e = readdir(dir))) {
		char path[300], comm[32] = "";
		unsigned long long ns;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		if (strncmp(comm, "kfdsim-cp", 9))
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &ns) == 1)
			sum = (sum < 0 ? 0 : sum) + (double)ns / 1e9;
		fclose(f);
	}
	closedir(dir);
	return sum;
}

/* The vector add on the device and on the host: their best times. */
static void
bench_vadd(void)
{
	size_t bytes = sizeof(float) * VADD_N;
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
	float *c = (float *)malloc(bytes), *got = (float *)malloc(bytes);
	float *da, *db, *dc;
	double dev = 0, host = 0, eng = -1, t0, t, e0;

	if (!a || !b || !c || !got)
		HIP_FAIL("no memory for the vector add");
	for (int i = 0; i < VADD_N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(VADD_N - i) * 0.25f;
	}
	HIP_CHECK(hipMalloc(&da, bytes));
	HIP_CHECK(hipMalloc(&db, bytes));
	HIP_CHECK(hipMalloc(&dc, bytes));
	HIP_CHECK(hipMemcpy(da, a, bytes, hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpy(db, b, bytes, hipMemcpyHostToDevice));
	/* the first launch loads the code object: not timed */
	hipLaunchKernelGGL(vadd, dim3(VADD_N / BLOCK), dim3(BLOCK), 0, 0, da, db, dc, VADD_N);
	HIP_CHECK(hipDeviceSynchronize());
	for (int r = 0; r < VADD_RUNS; r++) {
		e0 = engine_cpu();
		t0 = tc_host_now();
		hipLaunchKernelGGL(vadd, dim3(VADD_N / BLOCK), dim3(BLOCK), 0, 0,
				   da, db, dc, VADD_N);
		HIP_CHECK(hipDeviceSynchronize());
		t = tc_host_now() - t0;
		if (!r || t < dev)
			dev = t;
		t = engine_cpu() - e0;
		if (e0 >= 0 && (eng < 0 || t < eng))
			eng = t;
		t0 = tc_host_now();
		host_vadd(a, b, c, VADD_N);
		t = tc_host_now() - t0;
		if (!r || t < host)
			host = t;
	}
	HIP_CHECK(hipMemcpy(got, dc, bytes, hipMemcpyDeviceToHost));
	for (int i = 0; i < VADD_N; i++)
		if (got[i] != c[i])
			HIP_FAIL("vadd element %d: %g, want %g", i, got[i], c[i]);
	printf("vadd_1m_kernel_s: %.6f (launch and synchronize, best of %d)\n", dev, VADD_RUNS);
	printf("vadd_1m_host_s: %.6f (the same loop in C, best of %d)\n", host, VADD_RUNS);
	printf("vadd_1m_kernel_vs_host: %.1f (times the host loop's time)\n", dev / host);
	if (eng >= 0)
		printf("vadd_1m_engine_cpu_s: %.6f (kfdsim's engine threads, best of %d)\n"
		       "vadd_1m_engine_vs_host: %.1f (times the host loop's time)\n",
		       eng, VADD_RUNS, eng / host);
	else
		printf("vadd_1m_engine_cpu_s: n/a (no kfdsim engine thread)\n");
	HIP_CHECK(hipFree(da));
	HIP_CHECK(hipFree(db));
	HIP_CHECK(hipFree(dc));
	free(a);
	free(b);
	free(c);
	free(got);
}

/* The process's CPU time over a second of wall time with the GPU idle. */
static void
bench_idle(void)
{
	struct timespec ts = { 1, 0 };
	double c0 = cpu_now(), t0 = tc_host_now();

	nanosleep(&ts, NULL);
	printf("idle_cpu_fraction: %.4f (process CPU time / wall time, GPU idle)\n",
	       (cpu_now() - c0) / (tc_host_now() - t0));
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
	double t0, secs, ops, e0, eng;
	float *out, host[GROUPS * BLOCK], want;

	hip_start();
	tc_host_costs();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&out, sizeof(host)));
	hipLaunchKernelGGL(fma_chains, dim3(GROUPS), dim3(BLOCK), 0, 0, out, 1);
	HIP_CHECK(hipDeviceSynchronize());
	e0 = engine_cpu();
	t0 = tc_host_now();
	hipLaunchKernelGGL(fma_chains, dim3(GROUPS), dim3(BLOCK), 0, 0, out, ITERS);
	HIP_CHECK(hipDeviceSynchronize());
	secs = tc_host_now() - t0;
	eng = engine_cpu() - e0;
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
	if (e0 >= 0)
		printf("engine_cpu_ns_per_valu_lane_instruction: %.1f (kfdsim's engine "
		       "threads)\n", eng * 1e9 / (ops / 2));
	HIP_CHECK(hipFree(out));
	bench_vadd();
	bench_idle();
	printf("PASS: bench_shader\n");
	return 0;
}
