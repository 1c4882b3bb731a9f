/* SPDX-License-Identifier: MIT */
/* The amdgpu render node: drm_ioctl dispatch and permissions, VERSION,
 * GET_CAP, AMDGPU_INFO (what libdrm's amdgpu_device_initialize reads),
 * GEM create/mmap/close/wait and GEM_VA. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktest.h"

#define DRM_REQ(dir, nr, size) _IOC(dir, 'd', nr, size)
#define GIB (1ULL << 30)

static int
info(struct kt *t, uint32_t query, void *out, uint32_t size,
     struct kfd_drm_amdgpu_info *req)
{
	struct kfd_drm_amdgpu_info r;

	if (!req) {
		memset(&r, 0, sizeof(r));
		req = &r;
	}
	req->return_pointer = (uintptr_t)out;
	req->return_size = size;
	req->query = query;
	return ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, req);
}

static void
test_version_and_caps(void **state)
{
	struct kt *t = *state;
	struct kfd_drm_version v;
	struct kfd_drm_get_cap c;
	char name[16], date[4], desc[32];

	memset(&v, 0, sizeof(v));
	memset(name, 0, sizeof(name));
	memset(date, 0, sizeof(date));
	v.name = (uintptr_t)name;
	v.name_len = sizeof(name);
	v.date = (uintptr_t)date;
	v.date_len = sizeof(date);		/* too short: truncated */
	v.desc = (uintptr_t)desc;
	v.desc_len = sizeof(desc);
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_VERSION, &v), 0);
	assert_int_equal(v.version_major, 3);
	assert_int_equal(v.version_minor, 57);
	assert_string_equal(name, "amdgpu");
	assert_int_equal(v.name_len, 6);
	assert_int_equal(v.date_len, 8);	/* full length reported */
	assert_memory_equal(date, "2015", 4);
	assert_memory_equal(desc, "AMD GPU", 7);
	/* lengths only */
	memset(&v, 0, sizeof(v));
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_VERSION, &v), 0);
	assert_int_equal(v.desc_len, 7);
	v.name = 8;
	v.name_len = 6;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_VERSION, &v), -EFAULT);
	c.capability = KFD_DRM_CAP_PRIME;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_GET_CAP, &c), 0);
	assert_int_equal(c.value, KFD_DRM_PRIME_CAP_IMPORT | KFD_DRM_PRIME_CAP_EXPORT);
	c.capability = KFD_DRM_CAP_SYNCOBJ_TIMELINE;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_GET_CAP, &c), 0);
	assert_int_equal(c.value, 1);
	c.capability = 0x99;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_GET_CAP, &c), -EINVAL);
}

static void
test_permissions(void **state)
{
	struct kt *t = *state;
	uint64_t buf[8] = { 0 };

	/* not for render clients */
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ, 0x02, 4), buf), -EACCES);
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ | _IOC_WRITE, 0x0a, 8),
				    buf), -EACCES);
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ | _IOC_WRITE, 0xa0, 64),
				    buf), -EACCES);
	/* copy-in faults come before the permission check */
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_WRITE, 0x0d, 16),
				    (void *)8), -EFAULT);
	/* no such ioctl */
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ, 0x0e, 8), buf), -EINVAL);
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ, 0xe0, 8), buf), -EINVAL);
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ, 0x4a, 8), buf), -EINVAL);
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ, 0x70, 8), buf), -EINVAL);
	/* render-allowed but not simulated (GEM_OP) */
	assert_int_equal(ksim_ioctl(t->rnd[0], DRM_REQ(_IOC_READ | _IOC_WRITE, 0x50, 16),
				    buf), -ENOSYS);
}

