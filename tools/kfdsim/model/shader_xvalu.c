/* SPDX-License-Identifier: MIT */
/*
 * The vector rows rocPRIM's and rocRAND's kernels add to the compilers'
 * everyday ones (shader_valu.c): population count, byte permute, the
 * 24-bit high multiplies, three-way min/max, byte-to-float conversions,
 * gfx9's 16-bit integer ALU and compares (which write the low half and
 * clear the high one), the f32 transcendentals (v_exp_f32 and v_log_f32
 * are base 2; v_sin_f32 and v_cos_f32 take revolutions, not radians),
 * float classes, f32 to f16, and v_add_u32/v_sub_u32 with clamp
 * (unsigned saturation). Double precision is in shader_f64.c, half
 * precision in shader_f16.c. Results are correctly rounded where the
 * hardware's are within an ulp: the compilers' code refines them as it
 * must on hardware.
 */
#include <math.h>
#include <string.h>

#include "shader_priv.h"

static float xf32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t xu32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

/* The rows that take floats: input modifiers apply. */
static int
takes_float(unsigned int id)
{
	switch (id) {
	case SH_OP_V_EXP_F32: case SH_OP_V_LOG_F32: case SH_OP_V_SIN_F32: case SH_OP_V_COS_F32:
	case SH_OP_V_RSQ_F32: case SH_OP_V_RNDNE_F32: case SH_OP_V_CEIL_F32:
	case SH_OP_V_FRACT_F32: case SH_OP_V_LDEXP_F32: case SH_OP_V_FREXP_EXP_I32_F32:
	case SH_OP_V_FREXP_MANT_F32: case SH_OP_V_CMP_CLASS_F32: case SH_OP_V_CVT_F16_F32:
	case SH_OP_V_CVT_PKRTZ_F16_F32:
		return 1;
	}
	return 0;
}

/* The 16-bit rows (VOP3 op_sel picks halves: sh_xvalu()). */
static int
is_16bit(unsigned int id)
{
	return id >= SH_OP_V_ADD_U16 && id <= SH_OP_V_CMP_GE_I16;
}

static int
is_compare(unsigned int id)
{
	return (id >= SH_OP_V_CMP_LT_U16 && id <= SH_OP_V_CMP_GE_I16) ||
	       id == SH_OP_V_CMP_CLASS_F32;
}

uint32_t
sh_fclass(uint64_t v, unsigned int exp_bits, unsigned int man_bits)
{
	uint64_t man = v & ((1ull << man_bits) - 1);
	uint64_t exp = (v >> man_bits) & ((1ull << exp_bits) - 1);
	int neg = (int)((v >> (man_bits + exp_bits)) & 1);

	if (exp == (1ull << exp_bits) - 1) {
		if (man)
			return (man >> (man_bits - 1)) & 1 ? 1u << 1 : 1u << 0;
		return neg ? 1u << 2 : 1u << 9;
	}
	if (exp)
		return neg ? 1u << 3 : 1u << 8;
	if (man)
		return neg ? 1u << 4 : 1u << 7;
	return neg ? 1u << 5 : 1u << 6;
}

static int
cmp16(unsigned int id, uint32_t a, uint32_t b)
{
	uint16_t ua = (uint16_t)a, ub = (uint16_t)b;
	int16_t sa = (int16_t)ua, sb = (int16_t)ub;

	switch (id) {
	case SH_OP_V_CMP_LT_U16: return ua < ub;
	case SH_OP_V_CMP_EQ_U16: case SH_OP_V_CMP_EQ_I16: return ua == ub;
	case SH_OP_V_CMP_LE_U16: return ua <= ub;
	case SH_OP_V_CMP_GT_U16: return ua > ub;
	case SH_OP_V_CMP_NE_U16: case SH_OP_V_CMP_NE_I16: return ua != ub;
	case SH_OP_V_CMP_GE_U16: return ua >= ub;
	case SH_OP_V_CMP_LT_I16: return sa < sb;
	case SH_OP_V_CMP_LE_I16: return sa <= sb;
	case SH_OP_V_CMP_GT_I16: return sa > sb;
	case SH_OP_V_CMP_GE_I16: return sa >= sb;
	}
	return (sh_fclass(a, 8, 23) & b) != 0;		/* v_cmp_class_f32 */
}

/* f32 to f16 rounded toward zero (v_cvt_pkrtz_f16_f32). */
static uint16_t
f16_rtz(float x)
{
	uint16_t r = sh_f2h(x);

	/* rounded away from zero: one step back, inf to the largest finite */
	if (!isnan(x) && fabsf(sh_h2f(r)) > fabsf(x))
		r = (uint16_t)(r - 1);
	return r;
}

