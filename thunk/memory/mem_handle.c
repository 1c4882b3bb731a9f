/* SPDX-License-Identifier: MIT */
/*
 * The handle API of AMD's newer library: buffer objects that live outside
 * the address-space manager. hsaKmtHandleImport() turns a dma-buf into a
 * libdrm amdgpu_bo_handle on a render node; the caller then places it in
 * the GPU VM itself (hsaKmtMemoryVaMap: amdgpu's GEM_VA on the node's
 * render file), maps it for the CPU, and frees it. None of this is a KFD
 * ioctl and none of it is an fmm object: hsaKmtQueryPointerInfo() does
 * not know these buffers, as in AMD's library.
 *
 * libdrm makes and frees the handles (it keeps a per-device table so one
 * GEM handle is one amdgpu_bo_handle); the GEM_VA and GEM_MMAP requests
 * go through the dispatch point like every other request of the library.
 */
#include <errno.h>
#include <string.h>

#include <kfdtrace/drm_abi.h>

#include "memory/fmm.h"

#ifdef KMT_HAVE_LIBDRM_AMDGPU
#include <amdgpu.h>

KMT_API HSAKMT_STATUS
hsaKmtHandleImportCtx(HsaKFDContext *ctx, const HsaHandleImportDesc *ImportDesc,
		      HsaHandleImportResult *ImportResult, HsaHandleImportFlags *Flags)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	HsaHandleImportFlags none = {{0}};
	struct amdgpu_bo_import_result res;
	struct amdgpu_bo_info info;
	uint32_t found;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!ImportDesc || !ImportResult || !ImportDesc->device_handle)
		return HSAKMT_STATUS_INVALID_HANDLE;
	if (!Flags)
		Flags = &none;
	switch (ImportDesc->type) {
	case HSA_EXTERNAL_HANDLE_DMA_BUF:
		break;
	case HSA_EXTERNAL_HANDLE_FABRIC:
		/*
		 * AMD's library turns a fabric handle into a dma-buf through
		 * amdgpu's UALINK_HANDLE request, which kfdtrace's DRM tables
		 * lack, and answers ERROR when that fails. We send nothing.
		 */
		return HSAKMT_STATUS_ERROR;
	default:
		return HSAKMT_STATUS_NOT_SUPPORTED;
	}
	ImportResult->dmabuf_fd = (int)ImportDesc->dmabuf_fd;
	if (amdgpu_bo_import(ImportDesc->device_handle, amdgpu_bo_handle_type_dma_buf_fd,
			     (uint32_t)ImportDesc->dmabuf_fd, &res))
		return HSAKMT_STATUS_ERROR;
	if (Flags->ui32.IPCHandle) {
		/*
		 * IPC buffers carry a 32-bit tag in the first metadata word.
		 * Where the check fails the caller gets no handle, so the
		 * import is undone (AMD's library keeps it: one more GEM_CLOSE
		 * here).
		 */
		memset(&info, 0, sizeof(info));
		if (amdgpu_bo_query_info(res.buf_handle, &info)) {
			amdgpu_bo_free(res.buf_handle);
			return HSAKMT_STATUS_INVALID_HANDLE;
		}
		found = info.metadata.umd_metadata[0];
		if (Flags->ui32.UpdateMetadata && !Flags->ui32.SysMem) {
			if (info.metadata.size_metadata) {
				ImportResult->metadata = found;
			} else {
				struct amdgpu_bo_metadata md = {0};

				md.size_metadata = sizeof(uint32_t);
				md.umd_metadata[0] = ImportDesc->metadata;
				amdgpu_bo_set_metadata(res.buf_handle, &md);
			}
		} else if (found != ImportDesc->metadata) {
			ImportResult->metadata = found;
			amdgpu_bo_free(res.buf_handle);
			return HSAKMT_STATUS_INVALID_PARAMETER;
		}
	}
	ImportResult->buf_handle = (HsaMemoryObjectHandle)res.buf_handle;
	ImportResult->alloc_size = res.alloc_size;
	return HSAKMT_STATUS_SUCCESS;
}

