/* SPDX-License-Identifier: MIT */
/*
 * The DPP and SDWA forms of VOP1, VOP2 and VOPC rows (AMD's MI200 ISA,
 * "Data Parallel Processing" and "Sub-Dword Addressing"). Neither changes
 * what a row computes, only where its sources come from and what of its
 * result is written; so the forms prepare the sources in the wave's xs[]
 * (read as SH_SRC_XS), run the row in shader_valu.c with EXEC narrowed to
 * the lanes that write, and then, for SDWA, merge the result into the
 * destination's unselected bits.
 *
 * DPP: src0 is a VGPR of another lane of the row or the wave (dpp_ctrl;
 * gfx90a adds row_newbcast, lane n of each row to the whole row).
 * A lane whose row (row_mask) or bank of four (bank_mask) is disabled
 * writes nothing; a lane whose source lane is out of range or not in EXEC
 * reads 0 with bound_ctrl set, else writes nothing.
 *
 * gfx10 (the RDNA2 guide) drops the wave shifts and row broadcasts, and
 * adds row_share (lane n of the row, as row_newbcast) and row_xmask (the
 * lane whose number in the row is x xor n). Its fetch-inactive bit (fi)
 * reads a source lane outside EXEC as if it were in. Its DPP8 (src0 233,
 * 234 with fi) gives each lane of a group of eight the lane its 3-bit
 * select names, with no masks or modifiers; an inactive source reads 0
 * without fi.
 *
 * SDWA: each source is a byte, a word or the dword of its register
 * (src_sel), zero- or sign-extended (sext); the result's low byte or word
 * goes to the destination's dst_sel, the rest padded with zeros, sign
 * extended or preserved (dst_unused).
 */
#include <string.h>

#include "shader_priv.h"

/* DPP word: bits of the second dword */
#define DPP_SRC0(w)		((w) & 0xffu)
#define DPP_CTRL(w)		(((w) >> 8) & 0x1ffu)
#define DPP_FI(w)		(((w) >> 18) & 1u)	/* gfx10 */
#define DPP_BOUND_CTRL(w)	(((w) >> 19) & 1u)
#define DPP_BANK_MASK(w)	(((w) >> 24) & 0xfu)
#define DPP_ROW_MASK(w)		(((w) >> 28) & 0xfu)

/* SDWA word */
#define SDWA_SRC0(w)		((w) & 0xffu)
#define SDWA_DST_SEL(w)		(((w) >> 8) & 7u)
#define SDWA_DST_UNUSED(w)	(((w) >> 11) & 3u)
#define SDWA_CLAMP(w)		(((w) >> 13) & 1u)
#define SDWA_OMOD(w)		(((w) >> 14) & 3u)
#define SDWA_SEL(w, k)		(((w) >> ((k) ? 24 : 16)) & 7u)
#define SDWA_SEXT(w, k)		(((w) >> ((k) ? 27 : 19)) & 1u)
#define SDWA_SGPR(w, k)		(((w) >> ((k) ? 31 : 23)) & 1u)
#define SDWA_SDST(w)		(((w) >> 8) & 0x7fu)	/* VOPC */
#define SDWA_SD(w)		(((w) >> 15) & 1u)

enum { SEL_DWORD = 6 };
enum { UNUSED_PAD, UNUSED_SEXT, UNUSED_PRESERVE };

