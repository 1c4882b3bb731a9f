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
	int acc = (w0 >> 25) & 1, r = 0;

	isa_put(c, " ");
	if (op->dst) {
		r |= isa_put_vreg(c, w1 >> 24, op->dst, acc);
		isa_put(c, ", ");
	}
	r |= isa_put_vreg(c, w1 & 0xff, 1, 0);
	if (op->src0) {
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
	if ((w0 >> 16) & 1)
		isa_put(c, " gds");
	return r;
}

static const char *const flat_segment[] = { "flat_", "scratch_", "global_", NULL };

static int flat(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f;
	unsigned int addr = w1 & 0xff, data = (w1 >> 8) & 0xff, vdst = w1 >> 24;
	int glc = (w0 >> 16) & 1, acc = (w1 >> 23) & 1, r = 0;
	int offset;

	if (!flat_segment[seg])
		return isa_fail(c, "reserved FLAT segment");
	if ((w0 >> 13) & 1)
		return isa_fail(c, "FLAT lds bit not covered");
	if ((w0 >> 25) & 1)
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
	if (seg == 1 && saddr != 0x7f)
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
	if (glc)
		isa_put(c, " glc");
	if ((w0 >> 17) & 1)
		isa_put(c, " slc");
	return r;
}

static int mubuf(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	int offen = (w0 >> 12) & 1, idxen = (w0 >> 13) & 1, acc = (w1 >> 23) & 1;
	int r = 0;

	if (offen && idxen)
		return isa_fail(c, "MUBUF offen with idxen not covered");
	if ((w0 >> 15) & 1)
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
	if ((w0 >> 14) & 1)
		isa_put(c, " glc");
	if ((w0 >> 17) & 1)
		isa_put(c, " slc");
	return r;
}

static int mimg(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int dmask = (w0 >> 8) & 0xf, n = (unsigned int)__builtin_popcount(dmask);
	int r = 0;

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
