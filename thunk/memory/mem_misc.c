/* SPDX-License-Identifier: MIT */
/*
 * The smaller memory calls: available VRAM, tiling configuration, cache
 * policy, cross-process copies and AIS file transfers (ROCm-only ioctls),
 * the obsolete graphics map calls and the ASAN page helpers.
 */
#include <errno.h>
#include <string.h>

#include "memory/fmm.h"

KMT_API HSAKMT_STATUS
hsaKmtAvailableMemoryCtx(HsaKFDContext *ctx, HSAuint32 Node, HSAuint64 *AvailableBytes)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_get_available_memory_args args = {0};
	struct kmt_node_info info;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!AvailableBytes)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!kmt_kfd_minor_at_least(ctx, 9))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	st = kmt_topo_node_info(ctx, Node, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* A CPU node has gpu_id 0, which the kernel refuses: ERROR. */
	args.gpu_id = info.gpu_id;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_AVAILABLE_MEMORY, &args))
		return HSAKMT_STATUS_ERROR;
	*AvailableBytes = args.available;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtAvailableMemory(HSAuint32 Node, HSAuint64 *AvailableBytes)
{
	return hsaKmtAvailableMemoryCtx(kmt_primary_ctx(), Node, AvailableBytes);
}

KMT_API HSAKMT_STATUS
hsaKmtGetTileConfigCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HsaGpuTileConfig *config)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_get_tile_config_args args = {0};
	struct kmt_node_info info;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!config)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_topo_node_info(ctx, NodeId, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if ((config->NumTileConfigs && !config->TileConfig) ||
	    (config->NumMacroTileConfigs && !config->MacroTileConfig))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	/* The kernel may fill fewer entries than there is room for. */
	if (config->NumTileConfigs)
		memset(config->TileConfig, 0, config->NumTileConfigs * sizeof(HSAuint32));
	if (config->NumMacroTileConfigs)
		memset(config->MacroTileConfig, 0, config->NumMacroTileConfigs * sizeof(HSAuint32));
	args.gpu_id = info.gpu_id;
	args.tile_config_ptr = (uintptr_t)config->TileConfig;
	args.macro_tile_config_ptr = (uintptr_t)config->MacroTileConfig;
	args.num_tile_configs = config->NumTileConfigs;
	args.num_macro_tile_configs = config->NumMacroTileConfigs;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_TILE_CONFIG, &args))
		return HSAKMT_STATUS_ERROR;
	config->NumTileConfigs = args.num_tile_configs;
	config->NumMacroTileConfigs = args.num_macro_tile_configs;
	config->GbAddrConfig = args.gb_addr_config;
	config->NumBanks = args.num_banks;
	config->NumRanks = args.num_ranks;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetTileConfig(HSAuint32 NodeId, HsaGpuTileConfig *config)
{
	return hsaKmtGetTileConfigCtx(kmt_primary_ctx(), NodeId, config);
}

KMT_API HSAKMT_STATUS
hsaKmtSetMemoryPolicyCtx(HsaKFDContext *ctx, HSAuint32 Node, HSAuint32 DefaultPolicy,
			 HSAuint32 AlternatePolicy, void *MemoryAddressAlternate,
			 HSAuint64 MemorySizeInBytes)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_set_memory_policy_args args = {0};
	struct kmt_node_info info;
	uint64_t page = kmt_page_size();

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = kmt_topo_node_info(ctx, Node, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/*
	 * Only Kaveri lets the application pick its alternate aperture;
	 * everywhere else the library set it up at open for coherent
	 * memory and does not let it be overridden.
	 */
	if (kmt_gfx_value(info.gfx) != KMT_GFX(7, 0, 0))
		return HSAKMT_STATUS_NOT_IMPLEMENTED;
	if ((DefaultPolicy != HSA_CACHING_CACHED && DefaultPolicy != HSA_CACHING_NONCACHED) ||
	    (AlternatePolicy != HSA_CACHING_CACHED && AlternatePolicy != HSA_CACHING_NONCACHED))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (((uintptr_t)MemoryAddressAlternate & (page - 1)) || (MemorySizeInBytes & (page - 1)))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	args.gpu_id = info.gpu_id;
	args.default_policy = DefaultPolicy == HSA_CACHING_CACHED ? KFD_ABI_CACHE_POLICY_COHERENT
								  : KFD_ABI_CACHE_POLICY_NONCOHERENT;
	args.alternate_policy = AlternatePolicy == HSA_CACHING_CACHED
					? KFD_ABI_CACHE_POLICY_COHERENT
					: KFD_ABI_CACHE_POLICY_NONCOHERENT;
	args.alternate_aperture_base = (uintptr_t)MemoryAddressAlternate;
	args.alternate_aperture_size = MemorySizeInBytes;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_MEMORY_POLICY, &args))
		return HSAKMT_STATUS_ERROR;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSetMemoryPolicy(HSAuint32 Node, HSAuint32 DefaultPolicy, HSAuint32 AlternatePolicy,
		      void *MemoryAddressAlternate, HSAuint64 MemorySizeInBytes)
{
	return hsaKmtSetMemoryPolicyCtx(kmt_primary_ctx(), Node, DefaultPolicy, AlternatePolicy,
					MemoryAddressAlternate, MemorySizeInBytes);
}

