/* SPDX-License-Identifier: MIT */
/*
 * Calls on live queues (update, CU mask, wave state, GWS, kernel id) and
 * the per-GPU trap handler, which queues run under.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "queues/queues_priv.h"

/* Look @id up; on success qc->lock is held and *@qp is the queue. */
static HSAKMT_STATUS
queue_lock(HsaKFDContext *ctx, HSA_QUEUEID id, struct kmt_queue_ctx **qcp,
	   struct kmt_queue **qp)
{
	struct kmt_queue_ctx *qc;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	qc = kmt_queue_ctx_get(ctx);
	if (!qc)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&qc->lock);
	*qp = kmt_queue_find(qc, id);
	if (!*qp) {
		pthread_mutex_unlock(&qc->lock);
		return HSAKMT_STATUS_INVALID_PARAMETER;
	}
	*qcp = qc;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtUpdateQueueCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId, HSAuint32 QueuePercentage,
		     HSA_QUEUE_PRIORITY Priority, void *QueueAddress, HSAuint64 QueueSize,
		     HsaEvent *Event)
{
	struct kfd_abi_update_queue_args args = {0};
	struct kmt_queue_ctx *qc;
	struct kmt_queue *q;
	HSAKMT_STATUS st;
	int ret;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!kmt_queue_priority_valid(Priority))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = queue_lock(ctx, QueueId, &qc, &q);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.queue_id = q->queue_id;
	args.ring_base_address = (uintptr_t)QueueAddress;
	args.ring_size = (uint32_t)QueueSize;
	args.queue_percentage = QueuePercentage;
	args.queue_priority = kmt_queue_priority_to_kfd(Priority);
	ret = kmt_ioctl(ctx, KFD_ABI_IOC_UPDATE_QUEUE, &args);
	pthread_mutex_unlock(&qc->lock);
	return ret == -1 ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtUpdateQueue(HSA_QUEUEID QueueId, HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
		  void *QueueAddress, HSAuint64 QueueSize, HsaEvent *Event)
{
	return hsaKmtUpdateQueueCtx(kmt_primary_ctx(), QueueId, QueuePercentage, Priority,
				    QueueAddress, QueueSize, Event);
}

