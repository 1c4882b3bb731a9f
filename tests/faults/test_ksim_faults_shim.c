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
 *   test_ksim_faults_shim message
 *	runs itself as "bad" with 64 good rules and a 65th holding escape
 *	bytes: the one line on stderr gives the reason whole, the bytes
 *	escaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
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

/* 65 rules, the last with ESC bytes: the reason must come through. */
static int
message(void)
{
	static char spec[64 * 18 + 64];
	char err[4096];
	size_t n = 0;
	int p[2], status;
	ssize_t r;
	pid_t pid;

	for (int i = 0; i < 64; i++)
		strcat(spec, "GET_VERSION:1:EIO,");
	strcat(spec, "GET_\x1b[2J\x1b]2 pwned\x07VERSION:1:EIO");
	if (pipe(p))
		return 1;
	/* A hang (the bug this guards against was a cut message, but the
	 * child must never stall the suite) ends the test as a failure. */
	alarm(20);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		setenv("KFDSIM_FAULTS", spec, 1);
		execl("/proc/self/exe", "test_ksim_faults_shim", "bad", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (n < sizeof(err) - 1 && (r = read(p[0], err + n, sizeof(err) - 1 - n)) > 0)
		n += (size_t)r;
	err[n] = '\0';
	close(p[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(strstr(err, "rule 65, column 1153: ") != NULL);
	CHECK(strstr(err, "more than 64 rules; no device\n") != NULL);
	CHECK(strstr(err, "\\x1b[2J") != NULL);
	CHECK(memchr(err, 0x1b, n) == NULL);
	CHECK(memchr(err, 0x07, n) == NULL);
	if (failed)
		fprintf(stderr, "stderr of the run: %s\n", err);
	return failed;
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
	if (!strcmp(argv[1], "message"))
		return message();
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
