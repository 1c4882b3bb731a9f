/* SPDX-License-Identifier: MIT */
/*
 * What the HIP test programs share: a check that turns any HIP error into
 * a message and exit status 1, and a check of which libhsakmt ROCr loaded
 * (so a run meant for our thunk cannot pass on AMD's, or the reverse).
 */
#ifndef KFDTRACE_TESTS_HIP_CHECK_H
#define KFDTRACE_TESTS_HIP_CHECK_H

#include <hip/hip_runtime.h>

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run CALL; on any error say which call failed and why, and exit 1. */
#define HIP_CHECK(call)							\
	do {								\
		hipError_t e_ = (call);					\
		if (e_ != hipSuccess) {					\
			fprintf(stderr, "%s:%d: %s: %s (%d)\n",		\
				__FILE__, __LINE__, #call,		\
				hipGetErrorString(e_), (int)e_);	\
			exit(1);					\
		}							\
	} while (0)

/* Print a failure that is not a HIP error and exit 1. */
#define HIP_FAIL(...)							\
	do {								\
		fprintf(stderr, "FAIL: " __VA_ARGS__);			\
		fputc('\n', stderr);					\
		exit(1);						\
	} while (0)

static int
hip_thunk_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libhsakmt.so")) {
		*(const char **)data = info->dlpi_name;
		return 1;
	}
	return 0;
}

/*
 * Start HIP, the first thing each program does: stdout is line buffered
 * (a test killed by its timeout still shows how far it got), and
 * hipGetDeviceCount loads ROCr and the thunk. With HIP_TEST_THUNK=FILE
 * set, the libhsakmt loaded in this process must be FILE.
 */
static inline void
hip_start(void)
{
	const char *want = getenv("HIP_TEST_THUNK"), *found = NULL;
	char a[PATH_MAX], b[PATH_MAX];
	int n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	HIP_CHECK(hipGetDeviceCount(&n));
	dl_iterate_phdr(hip_thunk_cb, &found);
	printf("thunk: %s\n", found ? found : "(none loaded)");
	if (!want)
		return;
	if (!found)
		HIP_FAIL("no libhsakmt.so is loaded");
	if (!realpath(want, a))
		HIP_FAIL("HIP_TEST_THUNK=%s: no such file", want);
	if (!realpath(found, b) || strcmp(a, b))
		HIP_FAIL("ROCr loaded %s, not %s", found, want);
}

#endif
