/* SPDX-License-Identifier: MIT */
/*
 * User-mode queues: creation with the buffers the kernel needs (read and
 * write pointers, EOP buffer, context save area), destruction, and the
 * calls that change a live queue.
 *
 * Statuses follow AMD's library: bad arguments it checks give
 * INVALID_PARAMETER (an unknown queue handle too, where the reference
 * would follow the pointer), an unknown node INVALID_NODE_UNIT, and any
 * kernel refusal ERROR.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "queues/queues_priv.h"
#include "memory/memory.h"

/* HSA priorities -3..+3 spread over the kernel's 0..15. */
static const uint32_t queue_priority_map[] = { 0, 3, 5, 7, 9, 11, 15 };

uint32_t
kmt_queue_priority_to_kfd(HSA_QUEUE_PRIORITY prio)
{
	return queue_priority_map[(int)prio - HSA_QUEUE_PRIORITY_MINIMUM];
}

/* The kernel's queue type, or -1 for types the KFD has no queue for. */
static int
queue_type_to_kfd(HSA_QUEUE_TYPE type)
{
	switch ((int)type) {
	case HSA_QUEUE_COMPUTE:
		return KFD_ABI_QUEUE_TYPE_COMPUTE;
	case HSA_QUEUE_SDMA:
		return KFD_ABI_QUEUE_TYPE_SDMA;
	case HSA_QUEUE_SDMA_XGMI:
		return KFD_ABI_QUEUE_TYPE_SDMA_XGMI;
	case HSA_QUEUE_SDMA_BY_ENG_ID:
		return KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID;
	case HSA_QUEUE_COMPUTE_AQL:
		return KFD_ABI_QUEUE_TYPE_COMPUTE_AQL;
	default:
		return -1;
	}
}

/* In AMD's library's order: EOP buffer, save area, then the queue's page. */
static void
queue_free_buffers(HsaKFDContext *ctx, struct kmt_queue *q)
{
	if (q->eop)
		kmt_mem_free(ctx, q->eop);
	if (q->cwsr)
		kmt_mem_free(ctx, q->cwsr);
	if (q->ptrs)
		kmt_mem_free(ctx, q->ptrs);
	free(q->cu_mask);
	free(q);
}

static void
queue_ctx_fini(HsaKFDContext *ctx, bool forked)
{
	struct kmt_queue_ctx *qc = ctx->queues;
	struct kmt_queue *q, *next;

	if (!qc)
		return;
	/* A forked child never takes the area's lock (see core/core.h). */
	if (!forked)
		pthread_mutex_lock(&qc->lock);
	for (q = qc->head; q; q = next) {
		struct kfd_abi_destroy_queue_args args = { .queue_id = q->queue_id };

		next = q->next;
		if (forked) {
			/* The queue and its memory belong to the parent. */
			free(q->cu_mask);
			free(q);
			continue;
		}
		/* Queues pin their buffers: they go before the memory. */
		if (kmt_ioctl(ctx, KFD_ABI_IOC_DESTROY_QUEUE, &args) == -1)
			kmt_warn("closing: queue %u: %s\n", q->queue_id, strerror(errno));
		queue_free_buffers(ctx, q);
	}
	qc->head = NULL;
	kmt_doorbells_release(ctx, qc, forked);
	if (!forked) {
		pthread_mutex_unlock(&qc->lock);
		pthread_mutex_destroy(&qc->lock);
	}
	free(qc->doorbells);
	free(qc);
	ctx->queues = NULL;
}

