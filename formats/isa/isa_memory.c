// SPDX-License-Identifier: MIT
/*
 * The memory encodings: DS (LDS), FLAT/GLOBAL/SCRATCH, MUBUF and MIMG.
 * A modifier bit whose spelling the table has not been checked for makes
 * the instruction unknown rather than printed wrong.
 */
#include "isa_priv.h"

/*
 * A ds_swizzle_b32 offset as LLVM spells it: QUAD_PERM (bits 15:8 are
 * 0x80), else a bit-mask pattern (bit 15 clear: and, or and xor masks of
 * five bits each) as SWAP, REVERSE, BROADCAST or BITMASK_PERM with each
 * lane-id bit, high first, as 0, 1, p (kept) or i (inverted); any other
 * value in decimal.
 */
static void ds_swizzle(struct isa_ctx *c, unsigned int imm)
{
	unsigned int and_mask = imm & 31, or_mask = (imm >> 5) & 31, xor_mask = (imm >> 10) & 31;
	unsigned int group = 32 - and_mask;

	if (!imm)
		return;
	if ((imm & 0xff00) == 0x8000) {
		isa_put(c, " offset:swizzle(QUAD_PERM,%u,%u,%u,%u)", imm & 3, (imm >> 2) & 3,
			(imm >> 4) & 3, (imm >> 6) & 3);
		return;
	}
	if (imm & 0x8000) {
		isa_put(c, " offset:%u", imm);
		return;
	}
	if (and_mask == 31 && !or_mask && __builtin_popcount(xor_mask) == 1) {
		isa_put(c, " offset:swizzle(SWAP,%u)", xor_mask);
	} else if (and_mask == 31 && !or_mask && xor_mask && !(xor_mask & (xor_mask + 1))) {
		isa_put(c, " offset:swizzle(REVERSE,%u)", xor_mask + 1);
	} else if (group > 1 && !(group & (group - 1)) && or_mask < group && !xor_mask) {
		isa_put(c, " offset:swizzle(BROADCAST,%u,%u)", group, or_mask);
	} else {
		unsigned int p0 = or_mask ^ xor_mask, p1 = (and_mask | or_mask) ^ xor_mask;

		isa_put(c, " offset:swizzle(BITMASK_PERM,\"");
		for (unsigned int m = 16; m; m >>= 1)
			isa_put(c, "%c", (p0 & m) == (p1 & m) ? ((p0 & m) ? '1' : '0') :
					  ((p0 & m) ? 'i' : 'p'));
		isa_put(c, "\")");
	}
}

static int ds(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int off0 = w0 & 0xff, off1 = (w0 >> 8) & 0xff;
	/* gfx10: no AGPRs; gds one bit up, under the opcode's new place */
	int acc = isa_gen10(c) ? 0 : (w0 >> 25) & 1, r = 0;
	int gds = isa_gen10(c) ? (w0 >> 17) & 1 : (w0 >> 16) & 1;

	if (acc && c->table->no_mem_acc)
		return isa_fail(c, "DS bit 25 not covered");
	/* GWS is reached through gds only: LLVM has no form without it */
	if ((op->flags & F_NO_ADDR) && !gds)
		return isa_fail(c, "GWS without gds");

	/* GWS's semaphore rows have no operand but their modifiers */
	if (op->dst || op->src0 || !(op->flags & F_NO_ADDR))
		isa_put(c, " ");
	if (op->dst) {
		r |= isa_put_vreg(c, w1 >> 24, op->dst, acc);
		isa_put(c, ", ");
	}
	if (!(op->flags & F_NO_ADDR))
		r |= isa_put_vreg(c, w1 & 0xff, 1, 0);
	if (op->src0) {
		if (!(op->flags & F_NO_ADDR))
			isa_put(c, ", ");
		r |= isa_put_vreg(c, (w1 >> 8) & 0xff, op->src0, acc);
	}
	if (op->src1) {
		isa_put(c, ", ");
		r |= isa_put_vreg(c, (w1 >> 16) & 0xff, op->src1, acc);
	}
	if (op->flags & F_SWIZZLE) {
		ds_swizzle(c, w0 & 0xffff);
	} else if (op->flags & F_OFF2) {
		if (off0)
			isa_put(c, " offset0:%u", off0);
		if (off1)
			isa_put(c, " offset1:%u", off1);
	} else if (w0 & 0xffff) {
		isa_put(c, " offset:%u", w0 & 0xffff);
	}
	if (isa_gen10(c) && ((w0 >> 16) & 1))
		return isa_fail(c, "DS bit 16 not covered");
	if (gds)
		isa_put(c, " gds");
	return r;
}

