/* SPDX-License-Identifier: MIT */
/*
 * Queues of kfdtrace's libhsakmt on the simulated device (libkfdsim.so
 * preloaded, profile from KFDSIM_PROFILE). The simulator checks what a
 * 6.12+ kernel checks: every buffer GPU-mapped with its exact size and the
 * EOP/CWSR sizes equal to the kernel's own computation, so a queue that is
 * created proves the library's sizing for that GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

#define MAX_NODES		64

static HsaSystemProperties sys_props;
static HsaNodeProperties props[MAX_NODES];
static HSAuint32 gpu_nodes[MAX_NODES], cpu_node;
static unsigned int n_gpus;
static HsaVersionInfo kfd;

static int
group_setup(void **state)
{
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtGetVersion(&kfd) != HSAKMT_STATUS_SUCCESS ||
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

/* A ring and a read/write pointer page, GPU-mapped on @node, as ROCr makes them. */
struct ring {
	void *ring;
	HSAuint64 size;
	HSAuint64 *ptrs;
};

static void
ring_alloc(struct ring *r, HSAuint32 node, HSAuint64 size)
{
	HsaMemFlags flags = { 0 };
	HSAuint64 va;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	r->size = size;
	r->ring = NULL;
	r->ptrs = NULL;
	assert_int_equal(hsaKmtAllocMemory(0, size, flags, &r->ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(r->ring, size, &va, (HsaMemMapFlags){ 0 }, 1,
						   &node), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAllocMemory(0, 4096, flags, (void **)&r->ptrs),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(r->ptrs, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
						   &node), HSAKMT_STATUS_SUCCESS);
	memset(r->ptrs, 0, 4096);
}

static void
ring_free(struct ring *r)
{
	assert_int_equal(hsaKmtUnmapMemoryToGPU(r->ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(r->ring, r->size), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(r->ptrs), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(r->ptrs, 4096), HSAKMT_STATUS_SUCCESS);
}

static HSAKMT_STATUS
create(HSAuint32 node, HSA_QUEUE_TYPE type, struct ring *r, HsaQueueResource *res)
{
	memset(res, 0, sizeof(*res));
	if (type == HSA_QUEUE_COMPUTE_AQL) {
		/* AQL queues use the runtime's pointers. */
		res->QueueRptrValue = (uintptr_t)&r->ptrs[0];
		res->QueueWptrValue = (uintptr_t)&r->ptrs[1];
	}
	return hsaKmtCreateQueue(node, type, 100, HSA_QUEUE_PRIORITY_NORMAL, r->ring, r->size,
				 NULL, res);
}

/* Every queue type ROCr creates, on every GPU: create, ring, update, destroy. */
static void
test_create_destroy_all_types(void **state)
{
	static const HSA_QUEUE_TYPE types[] = {
		HSA_QUEUE_COMPUTE_AQL, HSA_QUEUE_COMPUTE, HSA_QUEUE_SDMA,
	};

	for (unsigned int g = 0; g < n_gpus; g++) {
		for (unsigned int t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
			HsaQueueResource res;
			struct ring r;
			HSAuint32 kid = ~0u;

			ring_alloc(&r, gpu_nodes[g], 64 << 10);
			assert_int_equal(create(gpu_nodes[g], types[t], &r, &res),
					 HSAKMT_STATUS_SUCCESS);
			assert_true(res.QueueId != 0);
			assert_non_null(res.Queue_DoorBell);
			/* Non-AQL queues get the library's own pointer page. */
			if (types[t] != HSA_QUEUE_COMPUTE_AQL) {
				assert_true(res.QueueRptrValue != 0);
				assert_true(res.QueueWptrValue == res.QueueRptrValue + 8);
				*res.Queue_write_ptr_aql = 0;
			}
			/* The doorbell page is mapped: ring it. */
			*res.Queue_DoorBell_aql = 1;
			assert_int_equal(hsaKmtGetKernelQueueId(res.QueueId, &kid),
					 HSAKMT_STATUS_SUCCESS);
			assert_true(kid < 1024);
			assert_int_equal(hsaKmtUpdateQueue(res.QueueId, 50, HSA_QUEUE_PRIORITY_HIGH,
							   r.ring, r.size, NULL),
					 HSAKMT_STATUS_SUCCESS);
			assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
			/* Gone: the handle is refused, not followed. */
			assert_int_equal(hsaKmtDestroyQueue(res.QueueId),
					 HSAKMT_STATUS_INVALID_PARAMETER);
			ring_free(&r);
		}
	}
}

/* Two queues on one GPU: different ids and doorbells in one mapped page. */
static void
test_two_queues_doorbells(void **state)
{
	HsaQueueResource a, b;
	HSAuint32 ka, kb;
	struct ring ra, rb;
	HSAuint32 node = gpu_nodes[0];

	ring_alloc(&ra, node, 4096);
	ring_alloc(&rb, node, 4096);
	assert_int_equal(create(node, HSA_QUEUE_COMPUTE_AQL, &ra, &a), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(create(node, HSA_QUEUE_COMPUTE_AQL, &rb, &b), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetKernelQueueId(a.QueueId, &ka), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetKernelQueueId(b.QueueId, &kb), HSAKMT_STATUS_SUCCESS);
	assert_int_not_equal(ka, kb);
	assert_true(a.QueueDoorBell != b.QueueDoorBell);
	/* Both doorbells sit in the node's one doorbell slice. */
	assert_true((a.QueueDoorBell ^ b.QueueDoorBell) < 8192);
	assert_int_equal(hsaKmtDestroyQueue(a.QueueId), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyQueue(b.QueueId), HSAKMT_STATUS_SUCCESS);
	ring_free(&ra);
	ring_free(&rb);
}

static void
test_create_bad_args(void **state)
{
	HsaQueueResource res;
	struct ring r;
	HSAuint32 node = gpu_nodes[0];

	ring_alloc(&r, node, 4096);
	memset(&res, 0, sizeof(res));
	assert_int_equal(hsaKmtCreateQueue(sys_props.NumNodes, HSA_QUEUE_COMPUTE, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE, 100, (HSA_QUEUE_PRIORITY)4,
					   r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE, 100, (HSA_QUEUE_PRIORITY)-4,
					   r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_MULTIMEDIA_DECODE, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	/* The kernel refuses: percentage over 100, ring not a power of two. */
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE, 101,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, 3000, NULL, &res),
			 HSAKMT_STATUS_ERROR);
	/* A ring that is not GPU-mapped (kernels that check buffers: 1.16+). */
	if (kfd.KernelInterfaceMinorVersion >= 16)
		assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE, 100,
						   HSA_QUEUE_PRIORITY_NORMAL, &res, 4096, NULL,
						   &res), HSAKMT_STATUS_ERROR);
	/* A CPU node has no queues. */
	assert_int_equal(hsaKmtCreateQueue(cpu_node, HSA_QUEUE_COMPUTE, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_ERROR);
	/* Naming an SDMA engine needs the Ext call. */
	assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_SDMA_BY_ENG_ID, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL, &res),
			 HSAKMT_STATUS_ERROR);
	ring_free(&r);
}

