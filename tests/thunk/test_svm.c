/* SPDX-License-Identifier: MIT */
/*
 * SVM attributes and XNACK mode of kfdtrace's libhsakmt on the simulated
 * device: attributes set on a range read back the same (with node ids
 * translated to gpu_ids and back), bad ranges and nodes are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"

#define MAX_NODES	64
#define RANGE_SIZE	(2u << 20)

static HsaSystemProperties sys_props;
static HSAuint32 gpu_nodes[MAX_NODES], cpu_node;
static unsigned int n_gpus;
static void *range;

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
	range = mmap(NULL, RANGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return n_gpus && range != MAP_FAILED ? 0 : -1;
}

static int
group_teardown(void **state)
{
	munmap(range, RANGE_SIZE);
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static void
test_round_trip(void **state)
{
	HSA_SVM_ATTRIBUTE set[5], get[5];
	HSAuint32 gpu = gpu_nodes[n_gpus - 1];

	set[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFERRED_LOC, gpu };
	set[1] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFETCH_LOC, gpu };
	set[2] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_ACCESS, gpu };
	set[3] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_SET_FLAGS, HSA_SVM_FLAG_COHERENT |
							  HSA_SVM_FLAG_GPU_RO };
	set[4] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_GRANULARITY, 4 };
	assert_int_equal(hsaKmtSVMSetAttr(range, RANGE_SIZE, 5, set), HSAKMT_STATUS_SUCCESS);

	get[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFERRED_LOC, 0 };
	get[1] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFETCH_LOC, 0 };
	get[2] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_ACCESS, gpu };
	get[3] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_SET_FLAGS, 0 };
	get[4] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_GRANULARITY, 0 };
	assert_int_equal(hsaKmtSVMGetAttr(range, RANGE_SIZE, 5, get), HSAKMT_STATUS_SUCCESS);
	/* Locations come back as node ids, not gpu_ids. */
	assert_int_equal(get[0].value, gpu);
	assert_int_equal(get[1].value, gpu);
	assert_int_equal(get[2].type, HSA_SVM_ATTR_ACCESS);
	assert_int_equal(get[2].value, gpu);
	assert_true((get[3].value & (HSA_SVM_FLAG_COHERENT | HSA_SVM_FLAG_GPU_RO)) ==
		    (HSA_SVM_FLAG_COHERENT | HSA_SVM_FLAG_GPU_RO));
	assert_int_equal(get[4].value, 4);

	/* Back to system memory and "no preference". */
	set[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFERRED_LOC, INVALID_NODEID };
	set[1] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFETCH_LOC, cpu_node };
	set[2] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_CLR_FLAGS, HSA_SVM_FLAG_GPU_RO };
	assert_int_equal(hsaKmtSVMSetAttr(range, RANGE_SIZE, 3, set), HSAKMT_STATUS_SUCCESS);
	get[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFERRED_LOC, 0 };
	get[1] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_PREFETCH_LOC, 7 };
	get[2] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_SET_FLAGS, 0 };
	assert_int_equal(hsaKmtSVMGetAttr(range, RANGE_SIZE, 3, get), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(get[0].value, INVALID_NODEID);
	assert_int_equal(get[1].value, 0);
	assert_int_equal(get[2].value & HSA_SVM_FLAG_GPU_RO, 0);
	assert_true(get[2].value & HSA_SVM_FLAG_COHERENT);
}

