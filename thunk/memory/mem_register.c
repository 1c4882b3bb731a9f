/* SPDX-License-Identifier: MIT */
/*
 * Registering ordinary process memory (malloc, mmap) for the GPUs: a
 * USERPTR BO over the pages holding it, at a GPU address of the SVM
 * aperture. The range need not be page-aligned: the BO covers whole
 * pages and the caller's offset into the first page is remembered, so
 * the GPU address of the caller's first byte is va + offset. Registering
 * the same range again only counts; registering it for other GPUs than
 * before is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "memory/fmm.h"

/* Touch every page so a bad range faults here, not in the kernel. */
static void
check_user_memory(const void *addr, uint64_t size)
{
	const volatile uint8_t *p = addr, *end = p + size;
	uint64_t page = kmt_page_size();
	uint8_t sum = 0;

	for (; p < end; p = (const volatile uint8_t *)(((uintptr_t)p + page) & ~(page - 1)))
		sum += *p;
	(void)sum;
}

static HSAKMT_STATUS
new_userptr(HsaKFDContext *ctx, uint64_t addr, uint64_t size, bool coarse, struct kmt_obj **out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	uint64_t page = kmt_page_size(), off = addr & (page - 1);
	uint64_t base = addr - off, len = (off + size + page - 1) & ~(page - 1), va;
	struct kmt_gpu_mem *g = fmm->n_gpus ? &fmm->gpus[0] : NULL;
	HSAKMT_STATUS st;
	struct kmt_obj *obj;

	if (!g || !kmt_ape_valid(fmm->dgpu))
		return HSAKMT_STATUS_ERROR;
	if (fmm->check_userptr)
		check_user_memory((const void *)addr, size);
	if (kmt_ape_alloc_va(fmm, fmm->dgpu, 0, len, 0, &va))
		return HSAKMT_STATUS_NO_MEMORY;
	obj = kmt_bo_create(ctx, fmm->dgpu, KMT_OBJ_USERPTR, g->gpu_id, va, va, len,
			    KFD_ABI_ALLOC_MEM_FLAGS_USERPTR | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			    KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE |
			    (coarse ? 0 : KFD_ABI_ALLOC_MEM_FLAGS_COHERENT),
			    base, NULL, &st);
	if (!obj) {
		kmt_ape_release_va(fmm, fmm->dgpu, va, len);
		return HSAKMT_STATUS_ERROR;
	}
	obj->node_id = g->node;
	obj->reg_count = 1;
	kmt_obj_userptr_link(obj, addr, size);
	*out = obj;
	return HSAKMT_STATUS_SUCCESS;
}

/* Takes ownership of @ids (NULL with @n == 0: no node list). */
static HSAKMT_STATUS
register_memory(HsaKFDContext *ctx, void *address, uint64_t size, uint32_t *ids, uint32_t n,
		bool coarse)
{
	struct kmt_fmm *fmm = ctx->fmm;
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	struct kmt_obj *obj;

	if (!address || !size) {
		free(ids);
		return HSAKMT_STATUS_INVALID_PARAMETER;
	}
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)address, size, KMT_FIND_START);
	if (!obj) {
		st = new_userptr(ctx, (uintptr_t)address, size, coarse, &obj);
		if (st != HSAKMT_STATUS_SUCCESS || !n)
			goto out;
	} else if (obj->kind == KMT_OBJ_USERPTR) {
		obj->reg_count++;
	}
	if (obj->n_reg) {
		/* Registered again: only for the very same GPUs. */
		if (n != obj->n_reg || memcmp(ids, obj->reg_ids, n * sizeof(*ids)))
			st = HSAKMT_STATUS_MEMORY_ALREADY_REGISTERED;
		goto out;
	}
	if (n) {
		obj->reg_ids = ids;
		obj->n_reg = n;
		ids = NULL;
		kmt_obj_clear_nodes(obj);
	}