/* Unknown handles are refused everywhere, never dereferenced. */
static void
test_unknown_queue(void **state)
{
	HSA_QUEUEID bogus = (HSA_QUEUEID)(uintptr_t)&sys_props;
	HSAuint32 mask[2] = { ~0u, ~0u }, id;
	HsaQueueInfo info;
	char ring[64];

	assert_int_equal(hsaKmtDestroyQueue(0), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtDestroyQueue(bogus), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtUpdateQueue(bogus, 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
					   sizeof(ring), NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSetQueueCUMask(bogus, 64, mask), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetQueueInfo(bogus, &info), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetKernelQueueId(bogus, &id), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAllocQueueGWS(bogus, 1, &id), HSAKMT_STATUS_INVALID_PARAMETER);
}

static void
test_cu_mask_and_info(void **state)
{
	HSAuint32 node = gpu_nodes[0];
	HSAuint32 cus = props[node].NumFComputeCores / props[node].NumSIMDPerCU;
	HSAuint32 words = (cus + 31) / 32, mask[64] = { 0 };
	HsaQueueResource res, sdma;
	HsaQueueInfo info;
	struct ring r, rs;

	ring_alloc(&r, node, 4096);
	ring_alloc(&rs, node, 4096);
	assert_int_equal(create(node, HSA_QUEUE_COMPUTE_AQL, &r, &res), HSAKMT_STATUS_SUCCESS);

	/* The kernel reports wave state only for an inactive queue. */
	assert_int_equal(hsaKmtGetQueueInfo(res.QueueId, &info), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtUpdateQueue(res.QueueId, 0, HSA_QUEUE_PRIORITY_NORMAL, NULL, 0,
					   NULL), HSAKMT_STATUS_SUCCESS);
	/* A new queue runs on every CU. */
	memset(&info, 0, sizeof(info));
	assert_int_equal(hsaKmtGetQueueInfo(res.QueueId, &info), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(info.NumCUAssigned, words * 32);
	assert_non_null(info.CUMaskInfo);
	assert_int_equal(info.CUMaskInfo[0], cus >= 32 ? ~0u : (1u << cus) - 1);
	/* Wave state follows the control stack, which follows the header. */
	assert_non_null(info.SaveAreaHeader);
	assert_true((char *)info.UserContextSaveArea > (char *)info.SaveAreaHeader);
	assert_int_equal(((char *)info.UserContextSaveArea - (char *)info.SaveAreaHeader) % 4096, 0);
	/* A queue that never ran saved nothing. */
	assert_int_equal(info.ControlStackUsedInBytes, 0);
	assert_ptr_equal(info.ControlStackTop, info.UserContextSaveArea);

	/* Counts must be whole 32-bit words; no mask at all is refused. */
	assert_int_equal(hsaKmtSetQueueCUMask(res.QueueId, 0, mask),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSetQueueCUMask(res.QueueId, 33, mask),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtSetQueueCUMask(res.QueueId, 32, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	/* Half the CUs, in pairs as WGP parts need. */
	for (HSAuint32 i = 0; i < (cus / 2 & ~1u); i++)
		mask[i / 32] |= 1u << (i % 32);
	assert_int_equal(hsaKmtSetQueueCUMask(res.QueueId, words * 32, mask),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetQueueInfo(res.QueueId, &info), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(info.NumCUAssigned, words * 32);
	assert_memory_equal(info.CUMaskInfo, mask, words * 4);
	assert_int_equal(hsaKmtGetQueueInfo(res.QueueId, NULL), HSAKMT_STATUS_INVALID_PARAMETER);

	/* SDMA queues have no save area to report. */
	assert_int_equal(create(node, HSA_QUEUE_SDMA, &rs, &sdma), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetQueueInfo(sdma.QueueId, &info), HSAKMT_STATUS_ERROR);

	assert_int_equal(hsaKmtDestroyQueue(sdma.QueueId), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
	ring_free(&r);
	ring_free(&rs);
}

/*
 * Each SDMA engine by id (KFD 1.17), and one past the last. Older kernels
 * get the 88-byte request and refuse the type.
 */
static void
test_sdma_by_engine(void **state)
{
	HSAuint32 node = gpu_nodes[0];
	HSAuint32 engines = props[node].NumSdmaEngines + props[node].NumSdmaXgmiEngines;
	bool by_id = kfd.KernelInterfaceMinorVersion >= 17;
	HsaQueueResource res;
	struct ring r;

	ring_alloc(&r, node, 4096);
	for (HSAuint32 e = 0; e < engines; e++) {
		memset(&res, 0, sizeof(res));
		assert_int_equal(hsaKmtCreateQueueExt(node, HSA_QUEUE_SDMA_BY_ENG_ID, 100,
						      HSA_QUEUE_PRIORITY_NORMAL, e, r.ring, r.size,
						      NULL, &res),
				 by_id ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR);
		if (by_id)
			assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
	}
	memset(&res, 0, sizeof(res));
	assert_int_equal(hsaKmtCreateQueueExt(node, HSA_QUEUE_SDMA_BY_ENG_ID, 100,
					      HSA_QUEUE_PRIORITY_NORMAL, engines, r.ring, r.size,
					      NULL, &res), HSAKMT_STATUS_ERROR);
	if (props[node].NumSdmaXgmiEngines) {
		memset(&res, 0, sizeof(res));
		assert_int_equal(hsaKmtCreateQueue(node, HSA_QUEUE_SDMA_XGMI, 100,
						   HSA_QUEUE_PRIORITY_NORMAL, r.ring, r.size, NULL,
						   &res), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
	}
	ring_free(&r);
}

/* GWS: one queue may hold it; a second is refused; release gives it back. */
static void
test_gws(void **state)
{
	HSAuint32 node = gpu_nodes[0], first = 99;
	HsaQueueResource a, b;
	struct ring ra, rb;
	HSAKMT_STATUS st;

	ring_alloc(&ra, node, 4096);
	ring_alloc(&rb, node, 4096);
	assert_int_equal(create(node, HSA_QUEUE_COMPUTE_AQL, &ra, &a), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(create(node, HSA_QUEUE_COMPUTE_AQL, &rb, &b), HSAKMT_STATUS_SUCCESS);
	st = hsaKmtAllocQueueGWS(a.QueueId, props[node].NumGws, &first);
	if (props[node].NumGws) {
		assert_int_equal(st, HSAKMT_STATUS_SUCCESS);
		assert_int_equal(first, 0);
		/* EBUSY: another queue holds it. */
		assert_int_equal(hsaKmtAllocQueueGWS(b.QueueId, 1, &first),
				 HSAKMT_STATUS_OUT_OF_RESOURCES);
		assert_int_equal(hsaKmtAllocQueueGWS(a.QueueId, 0, NULL), HSAKMT_STATUS_SUCCESS);
		/* EINVAL: releasing what is not held. */
		assert_int_equal(hsaKmtAllocQueueGWS(a.QueueId, 0, NULL),
				 HSAKMT_STATUS_INVALID_PARAMETER);
	} else {
		/* ENODEV: a GPU without GWS. */
		assert_int_equal(st, HSAKMT_STATUS_NOT_SUPPORTED);
	}
	assert_int_equal(hsaKmtDestroyQueue(a.QueueId), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyQueue(b.QueueId), HSAKMT_STATUS_SUCCESS);
	ring_free(&ra);
	ring_free(&rb);
}

/* ROCr's BindTrapHandler: on every GPU, before any queue. */
static void
test_trap_handler(void **state)
{
	HsaMemFlags flags = { 0 };
	HSAuint64 va;
	void *tba = NULL;

	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(0, 8192, flags, &tba), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPU(tba, 8192, &va), HSAKMT_STATUS_SUCCESS);
	for (unsigned int g = 0; g < n_gpus; g++)
		assert_int_equal(hsaKmtSetTrapHandler(gpu_nodes[g], tba, 4096,
						      (char *)tba + 4096, 4096),
				 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtSetTrapHandler(sys_props.NumNodes, tba, 4096, NULL, 0),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	/* gpu_id 0 reaches the kernel, which refuses it. */
	assert_int_equal(hsaKmtSetTrapHandler(cpu_node, tba, 4096, NULL, 0), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(tba), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(tba, 8192), HSAKMT_STATUS_SUCCESS);
}

/* Queues left at close are destroyed and their buffers freed by the library. */
static void
test_close_with_queue(void **state)
{
	HsaQueueResource res;
	struct ring r;

	ring_alloc(&r, gpu_nodes[0], 4096);
	assert_int_equal(create(gpu_nodes[0], HSA_QUEUE_COMPUTE_AQL, &r, &res),
			 HSAKMT_STATUS_SUCCESS);
	/* The ring is pinned by the queue (EBUSY, 1.16+), so it stays mapped. */
	if (kfd.KernelInterfaceMinorVersion >= 16)
		assert_int_equal(hsaKmtUnmapMemoryToGPU(r.ring), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyQueue(res.QueueId),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sys_props), HSAKMT_STATUS_SUCCESS);
	/* A new library state: the old handle means nothing. */
	assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_INVALID_PARAMETER);
	/* And the kernel released the queue: a new one can take its place. */
	ring_alloc(&r, gpu_nodes[0], 4096);
	assert_int_equal(create(gpu_nodes[0], HSA_QUEUE_COMPUTE_AQL, &r, &res),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
	ring_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_destroy_all_types),
		cmocka_unit_test(test_two_queues_doorbells),
		cmocka_unit_test(test_create_bad_args),
		cmocka_unit_test(test_unknown_queue),
		cmocka_unit_test(test_cu_mask_and_info),
		cmocka_unit_test(test_sdma_by_engine),
		cmocka_unit_test(test_gws),
		cmocka_unit_test(test_trap_handler),
		cmocka_unit_test(test_close_with_queue),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
