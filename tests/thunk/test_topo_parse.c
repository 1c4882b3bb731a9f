/* SPDX-License-Identifier: MIT */
/*
 * The topology parsers (thunk/topology/topo_*.c, topology.c) on sysfs trees made
 * up in a temporary directory: the kernel's formats, dense renumbering,
 * indirect links, CPU caches from /sys/devices/system, and malformed
 * content, which must give an error status and never crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "topology/topo.h"

static char root[256];		/* .../topology */
static char sysroot[256];	/* .../system (stands in for /sys/devices/system) */
static char cpuinfo[256];

static void
mkdirs(const char *path)
{
	char tmp[512], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	mkdir(tmp, 0755);
}

static void
put(const char *base, const char *rel, const char *text)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
rm_rf(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static const char cpu_props[] =
	"cpu_cores_count 2\nsimd_count 0\nmem_banks_count 1\ncaches_count 0\n"
	"io_links_count 2\ncpu_core_id_base 0\nsimd_id_base 0\n"
	"max_engine_clk_ccompute 3000\n";

/* A GPU node; @p2p adds the p2p_links_count key. */
static void
put_gpu(int n, const char *gpu_id, const char *device, const char *gfx, int minor, bool p2p)
{
	char rel[128], text[1024];

	snprintf(rel, sizeof(rel), "nodes/%d/gpu_id", n);
	put(root, rel, gpu_id);
	snprintf(text, sizeof(text),
		 "cpu_cores_count 0\nsimd_count 416\nmem_banks_count 1\ncaches_count 1\n"
		 "io_links_count 1\n%ssimd_id_base 2147487744\nmax_waves_per_simd 8\n"
		 "lds_size_in_kb 64\nwave_front_size 64\narray_count 8\nsimd_arrays_per_engine 1\n"
		 "cu_per_simd_array 16\nsimd_per_cu 4\nmax_slots_scratch_cu 32\n"
		 "gfx_target_version %s\nvendor_id 4098\ndevice_id %s\nlocation_id 768\n"
		 "domain 0\ndrm_render_minor %d\nhive_id 0\nnum_sdma_engines 2\n"
		 "num_sdma_xgmi_engines 3\nnum_sdma_queues_per_engine 8\nnum_cp_queues 24\n"
		 "max_engine_clk_fcompute 1700\nlocal_mem_size 0\nfw_version 78\n"
		 "capability 750232192\ndebug_prop 1494\nsdma_fw_version 8\n"
		 "unique_id 7325621451234567890\nnum_xcc 1\nmax_engine_clk_ccompute 3000\n",
		 p2p ? "p2p_links_count 0\n" : "", gfx, device, minor);
	snprintf(rel, sizeof(rel), "nodes/%d/properties", n);
	put(root, rel, text);
	snprintf(rel, sizeof(rel), "nodes/%d/mem_banks/0/properties", n);
	put(root, rel, "heap_type 1\nsize_in_bytes 68702699520\nflags 0\nwidth 4096\nmem_clk_max 1600\n");
	snprintf(rel, sizeof(rel), "nodes/%d/caches/0/properties", n);
	put(root, rel, "processor_id_low 2147487744\nlevel 1\nsize 16\ncache_line_size 64\n"
		       "cache_lines_per_tag 0\nassociation 0\nlatency 0\ntype 9\n"
		       "sibling_map 1,0,1,0\n");
	snprintf(rel, sizeof(rel), "nodes/%d/io_links/0/properties", n);
	snprintf(text, sizeof(text),
		 "type 2\nversion_major 0\nversion_minor 0\nnode_from %d\nnode_to 0\nweight 20\n"
		 "min_latency 0\nmax_latency 0\nmin_bandwidth 312\nmax_bandwidth 32000\n"
		 "recommended_transfer_size 0\nflags 1\n", n);
	put(root, rel, text);
}

static void
put_cpu_link(int k, int to)
{
	char rel[64], text[512];

	snprintf(rel, sizeof(rel), "nodes/0/io_links/%d/properties", k);
	snprintf(text, sizeof(text),
		 "type 2\nversion_major 0\nversion_minor 0\nnode_from 0\nnode_to %d\nweight 20\n"
		 "min_latency 0\nmax_latency 0\nmin_bandwidth 312\nmax_bandwidth 32000\n"
		 "recommended_transfer_size 0\nflags 3\n", to);
	put(root, rel, text);
}

/* CPU node 0, two GPUs (one in the gfx table, one only by gfx_target_version). */
static void
make_tree(bool p2p)
{
	put(root, "generation_id", "2\n");
	put(root, "system_properties", "platform_oem 123\nplatform_id 456\nplatform_rev 7\n");
	put(root, "nodes/0/gpu_id", "0\n");
	put(root, "nodes/0/properties", cpu_props);
	put(root, "nodes/0/mem_banks/0/properties",
	    "heap_type 0\nsize_in_bytes 270088859648\nflags 0\nwidth 64\nmem_clk_max 3200\n");
	put_cpu_link(0, 1);
	put_cpu_link(1, 2);
	put_gpu(1, "43794\n", "29711", "90010", 128, p2p);	/* 0x740f: Aldebaran */
	put_gpu(2, "1234\n", "4660", "110000", 129, p2p);	/* 0x1234: not in the table */

	/* CPUs: two processors, an L1 each and a shared L2; no NUMA dir. */
	put(sysroot, "cpu/cpu0/cache/index0/shared_cpu_list", "0\n");
	put(sysroot, "cpu/cpu0/cache/index0/level", "1\n");
	put(sysroot, "cpu/cpu0/cache/index0/type", "Data\n");
	put(sysroot, "cpu/cpu0/cache/index0/size", "48K\n");
	put(sysroot, "cpu/cpu0/cache/index0/coherency_line_size", "64\n");
	put(sysroot, "cpu/cpu0/cache/index0/ways_of_associativity", "12\n");
	put(sysroot, "cpu/cpu0/cache/index0/physical_line_partition", "1\n");
	put(sysroot, "cpu/cpu0/cache/index0/shared_cpu_map", "00000001\n");
	put(sysroot, "cpu/cpu0/cache/index1/shared_cpu_list", "0-1\n");
	put(sysroot, "cpu/cpu0/cache/index1/level", "2\n");
	put(sysroot, "cpu/cpu0/cache/index1/type", "Unified\n");
	put(sysroot, "cpu/cpu0/cache/index1/size", "2M\n");
	put(sysroot, "cpu/cpu0/cache/index1/shared_cpu_map", "00000003\n");
	put(sysroot, "cpu/cpu1/cache/index0/shared_cpu_list", "1\n");
	put(sysroot, "cpu/cpu1/cache/index0/level", "1\n");
	put(sysroot, "cpu/cpu1/cache/index0/type", "Instruction\n");
	put(sysroot, "cpu/cpu1/cache/index0/size", "32K\n");
	put(sysroot, "cpu/cpu1/cache/index0/shared_cpu_map", "00000002\n");
	put(sysroot, "cpu/cpu1/cache/index1/shared_cpu_list", "0-1\n");
	put(sysroot, "cpu/cpu1/cache/index1/level", "2\n");
	put(sysroot, "cpu/online", "0-1\n");
}

static int
setup(void **state)
{
	char base[] = "/tmp/kmt-topo-XXXXXX";
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(root, sizeof(root), "%s/topology", base);
	snprintf(sysroot, sizeof(sysroot), "%s/system", base);
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", base);
	mkdirs(root);
	mkdirs(sysroot);
	f = fopen(cpuinfo, "w");
	assert_non_null(f);
	fputs("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: Test CPU 9000\n"
	      "apicid\t\t: 0\n\nprocessor\t: 1\nmodel name\t: Test CPU 9000\napicid\t\t: 2\n", f);
	fclose(f);
	return 0;
}

static int
teardown(void **state)
{
	char base[256];

	(void)state;
	snprintf(base, sizeof(base), "%s", root);
	*strrchr(base, '/') = '\0';
	rm_rf(base);
	return 0;
}

static void
count_pair(void *arg, const char *name, unsigned long long v)
{
	unsigned long long *sum = arg;

	(void)name;
	*sum += v;
}

static void
test_parse_props_stops_at_bad_lines(void **state)
{
	unsigned long long sum = 0;
	const char *rest;

	(void)state;
	assert_int_equal(kmt_sysfs_parse_props("a 1\nb 22\n", count_pair, &sum, NULL), 2);
	assert_int_equal(sum, 23);
	/* Parsing stops at the first line that is not "name <unsigned>". */
	assert_int_equal(kmt_sysfs_parse_props("a 1\nbad line\nc 3\n", count_pair, &sum, &rest), 1);
	assert_string_equal(rest, "bad line\nc 3\n");
	assert_int_equal(kmt_sysfs_parse_props("a -5\n", count_pair, &sum, NULL), 0);
	assert_int_equal(kmt_sysfs_parse_props("a 5z\n", count_pair, &sum, NULL), 0);
	assert_int_equal(kmt_sysfs_parse_props("a 99999999999999999999\n", count_pair, &sum, NULL), 0);
	assert_int_equal(kmt_sysfs_parse_props("a\n", count_pair, &sum, NULL), 0);
	assert_int_equal(kmt_sysfs_parse_props(
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1\n",
		count_pair, &sum, NULL), 0);
	assert_int_equal(kmt_sysfs_parse_props("", count_pair, &sum, NULL), 0);
	/* Largest u64 is fine. */
	sum = 0;
	assert_int_equal(kmt_sysfs_parse_props("x 18446744073709551615", count_pair, &sum, NULL), 1);
	assert_true(sum == ~0ULL);
}

static void
test_read_u32(void **state)
{
	char path[300];
	uint32_t v = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/u32", root);
	put(root, "u32", "4096\n");
	assert_int_equal(kmt_sysfs_read_u32(path, &v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(v, 4096);
	put(root, "u32", "abc\n");
	assert_int_equal(kmt_sysfs_read_u32(path, &v), HSAKMT_STATUS_ERROR);
	put(root, "u32", "");
	assert_int_equal(kmt_sysfs_read_u32(path, &v), HSAKMT_STATUS_ERROR);
	put(root, "u32", "4294967296\n");
	assert_int_equal(kmt_sysfs_read_u32(path, &v), HSAKMT_STATUS_ERROR);
	put(root, "u32", "12 13\n");
	assert_int_equal(kmt_sysfs_read_u32(path, &v), HSAKMT_STATUS_ERROR);
	snprintf(path, sizeof(path), "%s/missing", root);
	assert_int_equal(kmt_sysfs_read_u32(path, &v), HSAKMT_STATUS_ERROR);
}

static void
test_full_tree(void **state)
{
	struct kmt_topology *t;
	const struct kmt_topo_node *cpu, *g1, *g2;
	char name[HSA_PUBLIC_NAME_SIZE] = {0};
	uint32_t i;

	(void)state;
	make_tree(false);
	assert_int_equal(kmt_topo_build(root, cpuinfo, sysroot, false, true, &t),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(t->n_nodes, 3);
	assert_int_equal(t->sys.NumNodes, 3);
	assert_int_equal(t->sys.PlatformOem, 123);
	assert_int_equal(t->sys.PlatformId, 456);
	assert_int_equal(t->generation, 2);
	cpu = &t->nodes[0];
	g1 = &t->nodes[1];
	g2 = &t->nodes[2];

	/* CPU node: name from cpuinfo, caches from the cpu tree, in bytes. */
	for (i = 0; i < HSA_PUBLIC_NAME_SIZE && cpu->props.MarketingName[i]; i++)
		name[i] = (char)cpu->props.MarketingName[i];
	assert_string_equal(name, "Test CPU 9000");
	assert_string_equal((const char *)cpu->props.AMDName, "Test CPU 9000");
	assert_int_equal(cpu->props.NumCaches, 3);
	for (i = 0; i < 3; i++) {
		const HsaCacheProperties *c = &cpu->caches[i];

		assert_true(c->CacheType.ui32.CPU);
		if (c->CacheLevel == 2) {
			/* Listed once, under processor 0; shared by APIC ids 0 and 2. */
			assert_int_equal(c->CacheSize, 2u << 20);
			assert_int_equal(c->ProcessorIdLow, 0);
			assert_int_equal(c->SiblingMap[0], 1);
			assert_int_equal(c->SiblingMap[2], 1);
			assert_true(c->CacheType.ui32.Data && c->CacheType.ui32.Instruction);
		} else if (c->CacheType.ui32.Data) {
			assert_int_equal(c->CacheSize, 48 << 10);
			assert_int_equal(c->CacheAssociativity, 12);
		} else {
			assert_true(c->CacheType.ui32.Instruction);
			assert_int_equal(c->ProcessorIdLow, 2);
			assert_int_equal(c->SiblingMap[2], 1);
		}
	}

	/* GPU from the device table: its code name and gfx 9.0.10. */
	assert_int_equal(g1->gpu_id, 43794);
	assert_int_equal(g1->props.EngineId.ui32.Major, 9);
	assert_int_equal(g1->props.EngineId.ui32.Minor, 0);
	assert_int_equal(g1->props.EngineId.ui32.Stepping, 10);
	assert_int_equal(g1->props.EngineId.ui32.uCode, 78);
	assert_string_equal((const char *)g1->props.AMDName, "Aldebaran");
	assert_int_equal(g1->props.VGPRSizePerCU, 0x80000);
	assert_int_equal(g1->props.NumCaches, 1);
	assert_int_equal(g1->caches[0].SiblingMap[2], 1);
	assert_int_equal(g1->caches[0].SiblingMap[1], 0);
	assert_int_equal(g1->props.UniqueID, 7325621451234567890ULL);
	/* GPU known only by gfx_target_version. */
	assert_int_equal(g2->props.EngineId.ui32.Major, 11);
	assert_string_equal((const char *)g2->props.AMDName, "GFX0b0000");
	assert_int_equal(g2->props.VGPRSizePerCU, 0x60000);

	/* No p2p_links_count key: the GPUs reach each other through the CPU. */
	assert_int_equal(g1->props.NumIOLinks, 2);
	assert_int_equal(g1->links[0].NodeTo, 0);
	assert_int_equal(g1->links[1].NodeFrom, 1);
	assert_int_equal(g1->links[1].NodeTo, 2);
	assert_int_equal(g1->links[1].Weight, 40);
	assert_int_equal(g1->links[1].IoLinkType, HSA_IOLINKTYPE_PCIEXPRESS);
	assert_int_equal(g2->links[1].NodeTo, 1);
	assert_int_equal(cpu->props.NumIOLinks, 2);
	kmt_topo_free(t);

	/* With the key (even 0), the kernel reports every path itself. */
	make_tree(true);
	assert_int_equal(kmt_topo_build(root, cpuinfo, sysroot, false, true, &t),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(t->nodes[1].props.NumIOLinks, 1);
	assert_int_equal(t->nodes[2].props.NumIOLinks, 1);
	kmt_topo_free(t);
}

/* Each case breaks one file; the build must fail cleanly. */
static void
test_malformed_trees(void **state)
{
	static const struct {
		const char *rel, *text;
	} cases[] = {
		{ "nodes/1/properties", "garbage\n" },
		{ "nodes/1/properties", "" },
		{ "nodes/1/gpu_id", "forty-two\n" },
		{ "nodes/1/gpu_id", "99999999999\n" },
		{ "nodes/0/properties", "cpu_cores_count 2\nmem_banks_count 100000000\n" },
		{ "nodes/0/properties", "cpu_cores_count 2\nio_links_count 4000000000\n" },
		{ "nodes/1/mem_banks/0/properties", "heap_type one\n" },
		{ "nodes/1/caches/0/properties", "oops\n" },
		{ "nodes/1/io_links/0/properties", "type 2\nnode_from 2\nnode_to 0\n" },
		{ "system_properties", "not a property list" },
		{ "generation_id", "x\n" },
		/* A GPU whose gfx version cannot be told. */
		{ "nodes/2/properties", "cpu_cores_count 0\nsimd_count 8\ndevice_id 4660\n"
					"drm_render_minor 129\n" },
	};
	struct kmt_topology *t;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_tree(true);
		put(root, cases[i].rel, cases[i].text);
		t = (struct kmt_topology *)&t;
		assert_int_not_equal(kmt_topo_build(root, cpuinfo, sysroot, false, true, &t),
				     HSAKMT_STATUS_SUCCESS);
		assert_null(t);
	}
	/* Missing pieces. */
	make_tree(true);
	rm_rf(root);
	assert_int_equal(kmt_topo_build(root, cpuinfo, sysroot, false, true, &t),
			 HSAKMT_STATUS_ERROR);
	make_tree(true);
	{
		char path[300];

		snprintf(path, sizeof(path), "%s/nodes/1/mem_banks", root);
		rm_rf(path);
	}
	assert_int_equal(kmt_topo_build(root, cpuinfo, sysroot, false, true, &t),
			 HSAKMT_STATUS_ERROR);
}

/* A CPU node with no cache anywhere: only the API snapshot insists. */
static void
test_cpu_node_without_caches(void **state)
{
	char path[300];
	struct kmt_topology *t;

	(void)state;
	make_tree(true);
	snprintf(path, sizeof(path), "%s/cpu", sysroot);
	rm_rf(path);
	assert_int_equal(kmt_topo_build(root, cpuinfo, sysroot, false, true, &t),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(kmt_topo_build(root, cpuinfo, sysroot, false, false, &t),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(t->nodes[0].props.NumCaches, 0);
	kmt_topo_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_props_stops_at_bad_lines),
		cmocka_unit_test(test_read_u32),
		cmocka_unit_test(test_full_tree),
		cmocka_unit_test(test_malformed_trees),
		cmocka_unit_test(test_cpu_node_without_caches),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
