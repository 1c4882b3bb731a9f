/* SPDX-License-Identifier: MIT */
/*
 * The CPU side of the virtual tree without preloading: what
 * /sys/devices/system/{cpu,node} and /proc/cpuinfo render to for a
 * profile's [cpu] section (mask and list formats, mask widths, per-CPU
 * topology and caches, node links, cpuinfo blocks), and that the
 * directories are entirely the profile's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ksim_profile.h"
#include "shim.h"
#include "tree.h"
#include "vdir.h"
#include "vfs_test_util.h"

/*
 * Two sockets of 20 cores x 2 threads, two NUMA nodes per socket: 80 CPUs,
 * so a mask has a 16-bit chunk and two 32-bit ones. NUMA node n starts at
 * cpu 10n, whose APIC ID is 20n.
 */
static const char profile[] =
	"[node 0]\ncpu_cores_count 20\ncpu_core_id_base 0\n"
	"[node 0 mem_bank 0]\nheap_type 0\nsize_in_bytes 17179869184\n"
	"[node 1]\ncpu_cores_count 20\ncpu_core_id_base 20\n"
	"[node 1 mem_bank 0]\nheap_type 0\nsize_in_bytes 17179869184\n"
	"[node 2]\ncpu_cores_count 20\ncpu_core_id_base 40\n"
	"[node 3]\ncpu_cores_count 20\ncpu_core_id_base 60\n"
	"[cpu]\nvendor_id GenuineIntel\nfamily 6\nmodel 143\nstepping 8\n"
	"model_name \"Test CPU 20-Core\"\nmhz 2100\nsockets 2\n"
	"cores_per_socket 20\nthreads_per_core 2\nnuma_per_socket 2\n"
	"[cpu cache 0]\nlevel 1\ntype Data\nsize 48\nways 12\nline_size 64\n"
	"[cpu cache 1]\nlevel 2\ntype Unified\nsize 2048\nways 16\nline_size 64\n"
	"[cpu cache 2]\nlevel 3\ntype Unified\nsize 16384\nways 16\nline_size 64\n"
	"cores 5\n";

static int
setup(void **state)
{
	return vt_fixture_open(state, vt_profile_parse(profile), false);
}

#define CPU "/sys/devices/system/cpu"
#define NODE "/sys/devices/system/node"

static void
test_cpu_masks(void **state)
{
	struct vt_fixture *fx = *state;

	vt_expect_text(fx->vfs, CPU "/online", "0-79\n");
	vt_expect_text(fx->vfs, CPU "/possible", "0-79\n");
	vt_expect_text(fx->vfs, CPU "/present", "0-79\n");
	vt_expect_text(fx->vfs, CPU "/offline", "\n");
	/* SMT siblings are n and n + 40 */
	vt_expect_text(fx->vfs, CPU "/cpu0/topology/thread_siblings_list", "0,40\n");
	vt_expect_text(fx->vfs, CPU "/cpu0/topology/thread_siblings", "0000,00000100,00000001\n");
	vt_expect_text(fx->vfs, CPU "/cpu40/topology/core_cpus_list", "0,40\n");
	vt_expect_text(fx->vfs, CPU "/cpu0/topology/core_siblings_list", "0-19,40-59\n");
	vt_expect_text(fx->vfs, CPU "/cpu0/topology/package_cpus", "0000,0fffff00,000fffff\n");
	vt_expect_text(fx->vfs, CPU "/cpu59/topology/die_cpus_list", "0-19,40-59\n");
	vt_expect_text(fx->vfs, CPU "/cpu41/topology/core_id", "1\n");
	vt_expect_text(fx->vfs, CPU "/cpu41/topology/physical_package_id", "0\n");
	vt_expect_text(fx->vfs, CPU "/cpu20/topology/physical_package_id", "1\n");
	vt_expect_text(fx->vfs, CPU "/cpu20/topology/core_id", "0\n");
	/* clusters are the L2 domains: one core each here */
	vt_expect_text(fx->vfs, CPU "/cpu21/topology/cluster_id", "21\n");
	vt_expect_text(fx->vfs, CPU "/cpu21/topology/cluster_cpus_list", "21,61\n");
	vt_expect_text(fx->vfs, CPU "/cpu1/online", "1\n");
}