/* GEM_VA permissions for the access the caller asked for. */
static uint32_t
va_access_flags(HsaMemoryMapFlags flags)
{
	switch (flags) {
	case HSA_MEMORY_ACCESS_RO:
		return KFD_DRM_AMDGPU_VM_PAGE_READABLE;
	case HSA_MEMORY_ACCESS_WO:
		return KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE;
	case HSA_MEMORY_ACCESS_RW:
		return KFD_DRM_AMDGPU_VM_PAGE_READABLE | KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE;
	default:
		return 0;
	}
}

/* One GEM_VA request for @Handle on the render file of @NodeId. */
static HSAKMT_STATUS
gem_va(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, uint32_t op, uint32_t flags,
       HSAuint64 offset, HSAuint64 size, HSAuint64 addr, HSAuint32 NodeId)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_drm_amdgpu_gem_va va = {0};
	uint32_t gem;
	int fd;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Handle)
		return HSAKMT_STATUS_ERROR;
	fd = kmt_render_fd(ctx, NodeId);
	if (fd < 0)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	/* A KMS "export" only reads the GEM handle libdrm holds: no request. */
	if (amdgpu_bo_export((amdgpu_bo_handle)Handle, amdgpu_bo_handle_type_kms, &gem))
		return HSAKMT_STATUS_ERROR;
	va.handle = gem;
	va.operation = op;
	va.flags = flags;
	va.va_address = addr;
	va.offset_in_bo = offset;
	va.map_size = size;
	if (kmt_drm_ioctl(fd, KFD_DRM_IOCTL_AMDGPU_GEM_VA, &va)) {
		kmt_err("GEM_VA %s of 0x%llx failed: %s\n", op == KFD_DRM_AMDGPU_VA_OP_MAP ?
			"map" : "unmap", (unsigned long long)addr, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryVaMapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, HSAuint64 offset,
		     HSAuint64 size, HSAuint64 addr, HsaMemoryMapFlags flags, HSAuint32 NodeId)
{
	return gem_va(ctx, Handle, KFD_DRM_AMDGPU_VA_OP_MAP, va_access_flags(flags), offset,
		      size, addr, NodeId);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryVaUnmapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, HSAuint64 offset,
		       HSAuint64 size, HSAuint64 addr, HSAuint32 NodeId)
{
	return gem_va(ctx, Handle, KFD_DRM_AMDGPU_VA_OP_UNMAP, 0, offset, size, addr, NodeId);
}

KMT_API HSAKMT_STATUS
hsaKmtMemHandleFreeCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct amdgpu_bo_metadata md = {0};

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Handle)
		return HSAKMT_STATUS_ERROR;
	/* Clear the IPC tag first: the dma-buf may outlive this handle. */
	if (amdgpu_bo_set_metadata((amdgpu_bo_handle)Handle, &md) ||
	    amdgpu_bo_free((amdgpu_bo_handle)Handle))
		return HSAKMT_STATUS_ERROR;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryCpuMapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, void **out_cpu_ptr)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Handle || !out_cpu_ptr)
		return HSAKMT_STATUS_ERROR;
	return amdgpu_bo_cpu_map((amdgpu_bo_handle)Handle, out_cpu_ptr) ?
	       HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryGetCpuAddrCtx(HsaKFDContext *ctx, HsaAMDGPUDeviceHandle DeviceHandle,
			  HsaMemoryObjectHandle MemoryHandle, HSAuint64 *cpu_addr)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	union kfd_drm_amdgpu_gem_mmap args;
	uint32_t gem;
	int fd;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!DeviceHandle || !MemoryHandle || !cpu_addr)
		return HSAKMT_STATUS_ERROR;
	fd = amdgpu_device_get_fd(DeviceHandle);
	if (fd < 0 ||
	    amdgpu_bo_export((amdgpu_bo_handle)MemoryHandle, amdgpu_bo_handle_type_kms, &gem))
		return HSAKMT_STATUS_ERROR;
	memset(&args, 0, sizeof(args));
	args.in.handle = gem;
	if (kmt_drm_ioctl(fd, KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, &args))
		return HSAKMT_STATUS_ERROR;
	/* The render file's mmap offset of the buffer, not an address. */
	*cpu_addr = args.out.addr_ptr;
	return HSAKMT_STATUS_SUCCESS;
}

