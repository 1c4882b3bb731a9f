/* SPDX-License-Identifier: MIT */
/*
 * The KFD sysfs topology a TOPOLOGY record captured (or any set of files of
 * the same shape, such as a live read of the tree): one parser shared by
 * the CLI and the replayer.
 *
 * The files are those of .../kfd/topology/nodes/N/: gpu_id, name,
 * properties, and mem_banks/M, io_links/M, p2p_links/M each with a
 * properties file ("key value" lines). Paths may carry any prefix (the
 * tracer records the path the process opened); matching starts at the
 * first "/nodes/".
 */
#ifndef KFDTRACE_TOPOLOGY_H
#define KFDTRACE_TOPOLOGY_H

#include <stdint.h>

#include "kfdtrace/trace.h"

#define KT_TOPO_MAX_NODES	128
/* io_links and p2p_links of all nodes together; more are dropped. */
#define KT_TOPO_MAX_LINKS	4096

/* One node directory. Numbers are the properties file's, 0 when absent. */
struct kt_topo_node {
	int present;			/* some file of the node was seen */
	uint32_t gpu_id;		/* 0 for CPU nodes */
	char name[64];			/* first line of "name", NUL-terminated */
	uint64_t device_id;
	uint64_t vendor_id;
	uint64_t gfx_target_version;	/* e.g. 90010 for gfx90a */
	uint64_t simd_count;
	uint64_t simd_per_cu;
	uint64_t cpu_cores;		/* cpu_cores_count */
	uint64_t drm_render_minor;	/* renderD<minor>; 0 for CPU nodes */
	uint64_t location_id;		/* PCI bus/device/function */
	uint64_t domain;		/* PCI domain */
	uint64_t num_xcc;
	uint64_t vram_bytes;		/* mem banks with heap_type != 0 */
	uint64_t sys_bytes;		/* mem banks with heap_type 0 */
};

/* One io_links/M or p2p_links/M entry. */
struct kt_topo_link {
	uint32_t from;			/* node_from; else the node holding it */
	uint32_t to;			/* node_to */
	uint32_t type;			/* 2 PCIe, 11 XGMI, ... */
	uint32_t weight;
	uint32_t max_bandwidth;		/* MB/s as the kernel reports it */
	int p2p;			/* from p2p_links rather than io_links */
};

struct kt_topo {
	unsigned int nnodes;		/* highest present node index + 1 */
	unsigned int ngpus;		/* present nodes with a gpu_id */
	struct kt_topo_node nodes[KT_TOPO_MAX_NODES];
	unsigned int nlinks;		/* in file order */
	struct kt_topo_link links[KT_TOPO_MAX_LINKS];
	uint32_t files;			/* files given, understood or not */
	uint64_t bytes;			/* their total length */
};

/*
 * kt_topo_parse() - fill @out from @n topology files. Only the files'
 * lengths bound their data (no NUL is needed; NULL data reads as empty);
 * a path must be a C string. Files not understood, node indexes past
 * KT_TOPO_MAX_NODES, lines without a decimal value and values that
 * overflow are skipped. Return: 0, or -EINVAL when @out is NULL or @files
 * is NULL with @n non-zero (then @out, if any, is left empty).
 */
int kt_topo_parse(const struct kt_topo_file *files, uint32_t n,
		  struct kt_topo *out);

/* kt_topo_gpu() - the present node with @gpu_id (non-zero), or NULL. */
const struct kt_topo_node *kt_topo_gpu(const struct kt_topo *t,
				       uint32_t gpu_id);

#endif /* KFDTRACE_TOPOLOGY_H */
