/* SPDX-License-Identifier: MIT */
/*
 * /sys/devices/system/node: the simulated machine's NUMA nodes, one per
 * KFD CPU node. AMD's thunk walks nodeN/cpuM/cache for a CPU node that
 * lists no caches in KFD sysfs, and libnuma (which that thunk links)
 * counts the nodeN entries and reads their meminfo when it loads; both
 * must see the profile's machine. Owned: no host node shows through.
 */
#include <errno.h>
#include <string.h>

#include "tree.h"
#include "tree_cpu.h"

#define NODE_DIR "/sys/devices/system/node"

/* SLIT-style distances: local, same socket, other socket. */
#define DIST_LOCAL	10
#define DIST_SOCKET	12
#define DIST_REMOTE	32

enum numa_file {
	NF_ONLINE,		/* online, possible, has_cpu */
	NF_HAS_MEMORY,		/* has_memory, has_normal_memory */
	NF_CPULIST,
	NF_CPUMAP,
	NF_MEMINFO,
	NF_DISTANCE,
	NF_NUMASTAT,
};

void
ksim_cpu_numa_set(const struct ksim_cpu *cpu, unsigned int numa,
		  struct ksim_cpuset *s)
{
	unsigned int total = ksim_cpu_count(cpu);

	ksim_cpuset_clear(s);
	for (unsigned int n = 0; n < total; n++) {
		struct ksim_cpu_pos pos;

		ksim_cpu_locate(cpu, n, &pos);
		if (pos.numa == numa)
			ksim_cpuset_set(s, n);
	}
}

/* System memory of NUMA node @numa: its KFD CPU node's memory banks. */
static uint64_t
numa_mem_bytes(const struct ksim_profile *prof, unsigned int numa)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *n = &prof->nodes[i];

		if (ksim_node_is_gpu(n) || numa-- != 0)
			continue;
		for (unsigned int b = 0; b < n->n_mem_banks; b++)
			if (n->mem_banks[b].heap_type == KSIM_HEAP_SYSTEM)
				sum += n->mem_banks[b].size_in_bytes;
		break;
	}
	return sum;
}

/* The labels of a 6.x node meminfo, after MemTotal/MemFree/MemUsed. */
static const char *const meminfo_zero[] = {
	"SwapCached", "Active", "Inactive", "Active(anon)", "Inactive(anon)",
	"Active(file)", "Inactive(file)", "Unevictable", "Mlocked", "Dirty",
	"Writeback", "FilePages", "Mapped", "AnonPages", "Shmem", "KernelStack",
	"PageTables", "SecPageTables", "NFS_Unstable", "Bounce", "WritebackTmp",
	"KReclaimable", "Slab", "SReclaimable", "SUnreclaim", "AnonHugePages",
	"ShmemHugePages", "ShmemPmdMapped", "FileHugePages", "FilePmdMapped",
};

static void
meminfo_line(struct ksim_buf *out, unsigned int numa, const char *label,
	     uint64_t kb)
{
	char key[32];

	snprintf(key, sizeof(key), "%s:", label);
	ksim_buf_printf(out, "Node %u %-16s%8llu kB\n", numa, key,
			(unsigned long long)kb);
}

static void
render_meminfo(const struct ksim_profile *prof, unsigned int numa,
	       struct ksim_buf *out)
{
	uint64_t total = numa_mem_bytes(prof, numa) / 1024;
	/* Nothing is modelled as used; a machine at rest uses a little. */
	uint64_t used = total / 64;

	meminfo_line(out, numa, "MemTotal", total);
	meminfo_line(out, numa, "MemFree", total - used);
	meminfo_line(out, numa, "MemUsed", used);
	for (unsigned int i = 0; i < sizeof(meminfo_zero) / sizeof(meminfo_zero[0]); i++)
		meminfo_line(out, numa, meminfo_zero[i], 0);
	ksim_buf_printf(out, "Node %u HugePages_Total:     0\n"
			"Node %u HugePages_Free:      0\n"
			"Node %u HugePages_Surp:      0\n", numa, numa, numa);
}

