/* SPDX-License-Identifier: MIT */
/*
 * The vector ALU: VOP1, VOP2, VOPC and their VOP3 forms, and the VOP3-only
 * integer and float opcodes the compilers emit for address arithmetic and
 * simple math. Each active lane (EXEC) computes; VOPC and carry-outs write
 * 0 for the inactive ones. Of VOP3P, gfx90a's packed 32-bit moves and
 * float math. The DPP and SDWA forms run here once shader_dpp.c has moved
 * or selected their sources; the rows of the rocPRIM/rocRAND block go to
 * shader_xvalu.c. Output modifiers stop the wave as not implemented.
 */
#include <math.h>
#include <string.h>

#include "shader_priv.h"

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static uint32_t
fmod_in(uint32_t v, const struct sh_vop *o, unsigned int k)
{
	if ((o->abs >> k) & 1)
		v &= 0x7fffffffu;
	if ((o->neg >> k) & 1)
		v ^= 0x80000000u;
	return v;
}

static int
is_float(unsigned int id)
{
	switch (id) {
	case SH_OP_V_ADD_F32: case SH_OP_V_SUB_F32: case SH_OP_V_SUBREV_F32:
	case SH_OP_V_MUL_F32: case SH_OP_V_MIN_F32: case SH_OP_V_MAX_F32:
	case SH_OP_V_MAC_F32: case SH_OP_V_FMAC_F32: case SH_OP_V_MAD_F32:
	case SH_OP_V_FMA_F32: case SH_OP_V_RCP_F32: case SH_OP_V_RCP_IFLAG_F32:
	case SH_OP_V_SQRT_F32: case SH_OP_V_TRUNC_F32: case SH_OP_V_FLOOR_F32:
	case SH_OP_V_CVT_U32_F32: case SH_OP_V_CVT_I32_F32:
		return 1;
	}
	return id >= SH_OP_V_CMP_LT_F32 && id <= SH_OP_V_CMP_U_F32;
}

/*
 * The output modifier (VOP3 omod, SDWA omod): the float result times 2,
 * times 4 or halved, before it is written. The rows with a float result
 * only: not the conversions to integers, not compares, not a select.
 */
static int
omod_row(unsigned int id)
{
	return is_float(id) && id != SH_OP_V_CVT_U32_F32 && id != SH_OP_V_CVT_I32_F32 &&
	       !(id >= SH_OP_V_CMP_LT_F32 && id <= SH_OP_V_CMP_U_F32);
}

static uint32_t
omod32(uint32_t r, unsigned int omod)
{
	static const float k[4] = { 1.0f, 2.0f, 4.0f, 0.5f };

	return u32(f32(r) * k[omod & 3]);
}

static uint32_t
cvt_u32(float x)
{
	if (isnan(x) || x <= 0)
		return 0;
	return x >= 4294967296.0f ? 0xffffffffu : (uint32_t)x;
}

static uint32_t
cvt_i32(float x)
{
	if (isnan(x))
		return 0;
	if (x >= 2147483648.0f)
		return 0x7fffffffu;
	if (x <= -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)x;
}

static uint32_t
bfe(uint32_t v, uint32_t off, uint32_t width, int sign)
{
	off &= 31;
	width &= 31;
	if (!width)
		return 0;
	if (off + width < 32) {
		uint32_t r = (v >> off) & ((1u << width) - 1);

		if (sign && (r >> (width - 1)) & 1)
			r |= ~((1u << width) - 1);
		return r;
	}
	return sign ? (uint32_t)((int32_t)v >> off) : v >> off;
}

