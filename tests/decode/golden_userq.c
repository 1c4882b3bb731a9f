/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the render node's newer requests: USERQ,
 * USERQ_SIGNAL, USERQ_WAIT, GEM_LIST_HANDLES, the INFO queries
 * GPUVM_FAULT and UQ_FW_AREAS, and the numbers after them that only
 * proposals use (raw, never guessed).
 */
#include "decode_test.h"
#include "kfdtrace/drm_abi.h"

#define ENOTSUPP_K	524

/* USERQ: the op picks the fields; the kernel without user queues says
 * ENOTSUPP (524, a kernel-internal number the decoder names). */
static void
test_userq(void **state)
{
	union kfd_drm_amdgpu_userq q, qo;
	uint64_t mqd[2] = { 0x7f0000a00000, 0x7f0000a01000 };
	struct kt_buf_image b;
	struct kt_record r;

	memset(&q, 0, sizeof(q));
	q.in.op = KFD_DRM_AMDGPU_USERQ_OP_CREATE;
	q.in.ip_type = KFD_DRM_AMDGPU_HW_IP_COMPUTE;
	q.in.doorbell_handle = 3;
	q.in.doorbell_offset = 2;
	q.in.flags = 2 | KFD_DRM_AMDGPU_USERQ_CREATE_FLAGS_QUEUE_SECURE;
	q.in.queue_va = 0x7f0000800000;
	q.in.queue_size = 1 << 16;
	q.in.rptr_va = 0x7f0000900000;
	q.in.wptr_va = 0x7f0000900008;
	q.in.mqd = 0x7ffc00020000;
	q.in.mqd_size = sizeof(mqd);
	b = mk_buf(0, q.in.mqd, mqd, sizeof(mqd), NULL, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_USERQ, &q, &q, sizeof(q), -1, ENOTSUPP_K);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_USERQ(in.op=CREATE, in.ip_type=COMPUTE, "
		    "in.doorbell_handle=3, in.doorbell_offset=2, "
		    "in.flags=QUEUE_SECURE|0x2, in.queue_va=0x7f0000800000, "
		    "in.queue_size=65536, in.rptr_va=0x7f0000900000, "
		    "in.wptr_va=0x7f0000900008, "
		    "in.mqd=<0000a000007f00000010a000007f0000>, in.mqd_size=16) "
		    "= -1 ENOTSUPP (Operation is not supported)");

	/* A FREE that worked: only queue_id in, nothing out. */
	memset(&q, 0, sizeof(q));
	q.in.op = KFD_DRM_AMDGPU_USERQ_OP_FREE;
	q.in.queue_id = 7;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_USERQ, &q, &q, sizeof(q), 0, 0);
	assert_text(&r, "AMDGPU_USERQ(in.op=FREE, in.queue_id=7) = 0");

	/* A CREATE that worked: the id overlays op in the after-image. */
	memset(&q, 0, sizeof(q));
	q.in.op = KFD_DRM_AMDGPU_USERQ_OP_CREATE;
	q.in.queue_size = 4096;
	qo = q;
	qo.out.queue_id = 1;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_USERQ, &q, &qo, sizeof(q), 0, 0);
	assert_text(&r, "AMDGPU_USERQ(in.op=CREATE, in.ip_type=GFX, "
		    "in.doorbell_handle=0, in.doorbell_offset=0, in.flags=0, "
		    "in.queue_va=0x0, in.queue_size=4096, in.rptr_va=0x0, "
		    "in.wptr_va=0x0, in.mqd=NULL, in.mqd_size=0) = 0 "
		    "{out.queue_id=1}");
}

