/* SPDX-License-Identifier: MIT */
/* Profiles: builtins parse, save/load round-trips, sysfs text, and
 * malformed input gives a line-numbered error instead of a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktest.h"

static char *
save_to_string(const struct ksim_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ksim_profile_save(p, f), 0);
	fclose(f);
	return buf;
}

static void
test_builtins_parse(void **state)
{
	unsigned int n = 0;
	const char *const *names = ksim_profile_builtin_names(&n);

	(void)state;
	assert_int_equal(n, 6);
	assert_string_equal(names[0], "mi210");
	for (unsigned int i = 0; i < n; i++) {
		char *err = NULL;
		const char *text = ksim_profile_builtin_text(names[i]);
		struct ksim_profile *p;

		assert_non_null(text);
		p = ksim_profile_parse(text, strlen(text), names[i], &err);
		if (!p)
			fail_msg("%s: %s", names[i], err);
		assert_string_equal(p->name, names[i]);
		assert_int_equal(ksim_profile_validate(p, NULL), 0);
		ksim_profile_free(p);
	}
	assert_null(ksim_profile_builtin("no-such-gpu"));
	assert_null(ksim_profile_builtin_text("no-such-gpu"));
}

static void
test_builtin_facts(void **state)
{
	static const struct {
		const char *name;
		uint32_t device_id;
		uint64_t gfx;
		unsigned int gpus;
	} want[] = {
		{ "mi210", 0x740f, 90010, 1 },
		{ "mi100", 0x738c, 90008, 1 },
		{ "rx6900xt", 0x73bf, 100300, 1 },
		{ "mi300x", 0x74a1, 90402, 1 },
		{ "mi210x2", 0x740f, 90010, 2 },
	};

	(void)state;
	for (unsigned int i = 0; i < 5; i++) {
		struct ksim_profile *p = ksim_profile_builtin(want[i].name);
		unsigned int gpus = 0;

		assert_non_null(p);
		for (unsigned int n = 0; n < p->n_nodes; n++) {
			const struct ksim_node *nd = &p->nodes[n];

			if (!ksim_node_is_gpu(nd))
				continue;
			gpus++;
			assert_int_equal(nd->drm->device_id, want[i].device_id);
			assert_int_equal(nd->props[KSIM_NP_DEVICE_ID], want[i].device_id);
			assert_int_equal(nd->props[KSIM_NP_GFX_TARGET_VERSION], want[i].gfx);
			assert_int_equal(nd->props[KSIM_NP_CACHES_COUNT], nd->n_caches);
			assert_true(nd->n_caches > 0);
		}
		assert_int_equal(gpus, want[i].gpus);
		ksim_profile_free(p);
	}
}

/* The MI210 example of the semantics reference: derived CWSR sizes. */
static void
test_mi210_example_b(void **state)
{
	struct ksim_profile *p = ksim_profile_builtin(NULL);
	const struct ksim_node *n;

	(void)state;
	assert_non_null(p);
	assert_string_equal(p->name, "mi210");
	n = &p->nodes[1];
	assert_int_equal(n->gpu_id, 43794);
	assert_string_equal(n->name, "aldebaran");
	assert_int_equal(n->props[KSIM_NP_SIMD_COUNT], 416);
	assert_int_equal(n->props[KSIM_NP_CWSR_SIZE], 63508480);
	assert_int_equal(n->props[KSIM_NP_CTL_STACK_SIZE], 36864);
	assert_int_equal(n->props[KSIM_NP_CAPABILITY], 0x2CB7A280);
	assert_int_equal(n->props[KSIM_NP_CACHES_COUNT], 217);
	assert_int_equal(n->gpu->cwsr_size, 63508480);
	assert_int_equal(n->gpu->debug_memory_size, 131072);
	assert_int_equal(n->mem_banks[0].size_in_bytes, 68702699520ULL);
	ksim_profile_free(p);
}