/* The source lane of @lane under @ctrl: -1 out of range, -2 reserved. */
static int
dpp_src(unsigned int ctrl, int lane, int gen10)
{
	int row = lane & ~15, x = lane & 15, n = (int)(ctrl & 15);

	if (gen10 && ctrl >= 0x130 && ctrl <= 0x143 && ctrl != 0x140 && ctrl != 0x141)
		return -2;	/* no wave shifts or row broadcasts */
	if (gen10 && ctrl >= 0x160 && ctrl <= 0x16f)	/* row_xmask */
		return row | (x ^ n);

	if (ctrl <= 0xff)	/* quad_perm */
		return (lane & ~3) | (int)((ctrl >> ((lane & 3) * 2)) & 3);
	if (ctrl >= 0x101 && ctrl <= 0x10f)	/* row_shl */
		return x + n < 16 ? lane + n : -1;
	if (ctrl >= 0x111 && ctrl <= 0x11f)	/* row_shr */
		return x >= n ? lane - n : -1;
	if (ctrl >= 0x121 && ctrl <= 0x12f)	/* row_ror */
		return row | ((x - n) & 15);
	switch (ctrl) {
	case 0x130: return lane < SH_LANES - 1 ? lane + 1 : -1;	/* wave_shl:1 */
	case 0x134: return (lane + 1) % SH_LANES;			/* wave_rol:1 */
	case 0x138: return lane > 0 ? lane - 1 : -1;			/* wave_shr:1 */
	case 0x13c: return (lane + SH_LANES - 1) % SH_LANES;		/* wave_ror:1 */
	case 0x140: return row | (15 - x);				/* row_mirror */
	case 0x141: return (lane & ~7) | (7 - (lane & 7));		/* row_half_mirror */
	case 0x142: return row ? row - 1 : -1;				/* row_bcast:15 */
	case 0x143: return lane >= 32 ? 31 : -1;			/* row_bcast:31 */
	}
	if (ctrl >= 0x150 && ctrl <= 0x15f)	/* row_newbcast, gfx10's row_share */
		return row | n;
	return -2;
}

/* The byte or word @sel of @v, extended to 32 bits. */
static uint32_t
sdwa_sel(uint32_t v, unsigned int sel, unsigned int sext)
{
	unsigned int width = sel < 4 ? 8 : 16, shift = sel < 4 ? sel * 8 : (sel - 4) * 16;

	if (sel >= SEL_DWORD)
		return v;
	v = (v >> shift) & ((1u << width) - 1);
	if (sext)
		v = (uint32_t)((int32_t)(v << (32 - width)) >> (32 - width));
	return v;
}

/* The destination after a result @r: its byte or word @sel, the rest. */
static uint32_t
sdwa_merge(uint32_t old, uint32_t r, unsigned int sel, unsigned int unused)
{
	unsigned int width = sel < 4 ? 8 : 16, shift = sel < 4 ? sel * 8 : (sel - 4) * 16;
	uint32_t mask = ((1u << width) - 1) << shift;

	if (sel >= SEL_DWORD)
		return r;
	r = (r << shift) & mask;
	switch (unused) {
	case UNUSED_SEXT:
		/* the bits above take the sign; those below are zero */
		if ((r >> (shift + width - 1)) & 1)
			r |= ~0u << (shift + width - 1);
		return r;
	case UNUSED_PRESERVE:
		return (old & ~mask) | r;
	default:
		return r;
	}
}

int
sh_xform_fields(const struct sh_insn *i, struct sh_vop *o)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];

	memset(o, 0, sizeof(*o));
	o->nsrc = f->enc == KFD_ISA_VOP1 ? 1 : 2;
	o->src[0] = SH_SRC_XS;
	o->vdst = (w0 >> 17) & 0xff;
	o->sdst = SH_VCC;
	o->cin = SH_VCC;
	if (f->form == KFD_ISA_FORM_DPP) {
		o->src[1] = 256 + ((w0 >> 9) & 0xff);
		if (sh_dpp8(f))
			return 0;	/* the selects, no modifiers */
		o->neg = ((w1 >> 20) & 1) | ((w1 >> 22) & 1) << 1;
		o->abs = ((w1 >> 21) & 1) | ((w1 >> 23) & 1) << 1;
		if (f->enc == KFD_ISA_VOPC)
			o->vdst = SH_VCC;
		return 0;
	}
	o->src[1] = SH_SRC_XS + 1;
	o->neg = ((w1 >> 20) & 1) | ((w1 >> 28) & 1) << 1;
	o->abs = ((w1 >> 21) & 1) | ((w1 >> 29) & 1) << 1;
	if (f->enc == KFD_ISA_VOPC) {
		o->vdst = SDWA_SD(w1) ? SDWA_SDST(w1) : SH_VCC;
	} else {
		o->clamp = SDWA_CLAMP(w1);
		o->omod = SDWA_OMOD(w1);
	}
	return 0;
}