/*
 * The cache-policy bits: gfx9 prints glc and slc; gfx940 calls the same
 * bits sc0 and nt and adds sc1 in the bit gfx9 keeps as scc.
 */
static void cpol(struct isa_ctx *c, int glc, int slc, int scc)
{
	if (c->table->cpol == ISA_CPOL_SC) {
		if (glc)
			isa_put(c, " sc0");
		if (slc)
			isa_put(c, " nt");
		if (scc)
			isa_put(c, " sc1");
		return;
	}
	if (glc)
		isa_put(c, " glc");
	if (slc)
		isa_put(c, " slc");
}

static const char *const flat_segment[] = { "flat_", "scratch_", "global_", NULL };

/*
 * gfx10's FLAT: a 12-bit offset (signed for global and scratch), dlc at
 * 12, and null (125) as the absent SGPR base. Scratch with 127 there
 * takes neither a VGPR nor an SGPR address: the offset alone.
 */
static int flat_gen10(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f;
	unsigned int addr = w1 & 0xff, data = (w1 >> 8) & 0xff, vdst = w1 >> 24;
	int glc = (w0 >> 16) & 1, off = saddr == 125, r = 0;
	int st = seg == 1 && saddr == 0x7f;
	int offset;

	if (!flat_segment[seg])
		return isa_fail(c, "reserved FLAT segment");
	if ((w0 >> 13) & 1)
		return isa_fail(c, "FLAT lds bit not covered");
	if ((w0 >> 25) & 1 || (w1 >> 23) & 1)
		return isa_fail(c, "FLAT bits 25 and 55 not covered");
	if (seg == 1 && op->kind == K_ATOMIC)
		return isa_fail(c, "scratch has no atomics");
	if (seg == 0) {
		if ((w0 >> 11) & 1)
			return isa_fail(c, "FLAT offset bit 11 set");
		if (saddr != 125)
			return isa_fail(c, "flat with an SGPR base");
		offset = (int)(w0 & 0x7ff);
	} else {
		offset = (int)(w0 & 0xfff) - ((w0 & 0x800) ? 0x1000 : 0);
	}
	c->insn->mnemonic = op->name;
	isa_put(c, "%s%s ", flat_segment[seg], op->name);
	if (op->kind == K_LOAD || (op->kind == K_ATOMIC && glc)) {
		r |= isa_put_vreg(c, vdst, op->dst, 0);
		isa_put(c, ", ");
	}
	if (seg == 1 && !off)
		isa_put(c, "off");
	else
		r |= isa_put_vreg(c, addr, seg == 0 || (seg == 2 && off) ? 2 : 1, 0);
	off |= st;
	if (op->kind != K_LOAD) {
		isa_put(c, ", ");
		r |= isa_put_vreg(c, data, op->src0, 0);
	}
	if (seg != 0) {
		isa_put(c, ", ");
		if (off)
			isa_put(c, "off");
		else
			r |= isa_put_sreg(c, saddr, seg == 2 ? 2 : 1);
	}
	if (offset)
		isa_put(c, " offset:%d", offset);
	if (glc)
		isa_put(c, " glc");
	if ((w0 >> 17) & 1)
		isa_put(c, " slc");
	if ((w0 >> 12) & 1)
		isa_put(c, " dlc");
	return r;
}