static int
render_numa_file(const struct ksim_vnode *node, struct ksim_buf *out)
{
	const struct ksim_tree_ctx *ctx = node->priv;
	const struct ksim_profile *prof = ctx->prof;
	const struct ksim_cpu *cpu = &prof->cpu;
	unsigned int numa = TREE_ARG_HI(node->arg), nodes = ksim_cpu_numa_count(cpu);
	struct ksim_cpuset set;

	switch ((enum numa_file)TREE_ARG_LO(node->arg)) {
	case NF_ONLINE:
		ksim_cpuset_clear(&set);
		for (unsigned int i = 0; i < nodes; i++)
			ksim_cpuset_set(&set, i);
		ksim_cpuset_print_list(out, &set, nodes);
		return 0;
	case NF_HAS_MEMORY:
		ksim_cpuset_clear(&set);
		for (unsigned int i = 0; i < nodes; i++)
			if (numa_mem_bytes(prof, i))
				ksim_cpuset_set(&set, i);
		ksim_cpuset_print_list(out, &set, nodes);
		return 0;
	case NF_CPULIST:
		ksim_cpu_numa_set(cpu, numa, &set);
		ksim_cpuset_print_list(out, &set, ksim_cpu_count(cpu));
		return 0;
	case NF_CPUMAP:
		ksim_cpu_numa_set(cpu, numa, &set);
		ksim_cpuset_print_mask(out, &set, ksim_cpu_count(cpu));
		return 0;
	case NF_MEMINFO:
		render_meminfo(prof, numa, out);
		return 0;
	case NF_DISTANCE:
		for (unsigned int i = 0; i < nodes; i++)
			ksim_buf_printf(out, "%s%u", i ? " " : "", i == numa ? DIST_LOCAL :
					i / cpu->numa_per_socket ==
					numa / cpu->numa_per_socket ? DIST_SOCKET : DIST_REMOTE);
		ksim_buf_put(out, "\n", 1);
		return 0;
	case NF_NUMASTAT:
		ksim_buf_printf(out, "numa_hit 0\nnuma_miss 0\nnuma_foreign 0\n"
				"interleave_hit 0\nlocal_node 0\nother_node 0\n");
		return 0;
	}
	return -EINVAL;
}

static int
add_numa_file(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, const char *dir,
	      const char *name, unsigned int numa, enum numa_file kind)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return ksim_vfs_add_file(vfs, path, 0444, render_numa_file, ctx,
				 TREE_ARG(numa, kind)) ? 0 : -ENOMEM;
}

static int
add_numa_node(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, unsigned int numa)
{
	const struct ksim_cpu *cpu = &ctx->prof->cpu;
	unsigned int total = ksim_cpu_count(cpu);
	char dir[64], path[96], target[64];
	struct ksim_cpuset set;

	snprintf(dir, sizeof(dir), NODE_DIR "/node%u", numa);
	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
	/* The kernel creates the cpuM links after its attribute files. */
	if (add_numa_file(vfs, ctx, dir, "cpumap", numa, NF_CPUMAP) < 0 ||
	    add_numa_file(vfs, ctx, dir, "cpulist", numa, NF_CPULIST) < 0 ||
	    add_numa_file(vfs, ctx, dir, "meminfo", numa, NF_MEMINFO) < 0 ||
	    add_numa_file(vfs, ctx, dir, "numastat", numa, NF_NUMASTAT) < 0 ||
	    add_numa_file(vfs, ctx, dir, "distance", numa, NF_DISTANCE) < 0)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/subsystem", dir);
	if (!ksim_vfs_add_link(vfs, path, "../../../../bus/node"))
		return -ENOMEM;
	ksim_cpu_numa_set(cpu, numa, &set);
	for (unsigned int n = 0; n < total; n++) {
		if (!ksim_cpuset_has(&set, n))
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u", dir, n);
		snprintf(target, sizeof(target), "../../cpu/cpu%u", n);
		if (!ksim_vfs_add_link(vfs, path, target))
			return -ENOMEM;
	}
	return 0;
}

int
ksim_tree_numa(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx)
{
	unsigned int nodes = ksim_cpu_numa_count(&ctx->prof->cpu);
	static const struct {
		const char *name;
		enum numa_file kind;
	} files[] = {
		{ "possible", NF_ONLINE },
		{ "online", NF_ONLINE },
		{ "has_normal_memory", NF_HAS_MEMORY },
		{ "has_memory", NF_HAS_MEMORY },
		{ "has_cpu", NF_ONLINE },
	};

	if (!ksim_vfs_mkdir(vfs, NODE_DIR, true))
		return -ENOMEM;
	for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (add_numa_file(vfs, ctx, NODE_DIR, files[i].name, 0, files[i].kind) < 0)
			return -ENOMEM;
	if (!ksim_vfs_add_text(vfs, NODE_DIR "/has_generic_initiator", 0444, "\n"))
		return -ENOMEM;
	for (unsigned int i = 0; i < nodes; i++)
		if (add_numa_node(vfs, ctx, i) < 0)
			return -ENOMEM;
	return 0;
}
