/* SPDX-License-Identifier: MIT */
/*
 * Doorbells. Each process has one doorbell slice per GPU (1024 doorbells
 * of 4 bytes before gfx9, 8 from it); the library maps it when the node
 * gets its first queue and keeps it until the context closes.
 *
 * CREATE_QUEUE's doorbell_offset is an mmap offset on /dev/kfd. On SOC15
 * (gfx9+) parts the kernel also puts the doorbell's byte offset inside
 * the slice in its low bits, because compute doorbells are allocated
 * dynamically; on older parts the doorbell index is the queue id.
 */
#include "queues/queues_priv.h"
#include "memory/memory.h"

HSAKMT_STATUS
kmt_doorbell_get(HsaKFDContext *ctx, struct kmt_queue_ctx *qc,
		 const struct kmt_node_info *info, uint32_t queue_id,
		 uint64_t doorbell_offset, void **doorbell)
{
	struct kmt_doorbell *db;
	uint64_t base, in_slice, slice;
	uint32_t size;

	if (info->node_id >= qc->num_nodes)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	db = &qc->doorbells[info->node_id];
	size = info->doorbell_size ? info->doorbell_size
				   : (info->gfx.major >= 9 ? 8u : 4u);
	slice = 1024ull * size;

	if (info->gfx.major >= 9) {
		base = doorbell_offset & ~(slice - 1);
		in_slice = doorbell_offset & (slice - 1);
	} else {
		base = doorbell_offset;
		in_slice = (uint64_t)queue_id * size;
	}
	if (in_slice >= slice) {
		kmt_err("doorbell offset 0x%llx outside the slice\n",
			(unsigned long long)doorbell_offset);
		return HSAKMT_STATUS_ERROR;
	}

	if (!db->addr) {
		void *addr = NULL;
		HSAKMT_STATUS st = kmt_mem_map_doorbell(ctx, info->node_id, base, &addr);

		if (st != HSAKMT_STATUS_SUCCESS || !addr) {
			kmt_err("node %u: cannot map doorbells (status %d)\n",
				info->node_id, st);
			return HSAKMT_STATUS_ERROR;
		}
		db->addr = addr;
		db->size = size;
	}
	*doorbell = (char *)db->addr + in_slice;
	return HSAKMT_STATUS_SUCCESS;
}

void
kmt_doorbells_release(HsaKFDContext *ctx, struct kmt_queue_ctx *qc, bool forked)
{
	uint32_t i;

	for (i = 0; i < qc->num_nodes; i++) {
		if (!qc->doorbells[i].addr)
			continue;
		kmt_mem_unmap_doorbell(ctx, i, qc->doorbells[i].addr, forked);
		qc->doorbells[i].addr = NULL;
	}
}
