/* SPDX-License-Identifier: MIT */
/*
 * The CPU side of the simulated machine, rendered from the profile's [cpu]
 * section: /sys/devices/system/cpu (online masks, per-CPU topology and
 * caches, node links) and /proc/cpuinfo. Both thunks name the CPU agent
 * after /proc/cpuinfo's model name at the APIC ID that equals the KFD
 * node's cpu_core_id_base, and read the caches of a CPU node that lists
 * none in KFD sysfs from cpuN/cache, so these files must agree with the
 * KFD topology, never with the host. The directory is owned: nothing of
 * the host's shows through.
 */
#include <errno.h>
#include <string.h>

#include "tree.h"
#include "tree_cpu.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* Debian's kernels are built with NR_CPUS=8192. */
#define KERNEL_MAX 8191

void
ksim_cpuset_clear(struct ksim_cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void
ksim_cpuset_set(struct ksim_cpuset *s, unsigned int n)
{
	if (n < KSIM_CPU_MAX)
		s->w[n / 64] |= 1ull << (n % 64);
}

bool
ksim_cpuset_has(const struct ksim_cpuset *s, unsigned int n)
{
	return n < KSIM_CPU_MAX && (s->w[n / 64] >> (n % 64) & 1);
}

/*
 * The kernel's "%*pb": 32-bit hex chunks, most significant first, comma
 * separated; the first chunk has only the digits its bits need, so the
 * width follows nr_cpu_ids (here: every CPU is possible).
 */
void
ksim_cpuset_print_mask(struct ksim_buf *out, const struct ksim_cpuset *s,
		       unsigned int nbits)
{
	unsigned int chunks, first_bits;

	if (!nbits)
		nbits = 1;
	chunks = (nbits + 31) / 32;
	first_bits = nbits % 32 ? nbits % 32 : 32;
	for (unsigned int i = chunks; i-- > 0;) {
		uint32_t v = 0;

		for (unsigned int b = 0; b < 32; b++)
			if (ksim_cpuset_has(s, i * 32 + b))
				v |= 1u << b;
		ksim_buf_printf(out, "%s%0*x", i == chunks - 1 ? "" : ",",
				i == chunks - 1 ? (int)((first_bits + 3) / 4) : 8, v);
	}
	ksim_buf_put(out, "\n", 1);
}

/* The kernel's "%*pbl": ranges "0-3,8,10-11". */
void
ksim_cpuset_print_list(struct ksim_buf *out, const struct ksim_cpuset *s,
		       unsigned int nbits)
{
	bool first = true;

	for (unsigned int i = 0; i < nbits; i++) {
		unsigned int j = i;

		if (!ksim_cpuset_has(s, i))
			continue;
		while (j + 1 < nbits && ksim_cpuset_has(s, j + 1))
			j++;
		if (j == i)
			ksim_buf_printf(out, "%s%u", first ? "" : ",", i);
		else
			ksim_buf_printf(out, "%s%u-%u", first ? "" : ",", i, j);
		first = false;
		i = j;
	}
	ksim_buf_put(out, "\n", 1);
}

/* What a per-CPU file shows. */
enum cpu_file {
	CF_PKG_ID,
	CF_DIE_ID,
	CF_CLUSTER_ID,
	CF_CORE_ID,
	CF_THREAD,		/* masks from here: core_cpus == thread_siblings */
	CF_CLUSTER,
	CF_PACKAGE,		/* core_siblings, package_cpus, die_cpus */
	CF_CACHE_LEVEL,
	CF_CACHE_TYPE,
	CF_CACHE_SIZE,
	CF_CACHE_LINE,
	CF_CACHE_WAYS,
	CF_CACHE_SETS,
	CF_CACHE_PARTS,
	CF_CACHE_SHARED,
	CF_CACHE_ID,
	CF_ONLINE,
};

/* The vnode arg of a per-CPU file: CPU, file kind, cache index, list form. */
#define CPU_ARG(cpu, kind, cache, list) \
	TREE_ARG(cpu, (kind) | (cache) << 8 | (list) << 16)

/* The cache whose instances are one per core cluster: the L2, if any. */
static int
cluster_cache(const struct ksim_cpu *cpu)
{
	for (unsigned int c = 0; c < cpu->n_caches; c++)
		if (cpu->caches[c].level == 2)
			return (int)c;
	return -1;
}

/* The logical CPUs of @n's core, cluster or package (@kind). */
static void
cpu_mask(const struct ksim_cpu *cpu, unsigned int n, enum cpu_file kind,
	 int cache, struct ksim_cpuset *set)
{
	struct ksim_cpu_pos pos;
	unsigned int lo, count;

	ksim_cpu_locate(cpu, n, &pos);
	switch (kind) {
	case CF_THREAD:
		lo = pos.core;
		count = 1;
		break;
	case CF_CACHE_SHARED:
	case CF_CLUSTER:
		if (cache < 0) {
			lo = pos.core;
			count = 1;
			break;
		}
		ksim_cpu_cache_instance(cpu, (unsigned int)cache, n, &lo);
		count = cpu->caches[cache].cores;
		break;
	default:
		lo = 0;
		count = cpu->cores_per_socket;
		break;
	}
	ksim_cpuset_clear(set);
	for (unsigned int core = lo; core < lo + count; core++)
		for (unsigned int t = 0; t < cpu->threads_per_core; t++)
			ksim_cpuset_set(set, ksim_cpu_index(cpu, pos.socket, core, t));
}

static int
render_cpu_file(const struct ksim_vnode *node, struct ksim_buf *out)
{
	const struct ksim_tree_ctx *ctx = node->priv;
	const struct ksim_cpu *cpu = &ctx->prof->cpu;
	unsigned int n = TREE_ARG_HI(node->arg), lo = TREE_ARG_LO(node->arg);
	enum cpu_file kind = lo & 0xff;
	unsigned int c = lo >> 8 & 0xff, list = lo >> 16 & 1;
	unsigned int total = ksim_cpu_count(cpu);
	const struct ksim_cpu_cache *k = &cpu->caches[c];
	struct ksim_cpuset set;
	struct ksim_cpu_pos pos;
	int cl = cluster_cache(cpu);

	ksim_cpu_locate(cpu, n, &pos);
	switch (kind) {
	case CF_PKG_ID:
		ksim_buf_printf(out, "%u\n", pos.socket);
		return 0;
	case CF_DIE_ID:
		ksim_buf_printf(out, "0\n");
		return 0;
	case CF_CLUSTER_ID:
		/* x86 clusters are the L2 domains; 65535 when none is known. */
		if (cl < 0)
			ksim_buf_printf(out, "65535\n");
		else
			ksim_buf_printf(out, "%u\n", ksim_cpu_cache_instance(cpu,
					(unsigned int)cl, n, NULL));
		return 0;
	case CF_CORE_ID:
		ksim_buf_printf(out, "%u\n", pos.core);
		return 0;
	case CF_THREAD:
	case CF_CLUSTER:
	case CF_PACKAGE:
	case CF_CACHE_SHARED:
		cpu_mask(cpu, n, kind, kind == CF_CLUSTER ? cl : (int)c, &set);
		if (list)
			ksim_cpuset_print_list(out, &set, total);
		else
			ksim_cpuset_print_mask(out, &set, total);
		return 0;
	case CF_CACHE_LEVEL:
		ksim_buf_printf(out, "%u\n", k->level);
		return 0;
	case CF_CACHE_TYPE:
		ksim_buf_printf(out, "%s\n", k->type);
		return 0;
	case CF_CACHE_SIZE:
		ksim_buf_printf(out, "%uK\n", k->size);
		return 0;
	case CF_CACHE_LINE:
		ksim_buf_printf(out, "%u\n", k->line_size);
		return 0;
	case CF_CACHE_WAYS:
		ksim_buf_printf(out, "%u\n", k->ways);
		return 0;
	case CF_CACHE_SETS:
		ksim_buf_printf(out, "%u\n", (unsigned int)((uint64_t)k->size * 1024 /
				((uint64_t)k->ways * k->line_size * k->partitions)));
		return 0;
	case CF_CACHE_PARTS:
		ksim_buf_printf(out, "%u\n", k->partitions);
		return 0;
	case CF_CACHE_ID:
		ksim_buf_printf(out, "%u\n", ksim_cpu_cache_instance(cpu, c, n, NULL));
		return 0;
	case CF_ONLINE:
		ksim_buf_printf(out, "1\n");
		return 0;
	}
	return -EINVAL;
}

/* Every CPU is possible, present and online. */
static int
render_all_cpus(const struct ksim_vnode *node, struct ksim_buf *out)
{
	const struct ksim_tree_ctx *ctx = node->priv;
	unsigned int total = ksim_cpu_count(&ctx->prof->cpu);

	if (total > 1)
		ksim_buf_printf(out, "0-%u\n", total - 1);
	else
		ksim_buf_printf(out, "0\n");
	return 0;
}

static int
add_cpu_file(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, const char *dir,
	     const char *name, uintptr_t arg)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return ksim_vfs_add_file(vfs, path, 0444, render_cpu_file, ctx, arg) ? 0 : -ENOMEM;
}

