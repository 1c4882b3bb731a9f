/* SPDX-License-Identifier: MIT */
/*
 * HIP in a process tree, in the two ways HIP supports (it is not
 * fork-safe once started):
 *
 * - fork before HIP starts: parent and child each start HIP and copy;
 * - fork once HIP runs: the child execs this program again
 *   (`hip_fork --exec-child`) and starts HIP afresh.
 *
 * Every process copies 4 MiB of its own pattern to the device and back
 * (SDMA on HIP 5.2.3 and 6.4: the bytes are checked). The parent waits for
 * both children and checks that each exited 0.
 */
#include "hip_check.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (4u << 20)

/* A 4 MiB round trip through the device, each byte checked. */
static void
copy_checked(const char *who, unsigned int seed)
{
	unsigned char *src = (unsigned char *)malloc(SIZE);
	unsigned char *dst = (unsigned char *)malloc(SIZE);
	void *dev;

	if (!src || !dst)
		HIP_FAIL("%s: out of host memory", who);
	for (size_t i = 0; i < SIZE; i++)
		src[i] = (unsigned char)((i + seed) * 2654435761u >> 11);
	memset(dst, 0, SIZE);
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&dev, SIZE));
	HIP_CHECK(hipMemcpy(dev, src, SIZE, hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpy(dst, dev, SIZE, hipMemcpyDeviceToHost));
	if (memcmp(src, dst, SIZE))
		HIP_FAIL("%s (pid %d): the bytes differ after the round trip", who,
			 (int)getpid());
	HIP_CHECK(hipFree(dev));
	free(src);
	free(dst);
	printf("%s (pid %d): %u bytes equal\n", who, (int)getpid(), SIZE);
}

/* Wait for @pid, which must exit 0; @who names it on failure. */
static void
wait_ok(pid_t pid, const char *who)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			HIP_FAIL("waitpid(%s): %s", who, strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		HIP_FAIL("%s (pid %d) ended with status 0x%x", who, (int)pid, status);
	printf("%s (pid %d) exited 0\n", who, (int)pid);
}

int
main(int argc, char **argv)
{
	pid_t early, late;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--exec-child")) {
		hip_start();
		copy_checked("exec'd child", 3);
		return 0;
	}

	/* Before HIP starts: the child is a HIP process of its own. */
	early = fork();
	if (early < 0)
		HIP_FAIL("fork: %s", strerror(errno));
	if (early == 0) {
		hip_start();
		copy_checked("child forked before HIP started", 1);
		return 0;
	}

	hip_start();
	copy_checked("parent", 2);

	/* HIP runs here: the child may only exec. */
	late = fork();
	if (late < 0)
		HIP_FAIL("fork: %s", strerror(errno));
	if (late == 0) {
		execl("/proc/self/exe", argv[0], "--exec-child", (char *)NULL);
		fprintf(stderr, "FAIL: exec /proc/self/exe: %s\n", strerror(errno));
		_exit(1);
	}
	copy_checked("parent, with an exec'd child", 4);
	wait_ok(early, "child forked before HIP started");
	wait_ok(late, "child forked once HIP ran, exec'd");
	printf("PASS: hip_fork\n");
	return 0;
}
