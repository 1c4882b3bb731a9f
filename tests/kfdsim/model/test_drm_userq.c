/* SPDX-License-Identifier: MIT */
/*
 * The render node's 2025-2026 requests: USERQ, USERQ_SIGNAL, USERQ_WAIT,
 * GEM_LIST_HANDLES and the INFO queries GPUVM_FAULT and UQ_FW_AREAS, on a
 * profile's own DRM version (3.57) and on the same GPU reporting 3.64.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktest.h"

#define ENOTSUPP_K	524	/* the kernel's ENOTSUPP */

/*
 * Every render node as a kernel of DRM 3.@minor would answer: the model
 * reads its copy of the profile's drm section at each call, so the test
 * edits that copy.
 */
static void
set_minor(struct kt *t, uint32_t minor)
{
	const struct ksim_profile *p = ksim_device_profile(t->dev);

	for (unsigned int i = 0; i < p->n_nodes; i++)
		if (p->nodes[i].drm)
			p->nodes[i].drm->version_minor = minor;
}

static int
info(struct kt *t, uint32_t query, uint32_t ip, void *out, uint32_t size)
{
	struct kfd_drm_amdgpu_info r;

	memset(&r, 0, sizeof(r));
	r.return_pointer = (uintptr_t)out;
	r.return_size = size;
	r.query = query;
	r.query_hw_ip.type = ip;
	return ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &r);
}

static uint32_t
gem_create(struct kt *t, uint64_t size, uint64_t align, uint64_t domains,
	   uint64_t flags)
{
	union kfd_drm_amdgpu_gem_create c;

	memset(&c, 0, sizeof(c));
	c.in.bo_size = size;
	c.in.alignment = align;
	c.in.domains = domains;
	c.in.domain_flags = flags;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	return c.out.handle;
}

/* Before 3.64 the driver table ends at 0x16: drm_ioctl has no entry. */
static void
test_absent_before_3_64(void **state)
{
	struct kt *t = *state;
	union kfd_drm_amdgpu_userq uq;
	struct kfd_drm_amdgpu_userq_signal sig;
	struct kfd_drm_amdgpu_userq_wait w;
	struct kfd_drm_amdgpu_gem_list_handles lh;
	struct kfd_drm_amdgpu_info_gpuvm_fault vf;
	uint8_t raw[16];

	memset(&uq, 0, sizeof(uq));
	memset(&sig, 0, sizeof(sig));
	memset(&w, 0, sizeof(w));
	memset(&lh, 0, sizeof(lh));
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ, &uq), -EINVAL);
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, &sig),
			 -EINVAL);
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT, &w), -EINVAL);
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &lh),
			 -EINVAL);
	/* UQ_FW_AREAS is 3.64's too; GPUVM_FAULT is 3.55's */
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS, 0, raw, sizeof(raw)),
			 -EINVAL);
	memset(&vf, 0xa5, sizeof(vf));
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_GPUVM_FAULT, 0, &vf, sizeof(vf)), 0);
	assert_int_equal(vf.addr, 0);
	assert_int_equal(vf.status, 0);
	assert_int_equal(vf.vmhub, 0);
	set_minor(t, 54);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_GPUVM_FAULT, 0, &vf, sizeof(vf)),
			 -EINVAL);
}

/* No simulated GPU has user queue functions: ENOTSUPP before any check. */
static void
test_userq_unsupported(void **state)
{
	struct kt *t = *state;
	union kfd_drm_amdgpu_userq uq;
	struct kfd_drm_amdgpu_userq_signal sig;
	struct kfd_drm_amdgpu_userq_wait w;
	uint32_t handles[2] = { 1, 2 };
	uint8_t raw[16];

	set_minor(t, 64);
	memset(&uq, 0, sizeof(uq));
	uq.in.op = KFD_DRM_AMDGPU_USERQ_OP_CREATE;
	uq.in.ip_type = KFD_DRM_AMDGPU_HW_IP_COMPUTE;
	uq.in.queue_va = 0x100000;
	uq.in.queue_size = 4096;
	uq.in.rptr_va = 0x200000;
	uq.in.wptr_va = 0x200008;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ, &uq),
			 -ENOTSUPP_K);
	uq.in.op = 77;		/* a bad op is not looked at */
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ, &uq),
			 -ENOTSUPP_K);
	memset(&sig, 0, sizeof(sig));
	sig.queue_id = 1;
	sig.syncobj_handles = (uintptr_t)handles;
	sig.num_syncobj_handles = 2;
	/* too many handles, a NULL array with a count: still ENOTSUPP */
	sig.num_bo_read_handles = 1u << 20;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, &sig),
			 -ENOTSUPP_K);
	memset(&w, 0, sizeof(w));
	w.num_fences = 4;
	w.num_syncobj_handles = 3;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT, &w),
			 -ENOTSUPP_K);
	assert_int_equal(w.num_fences, 4);	/* copied back unchanged */
	/* the argument itself unreadable: drm_ioctl's copy-in fails first */
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT, (void *)8),
			 -EFAULT);
	/* UQ_FW_AREAS: only GFX is asked about; gfx9 has no shadow area */
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS,
			      KFD_DRM_AMDGPU_HW_IP_COMPUTE, raw, sizeof(raw)), -EINVAL);
	assert_int_equal(info(t, KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS,
			      KFD_DRM_AMDGPU_HW_IP_GFX, raw, sizeof(raw)), -EOPNOTSUPP);
	/* the next number is a proposal: no entry */
	assert_int_equal(ksim_ioctl(t->rnd[0], _IOC(_IOC_READ | _IOC_WRITE, 'd',
						    0x40 + 0x1a, 16), raw), -EINVAL);
}

