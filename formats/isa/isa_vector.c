// SPDX-License-Identifier: MIT
/*
 * The vector ALU encodings: VOP2, VOP1 and VOPC (the 32-bit forms, "_e32"),
 * VOP3A/VOP3B (the 64-bit forms, "_e64", and the VOP3-only opcodes) and
 * VOP3P (packed math).
 */
#include "isa_priv.h"

/* The lane mask's size and vcc's name: gfx10 code here is wave32. */
static unsigned int lanemask(const struct isa_ctx *c)
{
	return isa_gen10(c) ? 1 : 2;
}

static const char *vcc(const struct isa_ctx *c)
{
	return isa_gen10(c) ? "vcc_lo" : "vcc";
}

static void put_name(struct isa_ctx *c, const struct isa_op *op, const char *suffix)
{
	c->insn->mnemonic = op->name;
	isa_put(c, "%s%s", op->name, suffix);
}

static const char *const sdwa_sel[8] = {
	"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", NULL,
};
static const char *const sdwa_unused[4] = {
	"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", NULL,
};

/* An SDWA source: 8 bits, an SGPR-space operand when @sgpr is set. */
static int sdwa_src(struct isa_ctx *c, unsigned int f, int sgpr, unsigned int mods)
{
	int neg = (mods >> 1) & 1, abs = (mods >> 2) & 1, sext = mods & 1, r;

	if (sext && (neg || abs))
		return isa_fail(c, "SDWA sext with neg or abs not covered");
	if (!sgpr)
		f += 256;
	else if (f == 255)
		return isa_fail(c, "literal constant in SDWA");
	if (sext)
		isa_put(c, "sext(");
	r = isa_put_src_mod(c, f, 1, neg, abs);
	if (sext)
		isa_put(c, ")");
	return r;
}

/*
 * SDWA (sub-dword addressing): src0 = 249 and a second dword of selects.
 * The 32-bit operands only: the table's rows of other sizes have no SDWA.
 */
static int sdwa(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int vsrc1 = (w0 >> 9) & 0xff, vdst = (w0 >> 17) & 0xff;
	unsigned int dst_sel = (w1 >> 8) & 7, dst_unused = (w1 >> 11) & 3;
	unsigned int src0_sel = (w1 >> 16) & 7, src1_sel = (w1 >> 24) & 7;
	int r = 0;

	if (c->nwords < 2)
		return isa_fail(c, "SDWA dword past the end of the code");
	c->length = 8;
	if ((op->dst > 1 && op->enc != ISA_VOPC) || op->src0 > 1 || op->src1 > 1 ||
	    (op->flags & (F_E32_ONLY | F_SDST | F_NO_DST | F_NO_E64)))
		return isa_fail(c, "SDWA form of this opcode not covered");
	if (!sdwa_sel[src0_sel] || (op->enc != ISA_VOP1 && !sdwa_sel[src1_sel]))
		return isa_fail(c, "reserved SDWA select");
	c->form = KFD_ISA_FORM_SDWA;
	put_name(c, op, "_sdwa");
	isa_put(c, " ");
	if (op->enc == ISA_VOPC) {
		/* bit 15: an SGPR (pair) in 14:8 instead of vcc; no clamp, omod */
		if (!((w1 >> 15) & 1) && ((w1 >> 8) & 0x7f))
			return isa_fail(c, "SDWA VOPC bits 14:8 without sd not covered");
		if ((op->flags & F_CMPX) && ((w1 >> 15) & 1))
			return isa_fail(c, "SDWA v_cmpx with sd not covered");
		if (op->flags & F_CMPX)
			;	/* gfx10: exec only, no destination operand */
		else if ((w1 >> 15) & 1)
			r |= isa_put_sreg(c, (w1 >> 8) & 0x7f, lanemask(c));
		else
			isa_put(c, "%s", vcc(c));
	} else {
		r |= isa_put_vreg(c, vdst, 1, 0);
		if (op->flags & F_VCC_OUT)
			isa_put(c, ", %s", vcc(c));
	}
	if (!(op->flags & F_CMPX))
		isa_put(c, ", ");
	r |= sdwa_src(c, w1 & 0xff, (w1 >> 23) & 1, (w1 >> 19) & 7);
	if (op->enc != ISA_VOP1) {
		isa_put(c, ", ");
		r |= sdwa_src(c, vsrc1, (w1 >> 31) & 1, (w1 >> 27) & 7);
		if (op->flags & F_VCC_IN)
			isa_put(c, ", %s", vcc(c));
	}
	if (op->enc != ISA_VOPC) {
		if (!sdwa_unused[dst_unused] || !sdwa_sel[dst_sel])
			return isa_fail(c, "reserved SDWA destination select");
		if ((w1 >> 13) & 1)
			isa_put(c, " clamp");
		switch ((w1 >> 14) & 3) {
		case 1: isa_put(c, " mul:2"); break;
		case 2: isa_put(c, " mul:4"); break;
		case 3: isa_put(c, " div:2"); break;
		}
		isa_put(c, " dst_sel:%s dst_unused:%s", sdwa_sel[dst_sel],
			sdwa_unused[dst_unused]);
	}
	isa_put(c, " src0_sel:%s", sdwa_sel[src0_sel]);
	if (op->enc != ISA_VOP1)
		isa_put(c, " src1_sel:%s", sdwa_sel[src1_sel]);
	return r;
}

