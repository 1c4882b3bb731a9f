/* SPDX-License-Identifier: MIT */
/*
 * kfdsim's fault mode as a user meets it: libkfdsim.so preloaded with
 * KFDSIM_FAULTS in the environment (see meson.build).
 *   test_ksim_faults_shim good	KFDSIM_FAULTS=GET_VERSION:2:ENOMEM,
 *				GET_CLOCK_COUNTERS:*:delay=20ms
 *	the 2nd GET_VERSION fails with ENOMEM through plain ioctl(), the
 *	others work; every GET_CLOCK_COUNTERS returns at least 20 ms late.
 *   test_ksim_faults_shim bad	KFDSIM_FAULTS=GET_VERSION:1:EWHAT
 *	there is no device: open("/dev/kfd") fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

static int failed;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
			failed = 1;					\
		}							\
	} while (0)

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	struct kfd_abi_get_version_args v;
	struct kfd_abi_get_clock_counters_args clk;
	uint64_t t0;
	int fd;

	if (argc != 2)
		return 2;
	fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (!strcmp(argv[1], "bad")) {
		CHECK(fd < 0);
		return failed;
	}
	CHECK(fd >= 0);
	if (fd < 0)
		return 1;
	for (int i = 1; i <= 3; i++) {
		int r;

		memset(&v, 0, sizeof(v));
		errno = 0;
		r = ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v);
		if (i == 2) {
			CHECK(r == -1 && errno == ENOMEM);
			CHECK(v.major_version == 0);
		} else {
			CHECK(r == 0 && v.major_version == 1);
		}
	}
	memset(&clk, 0, sizeof(clk));
	t0 = now_ns();
	CHECK(ioctl(fd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk) == 0);
	CHECK(now_ns() - t0 >= 20000000ull);
	CHECK(clk.system_clock_freq == 1000000000ull);
	close(fd);
	return failed;
}
