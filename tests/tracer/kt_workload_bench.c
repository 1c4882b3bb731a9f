/* SPDX-License-Identifier: MIT */
/*
 * kt_workload's benchmarks (kt_workload.c has the list): bench and
 * nullbench (median wall and mean CPU ns per GET_VERSION, or per ioctl on
 * /dev/null) and pairbench (traced and untraced batches in one process).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "kt_workload.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *
idle_thread(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * Prints two figures in ns per call: the median wall time over batches of
 * 1000 calls, and the mean CPU time of this thread (which leaves out the
 * trace writer's thread and time spent waiting for a CPU).
 *
 * With @mt a second, idle thread exists throughout, as in every ROCm
 * process (the runtime starts several). It matters for the comparison:
 * while a process has a single thread, glibc's mutexes (kfdsim takes one
 * per ioctl) skip their atomic instructions. A traced process always has
 * the trace writer's thread, so without @mt the difference includes the
 * simulator losing that shortcut, a cost no real driver has.
 *
 * @null: GET_VERSION on /dev/null instead of /dev/kfd: a real ioctl
 * system call (failing with ENOTTY), for tools that see only system calls
 * (strace), which kfdsim's ioctls are not.
 */
int
mode_bench(long n, int mt, int null)
{
	int kfd = null ? open("/dev/null", O_RDWR | O_CLOEXEC) : open_kfd();
	long batches = n / 1000 > 0 ? n / 1000 : 1;
	uint64_t *per = calloc((size_t)batches, sizeof(*per));
	struct kfd_abi_get_version_args v;
	uint64_t cpu0, cpu;

	if (kfd < 0 || !per)
		die("bench setup");
	if (mt) {
		pthread_t t;

		if (pthread_create(&t, NULL, idle_thread, NULL))
			die("pthread_create");
		pthread_detach(t);
	}
	for (int i = 0; i < 2000; i++)	/* warm up */
		ioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v);
	cpu0 = thread_cpu_ns();
	for (long b = 0; b < batches; b++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < 1000; i++)
			if (ioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v) != 0 &&
			    !(null && errno == ENOTTY))
				die("GET_VERSION");
		per[b] = now_ns() - t0;
	}
	cpu = thread_cpu_ns() - cpu0;
	qsort(per, (size_t)batches, sizeof(*per), cmp_u64);
	printf("%.1f %.1f\n", (double)per[batches / 2] / 1000.0,
	       (double)cpu / (double)(batches * 1000));
	close(kfd);
	free(per);
	return 0;
}

/*
 * The simulator's own ioctl(), found by the file name of the preloaded
 * library, so that a batch can bypass whatever is in front of it.
 */
typedef int (*ioctl_fn)(int, unsigned long, ...);

static ioctl_fn
sim_ioctl(void)
{
	const char *lib = getenv("KFDTRACE_SIM_LIB");
	void *h = lib ? dlopen(lib, RTLD_LAZY | RTLD_NOLOAD) : NULL;

	return h ? (ioctl_fn)dlsym(h, "ioctl") : NULL;
}

/*
 * Traced and untraced calls in one process, batch by batch (1000 calls
 * each, order swapped every other pair). Comparing two processes is at the
 * mercy of the host: on the shared VMs we run on, one process may run at
 * half the speed of the next for its whole life, which moves an untraced
 * figure by more than the tracer costs. Here both kinds of batch see the
 * same CPU, the same writer thread and the same caches. A second, idle
 * thread exists throughout, as in every ROCm process.
 *
 * Prints: the untraced and traced medians and the median of the per-pair
 * differences, in ns per call.
 */
int
mode_pairbench(long n)
{
	ioctl_fn direct = sim_ioctl();
	int kfd = open_kfd();
	long pairs = n / 1000 > 0 ? n / 1000 : 1;
	int64_t *d = calloc((size_t)pairs, sizeof(*d));
	uint64_t *u = calloc((size_t)pairs, sizeof(*u));
	uint64_t *t = calloc((size_t)pairs, sizeof(*t));
	struct kfd_abi_get_version_args v;
	pthread_t idle;

	if (!direct)
		die("pairbench: no simulator (KFDTRACE_SIM_LIB) to call");
	if (kfd < 0 || !d || !u || !t)
		die("pairbench setup");
	if (pthread_create(&idle, NULL, idle_thread, NULL))
		die("pthread_create");
	pthread_detach(idle);
	for (int i = 0; i < 2000; i++) {	/* warm up both paths */
		ioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v);
		direct(kfd, KFD_ABI_IOC_GET_VERSION, &v);
	}
	for (long p = 0; p < pairs; p++) {
		for (int k = 0; k < 2; k++) {
			int traced = (k + (int)p) & 1;
			uint64_t t0 = now_ns();

			for (int i = 0; i < 1000; i++) {
				int r = traced ? ioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v) :
						 direct(kfd, KFD_ABI_IOC_GET_VERSION, &v);

				if (r != 0)
					die("GET_VERSION");
			}
			(traced ? t : u)[p] = now_ns() - t0;
		}
		d[p] = (int64_t)t[p] - (int64_t)u[p];
	}
	qsort(u, (size_t)pairs, sizeof(*u), cmp_u64);
	qsort(t, (size_t)pairs, sizeof(*t), cmp_u64);
	qsort(d, (size_t)pairs, sizeof(*d), cmp_i64);
	printf("%.1f %.1f %.1f\n", (double)u[pairs / 2] / 1000.0,
	       (double)t[pairs / 2] / 1000.0, (double)d[pairs / 2] / 1000.0);
	close(kfd);
	free(d);
	free(u);
	free(t);
	return 0;
}

