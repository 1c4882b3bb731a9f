/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the render node's AMDGPU_CTX: in.op picks the
 * fields, the priority is a signed name, and each op's output overlays
 * the input and is read from the after-image.
 */
#include "decode_test.h"
#include "kfdtrace/drm_abi.h"

static union kfd_drm_amdgpu_ctx
ctx_in(uint32_t op, uint32_t flags, uint32_t id, int32_t prio)
{
	union kfd_drm_amdgpu_ctx c;

	memset(&c, 0, sizeof(c));
	c.in.op = op;
	c.in.flags = flags;
	c.in.ctx_id = id;
	c.in.priority = prio;
	return c;
}

/* ALLOC_CTX: a named signed priority, the new id over in.op. */
static void
test_alloc_free(void **state)
{
	union kfd_drm_amdgpu_ctx c, o;
	struct kt_record r;

	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 0, 0,
		   KFD_DRM_AMDGPU_CTX_PRIORITY_LOW);
	o = c;
	o.out.alloc.ctx_id = 1;
	o.out.alloc._pad = 0;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &o, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_CTX(in.op=ALLOC_CTX, in.flags=0x0, in.ctx_id=0, "
		    "in.priority=LOW) = 0 {out.alloc.ctx_id=1}");

	/* above NORMAL without CAP_SYS_NICE: EACCES, the id written as 0 */
	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 0, 0,
		   KFD_DRM_AMDGPU_CTX_PRIORITY_VERY_HIGH);
	o = c;
	o.out.alloc.ctx_id = 0;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &o, sizeof(c), -1, EACCES);
	assert_text(&r, "AMDGPU_CTX(in.op=ALLOC_CTX, in.flags=0x0, in.ctx_id=0, "
		    "in.priority=VERY_HIGH) = -1 EACCES (Permission denied) "
		    "{out.alloc.ctx_id=0}");

	/* a priority amdgpu does not name is printed as a signed number */
	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 0, 0, -7);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &c, sizeof(c), -1, EINVAL);
	assert_text(&r, "AMDGPU_CTX(in.op=ALLOC_CTX, in.flags=0x0, in.ctx_id=0, "
		    "in.priority=-7) = -1 EINVAL (Invalid argument)");

	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, 1, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &c, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_CTX(in.op=FREE_CTX, in.flags=0x0, in.ctx_id=1) = 0");
}

/* QUERY_STATE's reset status, QUERY_STATE2's flags. */
static void
test_query(void **state)
{
	union kfd_drm_amdgpu_ctx c, o;
	struct kt_record r;

	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE, 0, 2, 0);
	memset(&o, 0, sizeof(o));
	o.out.state.reset_status = KFD_DRM_AMDGPU_CTX_UNKNOWN_RESET;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &o, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_CTX(in.op=QUERY_STATE, in.flags=0x0, in.ctx_id=2) "
		    "= 0 {out.state.hangs=0, out.state.reset_status=UNKNOWN_RESET}");

	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE2, 0, 2, 0);
	memset(&o, 0, sizeof(o));
	o.out.state.flags = KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RESET |
			    KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RAS_UE;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &o, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_CTX(in.op=QUERY_STATE2, in.flags=0x0, in.ctx_id=2) "
		    "= 0 {out.state2.flags=RESET|RAS_UE, out.state2.hangs=0}");
}

/* The stable pstate: set through in.flags, read back in out.pstate.flags. */
static void
test_pstate(void **state)
{
	union kfd_drm_amdgpu_ctx c, o;
	struct kt_record r;

	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE,
		   KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK, 1, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &c, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_CTX(in.op=SET_STABLE_PSTATE, in.flags=0x4, "
		    "in.ctx_id=1) = 0");

	c = ctx_in(KFD_DRM_AMDGPU_CTX_OP_GET_STABLE_PSTATE, 0, 1, 0);
	memset(&o, 0, sizeof(o));
	o.out.pstate.flags = KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &o, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_CTX(in.op=GET_STABLE_PSTATE, in.flags=0x0, "
		    "in.ctx_id=1) = 0 {out.pstate.flags=PEAK}");

	/* an op amdgpu does not know: raw, EINVAL */
	c = ctx_in(9, 0, 1, 0);
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_CTX, &c, &c, sizeof(c), -1, EINVAL);
	assert_text(&r, "AMDGPU_CTX(in.op=9, in.flags=0x0, in.ctx_id=1) "
		    "= -1 EINVAL (Invalid argument)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_free),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_pstate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