static void
test_round_trip(void **state)
{
	unsigned int n = 0;
	const char *const *names = ksim_profile_builtin_names(&n);

	(void)state;
	for (unsigned int i = 0; i < n; i++) {
		struct ksim_profile *a = ksim_profile_builtin(names[i]);
		struct ksim_profile *b, *c;
		char *err = NULL, *text = save_to_string(a), *text2;

		b = ksim_profile_parse(text, strlen(text), "saved", &err);
		if (!b)
			fail_msg("%s: reparse: %s", names[i], err);
		assert_true(ksim_profile_equal(a, b));
		/* and the writer is stable */
		text2 = save_to_string(b);
		assert_string_equal(text, text2);
		/*
		 * repeat runs stay compact: one section per run of caches, a
		 * few KiB a node (a node's caches written one by one are tens)
		 */
		assert_true(strlen(text) < 8000 * a->n_nodes);
		c = ksim_profile_dup(b);
		assert_true(ksim_profile_equal(a, c));
		c->nodes[c->n_nodes - 1].caches[0].level++;
		assert_false(ksim_profile_equal(a, c));
		ksim_profile_free(a);
		ksim_profile_free(b);
		ksim_profile_free(c);
		free(text);
		free(text2);
	}
}

static void
test_load_file(void **state)
{
	char path[] = "/tmp/ksim-profile-XXXXXX";
	int fd = mkstemp(path);
	struct ksim_profile *a = ksim_profile_builtin("mi210x2"), *b;
	char *err = NULL;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(ksim_profile_save(a, f), 0);
	fclose(f);
	b = ksim_profile_load(path, &err);
	assert_non_null(b);
	assert_true(ksim_profile_equal(a, b));
	ksim_profile_free(b);
	unlink(path);
	/* a missing file that names a builtin loads the builtin */
	b = ksim_profile_load("rx6900xt", &err);
	assert_non_null(b);
	ksim_profile_free(b);
	b = ksim_profile_load("/nonexistent/x.profile", &err);
	assert_null(b);
	assert_non_null(strstr(err, "/nonexistent/x.profile"));
	free(err);
	ksim_profile_free(a);
}

/* Each malformed input, and the line the error must name. */
static void
test_malformed(void **state)
{
	static const struct {
		const char *text;
		const char *expect;
	} cases[] = {
		{ "[machine]\nname x\n[node 0]\ngpu_id 0\nbogus_key 1\n", ":5: unknown node property 'bogus_key'" },
		{ "[machine]\nplatform_id 12x\n", ":2: platform_id: '12x' is not" },
		{ "[node 1]\n", ":1: expected [node 0]" },
		{ "[node 0]\n[node 0 mem_bank 1]\n", ":2: expected mem_bank 0" },
		{ "key 1\n", ":1: key 'key' outside any section" },
		{ "[node 0]\ncpu_cores_count\n", ":2: key 'cpu_cores_count' has no value" },
		{ "[node 0\n", ":1: section header without ']'" },
		{ "[gizmo]\n", ":1: unknown section 'gizmo'" },
		{ "[node 0]\n[node 0 widget 0]\n", ":2: unknown section kind 'widget'" },
		{ "[node 0]\nname \"abc\n", ":2: name: unterminated quoted string" },
		{ "[node 0]\ncaches_count 3\n", ":1: node 0: caches_count is 3 but 0" },
		{ "[node 0]\ngpu_id 0\nsimd_count 1\nsimd_count 2\n", ":4: duplicate key 'simd_count'" },
		{ "[node 0]\n[node 0 cache 0]\nsibling_map 1,2\n", ":3: sibling_map: bad list element '2'" },
		{ "[node 0]\n[node 0 cache 0]\nrepeat 0\n", "repeat must be at least 1" },
		{ "[node 0]\n[node 0 cache 0]\nrepeat 99999\n", ":3: repeat: 99999 is out of range" },
		{ "[node 0]\n[node 0 io_link 0]\nnode_from 0\nnode_to 7\n", "bad node_to 7" },
		{ "[node 0]\ngpu_id 5\n", "needs" },
		{ "[machine]\n", ":1: no [node 0] section" },
		{ "", "no [node 0] section" },
		{ "[node 0]\n[node 0 drm]\n", "CPU node (gpu_id 0) has gpu/drm" },
		{ "[node 0]\n[node 0 mem_bank 0]\nsize_in_bytes 99999999999999999999999\n", ":3: size_in_bytes: '99999999999999999999999' is not" },
		{ "[node 0]\n[node 0 mem_bank 0]\nwidth 4294967296\n", ":3: width: 4294967296 is out of range" },
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err = NULL;
		struct ksim_profile *p = ksim_profile_parse(cases[i].text,
			strlen(cases[i].text), "bad.profile", &err);

		assert_null(p);
		assert_non_null(err);
		if (!strstr(err, cases[i].expect))
			fail_msg("case %u: got '%s', want '%s'", i, err, cases[i].expect);
		assert_non_null(strstr(err, "bad.profile"));
		free(err);
	}
}