/* DPP's dpp_ctrl, as LLVM spells it; 0 when reserved. */
static int dpp_ctrl(struct isa_ctx *c, unsigned int ctrl)
{
	static const char *const fixed[] = {
		[0x30] = "wave_shl:1", [0x34] = "wave_rol:1", [0x38] = "wave_shr:1",
		[0x3c] = "wave_ror:1", [0x40] = "row_mirror", [0x41] = "row_half_mirror",
		[0x42] = "row_bcast:15", [0x43] = "row_bcast:31",
	};
	static const char *const shifts[] = { "row_shl", "row_shr", "row_ror" };

	if (ctrl < 0x100) {
		isa_put(c, " quad_perm:[%u,%u,%u,%u]", ctrl & 3, (ctrl >> 2) & 3,
			(ctrl >> 4) & 3, (ctrl >> 6) & 3);
		return 1;
	}
	ctrl -= 0x100;
	if (ctrl < 0x30 && (ctrl & 0xf)) {
		isa_put(c, " %s:%u", shifts[ctrl >> 4], ctrl & 0xf);
		return 1;
	}
	if (isa_gen10(c)) {
		/* gfx10: no wave shifts or broadcasts; row_share and row_xmask */
		if (ctrl == 0x40 || ctrl == 0x41) {
			isa_put(c, " %s", fixed[ctrl]);
			return 1;
		}
		if (ctrl >= 0x50 && ctrl < 0x70) {
			isa_put(c, " %s:%u", ctrl < 0x60 ? "row_share" : "row_xmask", ctrl & 0xf);
			return 1;
		}
		return 0;
	}
	if (ctrl < sizeof(fixed) / sizeof(fixed[0]) && fixed[ctrl]) {
		isa_put(c, " %s", fixed[ctrl]);
		return 1;
	}
	/* gfx90a: broadcast lane n of each row */
	if (ctrl >= 0x50 && ctrl < 0x60) {
		isa_put(c, " row_newbcast:%u", ctrl & 0xf);
		return 1;
	}
	return 0;
}

/*
 * What DPP and gfx10's DPP8 share: the second dword (@past when it is
 * missing), the opcodes they cover, the name and vdst (and VCC). -1 when
 * the form is refused; a bad vdst is or'ed into *@r.
 */
static int dpp_head(struct isa_ctx *c, const struct isa_op *op, unsigned int vdst,
		    const char *past, int *r)
{
	if (c->nwords < 2)
		return isa_fail(c, past);
	c->length = 8;
	if (op->enc == ISA_VOPC)
		return isa_fail(c, isa_gen10(c) ? "VOPC has no DPP form on gfx10" :
				"VOPC has no DPP form on gfx9");
	if (op->dst > 1 || op->src0 > 1 || op->src1 > 1 ||
	    (op->flags & (F_E32_ONLY | F_SDST | F_NO_DST | F_MADMK | F_MADAK)))
		return isa_fail(c, "DPP form of this opcode not covered");
	c->form = KFD_ISA_FORM_DPP;
	put_name(c, op, "_dpp");
	isa_put(c, " ");
	*r |= isa_put_vreg(c, vdst, 1, 0);
	if (op->flags & F_VCC_OUT)
		isa_put(c, ", %s", vcc(c));
	isa_put(c, ", ");
	return 0;
}

