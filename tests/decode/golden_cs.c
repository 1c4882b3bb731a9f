/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the render node's command submission:
 * AMDGPU_BO_LIST (its entry array, the handle overlaying in.operation),
 * AMDGPU_CS (the chunk address array, the sequence number overlaying the
 * context) and AMDGPU_WAIT_CS (its status overlaying the handle).
 */
#include "decode_test.h"
#include "kfdtrace/drm_abi.h"

static void
test_bo_list(void **state)
{
	struct kfd_drm_amdgpu_bo_list_entry e[2] = { { 1, 0 }, { 2, 5 } };
	union kfd_drm_amdgpu_bo_list l, o;
	struct kt_buf_image b;
	struct kt_record r;

	memset(&l, 0, sizeof(l));
	l.in.operation = KFD_DRM_AMDGPU_BO_LIST_OP_CREATE;
	l.in.bo_number = 2;
	l.in.bo_info_size = sizeof(e[0]);
	l.in.bo_info_ptr = 0x7f0000001000;
	memset(&o, 0, sizeof(o));
	o.out.list_handle = 1;
	b = mk_buf(0, l.in.bo_info_ptr, e, sizeof(e), NULL, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_BO_LIST, &l, &o, sizeof(l), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_BO_LIST(in.operation=CREATE, in.list_handle=0, "
		    "in.bo_number=2, in.bo_info_size=8, in.bo_info_ptr=[{bo_handle=1, "
		    "bo_priority=0}, {bo_handle=2, bo_priority=5}]) = 0 {out.list_handle=1}");

	memset(&l, 0, sizeof(l));
	l.in.operation = KFD_DRM_AMDGPU_BO_LIST_OP_DESTROY;
	l.in.list_handle = 1;
	memset(&o, 0, sizeof(o));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_BO_LIST, &l, &o, sizeof(l), 0, 0);
	assert_text(&r, "AMDGPU_BO_LIST(in.operation=DESTROY, in.list_handle=1, "
		    "in.bo_number=0, in.bo_info_size=0, in.bo_info_ptr=NULL) = 0 "
		    "{out.list_handle=0}");

	/* an op amdgpu does not know: raw, EINVAL */
	memset(&l, 0, sizeof(l));
	l.in.operation = 7;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_BO_LIST, &l, &l, sizeof(l), -1, EINVAL);
	assert_text(&r, "AMDGPU_BO_LIST(in.operation=7, in.list_handle=0, in.bo_number=0, "
		    "in.bo_info_size=0, in.bo_info_ptr=NULL) = -1 EINVAL (Invalid argument)");
}

static void
test_cs(void **state)
{
	uint64_t chunks[2] = { 0x7ffd00001000, 0x7ffd00002000 };
	union kfd_drm_amdgpu_cs c, o;
	struct kt_buf_image b;
	struct kt_record r;

	memset(&c, 0, sizeof(c));
	c.in.ctx_id = 1;
	c.in.bo_list_handle = 1;
	c.in.num_chunks = 2;
	c.in.chunks = 0x7ffd00000100;
	memset(&o, 0, sizeof(o));
	o.out.handle = 3;
	b = mk_buf(0, c.in.chunks, chunks, sizeof(chunks), NULL, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CS, &c, &o, sizeof(c), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_CS(in.ctx_id=1, in.bo_list_handle=1, in.num_chunks=2, "
		    "in.flags=0x0, in.chunks=[0x7ffd00001000, 0x7ffd00002000]) = 0 "
		    "{out.handle=3}");

	memset(&c, 0, sizeof(c));
	c.in.ctx_id = 1;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CS, &c, &c, sizeof(c), -1, EINVAL);
	assert_text(&r, "AMDGPU_CS(in.ctx_id=1, in.bo_list_handle=0, in.num_chunks=0, "
		    "in.flags=0x0, in.chunks=NULL) = -1 EINVAL (Invalid argument)");
}

static void
test_wait_cs(void **state)
{
	union kfd_drm_amdgpu_wait_cs w, o;
	struct kt_record r;

	memset(&w, 0, sizeof(w));
	w.in.handle = 2;
	w.in.timeout = 1000;
	w.in.ip_type = KFD_DRM_AMDGPU_HW_IP_DMA;
	w.in.ctx_id = 1;
	memset(&o, 0, sizeof(o));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_WAIT_CS, &w, &o, sizeof(w), 0, 0);
	assert_text(&r, "AMDGPU_WAIT_CS(in.handle=2, in.timeout=1000, in.ip_type=DMA, "
		    "in.ip_instance=0, in.ring=0, in.ctx_id=1) = 0 {out.status=0}");

	w.in.handle = 9;
	w.in.ip_type = KFD_DRM_AMDGPU_HW_IP_COMPUTE;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_WAIT_CS, &w, &w, sizeof(w), -1, EINVAL);
	assert_text(&r, "AMDGPU_WAIT_CS(in.handle=9, in.timeout=1000, in.ip_type=COMPUTE, "
		    "in.ip_instance=0, in.ring=0, in.ctx_id=1) = -1 EINVAL (Invalid argument)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bo_list),
		cmocka_unit_test(test_cs),
		cmocka_unit_test(test_wait_cs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