static void
test_amdgpu_info(void **state)
{
	struct kt *t = *state;
	struct kfd_drm_amdgpu_info_device di;
	struct kfd_drm_amdgpu_info_vram_gtt vg;
	struct kfd_drm_amdgpu_memory_info mem;
	struct kfd_drm_amdgpu_info req;
	struct kfd_drm_amdgpu_info_firmware fw;
	uint32_t u32 = 0, regs[2];
	uint64_t u64;

	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_ACCEL_WORKING, &u32, 0, NULL), -EINVAL);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_ACCEL_WORKING, NULL, 4, NULL), -EINVAL);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_ACCEL_WORKING, &u32, 4, NULL), 0);
	assert_int_equal(u32, 1);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_ACCEL_WORKING, (void *)8, 4, NULL), -EFAULT);
	memset(&di, 0, sizeof(di));
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_DEV_INFO, &di, sizeof(di), NULL), 0);
	assert_int_equal(di.device_id, 0x740f);
	assert_int_equal(di.pci_rev, 0x02);	/* amdgpu.ids: "AMD Instinct MI210" */
	assert_int_equal(di.family, KFD_DRM_AMDGPU_FAMILY_AI);
	assert_int_equal(di.cu_active_number, 104);
	assert_int_equal(di.gpu_counter_freq, 100000);
	assert_int_equal(di.vram_type, KFD_DRM_AMDGPU_VRAM_TYPE_HBM);
	/* a short return_size gets the prefix */
	memset(&di, 0, sizeof(di));
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_DEV_INFO, &di, 8, NULL), 0);
	assert_int_equal(di.device_id, 0x740f);
	assert_int_equal(di.external_rev, 0);
	/* GB_ADDR_CONFIG, as libdrm reads it at init */
	memset(&req, 0, sizeof(req));
	req.read_mmr_reg.dword_offset = 0x263e;
	req.read_mmr_reg.count = 1;
	req.read_mmr_reg.instance = 0xffffffff;
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_READ_MMR_REG, regs, 4, &req), 0);
	assert_int_equal(regs[0], 0x2a114042);
	req.read_mmr_reg.count = 129;
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_READ_MMR_REG, regs, 4, &req), -EINVAL);
	req.read_mmr_reg.count = 1;
	req.read_mmr_reg.dword_offset = 0x1234;
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_READ_MMR_REG, regs, 4, &req), -EFAULT);
	req.read_mmr_reg.dword_offset = 0x263d;
	req.read_mmr_reg.instance = 9;		/* SE 9 */
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_READ_MMR_REG, regs, 4, &req), -EINVAL);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_VRAM_GTT, &vg, sizeof(vg), NULL), 0);
	assert_int_equal(vg.vram_size, 68702699520ULL - (8ULL << 20));
	assert_int_equal(vg.vram_cpu_accessible_size, vg.vram_size);
	assert_true(vg.gtt_size > 0);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_MEMORY, &mem, sizeof(mem), NULL), 0);
	assert_int_equal(mem.vram.total_heap_size, 68702699520ULL);
	assert_int_equal(mem.vram.heap_usage, 0);
	memset(&req, 0, sizeof(req));
	req.query_fw.fw_type = KFD_DRM_AMDGPU_INFO_FW_GFX_MEC;
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_FW_VERSION, &fw, sizeof(fw), &req), 0);
	assert_int_equal(fw.ver, 78);
	memset(&req, 0, sizeof(req));
	req.query_hw_ip.type = 1;	/* compute */
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_HW_IP_COUNT, &u32, 4, &req), 0);
	assert_int_equal(u32, 1);
	req.query_hw_ip.type = 0;	/* gfx: none on MI210 */
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_HW_IP_COUNT, &u32, 4, &req), 0);
	assert_int_equal(u32, 0);
	req.query_hw_ip.type = 40;
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_HW_IP_COUNT, &u32, 4, &req), -EINVAL);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_TIMESTAMP, &u64, 8, NULL), 0);
	assert_true(u64 > 0);
	assert_int_equal(info(t, 0x7f, &u64, 8, NULL), -EINVAL);
	/* RAS: enabled blocks (high word) and features (low word), what
	 * kfdtest's RAS case asks before it injects */
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_RAS_ENABLED_FEATURES, &u64, 8, NULL), 0);
	assert_int_equal(u64, 0xef000000efULL);
	u32 = 0;
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_RAS_ENABLED_FEATURES, &u32, 4, NULL), 0);
	assert_int_equal(u32, 0xef);
}

/* A consumer GPU has no RAS context: the query fails. */
static void
test_amdgpu_info_no_ras(void **state)
{
	struct kt t;
	uint64_t u64 = 0;

	(void)state;
	assert_int_equal(kt_open(&t, "rx6900xt", 0), 0);
	assert_int_equal(info(&t, KFD_DRM_AMDGPU_INFO_RAS_ENABLED_FEATURES, &u64, 8, NULL),
			 -EINVAL);
	kt_close(&t);
}

