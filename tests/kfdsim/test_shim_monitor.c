/* SPDX-License-Identifier: MIT */
/*
 * What monitoring tools read, without preloading: amdgpu's attributes of
 * the PCI function (mem_info_*, identity, link), the hwmon device and
 * /sys/class/kfd/kfd/proc/<pid>/, rendered from a profile and a model
 * device of this process, in the kernel's formats (bytes with a newline,
 * '*' on the current DPM level, millidegrees, microwatts, queue files
 * without a newline). The used counters follow allocations; the proc
 * directory follows queue creation and destruction.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktest.h"
#include "shim.h"
#include "tc_text.h"
#include "tree.h"
#include "vdir.h"
#include "vfs_test_util.h"

#define PCI0 "/sys/class/drm/card0/device"
#define HWMON0 "/sys/class/hwmon/hwmon0"
#define KPROC "/sys/class/kfd/kfd/proc"

struct fixture {
	struct kt t;
	struct ksim_vfs *vfs;
	const struct ksim_drm *drm;	/* GPU 0 */
	const struct ksim_node *node;
};

static struct ksim_device *fixture_dev;

static struct ksim_device *
test_device(void)
{
	return fixture_dev;
}

static int
open_fixture(void **state, const char *profile)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx || kt_open(&fx->t, profile, 0))
		return -1;
	fx->vfs = vt_tree_build(fx->t.prof, 19);
	if (!fx->vfs)
		return -1;
	((struct ksim_tree_ctx *)fx->vfs->ctx)->device = test_device;
	fixture_dev = fx->t.dev;
	fx->node = ksim_tree_gpu_node(fx->t.prof, 0);
	fx->drm = fx->node->drm;
	*state = fx;
	return 0;
}

static int
setup_mi210(void **state)
{
	return open_fixture(state, "mi210");
}

static int
setup_rx6900xt(void **state)
{
	return open_fixture(state, "rx6900xt");
}

static int
setup_mi300x(void **state)
{
	return open_fixture(state, "mi300x");
}

static int
teardown(void **state)
{
	struct fixture *fx = *state;

	ksim_vfs_free(fx->vfs);
	kt_close(&fx->t);
	fixture_dev = NULL;
	free(fx);
	return 0;
}

/* Identity, link and totals: the profile's values in the kernel's formats. */
static void
test_amdgpu_attrs(void **state)
{
	struct fixture *fx = *state;
	const struct ksim_drm *d = fx->drm;

	vt_expect_text(fx->vfs, PCI0 "/mem_info_vram_total", "%" PRIu64 "\n", d->vram_size);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vis_vram_total", "%" PRIu64 "\n",
		       d->visible_vram_size);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_gtt_total", "%" PRIu64 "\n", d->gtt_size);
	vt_expect_text(fx->vfs, PCI0 "/product_name", "%s\n", d->product_name);
	vt_expect_text(fx->vfs, PCI0 "/product_number", "%s\n", d->product_number);
	vt_expect_text(fx->vfs, PCI0 "/serial_number", "%s\n", d->serial_number);
	vt_expect_text(fx->vfs, PCI0 "/vbios_version", "%s\n", d->vbios_version);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vram_vendor", "%s\n", d->vram_vendor);
	vt_expect_text(fx->vfs, PCI0 "/unique_id", "%016" PRIx64 "\n",
		       fx->node->props[KSIM_NP_UNIQUE_ID]);
	vt_expect_text(fx->vfs, PCI0 "/vendor", "0x%04x\n", 0x1002);
	vt_expect_text(fx->vfs, PCI0 "/gpu_busy_percent", "0\n");
	vt_expect_text(fx->vfs, PCI0 "/power_dpm_force_performance_level", "auto\n");
	/* mi210: PCIe 4.0 x16 */
	assert_int_equal(d->pcie_gen, 4);
	vt_expect_text(fx->vfs, PCI0 "/current_link_speed", "16.0 GT/s PCIe\n");
	vt_expect_text(fx->vfs, PCI0 "/max_link_speed", "16.0 GT/s PCIe\n");
	vt_expect_text(fx->vfs, PCI0 "/current_link_width", "%u\n", d->pcie_width);
	vt_expect_text(fx->vfs, PCI0 "/max_link_width", "%u\n", d->pcie_width);
	/* DPM: lowest and highest level (MHz), '*' on the current (top) one */
	vt_expect_text(fx->vfs, PCI0 "/pp_dpm_sclk", "0: %" PRIu64 "Mhz \n1: %" PRIu64 "Mhz *\n",
		       (uint64_t)d->min_engine_clock / 1000, d->max_engine_clock / 1000);
	vt_expect_text(fx->vfs, PCI0 "/pp_dpm_mclk", "0: %" PRIu64 "Mhz \n1: %" PRIu64 "Mhz *\n",
		       (uint64_t)d->min_memory_clock / 1000, d->max_memory_clock / 1000);
	vt_expect_text(fx->vfs, "/sys/class/drm/version", "drm 1.1.0 20060810\n");
	/* rocm_smi_lib counts card* entries and reads card0..N-1 */
	vt_expect_listing(fx->vfs, "/sys/class/drm", "version card0 renderD128");
}

