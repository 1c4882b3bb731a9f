/* SPDX-License-Identifier: MIT */
/*
 * The streaming performance monitor (RLC SPM), a ROCm DKMS ioctl (0x84)
 * that upstream kernels answer with EINVAL.
 *
 * AMD's library returns the raw ioctl result from these three calls
 * rather than a status: 0 on success, and -1 (not a HSAKMT_STATUS value)
 * when the kernel refuses. ROCr only compares against SUCCESS, and this
 * library keeps that result so callers see what they saw with AMD's.
 */
#include <errno.h>
#include <string.h>

#include "core/core.h"
#include "topology/topology.h"

/* The reference's "status" when the ioctl fails: the ioctl's own -1. */
#define KMT_SPM_IOCTL_FAILED	((HSAKMT_STATUS)-1)

static HSAKMT_STATUS
spm_ioctl(HsaKFDContext *ctx, struct kfd_abi_spm_args *args)
{
	if (kmt_ioctl(ctx, KFD_ABI_IOC_RLC_SPM, args) == -1) {
		kmt_debug("RLC_SPM op %u: %s\n", args->op, strerror(errno));
		return KMT_SPM_IOCTL_FAILED;
	}
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
spm_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id)
{
	struct kmt_node_info info;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = kmt_topo_node_info(ctx, node, &info);
	if (st != HSAKMT_STATUS_SUCCESS) {
		kmt_err("SPM: invalid node %u\n", node);
		return st;
	}
	*gpu_id = info.gpu_id;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSPMAcquireCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode)
{
	struct kfd_abi_spm_args args = { .op = KFD_ABI_SPM_OP_ACQUIRE };
	HSAKMT_STATUS st;

	st = spm_gpu_id(ctx, PreferredNode, &args.gpu_id);
	return st != HSAKMT_STATUS_SUCCESS ? st : spm_ioctl(ctx, &args);
}

KMT_API HSAKMT_STATUS
hsaKmtSPMAcquire(HSAuint32 PreferredNode)
{
	return hsaKmtSPMAcquireCtx(kmt_primary_ctx(), PreferredNode);
}

KMT_API HSAKMT_STATUS
hsaKmtSPMReleaseCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode)
{
	struct kfd_abi_spm_args args = { .op = KFD_ABI_SPM_OP_RELEASE };
	HSAKMT_STATUS st;

	st = spm_gpu_id(ctx, PreferredNode, &args.gpu_id);
	return st != HSAKMT_STATUS_SUCCESS ? st : spm_ioctl(ctx, &args);
}

KMT_API HSAKMT_STATUS
hsaKmtSPMRelease(HSAuint32 PreferredNode)
{
	return hsaKmtSPMReleaseCtx(kmt_primary_ctx(), PreferredNode);
}

KMT_API HSAKMT_STATUS
hsaKmtSPMSetDestBufferCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode, HSAuint32 SizeInBytes,
			  HSAuint32 *timeout, HSAuint32 *SizeCopied, void *DestMemoryAddress,
			  bool *isSPMDataLoss)
{
	struct kfd_abi_spm_args args = { .op = KFD_ABI_SPM_OP_SET_DEST_BUF };
	HSAKMT_STATUS st;

	st = spm_gpu_id(ctx, PreferredNode, &args.gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!timeout || !SizeCopied || !isSPMDataLoss)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	args.timeout = *timeout;
	args.dest_buf = (uintptr_t)DestMemoryAddress;
	args.buf_size = SizeInBytes;
	st = spm_ioctl(ctx, &args);
	/* The kernel copies the struct back even when it fails. */
	*SizeCopied = args.bytes_copied;
	*isSPMDataLoss = args.has_data_loss;
	*timeout = args.timeout;
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtSPMSetDestBuffer(HSAuint32 PreferredNode, HSAuint32 SizeInBytes, HSAuint32 *timeout,
		       HSAuint32 *SizeCopied, void *DestMemoryAddress, bool *isSPMDataLoss)
{
	return hsaKmtSPMSetDestBufferCtx(kmt_primary_ctx(), PreferredNode, SizeInBytes, timeout,
					 SizeCopied, DestMemoryAddress, isSPMDataLoss);
}
