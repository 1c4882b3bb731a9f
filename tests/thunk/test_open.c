/* SPDX-License-Identifier: MIT */
/*
 * Opening and closing kfdtrace's libhsakmt on the simulated device: the
 * reference count, the not-open status of every call, the version, and
 * fork: a child inherits nothing usable until it opens again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"

static void
test_not_open(void **state)
{
	HsaSystemProperties sp;
	HsaVersionInfo v;
	HsaMemFlags f = {0};
	void *p = NULL;

	(void)state;
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sp),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtAllocMemory(0, 4096, f, &p),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	/* Releasing needs no open device, as with AMD's library. */
	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
}

static void
test_refcount(void **state)
{
	HsaVersionInfo v;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_KERNEL_ALREADY_OPENED);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(v.KernelInterfaceMajorVersion, 1);
	assert_true(v.KernelInterfaceMinorVersion >= 1);
	assert_int_equal(hsaKmtGetVersion(NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	/* Still open once. */
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	/* And again: the kernel process (and its VMs) outlive the file. */
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/* What a forked child sees before and after opening again. */
static int
child(void)
{
	HsaSystemProperties sp;
	HsaVersionInfo v;
	HsaMemFlags f = {0};
	void *p = NULL;

	if (hsaKmtGetVersion(&v) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
		return 1;
	if (hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
		return 2;
	/* Reopening gives a clean state: a fresh open, not ALREADY_OPENED. */
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return 3;
	if (hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS || sp.NumNodes < 2)
		return 4;
	f.ui32.HostAccess = 1;
	if (hsaKmtAllocMemory(0, 4096, f, &p) != HSAKMT_STATUS_SUCCESS)
		return 5;
	if (hsaKmtFreeMemory(p, 4096) != HSAKMT_STATUS_SUCCESS)
		return 6;
	if (hsaKmtCloseKFD() != HSAKMT_STATUS_SUCCESS)
		return 7;
	return 0;
}

static void
test_fork(void **state)
{
	HsaSystemProperties sp;
	HsaMemFlags f = {0};
	void *p = NULL;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sp), HSAKMT_STATUS_SUCCESS);
	f.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(0, 8192, f, &p), HSAKMT_STATUS_SUCCESS);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* The parent is untouched by its child's cleanup. */
	assert_int_equal(hsaKmtFreeMemory(p, 8192), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_open),
		cmocka_unit_test(test_refcount),
		cmocka_unit_test(test_fork),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
