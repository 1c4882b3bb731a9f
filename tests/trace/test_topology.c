/* SPDX-License-Identifier: MIT */
/*
 * kt_topo_parse(): a two-GPU machine as sysfs shows it, and hostile file
 * sets (huge indexes, overflowing numbers, missing newlines, NULL data,
 * data that is not NUL-terminated). kt_topo_snapshot() and
 * kt_topo_read_live(): a tree on disk read whole (sorted) and as parsed.
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

#include "kfdtrace/topology.h"

#define ROOT "/sys/devices/virtual/kfd/kfd/topology/nodes/"

struct files {
	struct kt_topo_file f[64];
	uint32_t n;
};

/* A file of @len bytes at @data (which need not hold that many). */
static void
add_n(struct files *fs, const char *path, const char *data, uint32_t len)
{
	assert_true(fs->n < 64);
	fs->f[fs->n].path = path;
	fs->f[fs->n].data = (const uint8_t *)data;
	fs->f[fs->n].len = len;
	fs->n++;
}

static void
add(struct files *fs, const char *path, const char *data)
{
	add_n(fs, path, data, (uint32_t)strlen(data));
}

static const char gpu_props[] =
	"cpu_cores_count 0\nsimd_count 416\nsimd_per_cu 4\n"
	"gfx_target_version 90010\nvendor_id 4098\ndevice_id 29711\n"
	"location_id 768\ndomain 1\ndrm_render_minor 128\nnum_xcc 1\n";

static void
machine(struct files *fs)
{
	/* A CPU node 0 and two GPUs on one xGMI hive, any path prefix. */
	add(fs, ROOT "0/gpu_id", "0\n");
	add(fs, ROOT "0/name", "\n");
	add(fs, ROOT "0/properties", "cpu_cores_count 16\nsimd_count 0\n");
	add(fs, ROOT "0/mem_banks/0/properties",
	    "heap_type 0\nsize_in_bytes 68719476736\n");
	add(fs, ROOT "0/io_links/0/properties",
	    "type 2\nnode_from 0\nnode_to 1\nweight 20\nmax_bandwidth 0\n");
	add(fs, ROOT "1/gpu_id", "23868\n");
	add(fs, ROOT "1/name", "aldebaran\n");
	add(fs, ROOT "1/properties", gpu_props);
	add(fs, ROOT "1/mem_banks/0/properties",
	    "heap_type 1\nsize_in_bytes 68702699520\n");
	add(fs, ROOT "1/mem_banks/1/properties",
	    "heap_type 2\nsize_in_bytes 16777216\n");
	add(fs, ROOT "1/io_links/0/properties",
	    "type 2\nnode_from 1\nnode_to 0\nweight 20\n");
	add(fs, ROOT "1/io_links/1/properties",
	    "type 11\nnode_from 1\nnode_to 2\nweight 15\nmax_bandwidth 50000\n");
	add(fs, "/proc/self/root" ROOT "2/gpu_id", "43836");
	add(fs, ROOT "2/name", "aldebaran  ");
	add(fs, ROOT "2/properties",
	    "simd_count 416\nsimd_per_cu 4\ngfx_target_version 90010\n"
	    "drm_render_minor 129");
	add(fs, ROOT "2/p2p_links/0/properties",
	    "type 11\nnode_to 1\nweight 15\n");
	add(fs, ROOT "2/generation_id", "1\n");
}