/* Every prefix and a flipped-byte variant of a real profile: no crash,
 * either a profile or an error. */
static void
test_truncated_and_garbled(void **state)
{
	const char *text = ksim_profile_builtin_text("mi210x2");
	size_t len = strlen(text);
	char *copy = malloc(len);
	unsigned int ok = 0, bad = 0;

	(void)state;
	assert_non_null(copy);
	for (size_t cut = 0; cut < len; cut += 97) {
		char *err = NULL;
		struct ksim_profile *p = ksim_profile_parse(text, cut, "cut", &err);

		if (p)
			ok++;
		else {
			assert_non_null(err);
			bad++;
		}
		ksim_profile_free(p);
		free(err);
	}
	srand(7);
	for (unsigned int i = 0; i < 300; i++) {
		char *err = NULL;
		struct ksim_profile *p;

		memcpy(copy, text, len);
		for (int k = 0; k < 4; k++)
			copy[rand() % len] = (char)(rand() % 256);
		p = ksim_profile_parse(copy, len, "garbled", &err);
		if (!p)
			assert_non_null(err);
		ksim_profile_free(p);
		free(err);
	}
	assert_true(bad > 0);
	free(copy);
	(void)ok;
}

/* A CPU node of 8 CPUs at APIC ID 0, then whatever CPU text follows. */
#define CPU_NODE0 "[node 0]\ncpu_cores_count 8\ncpu_core_id_base 0\n"
#define CPU_OK "[cpu]\nvendor_id AuthenticAMD\nmodel_name \"X\"\nsockets 1\n" \
	"cores_per_socket 4\nthreads_per_core 2\n"

/* A [cpu] section that contradicts the KFD nodes names the line and key. */
static void
test_cpu_malformed(void **state)
{
	static const struct {
		const char *text;
		const char *expect;
	} cases[] = {
		/* 4 cores x 1 thread: node 0's 8 CPUs are too many */
		{ CPU_NODE0 "[cpu]\nvendor_id AuthenticAMD\nmodel_name X\n"
		  "cores_per_socket 4\n", ":2: cpu_cores_count: node 0: cpu_cores_count 8, but NUMA node 0" },
		{ "[node 0]\ncpu_cores_count 8\ncpu_core_id_base 3\n" CPU_OK,
		  ":3: cpu_core_id_base: node 0: cpu_core_id_base 3, but the first CPU" },
		/* two CPU nodes, one NUMA node */
		{ CPU_NODE0 "[node 1]\ncpu_cores_count 8\ncpu_core_id_base 8\n" CPU_OK,
		  ":4: node 1: a CPU node beyond the 1 NUMA nodes" },
		/* two NUMA nodes, one CPU node */
		{ CPU_NODE0 "[cpu]\nvendor_id AuthenticAMD\nmodel_name X\nsockets 2\n"
		  "cores_per_socket 4\nthreads_per_core 2\n", ":7: sockets: cpu: 2 NUMA nodes" },
		/* NUMA node 1 starts at cpu4 = APIC ID 8 with SMT */
		{ CPU_NODE0 "[node 1]\ncpu_cores_count 8\ncpu_core_id_base 4\n"
		  "[cpu]\nvendor_id AuthenticAMD\nmodel_name X\nsockets 2\n"
		  "cores_per_socket 4\nthreads_per_core 2\n", ":6: cpu_core_id_base: node 1: cpu_core_id_base 4, but the first CPU of NUMA node 1 (cpu4) has APIC ID 8" },
		{ CPU_NODE0 CPU_OK "numa_per_socket 3\n", ":10: numa_per_socket: cpu: numa_per_socket 3 does not divide" },
		{ CPU_NODE0 CPU_OK "[cpu cache 0]\nlevel 1\ntype Data\nsize 32\nways 8\n"
		  "line_size 64\ncores 3\n", ":16: cores: cpu cache 0: cores 3 does not divide" },
		{ CPU_NODE0 CPU_OK "[cpu cache 0]\nlevel 1\ntype Both\nsize 32\nways 8\n"
		  "line_size 64\n", ":12: type: cpu cache 0: type 'Both'" },
		{ CPU_NODE0 CPU_OK "[cpu cache 0]\nlevel 1\ntype Data\nsize 1\nways 32\n"
		  "line_size 64\n", ":13: size: cpu cache 0: size 1 KiB" },
		{ CPU_NODE0 CPU_OK "[cpu cache 1]\n", ":10: expected cpu cache 0" },
		{ CPU_NODE0 "[cpu cache 0]\n", ":4: [cpu cache 0] before [cpu]" },
		{ CPU_NODE0 CPU_OK "[cpu]\n", ":10: duplicate [cpu]" },
		{ CPU_NODE0 CPU_OK "gadget 1\n", ":10: unknown cpu key 'gadget'" },
		{ CPU_NODE0 "[cpu]\nvendor_id AuthenticAMD\ncores_per_socket 4\n"
		  "threads_per_core 2\n", ":4: model_name: cpu: model_name is empty" },
		{ CPU_NODE0 "[cpu]\nvendor_id AuthenticAMD\nmodel_name X\n"
		  "cores_per_socket 4\nthreads_per_core 9\n", ":8: threads_per_core: cpu: threads_per_core must be 1..8" },
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err = NULL;
		struct ksim_profile *p = ksim_profile_parse(cases[i].text,
			strlen(cases[i].text), "bad.profile", &err);

		if (p)
			fail_msg("case %u: parsed, want '%s'", i, cases[i].expect);
		assert_non_null(err);
		if (!strstr(err, cases[i].expect))
			fail_msg("case %u: got '%s', want '%s'", i, err, cases[i].expect);
		free(err);
	}
}

