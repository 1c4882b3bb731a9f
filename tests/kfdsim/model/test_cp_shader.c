/* SPDX-License-Identifier: MIT */
/*
 * model-cp's shader cases: dispatches run their kernel (gfx90a): its
 * stores land, and an instruction the interpreter lacks stops the queue
 * as illegal; gfx942's, gfx908's and gfx1030's wave32 own instructions
 * and encodings. A wave that sleeps while it polls host memory lets
 * ioctls run and holds other queues' dispatches until the host answers;
 * s_sendmsg MSG_INTERRUPT sets the event M0 names; s_trap 2 halts the
 * dispatch for good without a trap handler and stops its queue with the
 * debug-trap bit with one, while s_trap 3 is a no-op. A debugged
 * process's traps run its second-level handler.
 */
#include <string.h>
#include <unistd.h>

#include "test_cp.h"

/*
 * Run the kernel at tq_kern + 1024 on a new queue, its kernel arguments
 * the output page's address: it must complete. Return: the output page,
 * all 0xff before the run.
 */
static void *
run_out(struct kt *t)
{
	const uint64_t out_va = OUT_VA;
	uint8_t *out = kt_userptr_mapped(t, 0, OUT_VA, 4096);
	struct tq q;

	memset(out, 0xff, 4096);
	memcpy(tq_kern + 2048, &out_va, 8);
	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 1;
	tq_put_kernel(&q, KERNEL_VA + 1024, KERNEL_VA + 2048, tq_sigva(&q, 0));
	assert_true(tq_reaches(&q, 1));
	assert_int_equal(*tq_sig(&q, 0), 0);
	return out;
}

/* Kernel object @kd on a new queue at @base stops it as illegal: the
 * dispatch does not retire, its signal stays. */
static void
run_illegal(struct kt *t, uint64_t base, uint64_t kd)
{
	struct tq q;

	tq_new(t, &q, base);
	*tq_sig(&q, 0) = 1;
	tq_put_dispatch(&q, kd, tq_sigva(&q, 0));
	assert_true(tq_inactive(&q, 0x40000000));
	assert_int_equal(tq_rptr(&q), 0);
	assert_int_equal(*tq_sig(&q, 0), 1);
}

/*
 * Kernels run (gfx90a): one that loads its output pointer from the
 * kernarg segment and stores v0 + 7 for each of its 64 work-items, and one
 * with an instruction the interpreter lacks (image_load), which stops its
 * queue with the illegal-instruction error and leaves its signal.
 */
void
test_shader(void **state)
{
	static const uint32_t store[] = {
		0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x24020082,		/* v_lshlrev_b32_e32 v1, 2, v0 */
		0x68040087,		/* v_add_u32_e32 v2, 7, v0 */
		0xdc708000, 0x00020201,	/* global_store_dword v1, v2, s[2:3] */
		0xbf810000,		/* s_endpgm */
	};
	static const uint32_t illegal[] = {
		/* image_load v[0:3], v18, s[8:15] dmask:0xf unorm da */
		0xf0005f00, 0x00020012,
		0xbf810000,
	};
	struct kt *t = *state;
	uint32_t *out;

	kt_put_code(tq_kern, 1024, store, sizeof(store));
	kt_put_code(tq_kern, 3072, illegal, sizeof(illegal));
	out = run_out(t);
	for (unsigned int i = 0; i < 64; i++)
		assert_int_equal(out[i], i + 7);
	assert_int_equal(out[64], 0xffffffffu);
	run_illegal(t, 0x11000000ULL, KERNEL_VA + 3072);
}

/*
 * A gfx942 kernel on mi300x, with the instructions gfx942 has and gfx90a
 * lacks: each of 64 work-items i stores the floats i * i + 1
 * (v_fmaak_f32) and 2i + 1 (v_fmamk_f32), moved as a pair (v_mov_b64), at
 * out + 8i (v_lshl_add_u64), with gfx942's sc0 sc1 bits on the store.
 */