static void
test_cpu_caches(void **state)
{
	struct vt_fixture *fx = *state;

	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index0/type", "Data\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index0/size", "48K\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index0/number_of_sets", "64\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index0/shared_cpu_list", "7,47\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/level", "3\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/size", "16384K\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/ways_of_associativity", "16\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/coherency_line_size", "64\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/physical_line_partition", "1\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/number_of_sets", "16384\n");
	/* five cores share an L3: cores 5-9 of socket 0 and their siblings */
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/shared_cpu_list", "5-9,45-49\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/shared_cpu_map",
		       "0000,0003e000,000003e0\n");
	vt_expect_text(fx->vfs, CPU "/cpu7/cache/index2/id", "1\n");
	vt_expect_text(fx->vfs, CPU "/cpu27/cache/index2/id", "5\n");
	/* x86 prints no allocation or write policy; only three caches */
	vt_expect_absent(fx->vfs, CPU "/cpu7/cache/index2/write_policy");
	vt_expect_absent(fx->vfs, CPU "/cpu7/cache/index3");
}

/* Owned directories: nothing of the host's shows through. */
static void
test_owned(void **state)
{
	struct vt_fixture *fx = *state;
	static const char *const absent[] = {
		CPU "/cpufreq", CPU "/cpu80", CPU "/cpu0/online", NODE "/node4",
		NODE "/node0/memory0", CPU "/vulnerabilities",
	};

	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		vt_expect_absent(fx->vfs, absent[i]);
	assert_true(vt_must_find(fx->vfs, CPU)->owned);
	assert_true(vt_must_find(fx->vfs, NODE)->owned);
	assert_true(vt_must_find(fx->vfs, CPU "/cpu3/cache")->owned);
}

static void
test_numa(void **state)
{
	struct vt_fixture *fx = *state;
	struct ksim_vnode *n;
	struct ksim_dir *d;
	struct dirent64 *e;
	unsigned int cpus = 0, links = 0;
	DIR *dir;
	char *text;

	vt_expect_text(fx->vfs, NODE "/online", "0-3\n");
	vt_expect_text(fx->vfs, NODE "/possible", "0-3\n");
	vt_expect_text(fx->vfs, NODE "/has_cpu", "0-3\n");
	vt_expect_text(fx->vfs, NODE "/has_memory", "0-1\n");
	vt_expect_text(fx->vfs, NODE "/node1/cpulist", "10-19,50-59\n");
	vt_expect_text(fx->vfs, NODE "/node1/cpumap", "0000,0ffc0000,000ffc00\n");
	vt_expect_text(fx->vfs, NODE "/node1/distance", "12 10 32 32\n");
	vt_expect_text(fx->vfs, NODE "/node2/distance", "32 32 10 12\n");
	text = vt_render(fx->vfs, NODE "/node1/meminfo", NULL);
	assert_true(strncmp(text, "Node 1 MemTotal:       16777216 kB\n"
			    "Node 1 MemFree:        ", 58) == 0);
	assert_non_null(strstr(text, "\nNode 1 HugePages_Surp:      0\n"));
	free(text);
	/* node links both ways, through to the CPU's caches */
	n = vt_must_find(fx->vfs, CPU "/cpu20/node2");
	(void)n;
	{
		struct ksim_lookup res;

		assert_true(ksim_vfs_lookup(fx->vfs, NULL, CPU "/cpu20/node2", KSIM_LOOKUP_NOFOLLOW,
					    &res));
		assert_int_equal(res.node->type, KSIM_V_LINK);
		assert_string_equal(res.node->target, "../../node/node2");
		assert_true(ksim_vfs_lookup(fx->vfs, NULL, NODE "/node1/cpu50", KSIM_LOOKUP_NOFOLLOW,
					    &res));
		assert_string_equal(res.node->target, "../../cpu/cpu50");
	}
	vt_expect_text(fx->vfs, NODE "/node1/cpu50/cache/index1/shared_cpu_list", "10,50\n");
	vt_expect_text(fx->vfs, NODE "/node1/cpu50/topology/core_id", "10\n");
	/*
	 * AMD's thunk sizes its table by the entries named cpu* (cpulist and
	 * cpumap too) and walks the cpuN ones: 20 here.
	 */
	dir = ksim_vdir_open(vt_must_find(fx->vfs, NODE "/node1"), -1);
	assert_non_null(dir);
	d = ksim_vdir_find(dir);
	while ((e = ksim_vdir_read(d)) != NULL) {
		if (strncmp(e->d_name, "cpu", 3))
			continue;
		cpus++;
		if (e->d_name[3] >= '0' && e->d_name[3] <= '9') {
			links++;
			assert_int_equal(e->d_type, DT_LNK);
		}
	}
	ksim_vdir_close(d);
	assert_int_equal(cpus, 22);
	assert_int_equal(links, 20);
}

