/* SPDX-License-Identifier: MIT */
/*
 * A small, deterministic program on AMD's thunk (Debian's libhsakmt) for
 * the analysis tests: it opens KFD, reads the topology, allocates VRAM and
 * system memory on the first GPU, maps them, creates and destroys an AQL
 * queue and events, frees some of what it made and leaves one buffer and
 * one event behind on purpose (leaks for report and stats to find). One
 * thread, the same calls on every run and every single-GPU profile, so two
 * recordings differ only in the values the kernel and ASLR choose.
 *
 * Exit status: 0, or 1 with a message when a call fails.
 */
#include <stdio.h>
#include <string.h>

#include <hsakmt.h>

#define CHECK(call)							\
	do {								\
		HSAKMT_STATUS st_ = (call);				\
		if (st_ != HSAKMT_STATUS_SUCCESS) {			\
			fprintf(stderr, "hsakmt_app: %s: status %d\n",	\
				#call, (int)st_);			\
			return 1;					\
		}							\
	} while (0)

static int
run(void)
{
	HsaMemFlags vram = { 0 }, host = { 0 };
	HsaSystemProperties sys;
	HsaNodeProperties props;
	HsaVersionInfo ver;
	HsaQueueResource qres;
	HsaEventDescriptor edesc;
	HsaEvent *ev1, *ev2;
	HSAuint32 node, gpu = 0;
	HSAuint64 va;
	void *vbuf, *hbuf, *ring, *ptrs;

	CHECK(hsaKmtOpenKFD());
	CHECK(hsaKmtGetVersion(&ver));
	CHECK(hsaKmtAcquireSystemProperties(&sys));
	for (node = 0; node < sys.NumNodes; node++) {
		CHECK(hsaKmtGetNodeProperties(node, &props));
		if (props.NumFComputeCores && !gpu)
			gpu = node;
	}
	if (!gpu) {
		fprintf(stderr, "hsakmt_app: no GPU node\n");
		return 1;
	}

	vram.ui32.NonPaged = 1;
	vram.ui32.CoarseGrain = 1;
	vram.ui32.NoSubstitute = 1;
	CHECK(hsaKmtAllocMemory(gpu, 2 << 20, vram, &vbuf));
	CHECK(hsaKmtMapMemoryToGPUNodes(vbuf, 2 << 20, &va, (HsaMemMapFlags){ 0 },
					1, &gpu));
	host.ui32.NonPaged = 1;
	host.ui32.HostAccess = 1;
	host.ui32.ExecuteAccess = 1;
	CHECK(hsaKmtAllocMemory(0, 64 << 10, host, &hbuf));
	CHECK(hsaKmtMapMemoryToGPUNodes(hbuf, 64 << 10, &va, (HsaMemMapFlags){ 0 },
					1, &gpu));

	/* An AQL queue: ring and pointers in GPU-visible system memory. */
	CHECK(hsaKmtAllocMemory(0, 64 << 10, host, &ring));
	CHECK(hsaKmtMapMemoryToGPUNodes(ring, 64 << 10, &va, (HsaMemMapFlags){ 0 },
					1, &gpu));
	CHECK(hsaKmtAllocMemory(0, 4096, host, &ptrs));
	CHECK(hsaKmtMapMemoryToGPUNodes(ptrs, 4096, &va, (HsaMemMapFlags){ 0 },
					1, &gpu));
	memset(ptrs, 0, 4096);
	memset(&qres, 0, sizeof(qres));
	qres.QueueRptrValue = (HSAuint64)(uintptr_t)ptrs;
	qres.QueueWptrValue = (HSAuint64)(uintptr_t)ptrs + 8;
	CHECK(hsaKmtCreateQueue(gpu, HSA_QUEUE_COMPUTE_AQL, 100,
				HSA_QUEUE_PRIORITY_NORMAL, ring, 64 << 10, NULL,
				&qres));

	memset(&edesc, 0, sizeof(edesc));
	edesc.EventType = HSA_EVENTTYPE_SIGNAL;
	edesc.NodeId = gpu;
	CHECK(hsaKmtCreateEvent(&edesc, true, false, &ev1));
	CHECK(hsaKmtCreateEvent(&edesc, true, false, &ev2));
	CHECK(hsaKmtSetEvent(ev1));
	CHECK(hsaKmtWaitOnEvent(ev1, 0));
	CHECK(hsaKmtDestroyEvent(ev1));

	CHECK(hsaKmtDestroyQueue(qres.QueueId));
	CHECK(hsaKmtUnmapMemoryToGPU(ring));
	CHECK(hsaKmtFreeMemory(ring, 64 << 10));
	CHECK(hsaKmtUnmapMemoryToGPU(ptrs));
	CHECK(hsaKmtFreeMemory(ptrs, 4096));
	CHECK(hsaKmtUnmapMemoryToGPU(vbuf));
	CHECK(hsaKmtFreeMemory(vbuf, 2 << 20));
	/* hbuf and ev2 stay: the leaks report and stats must show. */
	CHECK(hsaKmtReleaseSystemProperties());
	return 0;
}

int
main(void)
{
	return run();
}
