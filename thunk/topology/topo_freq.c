/* SPDX-License-Identifier: MIT */
/*
 * hsaKmtGetNodeWallclockFrequency: the GPU's constant-rate counter
 * (s_memrealtime) runs at the frequency amdgpu reports as gpu_counter_freq
 * (in kHz) in its device info.
 */
#include "topology/topology.h"

#ifdef KMT_HAVE_LIBDRM_AMDGPU
#include <amdgpu.h>
#endif

KMT_API HSAKMT_STATUS
hsaKmtGetNodeWallclockFrequencyCtx(HsaKFDContext *ctx, HSAuint32 NodeId, uint64_t *Frequency)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	uint32_t gpu_id;
	void *dev;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Frequency)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_topo_gpu_id(ctx, NodeId, &gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	pthread_mutex_lock(&ctx->lock);
	st = kmt_render_device(ctx, NodeId, &dev);
	pthread_mutex_unlock(&ctx->lock);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
#ifdef KMT_HAVE_LIBDRM_AMDGPU
	{
		struct amdgpu_gpu_info info;

		if (amdgpu_query_gpu_info(dev, &info))
			return HSAKMT_STATUS_ERROR;
		*Frequency = (uint64_t)info.gpu_counter_freq * 1000;
		return HSAKMT_STATUS_SUCCESS;
	}
#else
	return HSAKMT_STATUS_NOT_SUPPORTED;
#endif
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeWallclockFrequency(HSAuint32 NodeId, uint64_t *Frequency)
{
	return hsaKmtGetNodeWallclockFrequencyCtx(kmt_primary_ctx(), NodeId, Frequency);
}
