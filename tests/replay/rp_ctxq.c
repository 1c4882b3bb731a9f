/* SPDX-License-Identifier: MIT */
/*
 * Two KFD processes in one program (our thunk's secondary contexts), each
 * with an AQL queue. Queue ids are per KFD process, so both queues get the
 * same id. Context A publishes 3 barrier packets, context B 5; A's queue is
 * destroyed; B publishes 2 more and its queue is destroyed. Each batch runs
 * to completion (the read index reaches the write index) before the next.
 *
 * It prints "ctxq: A queue Q ring R" and "ctxq: B queue Q ring R", then
 * "ctxq: done", or fails (exit 1) naming the call.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

#define RING_SIZE	4096
#define PACKET		64
#define AQL_BARRIER_AND	3
#define AQL_INVALID	1

struct ctxq {
	const char *name;
	HsaKFDContext *ctx;
	HSAuint32 gpu;
	uint8_t *ring, *aq;	/* the ring; amd_queue_t */
	HsaQueueResource res;
	uint64_t written;
};

static int failed;

static int
check(HSAKMT_STATUS st, const char *what, const char *name)
{
	if (st == HSAKMT_STATUS_SUCCESS)
		return 0;
	fprintf(stderr, "ctxq: %s of %s: status %d\n", what, name, (int)st);
	failed = 1;
	return -1;
}

static HSAuint32
first_gpu(HsaKFDContext *ctx)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HSAuint32 n;

	if (hsaKmtAcquireSystemPropertiesCtx(ctx, &sp) != HSAKMT_STATUS_SUCCESS)
		return 0;
	for (n = 0; n < sp.NumNodes; n++)
		if (hsaKmtGetNodePropertiesCtx(ctx, n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			return n;
	return 0;
}

static uint8_t *
host_buffer(struct ctxq *q, HSAuint64 size)
{
	HsaMemFlags host = { 0 };
	void *p = NULL;
	HSAuint64 va;

	host.ui32.HostAccess = 1;
	host.ui32.NonPaged = 1;
	host.ui32.CoarseGrain = 1;
	if (check(hsaKmtAllocMemoryCtx(q->ctx, 0, size, host, &p), "AllocMemory",
		  q->name) ||
	    check(hsaKmtMapMemoryToGPUNodesCtx(q->ctx, p, size, &va, host, 1,
					       &q->gpu), "MapMemoryToGPUNodes",
		  q->name))
		return NULL;
	memset(p, 0, size);
	return p;
}

static int
start(struct ctxq *q)
{
	unsigned int n;

	q->gpu = first_gpu(q->ctx);
	if (!q->gpu) {
		fprintf(stderr, "ctxq: no GPU node in %s\n", q->name);
		return -1;
	}
	q->ring = host_buffer(q, RING_SIZE);
	q->aq = host_buffer(q, 4096);
	if (!q->ring || !q->aq)
		return -1;
	for (n = 0; n < RING_SIZE / PACKET; n++)
		q->ring[n * PACKET] = AQL_INVALID;
	/* amd_queue_t: write_dispatch_id at 56, read_dispatch_id at 128. */
	q->res.QueueRptrValue = (uintptr_t)(q->aq + 128);
	q->res.QueueWptrValue = (uintptr_t)(q->aq + 56);
	if (check(hsaKmtCreateQueueCtx(q->ctx, q->gpu, HSA_QUEUE_COMPUTE_AQL, 100,
				       HSA_QUEUE_PRIORITY_NORMAL, q->ring, RING_SIZE,
				       NULL, &q->res), "CreateQueue", q->name))
		return -1;
	printf("ctxq: %s queue %llu ring 0x%llx\n", q->name,
	       (unsigned long long)q->res.QueueId,
	       (unsigned long long)(uintptr_t)q->ring);
	return 0;
}

/* Publish @n barrier packets, ring, and wait until the engine ran them. */
static int
publish(struct ctxq *q, unsigned int n)
{
	volatile uint64_t *rd = (volatile uint64_t *)(q->aq + 128);
	struct timespec t0, t;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint8_t *p = q->ring + (q->written % (RING_SIZE / PACKET)) * PACKET;

		memset(p + 2, 0, PACKET - 2);
		__atomic_store_n((uint16_t *)p, (uint16_t)AQL_BARRIER_AND,
				 __ATOMIC_RELEASE);
		q->written++;
	}
	__atomic_store_n((uint64_t *)(q->aq + 56), q->written, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(uintptr_t)q->res.Queue_DoorBell,
			 q->written - 1, __ATOMIC_RELEASE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (__atomic_load_n(rd, __ATOMIC_ACQUIRE) < q->written) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10) {
			fprintf(stderr, "ctxq: %s's packets did not run\n", q->name);
			failed = 1;
			return -1;
		}
	}
	return 0;
}

int
main(void)
{
	struct ctxq a = { .name = "A" }, b = { .name = "B" };
	HsaKFDContext *primary = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (check(hsaKmtOpenKFDCtx(&primary), "OpenKFD", "the primary") ||
	    check(hsaKmtOpenSecondaryKFDCtx(&a.ctx), "OpenSecondaryKFD", "A") ||
	    check(hsaKmtOpenSecondaryKFDCtx(&b.ctx), "OpenSecondaryKFD", "B") ||
	    start(&a) || start(&b) || publish(&a, 3) || publish(&b, 5))
		return 1;
	check(hsaKmtDestroyQueueCtx(a.ctx, a.res.QueueId), "DestroyQueue", "A");
	if (publish(&b, 2))
		return 1;
	check(hsaKmtDestroyQueueCtx(b.ctx, b.res.QueueId), "DestroyQueue", "B");
	check(hsaKmtCloseSecondaryKFDCtx(a.ctx), "CloseSecondaryKFD", "A");
	check(hsaKmtCloseSecondaryKFDCtx(b.ctx), "CloseSecondaryKFD", "B");
	check(hsaKmtCloseKFDCtx(), "CloseKFD", "the primary");
	if (!failed)
		printf("ctxq: done\n");
	return failed;
}