void
test_shader_gfx942(void **state)
{
	static const uint32_t code[] = {
		0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x7e040d00,		/* v_cvt_f32_u32_e32 v2, v0 */
		0x7e1802f2,		/* v_mov_b32_e32 v12, 1.0 */
		0x2e061902, 0x40000000,	/* v_fmamk_f32 v3, v2, 0x40000000, v12 */
		0x30080502, 0x3f800000,	/* v_fmaak_f32 v4, v2, v2, 0x3f800000 */
		0x7e0a0303,		/* v_mov_b32_e32 v5, v3 */
		0x7e0c7104,		/* v_mov_b64_e32 v[6:7], v[4:5] */
		0x7e140300,		/* v_mov_b32_e32 v10, v0 */
		0x7e160280,		/* v_mov_b32_e32 v11, 0 */
		0xd2080008, 0x0009070a,	/* v_lshl_add_u64 v[8:9], v[10:11], 3, s[2:3] */
		0xde758000, 0x007f0608,	/* global_store_dwordx2 v[8:9], v[6:7], off sc0 sc1 */
		0xbf810000,		/* s_endpgm */
	};
	float *out;

	kt_put_code(tq_kern, 1024, code, sizeof(code));
	out = run_out(*state);
	for (unsigned int i = 0; i < 64; i++) {
		assert_true(out[2 * i] == (float)(i * i + 1));
		assert_true(out[2 * i + 1] == (float)(2 * i + 1));
	}
}

/*
 * gfx908 on mi100: test_shader's kernel runs there too (its own test);
 * v_pk_mov_b32, gfx90a's packed f32 move, is not gfx908's and stops the
 * queue with the illegal-instruction error.
 */
void
test_shader_gfx908(void **state)
{
	static const uint32_t pk_mov[] = {
		0xd3b34002, 0x18020100,	/* v_pk_mov_b32 v[2:3], v[0:1], v[0:1] */
		0xbf810000,		/* s_endpgm */
	};

	kt_put_code(tq_kern, 1024, pk_mov, sizeof(pk_mov));
	run_illegal(*state, 0x10000000ULL, KERNEL_VA + 1024);
}

/*
 * A gfx1030 wave32 kernel on rx6900xt: 64 work-items run as two waves of
 * 32, with one-SGPR lane masks. Work-item i stores i when i < 16 (v_cmpx
 * narrows exec_lo), else 7, plus 100 when i > 40 (s_and_saveexec_b32);
 * the address is a 64-bit add through vcc_lo (v_add_co_u32,
 * v_add_co_ci_u32). gfx10 keeps the work-item id in v0 unpacked.
 */
void
test_shader_wave32(void **state)
{
	static const uint32_t code[] = {
		0xf4040080, 0xfa000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x34020082,		/* v_lshlrev_b32_e32 v1, 2, v0 */
		0x7e080203,		/* v_mov_b32_e32 v4, s3 */
		0xd70f6a02, 0x00020202,	/* v_add_co_u32 v2, vcc_lo, s2, v1 */
		0x50060880,		/* v_add_co_ci_u32_e32 v3, vcc_lo, 0, v4, vcc_lo */
		0x7e0a0287,		/* v_mov_b32_e32 v5, 7 */
		0xbe84037e,		/* s_mov_b32 s4, exec_lo */
		0x7da80090,		/* v_cmpx_gt_u32_e32 16, v0 */
		0x7e0a0300,		/* v_mov_b32_e32 v5, v0 */
		0xbefe0304,		/* s_mov_b32 exec_lo, s4 */
		0x7d8200a8,		/* v_cmp_lt_u32_e32 vcc_lo, 40, v0 */
		0xbe853c6a,		/* s_and_saveexec_b32 s5, vcc_lo */
		0x4a0a0aff, 0x00000064,	/* v_add_nc_u32_e32 v5, 0x64, v5 */
		0xbefe0305,		/* s_mov_b32 exec_lo, s5 */
		0xdc708000, 0x007d0502,	/* global_store_dword v[2:3], v5, off */
		0xbf810000,		/* s_endpgm */
	};
	/* the kernarg segment pointer; wave32 */
	const uint16_t props = 1 << 3 | 1 << 10;
	uint32_t *out;

	kt_put_code(tq_kern, 1024, code, sizeof(code));
	memcpy(tq_kern + 1024 + 56, &props, 2);
	out = run_out(*state);
	for (unsigned int i = 0; i < 64; i++)
		assert_int_equal(out[i], i < 16 ? i : i > 40 ? 107 : 7);
	assert_int_equal(out[64], 0xffffffffu);
}