static void
test_two_gpus(void **state)
{
	struct kt_topo *t = malloc(sizeof(*t));
	struct files fs = { .n = 0 };
	const struct kt_topo_node *g;
	uint64_t bytes = 0;

	(void)state;
	assert_non_null(t);
	machine(&fs);
	for (uint32_t i = 0; i < fs.n; i++)
		bytes += fs.f[i].len;
	assert_int_equal(kt_topo_parse(fs.f, fs.n, t), 0);
	assert_int_equal(t->nnodes, 3);
	assert_int_equal(t->ngpus, 2);
	assert_int_equal(t->files, fs.n);
	assert_true(t->bytes == bytes);

	assert_true(t->nodes[0].present && t->nodes[0].gpu_id == 0);
	assert_string_equal(t->nodes[0].name, "");
	assert_true(t->nodes[0].cpu_cores == 16);
	assert_true(t->nodes[0].sys_bytes == 64ull << 30);
	assert_true(t->nodes[0].vram_bytes == 0);

	g = kt_topo_gpu(t, 23868);
	assert_ptr_equal(g, &t->nodes[1]);
	assert_string_equal(g->name, "aldebaran");
	assert_true(g->simd_count == 416 && g->simd_per_cu == 4);
	assert_true(g->gfx_target_version == 90010);
	assert_true(g->vendor_id == 4098 && g->device_id == 29711);
	assert_true(g->location_id == 768 && g->domain == 1);
	assert_true(g->drm_render_minor == 128 && g->num_xcc == 1);
	assert_true(g->cpu_cores == 0);
	/* Both non-system heaps count as VRAM. */
	assert_true(g->vram_bytes == 68702699520ull + 16777216);

	/* No trailing newline anywhere; trailing blanks of the name go. */
	g = kt_topo_gpu(t, 43836);
	assert_ptr_equal(g, &t->nodes[2]);
	assert_string_equal(g->name, "aldebaran");
	assert_true(g->drm_render_minor == 129);
	assert_null(kt_topo_gpu(t, 0));
	assert_null(kt_topo_gpu(t, 1));
	assert_null(kt_topo_gpu(NULL, 23868));

	/* Links in file order; a missing node_from is the holding node. */
	assert_int_equal(t->nlinks, 4);
	assert_int_equal(t->links[0].from, 0);
	assert_int_equal(t->links[0].to, 1);
	assert_int_equal(t->links[0].weight, 20);
	assert_int_equal(t->links[2].type, 11);
	assert_int_equal(t->links[2].from, 1);
	assert_int_equal(t->links[2].to, 2);
	assert_int_equal(t->links[2].max_bandwidth, 50000);
	assert_false(t->links[2].p2p);
	assert_true(t->links[3].p2p);
	assert_int_equal(t->links[3].from, 2);
	assert_int_equal(t->links[3].to, 1);
	free(t);
}

static void
test_hostile(void **state)
{
	static const char long_name[] =
		"a-name-much-longer-than-the-sixty-three-bytes-a-node-keeps-"
		"so-it-is-cut";
	struct kt_topo *t = malloc(sizeof(*t));
	struct files fs = { .n = 0 };
	/* Data that is not NUL-terminated: the byte after len is a digit. */
	static const char gpu_id_cut[] = "12345";
	static const char props_cut[] = "simd_count 77\n";

	(void)state;
	assert_non_null(t);
	add(&fs, ROOT "99999999999999999999999/gpu_id", "1\n");
	add(&fs, ROOT "128/gpu_id", "1\n");
	add(&fs, ROOT "/gpu_id", "1\n");
	add(&fs, ROOT "x/gpu_id", "1\n");
	add(&fs, ROOT "5", "1\n");
	add(&fs, "/no/node/directory/gpu_id", "1\n");
	add(&fs, NULL, "1\n");
	/* Node 3: overflowing and out-of-range numbers are skipped. */
	add(&fs, ROOT "3/gpu_id", "4294967296\n");
	add(&fs, ROOT "3/properties",
	    "simd_count 9\nsimd_count 18446744073709551616\n"
	    "device_id 18446744073709551615\nvendor_id\nbogus\n \n"
	    "domain -1\nnum_xcc x2\nlocation_id 7");
	add(&fs, ROOT "3/mem_banks/0/properties",
	    "heap_type 1\nsize_in_bytes 18446744073709551615\n");
	add(&fs, ROOT "3/mem_banks/1/properties",
	    "heap_type 1\nsize_in_bytes 10\n");
	add(&fs, ROOT "3/mem_banks/x/properties",
	    "heap_type 0\nsize_in_bytes 10\n");
	add(&fs, ROOT "3/mem_banks/2/properties/more",
	    "heap_type 0\nsize_in_bytes 10\n");
	add(&fs, ROOT "3/io_links/0/properties",
	    "node_from 4294967296\nnode_to 99999999999999999999999\n"
	    "weight 4294967295\ntype 2");
	add(&fs, ROOT "3/name", long_name);
	/* Node 127 (the last one kept): NULL data reads as empty. */
	add_n(&fs, ROOT "127/gpu_id", NULL, 16);
	add_n(&fs, ROOT "127/properties", NULL, 100);
	add_n(&fs, ROOT "127/name", NULL, 8);
	add_n(&fs, ROOT "127/io_links/0/properties", NULL, 8);
	/* Node 4: lengths cut the data short. */
	add_n(&fs, ROOT "4/gpu_id", gpu_id_cut, 2);
	add_n(&fs, ROOT "4/properties", props_cut, 12);
	add_n(&fs, ROOT "4/name", "gfx\0ignored\n", 12);

	assert_int_equal(kt_topo_parse(fs.f, fs.n, t), 0);
	assert_int_equal(t->files, fs.n);
	assert_int_equal(t->nnodes, 128);
	assert_int_equal(t->ngpus, 1);
	for (unsigned int i = 0; i < KT_TOPO_MAX_NODES; i++)
		assert_int_equal(t->nodes[i].present,
				 i == 3 || i == 4 || i == 127);

	assert_int_equal(t->nodes[3].gpu_id, 0);
	assert_true(t->nodes[3].simd_count == 9);
	assert_true(t->nodes[3].device_id == UINT64_MAX);
	assert_true(t->nodes[3].vendor_id == 0 && t->nodes[3].domain == 0);
	assert_true(t->nodes[3].num_xcc == 0);
	assert_true(t->nodes[3].location_id == 7);
	assert_true(t->nodes[3].vram_bytes == UINT64_MAX);
	assert_true(t->nodes[3].sys_bytes == 0);
	assert_int_equal(strlen(t->nodes[3].name), 63);
	assert_memory_equal(t->nodes[3].name, long_name, 63);

	assert_int_equal(t->nodes[4].gpu_id, 12);
	assert_true(t->nodes[4].simd_count == 7);
	assert_string_equal(t->nodes[4].name, "gfx");

	assert_int_equal(t->nodes[127].gpu_id, 0);
	assert_string_equal(t->nodes[127].name, "");
	assert_true(t->nodes[127].simd_count == 0);

	/* Out-of-range link values keep their defaults. */
	assert_int_equal(t->nlinks, 2);
	assert_int_equal(t->links[0].from, 3);
	assert_int_equal(t->links[0].to, 0);
	assert_int_equal(t->links[0].weight, UINT32_MAX);
	assert_int_equal(t->links[0].type, 2);
	assert_int_equal(t->links[1].from, 127);
	assert_int_equal(t->links[1].type, 0);
	free(t);
}

