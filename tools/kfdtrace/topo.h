/* SPDX-License-Identifier: MIT */
/*
 * A summary of the KFD topology a trace's TOPOLOGY record captured: one
 * entry per sysfs node directory (.../topology/nodes/N/).
 */
#ifndef KFDTRACE_TOPO_H
#define KFDTRACE_TOPO_H

#include <stdint.h>

#include "kfdtrace/trace.h"

#define TOPO_MAX_NODES 64
#define TOPO_MAX_LINKS 256

struct topo_node {
	int present;
	uint32_t gpu_id;		/* 0 for CPU nodes */
	char name[64];
	uint32_t gfx_target_version;
	uint32_t simd_count;
	uint32_t simd_per_cu;
	uint32_t cpu_cores;
	uint64_t vram_bytes;		/* mem banks with heap_type 1 or 2 */
	uint64_t sys_bytes;		/* mem banks with heap_type 0 */
	uint32_t drm_render_minor;	/* renderD<minor>; 0 for CPU nodes */
};

/* One io_links/M or p2p_links/M entry of a node. */
struct topo_link {
	uint32_t node_from, node_to;
	uint32_t type;			/* 2 PCIe, 11 XGMI, ... */
	uint32_t weight;
	uint32_t max_bandwidth;		/* MB/s as the kernel reports it */
	int p2p;			/* from p2p_links rather than io_links */
};

struct topo_summary {
	unsigned int nnodes;		/* highest node index + 1 */
	unsigned int ngpus;
	struct topo_node nodes[TOPO_MAX_NODES];
	unsigned int nlinks;		/* links past TOPO_MAX_LINKS are dropped */
	struct topo_link links[TOPO_MAX_LINKS];
	uint32_t files;
	uint64_t bytes;
};

/*
 * topo_summarize() - read the node files of a topology record. Files it
 * does not understand, and nodes past TOPO_MAX_NODES, are skipped.
 */
void topo_summarize(const struct kt_topology_rec *t, struct topo_summary *s);

#endif /* KFDTRACE_TOPO_H */
