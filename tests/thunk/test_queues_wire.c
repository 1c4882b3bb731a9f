/* SPDX-License-Identifier: MIT */
/*
 * What kfdtrace's libhsakmt puts on the wire for queues, events, SVM and
 * the runtime-enable handshake: the request codes (their size bits are
 * part of the ABI) and the argument bytes as the kernel receives them.
 *
 * ioctl_spy records the library's requests.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "ioctl_spy.h"

#include <kfdtrace/kfd_abi.h>

#define MAX_NODES	64

/* A node's gpu_id as sysfs (the simulator's) shows it. */
static unsigned int
sysfs_gpu_id(unsigned int node)
{
	char path[128];
	unsigned int id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/gpu_id",
		 node);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%u", &id) != 1)
			id = 0;
		fclose(f);
	}
	return id;
}

static HsaSystemProperties sys_props;
static HsaVersionInfo kfd;
static HSAuint32 gpu_nodes[MAX_NODES];
static HsaNodeProperties gpu0;
static unsigned int n_gpus;
static bool dgpu;

static int
group_setup(void **state)
{
	HsaNodeProperties p;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtGetVersion(&kfd) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys_props) != HSAKMT_STATUS_SUCCESS)
		return -1;
	for (HSAuint32 i = 0; i < sys_props.NumNodes && i < MAX_NODES; i++) {
		if (hsaKmtGetNodeProperties(i, &p) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (p.NumFComputeCores) {
			if (!n_gpus)
				gpu0 = p;
			gpu_nodes[n_gpus++] = i;
			dgpu |= p.NumCPUCores == 0;
		}
	}
	return n_gpus ? 0 : -1;
}