/* Move src0 across lanes; *run: the lanes that write. */
static enum sh_step
dpp_sources(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, uint64_t exec,
	    uint64_t *run)
{
	uint32_t w1 = i->in->f.words[1];
	unsigned int ctrl = DPP_CTRL(w1), src = DPP_SRC0(w1);
	int gen10 = sh_gen10(c), fi = gen10 && DPP_FI(w1);

	*run = 0;
	if (sh_dpp8(&i->in->f)) {
		fi = (i->in->f.words[0] & 0x1ff) == 234;
		for (int l = 0; l < SH_LANES; l++) {
			int s = (l & ~7) | (int)((w1 >> (8 + 3 * (l & 7))) & 7);

			if (!((exec >> l) & 1))
				continue;
			w->xs[0][l] = fi || ((exec >> s) & 1) ? w->v[src][s] : 0;
			*run |= 1ull << l;
		}
		return SH_NEXT;
	}
	if (dpp_src(ctrl, 0, gen10) == -2)
		return sh_illegal(c, w, i, "a reserved DPP control");
	for (int l = 0; l < SH_LANES; l++) {
		int s;

		if (!((exec >> l) & 1) || !((DPP_ROW_MASK(w1) >> (l >> 4)) & 1) ||
		    !((DPP_BANK_MASK(w1) >> ((l >> 2) & 3)) & 1))
			continue;
		s = dpp_src(ctrl, l, gen10);
		if (s >= 0 && (fi || ((exec >> s) & 1)))
			w->xs[0][l] = w->v[src][s];
		else if (DPP_BOUND_CTRL(w1))
			w->xs[0][l] = 0;
		else
			continue;
		*run |= 1ull << l;
	}
	return SH_NEXT;
}

/* Select and extend the sources of every lane in @exec. */
static enum sh_step
sdwa_sources(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, uint64_t exec)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w1 = f->words[1];
	unsigned int field[2], n = f->enc == KFD_ISA_VOP1 ? 1 : 2;

	field[0] = SDWA_SRC0(w1) + (SDWA_SGPR(w1, 0) ? 0 : 256);
	field[1] = ((f->words[0] >> 9) & 0xff) + (SDWA_SGPR(w1, 1) ? 0 : 256);
	for (unsigned int k = 0; k < n; k++)
		for (unsigned int l = 0; l < SH_LANES; l++) {
			uint32_t v;

			if (!((exec >> l) & 1))
				continue;
			if (sh_src32(w, i, field[k], l, &v))
				return sh_illegal(c, w, i, "operand");
			w->xs[k][l] = sdwa_sel(v, SDWA_SEL(w1, k), SDWA_SEXT(w1, k));
		}
	return SH_NEXT;
}

enum sh_step
sh_xform(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w1 = f->words[1], old[SH_LANES];
	uint64_t exec = sh_exec(w), run = exec;
	unsigned int vdst = (f->words[0] >> 17) & 0xff;
	int sdwa = f->form == KFD_ISA_FORM_SDWA, merge;
	enum sh_step s;

	s = sdwa ? sdwa_sources(c, w, i, exec) : dpp_sources(c, w, i, exec, &run);
	if (s != SH_NEXT)
		return s;
	/* a 32-bit result into a byte or word of the destination */
	merge = sdwa && f->enc != KFD_ISA_VOPC && SDWA_DST_SEL(w1) < SEL_DWORD;
	if (merge && f->dst_dwords != 1)
		return sh_illegal(c, w, i, "SDWA destination");
	if (merge)
		memcpy(old, w->v[vdst], sizeof(old));
	c->xform = 1;
	sh_set_exec(w, run);
	s = sh_valu(c, w, i);
	/* rows that write EXEC themselves keep theirs */
	if (sh_exec(w) == run)
		sh_set_exec(w, exec);
	c->xform = 0;
	if (s != SH_NEXT || !merge)
		return s;
	for (unsigned int l = 0; l < SH_LANES; l++)
		if ((run >> l) & 1)
			w->v[vdst][l] = sdwa_merge(old[l], w->v[vdst][l], SDWA_DST_SEL(w1),
						   SDWA_DST_UNUSED(w1));
	return s;
}