KMT_API HSAKMT_STATUS
hsaKmtSetQueueCUMaskCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId, HSAuint32 CUMaskCount,
			HSAuint32 *QueueCUMask)
{
	struct kfd_abi_set_cu_mask_args args = {0};
	struct kmt_queue_ctx *qc;
	struct kmt_queue *q;
	HSAKMT_STATUS st;
	uint32_t *copy;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* The kernel counts bits, in whole 32-bit words. */
	if (CUMaskCount == 0 || !QueueCUMask || CUMaskCount % 32)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	copy = malloc(CUMaskCount / 8);
	if (!copy)
		return HSAKMT_STATUS_NO_MEMORY;
	memcpy(copy, QueueCUMask, CUMaskCount / 8);

	st = queue_lock(ctx, QueueId, &qc, &q);
	if (st != HSAKMT_STATUS_SUCCESS) {
		free(copy);
		return st;
	}
	args.queue_id = q->queue_id;
	args.num_cu_mask = CUMaskCount;
	args.cu_mask_ptr = (uintptr_t)copy;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_CU_MASK, &args) == -1) {
		kmt_debug("SET_CU_MASK on queue %u: %s\n", q->queue_id, strerror(errno));
		pthread_mutex_unlock(&qc->lock);
		free(copy);
		return HSAKMT_STATUS_ERROR;
	}
	free(q->cu_mask);
	q->cu_mask = copy;
	q->cu_mask_count = CUMaskCount;
	pthread_mutex_unlock(&qc->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSetQueueCUMask(HSA_QUEUEID QueueId, HSAuint32 CUMaskCount, HSAuint32 *QueueCUMask)
{
	return hsaKmtSetQueueCUMaskCtx(kmt_primary_ctx(), QueueId, CUMaskCount, QueueCUMask);
}

KMT_API HSAKMT_STATUS
hsaKmtGetQueueInfoCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId, HsaQueueInfo *QueueInfo)
{
	struct kfd_abi_get_queue_wave_state_args args = {0};
	struct kmt_queue_ctx *qc;
	struct kmt_queue *q;
	HSAKMT_STATUS st;
	char *area;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!QueueInfo)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = queue_lock(ctx, QueueId, &qc, &q);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* Only queues with a save area have wave state to report. */
	if (!q->cwsr) {
		pthread_mutex_unlock(&qc->lock);
		return HSAKMT_STATUS_ERROR;
	}
	args.queue_id = q->queue_id;
	args.ctl_stack_address = (uintptr_t)q->cwsr;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &args) == -1) {
		kmt_debug("GET_QUEUE_WAVE_STATE on queue %u: %s\n", q->queue_id,
			  strerror(errno));
		pthread_mutex_unlock(&qc->lock);
		return HSAKMT_STATUS_ERROR;
	}
	/* The control stack grows down from the end of its region. */
	area = q->cwsr;
	QueueInfo->ControlStackTop =
		(HSAuint32 *)(area + q->sizes.ctl_stack_size - args.ctl_stack_used_size);
	QueueInfo->UserContextSaveArea = (HSAuint32 *)(area + q->sizes.ctl_stack_size);
	QueueInfo->SaveAreaSizeInBytes = args.save_area_used_size;
	QueueInfo->ControlStackUsedInBytes = args.ctl_stack_used_size;
	QueueInfo->NumCUAssigned = q->cu_mask_count;
	QueueInfo->CUMaskInfo = q->cu_mask;
	QueueInfo->QueueDetailError = 0;
	QueueInfo->QueueTypeExtended = 0;
	QueueInfo->SaveAreaHeader = (HsaUserContextSaveAreaHeader *)area;
	pthread_mutex_unlock(&qc->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetQueueInfo(HSA_QUEUEID QueueId, HsaQueueInfo *QueueInfo)
{
	return hsaKmtGetQueueInfoCtx(kmt_primary_ctx(), QueueId, QueueInfo);
}

KMT_API HSAKMT_STATUS
hsaKmtGetKernelQueueIdCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId,
			  HSAuint32 *KernelInternalQueueId)
{
	struct kmt_queue_ctx *qc;
	struct kmt_queue *q;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!KernelInternalQueueId)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = queue_lock(ctx, QueueId, &qc, &q);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	*KernelInternalQueueId = q->queue_id;
	pthread_mutex_unlock(&qc->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetKernelQueueId(HSA_QUEUEID QueueId, HSAuint32 *KernelInternalQueueId)
{
	return hsaKmtGetKernelQueueIdCtx(kmt_primary_ctx(), QueueId, KernelInternalQueueId);
}

KMT_API HSAKMT_STATUS
hsaKmtAllocQueueGWSCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId, HSAuint32 nGWS,
		       HSAuint32 *firstGWS)
{
	struct kfd_abi_alloc_queue_gws_args args = {0};
	struct kmt_queue_ctx *qc;
	struct kmt_queue *q;
	HSAKMT_STATUS st;
	int ret, err;

	st = queue_lock(ctx, QueueId, &qc, &q);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.queue_id = q->queue_id;
	args.num_gws = nGWS;
	ret = kmt_ioctl(ctx, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &args);
	err = errno;
	pthread_mutex_unlock(&qc->lock);
	if (ret == 0) {
		if (firstGWS)
			*firstGWS = args.first_gws;
		return HSAKMT_STATUS_SUCCESS;
	}
	/* The one call where AMD's library tells the errnos apart. */
	switch (err) {
	case EINVAL:
		return HSAKMT_STATUS_INVALID_PARAMETER;
	case EBUSY:
		return HSAKMT_STATUS_OUT_OF_RESOURCES;
	case ENODEV:
		return HSAKMT_STATUS_NOT_SUPPORTED;
	default:
		return HSAKMT_STATUS_ERROR;
	}
}

KMT_API HSAKMT_STATUS
hsaKmtAllocQueueGWS(HSA_QUEUEID QueueId, HSAuint32 nGWS, HSAuint32 *firstGWS)
{
	return hsaKmtAllocQueueGWSCtx(kmt_primary_ctx(), QueueId, nGWS, firstGWS);
}

KMT_API HSAKMT_STATUS
hsaKmtSetTrapHandlerCtx(HsaKFDContext *ctx, HSAuint32 NodeId, void *TrapHandlerBaseAddress,
			HSAuint64 TrapHandlerSizeInBytes, void *TrapBufferBaseAddress,
			HSAuint64 TrapBufferSizeInBytes)
{
	struct kfd_abi_set_trap_handler_args args = {0};
	struct kmt_node_info info;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = kmt_topo_node_info(ctx, NodeId, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* A CPU node passes gpu_id 0 and the kernel refuses it, as with AMD's. */
	args.gpu_id = info.gpu_id;
	args.tba_addr = (uintptr_t)TrapHandlerBaseAddress;
	args.tma_addr = (uintptr_t)TrapBufferBaseAddress;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_TRAP_HANDLER, &args) == -1) {
		kmt_debug("SET_TRAP_HANDLER on node %u: %s\n", NodeId, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSetTrapHandler(HSAuint32 Node, void *TrapHandlerBaseAddress,
		     HSAuint64 TrapHandlerSizeInBytes, void *TrapBufferBaseAddress,
		     HSAuint64 TrapBufferSizeInBytes)
{
	return hsaKmtSetTrapHandlerCtx(kmt_primary_ctx(), Node, TrapHandlerBaseAddress,
				       TrapHandlerSizeInBytes, TrapBufferBaseAddress,
				       TrapBufferSizeInBytes);
}
