/* SPDX-License-Identifier: MIT */
/*
 * gfx1030's lane permutes and dot products (SH_OP_GFX10_DOT_FIRST to
 * _LAST).
 *
 *   v_permlane16_b32    each lane takes the lane of its row of 16 that
 *                       the nibble of {src2, src1} for it names
 *   v_permlanex16_b32   the same from the other row of its 32 lanes
 *   v_dot2_f32_f16      two f16 products plus the f32 src2
 *   v_dot2_{i32_i16,u32_u16}, v_dot4_{i32_i8,u32_u8},
 *   v_dot8_{i32_i4,u32_u4}  integer products of halves, bytes or nibbles
 *                       plus src2, modulo 2^32
 *   v_dot2c_f32_f16, v_dot4c_i32_i8   VOP2: the destination is the addend
 *
 * op_sel's two bits on a permute are fi (an inactive lane is read too)
 * and bound_ctrl (an inactive lane read gives 0, not the old value).
 * The sources of a dot product are registers; a constant, clamp, a
 * negation of v_dot2*'s f16 sources, or op_sel other than on dot2's
 * halves stops the dispatch.
 */
#include <string.h>

#include "shader_priv.h"

/* Lane @l of a 32-bit source that must be a register (SGPR or VGPR). */
static int
dot_src(const struct sh_wave *w, const struct sh_insn *i, unsigned int src,
	unsigned int l, uint32_t *v)
{
	if (src >= 128 && src < 256)
		return -1;
	return sh_src32(w, i, src, l, v);
}

static float
half(uint32_t v, unsigned int hi)
{
	return sh_h2f((uint16_t)(v >> (hi ? 16 : 0)));
}

/* One lane's dot product of @a and @b, with @acc added. */
static uint32_t
dot(unsigned int id, uint32_t a, uint32_t b, uint32_t acc, unsigned int sel,
    unsigned int sel_hi)
{
	uint32_t r = acc;
	float x;

	switch (id) {
	case SH_OP_V_DOT2_F32_F16:
	case SH_OP_V_DOT2C_F32_F16:
		memcpy(&x, &acc, 4);
		/* f16 products are exact in double: one rounding, at the end */
		x = (float)((double)half(a, sel & 1) * half(b, (sel >> 1) & 1) +
			    (double)half(a, sel_hi & 1) * half(b, (sel_hi >> 1) & 1) + x);
		memcpy(&r, &x, 4);
		return r;
	case SH_OP_V_DOT2_I32_I16:
		return acc + (uint32_t)((int32_t)(int16_t)a * (int16_t)b +
					(int32_t)(int16_t)(a >> 16) * (int16_t)(b >> 16));
	case SH_OP_V_DOT2_U32_U16:
		return acc + (a & 0xffff) * (b & 0xffff) + (a >> 16) * (b >> 16);
	case SH_OP_V_DOT4_I32_I8:
	case SH_OP_V_DOT4C_I32_I8:
		for (unsigned int k = 0; k < 32; k += 8)
			r += (uint32_t)((int32_t)(int8_t)(a >> k) * (int8_t)(b >> k));
		return r;
	case SH_OP_V_DOT4_U32_U8:
		for (unsigned int k = 0; k < 32; k += 8)
			r += ((a >> k) & 0xff) * ((b >> k) & 0xff);
		return r;
	case SH_OP_V_DOT8_I32_I4:
		for (unsigned int k = 0; k < 32; k += 4)
			r += (uint32_t)(((int32_t)(a << (28 - k)) >> 28) *
					((int32_t)(b << (28 - k)) >> 28));
		return r;
	default:	/* SH_OP_V_DOT8_U32_U4 */
		for (unsigned int k = 0; k < 32; k += 4)
			r += ((a >> k) & 15) * ((b >> k) & 15);
		return r;
	}
}