static void
test_limits(void **state)
{
	uint32_t n = KT_TOPO_MAX_LINKS + 10;
	struct kt_topo_file *f = calloc(n, sizeof(*f));
	struct kt_topo *t = malloc(sizeof(*t));

	(void)state;
	assert_non_null(f);
	assert_non_null(t);
	for (uint32_t i = 0; i < n; i++) {
		f[i].path = ROOT "1/p2p_links/0/properties";
		f[i].data = (const uint8_t *)"node_to 2\n";
		f[i].len = 10;
	}
	assert_int_equal(kt_topo_parse(f, n, t), 0);
	assert_int_equal(t->nlinks, KT_TOPO_MAX_LINKS);
	assert_int_equal(t->links[KT_TOPO_MAX_LINKS - 1].to, 2);
	assert_true(t->bytes == (uint64_t)n * 10);

	/* Bad arguments: an error, and an empty topology where there is one. */
	t->nnodes = 5;
	assert_int_equal(kt_topo_parse(NULL, 3, t), -EINVAL);
	assert_int_equal(t->nnodes, 0);
	assert_int_equal(t->files, 0);
	assert_int_equal(kt_topo_parse(f, n, NULL), -EINVAL);
	t->nlinks = 5;
	assert_int_equal(kt_topo_parse(NULL, 0, t), 0);
	assert_int_equal(t->nlinks, 0);
	free(f);
	free(t);
}

/* Write @data at @root/@rel, making the directories on the way. */
static void
put(const char *root, const char *rel, const char *data)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static const char *const tree[][2] = {
	{ "generation_id", "3\n" },
	{ "system_properties", "platform_oem 0\n" },
	{ "nodes/0/gpu_id", "0\n" },
	{ "nodes/0/properties", "cpu_cores_count 16\n" },
	{ "nodes/0/caches/0/properties", "level 1\nsibling_map 1,0\n" },
	{ "nodes/0/mem_banks/0/properties", "heap_type 0\nsize_in_bytes 4096\n" },
	{ "nodes/1/gpu_id", "23868\n" },
	{ "nodes/1/name", "aldebaran\n" },
	{ "nodes/1/properties", "gfx_target_version 90010\ndevice_id 29711\n" },
	{ "nodes/1/mem_banks/0/properties", "heap_type 1\nsize_in_bytes 1073741824\n" },
	{ "nodes/1/io_links/10/properties", "type 2\nnode_from 1\nnode_to 0\n" },
	{ "nodes/1/io_links/2/properties", "type 11\nnode_from 1\nnode_to 2\n" },
	{ "nodes/1/io_links/2/extra", "x\n" },
	{ "nodes/1/p2p_links/0/properties", "type 11\nnode_to 2\n" },
	{ "nodes/x/gpu_id", "7\n" },
};
#define NTREE (sizeof(tree) / sizeof(tree[0]))

