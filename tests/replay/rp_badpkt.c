/* SPDX-License-Identifier: MIT */
/*
 * A queue error for submission capture, on the thunk API: one
 * AQL queue whose amd_queue_t and ring are host memory of our own, one
 * KERNEL_DISPATCH-shaped packet with an unknown type (7) published on it,
 * and a wait on a HW_EXCEPTION event, which the engine raises when it
 * cannot decode the packet (kfdsim's command processor; CP_BAD_OPCODE on
 * a GPU). Prints "badpkt: the queue error was reported" once the wait
 * returns, or fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsakmt.h>

#include "rp_kmt.h"

#define RING_SIZE 4096
#define PACKET 64

int
main(void)
{
	HsaMemFlags host = { 0 };
	HsaEventDescriptor ed = { 0 };
	HsaQueueResource res;
	HsaEvent *ev = NULL;
	HSAuint32 n, gpu = 0;
	uint8_t *ring, *aq;
	uint64_t *doorbell;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rp_kmt_check(hsaKmtOpenKFD(), "OpenKFD");
	gpu = rp_kmt_first_gpu();
	if (!gpu) {
		rp_kmt_fail("no GPU node");
		return 1;
	}
	host.ui32.HostAccess = 1;
	host.ui32.NonPaged = 1;
	host.ui32.CoarseGrain = 1;
	ring = rp_kmt_alloc_mapped(0, gpu, RING_SIZE, host);
	aq = rp_kmt_alloc_mapped(0, gpu, 4096, host);
	if (!ring || !aq) {
		rp_kmt_fail("no host memory for the queue");
		return 1;
	}
	/* Every slot INVALID (type 1): nothing published yet. */
	for (n = 0; n < RING_SIZE / PACKET; n++)
		ring[n * PACKET] = 1;
	ed.EventType = HSA_EVENTTYPE_HW_EXCEPTION;
	ed.NodeId = gpu;
	rp_kmt_check(hsaKmtCreateEvent(&ed, true, false, &ev), "CreateEvent");
	memset(&res, 0, sizeof(res));
	/* amd_queue_t: read_dispatch_id at 128, write_dispatch_id at 56. */
	res.QueueRptrValue = (uintptr_t)(aq + 128);
	res.QueueWptrValue = (uintptr_t)(aq + 56);
	rp_kmt_check(hsaKmtCreateQueue(gpu, HSA_QUEUE_COMPUTE_AQL, 100,
				       HSA_QUEUE_PRIORITY_NORMAL, ring, RING_SIZE,
				       NULL, &res), "CreateQueue");
	if (rp_kmt_failed())
		return 1;
	/* Body, then the header (type 7: no such packet), then the doorbell. */
	memset(ring + 2, 0, PACKET - 2);
	__atomic_store_n((uint16_t *)ring, (uint16_t)7, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(aq + 56), 1, __ATOMIC_RELEASE);
	doorbell = (uint64_t *)(uintptr_t)res.Queue_DoorBell;
	__atomic_store_n(doorbell, 0, __ATOMIC_RELEASE);
	if (hsaKmtWaitOnEvent(ev, 5000) == HSAKMT_STATUS_SUCCESS)
		printf("badpkt: the queue error was reported\n");
	else
		rp_kmt_fail("no HW_EXCEPTION event within 5 s");
	rp_kmt_check(hsaKmtDestroyQueue(res.QueueId), "DestroyQueue");
	rp_kmt_check(hsaKmtDestroyEvent(ev), "DestroyEvent");
	rp_kmt_free_mapped(ring, RING_SIZE);
	rp_kmt_free_mapped(aq, 4096);
	rp_kmt_print_thunk();
	return rp_kmt_failed();
}