static void
test_userq_signal(void **state)
{
	struct kfd_drm_amdgpu_userq_signal s;
	uint32_t sync[2] = { 4, 9 }, rd[1] = { 2 };
	struct kt_buf_image b[2];
	struct kt_record r;

	memset(&s, 0, sizeof(s));
	s.queue_id = 1;
	s.syncobj_handles = 0x7ffc00030000;
	s.num_syncobj_handles = 2;
	s.bo_read_handles = 0x7ffc00031000;
	s.num_bo_read_handles = 1;
	b[0] = mk_buf(0, s.syncobj_handles, sync, sizeof(sync), NULL, 0);
	b[1] = mk_buf(1, s.bo_read_handles, rd, sizeof(rd), NULL, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, &s, &s, sizeof(s), -1,
		      ENOTSUPP_K);
	r.u.ioctl.nbufs = 2;
	r.u.ioctl.bufs = b;
	assert_text(&r, "AMDGPU_USERQ_SIGNAL(queue_id=1, syncobj_handles=[4, 9], "
		    "num_syncobj_handles=2, bo_read_handles=[2], "
		    "bo_write_handles=NULL, num_bo_read_handles=1, "
		    "num_bo_write_handles=0) = -1 ENOTSUPP (Operation is not supported)");

	/* A count with a NULL array: the decoder says NULL, reads nothing. */
	memset(&s, 0, sizeof(s));
	s.num_bo_write_handles = 65537;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, &s, &s, sizeof(s), -1, EINVAL);
	assert_text(&r, "AMDGPU_USERQ_SIGNAL(queue_id=0, syncobj_handles=NULL, "
		    "num_syncobj_handles=0, bo_read_handles=NULL, "
		    "bo_write_handles=NULL, num_bo_read_handles=0, "
		    "num_bo_write_handles=65537) = -1 EINVAL (Invalid argument)");
}

static void
test_userq_wait(void **state)
{
	struct kfd_drm_amdgpu_userq_wait w, wo;
	uint32_t th[1] = { 6 };
	uint64_t pt[1] = { 42 };
	struct kfd_drm_amdgpu_userq_fence_info fi[2] = {
		{ .va = 0x7f0000b00000, .value = 17 }, { 0, 0 },
	}, fo[2];
	struct kt_buf_image b[3];
	struct kt_record r;

	memset(&w, 0, sizeof(w));
	w.waitq_id = 2;
	w.syncobj_timeline_handles = 0x7ffc00040000;
	w.syncobj_timeline_points = 0x7ffc00041000;
	w.num_syncobj_timeline_handles = 1;
	w.num_fences = 2;
	w.out_fences = 0x7ffc00042000;
	wo = w;
	wo.num_fences = 1;
	memset(fo, 0, sizeof(fo));
	b[0] = mk_buf(1, w.syncobj_timeline_handles, th, sizeof(th), NULL, 0);
	b[1] = mk_buf(2, w.syncobj_timeline_points, pt, sizeof(pt), NULL, 0);
	b[2] = mk_buf(5, w.out_fences, fo, sizeof(fo), fi, sizeof(fi[0]));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT, &w, &wo, sizeof(w), 0, 0);
	r.u.ioctl.nbufs = 3;
	r.u.ioctl.bufs = b;
	assert_text(&r, "AMDGPU_USERQ_WAIT(waitq_id=2, syncobj_handles=NULL, "
		    "syncobj_timeline_handles=[6], syncobj_timeline_points=[42], "
		    "bo_read_handles=NULL, bo_write_handles=NULL, "
		    "num_syncobj_timeline_handles=1, num_fences=2, "
		    "num_syncobj_handles=0, num_bo_read_handles=0, "
		    "num_bo_write_handles=0, out_fences=0x7ffc00042000) = 0 "
		    "{num_fences=1, out_fences=[{va=0x7f0000b00000, value=17}]}");
}

