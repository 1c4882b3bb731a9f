/* SPDX-License-Identifier: MIT */
/*
 * Sharing memory with other drivers and processes:
 *  - graphics interop: a dma-buf from a graphics driver is imported
 *    (GET_DMABUF_INFO, IMPORT_DMABUF) at a 256 KiB-aligned GPU address,
 *    or with no address of its own when the caller needs none;
 *  - dma-buf export of an allocation (EXPORT_DMABUF, KFD 1.12);
 *  - IPC between processes through ROCm's own IPC ioctls, which upstream
 *    kernels do not have (they answer EINVAL, and so do these calls:
 *    ERROR, as AMD's library).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/fmm.h"

/* Graphics metadata usually fits; bigger ones take a second call. */
#define KMT_METADATA_DEFAULT	64
#define KMT_IMAGE_ALIGN		(256ULL << 10)

static int
dmabuf_info(HsaKFDContext *ctx, int fd, struct kfd_abi_get_dmabuf_info_args *info, void **meta)
{
	int ret;

	memset(info, 0, sizeof(*info));
	info->dmabuf_fd = (uint32_t)fd;
	info->metadata_size = KMT_METADATA_DEFAULT;
	*meta = calloc(1, KMT_METADATA_DEFAULT);
	if (!*meta)
		return -ENOMEM;
	info->metadata_ptr = (uintptr_t)*meta;
	ret = kmt_ioctl(ctx, KFD_ABI_IOC_GET_DMABUF_INFO, info);
	if (ret && info->metadata_size > KMT_METADATA_DEFAULT) {
		uint32_t need = info->metadata_size;

		free(*meta);
		*meta = calloc(1, need);
		if (!*meta)
			return -ENOMEM;
		info->dmabuf_fd = (uint32_t)fd;
		info->metadata_ptr = (uintptr_t)*meta;
		info->metadata_size = need;
		ret = kmt_ioctl(ctx, KFD_ABI_IOC_GET_DMABUF_INFO, info);
	}
	if (ret) {
		ret = -errno;
		free(*meta);
		*meta = NULL;
	}
	return ret;
}

/* Takes ownership of @ids. */
static HSAKMT_STATUS
register_graphics(HsaKFDContext *ctx, uint64_t handle, HsaGraphicsResourceInfo *out,
		  uint32_t *ids, uint32_t n, bool need_va)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kfd_abi_get_dmabuf_info_args info;
	struct kfd_abi_import_dmabuf_args imp = {0};
	struct kmt_aperture *ape;
	struct kmt_gpu_mem *g;
	struct kmt_obj *obj;
	HSAKMT_STATUS st = HSAKMT_STATUS_ERROR;
	uint64_t va, rel = 0;
	void *meta = NULL;

	if (!out || handle > INT32_MAX) {
		free(ids);
		return HSAKMT_STATUS_INVALID_PARAMETER;
	}
	if (dmabuf_info(ctx, (int)handle, &info, &meta)) {
		free(ids);
		return HSAKMT_STATUS_ERROR;
	}
	pthread_mutex_lock(&fmm->lock);
	g = kmt_fmm_gpu(fmm, info.gpu_id);
	if (!g)
		goto fail;
	/* No address wanted: a unique handle address; else where the GPU maps. */
	if (!need_va) {
		ape = &fmm->mem_handle;
	} else if (g->svm_needed) {
		ape = fmm->dgpu;
	} else {
		ape = &g->gpuvm;
		rel = g->gpuvm.base;
	}
	if (!kmt_ape_valid(ape) || kmt_ape_alloc_va(fmm, ape, 0, info.size, KMT_IMAGE_ALIGN, &va))
		goto fail;
	imp.va_addr = ape == &fmm->mem_handle ? 0 : va - rel;
	imp.gpu_id = info.gpu_id;
	imp.dmabuf_fd = (uint32_t)handle;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_IMPORT_DMABUF, &imp)) {
		kmt_err("IMPORT_DMABUF failed: %s\n", strerror(errno));
		kmt_ape_release_va(fmm, ape, va, info.size);
		goto fail;
	}
	obj = kmt_obj_new(ape, KMT_OBJ_GRAPHICS, va, info.size);
	if (!obj) {
		kmt_bo_free_ioctl(ctx, imp.handle);
		kmt_ape_release_va(fmm, ape, va, info.size);
		st = HSAKMT_STATUS_NO_MEMORY;
		goto fail;
	}
	obj->handle = imp.handle;
	obj->gpu_id = info.gpu_id;
	obj->kfd_flags = info.flags;
	obj->mflags = kmt_mem_flags_from_kfd(info.flags);
	obj->mflags.ui32.CoarseGrain = 1;
	obj->node_id = g->node;
	obj->metadata = meta;
	obj->metadata_size = info.metadata_size;
	obj->reg_ids = ids;
	obj->n_reg = n;
	pthread_mutex_unlock(&fmm->lock);

	out->MemoryAddress = (void *)va;
	out->SizeInBytes = info.size;
	out->Metadata = meta;
	out->MetadataSizeInBytes = info.metadata_size;
	out->NodeId = g->node;
	return HSAKMT_STATUS_SUCCESS;