/* A compare: 1 when the lane's condition holds; -1 not a compare. */
static int
cmp(unsigned int id, uint64_t a, uint64_t b)
{
	float fa = f32((uint32_t)a), fb = f32((uint32_t)b);

	switch (id) {
	case SH_OP_V_CMP_F_I32: case SH_OP_V_CMP_F_U32: return 0;
	case SH_OP_V_CMP_T_I32: case SH_OP_V_CMP_T_U32: return 1;
	case SH_OP_V_CMP_LT_I32: return (int32_t)a < (int32_t)b;
	case SH_OP_V_CMP_EQ_I32: case SH_OP_V_CMP_EQ_U32: return (uint32_t)a == (uint32_t)b;
	case SH_OP_V_CMP_LE_I32: return (int32_t)a <= (int32_t)b;
	case SH_OP_V_CMP_GT_I32: return (int32_t)a > (int32_t)b;
	case SH_OP_V_CMP_NE_I32: case SH_OP_V_CMP_NE_U32: return (uint32_t)a != (uint32_t)b;
	case SH_OP_V_CMP_GE_I32: return (int32_t)a >= (int32_t)b;
	case SH_OP_V_CMP_LT_U32: return (uint32_t)a < (uint32_t)b;
	case SH_OP_V_CMP_LE_U32: return (uint32_t)a <= (uint32_t)b;
	case SH_OP_V_CMP_GT_U32: return (uint32_t)a > (uint32_t)b;
	case SH_OP_V_CMP_GE_U32: return (uint32_t)a >= (uint32_t)b;
	case SH_OP_V_CMP_LT_I64: return (int64_t)a < (int64_t)b;
	case SH_OP_V_CMP_EQ_I64: case SH_OP_V_CMP_EQ_U64: return a == b;
	case SH_OP_V_CMP_LE_I64: return (int64_t)a <= (int64_t)b;
	case SH_OP_V_CMP_GT_I64: return (int64_t)a > (int64_t)b;
	case SH_OP_V_CMP_NE_I64: case SH_OP_V_CMP_NE_U64: return a != b;
	case SH_OP_V_CMP_GE_I64: return (int64_t)a >= (int64_t)b;
	case SH_OP_V_CMP_LT_U64: return a < b;
	case SH_OP_V_CMP_LE_U64: return a <= b;
	case SH_OP_V_CMP_GT_U64: return a > b;
	case SH_OP_V_CMP_GE_U64: return a >= b;
	case SH_OP_V_CMP_LT_F32: return fa < fb;
	case SH_OP_V_CMP_EQ_F32: return fa == fb;
	case SH_OP_V_CMP_LE_F32: return fa <= fb;
	case SH_OP_V_CMP_GT_F32: return fa > fb;
	case SH_OP_V_CMP_LG_F32: return fa < fb || fa > fb;
	case SH_OP_V_CMP_GE_F32: return fa >= fb;
	case SH_OP_V_CMP_NEQ_F32: return !(fa == fb);
	case SH_OP_V_CMP_NLT_F32: return !(fa < fb);
	case SH_OP_V_CMP_NGT_F32: return !(fa > fb);
	case SH_OP_V_CMP_O_F32: return !isnan(fa) && !isnan(fb);
	case SH_OP_V_CMP_U_F32: return isnan(fa) || isnan(fb);
	}
	return -1;
}

/* The operand fields of the _e32 and _e64 forms. */
static int
fields(const struct sh_insn *i, struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];

	if (f->form == KFD_ISA_FORM_DPP || f->form == KFD_ISA_FORM_SDWA)
		return sh_xform_fields(i, o);
	memset(o, 0, sizeof(*o));
	o->nsrc = f->enc == KFD_ISA_VOP1 ? 1 : f->enc == KFD_ISA_VOP3 && f->src_dwords[2] ? 3 : 2;
	if (f->enc == KFD_ISA_VOP3 && !f->src_dwords[1])
		o->nsrc = 1;
	if (f->form == KFD_ISA_FORM_NATIVE && f->enc != KFD_ISA_VOP3) {
		o->src[0] = w0 & 0x1ff;
		o->src[1] = 256 + ((w0 >> 9) & 0xff);
		o->vdst = (w0 >> 17) & 0xff;
		o->sdst = SH_VCC;
		o->cin = SH_VCC;
		if (f->enc == KFD_ISA_VOPC)
			o->vdst = SH_VCC;
		return 0;
	}
	if (f->form != KFD_ISA_FORM_VOP3 && f->form != KFD_ISA_FORM_NATIVE)
		return -1;
	o->vdst = w0 & 0xff;
	o->sdst = (w0 >> 8) & 0x7f;
	o->abs = (w0 >> 8) & 7;
	o->clamp = (w0 >> 15) & 1;
	o->src[0] = w1 & 0x1ff;
	o->src[1] = (w1 >> 9) & 0x1ff;
	o->src[2] = (w1 >> 18) & 0x1ff;
	o->cin = o->src[2];
	o->neg = (w1 >> 29) & 7;
	o->omod = (w1 >> 27) & 3;
	return 0;
}

/*
 * The rows of @o's three sources, once per instruction: with the float
 * input modifiers applied, zeros past the sources it has, the madmk and
 * madak literal as the third. Return: 0, or -1 for an unreadable operand.
 */
