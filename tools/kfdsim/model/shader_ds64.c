/* SPDX-License-Identifier: MIT */
/*
 * The LDS 64-bit atomics of rocSPARSE's kernels (AMD's MI100 and MI200
 * ISA, "LDS instructions"):
 *
 *   ds_add_f64        LDS[address + offset] += data0 (a VGPR pair);
 *                     gfx90a's, where the symmetric SpMV sums
 *   ds_add_rtn_f64    the same, and vdst (a pair) gets the value before
 *   ds_cmpst_rtn_b64  LDS gets data1 where it held data0, and vdst gets
 *                     the value before; gfx908's SpMV adds doubles with it
 *                     in a compare-and-store loop
 *
 * Each active lane's operation is atomic, so lanes that name one address
 * all take their turn, in lane order, as the hardware's. The sum rounds
 * to nearest even, as the adder does with the default mode. LDS outside
 * the work-group's allocation reads zero and drops the write.
 */
#include <string.h>

#include "shader_priv.h"

int
sh_ds64_row(unsigned int id)
{
	return id == SH_OP_DS_ADD_F64 || id == SH_OP_DS_ADD_RTN_F64 ||
	       id == SH_OP_DS_CMPST_RTN_B64;
}

enum sh_step
sh_ds64(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int acc = ((w0 >> 25) & 1) * 256, addr = w1 & 0xff;
	unsigned int d0 = ((w1 >> 8) & 0xff) + acc, d1 = ((w1 >> 16) & 0xff) + acc;
	unsigned int vdst = (w1 >> 24) + acc;
	uint32_t off = w0 & 0xffff;
	uint64_t exec = sh_exec(w);

	/* gfx10 moved the fields, and has no such row */
	if (sh_gen10(c))
		return sh_illegal(c, w, i, NULL);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t a = w->v[addr][l] + off;
		uint8_t *p = (uint64_t)a + 8 > c->lds_size ? NULL : c->lds + a;
		uint64_t old = 0, a0, a1, sum;
		double x, y;

		if (!((exec >> l) & 1))
			continue;
		if (p)
			memcpy(&old, p, 8);
		a0 = (uint64_t)w->v[d0 % SH_VGPRS][l] |
		     (uint64_t)w->v[(d0 + 1) % SH_VGPRS][l] << 32;
		if (i->id == SH_OP_DS_CMPST_RTN_B64) {
			a1 = (uint64_t)w->v[d1 % SH_VGPRS][l] |
			     (uint64_t)w->v[(d1 + 1) % SH_VGPRS][l] << 32;
			sum = old == a0 ? a1 : old;
		} else {
			memcpy(&x, &old, 8);
			memcpy(&y, &a0, 8);
			x += y;
			memcpy(&sum, &x, 8);
		}
		if (p)
			memcpy(p, &sum, 8);
		if (i->id != SH_OP_DS_ADD_F64) {
			w->v[vdst % SH_VGPRS][l] = (uint32_t)old;
			w->v[(vdst + 1) % SH_VGPRS][l] = (uint32_t)(old >> 32);
		}
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}
