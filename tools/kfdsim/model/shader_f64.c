/* SPDX-License-Identifier: MIT */
/*
 * Double precision (AMD's MI200 ISA, VOP1/VOP2/VOP3/VOPC F64 rows): the
 * arithmetic, rounding, frexp/ldexp, the conversions to and from f32 and
 * 32-bit integers (saturating; NaN converts to 0), the compares and
 * v_cmp_class_f64, and the division steps the compilers emit for a / b:
 *
 *   v_div_scale_f64   scale the operands when the quotient or the
 *                     reciprocal would leave the normal range, and say so
 *                     in VCC (sdst)
 *   v_rcp_f64         the reciprocal, refined by Newton steps in v_fma_f64
 *   v_div_fmas_f64    the last fma, undoing the scale where VCC says
 *   v_div_fixup_f64   NaN, infinity, zero and over/underflow from the
 *                     original operands
 *
 * v_rcp_f64 and v_rsq_f64 are correctly rounded here (the hardware's are
 * within an ulp); the refinement the compilers emit then gives the same
 * quotient and root.
 */
#include <math.h>
#include <string.h>

#include "shader_priv.h"

static double d64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t u64(double d) { uint64_t v; memcpy(&v, &d, 8); return v; }
static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

/* The biased exponent of @d. */
static int
expo(double d)
{
	return (int)((u64(d) >> 52) & 0x7ff);
}

int
sh_f64_row(unsigned int id)
{
	return id >= SH_OP_V_ADD_F64 && id <= SH_OP_V_CMP_CLASS_F64;
}

static int
is_cmp(unsigned int id)
{
	return id >= SH_OP_V_CMP_F_F64 && id <= SH_OP_V_CMP_CLASS_F64;
}

/* Sources of 32 bits: the integer and f32 inputs, the class mask. */
static int
src_is32(unsigned int id, unsigned int k)
{
	switch (id) {
	case SH_OP_V_CVT_F64_F32: case SH_OP_V_CVT_F64_I32: case SH_OP_V_CVT_F64_U32:
		return 1;
	case SH_OP_V_LDEXP_F64: case SH_OP_V_CMP_CLASS_F64:
		return k == 1;
	}
	return 0;
}

/* The result is 32 bits wide. */
static int
dst_is32(unsigned int id)
{
	switch (id) {
	case SH_OP_V_CVT_F32_F64: case SH_OP_V_CVT_I32_F64: case SH_OP_V_CVT_U32_F64:
	case SH_OP_V_FREXP_EXP_I32_F64:
		return 1;
	}
	return 0;
}

static int
cmp(unsigned int id, double a, double b, uint64_t ua, uint32_t mask)
{
	switch (id) {
	case SH_OP_V_CMP_F_F64: return 0;
	case SH_OP_V_CMP_LT_F64: return a < b;
	case SH_OP_V_CMP_EQ_F64: return a == b;
	case SH_OP_V_CMP_LE_F64: return a <= b;
	case SH_OP_V_CMP_GT_F64: return a > b;
	case SH_OP_V_CMP_LG_F64: return a < b || a > b;
	case SH_OP_V_CMP_GE_F64: return a >= b;
	case SH_OP_V_CMP_O_F64: return !isnan(a) && !isnan(b);
	case SH_OP_V_CMP_U_F64: return isnan(a) || isnan(b);
	case SH_OP_V_CMP_NGE_F64: return !(a >= b);
	case SH_OP_V_CMP_NLG_F64: return !(a < b || a > b);
	case SH_OP_V_CMP_NGT_F64: return !(a > b);
	case SH_OP_V_CMP_NLE_F64: return !(a <= b);
	case SH_OP_V_CMP_NEQ_F64: return !(a == b);
	case SH_OP_V_CMP_NLT_F64: return !(a < b);
	case SH_OP_V_CMP_TRU_F64: return 1;
	}
	return (sh_fclass(ua, 11, 52) & mask) != 0;	/* v_cmp_class_f64 */
}

