/* SPDX-License-Identifier: MIT */
/*
 * Half precision, as rocRAND's half generators use it (AMD's MI200 ISA):
 *
 *   VOP1/VOP2/VOP3/VOPC   v_add/sub/mul/fma/sqrt_f16, v_cmp_class_f16,
 *                         v_cvt_f32_f16, v_pack_b32_f16: the low half of
 *                         each source (VOP3 op_sel: the high one), the
 *                         result in the low half and 0 above, the high
 *                         half kept on gfx10 (op_sel bit 3: the high
 *                         half, the low one kept)
 *   VOP3P packed          v_pk_fma/mul/add_f16: op_sel picks the half of
 *                         each source the low result takes, op_sel_hi the
 *                         high result's; neg_lo and neg_hi negate them
 *   VOP3P mixed           v_fma_mix_f32, v_fma_mixlo_f16, v_fma_mixhi_f16:
 *                         a source is f16 (its op_sel half) where op_sel_hi
 *                         is set, else f32; neg_lo negates, neg_hi takes
 *                         the absolute value; mixlo/mixhi round to f16 into
 *                         one half and keep the other
 *
 * Float modifiers flip or clear bit 15. The float inline constants of a
 * 16-bit operand are f16 values. The FLAT stores of a high half
 * (global_store_byte_d16_hi, global_store_short_d16_hi) are here too.
 */
#include <math.h>
#include <string.h>

#include "shader_priv.h"

/* The inline constants 240..248 as f16: 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2 pi). */
static const uint16_t f16_const[9] = {
	0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
};

/* f16 bits to float: exact (every f16 is a float). */
float
sh_h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
	float f;

	if (e == 0x1f)
		bits = sign | 0x7f800000 | m << 13;
	else if (e)
		bits = sign | (e + 112) << 23 | m << 13;
	else if (!m)
		bits = sign;
	else
		return sign ? -ldexpf((float)m, -24) : ldexpf((float)m, -24);
	memcpy(&f, &bits, 4);
	return f;
}

/*
 * A double to f16 bits, rounded to nearest even once (a conversion
 * through float would round twice). Written out rather than with
 * _Float16, which not every compiler of the project has on x86.
 */
uint16_t
sh_f2h(double d)
{
	uint64_t b, m, r, rem, half;
	uint16_t sign;
	int exp, e;
	unsigned int shift;

	memcpy(&b, &d, 8);
	sign = (uint16_t)((b >> 48) & 0x8000);
	exp = (int)((b >> 52) & 0x7ff);
	m = b & 0xfffffffffffffull;
	if (exp == 0x7ff)	/* inf, or a quiet NaN with the top payload bits */
		return (uint16_t)(sign | 0x7c00 | (m ? 0x200 | (m >> 42) : 0));
	if (!exp)		/* a double denormal is far below f16's range */
		return sign;
	m |= 1ull << 52;
	e = exp - 1023 + 15;	/* f16's biased exponent */
	shift = e >= 1 ? 42 : 42 + (unsigned int)(1 - e);
	if (shift >= 64)
		return sign;
	r = m >> shift;
	rem = m & ((1ull << shift) - 1);
	half = 1ull << (shift - 1);
	if (rem > half || (rem == half && (r & 1)))
		r++;
	if (e < 1)		/* a denormal; 0x400 is the least normal */
		return (uint16_t)(sign | r);
	r += (uint64_t)(e - 1) << 10;	/* the implicit bit carries into e */
	return (uint16_t)(sign | (r >= 0x7c00 ? 0x7c00 : r));
}

static float
h2f(uint32_t v)
{
	return sh_h2f((uint16_t)v);
}

static uint32_t
f2h(double d)
{
	return sh_f2h(d);
}

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

int
sh_f16_row(unsigned int id)
{
	return (id >= SH_OP_V_ADD_F16 && id <= SH_OP_V_FMA_MIXHI_F16) ||
	       id == SH_OP_V_CVT_F32_F16 || id == SH_OP_V_PACK_B32_F16;
}

