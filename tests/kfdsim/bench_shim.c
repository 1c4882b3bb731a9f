/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: an ioctl through the preloaded libkfdsim.so (ioctl() as the
 * application calls it: the fd table, the model, user memory), with the
 * fd table trusted (KFDSIM_FD_CHECK=events, the default) against the
 * identity check at every call (KFDSIM_FD_CHECK=call, one fstat an
 * ioctl), in one run, beside the host's system
 * call and rdtsc costs and a plain ioctl system call on /dev/null.
 * Each mode runs in a child of its own, three times alternated; the best
 * of each is kept. Fails when the trusted GET_VERSION costs more than a
 * system call (the point: no system call per ioctl).
 *
 * Usage: bench_shim LIBKFDSIM PROFILE (the child: --child).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kfdtrace/kfd_abi.h"
#include "tc_host.h"
#include "tc_run.h"

#define ITERS 300000
#define ROUNDS 3

struct figures {
	double version_ns;	/* GET_VERSION */
	double clock_ns;	/* GET_CLOCK_COUNTERS */
	double null_ns;		/* an ioctl system call on /dev/null */
};

static int
child(void)
{
	struct kfd_abi_get_version_args v;
	struct kfd_abi_get_clock_counters_args c;
	struct kfd_abi_get_process_apertures_new_args ap = { 0 };
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC), null = open("/dev/null", O_RDONLY);
	uint32_t gpu_id = 0;
	int fails = 0;
	double t0, t_ver, t_clk, t_null;

	if (fd < 0 || null < 0) {
		fprintf(stderr, "bench_shim: open /dev/kfd or /dev/null failed\n");
		return 1;
	}
	/* the GPU's id, as the thunk learns it */
	{
		struct kfd_abi_process_device_apertures aps[8];

		memset(aps, 0, sizeof(aps));
		ap.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)aps;
		ap.num_of_nodes = 8;
		if (ioctl(fd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &ap) == 0 &&
		    ap.num_of_nodes > 0)
			gpu_id = aps[0].gpu_id;
	}
	t0 = tc_host_now();
	for (int i = 0; i < ITERS; i++)
		fails += ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v) != 0;
	t_ver = (tc_host_now() - t0) * 1e9 / ITERS;
	t0 = tc_host_now();
	for (int i = 0; i < ITERS; i++) {
		memset(&c, 0, sizeof(c));
		c.gpu_id = gpu_id;
		fails += ioctl(fd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c) != 0;
	}
	t_clk = (tc_host_now() - t0) * 1e9 / ITERS;
	/* past the shim, which would look the fd up first */
	t0 = tc_host_now();
	for (int i = 0; i < ITERS; i++)
		fails += syscall(SYS_ioctl, null, KFD_ABI_IOC_GET_VERSION, &v) == 0;
	t_null = (tc_host_now() - t0) * 1e9 / ITERS;
	if (fails) {
		fprintf(stderr, "bench_shim: %d calls gave the wrong result\n", fails);
		return 1;
	}
	printf("%.2f %.2f %.2f\n", t_ver, t_clk, t_null);
	return 0;
}

static int
run_mode(const char *self, const char *lib, const char *profile, const char *mode,
	 struct figures *best)
{
	char env_lib[4200], env_prof[4200], env_mode[64];
	char *const env[] = { env_lib, env_prof, env_mode, NULL };
	char *const argv[] = { (char *)self, "--child", NULL };
	struct figures f;
	struct tc_run res;
	int ok;

	snprintf(env_lib, sizeof(env_lib), "LD_PRELOAD=%s", lib);
	snprintf(env_prof, sizeof(env_prof), "KFDSIM_PROFILE=%s", profile);
	snprintf(env_mode, sizeof(env_mode), "KFDSIM_FD_CHECK=%s", mode);
	ok = tc_run_env(argv, env, 0, &res) == 0 && res.status == 0 &&
	     sscanf(res.out, "%lf %lf %lf", &f.version_ns, &f.clock_ns, &f.null_ns) == 3;
	if (!ok)
		fprintf(stderr, "bench_shim: the %s child failed (status %d): %s", mode,
			res.status, res.err ? res.err : "");
	tc_run_free(&res);
	if (!ok)
		return -1;
	if (!best->version_ns || f.version_ns < best->version_ns)
		best->version_ns = f.version_ns;
	if (!best->clock_ns || f.clock_ns < best->clock_ns)
		best->clock_ns = f.clock_ns;
	if (!best->null_ns || f.null_ns < best->null_ns)
		best->null_ns = f.null_ns;
	return 0;
}

int
main(int argc, char **argv)
{
	struct figures call = { 0 }, events = { 0 };
	char self[4096];
	ssize_t n;

	if (argc == 2 && strcmp(argv[1], "--child") == 0)
		return child();
	if (argc != 3) {
		fprintf(stderr, "usage: bench_shim LIBKFDSIM PROFILE\n");
		return 1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	tc_host_costs();
	for (int i = 0; i < ROUNDS; i++)
		if (run_mode(self, argv[1], argv[2], "call", &call) ||
		    run_mode(self, argv[1], argv[2], "events", &events))
			return 1;
	printf("ioctl_syscall_dev_null_ns: %.1f\n", events.null_ns);
	printf("shim_get_version_ns_fd_check_call: %.1f (%.2fx syscall, fstat at every call)\n",
	       call.version_ns, call.version_ns / events.null_ns);
	printf("shim_get_version_ns_fd_check_events: %.1f (%.2fx syscall)\n",
	       events.version_ns, events.version_ns / events.null_ns);
	printf("shim_get_clock_counters_ns_fd_check_call: %.1f\n", call.clock_ns);
	printf("shim_get_clock_counters_ns_fd_check_events: %.1f\n", events.clock_ns);
	printf("shim_get_version_speedup: %.2f (call / events)\n",
	       call.version_ns / events.version_ns);
	printf("shim_get_version_per_s: %.0f events, %.0f call\n",
	       1e9 / events.version_ns, 1e9 / call.version_ns);
	if (events.version_ns > events.null_ns) {
		fprintf(stderr, "bench_shim: GET_VERSION through the shim costs more "
			"than a system call\n");
		return 1;
	}
	return 0;
}
