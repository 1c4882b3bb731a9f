/* SPDX-License-Identifier: MIT */
/*
 * The shim's virtual tree without preloading anything: what the topology
 * files of a profile render to (compared byte for byte with the kernel's
 * text from the sysfs reference), path resolution (pass-through, symlinks,
 * physical "..", errors) and directory listings.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "ksim_profile.h"
#include "shim.h"
#include "tree.h"
#include "tc_text.h"
#include "vdir.h"
#include "vfs_test_util.h"

static int
setup(void **state)
{
	return vt_fixture_open(state, vt_profile_load("refmi210.profile"), true);
}

/* The file @path of the tree byte for byte as the data file @expected_file. */
static void
check_render(struct ksim_vfs *vfs, const char *path, const char *expected_file)
{
	char file[512], *want, *got;
	size_t wlen = 0, glen = 0;

	snprintf(file, sizeof(file), "%s/%s", vt_data_dir(), expected_file);
	want = tc_read_file(file, &wlen);
	assert_non_null(want);
	got = vt_render(vfs, path, &glen);
	if (glen != wlen || memcmp(want, got, wlen) != 0)
		fail_msg("%s differs from %s:\n--- got ---\n%s\n--- want ---\n%s", path, file,
			 got, want);
	free(want);
	free(got);
}

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"

/* Every kind of topology file, against the kernel's text. */
static void
test_render_topology(void **state)
{
	struct vt_fixture *fx = *state;

	check_render(fx->vfs, TOPO "/system_properties", "ref-system_properties");
	check_render(fx->vfs, TOPO "/nodes/0/properties", "ref-node0.properties");
	check_render(fx->vfs, TOPO "/nodes/1/properties", "ref-node1.properties");
	check_render(fx->vfs, TOPO "/nodes/0/mem_banks/0/properties",
		     "ref-node0-membank0.properties");
	check_render(fx->vfs, TOPO "/nodes/1/mem_banks/0/properties",
		     "ref-node1-membank0.properties");
	check_render(fx->vfs, TOPO "/nodes/1/caches/0/properties", "ref-node1-cache0.properties");
	check_render(fx->vfs, TOPO "/nodes/0/io_links/0/properties",
		     "ref-node0-iolink0.properties");
	check_render(fx->vfs, TOPO "/nodes/1/io_links/0/properties",
		     "ref-node1-iolink0.properties");
	/* the /sys/class/kfd alias shows the same files */
	check_render(fx->vfs, "/sys/class/kfd/kfd/topology/nodes/1/properties",
		     "ref-node1.properties");
}

/* recommended_sdma_engine_id_mask exists from KFD 1.17 on. */
static void
test_render_abi_gating(void **state)
{
	struct vt_fixture *fx = *state;

	check_render(fx->vfs11, TOPO "/nodes/1/io_links/0/properties",
		     "ref-node1-iolink0-abi11.properties");
}

static void
test_render_small_files(void **state)
{
	struct vt_fixture *fx = *state;

	vt_expect_text(fx->vfs, TOPO "/generation_id", "2\n");
	vt_expect_text(fx->vfs, TOPO "/nodes/0/gpu_id", "0\n");
	vt_expect_text(fx->vfs, TOPO "/nodes/0/name", "\n");
	vt_expect_text(fx->vfs, TOPO "/nodes/1/gpu_id", "43794\n");
	vt_expect_text(fx->vfs, TOPO "/nodes/1/name", "aldebaran\n");
	/* what libdrm parses for the PCI identity */
	vt_expect_text(fx->vfs, "/sys/dev/char/226:128/device/vendor", "0x1002\n");
	vt_expect_text(fx->vfs, "/sys/dev/char/226:128/device/device", "0x740f\n");
	vt_expect_text(fx->vfs, "/sys/dev/char/226:128/device/subsystem_vendor", "0x1002\n");
	vt_expect_text(fx->vfs, "/sys/dev/char/226:128/device/subsystem_device", "0x0c34\n");
	vt_expect_text(fx->vfs, "/sys/dev/char/226:128/device/revision", "0x02\n");
	vt_expect_text(fx->vfs, "/sys/dev/char/226:128/uevent",
		       "MAJOR=226\nMINOR=128\nDEVNAME=dri/renderD128\n");
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/refcnt", "0\n");
	/* module parameters kfdtest reads, as amdgpu prints them */
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/parameters/cwsr_enable", "1\n");
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/parameters/emu_mode", "0\n");
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/parameters/sched_policy", "0\n");
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/parameters/noretry", "-1\n");
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/parameters/hws_gws_support", "N\n");
	vt_expect_text(fx->vfs, "/sys/module/amdgpu/parameters/ras_mask", "4294967295\n");
}

