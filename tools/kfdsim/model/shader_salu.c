/* SPDX-License-Identifier: MIT */
/*
 * The scalar ALU (SOP2, SOP1, SOPK, SOPC) and program control (SOPP):
 * one instruction per wave, SCC as the ISA defines it for each opcode.
 */
#include "shader_priv.h"

static enum sh_step
sop_src(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, unsigned int f,
	unsigned int dwords, uint64_t *v)
{
	uint32_t x;

	if (dwords == 2)
		return sh_src64(w, i, f, 0, 0, v) ? sh_illegal(c, w, i, "operand") : SH_NEXT;
	if (sh_src32(w, i, f, 0, &x))
		return sh_illegal(c, w, i, "operand");
	*v = x;
	return SH_NEXT;
}

static void
set_dst(struct sh_wave *w, unsigned int d, unsigned int dwords, uint64_t v)
{
	if (dwords == 2)
		sh_set_sreg64(w, d, v);
	else
		w->s[d & 127] = (uint32_t)v;
}

static uint32_t
bfe32(uint32_t v, uint32_t ctl, int sign)
{
	uint32_t off = ctl & 31, width = (ctl >> 16) & 0x7f;

	if (!width)
		return 0;
	if (width >= 32)
		return v >> off;
	if (off + width < 32) {
		uint32_t r = (v >> off) & ((1u << width) - 1);

		if (sign && (r >> (width - 1)) & 1)
			r |= ~((1u << width) - 1);
		return r;
	}
	v >>= off;
	return sign ? (uint32_t)((int32_t)(v << (32 - width + off)) >> (32 - width + off)) : v;
}