/* The CPU side: numbering, APIC IDs, cache sharing, the derived default. */
static void
test_cpu_side(void **state)
{
	const char *text = CPU_NODE0 "[node 1]\ncpu_cores_count 8\ncpu_core_id_base 8\n"
		"[cpu]\nvendor_id AuthenticAMD\nmodel_name X\nsockets 2\n"
		"cores_per_socket 4\nthreads_per_core 2\n"
		"[cpu cache 0]\nlevel 3\ntype Unified\nsize 16384\nways 16\n"
		"line_size 64\ncores 2\n";
	struct ksim_profile *p = ksim_profile_parse(text, strlen(text), "ok", NULL), *d;
	struct ksim_cpu_pos pos;
	unsigned int first;
	char *saved;

	(void)state;
	assert_non_null(p);
	assert_int_equal(ksim_cpu_count(&p->cpu), 16);
	assert_int_equal(ksim_cpu_numa_count(&p->cpu), 2);
	assert_int_equal(p->cpu.caches[0].partitions, 1);	/* the default */
	/* cpu5: thread 0 of socket 1's core 1; cpu13 is its sibling */
	ksim_cpu_locate(&p->cpu, 5, &pos);
	assert_int_equal(pos.socket, 1);
	assert_int_equal(pos.core, 1);
	assert_int_equal(pos.thread, 0);
	assert_int_equal(pos.numa, 1);
	assert_int_equal(pos.apicid, 10);
	ksim_cpu_locate(&p->cpu, 13, &pos);
	assert_int_equal(pos.thread, 1);
	assert_int_equal(pos.apicid, 11);
	assert_int_equal(ksim_cpu_index(&p->cpu, 1, 1, 1), 13);
	/* the L3 pairs cores: cpu7 (socket 1 core 3) uses instance 3 */
	assert_int_equal(ksim_cpu_cache_instance(&p->cpu, 0, 7, &first), 3);
	assert_int_equal(first, 2);
	assert_non_null(strstr(ksim_cpu_flags(&p->cpu), " sse2 ht syscall "));
	assert_null(strstr(ksim_cpu_flags(&p->cpu), "avx"));
	saved = save_to_string(p);
	assert_non_null(strstr(saved, "\n[cpu]\nvendor_id \"AuthenticAMD\"\n"));
	assert_non_null(strstr(saved, "\n[cpu cache 0]\nlevel 3\n"));
	free(saved);
	ksim_profile_free(p);

	/* Without [cpu]: one socket per CPU node, nothing written back. */
	text = CPU_NODE0 "[node 1]\ncpu_cores_count 8\ncpu_core_id_base 8\n";
	d = ksim_profile_parse(text, strlen(text), "derived", NULL);
	assert_non_null(d);
	assert_true(d->cpu.derived);
	assert_int_equal(d->cpu.sockets, 2);
	assert_int_equal(d->cpu.cores_per_socket, 8);
	assert_int_equal(d->cpu.threads_per_core, 1);
	assert_int_equal(ksim_cpu_count(&d->cpu), 16);
	assert_non_null(strstr(ksim_cpu_flags(&d->cpu), " sse2 ht "));
	saved = save_to_string(d);
	assert_null(strstr(saved, "[cpu"));
	free(saved);
	ksim_profile_free(d);

	/* The builtins' CPU sides agree with their KFD CPU nodes. */
	p = ksim_profile_builtin("mi300x");
	assert_non_null(p);
	assert_false(p->cpu.derived);
	assert_int_equal(ksim_cpu_count(&p->cpu), 192);
	assert_string_equal(p->cpu.model_name, "AMD EPYC 9654 96-Core Processor");
	ksim_profile_free(p);
	p = ksim_profile_builtin("mi210");
	assert_int_equal(ksim_cpu_count(&p->cpu), p->nodes[0].props[KSIM_NP_CPU_CORES_COUNT]);
	assert_int_equal(p->cpu.threads_per_core, 2);
	/* an in-memory edit that breaks the agreement is refused */
	p->cpu.threads_per_core = 1;
	assert_int_equal(ksim_profile_validate(p, NULL), -22);
	ksim_profile_free(p);
}