static int
rows32(const struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o, int fp,
       const uint32_t *src[3], uint32_t tmp[3][SH_LANES])
{
	const struct kfd_isa_fields *f = &i->in->f;

	for (unsigned int k = 0; k < 3; k++) {
		if (k < o->nsrc) {
			src[k] = sh_row32(w, i, o->src[k], tmp[k]);
			if (!src[k])
				return -1;
		} else {
			src[k] = sh_zero_row;
		}
		if (fp && (((o->abs | o->neg) >> k) & 1)) {
			for (unsigned int l = 0; l < SH_LANES; l++)
				tmp[k][l] = fmod_in(src[k][l], o, k);
			src[k] = tmp[k];
		}
	}
	if (f->enc == KFD_ISA_VOP2 && f->has_literal && (f->words[0] & 0x1ff) != 255) {
		for (unsigned int l = 0; l < SH_LANES; l++)
			tmp[2][l] = f->literal;
		src[2] = tmp[2];
	}
	return 0;
}

/* The VOP3B opcodes: sdst instead of abs and clamp... */
static int
vop3b(unsigned int id)
{
	switch (id) {
	case SH_OP_V_ADD_CO_U32: case SH_OP_V_SUB_CO_U32: case SH_OP_V_SUBREV_CO_U32:
	case SH_OP_V_ADDC_CO_U32: case SH_OP_V_SUBB_CO_U32: case SH_OP_V_SUBBREV_CO_U32:
	case SH_OP_V_MAD_U64_U32:
		return 1;
	}
	return 0;
}

/*
 * The two dword rows of 64-bit source field @f: a VGPR pair's, or @tlo and
 * @thi filled with a scalar pair or constant. Return: 0, or -1 when the
 * field is not resolved here.
 */
static int
row64(const struct sh_wave *w, const struct sh_insn *i, unsigned int f, const uint32_t **lo,
      const uint32_t **hi, uint32_t tlo[SH_LANES], uint32_t thi[SH_LANES])
{
	uint64_t b;

	if (f >= 256 && f - 256 + 1 < SH_VGPRS) {
		*lo = w->v[f - 256];
		*hi = w->v[f - 255];
		return 0;
	}
	if (f >= 256 || sh_src64(w, i, f, 0, 0, &b))
		return -1;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		tlo[l] = (uint32_t)b;
		thi[l] = (uint32_t)(b >> 32);
	}
	*lo = tlo;
	*hi = thi;
	return 0;
}

/*
 * The 64-bit shifts and v_mad_u64_u32, once per instruction: the rows of
 * their sources resolved first. Return: SH_NEXT, or SH_FAIL when the
 * operands are not resolved here (lanes64() then takes them lane by lane).
 */
static enum sh_step
wide64(struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o, uint64_t exec)
{
	uint32_t ta[SH_LANES], tb[SH_LANES], tlo[SH_LANES], thi[SH_LANES];
	const uint32_t *a = sh_row32(w, i, o->src[0], ta), *b = NULL, *lo, *hi;
	uint32_t *dlo = w->v[o->vdst], *dhi = w->v[(o->vdst + 1) % SH_VGPRS];
	int mad = i->id == SH_OP_V_MAD_U64_U32;
	uint64_t carry = 0;

	if (!a || (mad && !(b = sh_row32(w, i, o->src[1], tb))) ||
	    row64(w, i, o->src[mad ? 2 : 1], &lo, &hi, tlo, thi))
		return SH_FAIL;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint64_t v = (uint64_t)hi[l] << 32 | lo[l], r;
		unsigned int n = a[l] & 63;

		if (!((exec >> l) & 1))
			continue;
		if (mad) {
			unsigned __int128 x = (unsigned __int128)((uint64_t)a[l] * b[l]) + v;

			r = (uint64_t)x;
			carry |= (uint64_t)(x >> 64 ? 1 : 0) << l;
		} else {
			r = i->id == SH_OP_V_LSHLREV_B64 ? v << n :
			    i->id == SH_OP_V_LSHRREV_B64 ? v >> n : (uint64_t)((int64_t)v >> n);
		}
		dlo[l] = (uint32_t)r;
		dhi[l] = (uint32_t)(r >> 32);
	}
	if (mad)
		sh_set_mask(w, o->sdst, carry);
	return SH_NEXT;
}