/* hwmon: millidegrees, microwatts, millivolts, Hz; no fan on Instinct boards. */
static void
test_hwmon_mi210(void **state)
{
	struct fixture *fx = *state;
	const struct ksim_drm *d = fx->drm;

	vt_expect_listing(fx->vfs, "/sys/class/hwmon", "hwmon0");
	vt_expect_text(fx->vfs, PCI0 "/hwmon/hwmon0/name", "amdgpu\n");
	vt_expect_text(fx->vfs, HWMON0 "/name", "amdgpu\n");
	vt_expect_text(fx->vfs, HWMON0 "/temp1_input", "%u\n", d->temp_edge * 1000);
	vt_expect_text(fx->vfs, HWMON0 "/temp1_label", "edge\n");
	vt_expect_text(fx->vfs, HWMON0 "/temp1_crit", "%u\n", d->temp_edge_crit * 1000);
	vt_expect_text(fx->vfs, HWMON0 "/temp2_input", "%u\n", d->temp_junction * 1000);
	vt_expect_text(fx->vfs, HWMON0 "/temp2_label", "junction\n");
	vt_expect_text(fx->vfs, HWMON0 "/temp3_input", "%u\n", d->temp_mem * 1000);
	vt_expect_text(fx->vfs, HWMON0 "/temp3_label", "mem\n");
	vt_expect_text(fx->vfs, HWMON0 "/temp3_crit", "%u\n", d->temp_mem_crit * 1000);
	vt_expect_text(fx->vfs, HWMON0 "/power1_average", "%u\n", d->power_average * 1000000);
	vt_expect_text(fx->vfs, HWMON0 "/power1_cap", "%u\n", d->power_cap * 1000000);
	vt_expect_text(fx->vfs, HWMON0 "/power1_cap_max", "%u\n", d->power_cap_max * 1000000);
	vt_expect_text(fx->vfs, HWMON0 "/in0_input", "%u\n", d->vddgfx);
	vt_expect_text(fx->vfs, HWMON0 "/in0_label", "vddgfx\n");
	vt_expect_text(fx->vfs, HWMON0 "/freq1_input", "%" PRIu64 "\n", d->max_engine_clock * 1000);
	vt_expect_text(fx->vfs, HWMON0 "/freq1_label", "sclk\n");
	vt_expect_text(fx->vfs, HWMON0 "/freq2_input", "%" PRIu64 "\n", d->max_memory_clock * 1000);
	assert_int_equal(d->fan_rpm, 0);
	vt_expect_absent(fx->vfs, HWMON0 "/fan1_input");
	vt_expect_absent(fx->vfs, HWMON0 "/pwm1");
}

/* A board with a fan and no FRU EEPROM; gfx10 has no cu_occupancy. */
static void
test_hwmon_rx6900xt(void **state)
{
	struct fixture *fx = *state;
	const struct ksim_drm *d = fx->drm;
	char path[128];

	assert_true(d->fan_rpm > 0);
	vt_expect_text(fx->vfs, HWMON0 "/fan1_input", "%u\n", d->fan_rpm);
	vt_expect_text(fx->vfs, HWMON0 "/fan1_max", "%u\n", d->fan_max_rpm);
	vt_expect_text(fx->vfs, HWMON0 "/pwm1", "%u\n",
		       (unsigned int)((uint64_t)d->fan_rpm * 255 / d->fan_max_rpm));
	vt_expect_text(fx->vfs, HWMON0 "/pwm1_max", "255\n");
	vt_expect_absent(fx->vfs, PCI0 "/product_name");
	vt_expect_absent(fx->vfs, PCI0 "/unique_id");
	vt_expect_text(fx->vfs, PCI0 "/vbios_version", "%s\n", d->vbios_version);

	assert_int_equal(kt_acquire_all(&fx->t), 0);
	snprintf(path, sizeof(path), KPROC "/%d/stats_%u/evicted_ms", (int)getpid(),
		 fx->node->gpu_id);
	vt_expect_text(fx->vfs, path, "0\n");
	snprintf(path, sizeof(path), KPROC "/%d/stats_%u/cu_occupancy", (int)getpid(),
		 fx->node->gpu_id);
	vt_expect_absent(fx->vfs, path);
}