/* Half a range differing from the other half reads back as mixed. */
static void
test_mixed_range(void **state)
{
	HSA_SVM_ATTRIBUTE set = { HSA_SVM_ATTR_PREFERRED_LOC, gpu_nodes[0] };
	HSA_SVM_ATTRIBUTE clr = { HSA_SVM_ATTR_PREFERRED_LOC, INVALID_NODEID };
	HSA_SVM_ATTRIBUTE get = { HSA_SVM_ATTR_PREFERRED_LOC, 0 };

	assert_int_equal(hsaKmtSVMSetAttr(range, RANGE_SIZE, 1, &clr), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtSVMSetAttr(range, RANGE_SIZE / 2, 1, &set), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtSVMGetAttr(range, RANGE_SIZE / 2, 1, &get), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(get.value, gpu_nodes[0]);
	get.value = 0;
	assert_int_equal(hsaKmtSVMGetAttr(range, RANGE_SIZE, 1, &get), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(get.value, INVALID_NODEID);
}

static void
test_bad_args(void **state)
{
	HSA_SVM_ATTRIBUTE a = { HSA_SVM_ATTR_ACCESS, gpu_nodes[0] };
	HSA_SVM_ATTRIBUTE bad_type = { 99, 0 };
	void *hole;

	assert_int_equal(hsaKmtSVMSetAttr(NULL, RANGE_SIZE, 1, &a), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSVMSetAttr(range, 0, 1, &a), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSVMSetAttr((char *)range + 1, 4096, 1, &a),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSVMSetAttr(range, 4095, 1, &a), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSVMSetAttr(range, 4096, 1, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSVMGetAttr(range, 4096, 1, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	/* Unknown node; the CPU is no accessor. */
	a.value = sys_props.NumNodes;
	assert_int_equal(hsaKmtSVMSetAttr(range, 4096, 1, &a), HSAKMT_STATUS_INVALID_NODE_UNIT);
	a.value = cpu_node;
	assert_int_equal(hsaKmtSVMSetAttr(range, 4096, 1, &a), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtSVMGetAttr(range, 4096, 1, &a), HSAKMT_STATUS_INVALID_NODE_UNIT);
	/* The kernel's refusals: unknown attribute; memory with no CPU mapping. */
	assert_int_equal(hsaKmtSVMSetAttr(range, 4096, 1, &bad_type), HSAKMT_STATUS_ERROR);
	a.value = gpu_nodes[0];
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(hole != MAP_FAILED);
	munmap(hole, 4096);
	assert_int_equal(hsaKmtSVMSetAttr(hole, 4096, 1, &a), HSAKMT_STATUS_ERROR);
}

/* Many attributes in one request: the size bits carry them all. */
static void
test_many_attributes(void **state)
{
	HSA_SVM_ATTRIBUTE attrs[64];

	for (unsigned int i = 0; i < 64; i++)
		attrs[i] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_GRANULARITY, i % 10 };
	assert_int_equal(hsaKmtSVMSetAttr(range, RANGE_SIZE, 64, attrs), HSAKMT_STATUS_SUCCESS);
	attrs[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_GRANULARITY, 0 };
	assert_int_equal(hsaKmtSVMGetAttr(range, RANGE_SIZE, 1, attrs), HSAKMT_STATUS_SUCCESS);
	/* The last one written wins. */
	assert_int_equal(attrs[0].value, 63 % 10);
}

static void
test_xnack(void **state)
{
	HSAint32 mode = -5, again = -5;

	assert_int_equal(hsaKmtGetXNACKMode(&mode), HSAKMT_STATUS_SUCCESS);
	assert_true(mode == 0 || mode == 1);
	/* Setting the current mode always works and changes nothing. */
	assert_int_equal(hsaKmtSetXNACKMode(mode), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetXNACKMode(&again), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(again, mode);
	/* Turning it on works where every GPU can, else the kernel's EPERM. */
	if (hsaKmtSetXNACKMode(1) == HSAKMT_STATUS_SUCCESS) {
		assert_int_equal(hsaKmtGetXNACKMode(&again), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(again, 1);
		assert_int_equal(hsaKmtSetXNACKMode(mode), HSAKMT_STATUS_SUCCESS);
	} else {
		assert_int_equal(hsaKmtSetXNACKMode(1), HSAKMT_STATUS_NOT_SUPPORTED);
	}
	assert_int_equal(hsaKmtGetXNACKMode(NULL), HSAKMT_STATUS_INVALID_PARAMETER);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_mixed_range),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_many_attributes),
		cmocka_unit_test(test_xnack),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
