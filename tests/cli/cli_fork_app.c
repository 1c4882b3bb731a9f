/* SPDX-License-Identifier: MIT */
/*
 * A program for the `kfdtrace record` test that leaves one trace of each
 * name the capture library writes:
 *
 *   cli-fork-app exec	opens /dev/kfd and asks GET_VERSION (OUT), forks a
 *			child that does the same (OUT.<pid>), prints
 *			"child <pid>", then execs itself as
 *   cli-fork-app again	which does it once more (OUT.exec1)
 *   cli-fork-app calls	GET_VERSION, GET_CLOCK_COUNTERS 5 times and a
 *			request no schema row describes, in one process
 *			(for record --only and --except)
 *
 * libc and the ABI header only: it plays the application.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

/* One device event, so that the process gets a trace file. */
static int
touch_kfd(void)
{
	struct kfd_abi_get_version_args v = { 0, 0 };
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		perror("cli-fork-app: /dev/kfd");
		return -1;
	}
	ret = ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v);
	if (ret)
		perror("cli-fork-app: GET_VERSION");
	close(fd);
	return ret;
}

/* Known and unknown requests, a counted number of each. */
static int
calls(void)
{
	struct kfd_abi_get_version_args v = { 0, 0 };
	struct kfd_abi_get_clock_counters_args c;
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror("cli-fork-app: /dev/kfd");
		return 1;
	}
	if (ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v))
		perror("cli-fork-app: GET_VERSION");
	for (int i = 0; i < 5; i++) {
		memset(&c, 0, sizeof(c));
		/* The answer does not matter, only that the call is made. */
		(void)ioctl(fd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c);
	}
	/* 'K' 0xfe: no row; the device refuses it. */
	(void)ioctl(fd, _IO('K', 0xfe), NULL);
	close(fd);
	return 0;
}

int
main(int argc, char **argv)
{
	char *again[] = { argv[0], "again", NULL };
	int status;
	pid_t pid;

	if (argc == 2 && !strcmp(argv[1], "calls"))
		return calls();
	if (argc != 2 || (strcmp(argv[1], "exec") && strcmp(argv[1], "again"))) {
		fprintf(stderr, "usage: cli-fork-app exec|again|calls\n");
		return 2;
	}
	if (touch_kfd())
		return 1;
	if (!strcmp(argv[1], "again"))
		return 0;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("cli-fork-app: fork");
		return 1;
	}
	if (pid == 0)
		exit(touch_kfd() ? 1 : 0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "cli-fork-app: the child failed\n");
		return 1;
	}
	printf("child %d\n", (int)pid);
	fflush(stdout);
	execv("/proc/self/exe", again);
	perror("cli-fork-app: exec");
	return 1;
}
