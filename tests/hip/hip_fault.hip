/* SPDX-License-Identifier: MIT */
/*
 * Faulting kernels, each in a forked child whose end the parent checks:
 *   bad-pointer  a kernel stores through an address no allocation holds:
 *                the GPU's VM fault reaches ROCr, which reports it and
 *                aborts the process, as on hardware;
 *   trap         a kernel calls __builtin_trap() (s_trap 2): the trap
 *                handler reports the wave's trap as a queue error, and
 *                HIP's queue callback aborts the process.
 * Each child starts HIP itself (a child cannot use its parent's). One that
 * returns from hipDeviceSynchronize has not seen the fault: that fails the
 * test. The child must end by SIGABRT, with ROCr's or HIP's report of the
 * fault on its stderr, which the parent reads through a pipe.
 */
#include "hip_check.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void
bad_store(int *p, int v)
{
	p[threadIdx.x] = v;
}

__global__ void
trap(int *p, int v)
{
	if (threadIdx.x == 3)
		__builtin_trap();
	p[threadIdx.x] = v;
}

/* The child: run @which; it must not come back. */
static void
child(const char *which)
{
	int *good;
	hipError_t e;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&good, 64 * sizeof(int)));
	if (!strcmp(which, "bad-pointer"))
		/* far past any allocation: unmapped in the GPU's VM */
		hipLaunchKernelGGL(bad_store, dim3(1), dim3(64), 0, 0,
				   (int *)0x7e0000000000ull, 7);
	else
		hipLaunchKernelGGL(trap, dim3(1), dim3(64), 0, 0, good, 7);
	e = hipGetLastError();
	if (e == hipSuccess)
		e = hipDeviceSynchronize();
	HIP_FAIL("%s: the kernel's fault came back as \"%s\" (%d), not as the "
		 "process's end", which, hipGetErrorString(e), (int)e);
}

int
main(void)
{
	/* the case, and what the runtime says of it */
	static const char *const cases[][2] = {
		{ "bad-pointer", "Memory access fault by GPU" },
		{ "trap", "HSA_STATUS_ERROR_EXCEPTION" },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		static char err[16384];
		size_t len = 0;
		ssize_t r;
		int st, fds[2];
		pid_t pid;

		fflush(NULL);
		if (pipe(fds))
			HIP_FAIL("pipe");
		pid = fork();
		if (pid < 0)
			HIP_FAIL("fork");
		if (!pid) {
			close(fds[0]);
			dup2(fds[1], 2);
			close(fds[1]);
			child(cases[k][0]);
		}
		close(fds[1]);
		while ((r = read(fds[0], err + len, sizeof(err) - 1 - len)) > 0)
			len += (size_t)r;
		close(fds[0]);
		err[len] = 0;
		fputs(err, stderr);
		if (waitpid(pid, &st, 0) != pid)
			HIP_FAIL("waitpid");
		if (!WIFSIGNALED(st))
			HIP_FAIL("%s: the child exited with %d", cases[k][0], WEXITSTATUS(st));
		if (WTERMSIG(st) != SIGABRT)
			HIP_FAIL("%s: the child ended by signal %d", cases[k][0], WTERMSIG(st));
		if (!strstr(err, cases[k][1]))
			HIP_FAIL("%s: no \"%s\" from the child", cases[k][0], cases[k][1]);
		printf("%s: the child was aborted (SIGABRT) with \"%s\"\n", cases[k][0],
		       cases[k][1]);
	}
	printf("PASS: hip_fault\n");
	return 0;
}