static int
add_topology(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, unsigned int n,
	     const char *cpudir)
{
	static const struct {
		const char *name;
		enum cpu_file kind;
		unsigned int list;
	} files[] = {
		{ "cluster_cpus", CF_CLUSTER, 0 },
		{ "cluster_cpus_list", CF_CLUSTER, 1 },
		{ "cluster_id", CF_CLUSTER_ID, 0 },
		{ "core_cpus", CF_THREAD, 0 },
		{ "core_cpus_list", CF_THREAD, 1 },
		{ "core_id", CF_CORE_ID, 0 },
		{ "core_siblings", CF_PACKAGE, 0 },
		{ "core_siblings_list", CF_PACKAGE, 1 },
		{ "die_cpus", CF_PACKAGE, 0 },
		{ "die_cpus_list", CF_PACKAGE, 1 },
		{ "die_id", CF_DIE_ID, 0 },
		{ "package_cpus", CF_PACKAGE, 0 },
		{ "package_cpus_list", CF_PACKAGE, 1 },
		{ "physical_package_id", CF_PKG_ID, 0 },
		{ "thread_siblings", CF_THREAD, 0 },
		{ "thread_siblings_list", CF_THREAD, 1 },
	};
	char dir[128];

	snprintf(dir, sizeof(dir), "%s/topology", cpudir);
	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
	for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (add_cpu_file(vfs, ctx, dir, files[i].name,
				 CPU_ARG(n, files[i].kind, 0, files[i].list)) < 0)
			return -ENOMEM;
	return 0;
}