fail:
	pthread_mutex_unlock(&fmm->lock);
	free(meta);
	free(ids);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterGraphicsHandleToNodesExtCtx(HsaKFDContext *ctx, HSAuint64 GraphicsResourceHandle,
					  HsaGraphicsResourceInfo *GraphicsResourceInfo,
					  HSAuint64 NumberOfNodes, HSAuint32 *NodeArray,
					  HSA_REGISTER_MEM_FLAGS RegisterFlags)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	uint32_t *ids = NULL;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (NumberOfNodes || NodeArray) {
		st = kmt_ids_from_nodes(ctx, NumberOfNodes, NodeArray, &ids);
		if (st != HSAKMT_STATUS_SUCCESS)
			return st;
	}
	return register_graphics(ctx, GraphicsResourceHandle, GraphicsResourceInfo, ids,
				 (uint32_t)NumberOfNodes, RegisterFlags.ui32.requiresVAddr);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterGraphicsHandleToNodesExt(HSAuint64 GraphicsResourceHandle,
				       HsaGraphicsResourceInfo *GraphicsResourceInfo,
				       HSAuint64 NumberOfNodes, HSAuint32 *NodeArray,
				       HSA_REGISTER_MEM_FLAGS RegisterFlags)
{
	return hsaKmtRegisterGraphicsHandleToNodesExtCtx(kmt_primary_ctx(), GraphicsResourceHandle,
							 GraphicsResourceInfo, NumberOfNodes,
							 NodeArray, RegisterFlags);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterGraphicsHandleToNodesCtx(HsaKFDContext *ctx, HSAuint64 GraphicsResourceHandle,
				       HsaGraphicsResourceInfo *GraphicsResourceInfo,
				       HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	uint32_t *ids;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* The classic call always names its GPUs and always wants a VA. */
	st = kmt_ids_from_nodes(ctx, NumberOfNodes, NodeArray, &ids);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return register_graphics(ctx, GraphicsResourceHandle, GraphicsResourceInfo, ids,
				 (uint32_t)NumberOfNodes, true);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 GraphicsResourceHandle,
				    HsaGraphicsResourceInfo *GraphicsResourceInfo,
				    HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	return hsaKmtRegisterGraphicsHandleToNodesCtx(kmt_primary_ctx(), GraphicsResourceHandle,
						      GraphicsResourceInfo, NumberOfNodes,
						      NodeArray);
}

bool
kmt_fmm_bo_range(struct kmt_fmm *fmm, uint64_t addr, uint64_t size, uint64_t *handle,
		 uint64_t *offset)
{
	struct kmt_obj *obj;
	uint64_t off;
	bool ok = false;

	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, addr, 0, KMT_FIND_INSIDE);
	if (obj && obj->handle) {
		off = addr - obj->va;
		if (obj->kind == KMT_OBJ_USERPTR)
			off = addr - (obj->userptr & ~(kmt_page_size() - 1));
		if (size <= obj->size - off) {
			*handle = obj->handle;
			*offset = off;
			ok = true;
		}
	}
	pthread_mutex_unlock(&fmm->lock);
	return ok;
}