void
test_shader_wait(void **state)
{
	/* until the kernarg word is nonzero: load, sleep, again */
	static const uint32_t poll[] = {
		0xc0030080, 0x00000000,	/* s_load_dword s2, s[0:1], 0x0 glc */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0xbf068002,		/* s_cmp_eq_u32 s2, 0 */
		0xbf840002,		/* s_cbranch_scc0 2 (to s_endpgm) */
		0xbf8e0001,		/* s_sleep 1 */
		0xbf82fff9,		/* s_branch -7 (to s_load_dword) */
		0xbf810000,		/* s_endpgm */
	};
	struct kfd_abi_get_clock_counters_args cc = { 0 };
	struct kt *t = *state;
	uint32_t *word = (uint32_t *)(tq_kern + 2048);
	uint64_t kernarg = KERNEL_VA + 2048;
	struct tq q, e;

	kt_put_code(tq_kern, 1024, poll, sizeof(poll));
	*word = 0;
	tq_new(t, &q, 0x10000000ULL);
	tq_new(t, &e, 0x11000000ULL);
	*tq_sig(&q, 0) = 1;
	*tq_sig(&e, 0) = 1;
	tq_put_kernel(&q, KERNEL_VA + 1024, kernarg, tq_sigva(&q, 0));
	usleep(20000);
	tq_put_dispatch(&e, KERNEL_VA, tq_sigva(&e, 0));
	usleep(20000);
	/* the engine is free between the wave's turns */
	cc.gpu_id = t->gpu_id[0];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &cc), 0);
	assert_int_equal(tq_rptr(&q), 0);
	assert_int_equal(tq_rptr(&e), 0);
	__atomic_store_n(word, 1, __ATOMIC_RELEASE);
	assert_true(tq_reaches(&q, 1));
	assert_true(tq_reaches(&e, 1));
	assert_int_equal(*tq_sig(&q, 0), 0);
	assert_int_equal(*tq_sig(&e, 0), 0);
}

void
test_shader_msg(void **state)
{
	/* the event id at kernarg 0, its slot's VA at 8: signal the slot, as
	 * a hostcall's mailbox write does, then the interrupt */
	static const uint32_t msg[] = {
		0xc0020080, 0x00000000,	/* s_load_dword s2, s[0:1], 0x0 */
		0xc0060100, 0x00000008,	/* s_load_dwordx2 s[4:5], s[0:1], 0x8 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x7e000202,		/* v_mov_b32_e32 v0, s2 */
		0x7e020280,		/* v_mov_b32_e32 v1, 0 */
		0x7e040280,		/* v_mov_b32_e32 v2, 0 */
		0xdc748000, 0x00040002,	/* global_store_dwordx2 v2, v[0:1], s[4:5] */
		0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
		0xbefc0002,		/* s_mov_b32 m0, s2 */
		0xbf900001,		/* s_sendmsg sendmsg(MSG_INTERRUPT) */
		0xbf810000,		/* s_endpgm */
	};
	static const uint32_t trap2[] = { 0xbf920002, 0xbf810000 };	/* s_trap 2 */
	static const uint32_t trap3[] = { 0xbf920003, 0xbf810000 };	/* s_trap 3 */
	struct kfd_abi_set_trap_handler_args th = { 0 };
	struct kfd_abi_destroy_queue_args d = { 0 };
	struct kt *t = *state;
	uint64_t kernarg = KERNEL_VA + 2048, slot;
	uint32_t ev;
	struct tq q, a, b;

	ev = kt_signal_event(t, 0x7000000);
	slot = 0x7000000 + (uint64_t)ev * 8;
	kt_put_code(tq_kern, 1024, msg, sizeof(msg));
	kt_put_code(tq_kern, 3072, trap2, sizeof(trap2));
	memcpy(tq_kern + 2048, &ev, 4);
	memcpy(tq_kern + 2048 + 8, &slot, 8);
	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 2;
	assert_int_equal(kt_wait_event(t, ev, 0, NULL), KFD_ABI_WAIT_RESULT_TIMEOUT);
	tq_put_kernel(&q, KERNEL_VA + 1024, kernarg, tq_sigva(&q, 0));
	assert_int_equal(kt_wait_event(t, ev, 5000, NULL), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_true(tq_reaches(&q, 1));
	/* s_trap 3 without a debugger: nothing */
	kt_put_code(tq_kern, 1024, trap3, sizeof(trap3));
	tq_put_kernel(&q, KERNEL_VA + 1024, kernarg, tq_sigva(&q, 0));
	assert_true(tq_reaches(&q, 2));
	assert_int_equal(*tq_sig(&q, 0), 0);

	/* no trap handler: the wave halts, the dispatch never ends */
	tq_new(t, &a, 0x11000000ULL);
	*tq_sig(&a, 0) = 1;
	tq_put_kernel(&a, KERNEL_VA + 3072, kernarg, tq_sigva(&a, 0));
	usleep(50000);
	assert_int_equal(tq_rptr(&a), 0);
	assert_int_equal(*tq_sig(&a, 63), 0);
	d.queue_id = a.qid;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d), 0);
	/* ROCr's handler installed: the queue stops with the debug trap */
	th.gpu_id = t->gpu_id[0];
	th.tba_addr = KERNEL_VA;
	th.tma_addr = KERNEL_VA + 4096;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), 0);
	tq_new(t, &b, 0x12000000ULL);
	*tq_sig(&b, 0) = 1;
	tq_put_kernel(&b, KERNEL_VA + 3072, kernarg, tq_sigva(&b, 0));
	assert_true(tq_inactive(&b, (int64_t)0x80000000u));
	assert_int_equal(tq_rptr(&b), 0);
	assert_int_equal(*tq_sig(&b, 0), 1);
}