static void
test_render_pci_config(void **state)
{
	struct vt_fixture *fx = *state;
	struct ksim_vnode *n = vt_must_find(fx->vfs, "/sys/bus/pci/devices/0000:03:00.0/config");
	unsigned char cfg[256];
	int fd = ksim_vfs_materialize(n, 0);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, cfg, sizeof(cfg)), 256);
	close(fd);
	assert_int_equal(cfg[0] | cfg[1] << 8, 0x1002);
	assert_int_equal(cfg[2] | cfg[3] << 8, 0x740f);
	assert_int_equal(cfg[8], 0x02);
	assert_int_equal(cfg[44] | cfg[45] << 8, 0x1002);
	assert_int_equal(cfg[46] | cfg[47] << 8, 0x0c34);
}

/*
 * A GPU's numa_node: on a machine of several CPU nodes, the one its first
 * link leads to (mi300x8: GPUs 0-3 on socket 0, 4-7 on socket 1); with
 * one CPU node, -1.
 */
static void
test_render_numa_node(void **state)
{
	struct vt_fixture *fx = *state;
	struct ksim_profile *p = ksim_profile_builtin("mi300x8");
	struct ksim_vfs *vfs;

	vt_expect_text(fx->vfs, "/sys/bus/pci/devices/0000:03:00.0/numa_node", "-1\n");
	assert_non_null(p);
	vfs = vt_tree_build(p, 19);
	assert_non_null(vfs);
	vt_expect_text(vfs, "/sys/bus/pci/devices/0000:0c:00.0/numa_node", "0\n");
	vt_expect_text(vfs, "/sys/bus/pci/devices/0000:5c:00.0/numa_node", "0\n");
	vt_expect_text(vfs, "/sys/bus/pci/devices/0000:9f:00.0/numa_node", "1\n");
	vt_expect_text(vfs, "/sys/bus/pci/devices/0000:df:00.0/numa_node", "1\n");
	ksim_vfs_free(vfs);
	ksim_profile_free(p);
}

/*
 * RAS as the profile gives it: the feature mask and one error count per
 * enabled block under the PCI function; nothing on a GPU without RAS.
 */
static void
test_render_ras(void **state)
{
	struct vt_fixture *fx = *state;
	struct ksim_profile *p = ksim_profile_builtin("mi210");
	struct ksim_vfs *vfs;

#define RAS "/sys/class/drm/renderD128/device/ras/"
	assert_non_null(p);
	vfs = vt_tree_build(p, 19);
	assert_non_null(vfs);
	vt_expect_text(vfs, RAS "features", "feature mask: 0xef\n");
	vt_expect_text(vfs, RAS "umc_err_count", "ue: 0\nce: 0\n");
	vt_expect_text(vfs, RAS "gfx_err_count", "ue: 0\nce: 0\n");
	vt_expect_text(vfs, RAS "xgmi_wafl_err_count", "ue: 0\nce: 0\n");
	vt_expect_text(vfs, RAS "gpu_vram_bad_pages", "%s", "");
	vt_expect_absent(vfs, RAS "athub_err_count");	/* bit 4 is off */
	ksim_vfs_free(vfs);
	ksim_profile_free(p);
	/* the reference profile names no RAS features */
	vt_expect_absent(fx->vfs, RAS "features");
#undef RAS
}

/* Paths that are not ours are left to libc untouched. */
static void
test_lookup_passthrough(void **state)
{
	struct vt_fixture *fx = *state;
	static const char *const paths[] = {
		"/etc/passwd", "/dev/null", "/dev", "/sys/kernel/mm", "/proc/self/maps",
		"/proc/meminfo", "/sys/devices/system/memory", "/", "relative/path",
		"/sys/class/net", "/tmp",
	};
	struct ksim_lookup res;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		bool ours = ksim_vfs_lookup(fx->vfs, NULL, paths[i], 0, &res);

		/* a directory that only gains entries resolves to its node */
		if (ours) {
			assert_non_null(res.node);
			assert_false(res.node->owned);
			assert_int_equal(res.node->type, KSIM_V_DIR);
		}
	}
	assert_false(ksim_vfs_lookup(fx->vfs, NULL, "/etc/passwd", 0, &res));
	assert_false(ksim_vfs_lookup(fx->vfs, NULL, "/dev/null", 0, &res));
	assert_false(ksim_vfs_lookup(fx->vfs, NULL, "/proc/self/maps", 0, &res));
	assert_false(ksim_vfs_lookup(fx->vfs, NULL, "relative/path", 0, &res));
	assert_false(ksim_path_candidate("/etc/passwd"));
	assert_false(ksim_path_candidate("relative/dev/kfd"));
	assert_true(ksim_path_candidate("//dev/kfd"));
}

