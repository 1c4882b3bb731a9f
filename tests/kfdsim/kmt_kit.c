/* SPDX-License-Identifier: MIT */
/*
 * The shared part of the thunk-API test programs (kmt_kit.h).
 */
#include "kmt_kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *kit_name = "kmt";
int kit_failed;

void
kit_fail(const char *what)
{
	printf("%s: FAILED: %s\n", kit_name, what);
	kit_failed = 1;
}

void
kit_check(HSAKMT_STATUS st, const char *what)
{
	if (st != HSAKMT_STATUS_SUCCESS) {
		printf("%s: %s: status %d\n", kit_name, what, (int)st);
		kit_failed = 1;
	}
}

void *
kit_alloc_mapped(HSAuint64 size, unsigned int flags)
{
	HsaMemFlags f = { 0 };
	HSAuint64 va;
	void *p = NULL;

	f.ui32.HostAccess = 1;
	f.ui32.NonPaged = 1;
	f.ui32.CoarseGrain = 1;
	f.ui32.ReadOnly = !!(flags & KIT_MEM_RO);
	f.ui32.ExecuteAccess = !!(flags & KIT_MEM_EXEC);
	kit_check(hsaKmtAllocMemory(0, size, f, &p), "AllocMemory");
	if (!p)
		return NULL;
	kit_check(hsaKmtMapMemoryToGPU(p, size, &va), "MapMemoryToGPU");
	memset(p, 0, size);
	return p;
}

void
kit_free_mapped(void *p, HSAuint64 size)
{
	if (!p)
		return;
	hsaKmtUnmapMemoryToGPU(p);
	hsaKmtFreeMemory(p, size);
}

int
kit_queue_new(struct kit_queue *q, HSAuint32 node, HSA_QUEUE_TYPE type,
	      const char *what)
{
	memset(q, 0, sizeof(*q));
	q->sdma = type == HSA_QUEUE_SDMA;
	q->ring = kit_alloc_mapped(KIT_RING_SIZE, KIT_MEM_EXEC);
	q->ptrs = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	if (!q->ring || !q->ptrs)
		return -1;
	q->res.Queue_read_ptr_aql = &q->ptrs[0];
	q->res.Queue_write_ptr_aql = &q->ptrs[1];
	kit_check(hsaKmtCreateQueue(node, type, 100, HSA_QUEUE_PRIORITY_NORMAL,
				    q->ring, KIT_RING_SIZE, NULL, &q->res), what);
	return kit_failed ? -1 : 0;
}

void
kit_queue_free(struct kit_queue *q)
{
	if (q->res.QueueId)
		kit_check(hsaKmtDestroyQueue(q->res.QueueId), "DestroyQueue");
	kit_free_mapped(q->ring, KIT_RING_SIZE);
	kit_free_mapped(q->ptrs, 4096);
}

HSAuint32
kit_first_gpu(HsaNodeProperties *props)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;

	if (hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS)
		return 0;
	for (HSAuint32 n = 0; n < sp.NumNodes; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores) {
			if (props)
				*props = np;
			return n;
		}
	return 0;
}

int
kit_open(HSAuint32 *node)
{
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return -1;
	*node = kit_first_gpu(NULL);
	return *node ? 0 : -1;
}

int
kit_close(void)
{
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

int
kit_kernel_is_rocm(void)
{
	const char *k = getenv("KFDSIM_KERNEL");

	return k && strcmp(k, "rocm") == 0;
}

HsaMemFlags
kit_host_vram(void)
{
	HsaMemFlags f = { 0 };

	f.ui32.NonPaged = 1;
	f.ui32.NoSubstitute = 1;
	f.ui32.HostAccess = 1;
	return f;
}
