/* SPDX-License-Identifier: MIT */
/*
 * Device printf: a kernel prints lines with ints, floats and strings from
 * several work-groups. HIP's device printf is a hostcall: the wave fills a
 * buffer in host memory and signals a signal whose event the runtime's
 * listener thread waits on, so the lines reach stdout only if the shader
 * sends the interrupt (s_sendmsg) that sets the event. The lines the
 * kernel printed are captured (stdout to a pipe) and compared with the
 * expected set: the work-groups' order is the hardware's to choose, so
 * the comparison is of the sorted lines.
 */
#include "hip_check.h"

#include <unistd.h>

#define GROUPS	4
#define THREADS	2	/* lanes printing in each work-group */

__global__ void
greet(int base, float scale)
{
	int g = blockIdx.x, t = threadIdx.x;

	printf("group %d thread %d: int %d float %.3f str %s\n", g, t, base + g * 10 + t,
	       scale * (float)(g + t), t ? "odd" : "even");
	if (t == 0)
		printf("group %d: %s%c %x %ld\n", g, "done", '!', 0xbeef + g,
		       -1234567890123l * (g + 1));
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
	static char out[16384];
	char *want[GROUPS * (THREADS + 1)], *got[GROUPS * (THREADS + 1) + 8];
	int fds[2], saved, n = 0, nw = 0;
	ssize_t len = 0, r;
	char *save, *line;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	/* The kernel's lines go to a pipe, read back after the kernel. */
	fflush(stdout);
	if (pipe(fds) || (saved = dup(1)) < 0 || dup2(fds[1], 1) < 0)
		HIP_FAIL("cannot redirect stdout");
	close(fds[1]);
	hipLaunchKernelGGL(greet, dim3(GROUPS), dim3(THREADS), 0, 0, 100, 0.5f);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipDeviceSynchronize());
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	while ((r = read(fds[0], out + len, sizeof(out) - 1 - (size_t)len)) > 0)
		len += r;
	close(fds[0]);
	out[len] = 0;
	fputs(out, stdout);

	for (int g = 0; g < GROUPS; g++) {
		for (int t = 0; t < THREADS; t++)
			if (asprintf(&want[nw++], "group %d thread %d: int %d float %.3f str %s",
				     g, t, 100 + g * 10 + t, 0.5f * (float)(g + t),
				     t ? "odd" : "even") < 0)
				HIP_FAIL("out of memory");
		if (asprintf(&want[nw++], "group %d: done! %x %ld", g, 0xbeef + g,
			     -1234567890123l * (g + 1)) < 0)
			HIP_FAIL("out of memory");
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (n == (int)(sizeof(got) / sizeof(got[0])))
			HIP_FAIL("more than %d lines printed", n);
		got[n++] = line;
	}
	if (n != nw)
		HIP_FAIL("%d lines printed, not %d", n, nw);
	qsort(want, (size_t)nw, sizeof(want[0]), cmp_line);
	qsort(got, (size_t)n, sizeof(got[0]), cmp_line);
	for (int k = 0; k < n; k++)
		if (strcmp(got[k], want[k]))
			HIP_FAIL("line \"%s\", expected \"%s\"", got[k], want[k]);
	printf("the kernel printed the %d lines expected\n", n);
	printf("PASS: hip_printf\n");
	return 0;
}