static int flat(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f;
	unsigned int addr = w1 & 0xff, data = (w1 >> 8) & 0xff, vdst = w1 >> 24;
	int glc = (w0 >> 16) & 1, acc = (w1 >> 23) & 1, r = 0;
	int offset, sve;

	if (isa_gen10(c))
		return flat_gen10(c, op);
	if (acc && c->table->no_mem_acc)
		return isa_fail(c, "FLAT bit 55 not covered");
	if (!flat_segment[seg])
		return isa_fail(c, "reserved FLAT segment");
	/* gfx942's scratch: bit 13 says the VGPR address is used */
	sve = seg == 1 && c->table->scratch_sve && ((w0 >> 13) & 1);
	if ((w0 >> 13) & 1 && !sve)
		return isa_fail(c, "FLAT lds bit not covered");
	if ((w0 >> 25) & 1 && c->table->cpol != ISA_CPOL_SC)
		return isa_fail(c, "FLAT scc bit not covered");
	if (seg == 1 && op->kind == K_ATOMIC)
		return isa_fail(c, "scratch has no atomics");
	/* global and scratch offsets are signed 13 bits; flat's unsigned 12 */
	if (seg == 0) {
		if ((w0 >> 12) & 1)
			return isa_fail(c, "FLAT offset bit 12 set");
		offset = (int)(w0 & 0xfff);
	} else {
		offset = (int)(w0 & 0x1fff) - ((w0 & 0x1000) ? 0x2000 : 0);
	}
	c->insn->mnemonic = op->name;
	isa_put(c, "%s%s ", flat_segment[seg], op->name);
	if (op->kind == K_LOAD || (op->kind == K_ATOMIC && glc)) {
		r |= isa_put_vreg(c, vdst, op->dst, acc);
		isa_put(c, ", ");
	}
	if (seg == 1 && (c->table->scratch_sve ? !sve : saddr != 0x7f))
		isa_put(c, "off");
	else
		r |= isa_put_vreg(c, addr, seg == 0 || (seg == 2 && saddr == 0x7f) ? 2 : 1, 0);
	if (op->kind != K_LOAD) {
		isa_put(c, ", ");
		r |= isa_put_vreg(c, data, op->src0, acc);
	}
	if (seg != 0) {
		isa_put(c, ", ");
		if (saddr == 0x7f)
			isa_put(c, "off");
		else
			r |= isa_put_sreg(c, saddr, seg == 2 ? 2 : 1);
	}
	if (offset)
		isa_put(c, " offset:%d", offset);
	cpol(c, glc, (w0 >> 17) & 1, (w0 >> 25) & 1);
	return r;
}

static int mubuf(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	int offen = (w0 >> 12) & 1, idxen = (w0 >> 13) & 1, acc = (w1 >> 23) & 1;
	int gen10 = isa_gen10(c), r = 0;

	if (op->kind == K_NONE) {
		/* gfx10's cache invalidations: no operand; LLVM prints
		 * gfx9's buffer_wbl2 bare with its bits 15:14 set, and
		 * gfx942's with the scope those bits give (sc0, sc1, nt) */
		if (c->table->cpol == ISA_CPOL_SC) {
			if (w1 || (w0 & 0x13fff))
				return isa_fail(c, "MUBUF cache control with operands");
			c->insn->mnemonic = op->name;
			isa_put(c, "%s", op->name);
			cpol(c, (w0 >> 14) & 1, (w0 >> 17) & 1, (w0 >> 15) & 1);
			return 0;
		}
		if (w1 || (w0 & (gen10 ? 0x3ffff : 0x33fff)))
			return isa_fail(c, "MUBUF cache control with operands");
		c->insn->mnemonic = op->name;
		isa_put(c, "%s", op->name);
		return 0;
	}
	/* gfx10: dlc at 15, slc at 54, tfe at 55 and no AGPRs */
	if (gen10 && (acc || (w0 >> 25) & 1))
		return isa_fail(c, "MUBUF tfe or bit 25 not covered");
	if (offen && idxen)
		return isa_fail(c, "MUBUF offen with idxen not covered");
	if (acc && c->table->no_mem_acc)
		return isa_fail(c, "MUBUF tfe not covered");
	if ((w0 >> 15) & 1 && c->table->cpol != ISA_CPOL_SC && !gen10)
		return isa_fail(c, "MUBUF scc bit not covered");
	if ((w0 >> 16) & 1)
		return isa_fail(c, "MUBUF lds bit not covered");
	c->insn->mnemonic = op->name;
	isa_put(c, "%s ", op->name);
	r |= isa_put_vreg(c, (w1 >> 8) & 0xff, op->kind == K_LOAD ? op->dst : op->src0, acc);
	isa_put(c, ", ");
	if (offen || idxen)
		r |= isa_put_vreg(c, w1 & 0xff, 1, 0);
	else
		isa_put(c, "off");
	isa_put(c, ", ");
	r |= isa_put_sreg(c, ((w1 >> 16) & 0x1f) * 4, 4);
	isa_put(c, ", ");
	if ((w1 >> 24) == 255)
		return isa_fail(c, "literal soffset");
	r |= isa_put_src(c, w1 >> 24, 1);
	if (offen)
		isa_put(c, " offen");
	if (idxen)
		isa_put(c, " idxen");
	if (w0 & 0xfff)
		isa_put(c, " offset:%u", w0 & 0xfff);
	if (gen10) {
		if ((w0 >> 17) & 1)
			return isa_fail(c, "MUBUF bit 17 not covered");
		if ((w0 >> 14) & 1)
			isa_put(c, " glc");
		if ((w1 >> 22) & 1)
			isa_put(c, " slc");
		if ((w0 >> 15) & 1)
			isa_put(c, " dlc");
		return r;
	}
	cpol(c, (w0 >> 14) & 1, (w0 >> 17) & 1, (w0 >> 15) & 1);
	return r;
}