#else /* !KMT_HAVE_LIBDRM_AMDGPU */

/* Without libdrm there are no device handles to import on. */
KMT_API HSAKMT_STATUS
hsaKmtHandleImportCtx(HsaKFDContext *ctx, const HsaHandleImportDesc *ImportDesc,
		      HsaHandleImportResult *ImportResult, HsaHandleImportFlags *Flags)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	(void)ImportDesc, (void)ImportResult, (void)Flags;
	return st != HSAKMT_STATUS_SUCCESS ? st : HSAKMT_STATUS_NOT_SUPPORTED;
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryVaMapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, HSAuint64 offset,
		     HSAuint64 size, HSAuint64 addr, HsaMemoryMapFlags flags, HSAuint32 NodeId)
{
	(void)Handle, (void)offset, (void)size, (void)addr, (void)flags, (void)NodeId;
	return hsaKmtHandleImportCtx(ctx, NULL, NULL, NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryVaUnmapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, HSAuint64 offset,
		       HSAuint64 size, HSAuint64 addr, HSAuint32 NodeId)
{
	(void)Handle, (void)offset, (void)size, (void)addr, (void)NodeId;
	return hsaKmtHandleImportCtx(ctx, NULL, NULL, NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtMemHandleFreeCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle)
{
	(void)Handle;
	return hsaKmtHandleImportCtx(ctx, NULL, NULL, NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryCpuMapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle, void **out_cpu_ptr)
{
	(void)Handle, (void)out_cpu_ptr;
	return hsaKmtHandleImportCtx(ctx, NULL, NULL, NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryGetCpuAddrCtx(HsaKFDContext *ctx, HsaAMDGPUDeviceHandle DeviceHandle,
			  HsaMemoryObjectHandle MemoryHandle, HSAuint64 *cpu_addr)
{
	(void)DeviceHandle, (void)MemoryHandle, (void)cpu_addr;
	return hsaKmtHandleImportCtx(ctx, NULL, NULL, NULL);
}

#endif /* KMT_HAVE_LIBDRM_AMDGPU */

KMT_API HSAKMT_STATUS
hsaKmtHandleImport(const HsaHandleImportDesc *ImportDesc, HsaHandleImportResult *ImportResult,
		   HsaHandleImportFlags *Flags)
{
	return hsaKmtHandleImportCtx(kmt_primary_ctx(), ImportDesc, ImportResult, Flags);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryVaMap(HsaMemoryObjectHandle Handle, HSAuint64 offset, HSAuint64 size, HSAuint64 addr,
		  HsaMemoryMapFlags flags, HSAuint32 NodeId)
{
	return hsaKmtMemoryVaMapCtx(kmt_primary_ctx(), Handle, offset, size, addr, flags, NodeId);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryVaUnmap(HsaMemoryObjectHandle Handle, HSAuint64 offset, HSAuint64 size,
		    HSAuint64 addr, HSAuint32 NodeId)
{
	return hsaKmtMemoryVaUnmapCtx(kmt_primary_ctx(), Handle, offset, size, addr, NodeId);
}

KMT_API HSAKMT_STATUS
hsaKmtMemHandleFree(HsaMemoryObjectHandle Handle)
{
	return hsaKmtMemHandleFreeCtx(kmt_primary_ctx(), Handle);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryCpuMap(HsaMemoryObjectHandle Handle, void **out_cpu_ptr)
{
	return hsaKmtMemoryCpuMapCtx(kmt_primary_ctx(), Handle, out_cpu_ptr);
}

KMT_API HSAKMT_STATUS
hsaKmtMemoryGetCpuAddr(HsaAMDGPUDeviceHandle DeviceHandle, HsaMemoryObjectHandle MemoryHandle,
		       HSAuint64 *cpu_addr)
{
	return hsaKmtMemoryGetCpuAddrCtx(kmt_primary_ctx(), DeviceHandle, MemoryHandle, cpu_addr);
}