KMT_API HSAKMT_STATUS
hsaKmtExportDMABufHandleCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			    int *DMABufFd, HSAuint64 *Offset)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_export_dmabuf_args args = { .flags = O_CLOEXEC };
	uint64_t off;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!DMABufFd || !Offset)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!kmt_kfd_minor_at_least(ctx, 12))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	if (!kmt_fmm_bo_range(ctx->fmm, (uintptr_t)MemoryAddress, MemorySizeInBytes,
			      &args.handle, &off))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_EXPORT_DMABUF, &args)) {
		kmt_err("EXPORT_DMABUF failed: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	*DMABufFd = (int)args.dmabuf_fd;
	*Offset = off;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtExportDMABufHandle(void *MemoryAddress, HSAuint64 MemorySizeInBytes, int *DMABufFd,
			 HSAuint64 *Offset)
{
	return hsaKmtExportDMABufHandleCtx(kmt_primary_ctx(), MemoryAddress, MemorySizeInBytes,
					   DMABufFd, Offset);
}

/*
 * The opaque IPC handle: the kernel's 16-byte share handle, where the
 * exporter's memory lived (aperture kind and index), its size in pages
 * and the exporting GPU. Eight u32, HsaSharedMemoryHandle's size.
 */
enum kmt_ipc_ape { KMT_IPC_DGPU = 1, KMT_IPC_DGPU_ALT, KMT_IPC_GPUVM, KMT_IPC_CPUVM };

struct kmt_ipc_handle {
	uint32_t share_handle[4];
	uint32_t ape_kind;
	uint32_t ape_idx;
	uint32_t pages;
	uint32_t gpu_id;
};

_Static_assert(sizeof(struct kmt_ipc_handle) == sizeof(HsaSharedMemoryHandle),
	       "the IPC handle must fill HsaSharedMemoryHandle exactly");

static void
ipc_aperture_of(struct kmt_fmm *fmm, const struct kmt_aperture *ape, uint32_t *kind, uint32_t *idx)
{
	uint32_t i;

	*idx = 0;
	*kind = ape == fmm->dgpu_alt && ape != fmm->dgpu ? KMT_IPC_DGPU_ALT : KMT_IPC_DGPU;
	for (i = 0; i < fmm->n_gpus; i++)
		if (ape == &fmm->gpus[i].gpuvm) {
			*kind = KMT_IPC_GPUVM;
			*idx = i;
		}
	if (ape == &fmm->cpuvm)
		*kind = KMT_IPC_CPUVM;
}

static struct kmt_aperture *
ipc_aperture(struct kmt_fmm *fmm, uint32_t kind, uint32_t idx)
{
	switch (kind) {
	case KMT_IPC_DGPU:
		return fmm->dgpu;
	case KMT_IPC_DGPU_ALT:
		return fmm->dgpu_alt;
	case KMT_IPC_GPUVM:
		return idx < fmm->n_gpus ? &fmm->gpus[idx].gpuvm : NULL;
	case KMT_IPC_CPUVM:
		return &fmm->cpuvm;
	default:
		return NULL;
	}
}

KMT_API HSAKMT_STATUS
hsaKmtShareMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 SizeInBytes,
		     HsaSharedMemoryHandle *SharedMemoryHandle)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_ipc_export_handle_args args = {0};
	struct kmt_ipc_handle h = {0};
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;
	uint64_t page = kmt_page_size();

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!SharedMemoryHandle || SizeInBytes / page > UINT32_MAX)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, 0, KMT_FIND_START);
	if (!obj || !obj->handle) {
		pthread_mutex_unlock(&fmm->lock);
		return HSAKMT_STATUS_INVALID_PARAMETER;
	}
	args.handle = obj->handle;
	/* System memory BOs belong to the first GPU. */
	args.gpu_id = obj->gpu_id ? obj->gpu_id : (fmm->n_gpus ? fmm->gpus[0].gpu_id : 0);
	args.flags = obj->mflags.Value;
	ipc_aperture_of(fmm, obj->ape, &h.ape_kind, &h.ape_idx);
	pthread_mutex_unlock(&fmm->lock);

	if (kmt_ioctl(ctx, KFD_ABI_IOC_IPC_EXPORT_HANDLE, &args)) {
		kmt_info("IPC_EXPORT_HANDLE failed: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	memcpy(h.share_handle, args.share_handle, sizeof(h.share_handle));
	h.pages = (uint32_t)(SizeInBytes / page);
	h.gpu_id = args.gpu_id;
	memcpy(SharedMemoryHandle, &h, sizeof(h));
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtShareMemory(void *MemoryAddress, HSAuint64 SizeInBytes,
		  HsaSharedMemoryHandle *SharedMemoryHandle)
{
	return hsaKmtShareMemoryCtx(kmt_primary_ctx(), MemoryAddress, SizeInBytes,
				    SharedMemoryHandle);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterSharedHandleToNodesCtx(HsaKFDContext *ctx,
				     const HsaSharedMemoryHandle *SharedMemoryHandle,
				     void **MemoryAddress, HSAuint64 *SizeInBytes,
				     HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_ipc_import_handle_args args = {0};
	struct kmt_ipc_handle h;
	struct kmt_aperture *ape;
	struct kmt_gpu_mem *g;
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;
	uint32_t *ids = NULL;
	uint64_t size, va;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!SharedMemoryHandle || !MemoryAddress || !SizeInBytes)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (NodeArray) {
		st = kmt_ids_from_nodes(ctx, NumberOfNodes, NodeArray, &ids);
		if (st != HSAKMT_STATUS_SUCCESS)
			return st;
	}
	memcpy(&h, SharedMemoryHandle, sizeof(h));
	size = (uint64_t)h.pages * kmt_page_size();
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	ape = ipc_aperture(fmm, h.ape_kind, h.ape_idx);
	if (!size || !kmt_ape_valid(ape)) {
		st = HSAKMT_STATUS_INVALID_PARAMETER;
		goto out;
	}
	if (kmt_ape_alloc_va(fmm, ape, 0, size, 0, &va)) {
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	memcpy(args.share_handle, h.share_handle, sizeof(args.share_handle));
	args.gpu_id = h.gpu_id;
	args.va_addr = va;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_IPC_IMPORT_HANDLE, &args)) {
		kmt_info("IPC_IMPORT_HANDLE failed: %s\n", strerror(errno));
		kmt_ape_release_va(fmm, ape, va, size);
		st = HSAKMT_STATUS_ERROR;
		goto out;
	}
	obj = kmt_obj_new(ape, KMT_OBJ_SHARED, va, size);
	if (!obj) {
		kmt_bo_free_ioctl(ctx, args.handle);
		kmt_ape_release_va(fmm, ape, va, size);
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	obj->handle = args.handle;
	obj->gpu_id = args.gpu_id;
	obj->mflags.Value = args.flags;
	g = kmt_fmm_gpu(fmm, args.gpu_id);
	if (g)
		obj->node_id = g->node;
	if (args.mmap_offset && g && (ape->cpu_reserved || ape->mmap_backed)) {
		void *p = mmap((void *)va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			       g->render_fd, (off_t)args.mmap_offset);

		if (p == MAP_FAILED) {
			kmt_obj_release(ctx, obj, false);
			st = HSAKMT_STATUS_ERROR;
			goto out;
		}
		madvise(p, size, MADV_DONTFORK);
		obj->cpu = p;
		obj->cpu_size = size;
		obj->cpu_map = KMT_CPU_IN_APERTURE;
	}
	if (ids) {
		obj->reg_ids = ids;
		obj->n_reg = (uint32_t)NumberOfNodes;
		ids = NULL;
	}
	*MemoryAddress = (void *)va;
	*SizeInBytes = size;
	st = HSAKMT_STATUS_SUCCESS;
out:
	pthread_mutex_unlock(&fmm->lock);
	free(ids);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle *SharedMemoryHandle,
				  void **MemoryAddress, HSAuint64 *SizeInBytes,
				  HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
	return hsaKmtRegisterSharedHandleToNodesCtx(kmt_primary_ctx(), SharedMemoryHandle,
						    MemoryAddress, SizeInBytes, NumberOfNodes,
						    NodeArray);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterSharedHandleCtx(HsaKFDContext *ctx, const HsaSharedMemoryHandle *SharedMemoryHandle,
			      void **MemoryAddress, HSAuint64 *SizeInBytes)
{
	return hsaKmtRegisterSharedHandleToNodesCtx(ctx, SharedMemoryHandle, MemoryAddress,
						    SizeInBytes, 0, NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle *SharedMemoryHandle, void **MemoryAddress,
			   HSAuint64 *SizeInBytes)
{
	return hsaKmtRegisterSharedHandleCtx(kmt_primary_ctx(), SharedMemoryHandle, MemoryAddress,
					     SizeInBytes);
}
