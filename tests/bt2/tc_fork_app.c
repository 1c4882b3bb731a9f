/* SPDX-License-Identifier: MIT */
/*
 * What the test `tracecompass-experiment` runs under `kfdtrace record
 * --sim`: a parent and its fork()ed child each open the device through our
 * libhsakmt and allocate one host buffer object, so both get the same
 * handle in their own process; the child then makes one call that fails
 * (DESTROY_QUEUE of a queue that does not exist: EINVAL).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hsakmt/hsakmt.h>
#include <kfdtrace/kfd_abi.h>

/* The first GPU node's id; 0 when there is none. */
static HSAuint32
first_gpu(void)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HSAuint32 i;

	if (hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS)
		return 0;
	for (i = 0; i < sp.NumNodes; i++)
		if (hsaKmtGetNodeProperties(i, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			return i;
	return 0;
}

/* Open, allocate 64 KiB of host memory, free it; 0 or -1. */
static int
one_bo(void)
{
	HsaMemFlags f = { 0 };
	HSAuint32 node;
	void *p = NULL;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return -1;
	node = first_gpu();
	f.ui32.HostAccess = 1;
	f.ui32.NonPaged = 1;
	if (!node || hsaKmtAllocMemory(node, 64 << 10, f, &p) != HSAKMT_STATUS_SUCCESS)
		return -1;
	if (hsaKmtFreeMemory(p, 64 << 10) != HSAKMT_STATUS_SUCCESS)
		return -1;
	return 0;
}

int
main(void)
{
	struct kfd_abi_destroy_queue_args dq = { .queue_id = 0x7777 };
	int status, fd;
	pid_t pid;

	if (one_bo())
		return fprintf(stderr, "tc-fork-app: parent allocation failed\n"), 1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return perror("tc-fork-app: fork"), 1;
	if (pid == 0) {
		if (one_bo())
			_exit(1);
		fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, KFD_ABI_IOC_DESTROY_QUEUE, &dq) == 0)
			_exit(1);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return fprintf(stderr, "tc-fork-app: the child failed\n"), 1;
	printf("child %d\n", (int)pid);
	return 0;
}