static void
test_gem(void **state)
{
	struct kt *t = *state;
	union kfd_drm_amdgpu_gem_create c;
	union kfd_drm_amdgpu_gem_mmap m;
	struct kfd_drm_gem_close cl;
	uint64_t vram_used = 0;
	uint32_t h1, h2;
	char *p;
	int err;

	memset(&c, 0, sizeof(c));
	c.in.bo_size = 4096;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM;
	c.in.domain_flags = 1ULL << 31;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), -EINVAL);
	c.in.domain_flags = 0;
	c.in.domains = 0x100;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), -EINVAL);
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM;
	c.in.domain_flags = KFD_DRM_AMDGPU_GEM_CREATE_ENCRYPTED;	/* no TMZ */
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), -EINVAL);
	c.in.domain_flags = KFD_DRM_AMDGPU_GEM_CREATE_NO_CPU_ACCESS;
	c.in.bo_size = 0;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), -EINVAL);
	c.in.bo_size = 5000;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	h1 = c.out.handle;
	assert_int_equal(h1, 1);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_VRAM_USAGE, &vram_used, 8, NULL), 0);
	assert_int_equal(vram_used, 8192);
	/* invisible VRAM has no GEM_MMAP offset */
	memset(&m, 0, sizeof(m));
	m.in.handle = h1;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, &m), -EPERM);
	m.in.handle = 9;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, &m), -ENOENT);
	memset(&c, 0, sizeof(c));
	c.in.bo_size = 8192;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	h2 = c.out.handle;
	assert_int_equal(h2, 2);
	m.in.handle = h2;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, &m), 0);
	assert_true(m.out.addr_ptr >= (1ULL << 32));
	p = kt_cpu_map(t->rnd[0], m.out.addr_ptr, 8192, &err);
	assert_non_null(p);
	p[0] = 1;
	munmap(p, 8192);
	/* another render file has no handle and no access */
	{
		struct ksim_file *o = ksim_open_render(t->dev, 128, 0, &err);
		struct ksim_map mm;

		assert_int_equal(ksim_mmap(o, m.out.addr_ptr, 8192, PROT_READ, MAP_SHARED, &mm),
				 -EACCES);
		close(ksim_file_fd(o));
		ksim_release(o);
	}
	/* GEM_WAIT_IDLE: always idle */
	{
		uint64_t w[2] = { h2, 0 };

		assert_int_equal(ksim_ioctl(t->rnd[0],
			DRM_REQ(_IOC_READ | _IOC_WRITE, 0x47, 16), w), 0);
		assert_int_equal(w[0] & 0xffffffff, 0);
		assert_int_equal(w[0] >> 32, KFD_DRM_AMDGPU_GEM_DOMAIN_GTT);
	}
	/* VRAM that does not fit falls back to GTT */
	memset(&c, 0, sizeof(c));
	c.in.bo_size = 70 * GIB;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_VRAM_USAGE, &vram_used, 8, NULL), 0);
	assert_int_equal(vram_used, 8192);
	/* close, and the id is reused */
	cl.handle = h1;
	cl.pad = 0;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_GEM_CLOSE, &cl), 0);
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_GEM_CLOSE, &cl), -EINVAL);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_VRAM_USAGE, &vram_used, 8, NULL), 0);
	assert_int_equal(vram_used, 0);
	memset(&c, 0, sizeof(c));
	c.in.bo_size = 4096;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	assert_int_equal(c.out.handle, 1);
}

static int
gem_va(struct kt *t, uint32_t op, uint32_t handle, uint64_t va, uint64_t size,
       uint32_t flags)
{
	struct kfd_drm_amdgpu_gem_va v = {
		.handle = handle, .operation = op, .flags = flags,
		.va_address = va, .map_size = size,
	};

	return ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_VA, &v);
}

static void
test_gem_va(void **state)
{
	struct kt *t = *state;
	union kfd_drm_amdgpu_gem_create c;
	const uint32_t rw = KFD_DRM_AMDGPU_VM_PAGE_READABLE | KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE;
	uint64_t h;
	unsigned int g0 = 0;
	uint32_t ns;

	memset(&c, 0, sizeof(c));
	c.in.bo_size = 1 << 20;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x1000,
				4096, rw), -EINVAL);	/* reserved bottom */
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle,
				0x800000000000ULL, 4096, rw), -EINVAL);	/* the hole */
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x10000010,
				4096, rw), -EINVAL);
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x10000000,
				2 << 20, rw), -EINVAL);	/* beyond the BO */
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, 77, 0x10000000, 4096, rw),
			 -ENOENT);
	assert_int_equal(gem_va(t, 9, c.out.handle, 0x10000000, 4096, rw), -EINVAL);
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x10000000,
				4096, 1u << 20), -EINVAL);
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x10000000,
				1 << 20, rw), 0);
	/* it shares the compute VM with KFD: overlapping KFD maps fail */
	assert_int_equal(kt_alloc(t, 0, 0x10080000, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT,
				  &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), -EINVAL);
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_UNMAP, c.out.handle, 0x10001000,
				4096, 0), -ENOENT);
	/* CLEAR punches a hole; then the KFD mapping fits */
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_CLEAR, 0, 0x10080000, 4096, 0), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	assert_int_equal(gem_va(t, KFD_DRM_AMDGPU_VA_OP_UNMAP, c.out.handle, 0x10000000,
				4096, 0), 0);
}

static void
test_gem_va_old_abi(void **state)
{
	struct kt t;
	union kfd_drm_amdgpu_gem_create c;

	(void)state;
	assert_int_equal(kt_open(&t, "mi210", 14), 0);
	memset(&c, 0, sizeof(c));
	c.in.bo_size = 4096;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	/* fine on a graphics VM... */
	assert_int_equal(gem_va(&t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x10000000,
				4096, 0), 0);
	/* ...refused once KFD owns the VM, before 1.15 */
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(gem_va(&t, KFD_DRM_AMDGPU_VA_OP_MAP, c.out.handle, 0x20000000,
				4096, 0), -EINVAL);
	kt_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_version_and_caps, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_permissions, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_amdgpu_info, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_gem, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_gem_va, kt_setup_mi210, kt_teardown),
		cmocka_unit_test(test_gem_va_old_abi),
		cmocka_unit_test(test_amdgpu_info_no_ras),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
