/* SPDX-License-Identifier: MIT */
/*
 * Clocks of kfdtrace's libhsakmt on the simulated device: the counters
 * move forward, the CPU counters are the kernel's CLOCK_MONOTONIC_RAW and
 * CLOCK_BOOTTIME in nanoseconds, and the wallclock frequency is the one
 * the amdgpu driver reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

#define MAX_NODES	64

static HsaSystemProperties sys_props;
static HSAuint32 gpu_nodes[MAX_NODES], cpu_node;
static unsigned int n_gpus;

static int
group_setup(void **state)
{
	HsaNodeProperties p;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys_props) != HSAKMT_STATUS_SUCCESS)
		return -1;
	for (HSAuint32 i = 0; i < sys_props.NumNodes && i < MAX_NODES; i++) {
		if (hsaKmtGetNodeProperties(i, &p) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (p.NumFComputeCores)
			gpu_nodes[n_gpus++] = i;
		else
			cpu_node = i;
	}
	return n_gpus ? 0 : -1;
}

static int
group_teardown(void **state)
{
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static uint64_t
clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void
test_monotonic(void **state)
{
	for (unsigned int g = 0; g < n_gpus; g++) {
		HsaClockCounters a, b;
		uint64_t before, after;

		before = clock_ns(CLOCK_MONOTONIC_RAW);
		assert_int_equal(hsaKmtGetClockCounters(gpu_nodes[g], &a), HSAKMT_STATUS_SUCCESS);
		after = clock_ns(CLOCK_MONOTONIC_RAW);
		/* The CPU counter is read inside the call. */
		assert_true(a.CPUClockCounter >= before && a.CPUClockCounter <= after);
		assert_int_equal(a.SystemClockFrequencyHz, 1000000000ull);
		usleep(2000);
		assert_int_equal(hsaKmtGetClockCounters(gpu_nodes[g], &b), HSAKMT_STATUS_SUCCESS);
		assert_true(b.GPUClockCounter > a.GPUClockCounter);
		assert_true(b.CPUClockCounter - a.CPUClockCounter >= 2000000);
		assert_true(b.SystemClockCounter > a.SystemClockCounter);
	}
}

static void
test_cpu_node_and_errors(void **state)
{
	HsaClockCounters c;

	/* A CPU node asks with gpu_id 0: no GPU counter, but the CPU clocks. */
	assert_int_equal(hsaKmtGetClockCounters(cpu_node, &c), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(c.GPUClockCounter, 0);
	assert_true(c.CPUClockCounter > 0);
	assert_int_equal(hsaKmtGetClockCounters(sys_props.NumNodes, &c),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtGetClockCounters(gpu_nodes[0], NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetClockCountersCtx(NULL, gpu_nodes[0], &c),
			 HSAKMT_STATUS_INVALID_PARAMETER);
}

static void
test_wallclock(void **state)
{
	uint64_t hz = 0;

	for (unsigned int g = 0; g < n_gpus; g++) {
		hz = 0;
		assert_int_equal(hsaKmtGetNodeWallclockFrequency(gpu_nodes[g], &hz),
				 HSAKMT_STATUS_SUCCESS);
		/* Whole kHz, and a plausible GPU reference clock (MHz range). */
		assert_int_equal(hz % 1000, 0);
		assert_true(hz >= 1000000 && hz <= 1000000000);
	}
	assert_int_equal(hsaKmtGetNodeWallclockFrequency(cpu_node, &hz),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtGetNodeWallclockFrequency(sys_props.NumNodes, &hz),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtGetNodeWallclockFrequency(gpu_nodes[0], NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
}

/* Closed: every call says so. */
static void
test_closed(void **state)
{
	HsaClockCounters c;
	uint64_t hz;

	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetClockCounters(gpu_nodes[0], &c),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtGetNodeWallclockFrequency(gpu_nodes[0], &hz),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sys_props), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_cpu_node_and_errors),
		cmocka_unit_test(test_wallclock),
		cmocka_unit_test(test_closed),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
