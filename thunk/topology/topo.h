/* SPDX-License-Identifier: MIT */
/*
 * Topology internals, private to topology/: the snapshot built from the
 * kernel's sysfs tree (/sys/devices/virtual/kfd/kfd/topology) and the
 * parsers that read it.
 * Every reader takes a root path so tests can point it at a tree of
 * their own (including malformed ones).
 */
#ifndef KMT_TOPO_H
#define KMT_TOPO_H

#include <stdio.h>

#include "topology/topology.h"

#define KMT_TOPO_ROOT	"/sys/devices/virtual/kfd/kfd/topology"

/*
 * Properties files are read with one read of at most this many bytes, as
 * the kernel produces them (a sysfs attribute is at most a page).
 */
#define KMT_TOPO_MAX_FILE	4096

/* One node of a snapshot. */
struct kmt_topo_node {
	uint32_t sysfs_id;
	uint32_t gpu_id;			/* 0: CPU node */
	/*
	 * As reported: NumMemoryBanks, NumCaches and NumIOLinks count the
	 * arrays below (synthetic banks are added by the API).
	 */
	HsaNodeProperties props;
	HsaMemoryProperties *banks;
	HsaCacheProperties *caches;
	HsaIoLinkProperties *links;
	uint32_t links_cap;			/* room in links[] */
	/* Facts that HsaNodeProperties has no field for. */
	uint32_t gfx_target_version;		/* sysfs value, decimal form */
	uint32_t num_xcc;
	uint32_t cwsr_size;
	uint32_t ctl_stack_size;
	uint32_t eop_buffer_size;
	uint64_t capability2;
	uint32_t n_io_links;			/* io_links_count */
	uint32_t n_p2p_links;			/* p2p_links_count */
	bool has_p2p_key;			/* the p2p_links_count key exists */
};

struct kmt_topology {
	HsaSystemProperties sys;
	uint32_t n_sysfs;			/* nodes in sysfs, usable or not */
	uint32_t n_nodes;
	struct kmt_topo_node *nodes;		/* user node order */
	uint32_t generation;
};

/* ---- topo_sysfs.c: reading sysfs files ---- */

/*
 * One "name value" pair of a properties file. Parsing stops at the first
 * line that is not "<name> <unsigned decimal>", as the kernel's consumers
 * do; the rest of the file is ignored.
 */
typedef void kmt_prop_fn(void *arg, const char *name, unsigned long long value);

/*
 * kmt_sysfs_read_file() - read a whole (small) file into @buf, NUL-ended.
 * Return: bytes read, or -errno.
 */
long kmt_sysfs_read_file(const char *path, char *buf, size_t size);

/*
 * kmt_sysfs_parse_props() - call @fn for each pair of the properties text
 * in @buf. @rest, if not NULL, gets where parsing stopped.
 * Return: the number of pairs.
 */
unsigned int kmt_sysfs_parse_props(const char *buf, kmt_prop_fn *fn, void *arg,
				   const char **rest);

/*
 * kmt_sysfs_read_props() - read and parse a properties file.
 * Return: SUCCESS; NOT_SUPPORTED when the kernel denies it (EPERM);
 * ERROR when it cannot be read or holds no pair at all.
 */
HSAKMT_STATUS kmt_sysfs_read_props(const char *path, kmt_prop_fn *fn, void *arg);

/*
 * kmt_sysfs_read_u32() - a file holding one decimal number (gpu_id,
 * generation_id). Return: SUCCESS, NOT_SUPPORTED on EPERM, ERROR.
 */
HSAKMT_STATUS kmt_sysfs_read_u32(const char *path, uint32_t *value);

/* kmt_sysfs_count_dirs() - entries of @path whose name starts with @prefix. */
int kmt_sysfs_count_entries(const char *path, const char *prefix);

/* ---- topo_node.c: one node ---- */

/*
 * kmt_topo_read_node() - gpu_id and properties of sysfs node @sysfs_id.
 * Return: SUCCESS; NOT_SUPPORTED if the node is hidden from us; ERROR
 * for missing or malformed files.
 */
HSAKMT_STATUS kmt_topo_read_node(const char *root, uint32_t sysfs_id,
				 struct kmt_topo_node *node);

