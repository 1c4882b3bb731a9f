// SPDX-License-Identifier: MIT
/* The scalar encodings: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM. */
#include "isa_priv.h"

static int waitcnt(struct isa_ctx *c, uint32_t imm)
{
	/* gfx9: vmcnt is split, its two high bits at 15:14; gfx10's
	 * lgkmcnt has 6 bits */
	unsigned int vm = (imm & 0xf) | ((imm >> 10) & 0x30);
	unsigned int exp = (imm >> 4) & 0x7;
	unsigned int lgkm_max = isa_gen10(c) ? 63 : 15;
	unsigned int lgkm = (imm >> 8) & lgkm_max;
	const char *sep = " ";
	int all = vm == 63 && exp == 7 && lgkm == lgkm_max;

	if (vm != 63 || all) {
		isa_put(c, "%svmcnt(%u)", sep, vm);
		sep = " ";
	}
	if (exp != 7 || all)
		isa_put(c, "%sexpcnt(%u)", sep, exp);
	if (lgkm != lgkm_max || all)
		isa_put(c, "%slgkmcnt(%u)", sep, lgkm);
	return 0;
}

/*
 * gfx10's SMEM: sbase 5:0, sdata 12:6, dlc 14, glc 16, the opcode 25:18;
 * the second dword a signed 21-bit offset and an offset SGPR in 31:25
 * (null: none).
 */
static int smem_gen10(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int sbase = (w0 & 0x3f) * 2, sdata = (w0 >> 6) & 0x7f;
	unsigned int soffset = w1 >> 25;
	int r = 0;

	if (w0 & 0x2a000)
		return isa_fail(c, "SMEM bits 13, 15, 17 not covered");
	if (soffset != 125)
		return isa_fail(c, "SMEM offset SGPR not covered");
	if (op->kind == K_NONE) {
		if ((w0 & 0x3fff) || w1 != 125u << 25)
			return isa_fail(c, "SMEM cache control with operands");
		return 0;
	}
	isa_put(c, " ");
	r |= isa_put_sreg(c, sdata, op->kind == K_LOAD ? op->dst : op->src0);
	if (op->src1) {
		isa_put(c, ", ");
		r |= isa_put_sreg(c, sbase, op->src1);
		/* LLVM 15 names the unused offset SGPR when the offset is 0 */
		if (w1 & 0x100000)
			isa_put(c, ", -0x%x", 0x200000 - (w1 & 0x1fffff));
		else if (w1 & 0x1fffff)
			isa_put(c, ", 0x%x", w1 & 0x1fffff);
		else
			isa_put(c, ", null");
	} else if (w1 & 0x1fffff) {
		return isa_fail(c, "SMEM offset without a base");
	}
	if ((w0 >> 16) & 1)
		isa_put(c, " glc");
	if ((w0 >> 14) & 1)
		isa_put(c, " dlc");
	return r;
}

static int smem(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0], w1 = c->words[1];
	unsigned int sbase = (w0 & 0x3f) * 2, sdata = (w0 >> 6) & 0x7f;
	int imm = (w0 >> 17) & 1, soe = (w0 >> 14) & 1, glc = (w0 >> 16) & 1;
	int r = 0;

	if (isa_gen10(c))
		return smem_gen10(c, op);
	if ((w0 >> 15) & 1)
		return isa_fail(c, "SMEM nv bit not covered");
	if (op->kind == K_NONE) {
		if (w0 & 0x3fff)
			return isa_fail(c, "SMEM cache control with operands");
		return 0;
	}
	isa_put(c, " ");
	if (op->kind == K_LOAD)
		r |= isa_put_sreg(c, sdata, op->dst);
	else
		r |= isa_put_sreg(c, sdata, op->src0);
	if (!op->src1)
		return r;	/* s_memtime: the destination only */
	isa_put(c, ", ");
	r |= isa_put_sreg(c, sbase, op->src1);
	isa_put(c, ", ");
	if (soe) {
		/* the SGPR offset in bits 63:57, plus the immediate if imm */
		r |= isa_put_sreg(c, (w1 >> 25) & 0x7f, 1);
		if (!imm && (w1 & 0x1fffff))
			return isa_fail(c, "SMEM offset bits without imm");
		if (imm && (w1 & 0x100000))
			isa_put(c, " offset:-0x%x", 0x200000 - (w1 & 0x1fffff));
		else if (imm)
			isa_put(c, " offset:0x%x", w1 & 0x1fffff);
	} else if (imm && (w1 & 0x100000)) {	/* a signed 21-bit offset */
		isa_put(c, "-0x%x", 0x200000 - (w1 & 0x1fffff));
	} else if (imm) {
		isa_put(c, "0x%x", w1 & 0x1fffff);
	} else {
		r |= isa_put_sreg(c, w1 & 0x7f, 1);
	}
	if (glc)
		isa_put(c, " glc");
	return r;
}

/*
 * The message of s_sendmsg: bits 3:0 the message, the rest its operation.
 * Only the gfx9 messages whose other bits are zero, and GS_DONE's NOP.
 */
static int sendmsg(struct isa_ctx *c, uint32_t imm)
{
	static const char *const msg[16] = {
		[1] = "MSG_INTERRUPT", [3] = "MSG_GS_DONE", [4] = "MSG_SAVEWAVE",
		[5] = "MSG_STALL_WAVE_GEN", [6] = "MSG_HALT_WAVES",
		[7] = "MSG_ORDERED_PS_DONE", [9] = "MSG_GS_ALLOC_REQ",
		[10] = "MSG_GET_DOORBELL",
	};
	unsigned int id = imm & 0xf;

	if (!msg[id] || (imm >> 4))
		return isa_fail(c, "sendmsg operand not covered");
	if (id == 3)
		isa_put(c, " sendmsg(%s, GS_OP_NOP)", msg[id]);
	else
		isa_put(c, " sendmsg(%s)", msg[id]);
	return 0;
}