static enum sh_step
lanes64(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	uint64_t exec = sh_exec(w), carry = 0;
	unsigned int l;

	if (exec && (i->id == SH_OP_V_LSHLREV_B64 || i->id == SH_OP_V_LSHRREV_B64 ||
		     i->id == SH_OP_V_ASHRREV_I64 || i->id == SH_OP_V_MAD_U64_U32) &&
	    !c->lanewise && wide64(w, i, o, exec) == SH_NEXT) {
		c->lanes += (uint64_t)__builtin_popcountll(exec);
		return SH_NEXT;
	}

	for (l = 0; l < SH_LANES; l++) {
		uint64_t a, b, r;
		uint32_t a32, b32;

		if (!((exec >> l) & 1))
			continue;
		switch (i->id) {
		case SH_OP_V_LSHLREV_B64: case SH_OP_V_LSHRREV_B64: case SH_OP_V_ASHRREV_I64:
			if (sh_src32(w, i, o->src[0], l, &a32) ||
			    sh_src64(w, i, o->src[1], l, 0, &b))
				return sh_illegal(c, w, i, "operand");
			r = i->id == SH_OP_V_LSHLREV_B64 ? b << (a32 & 63) :
			    i->id == SH_OP_V_LSHRREV_B64 ? b >> (a32 & 63) :
			    (uint64_t)((int64_t)b >> (a32 & 63));
			break;
		case SH_OP_V_MAD_U64_U32: {
			unsigned __int128 x;

			if (sh_src32(w, i, o->src[0], l, &a32) ||
			    sh_src32(w, i, o->src[1], l, &b32) ||
			    sh_src64(w, i, o->src[2], l, 0, &b))
				return sh_illegal(c, w, i, "operand");
			x = (unsigned __int128)((uint64_t)a32 * b32) + b;
			r = (uint64_t)x;
			carry |= (uint64_t)(x >> 64 ? 1 : 0) << l;
			break;
		}
		default:
			if (sh_src64(w, i, o->src[0], l, 0, &a) ||
			    sh_src64(w, i, o->src[1], l, 0, &b))
				return sh_illegal(c, w, i, "operand");
			(void)a;
			return sh_illegal(c, w, i, NULL);
		}
		w->v[o->vdst][l] = (uint32_t)r;
		w->v[(o->vdst + 1) % SH_VGPRS][l] = (uint32_t)(r >> 32);
	}
	if (i->id == SH_OP_V_MAD_U64_U32)
		sh_set_mask(w, o->sdst, carry);
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

static enum sh_step
compare_lanes(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
	      const struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w), active = exec, mask = 0;
	int fp = is_float(i->id);
	uint32_t tmp[3][SH_LANES];
	const uint32_t *src[3];
	unsigned int l;

	if (exec && f->src_dwords[0] != 2) {
		if (rows32(w, i, o, fp, src, tmp))
			return sh_illegal(c, w, i, "operand");
		if (!c->lanewise && sh_cmp32(i->id, exec, src[0], src[1], &mask))
			exec = 0;	/* done, a loop per instruction */
	}
	for (l = exec ? (unsigned int)__builtin_ctzll(exec) : SH_LANES; l < SH_LANES; l++) {
		uint64_t a, b;

		if (!((exec >> l) & 1))
			continue;
		if (f->src_dwords[0] == 2) {
			if (sh_src64(w, i, o->src[0], l, fp, &a) ||
			    sh_src64(w, i, o->src[1], l, fp, &b))
				return sh_illegal(c, w, i, "operand");
		} else {
			a = src[0][l];
			b = src[1][l];
		}
		if (cmp(i->id, a, b) > 0)
			mask |= 1ull << l;
	}
	/* gfx10's v_cmpx (no destination in its row) writes exec only */
	if (!f->dst_dwords)
		sh_set_exec(w, mask);
	else
		sh_set_mask(w, o->vdst, mask);
	c->lanes += (uint64_t)__builtin_popcountll(active);
	return SH_NEXT;
}

/* Lane l's two results @e0, @e1 into vdst's pair, for each active lane;
 * a NaN result as the unpacked opcode's (sh_fnan_in()) */
#define PK_LANES(e0, e1) do {						\
	uint32_t *d0_ = w->v[vdst], *d1_ = w->v[(vdst + 1) % SH_VGPRS];	\
									\
	for (unsigned int l = 0; l < SH_LANES; l++) {			\
		uint32_t r0_, r1_;					\
									\
		if (!((exec >> l) & 1))					\
			continue;					\
		r0_ = (e0);						\
		r1_ = (e1);						\
		if (i->id != SH_OP_V_PK_MOV_B32 && sh_fisnan(r0_))	\
			r0_ = sh_fnan_in(r0_, lo[0][l] ^ nlo[0],	\
					 lo[1][l] ^ nlo[1],		\
					 nsrc > 2 ? lo[2][l] ^ nlo[2] : 0);	\
		if (i->id != SH_OP_V_PK_MOV_B32 && sh_fisnan(r1_))	\
			r1_ = sh_fnan_in(r1_, hi[0][l] ^ nhi[0],	\
					 hi[1][l] ^ nhi[1],		\
					 nsrc > 2 ? hi[2][l] ^ nhi[2] : 0);	\
		d0_[l] = r0_;						\
		d1_[l] = r1_;						\
	}								\
} while (0)