static void
test_lookup_errors(void **state)
{
	struct vt_fixture *fx = *state;

	vt_expect_error(fx->vfs, TOPO "/nodes/2", 0, -ENOENT);
	vt_expect_error(fx->vfs, TOPO "/nodes/1/properties/", 0, -ENOTDIR);
	vt_expect_error(fx->vfs, TOPO "/nodes/1/properties/x", 0, -ENOTDIR);
	vt_expect_error(fx->vfs, "/dev/dri/renderD129", 0, -ENOENT);
	vt_expect_error(fx->vfs, "/dev/dri/card0", 0, -ENOENT);
	vt_expect_error(fx->vfs, "/dev/kfd/x", 0, -ENOTDIR);
}

static void
test_lookup_loop(void **state)
{
	struct ksim_vfs *vfs = ksim_vfs_new();

	assert_non_null(vfs);
	assert_non_null(ksim_vfs_mkdir(vfs, "/sys/loop", true));
	assert_non_null(ksim_vfs_add_link(vfs, "/sys/loop/a", "b"));
	assert_non_null(ksim_vfs_add_link(vfs, "/sys/loop/b", "/sys/loop/a"));
	vt_expect_error(vfs, "/sys/loop/a", 0, -ELOOP);
	/* not following the last link is no loop */
	{
		struct ksim_lookup res;

		assert_true(ksim_vfs_lookup(vfs, NULL, "/sys/loop/a", KSIM_LOOKUP_NOFOLLOW, &res));
		assert_int_equal(res.error, 0);
		assert_int_equal(res.node->type, KSIM_V_LINK);
		assert_string_equal(res.node->target, "b");
	}
	/* a duplicate name is refused, not shadowed */
	assert_null(ksim_vfs_add_link(vfs, "/sys/loop/a", "c"));
	ksim_vfs_free(vfs);
}

static void
test_lookup_symlinks(void **state)
{
	struct vt_fixture *fx = *state;
	struct ksim_lookup res;
	char path[512];

	/* the link itself */
	assert_true(ksim_vfs_lookup(fx->vfs, NULL, "/sys/class/kfd/kfd", KSIM_LOOKUP_NOFOLLOW,
				    &res));
	assert_int_equal(res.node->type, KSIM_V_LINK);
	assert_string_equal(res.node->target, "../../devices/virtual/kfd/kfd");

	/* what realpath() answers for libdrm's get_pci_path() */
	ksim_vfs_path(vt_must_find(fx->vfs, "/sys/dev/char/226:128/device"), path, sizeof(path));
	assert_string_equal(path, "/sys/devices/pci0000:00/0000:03:00.0");
	ksim_vfs_path(vt_must_find(fx->vfs, "/sys/dev/char/226:128"), path, sizeof(path));
	assert_string_equal(path, "/sys/devices/pci0000:00/0000:03:00.0/drm/renderD128");
	ksim_vfs_path(vt_must_find(fx->vfs, "/sys/class/drm/renderD128/device/drm/renderD128"),
		      path, sizeof(path));
	assert_string_equal(path, "/sys/devices/pci0000:00/0000:03:00.0/drm/renderD128");

	/* drmNodeIsDRM() stats this */
	assert_int_equal(vt_must_find(fx->vfs, "/sys/dev/char/226:128/device/drm")->type,
			 KSIM_V_DIR);

	/* leaving the tree through a link lands in the real file system */
	assert_true(ksim_vfs_lookup(fx->vfs, NULL,
				    "/sys/dev/char/226:128/device/subsystem/drivers", 0, &res));
	assert_true(res.redirect);
	assert_string_equal(res.real, "/sys/bus/pci/drivers");

	/* ".." after a link is physical: 226:128/.. is .../drm, not /sys/dev/char */
	vt_expect_error(fx->vfs, "/sys/dev/char/226:128/../226:128/dev", 0, -ENOENT);
	ksim_vfs_path(vt_must_find(fx->vfs, "/sys/dev/char/226:128/../renderD128/dev"), path,
		      sizeof(path));
	assert_string_equal(path, "/sys/devices/pci0000:00/0000:03:00.0/drm/renderD128/dev");
	/* repeated slashes and "." */
	ksim_vfs_path(vt_must_find(fx->vfs, "//sys/./class//kfd/kfd/./topology/"), path,
		      sizeof(path));
	assert_string_equal(path, TOPO);
}

