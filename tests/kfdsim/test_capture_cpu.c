/* SPDX-License-Identifier: MIT */
/*
 * `kfdtrace sim --save-profile`'s CPU half on hosts that are not the
 * simulator: a synthetic two-socket Intel machine's /proc/cpuinfo and
 * sysfs (in a scratch directory) become a [cpu] section that the parser
 * accepts next to matching KFD CPU nodes; an ARM cpuinfo gives none.
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

#include "capture_priv.h"
#include "ksim_profile.h"

static void
put_file(const char *root, const char *rel, const char *text)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	/* mkdir -p of the parent */
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", dir, strerror(errno));
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Two sockets of 2 cores x 2 threads, Intel's numbering. */
static void
make_intel(const char *root)
{
	static const char *const caches[][3] = {
		{ "1", "Data", "48K" }, { "1", "Instruction", "32K" },
		{ "2", "Unified", "1280K" }, { "3", "Unified", "54M" },
	};
	char block[1024], text[8192] = "", rel[128];

	for (unsigned int cpu = 0; cpu < 8; cpu++) {
		snprintf(block, sizeof(block),
			 "processor\t: %u\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
			 "model\t\t: 106\nmodel name\t: Intel(R) Xeon(R) \"Gold\" 6338 CPU @ 2.00GHz\n"
			 "stepping\t: 6\nmicrocode\t: 0xd0003a5\ncpu MHz\t\t: 2300.112\n"
			 "cache size\t: 55296 KB\nphysical id\t: %u\nsiblings\t: 4\n"
			 "core id\t\t: %u\ncpu cores\t: 2\napicid\t\t: %u\n"
			 "initial apicid\t: %u\nfpu\t\t: yes\ncpuid level\t: 27\n"
			 "flags\t\t: fpu sse sse2 avx2 avx512f\n\n",
			 cpu, cpu / 2 % 2, cpu % 2, cpu, cpu);
		strcat(text, block);
	}
	put_file(root, "proc/cpuinfo", text);
	put_file(root, "sys/devices/system/node/node0/cpulist", "0-1,4-5\n");
	put_file(root, "sys/devices/system/node/node1/cpulist", "2-3,6-7\n");
	put_file(root, "sys/devices/system/node/online", "0-1\n");
	for (unsigned int i = 0; i < 4; i++) {
#define IDX(f) (snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%u/" f, i), rel)
		put_file(root, IDX("level"), caches[i][0]);
		put_file(root, IDX("type"), caches[i][1]);
		put_file(root, IDX("size"), caches[i][2]);
		put_file(root, IDX("ways_of_associativity"), i == 3 ? "12\n" : "8\n");
		put_file(root, IDX("coherency_line_size"), "64\n");
		put_file(root, IDX("physical_line_partition"), "1\n");
		put_file(root, IDX("shared_cpu_list"), i == 3 ? "0-1,4-5\n" : "0,4\n");
#undef IDX
	}
}

static void
test_capture_intel(void **state)
{
	char root[] = "/tmp/kfdsim-capcpu-XXXXXX", *err = NULL, cmd[600];
	static const char nodes[] =
		"[node 0]\ncpu_cores_count 4\ncpu_core_id_base 0\n"
		"[node 1]\ncpu_cores_count 4\ncpu_core_id_base 4\n";
	struct cap_text t = { 0 };
	struct ksim_profile *p;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_intel(root);
	assert_int_equal(cap_cpu(&t, root), 0);
	assert_false(t.failed);
	text = malloc(strlen(nodes) + t.len + 1);
	assert_non_null(text);
	strcpy(text, nodes);
	strcat(text, t.data);
	p = ksim_profile_parse(text, strlen(text), "captured", &err);
	if (!p)
		fail_msg("%s\n%s", err, text);
	assert_false(p->cpu.derived);
	assert_string_equal(p->cpu.vendor_id, "GenuineIntel");
	/* the format has no escape: quotes become apostrophes */
	assert_string_equal(p->cpu.model_name, "Intel(R) Xeon(R) 'Gold' 6338 CPU @ 2.00GHz");
	assert_int_equal(p->cpu.family, 6);
	assert_int_equal(p->cpu.model, 106);
	assert_int_equal(p->cpu.stepping, 6);
	assert_int_equal(p->cpu.microcode, 0xd0003a5);
	assert_int_equal(p->cpu.mhz, 2300);
	assert_int_equal(p->cpu.cpuid_level, 27);
	assert_int_equal(p->cpu.sockets, 2);
	assert_int_equal(p->cpu.cores_per_socket, 2);
	assert_int_equal(p->cpu.threads_per_core, 2);
	assert_int_equal(p->cpu.numa_per_socket, 1);
	/* the host's flags stay behind: the baseline applies */
	assert_string_equal(p->cpu.flags, "");
	assert_int_equal(p->cpu.n_caches, 4);
	assert_string_equal(p->cpu.caches[1].type, "Instruction");
	assert_int_equal(p->cpu.caches[0].size, 48);
	assert_int_equal(p->cpu.caches[0].cores, 1);
	assert_int_equal(p->cpu.caches[2].size, 1280);
	assert_int_equal(p->cpu.caches[3].size, 54 * 1024);
	assert_int_equal(p->cpu.caches[3].ways, 12);
	assert_int_equal(p->cpu.caches[3].cores, 2);
	ksim_profile_free(p);
	free(text);
	free(t.data);

	/* an ARM cpuinfo: no [cpu] section, the profile derives its CPUs */
	put_file(root, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\n"
		 "CPU implementer\t: 0x41\n\n");
	memset(&t, 0, sizeof(t));
	assert_int_equal(cap_cpu(&t, root), -1);
	free(t.data);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_intel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
