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

static int bad;

static void
check(HSAKMT_STATUS st, const char *what)
{
	if (st != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_hsakmt: %s: status %d\n", what, st);
		bad = 1;
	}
}

static void *
alloc_mapped(HSAuint32 alloc_node, HSAuint32 gpu, HSAuint64 size,
	     HsaMemFlags flags)
{
	HSAuint64 va;
	void *p = NULL;

	check(hsaKmtAllocMemory(alloc_node, size, flags, &p), "AllocMemory");
	if (p)
		check(hsaKmtMapMemoryToGPUNodes(p, size, &va, (HsaMemMapFlags){ 0 },
						1, &gpu), "MapMemoryToGPUNodes");
	return p;
}

static void
free_mapped(void *p, HSAuint64 size)
{
	if (!p)
		return;
	check(hsaKmtUnmapMemoryToGPU(p), "UnmapMemoryToGPU");
	check(hsaKmtFreeMemory(p, size), "FreeMemory");
}

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
	ring = alloc_mapped(0, gpu, ring_size, flags);
	ptrs = alloc_mapped(0, gpu, 4096, flags);
	if (!ring || !ptrs)
		return;
	memset(ptrs, 0, 4096);
	memset(&res, 0, sizeof(res));
	if (type == HSA_QUEUE_COMPUTE_AQL) {
		res.QueueRptrValue = (uintptr_t)ptrs;
		res.QueueWptrValue = (uintptr_t)ptrs + 8;
	}
	check(hsaKmtCreateQueue(gpu, type, 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
				ring_size, NULL, &res), "CreateQueue");
	if (res.QueueId) {
		check(hsaKmtUpdateQueue(res.QueueId, 50, HSA_QUEUE_PRIORITY_HIGH,
					ring, ring_size, NULL), "UpdateQueue");
		check(hsaKmtDestroyQueue(res.QueueId), "DestroyQueue");
	}
	free_mapped(ring, ring_size);
	free_mapped(ptrs, 4096);
}

int
main(void)
{
	HsaSystemProperties sys;
	HsaNodeProperties np;
	HsaEventDescriptor ed = { 0 };
	HsaMemFlags vram = { 0 }, host = { 0 };
	HsaClockCounters clk;
	HSA_SVM_ATTRIBUTE attr[2];
	HsaEvent *ev = NULL;
	HSAuint32 gpu = 0, n;
	void *dev_mem, *host_mem, *user, *svm;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_hsakmt: cannot open the KFD\n");
		return 1;
	}
	check(hsaKmtAcquireSystemProperties(&sys), "AcquireSystemProperties");
	for (n = 0; n < sys.NumNodes && !gpu; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			gpu = n;

	vram.ui32.NonPaged = 1;
	vram.ui32.NoSubstitute = 1;
	vram.ui32.HostAccess = 1;
	dev_mem = alloc_mapped(gpu, gpu, 2 << 20, vram);
	if (dev_mem)
		memset(dev_mem, 0x11, 4096);
	host.ui32.NonPaged = 1;
	host.ui32.HostAccess = 1;
	host_mem = alloc_mapped(0, gpu, 1 << 20, host);

	user = aligned_alloc(4096, 1 << 16);
	if (user) {
		HSAuint64 va;

		check(hsaKmtRegisterMemoryToNodes(user, 1 << 16, 1, &gpu),
		      "RegisterMemoryToNodes");
		check(hsaKmtMapMemoryToGPU(user, 1 << 16, &va), "MapMemoryToGPU user");
	}

	ed.EventType = HSA_EVENTTYPE_SIGNAL;
	ed.NodeId = gpu;
	ed.SyncVar.SyncVar.UserData = NULL;
	check(hsaKmtCreateEvent(&ed, false, false, &ev), "CreateEvent");
	if (ev) {
		check(hsaKmtSetEvent(ev), "SetEvent");
		check(hsaKmtWaitOnEvent(ev, 1000), "WaitOnEvent");
		check(hsaKmtResetEvent(ev), "ResetEvent");
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
		check(hsaKmtSVMSetAttr(svm, 2 << 20, 2, attr), "SVMSetAttr");
		attr[0].value = 0;
		attr[1].value = 0;
		check(hsaKmtSVMGetAttr(svm, 2 << 20, 2, attr), "SVMGetAttr");
	}
	check(hsaKmtGetClockCounters(gpu, &clk), "GetClockCounters");

	if (ev)
		check(hsaKmtDestroyEvent(ev), "DestroyEvent");
	if (user) {
		check(hsaKmtUnmapMemoryToGPU(user), "UnmapMemoryToGPU user");
		check(hsaKmtDeregisterMemory(user), "DeregisterMemory");
		free(user);
	}
	free_mapped(host_mem, 1 << 20);
	free_mapped(dev_mem, 2 << 20);
	check(hsaKmtReleaseSystemProperties(), "ReleaseSystemProperties");
	check(hsaKmtCloseKFD(), "CloseKFD");
	if (bad)
		fprintf(stderr, "rp_hsakmt: some calls did not succeed\n");
	return 0;
}