static void
test_cpuinfo(void **state)
{
	struct vt_fixture *fx = *state;
	char *text = vt_render(fx->vfs, "/proc/cpuinfo", NULL), *b;
	unsigned int blocks = 0;

	for (char *p = text; (p = strstr(p, "processor\t: ")); p++)
		blocks++;
	assert_int_equal(blocks, 80);
	static const char block41[] =
		"processor\t: 41\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
		"model\t\t: 143\nmodel name\t: Test CPU 20-Core\nstepping\t: 8\n"
		"cpu MHz\t\t: 2100.000\ncache size\t: 16384 KB\nphysical id\t: 0\n"
		"siblings\t: 40\ncore id\t\t: 1\ncpu cores\t: 20\napicid\t\t: 3\n"
		"initial apicid\t: 3\nfpu\t\t: yes\n";
	static const char flags[] =
		"\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge "
		"mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx lm ";

	b = strstr(text, "processor\t: 41\n");
	assert_non_null(b);
	if (strncmp(b, block41, strlen(block41)))
		fail_msg("cpu 41:\n%.400s\nwant:\n%s", b, block41);
	/* node 2's first CPU carries its cpu_core_id_base */
	b = strstr(text, "processor\t: 20\n");
	assert_non_null(b);
	assert_non_null(strstr(b, "apicid\t\t: 40\n"));
	/* the flags advertise no instruction beyond the x86-64 baseline */
	b = strstr(text, "\nflags\t\t: ");
	assert_non_null(b);
	assert_true(strncmp(b, flags, strlen(flags)) == 0);
	assert_null(strstr(text, "avx"));
	assert_null(strstr(text, "sse4"));
	/* blocks end with an empty line */
	assert_non_null(strstr(text, "power management:\n\nprocessor\t: 1\n"));
	free(text);
}

/* A one-CPU machine: the smallest mask and list. */
static void
test_single_cpu(void **state)
{
	static const char one[] =
		"[node 0]\ncpu_cores_count 1\n[cpu]\nvendor_id AuthenticAMD\n"
		"model_name \"One\"\ncores_per_socket 1\n";
	struct ksim_profile *p = ksim_profile_parse(one, strlen(one), "one", NULL);
	struct ksim_vfs *vfs;
	char *text;

	(void)state;
	assert_non_null(p);
	vfs = ksim_tree_build(p, 19);
	assert_non_null(vfs);
	vt_expect_text(vfs, CPU "/online", "0\n");
	vt_expect_text(vfs, NODE "/node0/cpumap", "1\n");
	vt_expect_text(vfs, NODE "/node0/cpulist", "0\n");
	text = vt_render(vfs, "/proc/cpuinfo", NULL);
	/* no "ht": one logical CPU per package */
	assert_non_null(strstr(text, " sse2 syscall "));
	assert_null(strstr(text, "cache size"));
	free(text);
	ksim_vfs_free(vfs);
	ksim_profile_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_masks),
		cmocka_unit_test(test_cpu_caches),
		cmocka_unit_test(test_owned),
		cmocka_unit_test(test_numa),
		cmocka_unit_test(test_cpuinfo),
		cmocka_unit_test(test_single_cpu),
	};

	return cmocka_run_group_tests(tests, setup, vt_fixture_close);
}
