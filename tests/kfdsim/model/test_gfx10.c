// SPDX-License-Identifier: MIT
/*
 * gfx1030's own execution on a bare wave32 interpreter context: each
 * instruction is encoded (words from llvm-mc-15 -mcpu=gfx1030), decoded by
 * formats/isa, run once, and its result checked against the value the
 * RDNA2 guide gives. DPP16's row_share and row_xmask and its
 * fetch-inactive bit, DPP8 with and without it, the VOP3 and SDWA output
 * modifiers, an f64 compare writing one SGPR, VOP3 literals (64-bit
 * integer operands zero- or sign-extend them), and s_setreg_b32 of the
 * flat-scratch registers. Gfx9's controls and a register the model does
 * not keep are refused.
 */
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "ktest.h"
#include "lanes_util.h"

struct run {
	struct sh_ctx *c;
	struct sh_wave *w;
};

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static int
setup(void **state)
{
	static struct run r;

	r.c = lt_ctx_new(KFD_ISA_GFX1030, 32, 0);
	if (!r.c)
		return -1;
	r.w = &r.c->waves[0];
	*state = &r;
	return 0;
}

static int
teardown(void **state)
{
	struct run *r = *state;

	lt_ctx_free(r->c);
	return 0;
}

/* Decode @n words of gfx1030 code and run them on the wave. */
static enum sh_step
step(struct run *r, const uint32_t *words, unsigned int n)
{
	static struct kfd_isa_insn in;
	struct kfd_isa_row row;
	uint8_t b[16] = { 0 };
	struct sh_insn i;

	memcpy(b, words, n * 4);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX1030, b, sizeof(b), &in), 0);
	assert_int_equal(kfd_isa_row(KFD_ISA_GFX1030, in.f.row, &row), 0);
	i.in = &in;
	i.id = lt_op_of(KFD_ISA_GFX1030, &row);
	assert_int_not_equal(i.id, SH_OP_NONE);
	r->c->ec = 0;
	if (i.id >= SH_OP_GFX10_FIRST && i.id <= SH_OP_GFX10_LAST)
		return sh_gfx10_step(r->c, r->w, &i);
	if (in.f.enc == KFD_ISA_SOP1 || in.f.enc == KFD_ISA_SOPK)
		return sh_salu(r->c, r->w, &i);
	return sh_valu(r->c, r->w, &i);
}

/* v1 = lane number + 100 * @k, v0 = the old value 0xdead0000 | lane */
static void
lanes(struct run *r, uint32_t exec, unsigned int k)
{
	for (unsigned int l = 0; l < SH_LANES; l++) {
		r->w->v[1][l] = l + 100 * k;
		r->w->v[0][l] = 0xdead0000u | l;
	}
	sh_set_exec(r->w, exec);
}