static uint32_t
cvt_i32(double x)
{
	if (isnan(x))
		return 0;
	if (x >= 2147483647.0)
		return 0x7fffffffu;
	if (x <= -2147483648.0)
		return 0x80000000u;
	return (uint32_t)(int32_t)x;
}

static uint32_t
cvt_u32(double x)
{
	if (isnan(x) || x <= 0)
		return 0;
	return x >= 4294967295.0 ? 0xffffffffu : (uint32_t)x;
}

/*
 * v_div_scale_f64 @s0 (the value scaled: the numerator or the
 * denominator), @den, @num; *vcc: the quotient needs the final scale.
 */
static double
div_scale(double s0, double den, double num, int *vcc)
{
	int en = expo(num), ed = expo(den);

	*vcc = 0;
	if (num == 0 || den == 0)
		return NAN;
	if (en - ed >= 768) {
		/* the quotient near the largest double */
		*vcc = 1;
		return s0 == den ? ldexp(s0, 128) : s0;
	}
	if (!ed)
		return ldexp(s0, 128);
	if (!expo(1 / den) && !expo(num / den)) {
		*vcc = 1;
		return s0 == den ? ldexp(s0, 128) : s0;
	}
	if (!expo(1 / den))
		return ldexp(s0, -128);
	if (!expo(num / den)) {
		*vcc = 1;
		return s0 == num ? ldexp(s0, 128) : s0;
	}
	if (en <= 53)
		return ldexp(s0, 128);	/* a tiny numerator */
	return s0;
}

/* v_div_fixup_f64: the quotient @q of @num / @den, special cases. */
static double
div_fixup(double q, double den, double num)
{
	int neg = signbit(den) != signbit(num);

	if (isnan(num))
		return num;
	if (isnan(den))
		return den;
	if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0)
		return neg ? -0.0 : 0.0;
	if (expo(num) - expo(den) < -1075)
		return neg ? -0.0 : 0.0;	/* underflow */
	if (expo(den) == 0x7ff)
		return neg ? -INFINITY : INFINITY;
	return neg ? -fabs(q) : fabs(q);
}

