/* SPDX-License-Identifier: MIT */
/*
 * Counters and profiling of kfdtrace's libhsakmt on the simulated device:
 * the counter tables per GPU generation, the trace API's refusals (a
 * discrete GPU has no privileged counters to trace), and the ROCm-only
 * SPM and PC sampling ioctls, which an upstream kernel refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

#define MAX_NODES	64

static HsaSystemProperties sys_props;
static HsaNodeProperties props[MAX_NODES];
static HSAuint32 gpu_nodes[MAX_NODES], cpu_node;
static unsigned int n_gpus;

static int
group_setup(void **state)
{
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys_props) != HSAKMT_STATUS_SUCCESS ||
	    sys_props.NumNodes > MAX_NODES)
		return -1;
	for (HSAuint32 i = 0; i < sys_props.NumNodes; i++) {
		if (hsaKmtGetNodeProperties(i, &props[i]) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (props[i].NumFComputeCores)
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

static const HsaCounterBlockProperties *
next_block(const HsaCounterBlockProperties *b)
{
	return (const HsaCounterBlockProperties *)&b->Counters[b->NumCounters];
}

/* Find a block by its HSA_PROFILEBLOCK_AMD_* id. */
static const HsaCounterBlockProperties *
find_block(const HsaCounterProperties *p, const HSA_UUID *id)
{
	const HsaCounterBlockProperties *b = &p->Blocks[0];

	for (HSAuint32 i = 0; i < p->NumBlocks; i++, b = next_block(b))
		if (!memcmp(&b->BlockId, id, sizeof(*id)))
			return b;
	return NULL;
}

static void
test_counter_properties(void **state)
{
	HSAuint32 node = gpu_nodes[0];
	unsigned int major = props[node].EngineId.ui32.Major;
	const HsaCounterBlockProperties *sq, *b;
	HsaCounterProperties *p = NULL, *again = NULL;
	HSAuint32 conc = 0;
	HSAKMT_STATUS st;

	st = hsaKmtPmcGetCounterProperties(node, &p);
	if (major != 9 && major != 10) {
		/* No table for this generation: AMD's library says so too. */
		assert_int_equal(st, HSAKMT_STATUS_INVALID_PARAMETER);
		return;
	}
	assert_int_equal(st, HSAKMT_STATUS_SUCCESS);
	assert_non_null(p);
	assert_int_equal(p->NumBlocks, major == 9 ? 20 : 15);
	/* The blocks' slots add up; every counter is a 64-bit non-privileged one. */
	b = &p->Blocks[0];
	for (HSAuint32 i = 0; i < p->NumBlocks; i++, b = next_block(b)) {
		assert_true(b->NumCounters > 0);
		conc += b->NumConcurrent;
		for (HSAuint32 c = 0; c < b->NumCounters; c++) {
			assert_int_equal(b->Counters[c].Type, HSA_PROFILE_TYPE_NONPRIV_IMMEDIATE);
			assert_int_equal(b->Counters[c].CounterSizeInBits, 64);
			assert_int_equal(b->Counters[c].BlockIndex, b->Counters[0].BlockIndex);
		}
	}
	assert_int_equal(p->NumConcurrent, conc);

	sq = find_block(p, &HSA_PROFILEBLOCK_AMD_SQ);
	assert_non_null(sq);
	assert_int_equal(sq->NumConcurrent, 16);
	if (major == 9) {
		/* GFX9's SQ events: 1..183 and 255..372. */
		assert_int_equal(sq->NumCounters, 301);
		assert_int_equal(sq->Counters[0].CounterId, 1);
		assert_int_equal(sq->Counters[182].CounterId, 183);
		assert_int_equal(sq->Counters[183].CounterId, 255);
		assert_int_equal(sq->Counters[300].CounterId, 372);
		assert_non_null(find_block(p, &HSA_PROFILEBLOCK_AMD_TCC));
	} else {
		assert_int_equal(sq->NumCounters, 512);
		assert_null(find_block(p, &HSA_PROFILEBLOCK_AMD_TCC));
	}
	assert_null(find_block(p, &HSA_PROFILEBLOCK_AMD_MC));

	/* Built once: the same table again. */
	assert_int_equal(hsaKmtPmcGetCounterProperties(node, &again), HSAKMT_STATUS_SUCCESS);
	assert_ptr_equal(again, p);
}