static uint32_t
byte_perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
	uint64_t v = (uint64_t)s0 << 32 | s1;
	uint32_t r = 0;

	for (unsigned int k = 0; k < 4; k++) {
		unsigned int s = (sel >> (k * 8)) & 0xff;
		uint32_t b;

		if (s < 8)
			b = (uint32_t)(v >> (s * 8)) & 0xff;
		else if (s < 12)	/* the sign of byte 1, 3, 5 or 7 */
			b = (v >> ((s - 8) * 16 + 15)) & 1 ? 0xff : 0;
		else
			b = s == 12 ? 0 : 0xff;
		r |= b << (k * 8);
	}
	return r;
}

static uint32_t
frexp_exp(float x)
{
	int e = 0;

	if (isnan(x) || isinf(x))
		return 0;
	frexpf(x, &e);
	return (uint32_t)e;
}

static int
one(unsigned int id, uint32_t a, uint32_t b, uint32_t d, uint32_t *r)
{
	float fa = xf32(a);
	int e;

	switch (id) {
	case SH_OP_V_BCNT_U32_B32: *r = (uint32_t)__builtin_popcount(a) + b; break;
	case SH_OP_V_PERM_B32: *r = byte_perm(a, b, d); break;
	case SH_OP_V_XAD_U32: *r = (a ^ b) + d; break;
	case SH_OP_V_MUL_HI_U32_U24:
		*r = (uint32_t)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32);
		break;
	case SH_OP_V_MUL_HI_I32_I24:
		*r = (uint32_t)(((int64_t)((int32_t)(a << 8) >> 8) *
				 (int64_t)((int32_t)(b << 8) >> 8)) >> 32);
		break;
	case SH_OP_V_BFM_B32: *r = ((1u << (a & 31)) - 1) << (b & 31); break;
	case SH_OP_V_MIN3_U32: *r = a < b ? a : b; *r = *r < d ? *r : d; break;
	case SH_OP_V_MAX3_U32: *r = a > b ? a : b; *r = *r > d ? *r : d; break;
	case SH_OP_V_MIN3_I32:
		*r = (int32_t)a < (int32_t)b ? a : b;
		*r = (int32_t)*r < (int32_t)d ? *r : d;
		break;
	case SH_OP_V_MAX3_I32:
		*r = (int32_t)a > (int32_t)b ? a : b;
		*r = (int32_t)*r > (int32_t)d ? *r : d;
		break;
	case SH_OP_V_CVT_F32_UBYTE0: *r = xu32((float)(a & 0xff)); break;
	case SH_OP_V_CVT_F32_UBYTE1: *r = xu32((float)((a >> 8) & 0xff)); break;
	case SH_OP_V_CVT_F32_UBYTE2: *r = xu32((float)((a >> 16) & 0xff)); break;
	case SH_OP_V_CVT_F32_UBYTE3: *r = xu32((float)(a >> 24)); break;
	/* 16-bit: the low half of each source; the result's high half is 0 */
	case SH_OP_V_ADD_U16: *r = (a + b) & 0xffff; break;
	case SH_OP_V_SUB_U16: *r = (a - b) & 0xffff; break;
	case SH_OP_V_SUBREV_U16: *r = (b - a) & 0xffff; break;
	case SH_OP_V_MUL_LO_U16: *r = ((a & 0xffff) * (b & 0xffff)) & 0xffff; break;
	case SH_OP_V_LSHLREV_B16: *r = ((b & 0xffff) << (a & 15)) & 0xffff; break;
	case SH_OP_V_LSHRREV_B16: *r = (b & 0xffff) >> (a & 15); break;
	case SH_OP_V_ASHRREV_I16: *r = (uint32_t)((int16_t)b >> (a & 15)) & 0xffff; break;
	case SH_OP_V_MIN_U16: *r = (a & 0xffff) < (b & 0xffff) ? a & 0xffff : b & 0xffff; break;
	case SH_OP_V_MAX_U16: *r = (a & 0xffff) > (b & 0xffff) ? a & 0xffff : b & 0xffff; break;
	case SH_OP_V_MIN_I16: *r = ((int16_t)a < (int16_t)b ? a : b) & 0xffff; break;
	case SH_OP_V_MAX_I16: *r = ((int16_t)a > (int16_t)b ? a : b) & 0xffff; break;
	case SH_OP_V_EXP_F32: *r = xu32(exp2f(fa)); break;
	case SH_OP_V_LOG_F32: *r = xu32(log2f(fa)); break;
	case SH_OP_V_SIN_F32: *r = xu32((float)sin((double)fa * 2 * M_PI)); break;
	case SH_OP_V_COS_F32: *r = xu32((float)cos((double)fa * 2 * M_PI)); break;
	case SH_OP_V_RSQ_F32: *r = xu32((float)(1.0 / sqrt((double)fa))); break;
	case SH_OP_V_RNDNE_F32: *r = xu32(rintf(fa)); break;
	case SH_OP_V_CEIL_F32: *r = xu32(ceilf(fa)); break;
	case SH_OP_V_FRACT_F32:
		*r = xu32(isinf(fa) ? NAN : fminf(fa - floorf(fa), 0x1.fffffep-1f));
		break;
	case SH_OP_V_LDEXP_F32: *r = xu32(ldexpf(fa, (int32_t)b)); break;
	case SH_OP_V_FREXP_EXP_I32_F32: *r = frexp_exp(fa); break;
	case SH_OP_V_FREXP_MANT_F32:
		*r = isnan(fa) || isinf(fa) ? a : xu32(frexpf(fa, &e));
		break;
	case SH_OP_V_CVT_F16_F32:
		*r = sh_f2h(fa);
		break;
	case SH_OP_V_CVT_PKRTZ_F16_F32:
		*r = f16_rtz(fa) | (uint32_t)f16_rtz(xf32(b)) << 16;
		break;
	default:
		return 1;
	}
	return 0;
}