static void
test_device_nodes(void **state)
{
	struct vt_fixture *fx = *state;
	struct ksim_vnode *n;
	struct stat st;

	n = vt_must_find(fx->vfs, "/dev/kfd");
	assert_int_equal(n->type, KSIM_V_CHR);
	assert_int_equal(n->devkind, KSIM_DEV_KFD);
	ksim_vfs_stat(n, &st);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(major(st.st_rdev), KSIM_KFD_MAJOR);
	assert_int_equal(minor(st.st_rdev), 0);

	n = vt_must_find(fx->vfs, "/dev/dri/renderD128");
	assert_int_equal(n->devkind, KSIM_DEV_RENDER);
	ksim_vfs_stat(n, &st);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(major(st.st_rdev), 226);
	assert_int_equal(minor(st.st_rdev), 128);

	ksim_vfs_stat(vt_must_find(fx->vfs, TOPO "/nodes/1/properties"), &st);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0444);
	assert_int_equal(st.st_size, 4096);
}

static void
expect_listing(struct ksim_vfs *vfs, const char *path, const char *const *names, size_t n)
{
	struct ksim_dir *d;
	struct dirent64 *e;
	size_t seen = 0;
	DIR *dir;

	dir = ksim_vdir_open(vt_must_find(vfs, path), -1);
	assert_non_null(dir);
	d = ksim_vdir_find(dir);
	assert_non_null(d);
	while ((e = ksim_vdir_read(d)) != NULL) {
		assert_true(seen < n);
		assert_string_equal(e->d_name, names[seen]);
		seen++;
	}
	assert_int_equal(seen, n);
	/* rewind starts over, tell/seek come back to a position */
	ksim_vdir_rewind(d);
	assert_non_null(ksim_vdir_read(d));
	long pos = ksim_vdir_tell(d);
	ksim_vdir_read(d);
	ksim_vdir_seek(d, pos);
	assert_int_equal(ksim_vdir_tell(d), pos);
	ksim_vdir_close(d);
	assert_null(ksim_vdir_find(dir));
}

static void
test_listings(void **state)
{
	struct vt_fixture *fx = *state;
	static const char *const nodes[] = { ".", "..", "0", "1" };
	static const char *const dri[] = { ".", "..", "renderD128" };
	static const char *const node1[] = {
		".", "..", "gpu_id", "name", "properties", "mem_banks", "caches", "io_links",
		"p2p_links",
	};

	expect_listing(fx->vfs, TOPO "/nodes", nodes, 4);
	expect_listing(fx->vfs, "/dev/dri", dri, 3);
	expect_listing(fx->vfs, TOPO "/nodes/1", node1, 9);
}

/* /proc/modules keeps the real lines (if any) and gains amdgpu. */
static void
test_proc_modules(void **state)
{
	struct vt_fixture *fx = *state;
	char *text = vt_render(fx->vfs, "/proc/modules", NULL);

	assert_non_null(strstr(text, "amdgpu "));
	assert_non_null(strstr(text, " Live 0x"));
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_topology),
		cmocka_unit_test(test_render_abi_gating),
		cmocka_unit_test(test_render_small_files),
		cmocka_unit_test(test_render_pci_config),
		cmocka_unit_test(test_render_numa_node),
		cmocka_unit_test(test_lookup_passthrough),
		cmocka_unit_test(test_lookup_errors),
		cmocka_unit_test(test_lookup_loop),
		cmocka_unit_test(test_lookup_symlinks),
		cmocka_unit_test(test_device_nodes),
		cmocka_unit_test(test_listings),
		cmocka_unit_test(test_proc_modules),
		cmocka_unit_test(test_render_ras),
	};

	return cmocka_run_group_tests(tests, setup, vt_fixture_close);
}
