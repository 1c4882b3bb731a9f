/* SPDX-License-Identifier: MIT */
/*
 * PC sampling sessions through the ROCm DKMS ioctl PC_SAMPLE (0x85).
 * Upstream kernels have no such ioctl and answer EINVAL, which these
 * calls report as INVALID_PARAMETER, exactly as AMD's library maps it;
 * hsaKmtPcSamplingSupport() only looks at the interface version (1.16),
 * as AMD's does, so it says SUCCESS on upstream kernels too.
 */
#include <errno.h>
#include <string.h>

#include "core/core.h"
#include "topology/topology.h"

#define PCS_MIN_MINOR		16
#define PCS_INVALID_TRACE_ID	0

static HSAKMT_STATUS
pcs_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id)
{
	struct kmt_node_info info;
	HSAKMT_STATUS st = kmt_topo_node_info(ctx, node, &info);

	if (st != HSAKMT_STATUS_SUCCESS) {
		kmt_err("PC sampling: invalid node %u\n", node);
		return st;
	}
	*gpu_id = info.gpu_id;
	return HSAKMT_STATUS_SUCCESS;
}

/* One PC_SAMPLE request; errno of a failure in *@err. */
static int
pcs_ioctl(HsaKFDContext *ctx, struct kfd_abi_pc_sample_args *args, int *err)
{
	int ret = kmt_ioctl(ctx, KFD_ABI_IOC_PC_SAMPLE, args);

	*err = ret == -1 ? errno : 0;
	if (ret == -1)
		kmt_debug("PC_SAMPLE op %u: %s\n", args->op, strerror(*err));
	return ret;
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingSupportCtx(HsaKFDContext *ctx)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return kmt_kfd_minor_at_least(ctx, PCS_MIN_MINOR) ? HSAKMT_STATUS_SUCCESS
							  : HSAKMT_STATUS_NOT_SUPPORTED;
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingSupport(void)
{
	return hsaKmtPcSamplingSupportCtx(kmt_primary_ctx());
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingQueryCapabilitiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId, void *sample_info,
				     HSAuint32 sample_info_sz, HSAuint32 *sz_needed)
{
	struct kfd_abi_pc_sample_args args = {0};
	HSAKMT_STATUS st;
	int err;

	if (!sz_needed)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = hsaKmtPcSamplingSupportCtx(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	_Static_assert(sizeof(HsaPcSamplingInfo) == sizeof(struct kfd_abi_pc_sample_info),
		       "HsaPcSamplingInfo is the kernel's layout");
	st = pcs_gpu_id(ctx, NodeId, &args.gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.op = KFD_ABI_PCS_OP_QUERY_CAPABILITIES;
	args.sample_info_ptr = (uintptr_t)sample_info;
	args.num_sample_info = sample_info_sz;
	pcs_ioctl(ctx, &args, &err);
	*sz_needed = args.num_sample_info;
	switch (err) {
	case 0:
		return HSAKMT_STATUS_SUCCESS;
	case ENOSPC:
		return HSAKMT_STATUS_BUFFER_TOO_SMALL;
	case EINVAL:
		return HSAKMT_STATUS_INVALID_PARAMETER;
	case EOPNOTSUPP:
		return HSAKMT_STATUS_NOT_SUPPORTED;
	case EBUSY:
		return HSAKMT_STATUS_UNAVAILABLE;
	default:
		return HSAKMT_STATUS_ERROR;
	}
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingQueryCapabilities(HSAuint32 NodeId, void *sample_info, HSAuint32 sample_info_sz,
				  HSAuint32 *sz_needed)
{
	return hsaKmtPcSamplingQueryCapabilitiesCtx(kmt_primary_ctx(), NodeId, sample_info,
						    sample_info_sz, sz_needed);
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingCreateCtx(HsaKFDContext *ctx, HSAuint32 node_id, HsaPcSamplingInfo *sample_info,
			  HsaPcSamplingTraceId *traceId)
{
	struct kfd_abi_pc_sample_args args = {0};
	HSAKMT_STATUS st;
	int err;

	if (!sample_info || !traceId)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	*traceId = PCS_INVALID_TRACE_ID;
	st = pcs_gpu_id(ctx, node_id, &args.gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.op = KFD_ABI_PCS_OP_CREATE;
	args.sample_info_ptr = (uintptr_t)sample_info;
	args.num_sample_info = 1;
	if (pcs_ioctl(ctx, &args, &err) == 0) {
		*traceId = args.trace_id;
		return HSAKMT_STATUS_SUCCESS;
	}
	switch (err) {
	case EINVAL:
		return HSAKMT_STATUS_INVALID_PARAMETER;
	case ENOMEM:
		return HSAKMT_STATUS_NO_MEMORY;
	case EBUSY:
		return HSAKMT_STATUS_UNAVAILABLE;
	default:
		return HSAKMT_STATUS_ERROR;
	}
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingCreate(HSAuint32 node_id, HsaPcSamplingInfo *sample_info,
		       HsaPcSamplingTraceId *traceId)
{
	return hsaKmtPcSamplingCreateCtx(kmt_primary_ctx(), node_id, sample_info, traceId);
}

/* START, STOP or DESTROY of session @trace on @node. */
static HSAKMT_STATUS
pcs_session_op(HsaKFDContext *ctx, uint32_t node, HsaPcSamplingTraceId trace, uint32_t op,
	       int *err)
{
	struct kfd_abi_pc_sample_args args = {0};
	HSAKMT_STATUS st;

	*err = 0;
	if (trace == PCS_INVALID_TRACE_ID)
		return HSAKMT_STATUS_INVALID_HANDLE;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = pcs_gpu_id(ctx, node, &args.gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.op = op;
	args.trace_id = trace;
	return pcs_ioctl(ctx, &args, err) == 0 ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingStartCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HsaPcSamplingTraceId traceId)
{
	HSAKMT_STATUS st;
	int err;

	st = pcs_session_op(ctx, NodeId, traceId, KFD_ABI_PCS_OP_START, &err);
	switch (err) {
	case 0:
		return st;
	case EINVAL:
		return HSAKMT_STATUS_INVALID_PARAMETER;
	case ENOMEM:
		return HSAKMT_STATUS_OUT_OF_RESOURCES;
	case EBUSY:
		return HSAKMT_STATUS_UNAVAILABLE;
	case EALREADY:
		return HSAKMT_STATUS_KERNEL_ALREADY_OPENED;
	default:
		return HSAKMT_STATUS_ERROR;
	}
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingStart(HSAuint32 NodeId, HsaPcSamplingTraceId traceId)
{
	return hsaKmtPcSamplingStartCtx(kmt_primary_ctx(), NodeId, traceId);
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingStopCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HsaPcSamplingTraceId traceId)
{
	HSAKMT_STATUS st;
	int err;

	st = pcs_session_op(ctx, NodeId, traceId, KFD_ABI_PCS_OP_STOP, &err);
	switch (err) {
	case 0:
		return st;
	case EINVAL:
		return HSAKMT_STATUS_INVALID_PARAMETER;
	case EALREADY:
		return HSAKMT_STATUS_KERNEL_ALREADY_OPENED;
	default:
		return HSAKMT_STATUS_ERROR;
	}
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingStop(HSAuint32 NodeId, HsaPcSamplingTraceId traceId)
{
	return hsaKmtPcSamplingStopCtx(kmt_primary_ctx(), NodeId, traceId);
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingDestroyCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HsaPcSamplingTraceId traceId)
{
	HSAKMT_STATUS st;
	int err;

	/* A running session is stopped first; its result does not matter. */
	if (traceId != PCS_INVALID_TRACE_ID)
		hsaKmtPcSamplingStopCtx(ctx, NodeId, traceId);
	st = pcs_session_op(ctx, NodeId, traceId, KFD_ABI_PCS_OP_DESTROY, &err);
	if (!err)
		return st;
	return err == EINVAL ? HSAKMT_STATUS_INVALID_PARAMETER : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtPcSamplingDestroy(HSAuint32 NodeId, HsaPcSamplingTraceId traceId)
{
	return hsaKmtPcSamplingDestroyCtx(kmt_primary_ctx(), NodeId, traceId);
}
