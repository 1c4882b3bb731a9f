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
 * first "/nodes/". kt_topo_snapshot() reads such a tree (the recorder's
 * TOPOLOGY record, the replayer's live topology).
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

/*
 * Bounds of a snapshot: a real topology is a few hundred small files; the
 * total stays well inside one trace record (KT_MAX_RECORD_SIZE). Files
 * past the count or the total are left out, the last one that fits cut
 * short; each file is cut at KT_TOPO_SNAP_MAX_FILE bytes.
 */
#define KT_TOPO_SNAP_MAX_FILES	4096
#define KT_TOPO_SNAP_MAX_FILE	(64 * 1024)
#define KT_TOPO_SNAP_MAX_BYTES	(8 * 1024 * 1024)

enum kt_topo_snap_flags {
	/*
	 * Only the files kt_topo_parse() reads: nodes/N/gpu_id, name and
	 * properties, and nodes/N/{mem_banks,io_links,p2p_links}/M/properties
	 * (N, M decimal). Without it, every file of the tree (to a depth of
	 * 8 directories), as a TOPOLOGY record keeps them.
	 */
	KT_TOPO_SNAP_PARSED = 1 << 0,
};

/* The files of a tree, sorted by path within each directory. */
struct kt_topo_snap {
	struct kt_topo_file *files;	/* paths are "<root>/<relative>" */
	uint32_t nfiles;
	uint64_t bytes;			/* their total length */
};

/*
 * kt_topo_snapshot() - read the topology tree at @root (e.g. "/sys/devices/
 * virtual/kfd/kfd/topology") into @out, through libc (opendir, readdir,
 * open, read), so that an LD_PRELOAD simulator serves it as it serves any
 * program. @flags: enum kt_topo_snap_flags. Whatever opens as a directory
 * is one; files that cannot be opened are left out, a read that fails
 * keeps what it got. Free @out with kt_topo_snap_free().
 *
 * Return: 0; -errno when @root cannot be opened, -ENOMEM, -EINVAL when
 * @root or @out is NULL. On error @out (if any) is empty.
 */
int kt_topo_snapshot(const char *root, unsigned int flags,
		     struct kt_topo_snap *out);

/* kt_topo_snap_free() - release what kt_topo_snapshot() gave (NULL: none). */
void kt_topo_snap_free(struct kt_topo_snap *snap);

/*
 * kt_topo_read_live() - the live topology at @root: a KT_TOPO_SNAP_PARSED
 * snapshot through kt_topo_parse() into @out, as a captured TOPOLOGY
 * record is read.
 *
 * Return: 0; -errno when @root/nodes cannot be opened (then @out is
 * empty), -ENOMEM, -EINVAL.
 */
int kt_topo_read_live(const char *root, struct kt_topo *out);

#endif /* KFDTRACE_TOPOLOGY_H */