/* DBG_TRAP SET_WAVE_LAUNCH_OVERRIDE of this process: asserts success. */
static void
launch_override(struct kt *t, uint32_t mode, uint32_t enable, uint32_t support)
{
	struct kfd_abi_dbg_trap_args dbg = { 0 };

	dbg.pid = (uint32_t)getpid();
	dbg.op = KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE;
	dbg.launch_override.override_mode = mode;
	dbg.launch_override.enable_mask = enable;
	dbg.launch_override.support_request_mask = support;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &dbg), 0);
}

/* DBG_TRAP QUERY_DEBUG_EVENT for EC_QUEUE_WAVE_TRAP: the ioctl's result,
 * the answer in *@dbg. */
static int
query_wave_trap(struct kt *t, struct kfd_abi_dbg_trap_args *dbg)
{
	memset(dbg, 0, sizeof(*dbg));
	dbg->pid = (uint32_t)getpid();
	dbg->op = KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT;
	dbg->query_debug_event.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_TRAP);
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, dbg);
}

static const uint32_t gfx9_handler[] = {
	0xb8f0f803,		/* s_getreg_b32 ttmp4, hwreg(HW_REG_TRAPSTS) */
	0x87706d70,		/* s_or_b32 ttmp4, ttmp4, ttmp1 */
	0x7e00027a,		/* v_mov_b32 v0, ttmp14 */
	0x7e02027b,		/* v_mov_b32 v1, ttmp15 */
	0x7e040270,		/* v_mov_b32 v2, ttmp4 */
	0xdc708000, 0x007f0200,	/* global_store_dword v[0:1], v2, off */
	0xbf8c0070,		/* s_waitcnt vmcnt(0) lgkmcnt(0) */
	0xbeee007e,		/* s_mov_b32 ttmp2, exec_lo */
	0xbefe00ff, 0x80000000,	/* s_mov_b32 exec_lo, 0x80000000 */
	0xbf90000a,		/* s_sendmsg sendmsg(MSG_GET_DOORBELL) */
	0x866fff7e, 0x000003ff,	/* s_and_b32 ttmp3, exec_lo, 0x3ff */
	0xbefe006e,		/* s_mov_b32 exec_lo, ttmp2 */
	0x876fff6f, 0x00000800,	/* s_or_b32 ttmp3, ttmp3, 0x800 */
	0xbeee007c,		/* s_mov_b32 ttmp2, m0 */
	0xbefc006f,		/* s_mov_b32 m0, ttmp3 */
	0xbf900001,		/* s_sendmsg sendmsg(MSG_INTERRUPT) */
	0xbefc006e,		/* s_mov_b32 m0, ttmp2 */
	0x806c846c,		/* s_add_u32 ttmp0, ttmp0, 4 */
	0x826d806d,		/* s_addc_u32 ttmp1, ttmp1, 0 */
	0x866dff6d, 0x0000ffff,	/* s_and_b32 ttmp1, ttmp1, 0xffff */
	0xb978f802,		/* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
	0xbe801f6c,		/* s_rfe_b64 ttmp[0:1] */
};
static const uint32_t trap_s5[] = {
	0xbf920005,		/* s_trap 5 */
	0xbf810000,		/* s_endpgm */
};
static const uint32_t trap_nop[] = { 0xbf800000, 0xbf810000 };	/* s_nop 0 */
static const uint32_t gfx9_overflow[] = {
	0x7e0002ff, 0x7f000000,	/* v_mov_b32 v0, 0x7f000000 */
	0x0a0200ff, 0x7f000000,	/* v_mul_f32 v1, 0x7f000000, v0 */
	0xbf800000,		/* s_nop 0 (the handler skips it) */
	0xbf810000,		/* s_endpgm */
};
static const uint32_t gfx9_load[] = {
	0x7e0002ff, 0x52000100,	/* v_mov_b32 v0, 0x52000100 */
	0x7e020280,		/* v_mov_b32 v1, 0 */
	0xdc508000, 0x027f0000,	/* global_load_dword v2, v[0:1], off */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0xbf810000,		/* s_endpgm */
};

