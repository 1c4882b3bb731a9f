/* SPDX-License-Identifier: MIT */
/*
 * GPU mappings: hsaKmtMapMemoryToGPU(Nodes), hsaKmtUnmapMemoryToGPU, the
 * object map/unmap/release primitives, and doorbell slices.
 *
 * An object is mapped on the GPUs named by the caller, else the GPUs it
 * was registered for, else every GPU. Each object keeps the gpu_ids it is
 * mapped on (from MAP's n_success, so a partial failure is remembered
 * accurately). Registered user memory may be mapped several times: only
 * the first map and the last unmap reach the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/fmm.h"

static bool
id_in(uint32_t id, const uint32_t *ids, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Add @ids to the mapped list, without duplicates. */
static HSAKMT_STATUS
mapped_add(struct kmt_obj *obj, const uint32_t *ids, uint32_t n)
{
	uint32_t *grown, i;

	grown = realloc(obj->map_ids, (obj->n_map + n ? obj->n_map + n : 1) * sizeof(*grown));
	if (!grown)
		return HSAKMT_STATUS_NO_MEMORY;
	obj->map_ids = grown;
	for (i = 0; i < n; i++)
		if (!id_in(ids[i], obj->map_ids, obj->n_map))
			obj->map_ids[obj->n_map++] = ids[i];
	return HSAKMT_STATUS_SUCCESS;
}

static void
mapped_remove(struct kmt_obj *obj, const uint32_t *ids, uint32_t n)
{
	uint32_t i, j = 0;

	for (i = 0; i < obj->n_map; i++)
		if (!id_in(obj->map_ids[i], ids, n))
			obj->map_ids[j++] = obj->map_ids[i];
	obj->n_map = j;
	if (!j) {
		free(obj->map_ids);
		obj->map_ids = NULL;
	}
}

HSAKMT_STATUS
kmt_obj_map(HsaKFDContext *ctx, struct kmt_obj *obj, const uint32_t *ids, uint32_t n)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kfd_abi_map_memory_to_gpu_args args = {0};
	HSAKMT_STATUS st;
	int ret;

	if (!obj->handle)
		return HSAKMT_STATUS_INVALID_PARAMETER;	/* nothing to map */
	if (obj->kind == KMT_OBJ_USERPTR && obj->map_count) {
		obj->map_count++;
		return HSAKMT_STATUS_SUCCESS;
	}
	if (!ids) {
		if (obj->n_reg) {
			ids = obj->reg_ids;
			n = obj->n_reg;
		} else {
			ids = fmm->all_ids;
			n = fmm->n_all_ids;
		}
	}
	if (!n)
		return HSAKMT_STATUS_ERROR;
	args.handle = obj->handle;
	args.device_ids_array_ptr = (uintptr_t)ids;
	args.n_devices = n;
	ret = kmt_ioctl(ctx, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &args);
	if (ret)
		kmt_err("MAP_MEMORY_TO_GPU of %#lx failed after %u of %u GPUs: %s\n",
			(unsigned long)obj->va, args.n_success, n, strerror(errno));
	if (args.n_success > n)
		args.n_success = n;
	st = mapped_add(obj, ids, args.n_success);
	kmt_obj_clear_nodes(obj);
	if (ret)
		return HSAKMT_STATUS_ERROR;
	obj->map_count = 1;
	return st;
}

HSAKMT_STATUS
kmt_obj_unmap(HsaKFDContext *ctx, struct kmt_obj *obj, const uint32_t *ids, uint32_t n)
{
	struct kfd_abi_unmap_memory_from_gpu_args args = {0};
	uint32_t *copy = NULL;
	int ret;

	if (obj->kind == KMT_OBJ_USERPTR && obj->map_count > 1) {
		obj->map_count--;
		return HSAKMT_STATUS_SUCCESS;
	}
	if (!ids || !n) {
		if (!obj->n_map)
			return HSAKMT_STATUS_SUCCESS;	/* not mapped: nothing to do */
		/* The list changes below: the kernel needs a stable copy. */
		copy = malloc(obj->n_map * sizeof(*copy));
		if (!copy)
			return HSAKMT_STATUS_NO_MEMORY;
		memcpy(copy, obj->map_ids, obj->n_map * sizeof(*copy));
		ids = copy;
		n = obj->n_map;
	}
	args.handle = obj->handle;
	args.device_ids_array_ptr = (uintptr_t)ids;
	args.n_devices = n;
	ret = kmt_ioctl(ctx, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &args);
	if (ret)
		kmt_err("UNMAP_MEMORY_FROM_GPU of %#lx failed: %s\n", (unsigned long)obj->va,
			strerror(errno));
	if (args.n_success > n)
		args.n_success = n;
	mapped_remove(obj, ids, args.n_success);
	kmt_obj_clear_nodes(obj);
	obj->map_count = 0;
	free(copy);
	return ret ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
}