/* DPP (data-parallel primitives): src0 = 250 and a second dword. */
static int dpp(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int vsrc1 = (w0 >> 9) & 0xff, vdst = (w0 >> 17) & 0xff;
	int r = 0;

	if (dpp_head(c, op, vdst, "DPP dword past the end of the code", &r))
		return -1;
	if (op->flags & F_NO_MOD)
		w1 &= ~0x00f00000u;	/* the modifiers LLVM leaves unprinted */
	r |= isa_put_src_mod(c, 256 + (w1 & 0xff), 1, (w1 >> 20) & 1, (w1 >> 21) & 1);
	if (op->enc == ISA_VOP2) {
		isa_put(c, ", ");
		r |= isa_put_src_mod(c, 256 + vsrc1, 1, (w1 >> 22) & 1, (w1 >> 23) & 1);
		if (op->flags & F_VCC_IN)
			isa_put(c, ", %s", vcc(c));
	}
	if (!dpp_ctrl(c, (w1 >> 8) & 0x1ff))
		return isa_fail(c, "reserved DPP control");
	isa_put(c, " row_mask:0x%x bank_mask:0x%x", w1 >> 28, (w1 >> 24) & 0xf);
	/* LLVM 15 prints the bit as it is set (older assemblers wrote :0) */
	if ((w1 >> 19) & 1)
		isa_put(c, " bound_ctrl:1");
	/* gfx10: fetch inactive lanes (bit 18; gfx9 leaves it unused) */
	if (((w1 >> 18) & 1) && isa_gen10(c))
		isa_put(c, " fi:1");
	return r;
}

/*
 * gfx10's DPP8: src0 = 233 (234: fetch inactive lanes too) and a second
 * dword with the source VGPR in 7:0 and eight 3-bit lane selects above.
 * No modifiers and no masks.
 */
static int dpp8(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int vsrc1 = (w0 >> 9) & 0xff, vdst = (w0 >> 17) & 0xff, i;
	int r = 0;

	if (dpp_head(c, op, vdst, "DPP8 dword past the end of the code", &r))
		return -1;
	r |= isa_put_vreg(c, w1 & 0xff, 1, 0);
	if (op->enc == ISA_VOP2) {
		isa_put(c, ", ");
		r |= isa_put_vreg(c, vsrc1, 1, 0);
		if (op->flags & F_VCC_IN)
			isa_put(c, ", %s", vcc(c));
	}
	isa_put(c, " dpp8:[");
	for (i = 0; i < 8; i++)
		isa_put(c, "%s%u", i ? "," : "", (w1 >> (8 + 3 * i)) & 7);
	isa_put(c, "]");
	if ((w0 & 0x1ff) == 234)
		isa_put(c, " fi:1");
	return r;
}

static int vop_e32(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0];
	unsigned int src0 = w0 & 0x1ff, vsrc1 = (w0 >> 9) & 0xff, vdst = (w0 >> 17) & 0xff;
	int r = 0;

	c->is16 = !!(op->flags & F_16);
	c->int16 = !!(op->flags & F_I16);
	if ((op->flags & F_SRC_REG) && src0 >= 128 && src0 < 256)
		return isa_fail(c, "a constant in a register-only operand");
	if ((src0 == 233 || src0 == 234) && isa_gen10(c))
		return dpp8(c, op);
	if (src0 == 249)
		return sdwa(c, op);
	if (src0 == 250)
		return dpp(c, op);
	put_name(c, op, (op->flags & F_E32_ONLY) ? "" : "_e32");
	if (op->flags & F_NO_DST)
		return 0;
	isa_put(c, " ");
	if (op->enc == ISA_VOPC) {
		if (!(op->flags & F_CMPX))
			isa_put(c, "%s, ", vcc(c));
		r |= isa_put_src(c, src0, op->src0);
		isa_put(c, ", ");
		return r | isa_put_vreg(c, vsrc1, op->src1, 0);
	}
	if (op->flags & F_SDST)
		r |= isa_put_sreg(c, vdst, op->dst);
	else
		r |= isa_put_vreg(c, vdst, op->dst, 0);
	if (op->flags & F_VCC_OUT)
		isa_put(c, ", %s", vcc(c));
	isa_put(c, ", ");
	r |= isa_put_src(c, src0, op->src0);
	if (op->enc == ISA_VOP1)
		return r;
	if (op->flags & (F_MADMK | F_MADAK)) {
		/* gfx10: a literal src0 is the same literal */
		if (src0 == 255 && !isa_gen10(c))
			return isa_fail(c, "two literal constants");
		if (c->nwords < 2)
			return isa_fail(c, "literal constant past the end of the code");
		c->literal = c->words[1];
		if (src0 != 255)
			c->length += 4;
	}
	if (op->flags & F_MADMK)
		isa_put(c, ", 0x%x", c->literal);
	isa_put(c, ", ");
	r |= isa_put_vreg(c, vsrc1, op->src1, 0);
	if (op->flags & F_MADAK)
		isa_put(c, ", 0x%x", c->literal);
	if (op->flags & F_VCC_IN)
		isa_put(c, ", %s", vcc(c));
	return r;
}