/* The same in gfx10's encodings (llvm-mc 15, gfx1030): wave32, s_rfe_b64
 * renumbered, stores counted by vscnt. */
static const uint32_t gfx10_handler[] = {
	0xb970f803,		/* s_getreg_b32 ttmp4, hwreg(HW_REG_TRAPSTS) */
	0x88706d70,		/* s_or_b32 ttmp4, ttmp4, ttmp1 */
	0x7e00027a,		/* v_mov_b32 v0, ttmp14 */
	0x7e02027b,		/* v_mov_b32 v1, ttmp15 */
	0x7e040270,		/* v_mov_b32 v2, ttmp4 */
	0xdc708000, 0x007d0200,	/* global_store_dword v[0:1], v2, off */
	0xbf8c0070,		/* s_waitcnt vmcnt(0) lgkmcnt(0) */
	0xbbfd0000,		/* s_waitcnt_vscnt null, 0x0 */
	0xbeee037e,		/* s_mov_b32 ttmp2, exec_lo */
	0xbefe03ff, 0x80000000,	/* s_mov_b32 exec_lo, 0x80000000 */
	0xbf90000a,		/* s_sendmsg sendmsg(MSG_GET_DOORBELL) */
	0x876fff7e, 0x000003ff,	/* s_and_b32 ttmp3, exec_lo, 0x3ff */
	0xbefe036e,		/* s_mov_b32 exec_lo, ttmp2 */
	0x886fff6f, 0x00000800,	/* s_or_b32 ttmp3, ttmp3, 0x800 */
	0xbeee037c,		/* s_mov_b32 ttmp2, m0 */
	0xbefc036f,		/* s_mov_b32 m0, ttmp3 */
	0xbf900001,		/* s_sendmsg sendmsg(MSG_INTERRUPT) */
	0xbefc036e,		/* s_mov_b32 m0, ttmp2 */
	0x806c846c,		/* s_add_u32 ttmp0, ttmp0, 4 */
	0x826d806d,		/* s_addc_u32 ttmp1, ttmp1, 0 */
	0x876dff6d, 0x0000ffff,	/* s_and_b32 ttmp1, ttmp1, 0xffff */
	0xb9f8f802,		/* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
	0xbe80226c,		/* s_rfe_b64 ttmp[0:1] */
};
static const uint32_t gfx10_overflow[] = {
	0x7e0002ff, 0x7f000000,	/* v_mov_b32 v0, 0x7f000000 */
	0x100200ff, 0x7f000000,	/* v_mul_f32 v1, 0x7f000000, v0 */
	0xbf800000,		/* s_nop 0 (the handler skips it) */
	0xbf810000,		/* s_endpgm */
};
static const uint32_t gfx10_load[] = {
	0x7e0002ff, 0x52000100,	/* v_mov_b32 v0, 0x52000100 */
	0x7e020280,		/* v_mov_b32 v1, 0 */
	0xdc308000, 0x027d0000,	/* global_load_dword v2, v[0:1], off */
	0xbf8c3f70,		/* s_waitcnt vmcnt(0) */
	0xbf810000,		/* s_endpgm */
};

