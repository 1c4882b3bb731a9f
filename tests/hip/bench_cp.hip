/* SPDX-License-Identifier: MIT */
/*
 * The command processor's speed, through HIP on kfdsim (the benchmark
 * hip-cp): empty-kernel launches per second on one stream, the round trip
 * of one launch and its completion, SDMA copy bandwidth against a plain
 * memcpy of the same size in this process, and the CPU an idle simulated
 * machine costs (queues created, nothing submitted; kfdsim's engine
 * thread's wake-ups and CPU apart), with the host's
 * system call and rdtsc cost beside them. The launches and the round
 * trips also print the CPU each kind of thread spent on one. Targets: >= 100k
 * launches/s, SDMA >= 0.5x memcpy, idle < 1% of a core. Exit 1 when one
 * is missed.
 */
#include "hip_check.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "tc_host.h"

#define LAUNCHES	20000
#define ROUND_TRIPS	2000
#define COPY_SIZE	(64u << 20)
#define IDLE_SECONDS	2

__global__ void
empty(void)
{
}

static double
cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * CPU time by thread. A loaded host stretches wall time; it hardly
 * changes what a thread spends on a CPU, so these say what a launch costs
 * where the rates cannot. Threads are told apart by name: the main
 * thread, those named otherwise (kfdsim's engine), and the rest (the
 * runtime's, a tracer's). Each thread's CPU clock is read by its id
 * (the kernel's encoding, as pthread_getcpuclockid() builds it): unlike
 * /proc/.../schedstat, which a running thread updates only at a tick,
 * it counts to the nanosecond.
 */
#define MAX_THREADS	128

struct thread_cpu {
	int tid;
	char comm[32];
	unsigned long long ns;
};

/* The CPU clock of thread @tid of this process: CPUCLOCK_SCHED, per thread. */
static clockid_t
thread_clock(int tid)
{
	return (clockid_t)((~(unsigned int)tid << 3) | 6u);
}

static int
threads_cpu(struct thread_cpu *t)
{
	DIR *d = opendir("/proc/self/task");
	struct timespec ts;
	struct dirent *e;
	char path[96];
	int n = 0;
	FILE *f;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < MAX_THREADS) {
		if (e->d_name[0] == '.')
			continue;
		t[n].tid = atoi(e->d_name);
		if (clock_gettime(thread_clock(t[n].tid), &ts))
			continue;
		t[n].ns = (unsigned long long)ts.tv_sec * 1000000000ull +
			  (unsigned long long)ts.tv_nsec;
		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t[n].tid);
		f = fopen(path, "r");
		t[n].comm[0] = 0;
		if (f) {
			if (!fgets(t[n].comm, sizeof(t[n].comm), f))
				t[n].comm[0] = 0;
			t[n].comm[strcspn(t[n].comm, "\n")] = 0;
			fclose(f);
		}
		n++;
	}
	closedir(d);
	return n;
}

/* kfdsim's engine thread (kfdsim-cp), or 0. */
static int
engine_tid(void)
{
	static struct thread_cpu t[MAX_THREADS];
	int n = threads_cpu(t);

	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].comm, "kfdsim-cp"))
			return t[i].tid;
	return 0;
}