static enum sh_step
sop2(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0];
	const struct kfd_isa_fields *f = &i->in->f;
	unsigned int d = (w0 >> 16) & 0x7f;
	uint64_t a, b, r = 0;
	uint32_t a32, b32;
	int scc = w->scc, set_scc = 1;
	enum sh_step s;

	if ((s = sop_src(c, w, i, w0 & 0xff, f->src_dwords[0], &a)) != SH_NEXT ||
	    (s = sop_src(c, w, i, (w0 >> 8) & 0xff, f->src_dwords[1], &b)) != SH_NEXT)
		return s;
	a32 = (uint32_t)a;
	b32 = (uint32_t)b;
	switch (i->id) {
	case SH_OP_S_ADD_U32:
		r = (uint64_t)a32 + b32;
		scc = r >> 32;
		break;
	case SH_OP_S_ADDC_U32:
		r = (uint64_t)a32 + b32 + (unsigned int)w->scc;
		scc = r >> 32;
		break;
	case SH_OP_S_SUB_U32:
		r = (uint32_t)(a32 - b32);
		scc = b32 > a32;
		break;
	case SH_OP_S_SUBB_U32:
		r = (uint32_t)(a32 - b32 - (unsigned int)w->scc);
		scc = (uint64_t)b32 + (unsigned int)w->scc > a32;
		break;
	case SH_OP_S_ADD_I32: {
		int64_t x = (int64_t)(int32_t)a32 + (int32_t)b32;

		r = (uint32_t)x;
		scc = x != (int32_t)x;
		break;
	}
	case SH_OP_S_SUB_I32: {
		int64_t x = (int64_t)(int32_t)a32 - (int32_t)b32;

		r = (uint32_t)x;
		scc = x != (int32_t)x;
		break;
	}
	case SH_OP_S_MIN_I32:
		scc = (int32_t)a32 < (int32_t)b32;
		r = scc ? a32 : b32;
		break;
	case SH_OP_S_MIN_U32:
		scc = a32 < b32;
		r = scc ? a32 : b32;
		break;
	case SH_OP_S_MAX_I32:
		scc = (int32_t)a32 > (int32_t)b32;
		r = scc ? a32 : b32;
		break;
	case SH_OP_S_MAX_U32:
		scc = a32 > b32;
		r = scc ? a32 : b32;
		break;
	case SH_OP_S_CSELECT_B32: case SH_OP_S_CSELECT_B64:
		r = w->scc ? a : b;
		set_scc = 0;
		break;
	case SH_OP_S_AND_B32: case SH_OP_S_AND_B64: r = a & b; break;
	case SH_OP_S_OR_B32: case SH_OP_S_OR_B64: r = a | b; break;
	case SH_OP_S_XOR_B32: case SH_OP_S_XOR_B64: r = a ^ b; break;
	case SH_OP_S_ANDN2_B32: case SH_OP_S_ANDN2_B64: r = a & ~b; break;
	case SH_OP_S_ORN2_B32: case SH_OP_S_ORN2_B64: r = a | ~b; break;
	case SH_OP_S_NAND_B64: r = ~(a & b); break;
	case SH_OP_S_NOR_B64: r = ~(a | b); break;
	case SH_OP_S_XNOR_B64: r = ~(a ^ b); break;
	case SH_OP_S_LSHL_B32: r = (uint32_t)(a32 << (b32 & 31)); break;
	case SH_OP_S_LSHL_B64: r = a << (b32 & 63); break;
	case SH_OP_S_LSHR_B32: r = a32 >> (b32 & 31); break;
	case SH_OP_S_LSHR_B64: r = a >> (b32 & 63); break;
	case SH_OP_S_ASHR_I32: r = (uint32_t)((int32_t)a32 >> (b32 & 31)); break;
	case SH_OP_S_ASHR_I64: r = (uint64_t)((int64_t)a >> (b32 & 63)); break;
	case SH_OP_S_BFE_U32: r = bfe32(a32, b32, 0); break;
	case SH_OP_S_BFE_I32: r = bfe32(a32, b32, 1); break;
	case SH_OP_S_BFE_U64: {
		uint32_t off = b32 & 63, width = (b32 >> 16) & 0x7f;

		r = width >= 64 ? a >> off : (a >> off) & ((1ull << width) - 1);
		break;
	}
	case SH_OP_S_BFM_B32:
		r = (uint32_t)(((1ull << (a32 & 31)) - 1) << (b32 & 31));
		set_scc = 0;
		break;
	case SH_OP_S_MUL_I32:
		r = (uint32_t)((int32_t)a32 * (int64_t)(int32_t)b32);
		set_scc = 0;
		break;
	case SH_OP_S_MUL_HI_U32:
		r = ((uint64_t)a32 * b32) >> 32;
		set_scc = 0;
		break;
	case SH_OP_S_LSHL1_ADD_U32: case SH_OP_S_LSHL2_ADD_U32:
	case SH_OP_S_LSHL3_ADD_U32: case SH_OP_S_LSHL4_ADD_U32: {
		unsigned int n = 1 + (i->id - SH_OP_S_LSHL1_ADD_U32);
		uint64_t x = ((uint64_t)a32 << n) + b32;

		r = (uint32_t)x;
		scc = x >> 32 != 0;
		break;
	}
	case SH_OP_S_ABSDIFF_I32: {
		int64_t x = (int64_t)(int32_t)a32 - (int32_t)b32;

		r = (uint32_t)(x < 0 ? -x : x);
		break;
	}
	case SH_OP_S_PACK_LL_B32_B16:
		r = (a32 & 0xffff) | b32 << 16;
		set_scc = 0;
		break;
	default:
		return sh_illegal(c, w, i, NULL);
	}
	if (f->dst_dwords == 1)
		r = (uint32_t)r;
	set_dst(w, d, f->dst_dwords, r);
	if (set_scc)
		switch (i->id) {
		case SH_OP_S_ADD_U32: case SH_OP_S_ADDC_U32: case SH_OP_S_SUB_U32:
		case SH_OP_S_SUBB_U32: case SH_OP_S_ADD_I32: case SH_OP_S_SUB_I32:
		case SH_OP_S_MIN_I32: case SH_OP_S_MIN_U32: case SH_OP_S_MAX_I32:
		case SH_OP_S_MAX_U32: case SH_OP_S_LSHL1_ADD_U32: case SH_OP_S_LSHL2_ADD_U32:
		case SH_OP_S_LSHL3_ADD_U32: case SH_OP_S_LSHL4_ADD_U32:
			w->scc = scc;
			break;
		default:
			w->scc = r != 0;
		}
	return SH_NEXT;
}