/* kmt_topo_read_bank() - one mem_banks/<id>/properties. */
HSAKMT_STATUS kmt_topo_read_bank(const char *root, uint32_t sysfs_id, uint32_t id,
				 HsaMemoryProperties *bank);

/* kmt_topo_read_cache() - one caches/<id>/properties, sibling_map included. */
HSAKMT_STATUS kmt_topo_read_cache(const char *root, uint32_t sysfs_id, uint32_t id,
				  HsaCacheProperties *cache);

/*
 * kmt_topo_read_link() - one io_links/<id> or p2p_links/<id> properties
 * file, node ids still in sysfs numbering. Return: NOT_SUPPORTED when the
 * kernel hides it.
 */
HSAKMT_STATUS kmt_topo_read_link(const char *root, uint32_t sysfs_id, uint32_t id, bool p2p,
				 HsaIoLinkProperties *link);

/* ---- topo_gfx.c: GFX IP versions ---- */

/*
 * kmt_topo_set_gfx() - fill EngineId's gfx fields, AMDName and the
 * VGPR/SGPR sizes of a GPU node from (in order) HSA_OVERRIDE_GFX_VERSION,
 * the device-id table, the node's gfx_target_version.
 * Return: ERROR when a node with SIMDs ends up without a gfx major.
 */
HSAKMT_STATUS kmt_topo_set_gfx(struct kmt_topo_node *node);

/* kmt_topo_gfx_of() - the gfx version in a node's EngineId. */
struct kmt_gfx_version kmt_topo_gfx_of(const HsaNodeProperties *props);

/* ---- topo_cache.c: CPU caches and names ---- */

/* Per-processor facts of /proc/cpuinfo. */
struct kmt_cpuinfo {
	uint32_t count;
	struct kmt_cpuinfo_proc {
		uint32_t apicid;
		char model_name[HSA_PUBLIC_NAME_SIZE];
	} *procs;
};

/* kmt_cpuinfo_read() - parse /proc/cpuinfo (empty on failure). */
void kmt_cpuinfo_read(const char *path, struct kmt_cpuinfo *info);
void kmt_cpuinfo_free(struct kmt_cpuinfo *info);

/* kmt_topo_cpu_name() - MarketingName (and AMDName of CPU-only nodes). */
void kmt_topo_cpu_name(struct kmt_topo_node *node, const struct kmt_cpuinfo *info);

/*
 * kmt_topo_cpu_caches() - the caches of CPU NUMA node @numa from
 * /sys/devices/system (@sys_root), each listed once, under the first
 * processor sharing it. Return: SUCCESS (possibly no caches), NO_MEMORY.
 */
HSAKMT_STATUS kmt_topo_cpu_caches(const char *sys_root, uint32_t numa,
				  const struct kmt_cpuinfo *info,
				  struct kmt_topo_node *node);

/* ---- topo_links.c ---- */

/*
 * kmt_topo_add_indirect_links() - when the kernel reports no p2p links,
 * connect the nodes it left unconnected through their CPUs (GPU-CPU-GPU,
 * GPU-CPU-CPU-GPU, GPU-CPU-CPU, CPU-CPU-GPU) with summed weights.
 */
void kmt_topo_add_indirect_links(struct kmt_topology *topo);

/* ---- topo_name.c ---- */

/* kmt_topo_marketing_name() - libdrm's marketing name of render node @minor. */
void kmt_topo_marketing_name(uint32_t minor, HSAuint16 *name);

/* ---- topology.c ---- */

/*
 * kmt_topo_build() - read a complete snapshot from @root (retrying while
 * the generation changes). @cpuinfo_path and @sys_root locate
 * /proc/cpuinfo and /sys/devices/system. @probe_render: skip GPU nodes
 * whose render node cannot be opened (ENOENT/EPERM), as the kernel's
 * device cgroup hides them. @need_caches: fail (ERROR) when a CPU node
 * ends up without any cache, as AMD's library does for the API snapshot.
 */
HSAKMT_STATUS kmt_topo_build(const char *root, const char *cpuinfo_path, const char *sys_root,
			     bool probe_render, bool need_caches, struct kmt_topology **out);

/* kmt_topo_free() - free a snapshot (NULL is fine). */
void kmt_topo_free(struct kmt_topology *topo);

#endif /* KMT_TOPO_H */
