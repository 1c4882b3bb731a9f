/* SPDX-License-Identifier: MIT */
/*
 * A workload on AMD's own thunk (Debian's libhsakmt, unmodified) for the
 * replay tests: what ROCr asks of it for one GPU. Device memory mapped on
 * the GPU and the CPU, host memory, registered user memory, signal events
 * set and waited on, an AQL compute queue with its CWSR area and an SDMA
 * queue (each created, updated, destroyed), an SVM range, clock counters,
 * and everything freed before the KFD is closed.
 *
 * Unexpected statuses go to stderr; the exit status is 0 unless the KFD
 * cannot be opened.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <hsakmt.h>

#include "rp_kmt.h"

static void
queue(HSAuint32 gpu, HSA_QUEUE_TYPE type)
{
	HsaMemFlags flags = { 0 };
	HsaQueueResource res;
	HSAuint64 ring_size = 64 << 10;
	void *ring, *ptrs;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	ring = rp_kmt_alloc_mapped(0, gpu, ring_size, flags);
	ptrs = rp_kmt_alloc_mapped(0, gpu, 4096, flags);
	if (!ring || !ptrs)
		return;
	memset(ptrs, 0, 4096);
	memset(&res, 0, sizeof(res));
	if (type == HSA_QUEUE_COMPUTE_AQL) {
		res.QueueRptrValue = (uintptr_t)ptrs;
		res.QueueWptrValue = (uintptr_t)ptrs + 8;
	}
	rp_kmt_check(hsaKmtCreateQueue(gpu, type, 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
				ring_size, NULL, &res), "CreateQueue");
	if (res.QueueId) {
		rp_kmt_check(hsaKmtUpdateQueue(res.QueueId, 50, HSA_QUEUE_PRIORITY_HIGH,
					ring, ring_size, NULL), "UpdateQueue");
		rp_kmt_check(hsaKmtDestroyQueue(res.QueueId), "DestroyQueue");
	}
	rp_kmt_free_mapped(ring, ring_size);
	rp_kmt_free_mapped(ptrs, 4096);
}

int
main(void)
{
	HsaEventDescriptor ed = { 0 };
	HsaMemFlags vram = { 0 }, host = { 0 };
	HsaClockCounters clk;
	HSA_SVM_ATTRIBUTE attr[2];
	HsaEvent *ev = NULL;
	HSAuint32 gpu = 0;
	void *dev_mem, *host_mem, *user, *svm;

	rp_kmt_prog = "rp_hsakmt";
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_hsakmt: cannot open the KFD\n");
		return 1;
	}
	gpu = rp_kmt_first_gpu();

	vram.ui32.NonPaged = 1;
	vram.ui32.NoSubstitute = 1;
	vram.ui32.HostAccess = 1;
	dev_mem = rp_kmt_alloc_mapped(gpu, gpu, 2 << 20, vram);
	if (dev_mem)
		memset(dev_mem, 0x11, 4096);
	host.ui32.NonPaged = 1;
	host.ui32.HostAccess = 1;
	host_mem = rp_kmt_alloc_mapped(0, gpu, 1 << 20, host);

	user = aligned_alloc(4096, 1 << 16);
	if (user) {
		HSAuint64 va;

		rp_kmt_check(hsaKmtRegisterMemoryToNodes(user, 1 << 16, 1, &gpu),
		      "RegisterMemoryToNodes");
		rp_kmt_check(hsaKmtMapMemoryToGPU(user, 1 << 16, &va), "MapMemoryToGPU user");
	}

	ed.EventType = HSA_EVENTTYPE_SIGNAL;
	ed.NodeId = gpu;
	ed.SyncVar.SyncVar.UserData = NULL;
	rp_kmt_check(hsaKmtCreateEvent(&ed, false, false, &ev), "CreateEvent");
	if (ev) {
		rp_kmt_check(hsaKmtSetEvent(ev), "SetEvent");
		rp_kmt_check(hsaKmtWaitOnEvent(ev, 1000), "WaitOnEvent");
		rp_kmt_check(hsaKmtResetEvent(ev), "ResetEvent");
		if (hsaKmtWaitOnMultipleEvents(&ev, 1, true, 0) != HSAKMT_STATUS_WAIT_TIMEOUT)
			fprintf(stderr, "rp_hsakmt: a reset event completed a wait\n");
	}

	queue(gpu, HSA_QUEUE_COMPUTE_AQL);
	queue(gpu, HSA_QUEUE_SDMA);

	svm = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (svm != MAP_FAILED) {
		attr[0].type = HSA_SVM_ATTR_PREFERRED_LOC;
		attr[0].value = gpu;
		attr[1].type = HSA_SVM_ATTR_SET_FLAGS;
		attr[1].value = HSA_SVM_FLAG_COHERENT;
		rp_kmt_check(hsaKmtSVMSetAttr(svm, 2 << 20, 2, attr), "SVMSetAttr");
		attr[0].value = 0;
		attr[1].value = 0;
		rp_kmt_check(hsaKmtSVMGetAttr(svm, 2 << 20, 2, attr), "SVMGetAttr");
	}
	rp_kmt_check(hsaKmtGetClockCounters(gpu, &clk), "GetClockCounters");

	if (ev)
		rp_kmt_check(hsaKmtDestroyEvent(ev), "DestroyEvent");
	if (user) {
		rp_kmt_check(hsaKmtUnmapMemoryToGPU(user), "UnmapMemoryToGPU user");
		rp_kmt_check(hsaKmtDeregisterMemory(user), "DeregisterMemory");
		free(user);
	}
	rp_kmt_free_mapped(host_mem, 1 << 20);
	rp_kmt_free_mapped(dev_mem, 2 << 20);
	rp_kmt_check(hsaKmtReleaseSystemProperties(), "ReleaseSystemProperties");
	rp_kmt_check(hsaKmtCloseKFD(), "CloseKFD");
	if (rp_kmt_failed())
		fprintf(stderr, "rp_hsakmt: some calls did not succeed\n");
	return 0;
}