/* Whether @snap holds @rel (under @root) with its data. */
static int
holds(const struct kt_topo_snap *snap, const char *root, const char *rel,
      const char *data)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (uint32_t i = 0; i < snap->nfiles; i++)
		if (!strcmp(snap->files[i].path, path))
			return snap->files[i].len == strlen(data) &&
			       !memcmp(snap->files[i].data, data, strlen(data));
	return 0;
}

static void
test_snapshot(void **state)
{
	char root[] = "/tmp/kt-topo-snap-XXXXXX", cmd[64];
	struct kt_topo_snap snap;
	struct kt_topo *t = malloc(sizeof(*t));
	uint64_t bytes = 0;
	size_t i;

	(void)state;
	assert_non_null(t);
	assert_non_null(mkdtemp(root));
	for (i = 0; i < NTREE; i++) {
		put(root, tree[i][0], tree[i][1]);
		bytes += strlen(tree[i][1]);
	}

	/* Every file, sorted by name within each directory ("10" < "2"). */
	assert_int_equal(kt_topo_snapshot(root, 0, &snap), 0);
	assert_int_equal(snap.nfiles, NTREE);
	assert_true(snap.bytes == bytes);
	for (i = 0; i < NTREE; i++)
		assert_true(holds(&snap, root, tree[i][0], tree[i][1]));
	for (i = 1; i < snap.nfiles; i++)
		assert_true(strcmp(snap.files[i - 1].path, snap.files[i].path) < 0);
	kt_topo_snap_free(&snap);
	assert_int_equal(snap.nfiles, 0);
	assert_null(snap.files);

	/* As parsed: no caches, extras, top-level files or non-numeric nodes. */
	assert_int_equal(kt_topo_snapshot(root, KT_TOPO_SNAP_PARSED, &snap), 0);
	assert_int_equal(snap.nfiles, 10);
	assert_false(holds(&snap, root, "nodes/0/caches/0/properties", tree[4][1]));
	assert_false(holds(&snap, root, "nodes/1/io_links/2/extra", "x\n"));
	assert_false(holds(&snap, root, "generation_id", "3\n"));
	assert_false(holds(&snap, root, "nodes/x/gpu_id", "7\n"));
	assert_true(holds(&snap, root, "nodes/1/p2p_links/0/properties", tree[13][1]));
	kt_topo_snap_free(&snap);

	/* The live read is the parsed snapshot through kt_topo_parse(). */
	assert_int_equal(kt_topo_read_live(root, t), 0);
	assert_int_equal(t->nnodes, 2);
	assert_int_equal(t->ngpus, 1);
	assert_int_equal(t->files, 10);
	assert_string_equal(kt_topo_gpu(t, 23868)->name, "aldebaran");
	assert_true(t->nodes[1].vram_bytes == 1ull << 30);
	assert_true(t->nodes[0].sys_bytes == 4096);
	assert_int_equal(t->nlinks, 3);
	assert_int_equal(t->links[0].type, 2);	/* io_links/10 sorts first */
	assert_int_equal(t->links[1].type, 11);
	assert_true(t->links[2].p2p);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	/* A missing tree: an error, an empty snapshot and topology. */
	snap.nfiles = 5;
	assert_int_equal(kt_topo_snapshot(root, 0, &snap), -ENOENT);
	assert_int_equal(snap.nfiles, 0);
	t->nnodes = 5;
	assert_int_equal(kt_topo_read_live(root, t), -ENOENT);
	assert_int_equal(t->nnodes, 0);
	/* A tree without nodes/ is no live topology, but a snapshot. */
	assert_int_equal(mkdir(root, 0700), 0);
	put(root, "generation_id", "1\n");
	assert_int_equal(kt_topo_read_live(root, t), -ENOENT);
	assert_int_equal(kt_topo_snapshot(root, 0, &snap), 0);
	assert_int_equal(snap.nfiles, 1);
	kt_topo_snap_free(&snap);
	assert_int_equal(kt_topo_snapshot(NULL, 0, &snap), -EINVAL);
	assert_int_equal(kt_topo_snapshot(root, 0, NULL), -EINVAL);
	assert_int_equal(system(cmd), 0);
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_gpus),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
