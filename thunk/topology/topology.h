/* SPDX-License-Identifier: MIT */
/*
 * topology/topology.h - what topology/ offers the other groups: facts of
 * a node copied out of the context's snapshot, gpu_id <-> node
 * translation, GFX versions, the render-node files and libdrm devices of
 * the GPUs, and the set-up and tear-down lifecycle/ calls at open and
 * close. The snapshot itself and the sysfs parsers are topology/topo.h's.
 */
#ifndef KMT_TOPOLOGY_H
#define KMT_TOPOLOGY_H

#include "core/core.h"

/* ------------------------------------------------------------------ */
/* Topology accessors                                                 */
/* ------------------------------------------------------------------ */

/* GFX IP version of a node (0.0.0 for CPU nodes). */
struct kmt_gfx_version {
	uint8_t major;
	uint8_t minor;
	uint8_t stepping;
};

/* Encodes a gfx version for comparisons: KMT_GFX(9, 0, 10) for gfx90a. */
#define KMT_GFX(major, minor, step)	(((major) << 16) | ((minor) << 8) | (step))
static inline uint32_t
kmt_gfx_value(struct kmt_gfx_version v)
{
	return KMT_GFX((uint32_t)v.major, (uint32_t)v.minor, (uint32_t)v.stepping);
}

/*
 * What the areas need to know about a node, copied out of the topology
 * under its lock (a snapshot: later topology changes do not touch it).
 */
struct kmt_node_info {
	uint32_t node_id;		/* user node id */
	uint32_t sysfs_id;		/* the kernel's node number */
	uint32_t gpu_id;		/* 0 for CPU nodes */
	bool is_gpu;			/* has SIMDs */
	bool is_dgpu;			/* GPU without CPU cores */
	struct kmt_gfx_version gfx;
	uint32_t drm_render_minor;	/* 128.. for GPUs */
	uint32_t num_xcc;		/* sysfs num_xcc, 1 if absent */
	/* Queue sizing, from sysfs where the kernel exports it (else 0). */
	uint32_t cwsr_size;
	uint32_t ctl_stack_size;
	uint32_t eop_buffer_size;
	/* Doorbells: bytes per doorbell (4 before gfx9, else 8) and the
	 * length of the process's doorbell slice to mmap (1024 doorbells,
	 * rounded up to the page size). */
	uint32_t doorbell_size;
	uint32_t doorbell_slice_size;
	uint64_t capability2;		/* sysfs capability2, 0 if absent */
	bool large_bar;			/* has a CPU-visible VRAM bank */
	uint64_t vram_size;		/* sum of the VRAM banks */
	HsaNodeProperties props;	/* as hsaKmtGetNodeProperties() reports */
};

/* kmt_topo_num_nodes() - user nodes of @ctx's topology (0 if closed). */
uint32_t kmt_topo_num_nodes(HsaKFDContext *ctx);

/*
 * kmt_topo_node_info() - facts of user node @node.
 * Return: INVALID_NODE_UNIT for an unknown node.
 */
HSAKMT_STATUS kmt_topo_node_info(HsaKFDContext *ctx, uint32_t node, struct kmt_node_info *out);

/*
 * kmt_topo_gpu_id() - gpu_id of user node @node.
 * Return: INVALID_NODE_UNIT for an unknown node or a CPU-only node.
 */
HSAKMT_STATUS kmt_topo_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id);

/*
 * kmt_topo_node_of_gpu() - user node id of @gpu_id.
 * Return: INVALID_NODE_UNIT for an unknown gpu_id.
 */
HSAKMT_STATUS kmt_topo_node_of_gpu(HsaKFDContext *ctx, uint32_t gpu_id, uint32_t *node);

/*
 * kmt_topo_gpu_ids() - gpu_ids of every GPU node, in node order.
 * Return: the number of GPUs (may exceed @max; only @max are stored).
 */
uint32_t kmt_topo_gpu_ids(HsaKFDContext *ctx, uint32_t *ids, uint32_t max);

/* kmt_topo_sysfs_nodes() - sysfs nodes of @ctx's topology (usable or not). */
uint32_t kmt_topo_sysfs_nodes(HsaKFDContext *ctx);

/*
 * kmt_topo_api_node() - what the application's snapshot (the one
 * hsaKmtAcquireSystemProperties() took) says of user node @node: its
 * properties, its gpu_id (0 for CPU nodes) and, when @banks is not NULL,
 * @max_banks entries of memory banks: the node's own banks, then zeros.
 * Return: INVALID_NODE_UNIT when nothing is acquired or @node is unknown
 * (the outputs are then untouched); else SUCCESS.
 */
HSAKMT_STATUS kmt_topo_api_node(HsaKFDContext *ctx, uint32_t node, HsaNodeProperties *props,
				uint32_t *gpu_id, HsaMemoryProperties *banks, uint32_t max_banks);

/*
 * Set-up and tear-down at open and close (topology.c, render.c), in the
 * order lifecycle/ctx.c calls them: the snapshot, then the render nodes.
 */
HSAKMT_STATUS kmt_topo_open(HsaKFDContext *ctx);
void kmt_topo_close(HsaKFDContext *ctx);
HSAKMT_STATUS kmt_render_open(HsaKFDContext *ctx);
void kmt_render_close(HsaKFDContext *ctx, bool forked);

/*
 * kmt_render_fd() - the render-node fd @ctx acquired @node's GPU VM with
 * (-1 for CPU nodes or before open). Owned by the context: never close it.
 */
int kmt_render_fd(HsaKFDContext *ctx, uint32_t node);

/* kmt_render_device() - the libdrm amdgpu device of @node (lazily made). */
HSAKMT_STATUS kmt_render_device(HsaKFDContext *ctx, uint32_t node, void **dev);

#endif /* KMT_TOPOLOGY_H */
