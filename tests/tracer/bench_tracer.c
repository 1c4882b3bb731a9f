/* SPDX-License-Identifier: MIT */
/*
 * Tracer costs, side by side in one run:
 *
 *   1. ioctl() vs kfd_dispatch() with no hook, on /dev/null (a real
 *      system call that fails fast): the dispatch point must cost nothing
 *      measurable.
 *   2. kfd_dispatch() with the recorder attached, same call.
 *   3. GET_VERSION on kfdsim, untraced (LD_PRELOAD=libkfdsim.so) vs traced
 *      (libkfdtrace-capture.so in front of it): the added time per ioctl
 *      with recording on. Target: at most 100 ns (median).
 *
 * Figures are medians of per-batch means (batches of 1000 calls), which
 * shrug off the odd preemption on a shared machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/recorder.h>

#include "tt_trace.h"

#define BATCH 1000
#define BATCHES 300

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
median_ns(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return (double)v[n / 2] / BATCH;
}

/* Interleave the variants batch by batch, so drift hits them equally. */
static void
bench_inprocess(int fd, double *direct, double *dispatch)
{
	static uint64_t a[BATCHES], b[BATCHES];
	struct kfd_abi_get_version_args v;

	for (int i = 0; i < 5000; i++)
		ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v);
	for (int k = 0; k < BATCHES; k++) {
		uint64_t t0 = kfd_dispatch_now();

		for (int i = 0; i < BATCH; i++)
			ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v);
		uint64_t t1 = kfd_dispatch_now();

		for (int i = 0; i < BATCH; i++)
			kfd_dispatch_once(fd, KFD_FILE_KFD,
					  KFD_ABI_IOC_GET_VERSION, &v);
		uint64_t t2 = kfd_dispatch_now();

		a[k] = t1 - t0;
		b[k] = t2 - t1;
	}
	*direct = median_ns(a, BATCHES);
	*dispatch = median_ns(b, BATCHES);
}

static double
bench_recorded(int fd, const char *dir)
{
	static uint64_t a[BATCHES];
	struct kfd_abi_get_version_args v;
	struct kfd_recorder_opts o = { .flags = KFD_REC_NO_TOPOLOGY |
					       KFD_REC_CRASH_HANDLERS };
	struct kfd_recorder *r;
	char *path = tt_path(dir, "bench.kfdtrace");
	double m;

	if (kfd_recorder_open(path, &o, &r) || kfd_recorder_attach(r)) {
		fprintf(stderr, "bench: cannot record to %s\n", path);
		exit(1);
	}
	for (int k = 0; k < BATCHES; k++) {
		uint64_t t0 = kfd_dispatch_now();

		for (int i = 0; i < BATCH; i++)
			kfd_dispatch_once(fd, KFD_FILE_KFD,
					  KFD_ABI_IOC_GET_VERSION, &v);
		a[k] = kfd_dispatch_now() - t0;
	}
	m = median_ns(a, BATCHES);
	kfd_recorder_close(r);
	unlink(path);
	free(path);
	return m;
}

/*
 * Run kt_workload bench under @preload. Return: the median wall ns per
 * call, with the calling thread's mean CPU ns per call in *cpu.
 */
static double
bench_workload(const char *workload, const char *preload, const char *out,
	       const char *dir, double *cpu)
{
	char *log = tt_path(dir, "bench.log");
	char *env[4], *args[4];
	char line[64] = "";
	double wall;
	int status, fd;
	ssize_t n;

	args[0] = (char *)workload;
	args[1] = "bench";
	args[2] = "300000";
	args[3] = NULL;
	if (asprintf(&env[0], "LD_PRELOAD=%s", preload) < 0 ||
	    asprintf(&env[1], "KFDTRACE_OUTPUT=%s", out) < 0)
		exit(1);
	env[2] = NULL;
	unlink(log);
	status = tt_run(args, env, log);
	fd = open(log, O_RDONLY);
	n = fd >= 0 ? read(fd, line, sizeof(line) - 1) : -1;
	if (fd >= 0)
		close(fd);
	free(env[0]);
	free(env[1]);
	free(log);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || n <= 0) {
		fprintf(stderr, "bench: %s failed under %s\n", workload, preload);
		return -1;
	}
	line[n] = '\0';
	if (sscanf(line, "%lf %lf", &wall, cpu) != 2)
		return -1;
	return wall;
}

int
main(void)
{
	const char *workload = getenv("KT_WORKLOAD");
	const char *capture = getenv("KFDTRACE_CAPTURE_LIB");
	const char *sim = getenv("KFDTRACE_SIM_LIB");
	char *dir = tt_tmpdir();
	double direct, dispatch, recorded;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0 || !dir)
		return 1;
	bench_inprocess(fd, &direct, &dispatch);
	recorded = bench_recorded(fd, dir);
	printf("ioctl on /dev/null (ENOTTY), ns per call, median of %d x %d:\n",
	       BATCHES, BATCH);
	printf("  direct ioctl()              %8.1f\n", direct);
	printf("  kfd_dispatch(), no hooks    %8.1f  (%+.1f)\n", dispatch,
	       dispatch - direct);
	printf("  kfd_dispatch(), recording   %8.1f  (%+.1f)\n", recorded,
	       recorded - direct);

	if (workload && capture && sim && access(sim, R_OK) == 0) {
		char *preload, *out = tt_path(dir, "bench-capture.kfdtrace");
		double plain, traced, plain_cpu = 0, traced_cpu = 0;

		plain = bench_workload(workload, sim, "/dev/null/unused", dir,
				       &plain_cpu);
		if (asprintf(&preload, "%s:%s", capture, sim) < 0)
			return 1;
		traced = bench_workload(workload, preload, out, dir, &traced_cpu);
		if (plain > 0 && traced > 0) {
			printf("GET_VERSION on kfdsim, ns per call: wall (median of 300 x 1000), "
			       "calling thread's CPU (mean):\n");
			printf("  untraced (libkfdsim.so)     %8.1f  %8.1f\n", plain,
			       plain_cpu);
			printf("  traced (capture + kfdsim)   %8.1f  %8.1f\n", traced,
			       traced_cpu);
			printf("  added by tracing            %+8.1f  %+8.1f   (target: +100 wall)\n",
			       traced - plain, traced_cpu - plain_cpu);
		}
		unlink(out);
		free(out);
		free(preload);
	} else {
		printf("kfdsim or the capture library is not built: no capture figures\n");
	}
	tt_rmdir(dir);
	free(dir);
	close(fd);
	return 0;
}