/*
 * hwreg(id, offset, size) of s_getreg and s_setreg: the registers each
 * generation names. gfx10 adds the trap, flat-scratch and second hardware
 * id registers, and drops HW_ID (4).
 */
static int hwreg(struct isa_ctx *c, uint32_t imm)
{
	static const char *const reg9[16] = {
		[1] = "HW_REG_MODE", [2] = "HW_REG_STATUS", [3] = "HW_REG_TRAPSTS",
		[4] = "HW_REG_HW_ID", [5] = "HW_REG_GPR_ALLOC", [6] = "HW_REG_LDS_ALLOC",
		[7] = "HW_REG_IB_STS", [15] = "HW_REG_SH_MEM_BASES",
	};
	static const char *const reg10[32] = {
		[1] = "HW_REG_MODE", [2] = "HW_REG_STATUS", [3] = "HW_REG_TRAPSTS",
		[5] = "HW_REG_GPR_ALLOC", [6] = "HW_REG_LDS_ALLOC", [7] = "HW_REG_IB_STS",
		[15] = "HW_REG_SH_MEM_BASES", [16] = "HW_REG_TBA_LO", [17] = "HW_REG_TBA_HI",
		[18] = "HW_REG_TMA_LO", [19] = "HW_REG_TMA_HI", [20] = "HW_REG_FLAT_SCR_LO",
		[21] = "HW_REG_FLAT_SCR_HI", [23] = "HW_REG_HW_ID1", [24] = "HW_REG_HW_ID2",
		[25] = "HW_REG_POPS_PACKER", [29] = "HW_REG_SHADER_CYCLES",
	};
	unsigned int id = imm & 0x3f, off = (imm >> 6) & 0x1f, size = (imm >> 11) + 1;
	const char *name = NULL;

	if (isa_gen10(c))
		name = id < 32 ? reg10[id] : NULL;
	else
		name = id < 16 ? reg9[id] : NULL;
	if (!name)
		return isa_fail(c, "hwreg register not covered");
	if (!off && size == 32)
		isa_put(c, "hwreg(%s)", name);
	else
		isa_put(c, "hwreg(%s, %u, %u)", name, off, size);
	return 0;
}

int isa_scalar(struct isa_ctx *c, const struct isa_op *op)
{
	uint32_t w0 = c->words[0];
	unsigned int sdst = (w0 >> 16) & 0x7f;
	unsigned int s0 = w0 & 0xff, s1 = (w0 >> 8) & 0xff;
	int r = 0;

	c->insn->mnemonic = op->name;
	isa_put(c, "%s", op->name);
	switch (op->enc) {
	case ISA_SOP2:
		isa_put(c, " ");
		r |= isa_put_sreg(c, sdst, op->dst);
		isa_put(c, ", ");
		r |= isa_put_src(c, s0, op->src0);
		isa_put(c, ", ");
		r |= isa_put_src(c, s1, op->src1);
		return r;
	case ISA_SOP1:
		isa_put(c, " ");
		if (op->dst) {
			r |= isa_put_sreg(c, sdst, op->dst);
			if (op->src0)
				isa_put(c, ", ");
		}
		if (op->src0 && (op->flags & F_SRC_REG) && s0 >= 128)
			return isa_fail(c, "a constant in a register-only operand");
		if (op->src0)
			r |= isa_put_src(c, s0, op->src0);
		return r;
	case ISA_SOPC:
		isa_put(c, " ");
		r |= isa_put_src(c, s0, op->src0);
		isa_put(c, ", ");
		r |= isa_put_src(c, s1, op->src1);
		return r;
	case ISA_SOPK:
		isa_put(c, " ");
		if (op->kind == K_SOPK_SETREG) {
			/* the register first; the sdst field is the source */
			r |= hwreg(c, w0 & 0xffff);
			isa_put(c, ", ");
			return r | isa_put_sreg(c, sdst, 1);
		}
		r |= isa_put_sreg(c, sdst, 1);
		if (op->kind == K_SOPK_GETREG) {
			isa_put(c, ", ");
			return r | hwreg(c, w0 & 0xffff);
		}
		isa_put(c, ", 0x%x", w0 & 0xffff);
		return r;
	case ISA_SOPP:
		switch (op->kind) {
		case K_SOPP_NONE:
			if (w0 & 0xffff)
				return isa_fail(c, "operand bits in an instruction without operands");
			return 0;
		case K_SOPP_UIMM:
			/* the values of inline constants in decimal, others in hex */
			if ((int16_t)w0 >= -16 && (int16_t)w0 <= 64)
				isa_put(c, " %d", (int16_t)w0);
			else
				isa_put(c, " 0x%x", w0 & 0xffff);
			return 0;
		case K_SOPP_ENDPGM:
			if (w0 & 0xffff)
				isa_put(c, " %u", w0 & 0xffff);
			return 0;
		case K_SOPP_BRANCH:
			/* LLVM 15 prints the offset as unsigned 16 bits */
			isa_put(c, " %u", w0 & 0xffff);
			return 0;
		case K_SOPP_WAITCNT:
			return waitcnt(c, w0 & 0xffff);
		case K_SOPP_HEX:
			isa_put(c, " 0x%x", w0 & 0xffff);
			return 0;
		case K_SOPP_SENDMSG:
			return sendmsg(c, w0 & 0xffff);
		}
		return isa_fail(c, "SOPP operand kind not covered");
	case ISA_SMEM:
		return smem(c, op);
	}
	return isa_fail(c, "scalar encoding not covered");
}
