/* SPDX-License-Identifier: MIT */
/*
 * The pre-1.13 debugger interface (DBG_REGISTER, DBG_UNREGISTER,
 * DBG_WAVE_CONTROL, DBG_ADDRESS_WATCH). Kernels since KFD 1.13 keep the
 * ioctl numbers only to answer EPERM, so these calls report ERROR there,
 * as AMD's library does; on older kernels they still reach the debugger.
 *
 * Wave control and address watch pass a packed blob: the 16-byte ioctl
 * struct, then the operands; content_ptr points just past the struct and
 * buf_size_in_bytes counts the whole blob.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug/debug_priv.h"
#include "topology/topology.h"

/* Node -> gpu_id (0 for a CPU node, which the kernel then refuses). */
static HSAKMT_STATUS
legacy_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id)
{
	struct kmt_node_info info;
	HSAKMT_STATUS st;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = kmt_topo_node_info(ctx, node, &info);
	if (st == HSAKMT_STATUS_SUCCESS)
		*gpu_id = info.gpu_id;
	return st;
}

static HSAKMT_STATUS
legacy_ioctl(HsaKFDContext *ctx, unsigned long request, void *args)
{
	if (kmt_ioctl(ctx, request, args) == -1) {
		kmt_debug("deprecated debugger ioctl 0x%lx: %s\n", request, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgRegisterCtx(HsaKFDContext *ctx, HSAuint32 NodeId)
{
	struct kfd_abi_dbg_register_args args = {0};
	HSAKMT_STATUS st;

	st = legacy_gpu_id(ctx, NodeId, &args.gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return legacy_ioctl(ctx, KFD_ABI_IOC_DBG_REGISTER, &args);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgRegister(HSAuint32 NodeId)
{
	return hsaKmtDbgRegisterCtx(kmt_primary_ctx(), NodeId);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgUnregisterCtx(HsaKFDContext *ctx, HSAuint32 NodeId)
{
	struct kfd_abi_dbg_unregister_args args = {0};
	HSAKMT_STATUS st;

	st = legacy_gpu_id(ctx, NodeId, &args.gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return legacy_ioctl(ctx, KFD_ABI_IOC_DBG_UNREGISTER, &args);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgUnregister(HSAuint32 NodeId)
{
	return hsaKmtDbgUnregisterCtx(kmt_primary_ctx(), NodeId);
}

/* A blob writer that never runs past its buffer. */
struct blob {
	unsigned char *p, *end;
};

static void
blob_put(struct blob *b, const void *v, size_t n)
{
	if ((size_t)(b->end - b->p) < n)
		return;
	memcpy(b->p, v, n);
	b->p += n;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgWavefrontControlCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSA_DBG_WAVEOP Operand,
			     HSA_DBG_WAVEMODE Mode, HSAuint32 TrapId,
			     HsaDbgWaveMessage *DbgWaveMsgRing)
{
	struct kfd_abi_dbg_wave_control_args *args;
	uint32_t gpu_id, size;
	struct blob b;
	HSAKMT_STATUS st;

	st = legacy_gpu_id(ctx, NodeId, &gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!DbgWaveMsgRing)
		return HSAKMT_STATUS_INVALID_PARAMETER;

	size = sizeof(*args) + sizeof(Operand) + sizeof(Mode) + sizeof(TrapId) +
	       sizeof(DbgWaveMsgRing->DbgWaveMsg) + sizeof(DbgWaveMsgRing->MemoryVA);
	args = calloc(1, size);
	if (!args)
		return HSAKMT_STATUS_ERROR;
	args->gpu_id = gpu_id;
	args->buf_size_in_bytes = size;
	args->content_ptr = (uintptr_t)(args + 1);
	b.p = (unsigned char *)(args + 1);
	b.end = (unsigned char *)args + size;
	blob_put(&b, &Operand, sizeof(Operand));
	blob_put(&b, &Mode, sizeof(Mode));
	blob_put(&b, &TrapId, sizeof(TrapId));
	blob_put(&b, &DbgWaveMsgRing->DbgWaveMsg, sizeof(DbgWaveMsgRing->DbgWaveMsg));
	blob_put(&b, &DbgWaveMsgRing->MemoryVA, sizeof(DbgWaveMsgRing->MemoryVA));

	st = legacy_ioctl(ctx, KFD_ABI_IOC_DBG_WAVE_CONTROL, args);
	free(args);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgWavefrontControl(HSAuint32 NodeId, HSA_DBG_WAVEOP Operand, HSA_DBG_WAVEMODE Mode,
			  HSAuint32 TrapId, HsaDbgWaveMessage *DbgWaveMsgRing)
{
	return hsaKmtDbgWavefrontControlCtx(kmt_primary_ctx(), NodeId, Operand, Mode, TrapId,
					    DbgWaveMsgRing);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgAddressWatchCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint32 NumWatchPoints,
			 HSA_DBG_WATCH_MODE WatchMode[], void *WatchAddress[],
			 HSAuint64 WatchMask[], HsaEvent *WatchEvent[])
{
	struct kfd_abi_dbg_address_watch_args *args;
	uint32_t gpu_id, masks, events, size, i;
	struct blob b;
	HSAKMT_STATUS st;

	st = legacy_gpu_id(ctx, NodeId, &gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (NumWatchPoints > KFD_ABI_MAX_ALLOWED_NUM_POINTS || !WatchMode || !WatchAddress ||
	    !WatchMask)
		return HSAKMT_STATUS_INVALID_PARAMETER;

	/* One mask for all points unless the first is set; events are optional. */
	masks = WatchMask[0] ? NumWatchPoints : 1;
	events = WatchEvent ? NumWatchPoints : 0;
	size = sizeof(*args) + sizeof(NumWatchPoints) +
	       NumWatchPoints * (sizeof(WatchMode[0]) + sizeof(WatchAddress[0])) +
	       masks * sizeof(HSAuint64) + events * sizeof(HsaEvent *);
	args = calloc(1, size);
	if (!args)
		return HSAKMT_STATUS_ERROR;
	args->gpu_id = gpu_id;
	args->buf_size_in_bytes = size;
	args->content_ptr = (uintptr_t)(args + 1);
	b.p = (unsigned char *)(args + 1);
	b.end = (unsigned char *)args + size;
	blob_put(&b, &NumWatchPoints, sizeof(NumWatchPoints));
	for (i = 0; i < NumWatchPoints; i++)
		blob_put(&b, &WatchMode[i], sizeof(WatchMode[i]));
	for (i = 0; i < NumWatchPoints; i++)
		blob_put(&b, &WatchAddress[i], sizeof(WatchAddress[i]));
	for (i = 0; i < masks; i++)
		blob_put(&b, &WatchMask[i], sizeof(WatchMask[i]));
	for (i = 0; i < events; i++)
		blob_put(&b, &WatchEvent[i], sizeof(WatchEvent[i]));

	st = legacy_ioctl(ctx, KFD_ABI_IOC_DBG_ADDRESS_WATCH, args);
	free(args);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgAddressWatch(HSAuint32 NodeId, HSAuint32 NumWatchPoints, HSA_DBG_WATCH_MODE WatchMode[],
		      void *WatchAddress[], HSAuint64 WatchMask[], HsaEvent *WatchEvent[])
{
	return hsaKmtDbgAddressWatchCtx(kmt_primary_ctx(), NodeId, NumWatchPoints, WatchMode,
					WatchAddress, WatchMask, WatchEvent);
}
