/* SPDX-License-Identifier: MIT */
/*
 * The GPU families the interpreter runs, and the instructions one family
 * has that gfx90a lacks. The rest of the interpreter is gfx90a's: gfx942
 * (CDNA3) shares its formats, wave size, register files and work-item id
 * packing; its table (formats/isa) adds a few rows and drops others.
 * gfx908 (CDNA1) is gfx90a less packed f32 math and its L2 cache
 * controls: its table drops those rows, so it runs on gfx90a's rows
 * alone. Its AGPRs serve MFMA only, which the interpreter lacks; the
 * kernel descriptor's accum_offset (gfx90a's) is read by neither.
 * gfx1030 (RDNA2) runs wave32: its waves have 32 lanes, its lane masks
 * one SGPR (sh_mask()), and some of its rows run under gfx9's names.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shader_priv.h"

/* sysfs gfx_target_version -> the decoder's family. */
static const struct {
	uint32_t gfx;
	enum kfd_isa_family isa;
} sh_families[] = {
	{ 90008, KFD_ISA_GFX908 },	/* mi100 */
	{ 90010, KFD_ISA_GFX90A },	/* mi210 */
	{ 90402, KFD_ISA_GFX942 },	/* mi300x */
	{ 100300, KFD_ISA_GFX1030 },	/* rx6900xt */
};

/* gfx10's names of rows that compute as a gfx9 row does. */
static const struct {
	const char *gfx10, *as;
} sh_renamed[] = {
	{ "v_add_nc_u32", "v_add_u32" },
	{ "v_sub_nc_u32", "v_sub_u32" },
	{ "v_subrev_nc_u32", "v_subrev_u32" },
	{ "v_add_co_ci_u32", "v_addc_co_u32" },
	{ "v_sub_co_ci_u32", "v_subb_co_u32" },
	{ "v_subrev_co_ci_u32", "v_subbrev_co_u32" },
	/* gfx10's 16-bit integer rows, VOP3 only there */
	{ "v_add_nc_u16", "v_add_u16" },
	{ "v_sub_nc_u16", "v_sub_u16" },
};

const char *
sh_family_name(enum kfd_isa_family isa, const char *mnemonic, char *buf, size_t n)
{
	/* gfx942's cache invalidation is gfx90a's under another name */
	if (isa == KFD_ISA_GFX942 && !strcmp(mnemonic, "buffer_inv"))
		return "buffer_invl2";
	if (isa != KFD_ISA_GFX1030)
		return mnemonic;
	for (size_t k = 0; k < sizeof(sh_renamed) / sizeof(sh_renamed[0]); k++)
		if (!strcmp(mnemonic, sh_renamed[k].gfx10))
			return sh_renamed[k].as;
	/* a v_cmpx compares as v_cmp, then writes exec (compare_lanes()) */
	if (!strncmp(mnemonic, "v_cmpx_", 7)) {
		snprintf(buf, n, "v_cmp_%s", mnemonic + 7);
		return buf;
	}
	return mnemonic;
}

int
sh_family_op(unsigned int id)
{
	return id >= SH_OP_V_MOV_B64 && id <= SH_OP_S_GL1_INV;
}

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

static enum sh_step
valu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
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

/* gfx10's s_*_saveexec_b32: exec_lo to sdst, then the new exec_lo. */
static enum sh_step
saveexec32(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0], a, r, exec = (uint32_t)sh_exec(w);

	if (w->lanes != 32)
		return sh_illegal(c, w, i, "a wave32 instruction in a wave64 wave");
	if (sh_src32(w, i, w0 & 0xff, 0, &a))
		return sh_illegal(c, w, i, "operand");
	switch (i->id) {
	case SH_OP_S_AND_SAVEEXEC_B32: r = a & exec; break;
	case SH_OP_S_OR_SAVEEXEC_B32: r = a | exec; break;
	case SH_OP_S_XOR_SAVEEXEC_B32: r = a ^ exec; break;
	case SH_OP_S_ANDN2_SAVEEXEC_B32: r = a & ~exec; break;
	default: r = a | ~exec; break;	/* s_orn2_saveexec_b32 */
	}
	w->s[(w0 >> 16) & 0x7f] = exec;
	sh_set_exec(w, r);
	w->scc = r != 0;
	return SH_NEXT;
}

enum sh_step
sh_family_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	switch (i->id) {
	case SH_OP_S_AND_SAVEEXEC_B32: case SH_OP_S_OR_SAVEEXEC_B32:
	case SH_OP_S_XOR_SAVEEXEC_B32: case SH_OP_S_ANDN2_SAVEEXEC_B32:
	case SH_OP_S_ORN2_SAVEEXEC_B32:
		return saveexec32(c, w, i);
	/* memory completes in order: nothing to wait for or invalidate */
	case SH_OP_S_WAITCNT_VSCNT: case SH_OP_S_CLAUSE: case SH_OP_S_INST_PREFETCH:
	case SH_OP_BUFFER_GL0_INV: case SH_OP_BUFFER_GL1_INV: case SH_OP_S_GL1_INV:
		return SH_NEXT;
	default:
		return valu(c, w, i);
	}
}
