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

/*
 *	v_lshl_add_u32 v1, s4, 6, v0		; i = group * 64 + id
 *	v_lshlrev_b32 v2, 2, v1
 *	global_load_dword v3, v2, s[0:1]
 *	s_waitcnt vmcnt(0)
 *	v_add_u32 v3, v3, v1
 *	global_store_dword v2, v3, s[2:3]
 *	s_endpgm
 * (llvm-mc-15 -arch=amdgcn -mcpu=gfx90a -show-encoding)
 */
const uint32_t kit_copy_shader[] = {
	0xd1fd0001, 0x04010c04, 0x24040282, 0xdc508000, 0x03000002,
	0xbf8c0f70, 0x68060303, 0xdc708000, 0x00020302, 0xbf810000,
};
const unsigned int kit_copy_shader_dw = sizeof(kit_copy_shader) / 4;

/* PM4 type-3 header; the compute registers by SET_SH_REG offset. */
#define PM4_HDR(op, n)		(3u << 30 | ((n) & 0x3fffu) << 16 | (op) << 8)
#define PM4_SET_SH_REG		0x76u
#define PM4_DISPATCH_DIRECT	0x15u
#define REG_START_X		0x204u
#define REG_PGM_LO		0x20cu
#define REG_PGM_RSRC1		0x212u
#define REG_USER_DATA_0		0x240u
/* RSRC2: 4 user SGPRs (bits 1-5), the work-group id X (bit 7). */
#define RSRC2_COPY		(4u << 1 | 1u << 7)
/* RSRC1: 8 VGPR granules (bits 0-5: 32 VGPRs), 16 SGPRs (bits 6-9). */
#define RSRC1_COPY		(7u | 1u << 6)
#define INIT_SHADER_EN		1u
#define INIT_THREAD_DIMS	(1u << 5)

static unsigned int
set_sh(uint32_t *d, uint32_t reg, const uint32_t *v, unsigned int n)
{
	d[0] = PM4_HDR(PM4_SET_SH_REG, n);
	d[1] = reg;
	memcpy(d + 2, v, n * 4);
	return n + 2;
}

unsigned int
kit_pm4_dispatch(uint32_t *d, const void *code, uint64_t src, uint64_t dst,
		 uint32_t dim, int thread_dims)
{
	uint64_t pgm = (uint64_t)(uintptr_t)code >> 8;
	/* START_X/Y/Z, then NUM_THREAD_X/Y/Z */
	const uint32_t dims[6] = { 0, 0, 0, 64, 1, 1 };
	const uint32_t pgm_regs[2] = { (uint32_t)pgm, (uint32_t)(pgm >> 32) };
	const uint32_t rsrc[2] = { RSRC1_COPY, RSRC2_COPY };
	const uint32_t user[4] = { (uint32_t)src, (uint32_t)(src >> 32),
				   (uint32_t)dst, (uint32_t)(dst >> 32) };
	unsigned int n = 0;

	n += set_sh(d + n, REG_START_X, dims, 6);
	n += set_sh(d + n, REG_PGM_LO, pgm_regs, 2);
	n += set_sh(d + n, REG_PGM_RSRC1, rsrc, 2);
	n += set_sh(d + n, REG_USER_DATA_0, user, 4);
	d[n++] = PM4_HDR(PM4_DISPATCH_DIRECT, 3);
	d[n++] = dim;
	d[n++] = 1;
	d[n++] = 1;
	d[n++] = INIT_SHADER_EN | (thread_dims ? INIT_THREAD_DIMS : 0);
	return n;
}

int
kit_is_gfx90a(const HsaNodeProperties *props)
{
	return props->EngineId.ui32.Major == 9 && props->EngineId.ui32.Minor == 0 &&
	       props->EngineId.ui32.Stepping == 10;
}