struct trap_code {
	const uint32_t *handler, *overflow, *load;
	size_t handler_size, overflow_size, load_size;
};

#define TRAP_CODE(h, o, l) { h, o, l, sizeof(h), sizeof(o), sizeof(l) }

/*
 * A debugged process's traps run its second-level handler (gfx90a, gfx942 on
 * mi300x, gfx1030 on rx6900xt): the handler stores TRAPSTS | ttmp1 (trap id in
 * 23:16) to its TMA, reads its queue's doorbell, sends the KFD an
 * interrupt raising EC_QUEUE_WAVE_TRAP on that queue, skips the s_trap
 * and returns with s_rfe_b64: the dispatch completes. Of two queues, the
 * one that trapped is reported. The debugger's wave-start trap enters
 * the same handler with TRAPSTS's WAVE_START bit, and a load of a watched
 * line with the watch point's, and a float overflow the override traps
 * with TRAPSTS.EXCP's bit. Without a handler the wave halts and the
 * debugger is told.
 */
static void
shader_trap(void **state, const struct trap_code *code)
{
	const uint64_t tma_va = 0x52000000ULL;
	struct kfd_abi_set_trap_handler_args th = { 0 };
	struct kfd_abi_runtime_enable_args re = { .mode_mask = 1 };
	struct kfd_abi_dbg_trap_args dbg = { 0 };
	struct kfd_abi_runtime_info ri;
	struct kt *t = *state;
	uint32_t *tma;
	struct tq a, b;
	int fds[2];
	char c;

	assert_int_equal(pipe(fds), 0);
	tma = (uint32_t *)kt_userptr_mapped(t, 0, tma_va, 4096);
	memset(tma, 0, 4096);
	kt_put_code(tq_kern, 1024, trap_s5, sizeof(trap_s5));
	kt_put_code(tq_kern, 3072, trap_nop, sizeof(trap_nop));
	memcpy(tq_kern + 2048, code->handler, code->handler_size);
	th.gpu_id = t->gpu_id[0];
	th.tba_addr = KERNEL_VA + 2048;
	th.tma_addr = tma_va;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), 0);
	/* a runtime first, as ROCr: the launch override needs it */
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), 0);
	dbg.pid = (uint32_t)getpid();
	dbg.op = KFD_ABI_DBG_TRAP_ENABLE;
	dbg.enable.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_TRAP);
	dbg.enable.rinfo_ptr = (uint64_t)(uintptr_t)&ri;
	dbg.enable.rinfo_size = sizeof(ri);
	dbg.enable.dbg_fd = (uint32_t)fds[1];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &dbg), 0);

	tq_new(t, &a, 0x10000000ULL);
	tq_new(t, &b, 0x11000000ULL);
	*tq_sig(&b, 0) = 1;
	tq_put_kernel(&b, KERNEL_VA + 1024, 0, tq_sigva(&b, 0));
	assert_true(tq_reaches(&b, 1));
	assert_int_equal(*tq_sig(&b, 0), 0);
	/* the handler stored: no TRAPSTS bit, trap id 5, pc bits 47:32 0 */
	assert_int_equal(tma[0], 5u << 16);
	assert_int_equal(read(fds[0], &c, 1), 1);
	assert_int_equal(query_wave_trap(t, &dbg), 0);
	assert_int_equal(dbg.query_debug_event.queue_id, b.qid);
	assert_true(dbg.query_debug_event.exception_mask &
		    KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_TRAP));

	/* trap on wave start: the handler runs before the first instruction */
	launch_override(t, KFD_ABI_DBG_TRAP_OVERRIDE_OR, KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START,
			KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START);
	memset(tma, 0, 4096);
	*tq_sig(&a, 0) = 1;
	tq_put_kernel(&a, KERNEL_VA + 3072, 0, tq_sigva(&a, 0));
	assert_true(tq_reaches(&a, 1));
	assert_int_equal(*tq_sig(&a, 0), 0);
	assert_int_equal(tma[0], 1u << 23);

	/* an address watch: a load hits the READ point (0), not the
	 * NONREAD one (1) on the same line; TRAPSTS bit 7 says which */
	launch_override(t, KFD_ABI_DBG_TRAP_OVERRIDE_REPLACE,
			KFD_ABI_DBG_TRAP_MASK_DBG_ADDRESS_WATCH,
			KFD_ABI_DBG_TRAP_MASK_DBG_ADDRESS_WATCH |
			KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START);
	for (uint32_t mode = KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_READ;
	     mode <= KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_NONREAD; mode++) {
		memset(&dbg, 0, sizeof(dbg));
		dbg.pid = (uint32_t)getpid();
		dbg.op = KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH;
		dbg.set_node_address_watch.address = tma_va + 256;
		dbg.set_node_address_watch.mode = mode;
		dbg.set_node_address_watch.mask = 0xffffffffu;
		dbg.set_node_address_watch.gpu_id = t->gpu_id[0];
		assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &dbg), 0);
		assert_int_equal(dbg.set_node_address_watch.id, mode);
	}
	kt_put_code(tq_kern, 3072, code->load, code->load_size);
	memset(tma, 0, 4096);
	*tq_sig(&a, 0) = 1;
	tq_put_kernel(&a, KERNEL_VA + 3072, 0, tq_sigva(&a, 0));
	assert_true(tq_reaches(&a, 2));
	assert_int_equal(*tq_sig(&a, 0), 0);
	assert_int_equal(tma[0], 1u << 7);

	/* a float overflow the override traps: TRAPSTS.EXCP bit 3 */
	launch_override(t, KFD_ABI_DBG_TRAP_OVERRIDE_REPLACE, KFD_ABI_DBG_TRAP_MASK_FP_OVERFLOW,
			KFD_ABI_DBG_TRAP_MASK_FP_OVERFLOW |
			KFD_ABI_DBG_TRAP_MASK_DBG_ADDRESS_WATCH);
	kt_put_code(tq_kern, 3072, code->overflow, code->overflow_size);
	memset(tma, 0, 4096);
	*tq_sig(&a, 0) = 1;
	tq_put_kernel(&a, KERNEL_VA + 3072, 0, tq_sigva(&a, 0));
	assert_true(tq_reaches(&a, 3));
	assert_int_equal(*tq_sig(&a, 0), 0);
	assert_int_equal(tma[0], 1u << 3);

	/* no second-level handler: the wave halts, the debugger is told */
	th.tba_addr = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), 0);
	/* the handler's reports of queue a so far, cleared */
	while (!query_wave_trap(t, &dbg))
		;
	*tq_sig(&b, 1) = 1;
	tq_put_kernel(&b, KERNEL_VA + 1024, 0, tq_sigva(&b, 1));
	for (int k = 0; k < 5000 && query_wave_trap(t, &dbg); k++)
		usleep(1000);
	assert_int_equal(dbg.query_debug_event.queue_id, b.qid);
	assert_int_equal(tq_rptr(&b), 1);
	assert_int_equal(*tq_sig(&b, 1), 1);
	close(fds[0]);
	close(fds[1]);
}

void
test_shader_trap(void **state)
{
	static const struct trap_code code =
		TRAP_CODE(gfx9_handler, gfx9_overflow, gfx9_load);

	shader_trap(state, &code);
}

/* The same on rx6900xt: gfx10's encodings, wave32. */
void
test_shader_trap_gfx10(void **state)
{
	static const struct trap_code code =
		TRAP_CODE(gfx10_handler, gfx10_overflow, gfx10_load);

	shader_trap(state, &code);
}