static void put_bits(struct isa_ctx *c, const char *name, unsigned int bits, unsigned int n)
{
	unsigned int i;

	isa_put(c, " %s:[", name);
	for (i = 0; i < n; i++)
		isa_put(c, "%s%u", i ? "," : "", (bits >> i) & 1);
	isa_put(c, "]");
}

static int vop3(struct isa_ctx *c, uint32_t opc)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	const struct isa_op *op;
	unsigned int vdst = w0 & 0xff, sdst = (w0 >> 8) & 0x7f;
	unsigned int abs = (w0 >> 8) & 7, opsel = (w0 >> 11) & 0xf, clamp = (w0 >> 15) & 1;
	unsigned int permsel = 0;
	unsigned int src[3] = { w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff };
	unsigned int omod = (w1 >> 27) & 3, neg = (w1 >> 29) & 7;
	unsigned int size[3], nsrc, i;
	int vop3b, sdst_out, r = 0;

	if (opc < VOP3_VOPC_END)
		op = isa_lookup(c, ISA_VOPC, opc);
	else if (isa_gen10(c))
		op = opc < VOP3_GEN10_ONLY_BASE ? isa_lookup(c, ISA_VOP2, opc - VOP3_VOP2_BASE) :
		     opc >= VOP3_GEN10_VOP1_BASE && opc < 0x200 ?
		     isa_lookup(c, ISA_VOP1, opc - VOP3_GEN10_VOP1_BASE) :
		     isa_lookup(c, ISA_VOP3, opc);
	else if (opc < VOP3_VOP1_BASE)
		op = isa_lookup(c, ISA_VOP2, opc - VOP3_VOP2_BASE);
	else if (opc < VOP3_ONLY_BASE)
		op = isa_lookup(c, ISA_VOP1, opc - VOP3_VOP1_BASE);
	else
		op = isa_lookup(c, ISA_VOP3, opc);
	if (!op)
		return isa_fail(c, "opcode not in the table");
	if (op->flags & (F_E32_ONLY | F_NO_E64))
		return isa_fail(c, "opcode without a VOP3 form");
	if (op->enc != ISA_VOP3)
		c->form = KFD_ISA_FORM_VOP3;
	put_name(c, op, op->enc == ISA_VOP3 ? "" : "_e64");
	if (op->flags & F_NO_DST)
		return isa_fail(c, "VOP3 form without a destination not covered");

	size[0] = op->src0;
	size[1] = op->src1;
	size[2] = op->src2;
	nsrc = op->enc == ISA_VOP1 ? 1 : op->enc == ISA_VOP3 && op->src2 ? 3 : 2;
	if (op->enc == ISA_VOP2 && (op->flags & F_VCC_IN)) {
		nsrc = 3;
		size[2] = lanemask(c);	/* the carry in or the lane mask */
	}
	if (op->enc == ISA_VOP3 && !op->src1)
		nsrc = 1;
	vop3b = (op->flags & F_VOP3B) || (op->enc == ISA_VOP2 && (op->flags & F_VCC_OUT));
	sdst_out = vop3b;
	if (vop3b)
		abs = 0, opsel = 0;
	/*
	 * op_sel belongs to the VOP3-only 16-bit opcodes; LLVM rejects it on
	 * the _e64 forms of 16-bit VOP1/VOP2/VOPC opcodes and ignores it on
	 * 32-bit ones.
	 */
	if (opsel && (op->flags & F_16) && op->enc != ISA_VOP3)
		return isa_fail(c, "op_sel on a 16-bit _e64 form");
	/* v_permlane*16: op_sel's two low bits are fi and bound_ctrl */
	if (op->flags & F_PERMLANE) {
		permsel = opsel & 3;
		opsel = 0;
		neg = 0, abs = 0;	/* LLVM prints neither */
	}
	if (!(op->flags & F_16))
		opsel = 0;
	/* the 16-bit integer VOP3 opcodes have no neg or abs: LLVM drops them */
	if (op->enc == ISA_VOP3 && (op->flags & F_I16))
		neg = 0, abs = 0;
	c->is16 = !!(op->flags & F_16);
	c->int16 = !!(op->flags & F_I16);

	isa_put(c, " ");
	if (op->flags & F_CMPX)
		;	/* no destination: the sources come first */
	else if (op->enc == ISA_VOPC || (op->flags & F_SDST))
		r |= isa_put_sreg(c, vdst, op->dst);
	else
		r |= isa_put_vreg(c, vdst, op->dst, 0);
	if (sdst_out) {
		isa_put(c, ", ");
		r |= isa_put_sreg(c, sdst, lanemask(c));
	}
	for (i = 0; i < nsrc; i++) {
		if (i || !(op->flags & F_CMPX))
			isa_put(c, ", ");
		if (i == 1 && (op->flags & F_SRC1_SGPR) && src[1] >= 256)
			return isa_fail(c, "lane select in a VGPR");
		r |= isa_put_src_mod(c, src[i], size[i], (neg >> i) & 1, (abs >> i) & 1);
	}
	/* gfx10 takes one literal in VOP3; gfx9 none */
	if (c->length > (isa_gen10(c) ? 12u : 8u))
		return isa_fail(c, "literal constant in VOP3");
	/* op_sel: one bit per source, then the destination's (bit 3) */
	if (opsel)
		put_bits(c, "op_sel", (opsel & ((1u << nsrc) - 1)) | ((opsel >> 3) << nsrc),
			 nsrc + 1);
	if (permsel)
		put_bits(c, "op_sel", permsel, 2);
	if (clamp)
		isa_put(c, " clamp");
	switch (omod) {
	case 1: isa_put(c, " mul:2"); break;
	case 2: isa_put(c, " mul:4"); break;
	case 3: isa_put(c, " div:2"); break;
	}
	return r;
}