/* MI300X has no edge sensor: temp1 is absent, temp2/temp3 remain. */
static void
test_hwmon_mi300x(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(fx->drm->temp_edge, 0);
	vt_expect_absent(fx->vfs, HWMON0 "/temp1_input");
	vt_expect_absent(fx->vfs, HWMON0 "/temp1_label");
	vt_expect_text(fx->vfs, HWMON0 "/temp2_label", "junction\n");
	vt_expect_text(fx->vfs, PCI0 "/current_link_speed", "32.0 GT/s PCIe\n");
}

/* mem_info_*_used: rendered at every open from the device's accounting. */
static void
test_mem_used_follows_allocations(void **state)
{
	struct fixture *fx = *state;
	uint64_t vram = 0, gtt = 0, size = 6 << 20;

	assert_int_equal(kt_acquire_all(&fx->t), 0);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vram_used", "0\n");
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vis_vram_used", "0\n");
	vt_expect_text(fx->vfs, PCI0 "/mem_info_gtt_used", "0\n");
	assert_int_equal(kt_alloc(&fx->t, 0, 0x7f0000000000ULL, size,
				  KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &vram, NULL), 0);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vram_used", "%" PRIu64 "\n", size);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vis_vram_used", "%" PRIu64 "\n", size);
	assert_int_equal(kt_alloc(&fx->t, 0, 0x7f0001000000ULL, 1 << 20,
				  KFD_ABI_ALLOC_MEM_FLAGS_GTT, &gtt, NULL), 0);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_gtt_used", "%u\n", 1u << 20);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vram_used", "%" PRIu64 "\n", size);
	assert_int_equal(kt_free(&fx->t, vram), 0);
	assert_int_equal(kt_free(&fx->t, gtt), 0);
	vt_expect_text(fx->vfs, PCI0 "/mem_info_vram_used", "0\n");
	vt_expect_text(fx->vfs, PCI0 "/mem_info_gtt_used", "0\n");
}

#define RING_VA 0x7f0010000000ULL
#define PTR_VA 0x7f0010100000ULL

static uint32_t
create_sdma_queue(struct fixture *fx)
{
	struct kfd_abi_create_queue_args q;
	unsigned int g0 = 0;
	uint64_t ring, ptrs;
	uint32_t ns;

	assert_int_equal(kt_alloc(&fx->t, 0, RING_VA, 64 << 10, KFD_ABI_ALLOC_MEM_FLAGS_GTT,
				  &ring, NULL), 0);
	assert_int_equal(kt_map(&fx->t, ring, &g0, 1, &ns), 0);
	assert_int_equal(kt_alloc(&fx->t, 0, PTR_VA, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT,
				  &ptrs, NULL), 0);
	assert_int_equal(kt_map(&fx->t, ptrs, &g0, 1, &ns), 0);
	memset(&q, 0, sizeof(q));
	q.ring_base_address = RING_VA;
	q.ring_size = 64 << 10;
	q.read_pointer_address = PTR_VA;
	q.write_pointer_address = PTR_VA + 8;
	q.gpu_id = fx->t.gpu_id[0];
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
	q.queue_percentage = 100;
	q.queue_priority = 7;
	assert_int_equal(ksim_ioctl(fx->t.kfd, KFD_ABI_IOC_CREATE_QUEUE, &q), 0);
	return q.queue_id;
}