int
kmt_obj_release(HsaKFDContext *ctx, struct kmt_obj *obj, bool forked)
{
	struct kmt_fmm *fmm = ctx->fmm;
	int err;

	if (!forked) {
		if (obj->n_map) {
			obj->map_count = 1;
			kmt_obj_unmap(ctx, obj, NULL, 0);
		}
		/*
		 * Free the BO before its pages go: for user memory the
		 * reverse order would make the kernel evict and restore
		 * for nothing.
		 */
		if (obj->handle && (err = kmt_bo_free_ioctl(ctx, obj->handle))) {
			kmt_err("FREE_MEMORY_OF_GPU of %#lx failed: %s\n", (unsigned long)obj->va,
				strerror(-err));
			return err;
		}
	}
	if (obj->cpu_map == KMT_CPU_OWN && obj->cpu_size)
		munmap(obj->cpu, obj->cpu_size);
	if (obj->ape != &fmm->cpuvm)
		kmt_ape_release_va(fmm, obj->ape, obj->va, obj->size);
	kmt_obj_del(obj);
	return 0;
}

HSAKMT_STATUS
kmt_ids_from_nodes(HsaKFDContext *ctx, uint64_t n, const uint32_t *nodes, uint32_t **ids)
{
	uint64_t i;

	*ids = NULL;
	if (!n || !nodes || n > UINT32_MAX)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	*ids = malloc(n * sizeof(**ids));
	if (!*ids)
		return HSAKMT_STATUS_NO_MEMORY;
	for (i = 0; i < n; i++) {
		if (kmt_topo_gpu_id(ctx, nodes[i], &(*ids)[i]) != HSAKMT_STATUS_SUCCESS) {
			free(*ids);
			*ids = NULL;
			return HSAKMT_STATUS_INVALID_NODE_UNIT;
		}
	}
	return HSAKMT_STATUS_SUCCESS;
}

/*
 * The AlternateVAGPU a mapping reports for @obj, as AMD's library does:
 * registered user memory gives its GPU address (with the in-page offset),
 * CPU-invisible GPUVM apertures of old APUs the offset into the aperture,
 * and everything else 0, since the GPU uses the CPU's address there.
 */
static uint64_t
gpu_address(struct kmt_fmm *fmm, const struct kmt_obj *obj)
{
	if (obj->kind == KMT_OBJ_USERPTR)
		return obj->va + (obj->userptr & (kmt_page_size() - 1));
	if (!fmm->is_dgpu && !obj->ape->cpu_reserved && !obj->ape->mmap_backed &&
	    obj->ape != &fmm->cpuvm && obj->ape != &fmm->mem_handle)
		return obj->va - obj->ape->base;
	return 0;
}

KMT_API HSAKMT_STATUS
hsaKmtMapMemoryToGPUCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			HSAuint64 *AlternateVAGPU)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_fmm *fmm;
	struct kmt_gpu_mem *g;
	struct kmt_obj *obj;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!MemoryAddress)
		return HSAKMT_STATUS_ERROR;
	if (AlternateVAGPU)
		*AlternateVAGPU = 0;
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	g = kmt_scratch_gpu_of(fmm, (uintptr_t)MemoryAddress);
	if (g) {
		st = kmt_scratch_map(ctx, g, (uintptr_t)MemoryAddress, MemorySizeInBytes);
		goto out;
	}
	obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, MemorySizeInBytes, KMT_FIND_START);
	if (!obj && MemorySizeInBytes)
		obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, 0, KMT_FIND_START);
	if (!obj) {
		kmt_err("no memory object at %p\n", MemoryAddress);
		st = fmm->is_dgpu ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
		goto out;
	}
	if (obj->kind == KMT_OBJ_HOST_CPU) {
		st = HSAKMT_STATUS_SUCCESS;	/* APU system memory needs no mapping */
		goto out;
	}
	/* A VA range without a BO (OnlyAddress) or a BO without an address
	 * (NoAddress) has nothing this call can map: the newer libhsakmt
	 * calls that a bad parameter, before any ioctl. */
	if (obj->kind == KMT_OBJ_VA_ONLY || obj->ape == &fmm->mem_handle) {
		st = HSAKMT_STATUS_INVALID_PARAMETER;
		goto out;
	}
	st = kmt_obj_map(ctx, obj, NULL, 0);
	if (st == HSAKMT_STATUS_SUCCESS && AlternateVAGPU)
		*AlternateVAGPU = gpu_address(fmm, obj);
	if (st != HSAKMT_STATUS_SUCCESS)
		st = HSAKMT_STATUS_ERROR;