/* HsaMemoryRange and the kernel's range struct are the same 16 bytes. */
_Static_assert(sizeof(HsaMemoryRange) == sizeof(struct kfd_abi_memory_range),
	       "HsaMemoryRange must match the kernel's memory range");

static HSAKMT_STATUS
cross_copy(HsaKFDContext *ctx, bool write, HSAuint32 pid, HsaMemoryRange *local,
	   HSAuint64 n_local, HsaMemoryRange *remote, HSAuint64 n_remote, HSAuint64 *copied)
{
	struct kfd_abi_cross_memory_copy_args args = {0};
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (copied)
		*copied = 0;
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!local || !remote || !n_local || !n_remote)
		return HSAKMT_STATUS_ERROR;
	args.pid = pid;
	args.flags = write ? KFD_ABI_CROSS_MEMORY_RW_BIT : 0;
	/* Data flows from src to dst: remote to local when reading. */
	args.src_mem_range_array = (uintptr_t)(write ? local : remote);
	args.src_mem_array_size = write ? n_local : n_remote;
	args.dst_mem_range_array = (uintptr_t)(write ? remote : local);
	args.dst_mem_array_size = write ? n_remote : n_local;
	/*
	 * Only ROCm's DKMS kernels have this ioctl; upstream kernels answer
	 * EINVAL and the call fails with ERROR, as with AMD's library.
	 */
	if (kmt_ioctl(ctx, KFD_ABI_IOC_CROSS_MEMORY_COPY, &args))
		st = HSAKMT_STATUS_ERROR;
	if (copied)
		*copied = args.bytes_copied;
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtProcessVMReadCtx(HsaKFDContext *ctx, HSAuint32 Pid, HsaMemoryRange *LocalMemoryArray,
		       HSAuint64 LocalMemoryArrayCount, HsaMemoryRange *RemoteMemoryArray,
		       HSAuint64 RemoteMemoryArrayCount, HSAuint64 *SizeCopied)
{
	return cross_copy(ctx, false, Pid, LocalMemoryArray, LocalMemoryArrayCount,
			  RemoteMemoryArray, RemoteMemoryArrayCount, SizeCopied);
}

KMT_API HSAKMT_STATUS
hsaKmtProcessVMRead(HSAuint32 Pid, HsaMemoryRange *LocalMemoryArray,
		    HSAuint64 LocalMemoryArrayCount, HsaMemoryRange *RemoteMemoryArray,
		    HSAuint64 RemoteMemoryArrayCount, HSAuint64 *SizeCopied)
{
	return hsaKmtProcessVMReadCtx(kmt_primary_ctx(), Pid, LocalMemoryArray,
				      LocalMemoryArrayCount, RemoteMemoryArray,
				      RemoteMemoryArrayCount, SizeCopied);
}

KMT_API HSAKMT_STATUS
hsaKmtProcessVMWriteCtx(HsaKFDContext *ctx, HSAuint32 Pid, HsaMemoryRange *LocalMemoryArray,
			HSAuint64 LocalMemoryArrayCount, HsaMemoryRange *RemoteMemoryArray,
			HSAuint64 RemoteMemoryArrayCount, HSAuint64 *SizeCopied)
{
	return cross_copy(ctx, true, Pid, LocalMemoryArray, LocalMemoryArrayCount,
			  RemoteMemoryArray, RemoteMemoryArrayCount, SizeCopied);
}

KMT_API HSAKMT_STATUS
hsaKmtProcessVMWrite(HSAuint32 Pid, HsaMemoryRange *LocalMemoryArray,
		     HSAuint64 LocalMemoryArrayCount, HsaMemoryRange *RemoteMemoryArray,
		     HSAuint64 RemoteMemoryArrayCount, HSAuint64 *SizeCopied)
{
	return hsaKmtProcessVMWriteCtx(kmt_primary_ctx(), Pid, LocalMemoryArray,
				       LocalMemoryArrayCount, RemoteMemoryArray,
				       RemoteMemoryArrayCount, SizeCopied);
}

KMT_API HSAKMT_STATUS
hsaKmtMapGraphicHandleCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint64 GraphicDeviceHandle,
			  HSAuint64 GraphicResourceHandle, HSAuint64 GraphicResourceOffset,
			  HSAuint64 GraphicResourceSize, HSAuint64 *FlatMemoryAddress)
{
	/*
	 * Only ever implemented for Kaveri's out-of-tree driver; superseded
	 * by hsaKmtRegisterGraphicsHandleToNodes.
	 */
	(void)ctx;
	(void)NodeId;
	(void)GraphicDeviceHandle;
	(void)GraphicResourceHandle;
	(void)GraphicResourceOffset;
	(void)GraphicResourceSize;
	(void)FlatMemoryAddress;
	return HSAKMT_STATUS_NOT_IMPLEMENTED;
}

