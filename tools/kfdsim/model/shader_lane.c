/* SPDX-License-Identifier: MIT */
/*
 * The DS rows that move data between lanes without touching LDS, and the
 * strided LDS pairs (AMD's MI200 ISA, "LDS instructions"):
 *
 *   ds_bpermute_b32   each lane reads data0 of the lane its address/4
 *                     names (the source lane's EXEC does not matter)
 *   ds_permute_b32    each lane writes its data0 to the lane its
 *                     address/4 names; a lane nothing reaches gets 0, and
 *                     of two writers the higher lane wins
 *   ds_swizzle_b32    the offset names the source lane: four-lane
 *                     permute (bit 15) or and/or/xor masks within 32
 *                     lanes; an inactive source lane gives 0
 *   ds_read2st64_*, ds_write2st64_*   ds_read2/write2 with the offsets in
 *                     units of 64 elements
 *
 * Addresses are modulo the wave, 64 or 32 lanes (the high bits are
 * ignored). LDS outside the work-group's allocation reads zero and drops
 * writes.
 */
#include <string.h>

#include "shader_priv.h"

static uint8_t *
lds(struct sh_ctx *c, uint32_t a, unsigned int n)
{
	return (uint64_t)a + n > c->lds_size ? NULL : c->lds + a;
}

static void
lds_get(struct sh_ctx *c, struct sh_wave *w, unsigned int l, uint32_t a, unsigned int dw,
	unsigned int vdst)
{
	uint8_t *p = lds(c, a, dw * 4);

	for (unsigned int k = 0; k < dw; k++) {
		uint32_t v = 0;

		if (p)
			memcpy(&v, p + k * 4, 4);
		w->v[(vdst + k) % SH_VGPRS][l] = v;
	}
}

static void
lds_put(struct sh_ctx *c, struct sh_wave *w, unsigned int l, uint32_t a, unsigned int dw,
	unsigned int data)
{
	uint8_t *p = lds(c, a, dw * 4);

	for (unsigned int k = 0; p && k < dw; k++)
		memcpy(p + k * 4, &w->v[(data + k) % SH_VGPRS][l], 4);
}

/* The source lane of @lane under the swizzle @pattern. */
static unsigned int
swizzle(unsigned int pattern, unsigned int lane)
{
	unsigned int and_mask = pattern & 31, or_mask = (pattern >> 5) & 31;
	unsigned int xor_mask = (pattern >> 10) & 31;

	if (pattern & 0x8000)
		return (lane & ~3u) | ((pattern >> ((lane & 3) * 2)) & 3);
	return (lane & 32) | ((((lane & 31) & and_mask) | or_mask) ^ xor_mask);
}

enum sh_step
sh_ds_lane(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1], tmp[SH_LANES];
	unsigned int off0 = w0 & 0xff, off1 = (w0 >> 8) & 0xff, off = w0 & 0xffff;
	/* gfx10 has no AGPRs: bit 25 is its opcode's top bit */
	unsigned int acc = sh_gen10(c) ? 0 : ((w0 >> 25) & 1) * 256, addr = w1 & 0xff;
	unsigned int d0 = ((w1 >> 8) & 0xff) + acc, d1 = ((w1 >> 16) & 0xff) + acc;
	unsigned int vdst = (w1 >> 24) + acc, l;
	uint64_t exec = sh_exec(w);

	switch (i->id) {
	case SH_OP_DS_BPERMUTE_B32: case SH_OP_DS_PERMUTE_B32: case SH_OP_DS_SWIZZLE_B32:
		memset(tmp, 0, sizeof(tmp));
		for (l = 0; l < SH_LANES; l++) {
			unsigned int s;

			if (!((exec >> l) & 1))
				continue;
			if (i->id == SH_OP_DS_BPERMUTE_B32) {
				s = ((w->v[addr][l] + off) >> 2) % w->lanes;
				tmp[l] = w->v[d0][s];
			} else if (i->id == SH_OP_DS_PERMUTE_B32) {
				s = ((w->v[addr][l] + off) >> 2) % w->lanes;
				tmp[s] = w->v[d0][l];
			} else {
				s = swizzle(off, l);
				tmp[l] = (exec >> s) & 1 ? w->v[addr][s] : 0;
			}
		}
		for (l = 0; l < SH_LANES; l++)
			if ((exec >> l) & 1)
				w->v[vdst % SH_VGPRS][l] = tmp[l];
		break;
	default:
		for (l = 0; l < SH_LANES; l++) {
			uint32_t a = w->v[addr][l];

			if (!((exec >> l) & 1))
				continue;
			switch (i->id) {
			case SH_OP_DS_READ2ST64_B32:
				lds_get(c, w, l, a + off0 * 256, 1, vdst);
				lds_get(c, w, l, a + off1 * 256, 1, vdst + 1);
				break;
			case SH_OP_DS_READ2ST64_B64:
				lds_get(c, w, l, a + off0 * 512, 2, vdst);
				lds_get(c, w, l, a + off1 * 512, 2, vdst + 2);
				break;
			case SH_OP_DS_WRITE2ST64_B32:
				lds_put(c, w, l, a + off0 * 256, 1, d0);
				lds_put(c, w, l, a + off1 * 256, 1, d1);
				break;
			case SH_OP_DS_WRITE2ST64_B64:
				lds_put(c, w, l, a + off0 * 512, 2, d0);
				lds_put(c, w, l, a + off1 * 512, 2, d1);
				break;
			default:
				return sh_illegal(c, w, i, NULL);
			}
		}
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