out:
	pthread_mutex_unlock(&fmm->lock);
	free(ids);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 MemorySizeInBytes)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!ctx->is_dgpu)
		return HSAKMT_STATUS_SUCCESS;	/* APUs reach all memory */
	return register_memory(ctx, MemoryAddress, MemorySizeInBytes, NULL, 0, true);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemory(void *MemoryAddress, HSAuint64 MemorySizeInBytes)
{
	return hsaKmtRegisterMemoryCtx(kmt_primary_ctx(), MemoryAddress, MemorySizeInBytes);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryToNodesCtx(HsaKFDContext *ctx, void *MemoryAddress,
			       HSAuint64 MemorySizeInBytes, HSAuint64 NumberOfNodes,
			       HSAuint32 *NodeArray)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	uint32_t *ids;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!ctx->is_dgpu)
		return HSAKMT_STATUS_NOT_SUPPORTED;
	st = kmt_ids_from_nodes(ctx, NumberOfNodes, NodeArray, &ids);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return register_memory(ctx, MemoryAddress, MemorySizeInBytes, ids,
			       (uint32_t)NumberOfNodes, true);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryToNodes(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			    HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	return hsaKmtRegisterMemoryToNodesCtx(kmt_primary_ctx(), MemoryAddress, MemorySizeInBytes,
					      NumberOfNodes, NodeArray);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryWithFlagsCtx(HsaKFDContext *ctx, void *MemoryAddress,
				 HSAuint64 MemorySizeInBytes, HsaMemFlags MemFlags)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* Only ordinary paged host memory can be registered. */
	if (!MemFlags.ui32.HostAccess || MemFlags.ui32.NonPaged)
		return HSAKMT_STATUS_NOT_SUPPORTED;
	if (!ctx->is_dgpu)
		return HSAKMT_STATUS_NOT_SUPPORTED;
	return register_memory(ctx, MemoryAddress, MemorySizeInBytes, NULL, 0,
			       MemFlags.ui32.CoarseGrain);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryWithFlags(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			      HsaMemFlags MemFlags)
{
	return hsaKmtRegisterMemoryWithFlagsCtx(kmt_primary_ctx(), MemoryAddress,
						MemorySizeInBytes, MemFlags);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryRangesWithFlagsCtx(HsaKFDContext *ctx, void *MemoryAddress,
				       HsaMemoryRange *MemoryRanges, HSAuint64 NumberOfRanges,
				       HsaMemFlags MemFlags)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	HSAuint64 i;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!MemoryAddress || !MemoryRanges || !NumberOfRanges)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	for (i = 0; i < NumberOfRanges; i++)
		if (!MemoryRanges[i].MemoryAddress || !MemoryRanges[i].SizeInBytes)
			return HSAKMT_STATUS_INVALID_PARAMETER;
	if ((MemFlags.Value & HSA_MEMFLAG_EXTENDED_COHERENT) && MemFlags.ui32.CoarseGrain)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!MemFlags.ui32.HostAccess || MemFlags.ui32.NonPaged)
		return HSAKMT_STATUS_NOT_SUPPORTED;
	/*
	 * Scattered CPU ranges behind one contiguous GPU range need one
	 * USERPTR BO over several ranges (KFD_IOC_ALLOC_MEM_FLAGS_USERPTR_BATCH),
	 * which exists only as a proposal, in no kernel: NOT_SUPPORTED.
	 */
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterMemoryRangesWithFlags(void *MemoryAddress, HsaMemoryRange *MemoryRanges,
				    HSAuint64 NumberOfRanges, HsaMemFlags MemFlags)
{
	return hsaKmtRegisterMemoryRangesWithFlagsCtx(kmt_primary_ctx(), MemoryAddress,
						      MemoryRanges, NumberOfRanges, MemFlags);
}

KMT_API HSAKMT_STATUS
hsaKmtDeregisterMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, 0, KMT_FIND_START);
	if (!obj) {
		/* On APUs any system address counts as registered. */
		st = fmm->is_dgpu ? HSAKMT_STATUS_MEMORY_NOT_REGISTERED : HSAKMT_STATUS_SUCCESS;
	} else if (obj->kind == KMT_OBJ_HOST_CPU) {
		st = HSAKMT_STATUS_SUCCESS;
	} else if (obj->kind == KMT_OBJ_USERPTR && obj->reg_count > 1) {
		obj->reg_count--;
	} else if (obj->kind == KMT_OBJ_USERPTR || obj->kind == KMT_OBJ_GRAPHICS ||
		   obj->kind == KMT_OBJ_SHARED) {
		/* Registrations that own their BO end with it. */
		if (kmt_obj_release(ctx, obj, false))
			st = HSAKMT_STATUS_ERROR;
	} else if (!obj->n_reg) {
		st = HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
	} else {
		free(obj->reg_ids);
		obj->reg_ids = NULL;
		obj->n_reg = 0;
		obj->reg_count = 0;
		kmt_obj_clear_nodes(obj);
	}
	pthread_mutex_unlock(&fmm->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtDeregisterMemory(void *MemoryAddress)
{
	return hsaKmtDeregisterMemoryCtx(kmt_primary_ctx(), MemoryAddress);
}