/*
 * cache/indexM in CPUID leaf 4 order (the profile's). x86 shows no
 * allocation_policy or write_policy: the kernel makes those visible only
 * where firmware reports them (device tree, ACPI PPTT on arm64).
 */
static int
add_caches(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, unsigned int n,
	   const char *cpudir)
{
	static const struct {
		const char *name;
		enum cpu_file kind;
		unsigned int list;
	} files[] = {
		{ "coherency_line_size", CF_CACHE_LINE, 0 },
		{ "id", CF_CACHE_ID, 0 },
		{ "level", CF_CACHE_LEVEL, 0 },
		{ "number_of_sets", CF_CACHE_SETS, 0 },
		{ "physical_line_partition", CF_CACHE_PARTS, 0 },
		{ "shared_cpu_list", CF_CACHE_SHARED, 1 },
		{ "shared_cpu_map", CF_CACHE_SHARED, 0 },
		{ "size", CF_CACHE_SIZE, 0 },
		{ "type", CF_CACHE_TYPE, 0 },
		{ "ways_of_associativity", CF_CACHE_WAYS, 0 },
	};
	char dir[160];

	snprintf(dir, sizeof(dir), "%s/cache", cpudir);
	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
	for (unsigned int c = 0; c < ctx->prof->cpu.n_caches; c++) {
		snprintf(dir, sizeof(dir), "%s/cache/index%u", cpudir, c);
		if (!ksim_vfs_mkdir(vfs, dir, true))
			return -ENOMEM;
		for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			if (add_cpu_file(vfs, ctx, dir, files[i].name,
					 CPU_ARG(n, files[i].kind, c, files[i].list)) < 0)
				return -ENOMEM;
	}
	return 0;
}