static void
test_counter_properties_errors(void **state)
{
	HsaCounterProperties *p;

	assert_int_equal(hsaKmtPmcGetCounterProperties(gpu_nodes[0], NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPmcGetCounterProperties(sys_props.NumNodes, &p),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	/* A CPU node is no GPU generation with a table. */
	assert_int_equal(hsaKmtPmcGetCounterProperties(cpu_node, &p),
			 HSAKMT_STATUS_INVALID_PARAMETER);
}

static void
test_traces(void **state)
{
	HsaCounter c;
	HsaPmcTraceRoot root;
	HSATraceId bogus = (HSATraceId)(uintptr_t)&root;
	char buf[64];

	memset(&c, 0, sizeof(c));
	c.Type = HSA_PROFILE_TYPE_NONPRIV_IMMEDIATE;
	c.CounterSizeInBits = 64;
	c.BlockIndex = 14;	/* SQ */
	/* Only privileged counters are traced: nothing to register. */
	assert_int_equal(hsaKmtPmcRegisterTrace(gpu_nodes[0], 1, &c, &root),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	/* A privileged counter of a block the GPU lacks (no IOMMU here). */
	c.Type = HSA_PROFILE_TYPE_PRIVILEGED_IMMEDIATE;
	c.BlockIndex = 24;	/* IOMMUV2 */
	assert_int_equal(hsaKmtPmcRegisterTrace(gpu_nodes[0], 1, &c, &root),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	c.BlockIndex = 99;
	assert_int_equal(hsaKmtPmcRegisterTrace(gpu_nodes[0], 1, &c, &root),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPmcRegisterTrace(gpu_nodes[0], 0, &c, &root),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPmcRegisterTrace(gpu_nodes[0], 1, NULL, &root),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPmcRegisterTrace(sys_props.NumNodes, 1, &c, &root),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtPmcRegisterTrace(gpu_nodes[0], 513, &c, &root),
			 HSAKMT_STATUS_NO_MEMORY);

	/* Trace ids the library did not hand out. */
	assert_int_equal(hsaKmtPmcUnregisterTrace(gpu_nodes[0], 0), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPmcUnregisterTrace(gpu_nodes[0], bogus), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPmcAcquireTraceAccess(gpu_nodes[0], bogus),
			 HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPmcReleaseTraceAccess(gpu_nodes[0], bogus),
			 HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPmcStartTrace(bogus, buf, sizeof(buf)), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPmcStartTrace(bogus, NULL, sizeof(buf)),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPmcQueryTrace(bogus), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPmcStopTrace(bogus), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPmcStopTrace(0), HSAKMT_STATUS_INVALID_PARAMETER);
}

/* SPM is ROCm-only: AMD's library hands back the ioctl's -1. */
static void
test_spm(void **state)
{
	HSAuint32 timeout = 10, copied = 77;
	bool lost = true;
	char buf[4096];

	assert_int_equal((int)hsaKmtSPMAcquire(gpu_nodes[0]), -1);
	assert_int_equal((int)hsaKmtSPMSetDestBuffer(gpu_nodes[0], sizeof(buf), &timeout, &copied,
						     buf, &lost), -1);
	/* The kernel's zero-filled struct came back. */
	assert_int_equal(copied, 0);
	assert_false(lost);
	assert_int_equal((int)hsaKmtSPMRelease(gpu_nodes[0]), -1);
	assert_int_equal(hsaKmtSPMAcquire(sys_props.NumNodes), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtSPMSetDestBuffer(gpu_nodes[0], sizeof(buf), NULL, &copied, buf,
						&lost), HSAKMT_STATUS_INVALID_PARAMETER);
}

/* PC sampling is ROCm-only too: EINVAL, which AMD's maps to INVALID_PARAMETER. */
static void
test_pc_sampling(void **state)
{
	HsaPcSamplingInfo info[4];
	HsaPcSamplingTraceId id = 5;
	HSAuint32 needed = 99;
	HsaVersionInfo v;

	memset(info, 0, sizeof(info));
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtPcSamplingSupport(), v.KernelInterfaceMinorVersion >= 16 ?
			 HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_NOT_SUPPORTED);
	if (v.KernelInterfaceMinorVersion >= 16) {
		assert_int_equal(hsaKmtPcSamplingQueryCapabilities(gpu_nodes[0], info, 4, &needed),
				 HSAKMT_STATUS_INVALID_PARAMETER);
		assert_int_equal(needed, 4);	/* the struct as sent, copied back */
	}
	assert_int_equal(hsaKmtPcSamplingQueryCapabilities(gpu_nodes[0], info, 4, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPcSamplingCreate(gpu_nodes[0], &info[0], &id),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(id, 0);
	assert_int_equal(hsaKmtPcSamplingCreate(gpu_nodes[0], NULL, &id),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPcSamplingStart(gpu_nodes[0], 0), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtPcSamplingStart(gpu_nodes[0], 3), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPcSamplingStop(gpu_nodes[0], 3), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPcSamplingDestroy(gpu_nodes[0], 3), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtPcSamplingDestroy(sys_props.NumNodes, 3),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_properties),
		cmocka_unit_test(test_counter_properties_errors),
		cmocka_unit_test(test_traces),
		cmocka_unit_test(test_spm),
		cmocka_unit_test(test_pc_sampling),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
