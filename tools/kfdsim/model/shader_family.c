/* SPDX-License-Identifier: MIT */
/*
 * The GPU families the interpreter runs, and the instructions one family
 * has that gfx90a lacks. The rest of the interpreter is gfx90a's: gfx942
 * (CDNA3) shares its formats, wave size, register files and work-item id
 * packing; its table (formats/isa) adds a few rows and drops others.
 */
#include <math.h>
#include <string.h>

#include "shader_priv.h"

/* sysfs gfx_target_version -> the decoder's family. */
static const struct {
	uint32_t gfx;
	enum kfd_isa_family isa;
} sh_families[] = {
	{ 90010, KFD_ISA_GFX90A },	/* mi210 */
	{ 90402, KFD_ISA_GFX942 },	/* mi300x */
};

int
sh_family_of(uint32_t gfx_target_version, enum kfd_isa_family *isa)
{
	for (size_t k = 0; k < sizeof(sh_families) / sizeof(sh_families[0]); k++)
		if (sh_families[k].gfx == gfx_target_version) {
			*isa = sh_families[k].isa;
			return 0;
		}
	return -1;
}

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

/*
 * The operand fields of a VOP1/VOP2 (_e32) or VOP3 instruction: vdst and
 * src0..2 as 9-bit fields. -1 for SDWA, DPP or any VOP3 modifier: none is
 * implemented for these opcodes.
 */
static int
operands(const struct kfd_isa_fields *f, unsigned int *vdst, unsigned int src[3])
{
	uint32_t w0 = f->words[0], w1 = f->words[1];

	if (f->form == KFD_ISA_FORM_SDWA || f->form == KFD_ISA_FORM_DPP)
		return -1;
	if (f->form == KFD_ISA_FORM_VOP3 || f->enc == KFD_ISA_VOP3) {
		/* abs 10:8, clamp 15, omod 28:27 (w1), neg 31:29 (w1) */
		if ((w0 & 0x8700) || (w1 & 0xf8000000u))
			return -1;
		*vdst = w0 & 0xff;
		src[0] = w1 & 0x1ff;
		src[1] = (w1 >> 9) & 0x1ff;
		src[2] = (w1 >> 18) & 0x1ff;
		return 0;
	}
	*vdst = (w0 >> 17) & 0xff;
	src[0] = w0 & 0x1ff;
	src[1] = 256 + ((w0 >> 9) & 0xff);
	src[2] = 0;
	return 0;
}

enum sh_step
sh_valu_family(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t exec = sh_exec(w);
	unsigned int vdst, src[3];

	if (operands(f, &vdst, src))
		return sh_illegal(c, w, i, "this encoding form or a modifier");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint64_t a, d, r;
		uint32_t x, y;

		if (!((exec >> l) & 1))
			continue;
		switch (i->id) {
		case SH_OP_V_MOV_B64:
			if (sh_src64(w, i, src[0], l, 0, &r))
				return sh_illegal(c, w, i, "operand");
			break;
		case SH_OP_V_LSHL_ADD_U64:
			/* the MI300 guide: shifts of 0 to 4 only; the field is 3 bits */
			if (sh_src64(w, i, src[0], l, 0, &a) || sh_src32(w, i, src[1], l, &x) ||
			    sh_src64(w, i, src[2], l, 0, &d))
				return sh_illegal(c, w, i, "operand");
			r = (a << (x & 7)) + d;
			break;
		case SH_OP_V_FMAMK_F32:
		case SH_OP_V_FMAAK_F32:
			if (sh_src32(w, i, src[0], l, &x) || sh_src32(w, i, src[1], l, &y))
				return sh_illegal(c, w, i, "operand");
			r = i->id == SH_OP_V_FMAMK_F32 ?
			    u32(fmaf(f32(x), f32(f->literal), f32(y))) :
			    u32(fmaf(f32(x), f32(y), f32(f->literal)));
			w->v[vdst][l] = (uint32_t)r;
			continue;
		default:
			return sh_illegal(c, w, i, NULL);
		}
		w->v[vdst][l] = (uint32_t)r;
		w->v[(vdst + 1) % SH_VGPRS][l] = (uint32_t)(r >> 32);
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