/*
 * gfx10's MIMG without NSA: dim 5:3 names the address's size, dlc 7,
 * dmask 11:8, unorm 12, glc 13, slc 25; the resource is 8 SGPRs.
 */
static int mimg_gen10(struct isa_ctx *c, const struct isa_op *op)
{
	static const char *const dims[8] = {
		"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY",
	};
	static const unsigned int dim_size[8] = { 1, 2, 3, 3, 2, 3, 3, 4 };
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int dmask = (w0 >> 8) & 0xf, n = (unsigned int)__builtin_popcount(dmask);
	unsigned int dim = (w0 >> 3) & 7;
	int r = 0;

	if (w0 & 0x3c007)
		return isa_fail(c, "MIMG NSA, r128, tfe or lwe not covered");
	if (w1 >> 26)
		return isa_fail(c, "MIMG a16, d16 or sampler bits not covered");
	c->insn->mnemonic = op->name;
	isa_put(c, "%s ", op->name);
	r |= isa_put_vreg(c, (w1 >> 8) & 0xff, n ? n : 1, 0);
	isa_put(c, ", ");
	/* the _mip forms add the level to the coordinates */
	r |= isa_put_vreg(c, w1 & 0xff, dim_size[dim] + (op->op & 1), 0);
	isa_put(c, ", ");
	r |= isa_put_sreg(c, ((w1 >> 16) & 0x1f) * 4, 8);
	if (dmask)
		isa_put(c, " dmask:0x%x", dmask);
	isa_put(c, " dim:SQ_RSRC_IMG_%s", dims[dim]);
	if ((w0 >> 12) & 1)
		isa_put(c, " unorm");
	if ((w0 >> 7) & 1)
		isa_put(c, " dlc");
	if ((w0 >> 13) & 1)
		isa_put(c, " glc");
	if ((w0 >> 25) & 1)
		isa_put(c, " slc");
	return r;
}

static int mimg(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int dmask = (w0 >> 8) & 0xf, n = (unsigned int)__builtin_popcount(dmask);
	int r = 0;

	if (isa_gen10(c))
		return mimg_gen10(c, op);
	if (w0 & 0x38000)
		return isa_fail(c, "MIMG a16, tfe or lwe not covered");
	if (w0 & 0xff)
		return isa_fail(c, "MIMG bits 7:0 (gfx90a scc) not covered");
	if (w1 >> 31)
		return isa_fail(c, "MIMG d16 not covered");
	c->insn->mnemonic = op->name;
	isa_put(c, "%s ", op->name);
	r |= isa_put_vreg(c, (w1 >> 8) & 0xff, n ? n : 1, 0);
	isa_put(c, ", ");
	/* gfx9 does not encode the address size: LLVM prints one VGPR */
	r |= isa_put_vreg(c, w1 & 0xff, 1, 0);
	isa_put(c, ", ");
	r |= isa_put_sreg(c, ((w1 >> 16) & 0x1f) * 4, 8);
	if (dmask)
		isa_put(c, " dmask:0x%x", dmask);
	if ((w0 >> 12) & 1)
		isa_put(c, " unorm");
	if ((w0 >> 13) & 1)
		isa_put(c, " glc");
	if ((w0 >> 25) & 1)
		isa_put(c, " slc");
	if ((w0 >> 14) & 1)
		isa_put(c, " da");
	return r;
}

int isa_memory(struct isa_ctx *c, const struct isa_op *op)
{
	switch (op->enc) {
	case ISA_DS:
		c->insn->mnemonic = op->name;
		isa_put(c, "%s", op->name);
		return ds(c, op);
	case ISA_FLAT:
		return flat(c, op);
	case ISA_MUBUF:
		return mubuf(c, op);
	case ISA_MIMG:
		return mimg(c, op);
	}
	return isa_fail(c, "memory encoding not covered");
}
