/* SPDX-License-Identifier: MIT */
/*
 * hsaKmtGetNodeProperties / hsaKmtGetNodeMemoryProperties: the memory
 * banks a node reports are those of the topology snapshot followed by the
 * apertures this context's GPU address space gives a GPU (LDS, scratch,
 * SVM, MMIO remap), so the two calls that report banks live with the
 * apertures, over the snapshot topology/ copies out (kmt_topo_api_node()).
 */
#include "memory/fmm.h"

/* The synthetic banks a GPU node gets: LDS, scratch, SVM, then MMIO. */
static uint32_t
synthetic_banks(HsaKFDContext *ctx, uint32_t gpu_id)
{
	uint64_t base, limit;
	uint32_t n = 3;

	if (kmt_fmm_aperture_range(ctx, gpu_id, KMT_APE_MMIO, &base, &limit) ==
	    HSAKMT_STATUS_SUCCESS)
		n++;
	return n;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodePropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HsaNodeProperties *NodeProperties)
{
	HSAKMT_STATUS st;
	uint32_t gpu_id;

	if (!NodeProperties)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = kmt_topo_api_node(ctx, NodeId, NodeProperties, &gpu_id, NULL, 0);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (gpu_id)
		NodeProperties->NumMemoryBanks += synthetic_banks(ctx, gpu_id);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeProperties(HSAuint32 NodeId, HsaNodeProperties *NodeProperties)
{
	return hsaKmtGetNodePropertiesCtx(kmt_primary_ctx(), NodeId, NodeProperties);
}

/* Append an aperture as a bank if it exists and there is room. */
static void
add_bank(HsaKFDContext *ctx, uint32_t gpu_id, enum kmt_ape_kind kind, HSA_HEAPTYPE heap,
	 uint64_t size, HsaMemoryProperties *out, uint32_t *i, uint32_t max)
{
	uint64_t base, limit;

	if (*i >= max || kmt_fmm_aperture_range(ctx, gpu_id, kind, &base, &limit))
		return;
	out[*i].HeapType = heap;
	out[*i].VirtualBaseAddress = base;
	out[*i].SizeInBytes = size ? size : limit - base + 1;
	(*i)++;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeMemoryPropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint32 NumBanks,
				 HsaMemoryProperties *MemoryProperties)
{
	HsaNodeProperties props;
	HSAKMT_STATUS st;
	uint32_t i, gpu_id, lds_kb;
	bool svm;

	if (!MemoryProperties)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = kmt_topo_api_node(ctx, NodeId, &props, &gpu_id, MemoryProperties, NumBanks);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* The snapshot's banks come first; the apertures follow them. */
	i = props.NumMemoryBanks < NumBanks ? props.NumMemoryBanks : NumBanks;
	lds_kb = props.LDSSizeInKB;
	/* SVM as a bank only where it is used: dGPUs and gfx9+. */
	svm = ctx->is_dgpu || props.EngineId.ui32.Major >= 9;
	if (!gpu_id)
		return HSAKMT_STATUS_SUCCESS;

	add_bank(ctx, gpu_id, KMT_APE_LDS, HSA_HEAPTYPE_GPU_LDS, (uint64_t)lds_kb * 1024,
		 MemoryProperties, &i, NumBanks);
	add_bank(ctx, gpu_id, KMT_APE_SCRATCH, HSA_HEAPTYPE_GPU_SCRATCH, 0, MemoryProperties, &i,
		 NumBanks);
	if (svm)
		add_bank(ctx, gpu_id, KMT_APE_SVM, HSA_HEAPTYPE_DEVICE_SVM, 0, MemoryProperties,
			 &i, NumBanks);
	add_bank(ctx, gpu_id, KMT_APE_MMIO, HSA_HEAPTYPE_MMIO_REMAP, 0, MemoryProperties, &i,
		 NumBanks);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeMemoryProperties(HSAuint32 NodeId, HSAuint32 NumBanks,
			      HsaMemoryProperties *MemoryProperties)
{
	return hsaKmtGetNodeMemoryPropertiesCtx(kmt_primary_ctx(), NodeId, NumBanks,
						MemoryProperties);
}