static enum sh_step
sop1(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0];
	const struct kfd_isa_fields *f = &i->in->f;
	unsigned int d = (w0 >> 16) & 0x7f;
	uint64_t a = 0, r, exec = sh_exec(w);
	enum sh_step s;

	if (f->src_dwords[0] &&
	    (s = sop_src(c, w, i, w0 & 0xff, f->src_dwords[0], &a)) != SH_NEXT)
		return s;
	switch (i->id) {
	case SH_OP_S_MOV_B32: case SH_OP_S_MOV_B64:
		set_dst(w, d, f->dst_dwords, a);
		return SH_NEXT;
	case SH_OP_S_CMOV_B32: case SH_OP_S_CMOV_B64:
		if (w->scc)
			set_dst(w, d, f->dst_dwords, a);
		return SH_NEXT;
	case SH_OP_S_NOT_B32: case SH_OP_S_NOT_B64:
		r = f->dst_dwords == 2 ? ~a : (uint32_t)~a;
		w->scc = r != 0;
		set_dst(w, d, f->dst_dwords, r);
		return SH_NEXT;
	case SH_OP_S_BREV_B32: {
		uint32_t x = (uint32_t)a, y = 0;

		for (int k = 0; k < 32; k++)
			y |= ((x >> k) & 1) << (31 - k);
		w->s[d] = y;
		return SH_NEXT;
	}
	case SH_OP_S_BCNT1_I32_B32: case SH_OP_S_BCNT1_I32_B64:
		w->s[d] = (uint32_t)__builtin_popcountll(f->src_dwords[0] == 2 ? a : (uint32_t)a);
		w->scc = w->s[d] != 0;
		return SH_NEXT;
	case SH_OP_S_FF1_I32_B32: case SH_OP_S_FF1_I32_B64:
		a = f->src_dwords[0] == 2 ? a : (uint32_t)a;
		w->s[d] = a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffu;
		return SH_NEXT;
	case SH_OP_S_FLBIT_I32_B32:
		w->s[d] = (uint32_t)a ? (uint32_t)__builtin_clz((uint32_t)a) : 0xffffffffu;
		return SH_NEXT;
	case SH_OP_S_SEXT_I32_I8:
		w->s[d] = (uint32_t)(int32_t)(int8_t)a;
		return SH_NEXT;
	case SH_OP_S_SEXT_I32_I16:
		w->s[d] = (uint32_t)(int32_t)(int16_t)a;
		return SH_NEXT;
	case SH_OP_S_ABS_I32: {
		int32_t x = (int32_t)(uint32_t)a;

		w->s[d] = x < 0 ? (uint32_t)-(int64_t)x : (uint32_t)x;
		w->scc = w->s[d] != 0;
		return SH_NEXT;
	}
	case SH_OP_S_GETPC_B64:
		sh_set_sreg64(w, d, w->pc + 4);
		return SH_NEXT;
	case SH_OP_S_SETPC_B64:
		w->pc = a;
		return SH_JUMPED;
	case SH_OP_S_SWAPPC_B64:
		sh_set_sreg64(w, d, w->pc + 4);
		w->pc = a;
		return SH_JUMPED;
	case SH_OP_S_AND_SAVEEXEC_B64: r = a & exec; break;
	case SH_OP_S_OR_SAVEEXEC_B64: r = a | exec; break;
	case SH_OP_S_XOR_SAVEEXEC_B64: r = a ^ exec; break;
	case SH_OP_S_ANDN2_SAVEEXEC_B64: r = a & ~exec; break;
	case SH_OP_S_ORN2_SAVEEXEC_B64: r = a | ~exec; break;
	default:
		return sh_illegal(c, w, i, NULL);
	}
	/* the saveexec forms: the old exec to sdst, then the new exec */
	sh_set_sreg64(w, d, exec);
	sh_set_exec(w, r);
	w->scc = r != 0;
	return SH_NEXT;
}

static int
compare(unsigned int id, uint64_t a, uint64_t b, int *scc)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	uint32_t ua = (uint32_t)a, ub = (uint32_t)b;

	switch (id) {
	case SH_OP_S_CMP_EQ_I32: case SH_OP_S_CMP_EQ_U32: *scc = ua == ub; return 0;
	case SH_OP_S_CMP_LG_I32: case SH_OP_S_CMP_LG_U32: *scc = ua != ub; return 0;
	case SH_OP_S_CMP_GT_I32: *scc = sa > sb; return 0;
	case SH_OP_S_CMP_GE_I32: *scc = sa >= sb; return 0;
	case SH_OP_S_CMP_LT_I32: *scc = sa < sb; return 0;
	case SH_OP_S_CMP_LE_I32: *scc = sa <= sb; return 0;
	case SH_OP_S_CMP_GT_U32: *scc = ua > ub; return 0;
	case SH_OP_S_CMP_GE_U32: *scc = ua >= ub; return 0;
	case SH_OP_S_CMP_LT_U32: *scc = ua < ub; return 0;
	case SH_OP_S_CMP_LE_U32: *scc = ua <= ub; return 0;
	case SH_OP_S_CMP_EQ_U64: *scc = a == b; return 0;
	case SH_OP_S_CMP_LG_U64: *scc = a != b; return 0;
	case SH_OP_S_BITCMP0_B32: *scc = !((ua >> (ub & 31)) & 1); return 0;
	case SH_OP_S_BITCMP1_B32: *scc = (ua >> (ub & 31)) & 1; return 0;
	}
	return -1;
}

static enum sh_step
sopc(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0];
	const struct kfd_isa_fields *f = &i->in->f;
	uint64_t a, b;
	enum sh_step s;

	if ((s = sop_src(c, w, i, w0 & 0xff, f->src_dwords[0], &a)) != SH_NEXT ||
	    (s = sop_src(c, w, i, (w0 >> 8) & 0xff, f->src_dwords[1], &b)) != SH_NEXT)
		return s;
	if (compare(i->id, a, b, &w->scc))
		return sh_illegal(c, w, i, NULL);
	return SH_NEXT;
}