struct kmt_queue_ctx *
kmt_queue_ctx_get(HsaKFDContext *ctx)
{
	struct kmt_queue_ctx *qc;

	pthread_mutex_lock(&ctx->lock);
	qc = ctx->queues;
	if (!qc) {
		uint32_t n = kmt_topo_num_nodes(ctx);

		qc = calloc(1, sizeof(*qc));
		if (qc)
			qc->doorbells = calloc(n ? n : 1, sizeof(*qc->doorbells));
		if (qc && qc->doorbells) {
			pthread_mutex_init(&qc->lock, NULL);
			qc->num_nodes = n;
			ctx->queues = qc;
			ctx->queues_fini = queue_ctx_fini;
		} else {
			if (qc)
				free(qc->doorbells);
			free(qc);
			qc = NULL;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return qc;
}

struct kmt_queue *
kmt_queue_find(struct kmt_queue_ctx *qc, HSA_QUEUEID id)
{
	struct kmt_queue *q;

	if (!id)
		return NULL;
	for (q = qc->head; q; q = q->next)
		if ((HSA_QUEUEID)(uintptr_t)q == id)
			return q;
	return NULL;
}

uint32_t *
kmt_queue_ids(HsaKFDContext *ctx, const HSA_QUEUEID *ids, uint32_t n)
{
	struct kmt_queue_ctx *qc;
	uint32_t *out, i;

	if (!ids || !n)
		return NULL;
	qc = kmt_queue_ctx_get(ctx);
	out = malloc(n * sizeof(*out));
	if (!qc || !out) {
		free(out);
		return NULL;
	}
	pthread_mutex_lock(&qc->lock);
	for (i = 0; i < n; i++) {
		struct kmt_queue *q = kmt_queue_find(qc, ids[i]);

		if (!q) {
			pthread_mutex_unlock(&qc->lock);
			free(out);
			return NULL;
		}
		out[i] = q->queue_id;
	}
	pthread_mutex_unlock(&qc->lock);
	return out;
}

/* Every CU on: the state a new queue starts in, recorded for GetQueueInfo. */
static HSAKMT_STATUS
queue_init_cu_mask(struct kmt_queue *q, const HsaNodeProperties *p)
{
	uint32_t cus, i;

	if (!p->NumSIMDPerCU)
		return HSAKMT_STATUS_SUCCESS;
	cus = p->NumFComputeCores / p->NumSIMDPerCU;
	q->cu_mask_count = (cus + 31) / 32 * 32;
	if (!q->cu_mask_count)
		return HSAKMT_STATUS_SUCCESS;
	q->cu_mask = calloc(q->cu_mask_count / 32, sizeof(uint32_t));
	if (!q->cu_mask)
		return HSAKMT_STATUS_NO_MEMORY;
	for (i = 0; i < cus; i++)
		q->cu_mask[i / 32] |= 1u << (i % 32);
	return HSAKMT_STATUS_SUCCESS;
}

/*
 * Write the save area's header, once per XCC: where the debugger area
 * starts (after every XCC's save area), and the event and payload the
 * trap handler uses to report queue errors.
 */
static void
queue_fill_cwsr_headers(struct kmt_queue *q, HsaEvent *event, volatile HSAint64 *err_reason)
{
	const struct kmt_queue_sizes *s = &q->sizes;
	uint32_t i;

	for (i = 0; i < s->num_xcc; i++) {
		HsaUserContextSaveAreaHeader *h =
			(void *)((char *)q->cwsr + (size_t)i * s->ctx_save_restore_size);

		h->ErrorEventId = event ? event->EventId : 0;
		h->ErrorReason = err_reason;
		h->DebugOffset = (s->num_xcc - i) * s->ctx_save_restore_size;
		h->DebugSize = s->debug_memory_size * s->num_xcc;
	}
}

/* Allocate what a queue of q->type needs and describe it in @args. */
static HSAKMT_STATUS
queue_alloc_buffers(HsaKFDContext *ctx, struct kmt_queue *q, const struct kmt_node_info *info,
		    HsaEvent *event, HsaQueueResource *res,
		    struct kfd_abi_create_queue_args *args)
{
	size_t page = kmt_page_size();
	HSAKMT_STATUS st;

	/*
	 * A GPU-mapped page of paged, uncached system memory per queue,
	 * first, as AMD's library allocates its queue structure (so both
	 * issue the same requests); non-AQL queues keep their read and write
	 * pointers in it.
	 */
	st = kmt_mem_alloc(ctx, q->node, page, 0,
			   KMT_MEM_HOST_ACCESS | KMT_MEM_UNCACHED | KMT_MEM_EXECUTABLE |
			   KMT_MEM_PAGED, (void **)&q->ptrs);
	if (st != HSAKMT_STATUS_SUCCESS)
		return HSAKMT_STATUS_NO_MEMORY;
	if (q->type != HSA_QUEUE_COMPUTE_AQL) {
		res->QueueRptrValue = (uintptr_t)&q->ptrs[0];
		res->QueueWptrValue = (uintptr_t)&q->ptrs[1];
	}

	kmt_queue_sizes(info, q->type, page, &q->sizes);
	if (q->sizes.eop_buffer_size) {
		st = kmt_mem_alloc(ctx, q->node, q->sizes.eop_buffer_size, 0,
				   KMT_MEM_VRAM | KMT_MEM_EXECUTABLE, &q->eop);
		if (st != HSAKMT_STATUS_SUCCESS)
			return HSAKMT_STATUS_NO_MEMORY;
		args->eop_buffer_address = (uintptr_t)q->eop;
		args->eop_buffer_size = q->sizes.eop_buffer_size;
	}
	if (q->sizes.has_cwsr) {
		/* Paged system memory, cached, as AMD's 5.2.3 library asks. */
		st = kmt_mem_alloc(ctx, q->node, q->sizes.cwsr_total_size, 0,
				   KMT_MEM_HOST_ACCESS | KMT_MEM_EXECUTABLE | KMT_MEM_PAGED,
				   &q->cwsr);
		if (st != HSAKMT_STATUS_SUCCESS)
			return HSAKMT_STATUS_NO_MEMORY;
		queue_fill_cwsr_headers(q, event, res->ErrorReason);
		args->ctx_save_restore_address = (uintptr_t)q->cwsr;
		args->ctx_save_restore_size = q->sizes.ctx_save_restore_size;
		args->ctl_stack_size = q->sizes.ctl_stack_size;
	}
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
queue_create(HsaKFDContext *ctx, HSAuint32 node, HSA_QUEUE_TYPE type, HSAuint32 percentage,
	     HSA_QUEUE_PRIORITY priority, HSAuint32 sdma_engine, void *ring, HSAuint64 ring_size,
	     HSAuint64 metadata_size, HsaEvent *event, HsaQueueResource *res)
{
	struct kfd_abi_create_queue_args args = {0};
	struct kmt_node_info info;
	struct kmt_queue_ctx *qc;
	struct kmt_queue *q;
	unsigned long request;
	void *doorbell = NULL;
	HSAKMT_STATUS st;
	int kfd_type;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!kmt_queue_priority_valid(priority))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_topo_node_info(ctx, node, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	kfd_type = queue_type_to_kfd(type);
	if (!res || kfd_type < 0)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!info.is_gpu) {
		/* The kernel would refuse gpu_id 0 with EINVAL. */
		kmt_err("node %u has no GPU for a queue\n", node);
		return HSAKMT_STATUS_ERROR;
	}
	/* The metadata ring (KFD 1.22) reuses the last field of the struct. */
	if (metadata_size && !kmt_kfd_minor_at_least(ctx, 22))
		return HSAKMT_STATUS_NOT_SUPPORTED;

	qc = kmt_queue_ctx_get(ctx);
	q = calloc(1, sizeof(*q));
	if (!qc || !q) {
		free(q);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	q->node = node;
	q->gpu_id = info.gpu_id;
	q->type = type;
	st = queue_init_cu_mask(q, &info.props);
	if (st == HSAKMT_STATUS_SUCCESS)
		st = queue_alloc_buffers(ctx, q, &info, event, res, &args);
	if (st != HSAKMT_STATUS_SUCCESS) {
		queue_free_buffers(ctx, q);
		return st;
	}

	args.gpu_id = info.gpu_id;
	args.queue_type = (uint32_t)kfd_type;
	args.read_pointer_address = res->QueueRptrValue;
	args.write_pointer_address = res->QueueWptrValue;
	args.ring_base_address = (uintptr_t)ring;
	args.ring_size = (uint32_t)ring_size;
	args.queue_percentage = percentage;
	args.queue_priority = kmt_queue_priority_to_kfd(priority);
	args.sdma_engine_id = sdma_engine;
	args.pad = (uint32_t)metadata_size;
	/* Kernels before 1.17 know the 88-byte struct, as 5.2.3 sends it. */
	request = kmt_kfd_minor_at_least(ctx, 17) ? KFD_ABI_IOC_CREATE_QUEUE
						  : KFD_ABI_IOC_CREATE_QUEUE_1_16;

	pthread_mutex_lock(&qc->lock);
	if (kmt_ioctl(ctx, request, &args) == -1) {
		kmt_debug("CREATE_QUEUE on node %u: %s\n", node, strerror(errno));
		pthread_mutex_unlock(&qc->lock);
		queue_free_buffers(ctx, q);
		return HSAKMT_STATUS_ERROR;
	}
	q->queue_id = args.queue_id;

	st = kmt_doorbell_get(ctx, qc, &info, q->queue_id, args.doorbell_offset, &doorbell);
	if (st != HSAKMT_STATUS_SUCCESS) {
		struct kfd_abi_destroy_queue_args d = { .queue_id = q->queue_id };

		kmt_ioctl(ctx, KFD_ABI_IOC_DESTROY_QUEUE, &d);
		pthread_mutex_unlock(&qc->lock);
		queue_free_buffers(ctx, q);
		return HSAKMT_STATUS_ERROR;
	}
	q->next = qc->head;
	qc->head = q;
	pthread_mutex_unlock(&qc->lock);

	res->QueueId = (HSA_QUEUEID)(uintptr_t)q;
	res->Queue_DoorBell = doorbell;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtCreateQueueV2Ctx(HsaKFDContext *ctx, HSAuint32 NodeId, HSA_QUEUE_TYPE Type,
		       HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
		       HSAuint32 SdmaEngineId, void *QueueAddress, HSAuint64 QueueSizeInBytes,
		       HSAuint64 MetaDataQueueSizeInBytes, HsaEvent *Event,
		       HsaQueueResource *QueueResource)
{
	return queue_create(ctx, NodeId, Type, QueuePercentage, Priority, SdmaEngineId,
			    QueueAddress, QueueSizeInBytes, MetaDataQueueSizeInBytes, Event,
			    QueueResource);
}

KMT_API HSAKMT_STATUS
hsaKmtCreateQueueExtCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSA_QUEUE_TYPE Type,
			HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
			HSAuint32 SdmaEngineId, void *QueueAddress, HSAuint64 QueueSizeInBytes,
			HsaEvent *Event, HsaQueueResource *QueueResource)
{
	return queue_create(ctx, NodeId, Type, QueuePercentage, Priority, SdmaEngineId,
			    QueueAddress, QueueSizeInBytes, 0, Event, QueueResource);
}

KMT_API HSAKMT_STATUS
hsaKmtCreateQueueCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSA_QUEUE_TYPE Type,
		     HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority, void *QueueAddress,
		     HSAuint64 QueueSizeInBytes, HsaEvent *Event,
		     HsaQueueResource *QueueResource)
{
	/* Naming an engine needs the Ext call, as in AMD's library. */
	if (Type == HSA_QUEUE_SDMA_BY_ENG_ID)
		return HSAKMT_STATUS_ERROR;
	return queue_create(ctx, NodeId, Type, QueuePercentage, Priority, 0, QueueAddress,
			    QueueSizeInBytes, 0, Event, QueueResource);
}

KMT_API HSAKMT_STATUS
hsaKmtCreateQueue(HSAuint32 NodeId, HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
		  HSA_QUEUE_PRIORITY Priority, void *QueueAddress, HSAuint64 QueueSizeInBytes,
		  HsaEvent *Event, HsaQueueResource *QueueResource)
{
	return hsaKmtCreateQueueCtx(kmt_primary_ctx(), NodeId, Type, QueuePercentage, Priority,
				    QueueAddress, QueueSizeInBytes, Event, QueueResource);
}

KMT_API HSAKMT_STATUS
hsaKmtCreateQueueExt(HSAuint32 NodeId, HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
		     HSA_QUEUE_PRIORITY Priority, HSAuint32 SdmaEngineId, void *QueueAddress,
		     HSAuint64 QueueSizeInBytes, HsaEvent *Event, HsaQueueResource *QueueResource)
{
	return hsaKmtCreateQueueExtCtx(kmt_primary_ctx(), NodeId, Type, QueuePercentage,
				       Priority, SdmaEngineId, QueueAddress, QueueSizeInBytes,
				       Event, QueueResource);
}

KMT_API HSAKMT_STATUS
hsaKmtDestroyQueueCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId)
{
	struct kfd_abi_destroy_queue_args args = {0};
	struct kmt_queue_ctx *qc;
	struct kmt_queue **pp, *q = NULL;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	qc = kmt_queue_ctx_get(ctx);
	if (!qc)
		return HSAKMT_STATUS_NO_MEMORY;

	pthread_mutex_lock(&qc->lock);
	for (pp = &qc->head; *pp; pp = &(*pp)->next) {
		if ((HSA_QUEUEID)(uintptr_t)*pp == QueueId) {
			q = *pp;
			break;
		}
	}
	if (!q) {
		pthread_mutex_unlock(&qc->lock);
		return HSAKMT_STATUS_INVALID_PARAMETER;
	}
	args.queue_id = q->queue_id;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_DESTROY_QUEUE, &args) == -1) {
		kmt_err("failed to destroy queue %u: %s\n", q->queue_id, strerror(errno));
		pthread_mutex_unlock(&qc->lock);
		return HSAKMT_STATUS_ERROR;
	}
	*pp = q->next;
	pthread_mutex_unlock(&qc->lock);
	queue_free_buffers(ctx, q);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDestroyQueue(HSA_QUEUEID QueueId)
{
	return hsaKmtDestroyQueueCtx(kmt_primary_ctx(), QueueId);
}