static int
add_cpu(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, unsigned int n)
{
	char dir[64], path[96], target[64];
	struct ksim_cpu_pos pos;
	int ret;

	ksim_cpu_locate(&ctx->prof->cpu, n, &pos);
	snprintf(dir, sizeof(dir), CPU_DIR "/cpu%u", n);
	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
	/* x86 kernels from 6.5 cannot take CPU 0 offline: no online file. */
	if (n && (ret = add_cpu_file(vfs, ctx, dir, "online", CPU_ARG(n, CF_ONLINE, 0, 0))) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/node%u", dir, pos.numa);
	snprintf(target, sizeof(target), "../../node/node%u", pos.numa);
	if (!ksim_vfs_add_link(vfs, path, target))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/subsystem", dir);
	if (!ksim_vfs_add_link(vfs, path, "../../../../bus/cpu"))
		return -ENOMEM;
	if ((ret = add_topology(vfs, ctx, n, dir)) < 0)
		return ret;
	return add_caches(vfs, ctx, n, dir);
}

/* /proc/cpuinfo: one block per CPU, as arch/x86/kernel/cpu/proc.c prints. */
static int
render_cpuinfo(const struct ksim_vnode *node, struct ksim_buf *out)
{
	const struct ksim_tree_ctx *ctx = node->priv;
	const struct ksim_cpu *cpu = &ctx->prof->cpu;
	bool amd = !strcmp(cpu->vendor_id, "AuthenticAMD") ||
		   !strcmp(cpu->vendor_id, "HygonGenuine");
	unsigned int cache_kb = 0, total = ksim_cpu_count(cpu);

	/* "cache size": the L2 on AMD, the last level elsewhere. */
	for (unsigned int c = 0; c < cpu->n_caches; c++)
		if (amd ? cpu->caches[c].level == 2 :
		    cpu->caches[c].level >= 2)
			cache_kb = cpu->caches[c].size;
	for (unsigned int n = 0; n < total; n++) {
		struct ksim_cpu_pos pos;

		ksim_cpu_locate(cpu, n, &pos);
		ksim_buf_printf(out, "processor\t: %u\nvendor_id\t: %s\n"
				"cpu family\t: %u\nmodel\t\t: %u\nmodel name\t: %s\n"
				"stepping\t: %u\n", n, cpu->vendor_id, cpu->family,
				cpu->model, cpu->model_name, cpu->stepping);
		if (cpu->microcode)
			ksim_buf_printf(out, "microcode\t: 0x%x\n", cpu->microcode);
		ksim_buf_printf(out, "cpu MHz\t\t: %u.000\n", cpu->mhz);
		if (cache_kb)
			ksim_buf_printf(out, "cache size\t: %u KB\n", cache_kb);
		ksim_buf_printf(out, "physical id\t: %u\nsiblings\t: %u\n"
				"core id\t\t: %u\ncpu cores\t: %u\napicid\t\t: %u\n"
				"initial apicid\t: %u\n", pos.socket,
				cpu->cores_per_socket * cpu->threads_per_core,
				pos.core, cpu->cores_per_socket, pos.apicid, pos.apicid);
		ksim_buf_printf(out, "fpu\t\t: yes\nfpu_exception\t: yes\n"
				"cpuid level\t: %u\nwp\t\t: yes\nflags\t\t: %s\n"
				"bugs\t\t: %s\nbogomips\t: %u.00\n", cpu->cpuid_level,
				ksim_cpu_flags(cpu), amd ?
				"sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass" :
				"spectre_v1 spectre_v2 spec_store_bypass swapgs",
				cpu->mhz * 2);
		if (amd)
			ksim_buf_printf(out, "TLB size\t: 2560 4K pages\n");
		ksim_buf_printf(out, "clflush size\t: 64\ncache_alignment\t: 64\n"
				"address sizes\t: 48 bits physical, 48 bits virtual\n"
				"power management:\n\n");
	}
	return 0;
}

int
ksim_tree_cpu(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx)
{
	const struct ksim_cpu *cpu = &ctx->prof->cpu;
	unsigned int total = ksim_cpu_count(cpu);
	int ret;

	if (!ksim_vfs_mkdir(vfs, CPU_DIR, true) ||
	    !ksim_vfs_add_file(vfs, CPU_DIR "/online", 0444, render_all_cpus, ctx, 0) ||
	    !ksim_vfs_add_file(vfs, CPU_DIR "/possible", 0444, render_all_cpus, ctx, 0) ||
	    !ksim_vfs_add_file(vfs, CPU_DIR "/present", 0444, render_all_cpus, ctx, 0) ||
	    !ksim_vfs_add_text(vfs, CPU_DIR "/offline", 0444, "\n") ||
	    !ksim_vfs_add_text(vfs, CPU_DIR "/isolated", 0444, "\n"))
		return -ENOMEM;
	if ((ret = ksim_tree_add_textf(vfs, CPU_DIR "/kernel_max", "%u\n", KERNEL_MAX)) < 0 ||
	    (ret = ksim_tree_add_textf(vfs, CPU_DIR "/smt/active", "%u\n",
				       cpu->threads_per_core > 1)) < 0 ||
	    (ret = ksim_tree_add_textf(vfs, CPU_DIR "/smt/control", "%s\n",
				       cpu->threads_per_core > 1 ? "on" : "notsupported")) < 0)
		return ret;
	for (unsigned int n = 0; n < total; n++)
		if ((ret = add_cpu(vfs, ctx, n)) < 0)
			return ret;
	if (!ksim_vfs_add_file(vfs, "/proc/cpuinfo", 0444, render_cpuinfo, ctx, 0))
		return -ENOMEM;
	return ksim_tree_numa(vfs, ctx);
}