/*
 * gfx90a's packed 32-bit VOP3P: each source is 64 bits; op_sel picks the
 * dword of each source the low result takes, op_sel_hi the high one's
 * (v_pk_mov_b32: op_sel bit 0 for src0 into the low dword, bit 1 for src1
 * into the high one); neg_lo and neg_hi negate the float inputs.
 */
static enum sh_step
vop3p(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int vdst = w0 & 0xff, src[3] = { w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff };
	unsigned int neg_hi = (w0 >> 8) & 7, op_sel = (w0 >> 11) & 7;
	unsigned int op_sel_hi = ((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2, neg_lo = (w1 >> 29) & 7;
	unsigned int nsrc = i->id == SH_OP_V_PK_FMA_F32 ? 3 : 2;
	uint64_t exec = sh_exec(w);
	uint32_t tlo[3][SH_LANES], thi[3][SH_LANES], nlo[3], nhi[3];
	const uint32_t *lo[3], *hi[3];

	if ((w0 >> 15) & 1)
		return sh_illegal(c, w, i, "clamp");
	if (i->id != SH_OP_V_PK_MOV_B32 && i->id != SH_OP_V_PK_ADD_F32 &&
	    i->id != SH_OP_V_PK_MUL_F32 && i->id != SH_OP_V_PK_FMA_F32)
		return sh_illegal(c, w, i, NULL);
	if (!exec)
		return SH_NEXT;
	for (unsigned int k = 0; k < nsrc; k++) {
		unsigned int sl = (op_sel >> k) & 1, sh = (op_sel_hi >> k) & 1;
		uint64_t v;

		nlo[k] = (neg_lo >> k) & 1 ? 0x80000000u : 0;
		nhi[k] = (neg_hi >> k) & 1 ? 0x80000000u : 0;
		if (src[k] >= 256) {
			if (src[k] - 256 + 1 >= SH_VGPRS)
				return sh_illegal(c, w, i, "operand");
			lo[k] = w->v[src[k] - 256 + sl];
			hi[k] = w->v[src[k] - 256 + sh];
			continue;
		}
		if (sh_src64(w, i, src[k], 0, 0, &v))
			return sh_illegal(c, w, i, "operand");
		/* an inline constant is the same in both halves */
		if (src[k] >= 128 && src[k] < 256 && src[k] != 255)
			v = (v & 0xffffffffu) | (v & 0xffffffffu) << 32;
		for (unsigned int l = 0; l < SH_LANES; l++) {
			tlo[k][l] = (uint32_t)(v >> (sl ? 32 : 0));
			thi[k][l] = (uint32_t)(v >> (sh ? 32 : 0));
		}
		lo[k] = tlo[k];
		hi[k] = thi[k];
	}
	/* the opcode picked once, then a loop; both results of a lane before
	 * either is written, as vdst may overlap a source */
	switch (i->id) {
	case SH_OP_V_PK_MOV_B32:
		/* op_sel bit 1 selects src1's dword, as lo[1] has it */
		PK_LANES(lo[0][l], lo[1][l]);
		break;
	case SH_OP_V_PK_ADD_F32:
		PK_LANES(u32(f32(lo[0][l] ^ nlo[0]) + f32(lo[1][l] ^ nlo[1])),
			 u32(f32(hi[0][l] ^ nhi[0]) + f32(hi[1][l] ^ nhi[1])));
		break;
	case SH_OP_V_PK_MUL_F32:
		PK_LANES(u32(f32(lo[0][l] ^ nlo[0]) * f32(lo[1][l] ^ nlo[1])),
			 u32(f32(hi[0][l] ^ nhi[0]) * f32(hi[1][l] ^ nhi[1])));
		break;
	default:
		PK_LANES(u32(fmaf(f32(lo[0][l] ^ nlo[0]), f32(lo[1][l] ^ nlo[1]),
				  f32(lo[2][l] ^ nlo[2]))),
			 u32(fmaf(f32(hi[0][l] ^ nhi[0]), f32(hi[1][l] ^ nhi[1]),
				  f32(hi[2][l] ^ nhi[2]))));
		break;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_valu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w), active = exec, carry = 0, cin = 0;
	int fp = is_float(i->id), writes_carry = 0;
	uint32_t tmp[3][SH_LANES];
	const uint32_t *src[3];
	struct sh_vop o;
	unsigned int l;

	if (f->enc == KFD_ISA_VOP3P && i->id >= SH_OP_GFX10_DOT_FIRST &&
	    i->id <= SH_OP_GFX10_DOT_LAST)
		return sh_dot_step(c, w, i, NULL);
	if (f->enc == KFD_ISA_VOP3P)
		return sh_f16_row(i->id) ? sh_f16_vop3p(c, w, i) : vop3p(c, w, i);
	if ((f->form == KFD_ISA_FORM_DPP || f->form == KFD_ISA_FORM_SDWA) && !c->xform)
		return sh_xform(c, w, i);
	if (fields(i, &o))
		return sh_illegal(c, w, i, "this encoding form");
	if (vop3b(i->id) && (f->form == KFD_ISA_FORM_VOP3 || f->enc == KFD_ISA_VOP3)) {
		o.abs = 0;
		o.clamp = 0;
	} else if (f->form == KFD_ISA_FORM_VOP3 || f->enc == KFD_ISA_VOP3) {
		o.sdst = 0;
	}
	/* the 32-bit float rows below apply it; the others refuse it */
	if (o.omod && !omod_row(i->id))
		return sh_illegal(c, w, i, "an output modifier on this row");
	if (i->id >= SH_OP_GFX10_VALU_FIRST && i->id <= SH_OP_GFX10_VALU_LAST)
		return sh_gfx10_valu(c, w, i, &o);
	if (i->id >= SH_OP_GFX10_DOT_FIRST && i->id <= SH_OP_GFX10_DOT_LAST)
		return sh_dot_step(c, w, i, &o);
	if ((i->id >= SH_OP_XV_FIRST && i->id <= SH_OP_XV_LAST) ||
	    (o.clamp && (i->id == SH_OP_V_ADD_U32 || i->id == SH_OP_V_SUB_U32 ||
			 i->id == SH_OP_V_SUBREV_U32)))
		return sh_xvalu(c, w, i, &o);
	/* v_cndmask_b32 takes abs and neg as on floats (a select of them) */
	if (i->id == SH_OP_V_CNDMASK_B32 && (o.abs || o.neg))
		fp = 1;
	if (o.clamp || (!fp && (o.abs || o.neg)))
		return sh_illegal(c, w, i, "clamp or an input modifier");
	if (f->enc == KFD_ISA_VOPC || (i->id >= SH_OP_V_CMP_F_I32 && i->id <= SH_OP_V_CMP_U_F32))
		return compare_lanes(c, w, i, &o);
	if (f->dst_dwords == 2)
		return lanes64(c, w, i, &o);

	switch (i->id) {
	case SH_OP_V_NOP:
		return SH_NEXT;
	case SH_OP_V_READFIRSTLANE_B32: {
		unsigned int first = exec ? (unsigned int)__builtin_ctzll(exec) : 0;
		uint32_t v;

		if (sh_src32(w, i, o.src[0], first, &v))
			return sh_illegal(c, w, i, "operand");
		w->s[o.vdst & 127] = v;
		return SH_NEXT;
	}
	case SH_OP_V_READLANE_B32: {
		uint32_t lane, v;

		if (sh_src32(w, i, o.src[1], 0, &lane) ||
		    sh_src32(w, i, o.src[0], lane % w->lanes, &v))
			return sh_illegal(c, w, i, "operand");
		w->s[o.vdst & 127] = v;
		return SH_NEXT;
	}
	case SH_OP_V_WRITELANE_B32: {
		uint32_t lane, v;

		if (sh_src32(w, i, o.src[1], 0, &lane) || sh_src32(w, i, o.src[0], 0, &v))
			return sh_illegal(c, w, i, "operand");
		w->v[o.vdst][lane % w->lanes] = v;
		return SH_NEXT;
	}
	case SH_OP_V_ADDC_CO_U32: case SH_OP_V_SUBB_CO_U32: case SH_OP_V_SUBBREV_CO_U32:
	case SH_OP_V_CNDMASK_B32:
		cin = sh_mask(w, o.cin);
		break;
	}
	if (exec && rows32(w, i, &o, fp, src, tmp))
		return sh_illegal(c, w, i, "operand");
	if (c->lanewise) {
		/* the per-lane switch below takes every opcode */
	} else if (exec && sh_lanes32(i->id, exec, src[0], src[1], src[2], w->v[o.vdst])) {
		exec = 0;	/* done, a loop per instruction */
	} else if (exec && sh_lanes32_carry(i->id, exec, src[0], src[1], cin, w->v[o.vdst],
					    &carry)) {
		writes_carry = i->id != SH_OP_V_CNDMASK_B32;
		exec = 0;
	}
	for (l = exec ? (unsigned int)__builtin_ctzll(exec) : SH_LANES; l < SH_LANES; l++) {
		uint32_t a, b, d, r;
		uint64_t x;

		if (!((exec >> l) & 1))
			continue;
		a = src[0][l];
		b = src[1][l];
		d = src[2][l];
		switch (i->id) {
		case SH_OP_V_MOV_B32: r = a; break;
		case SH_OP_V_NOT_B32: r = ~a; break;
		case SH_OP_V_BFREV_B32:
			r = 0;
			for (int k = 0; k < 32; k++)
				r |= ((a >> k) & 1) << (31 - k);
			break;
		case SH_OP_V_FFBH_U32: r = a ? (uint32_t)__builtin_clz(a) : 0xffffffffu; break;
		case SH_OP_V_FFBL_B32: r = a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu; break;
		case SH_OP_V_CVT_F32_I32: r = u32((float)(int32_t)a); break;
		case SH_OP_V_CVT_F32_U32: r = u32((float)a); break;
		case SH_OP_V_CVT_U32_F32: r = cvt_u32(f32(a)); break;
		case SH_OP_V_CVT_I32_F32: r = cvt_i32(f32(a)); break;
		case SH_OP_V_RCP_F32: case SH_OP_V_RCP_IFLAG_F32: r = u32(1.0f / f32(a)); break;
		case SH_OP_V_SQRT_F32: r = u32(sqrtf(f32(a))); break;
		case SH_OP_V_TRUNC_F32: r = u32(truncf(f32(a))); break;
		case SH_OP_V_FLOOR_F32: r = u32(floorf(f32(a))); break;
		case SH_OP_V_CNDMASK_B32: r = (cin >> l) & 1 ? b : a; break;
		case SH_OP_V_ADD_F32: r = u32(f32(a) + f32(b)); break;
		case SH_OP_V_SUB_F32: r = u32(f32(a) - f32(b)); break;
		case SH_OP_V_SUBREV_F32: r = u32(f32(b) - f32(a)); break;
		case SH_OP_V_MUL_F32: r = u32(f32(a) * f32(b)); break;
		case SH_OP_V_MIN_F32: r = sh_fmin32(a, b); break;
		case SH_OP_V_MAX_F32: r = sh_fmax32(a, b); break;
		case SH_OP_V_MAC_F32: r = u32(f32(a) * f32(b) + f32(w->v[o.vdst][l])); break;
		case SH_OP_V_FMAC_F32: r = u32(fmaf(f32(a), f32(b), f32(w->v[o.vdst][l]))); break;
		case SH_OP_V_MAD_F32: r = u32(f32(a) * f32(b) + f32(d)); break;
		case SH_OP_V_FMA_F32: r = u32(fmaf(f32(a), f32(b), f32(d))); break;
		case SH_OP_V_MUL_I32_I24:
			r = (uint32_t)((int32_t)(a << 8) >> 8) * (uint32_t)((int32_t)(b << 8) >> 8);
			break;
		case SH_OP_V_MUL_U32_U24: r = (a & 0xffffff) * (b & 0xffffff); break;
		case SH_OP_V_MAD_U32_U24: r = (a & 0xffffff) * (b & 0xffffff) + d; break;
		case SH_OP_V_MIN_I32: r = (int32_t)a < (int32_t)b ? a : b; break;
		case SH_OP_V_MAX_I32: r = (int32_t)a > (int32_t)b ? a : b; break;
		case SH_OP_V_MIN_U32: r = a < b ? a : b; break;
		case SH_OP_V_MAX_U32: r = a > b ? a : b; break;
		case SH_OP_V_LSHRREV_B32: r = b >> (a & 31); break;
		case SH_OP_V_ASHRREV_I32: r = (uint32_t)((int32_t)b >> (a & 31)); break;
		case SH_OP_V_LSHLREV_B32: r = b << (a & 31); break;
		case SH_OP_V_AND_B32: r = a & b; break;
		case SH_OP_V_OR_B32: r = a | b; break;
		case SH_OP_V_XOR_B32: r = a ^ b; break;
		case SH_OP_V_ADD_U32: r = a + b; break;
		case SH_OP_V_SUB_U32: r = a - b; break;
		case SH_OP_V_SUBREV_U32: r = b - a; break;
		case SH_OP_V_ADD_CO_U32:
			x = (uint64_t)a + b;
			r = (uint32_t)x;
			carry |= (x >> 32) << l;
			writes_carry = 1;
			break;
		case SH_OP_V_ADDC_CO_U32:
			x = (uint64_t)a + b + ((cin >> l) & 1);
			r = (uint32_t)x;
			carry |= (x >> 32) << l;
			writes_carry = 1;
			break;
		case SH_OP_V_SUB_CO_U32:
			r = a - b;
			carry |= (uint64_t)(b > a) << l;
			writes_carry = 1;
			break;
		case SH_OP_V_SUBREV_CO_U32:
			r = b - a;
			carry |= (uint64_t)(a > b) << l;
			writes_carry = 1;
			break;
		case SH_OP_V_SUBB_CO_U32:
			x = (uint64_t)b + ((cin >> l) & 1);
			r = (uint32_t)(a - x);
			carry |= (uint64_t)(x > a) << l;
			writes_carry = 1;
			break;
		case SH_OP_V_SUBBREV_CO_U32:
			x = (uint64_t)a + ((cin >> l) & 1);
			r = (uint32_t)(b - x);
			carry |= (uint64_t)(x > b) << l;
			writes_carry = 1;
			break;
		case SH_OP_V_MUL_LO_U32: r = a * b; break;
		case SH_OP_V_MUL_HI_U32: r = (uint32_t)(((uint64_t)a * b) >> 32); break;
		case SH_OP_V_MUL_HI_I32:
			r = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
			break;
		case SH_OP_V_BFE_U32: r = bfe(a, b, d, 0); break;
		case SH_OP_V_BFE_I32: r = bfe(a, b, d, 1); break;
		case SH_OP_V_BFI_B32: r = (a & b) | (~a & d); break;
		case SH_OP_V_ALIGNBIT_B32:
			r = (uint32_t)((((uint64_t)a << 32) | b) >> (d & 31));
			break;
		case SH_OP_V_LSHL_ADD_U32: r = (a << (b & 31)) + d; break;
		case SH_OP_V_ADD_LSHL_U32: r = (a + b) << (d & 31); break;
		case SH_OP_V_ADD3_U32: r = a + b + d; break;
		case SH_OP_V_LSHL_OR_B32: r = (a << (b & 31)) | d; break;
		case SH_OP_V_AND_OR_B32: r = (a & b) | d; break;
		case SH_OP_V_OR3_B32: r = a | b | d; break;
		case SH_OP_V_MBCNT_LO_U32_B32:
			r = (uint32_t)__builtin_popcount(a & (uint32_t)((1ull << (l < 32 ? l : 32)) - 1)) + b;
			break;
		case SH_OP_V_MBCNT_HI_U32_B32:
			r = (uint32_t)__builtin_popcount(a & (uint32_t)(l > 32 ? (1ull << (l - 32)) - 1 : 0)) + b;
			break;
		default:
			return sh_illegal(c, w, i, NULL);
		}
		/* the NaN the whole-wave loops give (sh_fnan_in()); min and
		 * max have picked theirs, the conversions give integers */
		if (is_float(i->id) && i->id != SH_OP_V_CVT_U32_F32 &&
		    i->id != SH_OP_V_CVT_I32_F32 && i->id != SH_OP_V_MIN_F32 &&
		    i->id != SH_OP_V_MAX_F32)
			r = sh_fnan_in(r, a, b, i->id == SH_OP_V_MAC_F32 ||
					     i->id == SH_OP_V_FMAC_F32 ? w->v[o.vdst][l] : d);
		w->v[o.vdst][l] = r;
	}
	if (writes_carry || (vop3b(i->id) && i->id != SH_OP_V_MAD_U64_U32))
		sh_set_mask(w, o.sdst, carry);
	if (o.omod)
		for (l = 0; l < SH_LANES; l++)
			if ((active >> l) & 1)
				w->v[o.vdst][l] = omod32(w->v[o.vdst][l], o.omod);
	c->lanes += (uint64_t)__builtin_popcountll(active);
	return SH_NEXT;
}