static void
test_list_handles(void **state)
{
	struct kt *t = *state;
	struct kfd_drm_amdgpu_gem_list_handles lh;
	struct kfd_drm_amdgpu_gem_list_handles_entry e[4];
	struct kfd_drm_gem_close cl;
	uint32_t h1, h2, h3;

	set_minor(t, 64);
	/* no handles: count 0, nothing written */
	memset(&lh, 0, sizeof(lh));
	lh.num_entries = 4;
	lh.entries = 8;		/* never touched */
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &lh), 0);
	assert_int_equal(lh.num_entries, 0);

	h1 = gem_create(t, 4096, 0, KFD_DRM_AMDGPU_GEM_DOMAIN_GTT,
			KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED);
	h2 = gem_create(t, 3 * 4096 - 100, 65536, KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM, 0);
	h3 = gem_create(t, 8192, 4096, KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM |
			KFD_DRM_AMDGPU_GEM_DOMAIN_GTT, KFD_DRM_AMDGPU_GEM_CREATE_UNCACHED);
	assert_int_equal(h1, 1);
	assert_int_equal(h2, 2);
	assert_int_equal(h3, 3);

	/* too small: the count back, the array untouched */
	memset(e, 0x5a, sizeof(e));
	lh.entries = (uintptr_t)e;
	lh.num_entries = 2;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &lh), 0);
	assert_int_equal(lh.num_entries, 3);
	assert_int_equal(e[0].gem_handle, 0x5a5a5a5a);

	lh.num_entries = 4;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &lh), 0);
	assert_int_equal(lh.num_entries, 3);
	assert_int_equal(e[0].gem_handle, 1);
	assert_int_equal(e[0].size, 4096);
	assert_int_equal(e[0].preferred_domains, KFD_DRM_AMDGPU_GEM_DOMAIN_GTT);
	assert_int_equal(e[0].alloc_flags, KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED |
			 KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CLEARED);
	assert_int_equal(e[0].alignment, 0);
	assert_int_equal(e[0].flags, 0);
	assert_int_equal(e[1].gem_handle, 2);
	assert_int_equal(e[1].size, 3 * 4096);
	assert_int_equal(e[1].alignment, 16);
	assert_int_equal(e[2].gem_handle, 3);
	assert_int_equal(e[2].preferred_domains, KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM |
			 KFD_DRM_AMDGPU_GEM_DOMAIN_GTT);
	assert_int_equal(e[2].alignment, 1);
	/* only what the handles fill: the fourth slot keeps its bytes */
	assert_int_equal(e[3].gem_handle, 0x5a5a5a5a);

	/* a closed handle leaves a hole in the idr order */
	memset(&cl, 0, sizeof(cl));
	cl.handle = h2;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_GEM_CLOSE, &cl), 0);
	lh.num_entries = 4;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &lh), 0);
	assert_int_equal(lh.num_entries, 2);
	assert_int_equal(e[0].gem_handle, 1);
	assert_int_equal(e[1].gem_handle, 3);

	/* an unwritable array: EFAULT, with the count set all the same */
	lh.entries = 8;
	lh.num_entries = 9;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &lh),
			 -EFAULT);
	assert_int_equal(lh.num_entries, 2);
}

static int
setup(void **state)
{
	return kt_setup_mi210_novm(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_absent_before_3_64, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_userq_unsupported, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_list_handles, setup, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
