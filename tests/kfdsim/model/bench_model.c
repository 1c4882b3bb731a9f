/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: an ioctl answered by the model (GET_VERSION, GET_CLOCK_COUNTERS
 * through ksim_ioctl, user-memory checks included) against a plain ioctl()
 * system call on /dev/null, in one run. Prints ns per call and the ratios.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "ksim.h"

#define ITERS 200000

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int
main(void)
{
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	struct ksim_opts opts = { .flags = KSIM_OPT_PRIVATE };
	struct ksim_device *dev;
	struct ksim_file *kfd;
	struct kfd_abi_get_version_args v;
	struct kfd_abi_get_clock_counters_args c = { .gpu_id = 43794 };
	int err, null_fd = open("/dev/null", O_RDONLY);
	double t0, t_sys, t_ver, t_clk;
	int n = 0;

	dev = prof ? ksim_device_create(prof, &opts, &err) : NULL;
	kfd = dev ? ksim_open_kfd(dev, O_CLOEXEC, &err) : NULL;
	if (!kfd || null_fd < 0) {
		fprintf(stderr, "bench_model: setup failed\n");
		return 1;
	}
	t0 = now_ns();
	for (int i = 0; i < ITERS; i++)
		n += ioctl(null_fd, KFD_ABI_IOC_GET_VERSION, &v) < 0;
	t_sys = (now_ns() - t0) / ITERS;
	t0 = now_ns();
	for (int i = 0; i < ITERS; i++)
		n += ksim_ioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v) != 0;
	t_ver = (now_ns() - t0) / ITERS;
	t0 = now_ns();
	for (int i = 0; i < ITERS; i++)
		n += ksim_ioctl(kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c) != 0;
	t_clk = (now_ns() - t0) / ITERS;
	printf("ioctl() syscall on /dev/null:        %8.1f ns/call\n", t_sys);
	printf("model GET_VERSION (ksim_ioctl):      %8.1f ns/call  (%.2fx syscall)\n",
	       t_ver, t_ver / t_sys);
	printf("model GET_CLOCK_COUNTERS (ksim_ioctl): %6.1f ns/call  (%.2fx syscall)\n",
	       t_clk, t_clk / t_sys);
	if (n != ITERS) {
		/* every /dev/null ioctl fails (ENOTTY), every model call works */
		fprintf(stderr, "bench_model: unexpected results (%d)\n", n);
		return 1;
	}
	close(ksim_file_fd(kfd));
	ksim_release(kfd);
	ksim_device_destroy(dev);
	ksim_profile_free(prof);
	close(null_fd);
	return 0;
}