enum sh_step
sh_f64(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w), mask = 0, vcc_in = 0;
	unsigned int id = i->id, abs = o->abs, sdst = o->sdst;
	int vop3b = id == SH_OP_V_DIV_SCALE_F64;

	/* VOP3B: bits 14:8 are sdst, not abs and clamp */
	if (vop3b) {
		sdst = (f->words[0] >> 8) & 0x7f;
		abs = 0;
	} else if (o->clamp) {
		return sh_illegal(c, w, i, "clamp");
	}
	if (f->form == KFD_ISA_FORM_DPP || f->form == KFD_ISA_FORM_SDWA)
		return sh_illegal(c, w, i, "a 64-bit DPP or SDWA form");
	if (id == SH_OP_V_DIV_FMAS_F64)
		vcc_in = sh_mask(w, SH_VCC);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint64_t s[3] = { 0, 0, 0 }, r = 0;
		double a, b, d;
		int vcc = 0, e = 0;

		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < o->nsrc; k++) {
			if (src_is32(id, k)) {
				uint32_t v;

				if (sh_src32(w, i, o->src[k], l, &v))
					return sh_illegal(c, w, i, "operand");
				s[k] = v;
				if (id == SH_OP_V_CVT_F64_F32) {
					if ((abs >> k) & 1)
						s[k] &= 0x7fffffffu;
					if ((o->neg >> k) & 1)
						s[k] ^= 0x80000000u;
				}
				continue;
			}
			if (sh_src64(w, i, o->src[k], l, 1, &s[k]))
				return sh_illegal(c, w, i, "operand");
			if ((abs >> k) & 1)
				s[k] &= ~(1ull << 63);
			if ((o->neg >> k) & 1)
				s[k] ^= 1ull << 63;
		}
		a = d64(s[0]);
		b = d64(s[1]);
		d = d64(s[2]);
		if (is_cmp(id)) {
			if (cmp(id, a, b, s[0], (uint32_t)s[1]))
				mask |= 1ull << l;
			continue;
		}
		switch (id) {
		case SH_OP_V_ADD_F64: r = u64(a + b); break;
		case SH_OP_V_MUL_F64: r = u64(a * b); break;
		case SH_OP_V_FMA_F64: r = u64(fma(a, b, d)); break;
		case SH_OP_V_FMAC_F64:
			r = u64(fma(a, b, d64((uint64_t)w->v[o->vdst][l] |
					     (uint64_t)w->v[(o->vdst + 1) % SH_VGPRS][l] << 32)));
			break;
		case SH_OP_V_MIN_F64: r = u64(fmin(a, b)); break;
		case SH_OP_V_MAX_F64: r = u64(fmax(a, b)); break;
		case SH_OP_V_LDEXP_F64: r = u64(ldexp(a, (int32_t)s[1])); break;
		case SH_OP_V_DIV_SCALE_F64:
			r = u64(div_scale(a, b, d, &vcc));
			mask |= (uint64_t)vcc << l;
			break;
		case SH_OP_V_DIV_FMAS_F64:
			/* the scale v_div_scale_f64 applied, undone: up for a
			 * quotient that is large, down for a small one */
			r = u64((vcc_in >> l) & 1 ? ldexp(fma(a, b, d), expo(d) >= 1023 ? 128 : -128) :
				fma(a, b, d));
			break;
		case SH_OP_V_DIV_FIXUP_F64: r = u64(div_fixup(a, b, d)); break;
		case SH_OP_V_RCP_F64: r = u64(1.0 / a); break;
		case SH_OP_V_RSQ_F64: r = u64(1.0 / sqrt(a)); break;
		case SH_OP_V_SQRT_F64: r = u64(sqrt(a)); break;
		case SH_OP_V_FLOOR_F64: r = u64(floor(a)); break;
		case SH_OP_V_CEIL_F64: r = u64(ceil(a)); break;
		case SH_OP_V_TRUNC_F64: r = u64(trunc(a)); break;
		case SH_OP_V_RNDNE_F64: r = u64(rint(a)); break;
		case SH_OP_V_FRACT_F64:
			r = u64(isinf(a) ? NAN : fmin(a - floor(a), 0x1.fffffffffffffp-1));
			break;
		case SH_OP_V_FREXP_EXP_I32_F64:
			if (!isnan(a) && !isinf(a))
				frexp(a, &e);
			r = (uint32_t)e;
			break;
		case SH_OP_V_FREXP_MANT_F64:
			r = isnan(a) || isinf(a) ? s[0] : u64(frexp(a, &e));
			break;
		case SH_OP_V_CVT_F32_F64: r = u32((float)a); break;
		case SH_OP_V_CVT_F64_F32: r = u64((double)f32((uint32_t)s[0])); break;
		case SH_OP_V_CVT_F64_I32: r = u64((double)(int32_t)s[0]); break;
		case SH_OP_V_CVT_F64_U32: r = u64((double)(uint32_t)s[0]); break;
		case SH_OP_V_CVT_I32_F64: r = cvt_i32(a); break;
		case SH_OP_V_CVT_U32_F64: r = cvt_u32(a); break;
		default:
			return sh_illegal(c, w, i, NULL);
		}
		w->v[o->vdst][l] = (uint32_t)r;
		if (!dst_is32(id))
			w->v[(o->vdst + 1) % SH_VGPRS][l] = (uint32_t)(r >> 32);
	}
	if (is_cmp(id)) {
		/* gfx10's v_cmpx (no destination in its row) writes exec only */
		if (!i->in->f.dst_dwords)
			sh_set_exec(w, mask);
		else
			sh_set_mask(w, o->vdst, mask);
	} else if (vop3b) {
		sh_set_mask(w, sdst, mask);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
