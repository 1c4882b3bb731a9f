/* SPDX-License-Identifier: MIT */
/*
 * Operands of the interpreter: the SGPR space (SGPRs, vcc, m0, exec at
 * their field numbers), the inline constants and the literal of a 9-bit
 * source field, VGPRs, and the sources a DPP or SDWA form prepared.
 */
#include <string.h>

#include "shader_priv.h"

uint64_t
sh_sreg64(const struct sh_wave *w, unsigned int idx)
{
	return (uint64_t)w->s[idx & 127] | (uint64_t)w->s[(idx + 1) & 127] << 32;
}

void
sh_set_sreg64(struct sh_wave *w, unsigned int idx, uint64_t v)
{
	w->s[idx & 127] = (uint32_t)v;
	w->s[(idx + 1) & 127] = (uint32_t)(v >> 32);
}

uint64_t
sh_mask(const struct sh_wave *w, unsigned int idx)
{
	return w->lanes == 32 ? w->s[idx & 127] : sh_sreg64(w, idx);
}

void
sh_set_mask(struct sh_wave *w, unsigned int idx, uint64_t v)
{
	if (w->lanes == 32)
		w->s[idx & 127] = (uint32_t)v;
	else
		sh_set_sreg64(w, idx, v);
}

uint64_t
sh_exec(const struct sh_wave *w)
{
	return sh_mask(w, SH_EXEC);
}

void
sh_set_exec(struct sh_wave *w, uint64_t v)
{
	sh_set_mask(w, SH_EXEC, v);
}

/* The float inline constants 240..248, as single and double. */
static const uint32_t f32_const[9] = {
	0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
	0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
};
static const uint64_t f64_const[9] = {
	0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
	0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
	0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull,
};

/* A constant field: 1 and *v set when @f is one. */
static int
constant(const struct sh_wave *w, const struct sh_insn *i, unsigned int f, int wide,
	 int fp, uint64_t *v)
{
	if (f >= 128 && f <= 192) {
		*v = f - 128;
		return 1;
	}
	if (f >= 193 && f <= 208) {
		*v = (uint64_t)(int64_t)(192 - (int)f);
		return 1;
	}
	if (f >= 240 && f <= 248) {
		*v = wide && fp ? f64_const[f - 240] : f32_const[f - 240];
		return 1;
	}
	switch (f) {
	case 251:	/* vccz */
		*v = sh_mask(w, SH_VCC) == 0;
		return 1;
	case 252:	/* execz */
		*v = sh_exec(w) == 0;
		return 1;
	case 253:
		*v = (uint64_t)w->scc;
		return 1;
	case 235: case 236: case 237: case 238:
		/* src_shared_base/_limit, src_private_base/_limit: the value
		 * is in the high half; a 32-bit read gives 0 (as LLVM notes) */
		*v = wide && w->aperture_hi ? (uint64_t)w->aperture_hi[f - 235] << 32 : 0;
		return 1;
	case 255:
		/*
		 * A double takes the literal as its high half. A 64-bit
		 * integer operand extends it: signed ones (an _i64 row) with
		 * the sign, the others (_u64, _b64) with zeros. rocRAND's
		 * mrg32k3a builds M1 - 1 with s_mov_b64 and a literal
		 * 0xffffff2e, then takes the high SGPR as 0.
		 */
		if (wide && fp)
			*v = (uint64_t)i->in->f.literal << 32;
		else if (wide && i->in->mnemonic && strstr(i->in->mnemonic, "_i64"))
			*v = (uint64_t)(int64_t)(int32_t)i->in->f.literal;
		else
			*v = i->in->f.literal;
		return 1;
	}
	return 0;
}

static int
readable_sreg(unsigned int f)
{
	return f < 102 || f == SH_FLAT_SCR || f == SH_FLAT_SCR + 1 || f == SH_VCC ||
	       f == SH_VCC + 1 || f == SH_M0 || f == SH_EXEC || f == SH_EXEC + 1 ||
	       (f >= SH_TTMP && f < SH_M0);
}

int
sh_src32(const struct sh_wave *w, const struct sh_insn *i, unsigned int f,
	 unsigned int lane, uint32_t *v)
{
	uint64_t k;

	if (f >= 256) {
		/* past the 9-bit fields: a DPP or SDWA source (shader_dpp.c) */
		*v = f >= SH_SRC_XS ? w->xs[(f - SH_SRC_XS) & 1][lane] : w->v[f - 256][lane];
		return 0;
	}
	if (readable_sreg(f)) {
		*v = w->s[f];
		return 0;
	}
	if (f == SH_NULL) {
		*v = 0;
		return 0;
	}
	if (constant(w, i, f, 0, 0, &k)) {
		*v = (uint32_t)k;
		return 0;
	}
	return -1;
}

int
sh_src64(const struct sh_wave *w, const struct sh_insn *i, unsigned int f,
	 unsigned int lane, int fp, uint64_t *v)
{
	if (f >= 256) {
		if (f - 256 + 1 >= SH_VGPRS)
			return -1;
		*v = (uint64_t)w->v[f - 256][lane] | (uint64_t)w->v[f - 255][lane] << 32;
		return 0;
	}
	if (readable_sreg(f) && f + 1 < 128) {
		*v = sh_sreg64(w, f);
		return 0;
	}
	return constant(w, i, f, 1, fp, v) ? 0 : -1;
}

const uint32_t *
sh_row32(const struct sh_wave *w, const struct sh_insn *i, unsigned int f,
	 uint32_t tmp[SH_LANES])
{
	uint32_t v;

	/* a DPP or SDWA source (shader_dpp.c), then the VGPRs */
	if (f >= SH_SRC_XS)
		return w->xs[(f - SH_SRC_XS) & 1];
	if (f >= 256)
		return w->v[f - 256];
	if (sh_src32(w, i, f, 0, &v))
		return NULL;
	for (unsigned int l = 0; l < SH_LANES; l++)
		tmp[l] = v;
	return tmp;
}

const uint32_t sh_zero_row[SH_LANES];