static unsigned long long
thread_ns(int tid)
{
	struct timespec ts;

	if (clock_gettime(thread_clock(tid), &ts))
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

/* Context switches of thread @tid: each wake-up of a sleeper is one. */
static unsigned long long
switches(int tid)
{
	unsigned long long n = 0, v;
	char path[96], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
			n += v;
	fclose(f);
	return n;
}

/* Print what each kind of thread spent from @a (@na of them) to now, per op. */
static void
print_cpu(const char *what, const struct thread_cpu *a, int na, int ops)
{
	static struct thread_cpu b[MAX_THREADS];
	double main_ns = 0, other = 0, total = 0, named = 0;
	char main_comm[32] = "", named_comm[32] = "";
	int nb = threads_cpu(b);

	if (!nb)
		return;
	for (int i = 0; i < nb; i++)
		if (b[i].tid == getpid())
			snprintf(main_comm, sizeof(main_comm), "%s", b[i].comm);
	for (int i = 0; i < nb; i++) {
		double ns = (double)b[i].ns;

		for (int k = 0; k < na; k++)
			if (a[k].tid == b[i].tid)
				ns -= (double)a[k].ns;
		ns /= ops;
		total += ns;
		if (b[i].tid == getpid()) {
			main_ns += ns;
		} else if (strcmp(b[i].comm, main_comm)) {
			named += ns;
			snprintf(named_comm, sizeof(named_comm), "%s", b[i].comm);
		} else {
			other += ns;
		}
	}
	printf("%s: total %.1f, main %.1f, %s %.1f, other %.1f "
	       "(ns of CPU an op, by thread)\n", what, total, main_ns,
	       named_comm[0] ? named_comm : "named", named, other);
}

int
main(void)
{
	static struct thread_cpu cpu0[MAX_THREADS];
	int ncpu0;
	double t0, launch_rate, rt_us, sdma_bw, memcpy_bw, idle;
	unsigned long long eng_sw0, eng_ns0;
	int eng;
	unsigned char *hsrc, *hdst;
	hipStream_t s;
	void *dev;
	int ret = 0;

	hip_start();
	tc_host_costs();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipStreamCreate(&s));
	/* warm up: code object load, queues */
	hipLaunchKernelGGL(empty, dim3(1), dim3(64), 0, s);
	HIP_CHECK(hipStreamSynchronize(s));

	ncpu0 = threads_cpu(cpu0);
	t0 = tc_host_now();
	for (int i = 0; i < LAUNCHES; i++)
		hipLaunchKernelGGL(empty, dim3(1), dim3(64), 0, s);
	HIP_CHECK(hipStreamSynchronize(s));
	launch_rate = LAUNCHES / (tc_host_now() - t0);
	printf("launches_per_s: %.0f (%d empty kernels on one stream, then a "
	       "synchronize)\n", launch_rate, LAUNCHES);
	print_cpu("launch_cpu_ns", cpu0, ncpu0, LAUNCHES);

	ncpu0 = threads_cpu(cpu0);
	t0 = tc_host_now();
	for (int i = 0; i < ROUND_TRIPS; i++) {
		hipLaunchKernelGGL(empty, dim3(1), dim3(64), 0, s);
		HIP_CHECK(hipStreamSynchronize(s));
	}
	rt_us = (tc_host_now() - t0) * 1e6 / ROUND_TRIPS;
	printf("launch_round_trip_us: %.2f (launch + hipStreamSynchronize, "
	       "mean of %d)\n", rt_us, ROUND_TRIPS);
	print_cpu("round_trip_cpu_ns", cpu0, ncpu0, ROUND_TRIPS);

	HIP_CHECK(hipHostMalloc((void **)&hsrc, COPY_SIZE, hipHostMallocDefault));
	HIP_CHECK(hipHostMalloc((void **)&hdst, COPY_SIZE, hipHostMallocDefault));
	HIP_CHECK(hipMalloc(&dev, COPY_SIZE));
	memset(hsrc, 0x5a, COPY_SIZE);
	memset(hdst, 0, COPY_SIZE);
	HIP_CHECK(hipMemcpy(dev, hsrc, COPY_SIZE, hipMemcpyHostToDevice));
	t0 = tc_host_now();
	for (int i = 0; i < 4; i++)
		HIP_CHECK(hipMemcpy(dev, hsrc, COPY_SIZE, hipMemcpyHostToDevice));
	sdma_bw = 4.0 * COPY_SIZE / (tc_host_now() - t0) / 1e9;
	memcpy(hdst, hsrc, COPY_SIZE);
	t0 = tc_host_now();
	for (int i = 0; i < 4; i++)
		memcpy(hdst, hsrc, COPY_SIZE);
	memcpy_bw = 4.0 * COPY_SIZE / (tc_host_now() - t0) / 1e9;
	printf("sdma_copy_gb_s: %.2f (hipMemcpy of 64 MiB pinned -> device)\n",
	       sdma_bw);
	printf("memcpy_gb_s: %.2f (memcpy of 64 MiB in this process)\n",
	       memcpy_bw);
	printf("ratio_sdma_vs_memcpy: %.3f (target >= 0.5)\n", sdma_bw / memcpy_bw);
	if (sdma_bw < 0.5 * memcpy_bw)
		ret = 1;

	/* idle: queues exist, nothing is submitted */
	eng = engine_tid();
	eng_sw0 = eng ? switches(eng) : 0;
	eng_ns0 = eng ? thread_ns(eng) : 0;
	t0 = cpu_seconds();
	sleep(IDLE_SECONDS);
	idle = (cpu_seconds() - t0) / IDLE_SECONDS * 100;
	printf("idle_cpu_percent: %.2f (of one core, %d s with %s)\n", idle,
	       IDLE_SECONDS, "its queues created and nothing submitted");
	if (eng) {
		printf("idle_engine: %.1f wake-ups/s, %.0f ns of CPU per s "
		       "(the kfdsim-cp thread over the same %d s)\n",
		       (double)(switches(eng) - eng_sw0) / IDLE_SECONDS,
		       (double)(thread_ns(eng) - eng_ns0) / IDLE_SECONDS,
		       IDLE_SECONDS);
		/* Past the first 100 ms, in which the engine still polls. */
		eng_sw0 = switches(eng);
		eng_ns0 = thread_ns(eng);
		sleep(1);
		printf("idle_engine_steady: %llu wake-ups/s, %llu ns of CPU per s "
		       "(the next second)\n", switches(eng) - eng_sw0,
		       thread_ns(eng) - eng_ns0);
	}
	if (idle >= 1.0)
		ret = 1;
	if (launch_rate < 100000)
		ret = 1;
	printf("target: >= 100000 launches/s, SDMA >= 0.5x memcpy, idle < 1%% "
	       "(%s)\n", ret ? "not met" : "met");
	HIP_CHECK(hipFree(dev));
	HIP_CHECK(hipHostFree(hdst));
	HIP_CHECK(hipHostFree(hsrc));
	HIP_CHECK(hipStreamDestroy(s));
	return ret;
}
