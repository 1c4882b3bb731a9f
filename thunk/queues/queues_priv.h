/* SPDX-License-Identifier: MIT */
/*
 * queues/queues_priv.h - what the queue files (queues*.c, doorbell.c)
 * share; private to queues/ (the debugger's part is queues/queues.h).
 *
 * A queue handle (HSA_QUEUEID) is the address of a struct kmt_queue the
 * library allocated; it is only ever dereferenced after it was found in
 * its context's list, so a stale or made-up handle is refused, never
 * followed.
 */
#ifndef KMT_QUEUES_PRIV_H
#define KMT_QUEUES_PRIV_H

#include "core/core.h"
#include "queues/queues.h"
#include "topology/topology.h"

/* HSA priorities -3..+3 and whether one is in range. */
static inline bool
kmt_queue_priority_valid(HSA_QUEUE_PRIORITY prio)
{
	return (int)prio >= HSA_QUEUE_PRIORITY_MINIMUM && (int)prio <= HSA_QUEUE_PRIORITY_MAXIMUM;
}

/* kmt_queue_priority_to_kfd() - a valid HSA priority spread over the kernel's 0..15. */
uint32_t kmt_queue_priority_to_kfd(HSA_QUEUE_PRIORITY prio);

/* Sizes of a compute queue's kernel-visible buffers on one node. */
struct kmt_queue_sizes {
	uint32_t eop_buffer_size;	/* 0: the queue needs no EOP buffer */
	bool has_cwsr;			/* needs a context save area */
	uint32_t ctl_stack_size;	/* control stack, header included */
	uint32_t ctx_save_restore_size;	/* control stack + wave state, per XCC */
	uint32_t debug_memory_size;	/* debugger area, per XCC */
	uint32_t num_xcc;
	uint64_t cwsr_total_size;	/* what to allocate, page aligned */
};

/*
 * kmt_queue_sizes() - EOP and context-save sizes of a queue of HSA
 * @type on the node described by @info, as the kernel checks them
 * (kfd_queue_ctx_save_restore_size): the control stack holds 8 bytes per
 * wave before gfx10.1 and 12 from it, wave state is the per-CU register
 * files and LDS times the CUs of one XCC, and the debugger gets 32 bytes
 * per wave. Where sysfs exports the kernel's own values they win.
 * @page: the CPU page size.
 */
void kmt_queue_sizes(const struct kmt_node_info *info, HSA_QUEUE_TYPE type, size_t page,
		     struct kmt_queue_sizes *out);

/* One user-mode queue. */
struct kmt_queue {
	struct kmt_queue *next;
	uint32_t queue_id;		/* the kernel's id */
	uint32_t node;
	uint32_t gpu_id;
	HSA_QUEUE_TYPE type;
	/* Read and write pointers of non-AQL queues (the runtime brings its
	 * own for AQL): one GPU-mapped page, rptr at 0, wptr at 8. */
	uint64_t *ptrs;
	void *eop;
	uint32_t eop_size;
	void *cwsr;
	struct kmt_queue_sizes sizes;
	/* CU mask: all CUs at creation; what SetQueueCUMask last set. */
	uint32_t cu_mask_count;		/* bits */
	uint32_t *cu_mask;
};

/* Per-node doorbell slice, mapped at the node's first queue. */
struct kmt_doorbell {
	void *addr;			/* NULL until mapped */
	uint32_t size;			/* bytes of one doorbell */
};

/* The queue area of a context (HsaKFDContext.queues). */
struct kmt_queue_ctx {
	pthread_mutex_t lock;		/* guards everything below */
	struct kmt_queue *head;
	uint32_t num_nodes;
	struct kmt_doorbell *doorbells;	/* [num_nodes] */
};

/*
 * kmt_queue_ctx_get() - @ctx's queue area, created on first use.
 * Return: NULL only when out of memory.
 */
struct kmt_queue_ctx *kmt_queue_ctx_get(HsaKFDContext *ctx);

/*
 * kmt_queue_find() - the queue behind @id in @qc, or NULL.
 * Called with qc->lock held.
 */
struct kmt_queue *kmt_queue_find(struct kmt_queue_ctx *qc, HSA_QUEUEID id);

/*
 * kmt_doorbell_get() - the CPU address of the doorbell behind
 * CREATE_QUEUE's @doorbell_offset, mapping @node's slice on first use.
 * Called with qc->lock held.
 */
HSAKMT_STATUS kmt_doorbell_get(HsaKFDContext *ctx, struct kmt_queue_ctx *qc,
			       const struct kmt_node_info *info, uint32_t queue_id,
			       uint64_t doorbell_offset, void **doorbell);

/* kmt_doorbells_release() - unmap every slice of @qc (@forked: CPU side only). */
void kmt_doorbells_release(HsaKFDContext *ctx, struct kmt_queue_ctx *qc, bool forked);

#endif /* KMT_QUEUES_PRIV_H */