out:
	pthread_mutex_unlock(&fmm->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtMapMemoryToGPU(void *MemoryAddress, HSAuint64 MemorySizeInBytes, HSAuint64 *AlternateVAGPU)
{
	return hsaKmtMapMemoryToGPUCtx(kmt_primary_ctx(), MemoryAddress, MemorySizeInBytes,
				       AlternateVAGPU);
}

/* Map on exactly @ids: unmap the GPUs not listed, map the new ones. */
static HSAKMT_STATUS
map_to_nodes(HsaKFDContext *ctx, struct kmt_obj *obj, const uint32_t *ids, uint32_t n)
{
	struct kmt_fmm *fmm = ctx->fmm;
	const uint32_t *allowed = obj->n_reg ? obj->reg_ids : fmm->all_ids;
	uint32_t n_allowed = obj->n_reg ? obj->n_reg : fmm->n_all_ids;
	uint32_t *drop, *add, n_drop = 0, n_add = 0, i;
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;

	for (i = 0; i < n; i++)
		if (!id_in(ids[i], allowed, n_allowed))
			return HSAKMT_STATUS_ERROR;	/* not registered there */
	drop = malloc((obj->n_map + 1) * sizeof(*drop));
	add = malloc((n + 1) * sizeof(*add));
	if (!drop || !add) {
		free(drop);
		free(add);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	for (i = 0; i < obj->n_map; i++)
		if (!id_in(obj->map_ids[i], ids, n))
			drop[n_drop++] = obj->map_ids[i];
	for (i = 0; i < n; i++)
		if (!id_in(ids[i], obj->map_ids, obj->n_map) && !id_in(ids[i], add, n_add))
			add[n_add++] = ids[i];
	if (n_drop)
		st = kmt_obj_unmap(ctx, obj, drop, n_drop);
	if (st == HSAKMT_STATUS_SUCCESS && n_add)
		st = kmt_obj_map(ctx, obj, add, n_add);
	free(drop);
	free(add);
	return st == HSAKMT_STATUS_SUCCESS ? st : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtMapMemoryToGPUNodesCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			     HSAuint64 *AlternateVAGPU, HsaMemFlags MemFlags,
			     HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;
	uint32_t *ids;

	(void)MemFlags;
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!MemoryAddress)
		return HSAKMT_STATUS_ERROR;
	fmm = ctx->fmm;
	if (!fmm->is_dgpu && NumberOfNodes == 1)
		return hsaKmtMapMemoryToGPUCtx(ctx, MemoryAddress, MemorySizeInBytes,
					       AlternateVAGPU);
	st = kmt_ids_from_nodes(ctx, NumberOfNodes, NodeArray, &ids);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, MemorySizeInBytes, KMT_FIND_START);
	if (!obj && MemorySizeInBytes)
		obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, 0, KMT_FIND_START);
	if (!obj || obj->kind == KMT_OBJ_HOST_CPU || !obj->handle) {
		st = HSAKMT_STATUS_ERROR;
	} else if (obj->kind == KMT_OBJ_USERPTR) {
		/* Registered user memory maps where it was registered. */
		st = kmt_obj_map(ctx, obj, NULL, 0);
	} else {
		st = map_to_nodes(ctx, obj, ids, (uint32_t)NumberOfNodes);
	}
	/* As AMD's library: only user memory reports (and sets) an address. */
	if (st == HSAKMT_STATUS_SUCCESS && AlternateVAGPU && obj->kind == KMT_OBJ_USERPTR)
		*AlternateVAGPU = gpu_address(fmm, obj);
	pthread_mutex_unlock(&fmm->lock);
	free(ids);
	return st == HSAKMT_STATUS_SUCCESS ? st : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtMapMemoryToGPUNodes(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			  HSAuint64 *AlternateVAGPU, HsaMemMapFlags MemMapFlags,
			  HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	HsaMemFlags flags = { .Value = MemMapFlags.Value };

	return hsaKmtMapMemoryToGPUNodesCtx(kmt_primary_ctx(), MemoryAddress, MemorySizeInBytes,
					    AlternateVAGPU, flags, NumberOfNodes, NodeArray);
}

