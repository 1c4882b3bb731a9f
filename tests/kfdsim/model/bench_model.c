/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: an ioctl answered by the model (through ksim_ioctl, user-memory
 * access included) against a plain ioctl() system call on /dev/null, in one
 * run. The target: no dearer than the system call. Arguments on the
 * caller's stack and in the brk heap take the direct path; an argument
 * block in a page of its own takes the checked path (process_vm_*), shown
 * for comparison. Prints ns per call and the ratios; fails when the
 * direct-path GET_VERSION misses the target.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "ksim.h"
#include "tc_host.h"

#define ITERS 200000

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per ksim_ioctl(@req, @arg); *fails counts non-zero results. */
static double
time_model(struct ksim_file *kfd, unsigned long req, void *arg, int *fails)
{
	double t0 = now_ns();

	for (int i = 0; i < ITERS; i++)
		*fails += ksim_ioctl(kfd, req, arg) != 0;
	return (now_ns() - t0) / ITERS;
}

int
main(void)
{
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	struct ksim_opts opts = { .flags = KSIM_OPT_PRIVATE };
	struct ksim_device *dev;
	struct ksim_file *kfd;
	struct kfd_abi_get_version_args v, *heap_v = malloc(sizeof(*heap_v));
	struct kfd_abi_get_version_args *page_v;
	struct kfd_abi_get_clock_counters_args c = { .gpu_id = 43794 };
	int err, null_fd = open("/dev/null", O_RDONLY);
	double t0, t_sys, t_ver, t_clk, t_heap, t_page;
	int n = 0, fails = 0;

	tc_host_costs();
	page_v = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dev = prof ? ksim_device_create(prof, &opts, &err) : NULL;
	kfd = dev ? ksim_open_kfd(dev, O_CLOEXEC, &err) : NULL;
	if (!kfd || null_fd < 0 || !heap_v || page_v == MAP_FAILED) {
		fprintf(stderr, "bench_model: setup failed\n");
		return 1;
	}
	t0 = now_ns();
	for (int i = 0; i < ITERS; i++)
		n += ioctl(null_fd, KFD_ABI_IOC_GET_VERSION, &v) < 0;
	t_sys = (now_ns() - t0) / ITERS;
	t_ver = time_model(kfd, KFD_ABI_IOC_GET_VERSION, &v, &fails);
	t_clk = time_model(kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c, &fails);
	t_heap = time_model(kfd, KFD_ABI_IOC_GET_VERSION, heap_v, &fails);
	t_page = time_model(kfd, KFD_ABI_IOC_GET_VERSION, page_v, &fails);
	printf("ioctl() syscall on /dev/null:              %8.1f ns/call\n", t_sys);
	printf("model GET_VERSION, args on stack:          %8.1f ns/call  (%.2fx syscall)\n",
	       t_ver, t_ver / t_sys);
	printf("model GET_CLOCK_COUNTERS, args on stack:   %8.1f ns/call  (%.2fx syscall)\n",
	       t_clk, t_clk / t_sys);
	printf("model GET_VERSION, args in the brk heap:   %8.1f ns/call  (%.2fx syscall)\n",
	       t_heap, t_heap / t_sys);
	printf("model GET_VERSION, args in an mmap'd page: %8.1f ns/call  (%.2fx syscall, checked path)\n",
	       t_page, t_page / t_sys);
	if (n != ITERS || fails) {
		/* every /dev/null ioctl fails (ENOTTY), every model call works */
		fprintf(stderr, "bench_model: unexpected results (%d, %d)\n", n, fails);
		return 1;
	}
	close(ksim_file_fd(kfd));
	ksim_release(kfd);
	ksim_device_destroy(dev);
	ksim_profile_free(prof);
	munmap(page_v, 4096);
	free(heap_v);
	close(null_fd);
	if (t_ver > t_sys) {
		fprintf(stderr, "bench_model: GET_VERSION costs more than a system call\n");
		return 1;
	}
	return 0;
}