/* v_add_u32, v_sub_u32, v_subrev_u32 with clamp: unsigned saturation. */
static enum sh_step
add_clamp(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	uint64_t exec = sh_exec(w);

	if (o->abs || o->neg)
		return sh_illegal(c, w, i, "an input modifier");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t a, b;
		uint64_t r;

		if (!((exec >> l) & 1))
			continue;
		if (sh_src32(w, i, o->src[0], l, &a) || sh_src32(w, i, o->src[1], l, &b))
			return sh_illegal(c, w, i, "operand");
		if (i->id == SH_OP_V_SUBREV_U32) {
			uint32_t t = a;

			a = b;
			b = t;
		}
		if (i->id == SH_OP_V_ADD_U32)
			r = (uint64_t)a + b > 0xffffffffu ? 0xffffffffu : a + b;
		else
			r = b > a ? 0 : a - b;
		w->v[o->vdst][l] = (uint32_t)r;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_xvalu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w), mask = 0;
	int fp = takes_float(i->id);
	unsigned int op_sel = 0;

	if (sh_f64_row(i->id))
		return sh_f64(c, w, i, o);
	if (sh_f16_row(i->id))
		return sh_f16(c, w, i, o);
	if (i->id == SH_OP_V_ADD_U32 || i->id == SH_OP_V_SUB_U32 || i->id == SH_OP_V_SUBREV_U32)
		return add_clamp(c, w, i, o);
	if (o->clamp || (!fp && (o->abs || o->neg)))
		return sh_illegal(c, w, i, "clamp or an input modifier");
	/*
	 * op_sel of a 16-bit VOP3 row: bit k takes source k's high half, bit
	 * 3 writes the result to the destination's high half, its low half
	 * kept. A compare's _e64 form has none (the decoder refuses it).
	 */
	if (is_16bit(i->id) && f->form != KFD_ISA_FORM_SDWA && f->form != KFD_ISA_FORM_DPP &&
	    (f->form == KFD_ISA_FORM_VOP3 || f->enc == KFD_ISA_VOP3))
		op_sel = (f->words[0] >> 11) & 15;
	if (op_sel && is_compare(i->id))
		return sh_illegal(c, w, i, "op_sel on a compare");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t s[3] = { 0, 0, 0 }, r;

		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < o->nsrc; k++) {
			if (sh_src32(w, i, o->src[k], l, &s[k]))
				return sh_illegal(c, w, i, "operand");
			if ((op_sel >> k) & 1)
				s[k] >>= 16;
			/* a float's abs and neg; v_cmp_class_f32's mask is not one */
			if (fp && (k == 0 || i->id == SH_OP_V_CVT_PKRTZ_F16_F32)) {
				if ((o->abs >> k) & 1)
					s[k] &= 0x7fffffffu;
				if ((o->neg >> k) & 1)
					s[k] ^= 0x80000000u;
			}
		}
		if (is_compare(i->id)) {
			if (cmp16(i->id, s[0], s[1]))
				mask |= 1ull << l;
			continue;
		}
		if (one(i->id, s[0], s[1], s[2], &r))
			return sh_illegal(c, w, i, NULL);
		/* gfx10 keeps the high half of a 16-bit result's VGPR */
		if (op_sel & 8)
			r = (w->v[o->vdst][l] & 0xffff) | (r & 0xffff) << 16;
		else if (is_16bit(i->id) && sh_gen10(c))
			r = (w->v[o->vdst][l] & 0xffff0000u) | (r & 0xffff);
		w->v[o->vdst][l] = r;
	}
	if (is_compare(i->id)) {
		/* gfx10's v_cmpx (no destination in its row) writes exec only */
		if (!i->in->f.dst_dwords)
			sh_set_exec(w, mask);
		else
			sh_set_mask(w, o->vdst, mask);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