static enum sh_step
sopk(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0];
	unsigned int d = (w0 >> 16) & 0x7f;
	uint32_t k = w0 & 0xffff, sk = (uint32_t)(int32_t)(int16_t)k;
	uint32_t x = w->s[d];

	switch (i->id) {
	case SH_OP_S_MOVK_I32:
		w->s[d] = sk;
		return SH_NEXT;
	case SH_OP_S_ADDK_I32: {
		int64_t r = (int64_t)(int32_t)x + (int32_t)sk;

		w->s[d] = (uint32_t)r;
		w->scc = r != (int32_t)r;
		return SH_NEXT;
	}
	case SH_OP_S_MULK_I32:
		w->s[d] = (uint32_t)((int64_t)(int32_t)x * (int32_t)sk);
		return SH_NEXT;
	case SH_OP_S_CMPK_EQ_I32: w->scc = x == sk; return SH_NEXT;
	case SH_OP_S_CMPK_LG_I32: w->scc = x != sk; return SH_NEXT;
	case SH_OP_S_CMPK_GT_I32: w->scc = (int32_t)x > (int32_t)sk; return SH_NEXT;
	case SH_OP_S_CMPK_GE_I32: w->scc = (int32_t)x >= (int32_t)sk; return SH_NEXT;
	case SH_OP_S_CMPK_LT_I32: w->scc = (int32_t)x < (int32_t)sk; return SH_NEXT;
	case SH_OP_S_CMPK_LE_I32: w->scc = (int32_t)x <= (int32_t)sk; return SH_NEXT;
	case SH_OP_S_CMPK_EQ_U32: w->scc = x == k; return SH_NEXT;
	case SH_OP_S_CMPK_LG_U32: w->scc = x != k; return SH_NEXT;
	case SH_OP_S_CMPK_GT_U32: w->scc = x > k; return SH_NEXT;
	case SH_OP_S_CMPK_GE_U32: w->scc = x >= k; return SH_NEXT;
	case SH_OP_S_CMPK_LT_U32: w->scc = x < k; return SH_NEXT;
	case SH_OP_S_CMPK_LE_U32: w->scc = x <= k; return SH_NEXT;
	}
	return sh_illegal(c, w, i, NULL);
}

static enum sh_step
sopp(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	int16_t simm = (int16_t)(i->in->f.words[0] & 0xffff);
	int take;

	switch (i->id) {
	case SH_OP_S_NOP: case SH_OP_S_WAITCNT: case SH_OP_S_SETPRIO:
		/* memory completes in order, before the next instruction */
		return SH_NEXT;
	case SH_OP_S_SLEEP:
		return sh_sleep(c, w, i);
	case SH_OP_S_ENDPGM: case SH_OP_S_SETHALT:
		if (i->id == SH_OP_S_ENDPGM && sh_trap_wave_end(c, w))
			return SH_JUMPED;
		w->state = SH_END;
		return SH_STOP;
	case SH_OP_S_BARRIER:
		w->state = SH_BARRIER;
		w->pc += 4;
		return SH_STOP;
	case SH_OP_S_BRANCH: take = 1; break;
	case SH_OP_S_CBRANCH_SCC0: take = !w->scc; break;
	case SH_OP_S_CBRANCH_SCC1: take = w->scc; break;
	case SH_OP_S_CBRANCH_VCCZ: take = sh_mask(w, SH_VCC) == 0; break;
	case SH_OP_S_CBRANCH_VCCNZ: take = sh_mask(w, SH_VCC) != 0; break;
	case SH_OP_S_CBRANCH_EXECZ: take = sh_exec(w) == 0; break;
	case SH_OP_S_CBRANCH_EXECNZ: take = sh_exec(w) != 0; break;
	default:
		return sh_illegal(c, w, i, NULL);
	}
	if (!take)
		return SH_NEXT;
	w->pc = w->pc + 4 + (int64_t)simm * 4;
	return SH_JUMPED;
}

enum sh_step
sh_salu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	if (sh_sys_op(i->id))
		return sh_sys(c, w, i);
	if (sh_trap_op(i->id))
		return sh_trap_step(c, w, i);
	switch (i->in->f.enc) {
	case KFD_ISA_SOP2: return sop2(c, w, i);
	case KFD_ISA_SOP1: return sop1(c, w, i);
	case KFD_ISA_SOPC: return sopc(c, w, i);
	case KFD_ISA_SOPK: return sopk(c, w, i);
	case KFD_ISA_SOPP: return sopp(c, w, i);
	default: return sh_illegal(c, w, i, NULL);
	}
}