static int vop3p(struct isa_ctx *c, uint32_t opc)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	const struct isa_op *op = isa_lookup(c, ISA_VOP3P, opc);
	unsigned int src[3] = { w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff };
	unsigned int size[3], nsrc, i, all;
	unsigned int neg_hi = (w0 >> 8) & 7, op_sel = (w0 >> 11) & 7;
	unsigned int op_sel_hi = ((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2;
	unsigned int neg_lo = (w1 >> 29) & 7;
	int r = 0;

	if (!op)
		return isa_fail(c, "opcode not in the table");
	put_name(c, op, "");
	size[0] = op->src0;
	size[1] = op->src1;
	size[2] = op->src2;
	nsrc = op->src2 ? 3 : 2;
	all = (1u << nsrc) - 1;
	isa_put(c, " ");
	r |= isa_put_vreg(c, w0 & 0xff, op->dst, 0);
	for (i = 0; i < nsrc; i++) {
		isa_put(c, ", ");
		/* mix: neg_lo is the source's neg, neg_hi its abs */
		if (op->flags & F_MIX)
			r |= isa_put_src_mod(c, src[i], size[i], (neg_lo >> i) & 1,
					     (neg_hi >> i) & 1);
		else
			r |= isa_put_src(c, src[i], size[i]);
	}
	/* gfx10 takes one literal in VOP3P; gfx9 none */
	if (c->length > (isa_gen10(c) ? 12u : 8u))
		return isa_fail(c, "literal constant in VOP3P");
	if (op_sel & all)
		put_bits(c, "op_sel", op_sel, nsrc);
	if (op->flags & F_MIX) {
		if (op_sel_hi & all)
			put_bits(c, "op_sel_hi", op_sel_hi, nsrc);
	} else {
		if ((op_sel_hi & all) != all)
			put_bits(c, "op_sel_hi", op_sel_hi, nsrc);
		if (neg_lo & all)
			put_bits(c, "neg_lo", neg_lo, nsrc);
		if (neg_hi & all)
			put_bits(c, "neg_hi", neg_hi, nsrc);
	}
	if ((w0 >> 15) & 1)
		isa_put(c, " clamp");
	return r;
}

int isa_vector(struct isa_ctx *c, const struct isa_format *fmt, uint32_t opc)
{
	const struct isa_op *op;

	switch (fmt->enc) {
	case ISA_VOP3:
		return vop3(c, opc);
	case ISA_VOP3P:
		return vop3p(c, opc);
	default:
		op = isa_lookup(c, fmt->enc, opc);
		if (!op)
			return isa_fail(c, "opcode not in the table");
		return vop_e32(c, op);
	}
}
