/* SPDX-License-Identifier: MIT */
/*
 * AMDGPU_CTX on the render node, as amdgpu_ctx.c answers it: ids from 1
 * per file, lowest free first; flags refused where they must be 0; an
 * unknown id or op is EINVAL; priorities above NORMAL need CAP_SYS_NICE
 * (garbage is NORMAL); no simulated GPU is reset, so the reset state is
 * clean; one context at a time holds the stable pstate, and each puts
 * back the level it found when it goes.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "ktest.h"

static int
ctx_op(struct ksim_file *f, uint32_t op, uint32_t flags, uint32_t id,
       int32_t prio, union kfd_drm_amdgpu_ctx *out)
{
	union kfd_drm_amdgpu_ctx c;
	int r;

	memset(&c, 0, sizeof(c));
	c.in.op = op;
	c.in.flags = flags;
	c.in.ctx_id = id;
	c.in.priority = prio;
	r = ksim_ioctl(f, KFD_DRM_IOCTL_AMDGPU_CTX, &c);
	if (out)
		*out = c;
	return r;
}

/* Whether this process may raise priorities (CAP_SYS_NICE). */
static int
has_sys_nice(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return 0;
	return (data[0].effective >> CAP_SYS_NICE) & 1;
}

/* Close a second render file, as its last fd going. */
static void
drop(struct ksim_file *o)
{
	close(ksim_file_fd(o));
	ksim_release(o);
}

/* ALLOC_CTX: the new id, or the errno. */
static int
alloc_ctx(struct ksim_file *f, int32_t prio)
{
	union kfd_drm_amdgpu_ctx c;
	int r = ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 0, 0, prio, &c);

	return r ? r : (int)c.out.alloc.ctx_id;
}

static void
test_alloc_free(void **state)
{
	struct kt *t = *state;
	struct ksim_file *f = t->rnd[0], *o;
	union kfd_drm_amdgpu_ctx c;
	int err;

	assert_int_equal(alloc_ctx(f, KFD_DRM_AMDGPU_CTX_PRIORITY_NORMAL), 1);
	assert_int_equal(alloc_ctx(f, KFD_DRM_AMDGPU_CTX_PRIORITY_LOW), 2);
	/* UNSET and unnamed values are taken as NORMAL */
	assert_int_equal(alloc_ctx(f, KFD_DRM_AMDGPU_CTX_PRIORITY_UNSET), 3);
	assert_int_equal(alloc_ctx(f, 12345), 4);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, 2, 0, NULL), 0);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, 2, 0, NULL), -EINVAL);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, 0, 0, NULL), -EINVAL);
	assert_int_equal(alloc_ctx(f, 0), 2);		/* lowest free */
	assert_int_equal(alloc_ctx(f, 0), 5);
	/* flags must be 0; ops past SET_STABLE_PSTATE do not exist */
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 1, 0, 0, NULL), -EINVAL);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 1, 1, 0, NULL), -EINVAL);
	assert_int_equal(ctx_op(f, 0, 0, 1, 0, NULL), -EINVAL);
	assert_int_equal(ctx_op(f, 7, 0, 1, 0, NULL), -EINVAL);
	/* above NORMAL: a render client is no DRM master, so it takes
	 * CAP_SYS_NICE; without it the id is written as 0 */
	if (!has_sys_nice()) {
		assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 0, 77,
					KFD_DRM_AMDGPU_CTX_PRIORITY_HIGH, &c), -EACCES);
		assert_int_equal(c.out.alloc.ctx_id, 0);
	} else {
		assert_int_equal(alloc_ctx(f, KFD_DRM_AMDGPU_CTX_PRIORITY_HIGH), 6);
	}
	/* ids are per file */
	o = ksim_open_render(t->dev, 128, 0, &err);
	assert_non_null(o);
	assert_int_equal(alloc_ctx(o, 0), 1);
	assert_int_equal(ctx_op(o, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, 5, 0, NULL), -EINVAL);
	drop(o);
}

static void
test_query(void **state)
{
	struct kt *t = *state;
	struct ksim_file *f = t->rnd[0];
	union kfd_drm_amdgpu_ctx c;
	int id = alloc_ctx(f, 0);

	assert_true(id > 0);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE, 0, (uint32_t)id,
				-1, &c), 0);
	assert_int_equal(c.out.state.flags, 0);
	assert_int_equal(c.out.state.hangs, 0);
	assert_int_equal(c.out.state.reset_status, KFD_DRM_AMDGPU_CTX_NO_RESET);
	/* QUERY_STATE2 leaves the last word (in.priority) as it was */
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE2, 0, (uint32_t)id,
				-1, &c), 0);
	assert_int_equal(c.out.state.flags, 0);
	assert_int_equal(c.out.state.hangs, 0);
	assert_int_equal(c.out.state.reset_status, 0xffffffffu);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE, 0, 99, 0, NULL),
			 -EINVAL);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE2, 1, (uint32_t)id,
				0, NULL), -EINVAL);
}

static uint32_t
get_pstate(struct ksim_file *f, uint32_t id)
{
	union kfd_drm_amdgpu_ctx c;

	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_GET_STABLE_PSTATE, 0, id, 0, &c), 0);
	return c.out.pstate.flags;
}

static void
test_pstate(void **state)
{
	struct kt *t = *state;
	struct ksim_file *f = t->rnd[0], *o;
	uint32_t a = (uint32_t)alloc_ctx(f, 0), b = (uint32_t)alloc_ctx(f, 0), x;
	int err;

	assert_int_equal(get_pstate(f, a), KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_NONE);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE,
				KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK, a, 0, NULL), 0);
	assert_int_equal(get_pstate(f, b), KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK);
	/* held by a: b may read it but not change it */
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE,
				KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_STANDARD, b, 0, NULL),
			 -EBUSY);
	/* bad levels and flags outside the mask */
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE, 5, a, 0, NULL),
			 -EINVAL);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE, 0x10, a, 0,
				NULL), -EINVAL);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_GET_STABLE_PSTATE, 1, a, 0, NULL),
			 -EINVAL);
	/* a context made now finds a's level from before: NONE */
	x = (uint32_t)alloc_ctx(f, 0);
	/* freeing a puts NONE back and lets the level go */
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, a, 0, NULL), 0);
	assert_int_equal(get_pstate(f, b), KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_NONE);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE,
				KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_MIN_SCLK, b, 0, NULL), 0);
	/* another file's context is refused too; closing ours lets go */
	o = ksim_open_render(t->dev, 128, 0, &err);
	assert_non_null(o);
	assert_int_equal(ctx_op(o, KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX, 0, 0, 0, NULL), 0);
	assert_int_equal(ctx_op(o, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE,
				KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK, 1, 0, NULL), -EBUSY);
	assert_int_equal(ctx_op(f, KFD_DRM_AMDGPU_CTX_OP_FREE_CTX, 0, b, 0, NULL), 0);
	assert_int_equal(get_pstate(o, 1), KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_NONE);
	assert_int_equal(ctx_op(o, KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE,
				KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK, 1, 0, NULL), 0);
	drop(o);		/* its context goes: NONE again */
	assert_int_equal(get_pstate(f, x), KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alloc_free, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_query, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_pstate, kt_setup_mi210_novm, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