static void
test_format(void **state)
{
	struct ksim_profile *p = ksim_profile_builtin("mi210");
	char buf[4096], small[16];
	int n;

	(void)state;
	n = ksim_format_node_properties(p, 0, 0, buf, sizeof(buf));
	assert_true(n > 0 && (size_t)n < sizeof(buf));
	/* CPU nodes print no GPU-only keys */
	assert_null(strstr(buf, "fw_version"));
	assert_non_null(strstr(buf, "cpu_cores_count 32\n"));
	assert_true(strncmp(buf, "cpu_cores_count 32\nsimd_count 0\n", 31) == 0);
	n = ksim_format_node_properties(p, 1, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\ngfx_target_version 90010\n"));
	assert_non_null(strstr(buf, "num_cp_queues 24\ncwsr_size 63508480\n"
				    "ctl_stack_size 36864\nmax_engine_clk_fcompute"));
	assert_non_null(strstr(buf, "unique_id 7325621451234567890\nnum_xcc 1\n"
				    "max_engine_clk_ccompute 3000\n"));
	/* the thunk reads properties with one fread of at most a page */
	assert_true(n < 4096);
	/* snprintf semantics: full length returned, output truncated */
	assert_int_equal(ksim_format_node_properties(p, 1, 0, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(ksim_format_node_properties(p, 9, 0, buf, sizeof(buf)), -22);
	ksim_format_mem_bank(p, 1, 0, buf, sizeof(buf));
	assert_string_equal(buf, "heap_type 1\nsize_in_bytes 68702699520\nflags 0\n"
			    "width 4096\nmem_clk_max 1600\n");
	ksim_format_io_link(p, 1, 0, 0, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "recommended_transfer_size 0\n"
				    "recommended_sdma_engine_id_mask 3\nflags 1\n"));
	ksim_format_io_link(p, 1, 0, 0, 16, buf, sizeof(buf));
	assert_null(strstr(buf, "recommended_sdma_engine_id_mask"));
	ksim_format_cache(p, 1, 104, buf, sizeof(buf));
	assert_non_null(strstr(buf, "type 10\nsibling_map 1,1,0,"));
	assert_int_equal(ksim_format_cache(p, 1, 217, buf, sizeof(buf)), -22);
	ksim_format_system_properties(p, buf, sizeof(buf));
	assert_string_equal(buf, "platform_oem 2314885706915061825\n"
			    "platform_id 71791775140929\nplatform_rev 2\n");
	assert_int_equal(ksim_profile_gpu_node(p, 43794), 1);
	assert_int_equal(ksim_profile_gpu_node(p, 0), -1);
	assert_int_equal(ksim_profile_render_node(p, 128), 1);
	assert_int_equal(ksim_profile_render_node(p, 129), -1);
	ksim_profile_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins_parse),
		cmocka_unit_test(test_builtin_facts),
		cmocka_unit_test(test_mi210_example_b),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_truncated_and_garbled),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_cpu_malformed),
		cmocka_unit_test(test_cpu_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