static int
group_teardown(void **state)
{
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

/*
 * ROCr 5.2.3's first call, on the kernel's interface: before KFD 1.13 the
 * ROCm-only DBG_TRAP version query and nothing else; from 1.13 one
 * RUNTIME_ENABLE (the firmware check before it sends nothing).
 */
static void
test_runtime_enable_wire(void **state)
{
	const struct spy_call *c;
	struct kfd_abi_dbg_trap_old_args a;
	struct kfd_abi_runtime_enable_args re;

	if (kfd.KernelInterfaceMinorVersion >= 13) {
		bool fw = hsaKmtCheckRuntimeDebugSupport() == HSAKMT_STATUS_SUCCESS;

		spy_reset();
		assert_int_equal(hsaKmtRuntimeEnable(NULL, false),
				 fw ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_NOT_SUPPORTED);
		assert_int_equal(spy_n, fw ? 1 : 0);
		if (!fw)
			return;
		c = &spy_calls[0];
		assert_int_equal(c->request, KFD_ABI_IOC_RUNTIME_ENABLE);
		memcpy(&re, c->in, sizeof(re));
		assert_int_equal(re.r_debug, 0);
		assert_int_equal(re.mode_mask, KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK);
		assert_int_equal(re.capabilities_mask, 0);
		/* The other tests make queues, which need the runtime off. */
		assert_int_equal(hsaKmtRuntimeDisable(), HSAKMT_STATUS_SUCCESS);
		return;
	}
	spy_reset();
	assert_int_equal(hsaKmtRuntimeEnable(NULL, false), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(spy_n, 1);
	c = &spy_calls[0];
	assert_int_equal(c->request, KFD_ABI_IOC_DBG_TRAP_OLD);
	memcpy(&a, c->in, sizeof(a));
	assert_int_equal(a.op, KFD_ABI_DBG_TRAP_OLD_GET_VERSION);
	assert_int_equal(a.pid, getpid());
}

/* The first CREATE_EVENT of a dGPU process hands over the signal page's BO. */
static void
test_event_page_wire(void **state)
{
	struct kfd_abi_create_event_args a;
	HsaEventDescriptor d;
	HsaEvent *e1, *e2;
	const struct spy_call *c;

	memset(&d, 0, sizeof(d));
	spy_reset();
	assert_int_equal(hsaKmtCreateEvent(&d, false, false, &e1), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCreateEvent(&d, false, false, &e2), HSAKMT_STATUS_SUCCESS);
	c = spy_find(KFD_ABI_IOCTL_BASE, 0x08, 0);
	assert_non_null(c);
	memcpy(&a, c->in, sizeof(a));
	if (dgpu) {
		/* A BO handle: the first GPU's id in the high word. */
		assert_int_equal(a.event_page_offset >> 32, sysfs_gpu_id(gpu_nodes[0]));
		/* It was allocated (GTT, 32 KiB) and mapped before. */
		assert_non_null(spy_find(KFD_ABI_IOCTL_BASE, 0x16, 0));
		assert_non_null(spy_find(KFD_ABI_IOCTL_BASE, 0x18, 0));
	} else {
		assert_int_equal(a.event_page_offset, 0);
	}
	c = spy_find(KFD_ABI_IOCTL_BASE, 0x08, 1);
	assert_non_null(c);
	memcpy(&a, c->in, sizeof(a));
	assert_int_equal(a.event_page_offset, 0);
	assert_int_equal(a.event_type, HSA_EVENTTYPE_SIGNAL);
	assert_int_equal(a.auto_reset, 1);
	assert_int_equal(hsaKmtDestroyEvent(e1), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(e2), HSAKMT_STATUS_SUCCESS);
}

/* SVM: the size bits carry the attributes, which follow the header. */
static void
test_svm_wire(void **state)
{
	HSA_SVM_ATTRIBUTE attrs[3] = {
		{ HSA_SVM_ATTR_PREFERRED_LOC, gpu_nodes[0] },
		{ HSA_SVM_ATTR_SET_FLAGS, HSA_SVM_FLAG_COHERENT },
		{ HSA_SVM_ATTR_GRANULARITY, 3 },
	};
	struct kfd_abi_svm_args a;
	struct kfd_abi_svm_attribute wire[3];
	const struct spy_call *c;
	void *buf = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(buf != MAP_FAILED);
	spy_reset();
	assert_int_equal(hsaKmtSVMSetAttr(buf, 65536, 3, attrs), HSAKMT_STATUS_SUCCESS);
	c = spy_find(KFD_ABI_IOCTL_BASE, 0x20, 0);
	assert_non_null(c);
	assert_int_equal(c->request, KFD_ABI_IOC_SVM_NATTR(3));
	assert_int_equal(KFD_ABI_IOC_SIZE(c->request), 24 + 3 * 8);
	memcpy(&a, c->in, sizeof(a));
	memcpy(wire, c->in + sizeof(a), sizeof(wire));
	assert_int_equal(a.start_addr, (uintptr_t)buf);
	assert_int_equal(a.size, 65536);
	assert_int_equal(a.op, KFD_ABI_SVM_OP_SET_ATTR);
	assert_int_equal(a.nattr, 3);
	/* Node ids became gpu_ids; other values pass unchanged. */
	assert_int_equal(wire[0].value, sysfs_gpu_id(gpu_nodes[0]));
	assert_int_equal(wire[1].value, HSA_SVM_FLAG_COHERENT);
	assert_int_equal(wire[2].value, 3);
	munmap(buf, 65536);
}

/* CREATE_QUEUE: 96 bytes from KFD 1.17 (sdma_engine_id), 88 before. */
static void
test_create_queue_wire(void **state)
{
	HsaMemFlags flags = { 0 };
	HsaQueueResource res;
	struct kfd_abi_create_queue_args a;
	const struct spy_call *c;
	void *ring = NULL, *ptrs = NULL;
	HSAuint64 va;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(0, 8192, flags, &ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(ring, 8192, &va, (HsaMemMapFlags){ 0 }, 1,
						   &gpu_nodes[0]), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAllocMemory(0, 4096, flags, &ptrs), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(ptrs, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
						   &gpu_nodes[0]), HSAKMT_STATUS_SUCCESS);
	memset(&res, 0, sizeof(res));
	res.QueueRptrValue = (uintptr_t)ptrs;
	res.QueueWptrValue = (uintptr_t)ptrs + 8;
	spy_reset();
	assert_int_equal(hsaKmtCreateQueue(gpu_nodes[0], HSA_QUEUE_COMPUTE_AQL, 90,
					   HSA_QUEUE_PRIORITY_HIGH, ring, 8192, NULL, &res),
			 HSAKMT_STATUS_SUCCESS);
	c = spy_find(KFD_ABI_IOCTL_BASE, 0x02, 0);
	assert_non_null(c);
	assert_int_equal(KFD_ABI_IOC_SIZE(c->request),
			 kfd.KernelInterfaceMinorVersion >= 17 ? 96 : 88);
	memcpy(&a, c->in, sizeof(a));
	assert_int_equal(a.queue_type, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL);
	assert_int_equal(a.ring_base_address, (uintptr_t)ring);
	assert_int_equal(a.ring_size, 8192);
	assert_int_equal(a.read_pointer_address, (uintptr_t)ptrs);
	assert_int_equal(a.write_pointer_address, (uintptr_t)ptrs + 8);
	assert_int_equal(a.queue_percentage, 90);
	assert_int_equal(a.queue_priority, 11);		/* HIGH on 0..15 */
	/* An AQL compute queue brings its save area, and an EOP buffer except on GC 9.4.x. */
	if (gpu0.EngineId.ui32.Major == 9 && gpu0.EngineId.ui32.Minor == 4) {
		assert_int_equal(a.eop_buffer_address, 0);
		assert_int_equal(a.eop_buffer_size, 0);
	} else {
		assert_true(a.eop_buffer_address != 0);
		assert_int_equal(a.eop_buffer_size, 4096);
	}
	assert_true(a.ctx_save_restore_address != 0);
	assert_true(a.ctl_stack_size > 0 && a.ctl_stack_size % 4096 == 0);
	assert_true(a.ctx_save_restore_size > a.ctl_stack_size);
	assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(ring, 8192), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(ptrs), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(ptrs, 4096), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_enable_wire),
		cmocka_unit_test(test_event_page_wire),
		cmocka_unit_test(test_svm_wire),
		cmocka_unit_test(test_create_queue_wire),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