KMT_API HSAKMT_STATUS
hsaKmtUnmapMemoryToGPUCtx(HsaKFDContext *ctx, void *MemoryAddress)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_fmm *fmm;
	struct kmt_gpu_mem *g;
	struct kmt_obj *obj;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* AMD's library tolerates NULL here (a runtime bug it works around). */
	if (!MemoryAddress)
		return HSAKMT_STATUS_SUCCESS;
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	g = kmt_scratch_gpu_of(fmm, (uintptr_t)MemoryAddress);
	if (g) {
		st = kmt_scratch_unmap(ctx, g, (uintptr_t)MemoryAddress);
		goto out;
	}
	obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, 0, KMT_FIND_START);
	if (!obj)
		st = fmm->is_dgpu ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
	else if (obj->kind == KMT_OBJ_HOST_CPU)
		st = HSAKMT_STATUS_SUCCESS;
	else
		st = kmt_obj_unmap(ctx, obj, NULL, 0);
out:
	pthread_mutex_unlock(&fmm->lock);
	return st == HSAKMT_STATUS_SUCCESS ? st : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtUnmapMemoryToGPU(void *MemoryAddress)
{
	return hsaKmtUnmapMemoryToGPUCtx(kmt_primary_ctx(), MemoryAddress);
}

/* ---- doorbells ---- */

HSAKMT_STATUS
kmt_mem_map_doorbell(HsaKFDContext *ctx, uint32_t node, uint64_t mmap_offset, void **addr)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_node_info info;
	struct kmt_gpu_mem *g;
	HSAKMT_STATUS st;
	struct kmt_obj *obj = NULL;
	uint64_t size, va;
	void *p;

	st = kmt_topo_node_info(ctx, node, &info);
	if (st != HSAKMT_STATUS_SUCCESS || !info.gpu_id)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	size = info.doorbell_slice_size;

	pthread_mutex_lock(&fmm->lock);
	g = kmt_fmm_gpu(fmm, info.gpu_id);
	/*
	 * On dGPUs (Tonga excepted) the doorbells are a BO in the coherent
	 * aperture so the GPU can ring them too; else (or if the kernel
	 * refuses) a plain mmap of /dev/kfd.
	 */
	if (fmm->is_dgpu && g && kmt_ape_valid(fmm->dgpu_alt) &&
	    kmt_gfx_value(info.gfx) != KMT_GFX(8, 0, 2) &&
	    !kmt_ape_alloc_va(fmm, fmm->dgpu_alt, 0, size, 0, &va)) {
		obj = kmt_bo_create(ctx, fmm->dgpu_alt, KMT_OBJ_DOORBELL, g->gpu_id, va, va, size,
				    KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL |
				    KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				    KFD_ABI_ALLOC_MEM_FLAGS_COHERENT,
				    0, NULL, &st);
		if (!obj)
			kmt_ape_release_va(fmm, fmm->dgpu_alt, va, size);
	}
	if (obj) {
		obj->node_id = node;
		obj->mflags.ui32.NonPaged = 1;
		obj->mflags.ui32.HostAccess = 1;
		p = mmap((void *)va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, ctx->fd,
			 (off_t)mmap_offset);
		if (p == MAP_FAILED || kmt_obj_map(ctx, obj, NULL, 0) != HSAKMT_STATUS_SUCCESS) {
			kmt_obj_release(ctx, obj, false);
			obj = NULL;
		} else {
			obj->cpu = p;
			obj->cpu_size = size;
			obj->cpu_map = KMT_CPU_IN_APERTURE;
			*addr = p;
		}
	}
	pthread_mutex_unlock(&fmm->lock);
	if (obj)
		return HSAKMT_STATUS_SUCCESS;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd, (off_t)mmap_offset);
	if (p == MAP_FAILED) {
		kmt_err("cannot map the doorbells of node %u: %s\n", node, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	*addr = p;
	return HSAKMT_STATUS_SUCCESS;
}

void
kmt_mem_unmap_doorbell(HsaKFDContext *ctx, uint32_t node, void *addr, bool forked)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_node_info info;
	struct kmt_obj *obj = NULL;

	if (!addr)
		return;
	if (fmm) {
		pthread_mutex_lock(&fmm->lock);
		obj = kmt_fmm_find(fmm, (uintptr_t)addr, 0, KMT_FIND_START);
		if (obj && obj->kind == KMT_OBJ_DOORBELL)
			kmt_obj_release(ctx, obj, forked);
		else
			obj = NULL;
		pthread_mutex_unlock(&fmm->lock);
	}
	if (!obj && kmt_topo_node_info(ctx, node, &info) == HSAKMT_STATUS_SUCCESS)
		munmap(addr, info.doorbell_slice_size);
}