static void
test_gem_list_handles(void **state)
{
	struct kfd_drm_amdgpu_gem_list_handles l, lo;
	struct kfd_drm_amdgpu_gem_list_handles_entry e[1] = { {
		.gem_handle = 1, .size = 4096,
		.preferred_domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT,
		.alloc_flags = KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED,
		.flags = KFD_DRM_AMDGPU_GEM_LIST_HANDLES_FLAG_IS_IMPORT,
	} };
	struct kt_buf_image b;
	struct kt_record r;

	/* Capacity 0 asks for the count only. */
	memset(&l, 0, sizeof(l));
	lo = l;
	lo.num_entries = 3;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &l, &lo, sizeof(l), 0, 0);
	assert_text(&r, "AMDGPU_GEM_LIST_HANDLES(entries=NULL, num_entries=0) = 0 "
		    "{num_entries=3}");

	l.entries = 0x7ffc00050000;
	l.num_entries = 1;
	lo = l;
	b = mk_buf(0, l.entries, NULL, 0, e, sizeof(e));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &l, &lo, sizeof(l), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_GEM_LIST_HANDLES(entries=0x7ffc00050000, "
		    "num_entries=1) = 0 {entries=[{gem_handle=1, flags=IS_IMPORT, "
		    "size=4096, preferred_domains=GTT, "
		    "alloc_flags=CPU_ACCESS_REQUIRED, alignment=0}]}");
}

static void
test_info_queries(void **state)
{
	struct kfd_drm_amdgpu_info q;
	struct kfd_drm_amdgpu_info_gpuvm_fault f = { 0, 0, 0 };
	struct kt_buf_image b;
	struct kt_record r;

	memset(&q, 0, sizeof(q));
	q.return_pointer = 0x7ffc00010000;
	q.return_size = sizeof(f);
	q.query = KFD_DRM_AMDGPU_INFO_GPUVM_FAULT;
	b = mk_buf(0, q.return_pointer, NULL, 0, &f, sizeof(f));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_INFO, &q, NULL, sizeof(q), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_INFO(return_pointer=0x7ffc00010000, "
		    "return_size=16, query=GPUVM_FAULT) = 0 "
		    "{return_pointer=<16 zero bytes>}");

	q.return_size = 16;
	q.query = KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS;
	q.query_hw_ip.type = KFD_DRM_AMDGPU_HW_IP_GFX;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_INFO, &q, NULL, sizeof(q), -1, EOPNOTSUPP);
	assert_text(&r, "AMDGPU_INFO(return_pointer=0x7ffc00010000, "
		    "return_size=16, query=UQ_FW_AREAS, uq_fw_areas.type=GFX) = "
		    "-1 EOPNOTSUPP (Operation not supported)");

	/* 0x25 is a proposal: a number, no name. */
	q.query = 0x25;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_INFO, &q, NULL, sizeof(q), -1, EINVAL);
	assert_text(&r, "AMDGPU_INFO(return_pointer=0x7ffc00010000, "
		    "return_size=16, query=37) = -1 EINVAL (Invalid argument)");
}

/* 0x1a, 0x1b, 0x20, 0x21 have competing proposals: raw bytes. */
static void
test_proposed_numbers_raw(void **state)
{
	uint8_t raw[16] = { 1, 2, 3 };
	struct kt_record r;

	r = mk_render(_IOC(_IOC_READ | _IOC_WRITE, 'd', 0x40 + 0x1a, 16), raw, NULL,
		      sizeof(raw), -1, EINVAL);
	assert_string_equal(decode_text(&r), PFX "ioctl(fd=5, 0xc010645a /* d nr=0x5a "
			    "size=16 */, {01020300, 12 zero bytes}) = -1 "
			    "EINVAL (Invalid argument)");
	r = mk_render(_IOC(_IOC_WRITE, 'd', 0x40 + 0x21, 8), raw, NULL, 8, 0, 0);
	assert_string_equal(decode_text(&r), PFX "ioctl(fd=5, 0x40086461 /* d nr=0x61 "
			    "size=8 */, {0102030000000000}) = 0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_userq),
		cmocka_unit_test(test_userq_signal),
		cmocka_unit_test(test_userq_wait),
		cmocka_unit_test(test_gem_list_handles),
		cmocka_unit_test(test_info_queries),
		cmocka_unit_test(test_proposed_numbers_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