/* The VOP3P dot products. */
static enum sh_step
dot_vop3p(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int vdst = w0 & 0xff;
	unsigned int src[3] = { w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff };
	unsigned int op_sel = (w0 >> 11) & 7, neg = ((w0 >> 8) & 7) | (w1 >> 29);
	unsigned int op_sel_hi = ((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2;
	int is_dot2 = i->id == SH_OP_V_DOT2_F32_F16 || i->id == SH_OP_V_DOT2_I32_I16 ||
		      i->id == SH_OP_V_DOT2_U32_U16;
	uint64_t exec = sh_exec(w);

	if (((w0 >> 15) & 1) || neg)
		return sh_illegal(c, w, i, "clamp or a negation on a dot product");
	/* op_sel picks halves of dot2's 16-bit sources only; src2 is 32 bits */
	if ((op_sel & 4) || !(op_sel_hi & 4) || (!is_dot2 && (op_sel || op_sel_hi != 7)))
		return sh_illegal(c, w, i, "op_sel on a dot product");
	/* the integer dot2 rows take the halves in place */
	if (is_dot2 && i->id != SH_OP_V_DOT2_F32_F16 && (op_sel || op_sel_hi != 7))
		return sh_illegal(c, w, i, "op_sel on an integer dot2");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t s[3];

		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < 3; k++)
			if (dot_src(w, i, src[k], l, &s[k]))
				return sh_illegal(c, w, i, "a constant source of a dot product");
		w->v[vdst][l] = dot(i->id, s[0], s[1], s[2], op_sel & 3, op_sel_hi & 3);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

/* v_permlane16_b32 and v_permlanex16_b32. */
static enum sh_step
permlane(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	unsigned int op_sel = (i->in->f.words[0] >> 11) & 3, fi = op_sel & 1, bc = op_sel >> 1;
	uint64_t exec = sh_exec(w);
	uint32_t out[SH_LANES];

	/* neg and abs mean nothing here (LLVM prints neither) */
	if (o->clamp || o->omod || o->src[0] < 256)
		return sh_illegal(c, w, i, "a modifier or a source other than a VGPR");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t s1, s2;
		uint64_t sel;
		unsigned int from;

		if (!((exec >> l) & 1))
			continue;
		if (sh_src32(w, i, o->src[1], l, &s1) || sh_src32(w, i, o->src[2], l, &s2))
			return sh_illegal(c, w, i, "operand");
		sel = ((uint64_t)s2 << 32 | s1) >> (4 * (l & 15));
		from = (l & ~15u) + (unsigned int)(sel & 15);
		if (i->id == SH_OP_V_PERMLANEX16_B32)
			from ^= 16;
		if (from >= SH_LANES || (!fi && !((exec >> from) & 1)))
			out[l] = bc ? 0 : w->v[o->vdst][l];
		else
			out[l] = w->v[o->src[0] - 256][from];
	}
	for (unsigned int l = 0; l < SH_LANES; l++)
		if ((exec >> l) & 1)
			w->v[o->vdst][l] = out[l];
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_dot_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const struct sh_vop *o)
{
	uint64_t exec = sh_exec(w);

	if (!sh_gen10(c))
		return sh_illegal(c, w, i, "a gfx10 instruction on gfx9");
	if (i->in->f.enc == KFD_ISA_VOP3P)
		return dot_vop3p(c, w, i);
	if (i->id == SH_OP_V_PERMLANE16_B32 || i->id == SH_OP_V_PERMLANEX16_B32)
		return permlane(c, w, i, o);
	/* v_dot2c_f32_f16, v_dot4c_i32_i8: VOP2, the destination added */
	/* v_dot4c's integer sources take no neg or abs (LLVM prints neither) */
	if (((o->abs || o->neg) && i->id == SH_OP_V_DOT2C_F32_F16) || o->clamp || o->omod)
		return sh_illegal(c, w, i, "a modifier on a dot product");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t a, b;

		if (!((exec >> l) & 1))
			continue;
		if (dot_src(w, i, o->src[0], l, &a) || dot_src(w, i, o->src[1], l, &b))
			return sh_illegal(c, w, i, "a constant source of a dot product");
		w->v[o->vdst][l] = dot(i->id, a, b, w->v[o->vdst][l], 0, 3);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