/* A source read as 16-bit: f16 float constants. @c32: f32 ones instead. */
static int
src(const struct sh_wave *w, const struct sh_insn *i, unsigned int f, unsigned int lane,
    int c32, uint32_t *v)
{
	if (!c32 && f >= 240 && f <= 248) {
		*v = f16_const[f - 240];
		return 0;
	}
	return sh_src32(w, i, f, lane, v);
}

/* abs then neg on bit @sign of @v. */
static uint32_t
fmod16(uint32_t v, int abs, int neg, unsigned int sign)
{
	if (abs)
		v &= ~(1u << sign);
	if (neg)
		v ^= 1u << sign;
	return v;
}

enum sh_step
sh_f16(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w), mask = 0;
	unsigned int op_sel = 0, id = i->id;
	int vop3 = f->form == KFD_ISA_FORM_VOP3 || f->enc == KFD_ISA_VOP3;

	if (o->clamp)
		return sh_illegal(c, w, i, "clamp");
	if (id >= SH_OP_V_PK_FMA_F16 && id <= SH_OP_V_FMA_MIXHI_F16)
		return sh_illegal(c, w, i, "this encoding form");
	if (vop3)
		op_sel = (f->words[0] >> 11) & 15;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t s[3] = { 0, 0, 0 }, r, old = w->v[o->vdst][l];

		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < o->nsrc; k++) {
			if (src(w, i, o->src[k], l, 0, &s[k]))
				return sh_illegal(c, w, i, "operand");
			/* v_cmp_class_f16's mask is a 32-bit integer */
			if (id == SH_OP_V_CMP_CLASS_F16 && k == 1)
				continue;
			if ((op_sel >> k) & 1)
				s[k] >>= 16;
			s[k] = fmod16(s[k] & 0xffff, (o->abs >> k) & 1, (o->neg >> k) & 1, 15);
		}
		switch (id) {
		case SH_OP_V_ADD_F16: r = f2h((double)h2f(s[0]) + h2f(s[1])); break;
		case SH_OP_V_SUB_F16: r = f2h((double)h2f(s[0]) - h2f(s[1])); break;
		case SH_OP_V_MUL_F16: r = f2h((double)h2f(s[0]) * h2f(s[1])); break;
		case SH_OP_V_FMA_F16:
			r = f2h(fma((double)h2f(s[0]), h2f(s[1]), h2f(s[2])));
			break;
		case SH_OP_V_SQRT_F16: r = f2h(sqrt((double)h2f(s[0]))); break;
		case SH_OP_V_CVT_F32_F16: r = u32(h2f(s[0])); break;
		case SH_OP_V_PACK_B32_F16: r = s[0] | s[1] << 16; break;
		case SH_OP_V_CMP_CLASS_F16:
			if (sh_fclass(s[0], 5, 10) & s[1])
				mask |= 1ull << l;
			continue;
		default:
			return sh_illegal(c, w, i, NULL);
		}
		/* op_sel bit 3: the result to the high half; gfx10 keeps
		 * the other half of a 16-bit result's VGPR, gfx9 zeroes it */
		if (id != SH_OP_V_CVT_F32_F16 && id != SH_OP_V_PACK_B32_F16 && (op_sel & 8))
			r = (old & 0xffff) | r << 16;
		else if (id != SH_OP_V_CVT_F32_F16 && id != SH_OP_V_PACK_B32_F16 && sh_gen10(c))
			r = (old & 0xffff0000u) | (r & 0xffff);
		w->v[o->vdst][l] = r;
	}
	if (id == SH_OP_V_CMP_CLASS_F16) {
		/* gfx10's v_cmpx (no destination in its row) writes exec only */
		if (!i->in->f.dst_dwords)
			sh_set_exec(w, mask);
		else
			sh_set_mask(w, o->vdst, mask);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_f16_vop3p(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int vdst = w0 & 0xff, neg_hi = (w0 >> 8) & 7, op_sel = (w0 >> 11) & 7;
	unsigned int op_sel_hi = ((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2, neg_lo = (w1 >> 29) & 7;
	unsigned int field[3] = { w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff };
	unsigned int id = i->id, nsrc = id == SH_OP_V_PK_MUL_F16 || id == SH_OP_V_PK_ADD_F16 ? 2 : 3;
	int mix = id >= SH_OP_V_FMA_MIX_F32;
	uint64_t exec = sh_exec(w);

	if ((w0 >> 15) & 1)
		return sh_illegal(c, w, i, "clamp");
	if (id < SH_OP_V_PK_FMA_F16)
		return sh_illegal(c, w, i, "this encoding form");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t s[3] = { 0, 0, 0 }, lo[3], hi[3], r;
		float x[3];

		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < nsrc; k++) {
			/* a mixed source is f32 unless op_sel_hi makes it f16 */
			int c32 = mix && !((op_sel_hi >> k) & 1);

			if (src(w, i, field[k], l, c32, &s[k]))
				return sh_illegal(c, w, i, "operand");
			if (mix) {
				x[k] = c32 ? f32(s[k]) : h2f(s[k] >> ((op_sel >> k) & 1 ? 16 : 0));
				if ((neg_hi >> k) & 1)
					x[k] = fabsf(x[k]);
				if ((neg_lo >> k) & 1)
					x[k] = -x[k];
				continue;
			}
			lo[k] = fmod16((s[k] >> ((op_sel >> k) & 1 ? 16 : 0)) & 0xffff, 0,
				       (neg_lo >> k) & 1, 15);
			hi[k] = fmod16((s[k] >> ((op_sel_hi >> k) & 1 ? 16 : 0)) & 0xffff, 0,
				       (neg_hi >> k) & 1, 15);
		}
		switch (id) {
		case SH_OP_V_PK_FMA_F16:
			r = f2h(fma((double)h2f(lo[0]), h2f(lo[1]), h2f(lo[2]))) |
			    f2h(fma((double)h2f(hi[0]), h2f(hi[1]), h2f(hi[2]))) << 16;
			break;
		case SH_OP_V_PK_MUL_F16:
			r = f2h((double)h2f(lo[0]) * h2f(lo[1])) |
			    f2h((double)h2f(hi[0]) * h2f(hi[1])) << 16;
			break;
		case SH_OP_V_PK_ADD_F16:
			r = f2h((double)h2f(lo[0]) + h2f(lo[1])) |
			    f2h((double)h2f(hi[0]) + h2f(hi[1])) << 16;
			break;
		case SH_OP_V_FMA_MIX_F32:
			r = u32(fmaf(x[0], x[1], x[2]));
			break;
		case SH_OP_V_FMA_MIXLO_F16:
			r = (w->v[vdst][l] & 0xffff0000u) | f2h(fma((double)x[0], x[1], x[2]));
			break;
		default:
			r = (w->v[vdst][l] & 0xffffu) | f2h(fma((double)x[0], x[1], x[2])) << 16;
			break;
		}
		w->v[vdst][l] = r;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_store_d16_hi(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f, addr = w1 & 0xff;
	unsigned int data = ((w1 >> 8) & 0xff) + ((w1 >> 23) & 1) * 256;
	unsigned int n = i->id == SH_OP_GLOBAL_STORE_BYTE_D16_HI ? 1 : 2;
	/* gfx10: 12-bit offsets, null (125) is no SGPR base, no AGPRs */
	int64_t off = sh_gen10(c) ? (int64_t)(w0 & 0xfff) - ((w0 & 0x800) ? 0x1000 : 0) :
		      seg == 0 ? (int64_t)(w0 & 0xfff) :
		      (int64_t)(w0 & 0x1fff) - ((w0 & 0x1000) ? 0x2000 : 0);
	unsigned int no_saddr = sh_gen10(c) ? SH_NULL : 0x7f;
	uint64_t exec = sh_exec(w);

	if (sh_gen10(c))
		data = (w1 >> 8) & 0xff;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t v = w->v[data % SH_VGPRS][l] >> 16;
		uint64_t va;

		if (!((exec >> l) & 1))
			continue;
		if (seg == 2 && saddr != no_saddr)
			va = sh_sreg64(w, saddr) + w->v[addr][l];
		else
			va = (uint64_t)w->v[addr][l] | (uint64_t)w->v[(addr + 1) % SH_VGPRS][l] << 32;
		va += (uint64_t)off;
		if (cp_mem_rw(c->cp, c->cq, va, &v, n, 1))
			return sh_fault(c, w, va, "store");
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