static void
test_dpp16(void **state)
{
	struct run *r = *state;
	/* v_mov_b32_dpp v0, v1 row_share:3 / row_xmask:3 (all masks on) */
	const uint32_t share[2] = { 0x7e0002fa, 0xff015301 };
	const uint32_t xmask[2] = { 0x7e0002fa, 0xff016301 };
	/* quad_perm:[1,0,3,2] without and with fi:1 */
	const uint32_t quad[2] = { 0x7e0002fa, 0xff00b101 };
	const uint32_t quad_fi[2] = { 0x7e0002fa, 0xff04b101 };

	lanes(r, 0xffffffffu, 0);
	assert_int_equal(step(r, share, 2), SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r->w->v[0][l], (l & ~15u) | 3);
	lanes(r, 0xffffffffu, 0);
	assert_int_equal(step(r, xmask, 2), SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r->w->v[0][l], (l & ~15u) | ((l & 15) ^ 3));
	/* lane 1 inactive: lane 0 writes nothing without fi, reads it with */
	lanes(r, ~2u, 0);
	assert_int_equal(step(r, quad, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 0xdead0000u);
	assert_int_equal(r->w->v[0][2], 3);
	assert_int_equal(r->w->v[0][1], 0xdead0001u);
	lanes(r, ~2u, 0);
	assert_int_equal(step(r, quad_fi, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 1);
	assert_int_equal(r->w->v[0][1], 0xdead0001u);
}

static void
test_dpp8(void **state)
{
	struct run *r = *state;
	/* v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0], then with fi:1 */
	const uint32_t rev[2] = { 0x7e0002e9, 0x05397701 };
	const uint32_t rev_fi[2] = { 0x7e0002ea, 0x05397701 };

	lanes(r, 0xffffffffu, 1);
	assert_int_equal(step(r, rev, 2), SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r->w->v[0][l], 100 + ((l & ~7u) | (7 - (l & 7))));
	/* lane 1 inactive: lane 6 reads 0 from it, or its value with fi */
	lanes(r, ~2u, 1);
	assert_int_equal(step(r, rev, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][6], 0);
	assert_int_equal(r->w->v[0][1], 0xdead0001u);
	lanes(r, ~2u, 1);
	assert_int_equal(step(r, rev_fi, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][6], 101);
}

static void
test_omod(void **state)
{
	struct run *r = *state;
	/* v_add_f32_e64 v0, v1, v2 mul:2, then div:2; v_mul_f32_e64 mul:4 */
	const uint32_t add2[2] = { 0xd5030000, 0x08020501 };
	const uint32_t add_half[2] = { 0xd5030000, 0x18020501 };
	const uint32_t mul4[2] = { 0xd5080000, 0x10020501 };
	/* v_add_f32_sdwa v0, v5, v1 mul:2 (DWORD), then div:2 into WORD_1
	 * with the rest preserved */
	const uint32_t sdwa2[2] = { 0x060002f9, 0x06064605 };
	const uint32_t sdwa_half[2] = { 0x060002f9, 0x0606d505 };
	/* v_cvt_u32_f32_e64 v0, v1 mul:2: an integer result takes none */
	const uint32_t cvt2[2] = { 0xd5870000, 0x08000101 };

	sh_set_exec(r->w, 0xffffffffu);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		r->w->v[1][l] = u32(1.5f + (float)l);
		r->w->v[2][l] = u32(2.0f);
		r->w->v[5][l] = u32(0.25f);
	}
	assert_int_equal(step(r, add2, 2), SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_true(f32(r->w->v[0][l]) == (3.5f + (float)l) * 2.0f);
	assert_int_equal(step(r, add_half, 2), SH_NEXT);
	assert_true(f32(r->w->v[0][3]) == 3.25f);
	assert_int_equal(step(r, mul4, 2), SH_NEXT);
	assert_true(f32(r->w->v[0][0]) == 12.0f);
	assert_int_equal(step(r, sdwa2, 2), SH_NEXT);
	assert_true(f32(r->w->v[0][0]) == 3.5f);
	/* (0.25 + 1.5) / 2 = 0.875: f32 0x3f600000, its low word 0 into
	 * bits 31:16, bits 15:0 kept */
	for (unsigned int l = 0; l < SH_LANES; l++)
		r->w->v[0][l] = 0x12345678u;
	assert_int_equal(step(r, sdwa_half, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 0x00005678u);
	assert_int_equal(step(r, cvt2, 2), SH_FAIL);
	assert_non_null(strstr(r->c->why, "output modifier"));
}

static void
test_wave32_masks(void **state)
{
	struct run *r = *state;
	/* v_cmp_lt_f64_e64 s0, v[2:3], v[4:5]: one SGPR in wave32 */
	const uint32_t cmp[2] = { 0xd4210000, 0x00020902 };
	double a = 1.0, b = 2.0;
	uint64_t x, y;

	memcpy(&x, &a, 8);
	memcpy(&y, &b, 8);
	sh_set_exec(r->w, 0xffffffffu);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		/* lanes below 8 compare 2.0 < 1.0 */
		r->w->v[2][l] = (uint32_t)(l < 8 ? y : x);
		r->w->v[3][l] = (uint32_t)((l < 8 ? y : x) >> 32);
		r->w->v[4][l] = (uint32_t)(l < 8 ? x : y);
		r->w->v[5][l] = (uint32_t)((l < 8 ? x : y) >> 32);
	}
	r->w->s[1] = 0x5a5a5a5au;
	assert_int_equal(step(r, cmp, 2), SH_NEXT);
	assert_int_equal(r->w->s[0], 0xffffff00u);
	assert_int_equal(r->w->s[1], 0x5a5a5a5au);
}

static void
test_literals(void **state)
{
	struct run *r = *state;
	/* gfx10 takes a literal in VOP3: v_mad_u64_u32 v[2:3], null,
	 * 0x14e9dd, v3, 0 and v_cndmask_b32_e64 v3, 0xffffff2f, 0, vcc_lo */
	const uint32_t mad[3] = { 0xd5767d02, 0x020206ff, 0x0014e9dd };
	const uint32_t cnd[3] = { 0xd5010003, 0x01a900ff, 0xffffff2f };
	uint32_t exec = 0xfffffff0u;

	sh_set_exec(r->w, exec);
	r->w->s[SH_VCC] = 0x0000ff00u;
	for (unsigned int l = 0; l < SH_LANES; l++)
		r->w->v[3][l] = 0x80000000u + l;
	assert_int_equal(step(r, mad, 3), SH_NEXT);
	for (unsigned int l = 4; l < 32; l++) {
		uint64_t want = 0x14e9ddull * (0x80000000u + l);

		assert_int_equal(r->w->v[2][l], (uint32_t)want);
		assert_int_equal(r->w->v[3][l], (uint32_t)(want >> 32));
	}
	/* the null carry leaves exec alone */
	assert_int_equal(sh_exec(r->w), exec);
	assert_int_equal(step(r, cnd, 3), SH_NEXT);
	assert_int_equal(r->w->v[3][4], 0xffffff2fu);
	assert_int_equal(r->w->v[3][8], 0);
}

static void
test_literal64(void **state)
{
	struct run *r = *state;
	/* s_mov_b64 s[4:5], 0xffffff2e: zero-extended (rocRAND's M1 - 1) */
	const uint32_t mov[2] = { 0xbe8404ff, 0xffffff2e };
	/* v_cmp_gt_i64_e64 s0, s[2:3], 0xffffff2e: sign-extended (-210);
	 * v_cmp_gt_u64_e64 s1, the same: zero-extended */
	const uint32_t gt_i[3] = { 0xd4a40000, 0x0001fe02, 0xffffff2e };
	const uint32_t gt_u[3] = { 0xd4e40001, 0x0001fe02, 0xffffff2e };

	sh_set_exec(r->w, 0xffffffffu);
	r->w->s[5] = 0x1234;
	assert_int_equal(step(r, mov, 2), SH_NEXT);
	assert_int_equal(r->w->s[4], 0xffffff2eu);
	assert_int_equal(r->w->s[5], 0);
	/* s[2:3] = 0: above -210, below 4294967086 */
	r->w->s[2] = 0;
	r->w->s[3] = 0;
	assert_int_equal(step(r, gt_i, 3), SH_NEXT);
	assert_int_equal(r->w->s[0], 0xffffffffu);
	assert_int_equal(step(r, gt_u, 3), SH_NEXT);
	assert_int_equal(r->w->s[1], 0);
}

static void
test_lane_select(void **state)
{
	struct run *r = *state;
	/* v_readlane_b32 s0, v1, s2 and v_writelane_b32 v0, s3, s2: the lane
	 * number modulo the wave's 32 lanes */
	const uint32_t rd[2] = { 0xd7600000, 0x00000501 };
	const uint32_t wr[2] = { 0xd7610000, 0x00000403 };

	lanes(r, 0xffffffffu, 0);
	r->w->s[2] = 33;
	r->w->s[3] = 0xabcd;
	assert_int_equal(step(r, rd, 2), SH_NEXT);
	assert_int_equal(r->w->s[0], 1);
	assert_int_equal(step(r, wr, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][1], 0xabcd);
	assert_int_equal(r->w->v[0][33], 0xdead0021u);
}

static void
test_setreg(void **state)
{
	struct run *r = *state;
	/* s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s12; ..._HI), s13 */
	const uint32_t lo = 0xb98cf814, hi = 0xb98df815;
	/* hwreg(HW_REG_FLAT_SCR_LO, 8, 8), s12: bits 15:8 only */
	const uint32_t part = 0xb98c3a14;
	/* s_setreg_b32 hwreg(HW_REG_GPR_ALLOC), s0: not writable */
	const uint32_t hw_id = 0xb980f805;

	r->w->flat_scr = 0;
	r->w->s[12] = 0x89abc000u;
	r->w->s[13] = 0x00007f12u;
	assert_int_equal(step(r, &lo, 1), SH_NEXT);
	assert_int_equal(step(r, &hi, 1), SH_NEXT);
	assert_int_equal(r->w->flat_scr, 0x00007f1289abc000ull);
	r->w->s[12] = 0xffffff55u;
	assert_int_equal(step(r, &part, 1), SH_NEXT);
	assert_int_equal(r->w->flat_scr, 0x00007f1289ab5500ull);
	assert_int_equal(step(r, &hw_id, 1), SH_FAIL);
	assert_non_null(strstr(r->c->why, "hardware register"));
}

static void
test_permlane(void **state)
{
	struct run *r = *state;
	/* v_permlane16_b32 v0, v1, s2, s3, then op_sel:[0,1] (bound_ctrl)
	 * and op_sel:[1,0] (fi); v_permlanex16_b32 v0, v1, s2, s3 */
	const uint32_t p16[2] = { 0xd7770000, 0x000c0501 };
	const uint32_t p16_bc[2] = { 0xd7771000, 0x000c0501 };
	const uint32_t p16_fi[2] = { 0xd7770800, 0x000c0501 };
	const uint32_t x16[2] = { 0xd7780000, 0x000c0501 };

	/* each row reversed: lane n of a row takes lane 15 - n */
	lanes(r, 0xffffffffu, 0);
	r->w->s[2] = 0x89abcdefu;
	r->w->s[3] = 0x01234567u;
	assert_int_equal(step(r, p16, 2), SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r->w->v[0][l], (l & ~15u) | (15 - (l & 15)));
	lanes(r, 0xffffffffu, 0);
	assert_int_equal(step(r, x16, 2), SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r->w->v[0][l], ((l & ~15u) ^ 16) | (15 - (l & 15)));
	/* lane 15 inactive: lane 0 keeps its value, reads 0 with bound_ctrl,
	 * or lane 15's value with fi */
	lanes(r, ~0x8000u, 0);
	assert_int_equal(step(r, p16, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 0xdead0000u);
	assert_int_equal(r->w->v[0][15], 0xdead000fu);
	assert_int_equal(r->w->v[0][1], 14);
	lanes(r, ~0x8000u, 0);
	assert_int_equal(step(r, p16_bc, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 0);
	lanes(r, ~0x8000u, 0);
	assert_int_equal(step(r, p16_fi, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 15);
}

/* Run @words on every lane with v1 = @a, v2 = @b, v0 = v3 = @acc. */
static uint32_t
dot_run(struct run *r, const uint32_t *words, unsigned int n, uint32_t a, uint32_t b,
	uint32_t acc)
{
	for (unsigned int l = 0; l < SH_LANES; l++) {
		r->w->v[1][l] = a;
		r->w->v[2][l] = b;
		r->w->v[3][l] = acc;
		r->w->v[0][l] = acc;
	}
	sh_set_exec(r->w, 0xffffffffu);
	assert_int_equal(step(r, words, n), SH_NEXT);
	for (unsigned int l = 1; l < 32; l++)
		assert_int_equal(r->w->v[0][l], r->w->v[0][0]);
	return r->w->v[0][0];
}

static void
test_dot(void **state)
{
	struct run *r = *state;
	/* v_dot*_* v0, v1, v2, v3 (VOP3P), then v_dot2c/v_dot4c v0, v1, v2 */
	const uint32_t f16[2] = { 0xcc134000, 0x1c0e0501 };
	/* op_sel:[1,0,0] op_sel_hi:[0,1,1] */
	const uint32_t f16_sel[2] = { 0xcc134800, 0x140e0501 };
	const uint32_t i16[2] = { 0xcc144000, 0x1c0e0501 };
	const uint32_t u16[2] = { 0xcc154000, 0x1c0e0501 };
	const uint32_t i8[2] = { 0xcc164000, 0x1c0e0501 };
	const uint32_t u8[2] = { 0xcc174000, 0x1c0e0501 };
	const uint32_t i4[2] = { 0xcc184000, 0x1c0e0501 };
	const uint32_t u4[2] = { 0xcc194000, 0x1c0e0501 };
	const uint32_t f16c = 0x04000501, i8c = 0x1a000501;
	/* v_dot4_i32_i8 v0, 1, v2, v3: a constant source */
	const uint32_t konst[2] = { 0xcc164000, 0x1c0e0481 };
	/* halves (1.5, 2.0) and (2.0, -0.5) */
	const uint32_t ha = 0x40003e00, hb = 0xb8004000;

	assert_true(f32(dot_run(r, f16, 2, ha, hb, u32(10.0f))) == 12.0f);
	/* low product a.hi * b.lo, high product a.lo * b.hi */
	assert_true(f32(dot_run(r, f16_sel, 2, ha, hb, u32(10.0f))) == 13.25f);
	assert_true(f32(dot_run(r, &f16c, 1, ha, hb, u32(10.0f))) == 12.0f);
	/* (-3, 4) . (5, -6) + 100 */
	assert_int_equal(dot_run(r, i16, 2, 0x0004fffd, 0xfffa0005, 100), 61);
	assert_int_equal(dot_run(r, u16, 2, 0x00020003, 0xffff0002, 1), 131077);
	/* (-1, 2, -3, 4) . (5, 6, 7, -8) + 50 */
	assert_int_equal(dot_run(r, i8, 2, 0x04fd02ff, 0xf8070605, 50), 4);
	assert_int_equal(dot_run(r, &i8c, 1, 0x04fd02ff, 0xf8070605, 50), 4);
	assert_int_equal(dot_run(r, u8, 2, 0xff020304, 0x01020304, 0), 284);
	/* eight -1s times nibbles -8, 7, 6, ..., 1 */
	assert_int_equal(dot_run(r, i4, 2, 0xffffffff, 0x12345678, 0), 0xffffffec);
	assert_int_equal(dot_run(r, u4, 2, 0xffffffff, 0x12345678, 0), 540);
	assert_int_equal(step(r, konst, 2), SH_FAIL);
}

static void
test_mode(void **state)
{
	struct run *r = *state;
	/* s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s2; s_getreg_b32 s3,
	 * hwreg(HW_REG_MODE); the f32 field alone (0, 2); the denormal
	 * field (4, 4); v_add_f32_e32 v0, v1, v2 */
	const uint32_t set_round = 0xb9821801, get = 0xb903f801;
	const uint32_t set_f32 = 0xb9820801, set_denorm = 0xb9821901;
	const uint32_t add = 0x06000501;
	int round;

	r->w->mode = SH_MODE_DEFAULT;
	/* toward zero for every precision: kept, and read back */
	r->w->s[2] = 0xf;
	assert_int_equal(step(r, &set_round, 1), SH_NEXT);
	assert_int_equal(r->w->mode, 0xff);
	assert_int_equal(step(r, &get, 1), SH_NEXT);
	assert_int_equal(r->w->s[3], 0xff);
	/* the host's rounding the interpreter then computes with */
	round = sh_mode_round(r->w->mode);
	assert_int_equal(round, FE_TOWARDZERO);
	lanes(r, 1, 0);
	r->w->v[1][0] = u32(1.0f);
	r->w->v[2][0] = u32(-0x1p-30f);
	fesetround(round);
	assert_int_equal(step(r, &add, 1), SH_NEXT);
	fesetround(FE_TONEAREST);
	assert_int_equal(r->w->v[0][0], 0x3f7fffffu);
	assert_int_equal(step(r, &add, 1), SH_NEXT);
	assert_int_equal(r->w->v[0][0], u32(1.0f));
	/* back to nearest even */
	r->w->s[2] = 0;
	assert_int_equal(step(r, &set_round, 1), SH_NEXT);
	assert_int_equal(r->w->mode, SH_MODE_DEFAULT);
	assert_int_equal(sh_mode_round(r->w->mode), -1);
	/* f32 rounding unlike f64's, or denormals flushed: not modelled */
	r->w->s[2] = 3;
	assert_int_equal(step(r, &set_f32, 1), SH_FAIL);
	assert_non_null(strstr(r->c->why, "rounding mode per precision"));
	r->w->s[2] = 0;
	assert_int_equal(step(r, &set_denorm, 1), SH_FAIL);
	assert_non_null(strstr(r->c->why, "denormals"));
	assert_int_equal(r->w->mode, SH_MODE_DEFAULT);
}

static void
test_opsel16(void **state)
{
	struct run *r = *state;
	/* v_add_nc_u16 v0, v1, v2 op_sel:[1,0,1] and op_sel:[0,1,0] */
	const uint32_t hi_hi[2] = { 0xd7034800, 0x00020501 };
	const uint32_t lo_hi[2] = { 0xd7031000, 0x00020501 };

	lanes(r, 1, 0);
	r->w->v[1][0] = 0x00050003;
	r->w->v[2][0] = 0xaaaa0007;
	/* src0's high half plus src1's low half, into the high half */
	r->w->v[0][0] = 0x1234beef;
	assert_int_equal(step(r, hi_hi, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 0x000cbeef);
	/* src0's low half plus src1's high half, the high half kept */
	r->w->v[0][0] = 0x1234beef;
	assert_int_equal(step(r, lo_hi, 2), SH_NEXT);
	assert_int_equal(r->w->v[0][0], 0x1234aaad);
}

#define SCR_VA		0x62000000ull	/* the wave's scratch (a userptr BO) */
#define SCR_SIZE	4096u

static int
kt_setup(void **state)
{
	struct kt *t = calloc(1, sizeof(*t));

	if (!t || kt_open(t, "rx6900xt", 0)) {
		free(t);
		return -1;
	}
	*state = t;
	return kt_acquire_all(t) ? -1 : 0;
}

/* d16 loads from private memory: swizzled per 32 lanes, one half kept. */
static void
test_scratch_d16(void **state)
{
	/* scratch_load_short_d16 v1, v2, off; scratch_load_sbyte_d16_hi v1, v2, off */
	const uint32_t lo16[2] = { 0xdc904000, 0x017d0002 };
	const uint32_t hi8[2] = { 0xdc8c4000, 0x017d0002 };
	struct kt *t = *state;
	struct ksim_cp cp = { .p = t->kfd->proc, .dev = t->dev };
	struct ksim_cpq cq = { .gpu = 0 };
	struct run r = { .c = lt_ctx_new(KFD_ISA_GFX1030, 32, 0) };
	uint32_t *scr = (uint32_t *)kt_userptr_mapped(t, 0, SCR_VA, SCR_SIZE);
	enum sh_step s;

	assert_non_null(r.c);
	assert_non_null(scr);
	r.c->cp = &cp;
	r.c->cq = &cq;
	r.w = &r.c->waves[0];
	r.w->flat_scr = SCR_VA;
	memset(scr, 0, SCR_SIZE);
	/* offset 4 of each lane: its dword 1, at (1 * 32 + lane) * 4 */
	for (unsigned int l = 0; l < 32; l++)
		scr[32 + l] = 0x12348000u | (0x80 + l);
	lanes(&r, 0xffffffffu, 0);
	for (unsigned int l = 0; l < 32; l++) {
		r.w->v[1][l] = 0xdead0000u;
		r.w->v[2][l] = 4;
	}
	pthread_mutex_lock(&t->dev->lock);
	s = step(&r, lo16, 2);
	pthread_mutex_unlock(&t->dev->lock);
	assert_int_equal(s, SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r.w->v[1][l], 0xdead0000u | (0x8080 + l));
	/* the byte, sign-extended to 16 bits, into the high half */
	pthread_mutex_lock(&t->dev->lock);
	s = step(&r, hi8, 2);
	pthread_mutex_unlock(&t->dev->lock);
	assert_int_equal(s, SH_NEXT);
	for (unsigned int l = 0; l < 32; l++)
		assert_int_equal(r.w->v[1][l], (0xff80u + l) << 16 | (0x8080 + l));
	lt_ctx_free(r.c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dpp16),
		cmocka_unit_test(test_dpp8),
		cmocka_unit_test(test_omod),
		cmocka_unit_test(test_wave32_masks),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_literal64),
		cmocka_unit_test(test_lane_select),
		cmocka_unit_test(test_setreg),
		cmocka_unit_test(test_permlane),
		cmocka_unit_test(test_dot),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_opsel16),
		cmocka_unit_test_setup_teardown(test_scratch_d16, kt_setup, kt_teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
