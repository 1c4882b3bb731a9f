/* SPDX-License-Identifier: MIT */
/*
 * gfx10's own rows: the d16 loads, and s_setreg_b32 of the flat-scratch
 * halves (shader_trap.c hands those here).
 *
 * v_xor3_b32 and v_fmac_f16 are gfx10's: rocRAND's gfx1030 code uses them.
 * A 16-bit result on gfx10 keeps the destination's high half (gfx9
 * zeroes it).
 *
 * gfx10 kernels that use private memory start by writing the flat-scratch
 * base into the FLAT_SCR_LO and FLAT_SCR_HI hardware registers with
 * s_setreg_b32; gfx9 kernels write SGPRs 102 and 103 instead. A d16 load
 * writes one half of its VGPR and keeps the other: device printf reads
 * format bytes that way, and spilled 16-bit values come back from
 * private memory so (shader_scratch.c swizzles those).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shader_priv.h"

/* hwreg ids (the RDNA2 guide's s_setreg list) */
#define HW_REG_FLAT_SCR_LO	20
#define HW_REG_FLAT_SCR_HI	21

/*
 * s_setreg_b32 hwreg(id, offset, size), sdst: bits [offset, offset+size)
 * of the register take the low bits of the SGPR. The flat-scratch halves
 * only: a write to another register (MODE's rounding and denormals, the
 * trap registers) would change what the model does not model.
 */
enum sh_step
sh_gfx10_setreg(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0], v, mask, *half;
	unsigned int id = w0 & 0x3f, off = (w0 >> 6) & 0x1f, size = ((w0 >> 11) & 0x1f) + 1;
	uint32_t reg[2] = { (uint32_t)w->flat_scr, (uint32_t)(w->flat_scr >> 32) };

	if (id != HW_REG_FLAT_SCR_LO && id != HW_REG_FLAT_SCR_HI)
		return sh_illegal(c, w, i, "this hardware register");
	if (sh_src32(w, i, (w0 >> 16) & 0x7f, 0, &v))
		return sh_illegal(c, w, i, "operand");
	half = &reg[id - HW_REG_FLAT_SCR_LO];
	mask = (size + off >= 32 ? ~0u : (1u << (size + off)) - 1) & (~0u << off);
	*half = (*half & ~mask) | ((v << off) & mask);
	w->flat_scr = (uint64_t)reg[1] << 32 | reg[0];
	return SH_NEXT;
}

/* The bytes, sign and half of a d16 load. */
static void
d16_shape(unsigned int id, unsigned int *bytes, int *sign, int *hi)
{
	unsigned int k = id - SH_OP_GLOBAL_LOAD_UBYTE_D16;

	/* ubyte, ubyte_hi, sbyte, sbyte_hi, short, short_hi */
	*bytes = k < 4 ? 1 : 2;
	*sign = k == 2 || k == 3;
	*hi = k & 1;
}

int
sh_gfx10_d16(unsigned int id, unsigned int *bytes, int *sign)
{
	int hi;

	if (id < SH_OP_GFX10_FIRST || id > SH_OP_GFX10_LAST)
		return 0;
	d16_shape(id, bytes, sign, &hi);
	return 1;
}

uint32_t
sh_gfx10_d16_merge(unsigned int id, uint32_t old, uint32_t v)
{
	unsigned int bytes;
	int sign, hi;

	d16_shape(id, &bytes, &sign, &hi);
	if (bytes == 1)
		v = sign ? (uint32_t)(int32_t)(int8_t)v : v & 0xff;
	v &= 0xffff;
	return hi ? (old & 0xffff) | v << 16 : (old & 0xffff0000u) | v;
}

/*
 * global_load_*_d16(_hi), flat_* and scratch_*: one lane's byte or short
 * into the low or high half of vdst, the other half kept.
 */
static enum sh_step
load_d16(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f, addr = w1 & 0xff;
	unsigned int vdst = w1 >> 24, bytes = 0;
	int64_t off = (int64_t)(w0 & 0xfff) - ((w0 & 0x800) ? 0x1000 : 0);
	uint64_t exec = sh_exec(w);
	enum sh_step s;
	int sign;

	/* scratch_*, and flat_* lanes in the private or LDS aperture (-1:
	 * none is, a global access) */
	if (seg <= 1 && !sh_scratch_flat(c, w, i, &s))
		return s;
	if (seg == 0)
		off = w0 & 0x7ff;
	sh_gfx10_d16(i->id, &bytes, &sign);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t v = 0, old = w->v[vdst][l];
		uint64_t va;

		if (!((exec >> l) & 1))
			continue;
		if (seg == 2 && saddr != SH_NULL)
			va = sh_sreg64(w, saddr) + w->v[addr][l];
		else
			va = (uint64_t)w->v[addr][l] | (uint64_t)w->v[(addr + 1) % SH_VGPRS][l] << 32;
		va += (uint64_t)off;
		if (cp_mem_rw(c->cp, c->cq, va, &v, bytes, 0))
			return sh_fault(c, w, va, "load");
		w->v[vdst][l] = sh_gfx10_d16_merge(i->id, old, v);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_gfx10_valu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
	      const struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w);

	if (!sh_gen10(c))
		return sh_illegal(c, w, i, "a gfx10 instruction on gfx9");
	/* no modifiers: the corpora carry none on these rows */
	if (o->abs || o->neg || o->clamp ||
	    ((f->form == KFD_ISA_FORM_VOP3 || f->enc == KFD_ISA_VOP3) && ((f->words[0] >> 11) & 15)))
		return sh_illegal(c, w, i, "a modifier");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t s[3] = { 0, 0, 0 }, old = w->v[o->vdst][l];

		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < o->nsrc; k++) {
			if (sh_src32(w, i, o->src[k], l, &s[k]))
				return sh_illegal(c, w, i, "operand");
			/* a float constant of a 16-bit operand is its f16 */
			if (i->id == SH_OP_V_FMAC_F16 && o->src[k] >= 240 && o->src[k] <= 248) {
				float x;

				memcpy(&x, &s[k], 4);
				s[k] = sh_f2h(x);
			}
		}
		if (i->id == SH_OP_V_XOR3_B32) {
			w->v[o->vdst][l] = s[0] ^ s[1] ^ s[2];
			continue;
		}
		/* v_fmac_f16: the low halves; the destination's is the addend */
		w->v[o->vdst][l] = (old & 0xffff0000u) |
				   sh_f2h(fma((double)sh_h2f((uint16_t)s[0]), sh_h2f((uint16_t)s[1]),
					      sh_h2f((uint16_t)old)));
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

enum sh_step
sh_gfx10_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	if (!sh_gen10(c))
		return sh_illegal(c, w, i, "a gfx10 instruction on gfx9");
	return load_d16(c, w, i);
}