KMT_API HSAKMT_STATUS
hsaKmtMapGraphicHandle(HSAuint32 NodeId, HSAuint64 GraphicDeviceHandle,
		       HSAuint64 GraphicResourceHandle, HSAuint64 GraphicResourceOffset,
		       HSAuint64 GraphicResourceSize, HSAuint64 *FlatMemoryAddress)
{
	return hsaKmtMapGraphicHandleCtx(kmt_primary_ctx(), NodeId, GraphicDeviceHandle,
					 GraphicResourceHandle, GraphicResourceOffset,
					 GraphicResourceSize, FlatMemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtUnmapGraphicHandleCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint64 FlatMemoryAddress,
			    HSAuint64 SizeInBytes)
{
	(void)NodeId;
	(void)SizeInBytes;
	return hsaKmtUnmapMemoryToGPUCtx(ctx, (void *)(uintptr_t)FlatMemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtUnmapGraphicHandle(HSAuint32 NodeId, HSAuint64 FlatMemoryAddress, HSAuint64 SizeInBytes)
{
	return hsaKmtUnmapGraphicHandleCtx(kmt_primary_ctx(), NodeId, FlatMemoryAddress,
					   SizeInBytes);
}

KMT_API HSAKMT_STATUS
hsaKmtReplaceAsanHeaderPageCtx(HsaKFDContext *ctx, void *addr)
{
	(void)ctx;
	(void)addr;
	return HSAKMT_STATUS_NOT_SUPPORTED;	/* only ASAN builds support it */
}

KMT_API HSAKMT_STATUS
hsaKmtReplaceAsanHeaderPage(void *addr)
{
	return hsaKmtReplaceAsanHeaderPageCtx(kmt_primary_ctx(), addr);
}

KMT_API HSAKMT_STATUS
hsaKmtReturnAsanHeaderPageCtx(HsaKFDContext *ctx, void *addr)
{
	(void)ctx;
	(void)addr;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

KMT_API HSAKMT_STATUS
hsaKmtReturnAsanHeaderPage(void *addr)
{
	return hsaKmtReturnAsanHeaderPageCtx(kmt_primary_ctx(), addr);
}

/* The kernel moves at most this much per AIS request (its MAX_RW_COUNT). */
#define KMT_AIS_MAX_BYTES	0x7ffff000ull

KMT_API HSAKMT_STATUS
hsaKmtAisReadWriteFileCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 MemorySizeInBytes,
			  HSAint32 fd, HSAint64 file_offset, HsaAisFlags AisFlags,
			  HSAuint64 *SizeCopiedInBytes, HSAint32 *status)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kfd_abi_ais_args args;
	uint64_t size, handle, off;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	memset(&args, 0, sizeof(args));
	if (AisFlags == HSA_AIS_READ)
		args.in.op = KFD_ABI_AIS_READ;
	else if (AisFlags == HSA_AIS_WRITE)
		args.in.op = KFD_ABI_AIS_WRITE;
	else
		return HSAKMT_STATUS_INVALID_PARAMETER;
	/* A longer transfer is cut, as a read()/write() would be. */
	size = MemorySizeInBytes < KMT_AIS_MAX_BYTES ? MemorySizeInBytes : KMT_AIS_MAX_BYTES;
	if (!kmt_fmm_bo_range(ctx->fmm, (uintptr_t)MemoryAddress, size, &handle, &off))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	args.in.handle = handle;
	args.in.handle_offset = off;
	args.in.fd = fd;
	args.in.file_offset = (uint64_t)file_offset;
	args.in.size = size;
	/*
	 * AIS (direct I/O between a file on a P2P-capable NVMe and GPU
	 * memory) is ROCm's DKMS driver only; upstream kernels answer EINVAL
	 * and the call fails with ERROR, as with AMD's library.
	 */
	if (kmt_ioctl(ctx, KFD_ABI_IOC_AIS_OP, &args)) {
		/*
		 * The kernel wrote nothing back, so the output half of the
		 * union still holds the request (AMD's library reports those
		 * bytes): report nothing copied and the errno instead.
		 */
		if (SizeCopiedInBytes)
			*SizeCopiedInBytes = 0;
		if (status)
			*status = -errno;
		return HSAKMT_STATUS_ERROR;
	}
	if (SizeCopiedInBytes)
		*SizeCopiedInBytes = args.out.size_copied;
	if (status)
		*status = args.out.status;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtAisReadWriteFile(void *MemoryAddress, HSAuint64 MemorySizeInBytes, HSAint32 fd,
		       HSAint64 file_offset, HsaAisFlags AisFlags, HSAuint64 *SizeCopiedInBytes,
		       HSAint32 *status)
{
	return hsaKmtAisReadWriteFileCtx(kmt_primary_ctx(), MemoryAddress, MemorySizeInBytes, fd,
					 file_offset, AisFlags, SizeCopiedInBytes, status);
}
