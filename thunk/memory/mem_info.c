/* SPDX-License-Identifier: MIT */
/*
 * What the library knows about an address: hsaKmtQueryPointerInfo,
 * hsaKmtSetMemoryUserData and kmt_mem_describe(). Lookups find the object
 * holding any address inside it, in every aperture and among registered
 * user ranges; nothing here talks to the kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "memory/fmm.h"

static HSA_POINTER_TYPE
pointer_type(const struct kmt_obj *obj)
{
	switch (obj->kind) {
	case KMT_OBJ_SHARED:
		return HSA_POINTER_REGISTERED_SHARED;
	case KMT_OBJ_GRAPHICS:
		return HSA_POINTER_REGISTERED_GRAPHICS;
	case KMT_OBJ_USERPTR:
		return HSA_POINTER_REGISTERED_USER;
	case KMT_OBJ_VA_ONLY:
		return HSA_POINTER_RESERVED_ADDR;
	default:
		return HSA_POINTER_ALLOCATED;
	}
}

/* gpu_ids to user node ids, kept by the object until its lists change. */
static uint32_t *
node_array(HsaKFDContext *ctx, const uint32_t *ids, uint32_t n)
{
	uint32_t *nodes = malloc((n ? n : 1) * sizeof(*nodes)), i;

	if (!nodes)
		return NULL;
	for (i = 0; i < n; i++)
		if (kmt_topo_node_of_gpu(ctx, ids[i], &nodes[i]) != HSAKMT_STATUS_SUCCESS)
			nodes[i] = INVALID_NODEID;
	return nodes;
}

KMT_API HSAKMT_STATUS
hsaKmtQueryPointerInfoCtx(HsaKFDContext *ctx, const void *Pointer, HsaPointerInfo *PointerInfo)
{
	HSAKMT_STATUS st;
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;
	HsaPointerInfo *info = PointerInfo;

	if (!info)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	memset(info, 0, sizeof(*info));
	info->Type = HSA_POINTER_UNKNOWN;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)Pointer, 0, KMT_FIND_INSIDE);
	if (!obj) {
		pthread_mutex_unlock(&fmm->lock);
		return HSAKMT_STATUS_ERROR;
	}
	info->Type = pointer_type(obj);
	info->Node = obj->node_id;
	info->MemFlags = obj->mflags;
	info->GPUAddress = obj->va;
	info->SizeInBytes = obj->size;
	info->UserData = obj->user_data;
	info->NRegisteredNodes = obj->n_reg;
	if (obj->n_reg && !obj->reg_nodes)
		obj->reg_nodes = node_array(ctx, obj->reg_ids, obj->n_reg);
	info->RegisteredNodes = obj->n_reg ? obj->reg_nodes : NULL;
	info->NMappedNodes = obj->n_map;
	if (obj->n_map && !obj->map_nodes)
		obj->map_nodes = node_array(ctx, obj->map_ids, obj->n_map);
	info->MappedNodes = obj->n_map ? obj->map_nodes : NULL;
	if (obj->n_reg && !obj->reg_nodes)
		info->NRegisteredNodes = 0;	/* out of memory for the array */
	if (obj->n_map && !obj->map_nodes)
		info->NMappedNodes = 0;

	if (info->Type == HSA_POINTER_REGISTERED_USER) {
		/* The caller's own range; its GPU view starts at the same offset. */
		info->CPUAddress = (void *)obj->userptr;
		info->SizeInBytes = obj->userptr_size;
		info->GPUAddress += obj->userptr & (kmt_page_size() - 1);
	} else if (info->Type == HSA_POINTER_ALLOCATED) {
		info->CPUAddress = (void *)obj->va;
	}
	pthread_mutex_unlock(&fmm->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtQueryPointerInfo(const void *Pointer, HsaPointerInfo *PointerInfo)
{
	return hsaKmtQueryPointerInfoCtx(kmt_primary_ctx(), Pointer, PointerInfo);
}

KMT_API HSAKMT_STATUS
hsaKmtSetMemoryUserDataCtx(HsaKFDContext *ctx, const void *Pointer, void *UserData)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)Pointer, 0, KMT_FIND_START);
	if (!obj)
		obj = kmt_fmm_find(fmm, (uintptr_t)Pointer, 0, KMT_FIND_INSIDE);
	if (obj)
		obj->user_data = UserData;
	pthread_mutex_unlock(&fmm->lock);
	return obj ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtSetMemoryUserData(const void *Pointer, void *UserData)
{
	return hsaKmtSetMemoryUserDataCtx(kmt_primary_ctx(), Pointer, UserData);
}

HSAKMT_STATUS
kmt_mem_describe(HsaKFDContext *ctx, const void *addr, struct kmt_mem_desc *out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_obj *obj;

	if (!fmm || !out)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)addr, 0, KMT_FIND_INSIDE);
	if (obj) {
		out->gpu_va = obj->va;
		out->cpu_addr = obj->kind == KMT_OBJ_USERPTR ? (void *)obj->userptr : obj->cpu;
		out->size = obj->size;
		out->handle = obj->handle;
		out->gpu_id = obj->gpu_id;
		out->node = obj->node_id;
		out->kfd_flags = obj->kfd_flags;
		out->mapped_gpus = obj->n_map;
	}
	pthread_mutex_unlock(&fmm->lock);
	return obj ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}