/* proc/<pid>/: pasid, per-GPU files, queues that come and go. */
static void
test_kfd_proc(void **state)
{
	struct fixture *fx = *state;
	struct ksim_proc_info *pi = malloc(sizeof(*pi));
	struct kfd_abi_destroy_queue_args d;
	char dir[128], path[192], want[192];
	uint32_t gid = fx->node->gpu_id, qid;
	uint64_t vram;

	assert_non_null(pi);
	assert_int_equal(kt_acquire_all(&fx->t), 0);
	assert_int_equal(ksim_proc_query(fx->t.dev, pi), 0);
	snprintf(dir, sizeof(dir), KPROC "/%d", (int)getpid());
	vt_expect_listing(fx->vfs, KPROC, dir + strlen(KPROC) + 1);
	snprintf(want, sizeof(want), "pasid queues stats_%u vram_%u sdma_%u", gid, gid, gid);
	vt_expect_listing(fx->vfs, dir, want);
	snprintf(path, sizeof(path), "%s/pasid", dir);
	vt_expect_text(fx->vfs, path, "%u\n", pi->pasid);
	snprintf(path, sizeof(path), "%s/stats_%u", dir, gid);
	vt_expect_listing(fx->vfs, path, "evicted_ms cu_occupancy");
	snprintf(path, sizeof(path), "%s/stats_%u/cu_occupancy", dir, gid);
	vt_expect_text(fx->vfs, path, "0\n");
	snprintf(path, sizeof(path), "%s/sdma_%u", dir, gid);
	vt_expect_text(fx->vfs, path, "0\n");

	/* vram_<id>: page-aligned KFD VRAM allocations of this process */
	snprintf(path, sizeof(path), "%s/vram_%u", dir, gid);
	vt_expect_text(fx->vfs, path, "0\n");
	assert_int_equal(kt_alloc(&fx->t, 0, 0x7f0000000000ULL, (4 << 20) + 1,
				  KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &vram, NULL), 0);
	vt_expect_text(fx->vfs, path, "%u\n", (4u << 20) + 4096);

	/* queues/<qid>/: size, type (enum kfd_queue_type), gpuid; no newline */
	snprintf(path, sizeof(path), "%s/queues", dir);
	vt_expect_listing(fx->vfs, path, "");
	qid = create_sdma_queue(fx);
	snprintf(want, sizeof(want), "%u", qid);
	vt_expect_listing(fx->vfs, path, want);
	snprintf(path, sizeof(path), "%s/queues/%u", dir, qid);
	vt_expect_listing(fx->vfs, path, "size type gpuid");
	snprintf(path, sizeof(path), "%s/queues/%u/size", dir, qid);
	vt_expect_text(fx->vfs, path, "%u", 64u << 10);
	snprintf(path, sizeof(path), "%s/queues/%u/type", dir, qid);
	vt_expect_text(fx->vfs, path, "1");
	snprintf(path, sizeof(path), "%s/queues/%u/gpuid", dir, qid);
	vt_expect_text(fx->vfs, path, "%u", gid);

	d.queue_id = qid;
	assert_int_equal(ksim_ioctl(fx->t.kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d), 0);
	snprintf(path, sizeof(path), "%s/queues", dir);
	vt_expect_listing(fx->vfs, path, "");
	snprintf(path, sizeof(path), "%s/queues/%u/size", dir, qid);
	vt_expect_absent(fx->vfs, path);
	assert_int_equal(kt_free(&fx->t, vram), 0);
	snprintf(path, sizeof(path), "%s/vram_%u", dir, gid);
	vt_expect_text(fx->vfs, path, "0\n");

	/* names that are no KFD process */
	vt_expect_absent(fx->vfs, KPROC "/1");
	snprintf(path, sizeof(path), KPROC "/0%d", (int)getpid());
	vt_expect_absent(fx->vfs, path);
	vt_expect_absent(fx->vfs, KPROC "/self");
	free(pi);
}

/* Before /dev/kfd is opened there is no KFD process, and proc/ is empty. */
static void
test_kfd_proc_empty(void **state)
{
	struct fixture *fx = *state;
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	struct ksim_opts o = { .flags = KSIM_OPT_PRIVATE };
	struct ksim_device *dev = ksim_device_create(prof, &o, NULL);

	assert_non_null(dev);
	fixture_dev = dev;
	vt_expect_listing(fx->vfs, KPROC, "");
	fixture_dev = fx->t.dev;
	ksim_device_destroy(dev);
	ksim_profile_free(prof);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_amdgpu_attrs, setup_mi210, teardown),
		cmocka_unit_test_setup_teardown(test_hwmon_mi210, setup_mi210, teardown),
		cmocka_unit_test_setup_teardown(test_hwmon_rx6900xt, setup_rx6900xt, teardown),
		cmocka_unit_test_setup_teardown(test_hwmon_mi300x, setup_mi300x, teardown),
		cmocka_unit_test_setup_teardown(test_mem_used_follows_allocations, setup_mi210,
						teardown),
		cmocka_unit_test_setup_teardown(test_kfd_proc, setup_mi210, teardown),
		cmocka_unit_test_setup_teardown(test_kfd_proc_empty, setup_mi210, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
