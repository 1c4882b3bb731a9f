// SPDX-License-Identifier: MIT
/*
 * gfx1030 (RDNA2) encodings: the facts of AMD's "RDNA 2" Instruction Set
 * Architecture reference guide (chapter 13, microcode formats),
 * cross-checked against LLVM's disassembler by tests/isa. The code is
 * wave32: lane masks (vcc_lo, exec_lo, compare results) are one SGPR.
 * The table covers the scalar, vector, LDS, global, buffer and image
 * instructions that compilers and ROCr's blit kernels emit for compute.
 */
#include "isa_table.h"

/*
 * Order matters: the narrower matches first. gfx10 moved SMEM (0xf4),
 * VOP3 (0xd4) and VOP3P (0xcc), and DS's opcode one bit up.
 */
static const struct isa_format gfx1030_formats[] = {
	{ ISA_SOP1,  "SOP1",  0xff800000, 0xbe800000, 1, 8, 0xff },
	{ ISA_SOPC,  "SOPC",  0xff800000, 0xbf000000, 1, 16, 0x7f },
	{ ISA_SOPP,  "SOPP",  0xff800000, 0xbf800000, 1, 16, 0x7f },
	{ ISA_SOPK,  "SOPK",  0xf0000000, 0xb0000000, 1, 23, 0x1f },
	{ ISA_SOP2,  "SOP2",  0xc0000000, 0x80000000, 1, 23, 0x7f },
	{ ISA_SMEM,  "SMEM",  0xfc000000, 0xf4000000, 2, 18, 0xff },
	{ ISA_VOP1,  "VOP1",  0xfe000000, 0x7e000000, 1, 9, 0xff },
	{ ISA_VOPC,  "VOPC",  0xfe000000, 0x7c000000, 1, 17, 0xff },
	{ ISA_VOP2,  "VOP2",  0x80000000, 0x00000000, 1, 25, 0x3f },
	{ ISA_VOP3P, "VOP3P", 0xff800000, 0xcc000000, 2, 16, 0x7f },
	{ ISA_VOP3,  "VOP3",  0xfc000000, 0xd4000000, 2, 16, 0x3ff },
	{ ISA_DS,    "DS",    0xfc000000, 0xd8000000, 2, 18, 0xff },
	{ ISA_FLAT,  "FLAT",  0xfc000000, 0xdc000000, 2, 18, 0x7f },
	{ ISA_MUBUF, "MUBUF", 0xfc000000, 0xe0000000, 2, 18, 0x7f },
	{ ISA_MTBUF, "MTBUF", 0xfc000000, 0xe8000000, 2, 16, 0x7 },
	{ ISA_MIMG,  "MIMG",  0xfc000000, 0xf0000000, 2, 18, 0x7f },
	{ ISA_EXP,   "EXP",   0xfc000000, 0xf8000000, 2, 0, 0x0 },
};

#define SOP2(o, n, d, a, b)	{ ISA_SOP2, o, n, K_STD, d, a, b, 0, 0 }
#define SOP1(o, n, d, a)	{ ISA_SOP1, o, n, K_STD, d, a, 0, 0, 0 }
#define SOP1F(o, n, d, a, f)	{ ISA_SOP1, o, n, K_STD, d, a, 0, 0, f }
#define SOPC(o, n, a, b)	{ ISA_SOPC, o, n, K_STD, 0, a, b, 0, 0 }
#define SOPK(o, n, k)		{ ISA_SOPK, o, n, k, 1, 0, 0, 0, 0 }
#define SOPP(o, n, k)		{ ISA_SOPP, o, n, k, 0, 0, 0, 0, 0 }
#define SMEM(o, n, k, d, a, b)	{ ISA_SMEM, o, n, k, d, a, b, 0, 0 }
#define VOP2(o, n, d, a, b, f)	{ ISA_VOP2, o, n, K_STD, d, a, b, 0, f }
#define VOP1(o, n, d, a, f)	{ ISA_VOP1, o, n, K_STD, d, a, 0, 0, f }
/* wave32: a compare writes one SGPR; v_cmpx writes exec only */
#define VOPC(o, n, a, f)	{ ISA_VOPC, o, n, K_STD, 1, a, a, 0, f }
#define VOPCC(o, n, a, f)	{ ISA_VOPC, o, n, K_STD, 1, a, 1, 0, f }
#define VOPCX(o, n, a, f)	{ ISA_VOPC, o, n, K_STD, 0, a, a, 0, (f) | F_CMPX }
#define VOPCCX(o, n, a, f)	{ ISA_VOPC, o, n, K_STD, 0, a, 1, 0, (f) | F_CMPX }
#define VOP3(o, n, d, a, b, c, f) { ISA_VOP3, o, n, K_STD, d, a, b, c, f }
#define DS(o, n, k, d, a, b, f)	{ ISA_DS, o, n, k, d, a, b, 0, f }
#define FLAT(o, n, k, d, a, f)	{ ISA_FLAT, o, n, k, d, a, 0, 0, f }
#define MUBUF(o, n, k, d, a)	{ ISA_MUBUF, o, n, k, d, a, 0, 0, 0 }
#define MIMG(o, n, k)		{ ISA_MIMG, o, n, k, 0, 0, 0, 0, 0 }

/* The sixteen float compares, then their cmpx forms. */
#define VOPC_F(base, t, s, f) \
	VOPC(base + 0, "v_cmp_f_" t, s, f), VOPC(base + 1, "v_cmp_lt_" t, s, f), \
	VOPC(base + 2, "v_cmp_eq_" t, s, f), VOPC(base + 3, "v_cmp_le_" t, s, f), \
	VOPC(base + 4, "v_cmp_gt_" t, s, f), VOPC(base + 5, "v_cmp_lg_" t, s, f), \
	VOPC(base + 6, "v_cmp_ge_" t, s, f), VOPC(base + 7, "v_cmp_o_" t, s, f), \
	VOPC(base + 8, "v_cmp_u_" t, s, f), VOPC(base + 9, "v_cmp_nge_" t, s, f), \
	VOPC(base + 10, "v_cmp_nlg_" t, s, f), VOPC(base + 11, "v_cmp_ngt_" t, s, f), \
	VOPC(base + 12, "v_cmp_nle_" t, s, f), VOPC(base + 13, "v_cmp_neq_" t, s, f), \
	VOPC(base + 14, "v_cmp_nlt_" t, s, f), VOPC(base + 15, "v_cmp_tru_" t, s, f), \
	VOPCX(base + 16, "v_cmpx_f_" t, s, f), VOPCX(base + 17, "v_cmpx_lt_" t, s, f), \
	VOPCX(base + 18, "v_cmpx_eq_" t, s, f), VOPCX(base + 19, "v_cmpx_le_" t, s, f), \
	VOPCX(base + 20, "v_cmpx_gt_" t, s, f), VOPCX(base + 21, "v_cmpx_lg_" t, s, f), \
	VOPCX(base + 22, "v_cmpx_ge_" t, s, f), VOPCX(base + 23, "v_cmpx_o_" t, s, f), \
	VOPCX(base + 24, "v_cmpx_u_" t, s, f), VOPCX(base + 25, "v_cmpx_nge_" t, s, f), \
	VOPCX(base + 26, "v_cmpx_nlg_" t, s, f), VOPCX(base + 27, "v_cmpx_ngt_" t, s, f), \
	VOPCX(base + 28, "v_cmpx_nle_" t, s, f), VOPCX(base + 29, "v_cmpx_neq_" t, s, f), \
	VOPCX(base + 30, "v_cmpx_nlt_" t, s, f), VOPCX(base + 31, "v_cmpx_tru_" t, s, f)
#define VOPC_I(base, t, s, f) \
	VOPC(base + 0, "v_cmp_f_" t, s, f), VOPC(base + 1, "v_cmp_lt_" t, s, f), \
	VOPC(base + 2, "v_cmp_eq_" t, s, f), VOPC(base + 3, "v_cmp_le_" t, s, f), \
	VOPC(base + 4, "v_cmp_gt_" t, s, f), VOPC(base + 5, "v_cmp_ne_" t, s, f), \
	VOPC(base + 6, "v_cmp_ge_" t, s, f), VOPC(base + 7, "v_cmp_t_" t, s, f)
#define VOPCX_I(base, t, s, f) \
	VOPCX(base + 0, "v_cmpx_f_" t, s, f), VOPCX(base + 1, "v_cmpx_lt_" t, s, f), \
	VOPCX(base + 2, "v_cmpx_eq_" t, s, f), VOPCX(base + 3, "v_cmpx_le_" t, s, f), \
	VOPCX(base + 4, "v_cmpx_gt_" t, s, f), VOPCX(base + 5, "v_cmpx_ne_" t, s, f), \
	VOPCX(base + 6, "v_cmpx_ge_" t, s, f), VOPCX(base + 7, "v_cmpx_t_" t, s, f)

static const struct isa_op gfx1030_ops[] = {
	/* SOP2 */
	SOP2(0, "s_add_u32", 1, 1, 1),		SOP2(1, "s_sub_u32", 1, 1, 1),
	SOP2(2, "s_add_i32", 1, 1, 1),		SOP2(3, "s_sub_i32", 1, 1, 1),
	SOP2(4, "s_addc_u32", 1, 1, 1),		SOP2(5, "s_subb_u32", 1, 1, 1),
	SOP2(6, "s_min_i32", 1, 1, 1),		SOP2(7, "s_min_u32", 1, 1, 1),
	SOP2(8, "s_max_i32", 1, 1, 1),		SOP2(9, "s_max_u32", 1, 1, 1),
	SOP2(10, "s_cselect_b32", 1, 1, 1),	SOP2(11, "s_cselect_b64", 2, 2, 2),
	SOP2(14, "s_and_b32", 1, 1, 1),		SOP2(15, "s_and_b64", 2, 2, 2),
	SOP2(16, "s_or_b32", 1, 1, 1),		SOP2(17, "s_or_b64", 2, 2, 2),
	SOP2(18, "s_xor_b32", 1, 1, 1),		SOP2(19, "s_xor_b64", 2, 2, 2),
	SOP2(20, "s_andn2_b32", 1, 1, 1),	SOP2(21, "s_andn2_b64", 2, 2, 2),
	SOP2(22, "s_orn2_b32", 1, 1, 1),	SOP2(23, "s_orn2_b64", 2, 2, 2),
	SOP2(24, "s_nand_b32", 1, 1, 1),	SOP2(25, "s_nand_b64", 2, 2, 2),
	SOP2(26, "s_nor_b32", 1, 1, 1),		SOP2(27, "s_nor_b64", 2, 2, 2),
	SOP2(28, "s_xnor_b32", 1, 1, 1),	SOP2(29, "s_xnor_b64", 2, 2, 2),
	SOP2(30, "s_lshl_b32", 1, 1, 1),	SOP2(31, "s_lshl_b64", 2, 2, 1),
	SOP2(32, "s_lshr_b32", 1, 1, 1),	SOP2(33, "s_lshr_b64", 2, 2, 1),
	SOP2(34, "s_ashr_i32", 1, 1, 1),	SOP2(35, "s_ashr_i64", 2, 2, 1),
	SOP2(36, "s_bfm_b32", 1, 1, 1),		SOP2(37, "s_bfm_b64", 2, 1, 1),
	SOP2(38, "s_mul_i32", 1, 1, 1),		SOP2(39, "s_bfe_u32", 1, 1, 1),
	SOP2(40, "s_bfe_i32", 1, 1, 1),		SOP2(41, "s_bfe_u64", 2, 2, 1),
	SOP2(42, "s_bfe_i64", 2, 2, 1),		SOP2(44, "s_absdiff_i32", 1, 1, 1),
	SOP2(46, "s_lshl1_add_u32", 1, 1, 1),	SOP2(47, "s_lshl2_add_u32", 1, 1, 1),
	SOP2(48, "s_lshl3_add_u32", 1, 1, 1),	SOP2(49, "s_lshl4_add_u32", 1, 1, 1),
	SOP2(50, "s_pack_ll_b32_b16", 1, 1, 1),	SOP2(51, "s_pack_lh_b32_b16", 1, 1, 1),
	SOP2(52, "s_pack_hh_b32_b16", 1, 1, 1),	SOP2(53, "s_mul_hi_u32", 1, 1, 1),
	SOP2(54, "s_mul_hi_i32", 1, 1, 1),

	/* SOPK */
	SOPK(0, "s_movk_i32", K_SOPK_DST),	SOPK(2, "s_cmovk_i32", K_SOPK_DST),
	SOPK(3, "s_cmpk_eq_i32", K_SOPK_SRC),	SOPK(4, "s_cmpk_lg_i32", K_SOPK_SRC),
	SOPK(5, "s_cmpk_gt_i32", K_SOPK_SRC),	SOPK(6, "s_cmpk_ge_i32", K_SOPK_SRC),
	SOPK(7, "s_cmpk_lt_i32", K_SOPK_SRC),	SOPK(8, "s_cmpk_le_i32", K_SOPK_SRC),
	SOPK(9, "s_cmpk_eq_u32", K_SOPK_SRC),	SOPK(10, "s_cmpk_lg_u32", K_SOPK_SRC),
	SOPK(11, "s_cmpk_gt_u32", K_SOPK_SRC),	SOPK(12, "s_cmpk_ge_u32", K_SOPK_SRC),
	SOPK(13, "s_cmpk_lt_u32", K_SOPK_SRC),	SOPK(14, "s_cmpk_le_u32", K_SOPK_SRC),
	SOPK(15, "s_addk_i32", K_SOPK_DST),	SOPK(16, "s_mulk_i32", K_SOPK_DST),
	/* the counter's SGPR operand, null for none */
	SOPK(23, "s_waitcnt_vscnt", K_SOPK_SRC), SOPK(24, "s_waitcnt_vmcnt", K_SOPK_SRC),
	SOPK(25, "s_waitcnt_expcnt", K_SOPK_SRC), SOPK(26, "s_waitcnt_lgkmcnt", K_SOPK_SRC),

	/* SOP1 */
	SOP1(3, "s_mov_b32", 1, 1),		SOP1(4, "s_mov_b64", 2, 2),
	SOP1(5, "s_cmov_b32", 1, 1),		SOP1(6, "s_cmov_b64", 2, 2),
	SOP1(7, "s_not_b32", 1, 1),		SOP1(8, "s_not_b64", 2, 2),
	SOP1(9, "s_wqm_b32", 1, 1),		SOP1(10, "s_wqm_b64", 2, 2),
	SOP1(11, "s_brev_b32", 1, 1),		SOP1(12, "s_brev_b64", 2, 2),
	SOP1(13, "s_bcnt0_i32_b32", 1, 1),	SOP1(14, "s_bcnt0_i32_b64", 1, 2),
	SOP1(15, "s_bcnt1_i32_b32", 1, 1),	SOP1(16, "s_bcnt1_i32_b64", 1, 2),
	SOP1(17, "s_ff0_i32_b32", 1, 1),	SOP1(18, "s_ff0_i32_b64", 1, 2),
	SOP1(19, "s_ff1_i32_b32", 1, 1),	SOP1(20, "s_ff1_i32_b64", 1, 2),
	SOP1(21, "s_flbit_i32_b32", 1, 1),	SOP1(22, "s_flbit_i32_b64", 1, 2),
	SOP1(23, "s_flbit_i32", 1, 1),		SOP1(24, "s_flbit_i32_i64", 1, 2),
	SOP1(25, "s_sext_i32_i8", 1, 1),	SOP1(26, "s_sext_i32_i16", 1, 1),
	SOP1(27, "s_bitset0_b32", 1, 1),	SOP1(28, "s_bitset0_b64", 2, 1),
	SOP1(29, "s_bitset1_b32", 1, 1),	SOP1(30, "s_bitset1_b64", 2, 1),
	SOP1(31, "s_getpc_b64", 2, 0),		SOP1F(32, "s_setpc_b64", 0, 2, F_NO_DST | F_SRC_REG),
	SOP1F(33, "s_swappc_b64", 2, 2, F_SRC_REG),
	SOP1(36, "s_and_saveexec_b64", 2, 2),	SOP1(37, "s_or_saveexec_b64", 2, 2),
	SOP1(38, "s_xor_saveexec_b64", 2, 2),	SOP1(39, "s_andn2_saveexec_b64", 2, 2),
	SOP1(40, "s_orn2_saveexec_b64", 2, 2),	SOP1(41, "s_nand_saveexec_b64", 2, 2),
	SOP1(42, "s_nor_saveexec_b64", 2, 2),	SOP1(43, "s_xnor_saveexec_b64", 2, 2),
	SOP1(44, "s_quadmask_b32", 1, 1),	SOP1(45, "s_quadmask_b64", 2, 2),
	SOP1(52, "s_abs_i32", 1, 1),
	SOP1(60, "s_and_saveexec_b32", 1, 1),	SOP1(61, "s_or_saveexec_b32", 1, 1),
	SOP1(62, "s_xor_saveexec_b32", 1, 1),	SOP1(63, "s_andn2_saveexec_b32", 1, 1),
	SOP1(64, "s_orn2_saveexec_b32", 1, 1),	SOP1(65, "s_nand_saveexec_b32", 1, 1),
	SOP1(66, "s_nor_saveexec_b32", 1, 1),	SOP1(67, "s_xnor_saveexec_b32", 1, 1),
	SOP1(68, "s_andn1_saveexec_b32", 1, 1),	SOP1(69, "s_orn1_saveexec_b32", 1, 1),
	SOP1(70, "s_andn1_wrexec_b32", 1, 1),	SOP1(71, "s_andn2_wrexec_b32", 1, 1),

	/* SOPC */
	SOPC(0, "s_cmp_eq_i32", 1, 1),		SOPC(1, "s_cmp_lg_i32", 1, 1),
	SOPC(2, "s_cmp_gt_i32", 1, 1),		SOPC(3, "s_cmp_ge_i32", 1, 1),
	SOPC(4, "s_cmp_lt_i32", 1, 1),		SOPC(5, "s_cmp_le_i32", 1, 1),
	SOPC(6, "s_cmp_eq_u32", 1, 1),		SOPC(7, "s_cmp_lg_u32", 1, 1),
	SOPC(8, "s_cmp_gt_u32", 1, 1),		SOPC(9, "s_cmp_ge_u32", 1, 1),
	SOPC(10, "s_cmp_lt_u32", 1, 1),		SOPC(11, "s_cmp_le_u32", 1, 1),
	SOPC(12, "s_bitcmp0_b32", 1, 1),	SOPC(13, "s_bitcmp1_b32", 1, 1),
	SOPC(14, "s_bitcmp0_b64", 2, 1),	SOPC(15, "s_bitcmp1_b64", 2, 1),
	SOPC(18, "s_cmp_eq_u64", 2, 2),		SOPC(19, "s_cmp_lg_u64", 2, 2),

	/* SOPP */
	SOPP(0, "s_nop", K_SOPP_UIMM),		SOPP(1, "s_endpgm", K_SOPP_ENDPGM),
	SOPP(2, "s_branch", K_SOPP_BRANCH),	SOPP(3, "s_wakeup", K_SOPP_NONE),
	SOPP(4, "s_cbranch_scc0", K_SOPP_BRANCH), SOPP(5, "s_cbranch_scc1", K_SOPP_BRANCH),
	SOPP(6, "s_cbranch_vccz", K_SOPP_BRANCH), SOPP(7, "s_cbranch_vccnz", K_SOPP_BRANCH),
	SOPP(8, "s_cbranch_execz", K_SOPP_BRANCH), SOPP(9, "s_cbranch_execnz", K_SOPP_BRANCH),
	SOPP(10, "s_barrier", K_SOPP_NONE),	SOPP(11, "s_setkill", K_SOPP_UIMM),
	SOPP(12, "s_waitcnt", K_SOPP_WAITCNT),	SOPP(13, "s_sethalt", K_SOPP_UIMM),
	SOPP(14, "s_sleep", K_SOPP_UIMM),	SOPP(15, "s_setprio", K_SOPP_UIMM),
	SOPP(19, "s_icache_inv", K_SOPP_NONE),	SOPP(20, "s_incperflevel", K_SOPP_UIMM),
	SOPP(21, "s_decperflevel", K_SOPP_UIMM), SOPP(22, "s_ttracedata", K_SOPP_NONE),
	SOPP(27, "s_endpgm_saved", K_SOPP_NONE), SOPP(31, "s_code_end", K_SOPP_NONE),
	SOPP(32, "s_inst_prefetch", K_SOPP_HEX), SOPP(33, "s_clause", K_SOPP_HEX),

	/* SMEM: glc and dlc; the offset's SGPR is null when unused */
	SMEM(0, "s_load_dword", K_LOAD, 1, 0, 2),
	SMEM(1, "s_load_dwordx2", K_LOAD, 2, 0, 2),
	SMEM(2, "s_load_dwordx4", K_LOAD, 4, 0, 2),
	SMEM(3, "s_load_dwordx8", K_LOAD, 8, 0, 2),
	SMEM(4, "s_load_dwordx16", K_LOAD, 16, 0, 2),
	SMEM(8, "s_buffer_load_dword", K_LOAD, 1, 0, 4),
	SMEM(9, "s_buffer_load_dwordx2", K_LOAD, 2, 0, 4),
	SMEM(10, "s_buffer_load_dwordx4", K_LOAD, 4, 0, 4),
	SMEM(11, "s_buffer_load_dwordx8", K_LOAD, 8, 0, 4),
	SMEM(12, "s_buffer_load_dwordx16", K_LOAD, 16, 0, 4),
	SMEM(31, "s_gl1_inv", K_NONE, 0, 0, 0),
	SMEM(32, "s_dcache_inv", K_NONE, 0, 0, 0),
	SMEM(36, "s_memtime", K_LOAD, 2, 0, 0),
	SMEM(37, "s_memrealtime", K_LOAD, 2, 0, 0),

	/* VOP2 (VOP3 opcode: 0x100 + op) */
	VOP2(1, "v_cndmask_b32", 1, 1, 1, F_VCC_IN),
	VOP2(3, "v_add_f32", 1, 1, 1, 0),	VOP2(4, "v_sub_f32", 1, 1, 1, 0),
	VOP2(5, "v_subrev_f32", 1, 1, 1, 0),	VOP2(8, "v_mul_f32", 1, 1, 1, 0),
	VOP2(9, "v_mul_i32_i24", 1, 1, 1, 0),	VOP2(10, "v_mul_hi_i32_i24", 1, 1, 1, 0),
	VOP2(11, "v_mul_u32_u24", 1, 1, 1, 0),	VOP2(12, "v_mul_hi_u32_u24", 1, 1, 1, 0),
	VOP2(15, "v_min_f32", 1, 1, 1, 0),	VOP2(16, "v_max_f32", 1, 1, 1, 0),
	VOP2(17, "v_min_i32", 1, 1, 1, 0),	VOP2(18, "v_max_i32", 1, 1, 1, 0),
	VOP2(19, "v_min_u32", 1, 1, 1, 0),	VOP2(20, "v_max_u32", 1, 1, 1, 0),
	VOP2(22, "v_lshrrev_b32", 1, 1, 1, 0),	VOP2(24, "v_ashrrev_i32", 1, 1, 1, 0),
	VOP2(26, "v_lshlrev_b32", 1, 1, 1, 0),	VOP2(27, "v_and_b32", 1, 1, 1, 0),
	VOP2(28, "v_or_b32", 1, 1, 1, 0),	VOP2(29, "v_xor_b32", 1, 1, 1, 0),
	VOP2(30, "v_xnor_b32", 1, 1, 1, 0),
	VOP2(37, "v_add_nc_u32", 1, 1, 1, 0),	VOP2(38, "v_sub_nc_u32", 1, 1, 1, 0),
	VOP2(39, "v_subrev_nc_u32", 1, 1, 1, 0),
	/* the carry in and out: vcc_lo, or SGPRs in the _e64 form */
	VOP2(40, "v_add_co_ci_u32", 1, 1, 1, F_VCC_OUT | F_VCC_IN),
	VOP2(41, "v_sub_co_ci_u32", 1, 1, 1, F_VCC_OUT | F_VCC_IN),
	VOP2(42, "v_subrev_co_ci_u32", 1, 1, 1, F_VCC_OUT | F_VCC_IN),
	VOP2(43, "v_fmac_f32", 1, 1, 1, F_MAC),
	VOP2(44, "v_fmamk_f32", 1, 1, 1, F_MADMK | F_E32_ONLY),
	VOP2(45, "v_fmaak_f32", 1, 1, 1, F_MADAK | F_E32_ONLY),

	/* VOP1 (VOP3 opcode: 0x180 + op) */
	VOP1(0, "v_nop", 0, 0, F_NO_DST | F_E32_ONLY),
	VOP1(1, "v_mov_b32", 1, 1, 0),
	VOP1(2, "v_readfirstlane_b32", 1, 1, F_SDST | F_E32_ONLY | F_SRC_REG),
	VOP1(3, "v_cvt_i32_f64", 1, 2, 0),	VOP1(4, "v_cvt_f64_i32", 2, 1, 0),
	VOP1(5, "v_cvt_f32_i32", 1, 1, 0),	VOP1(6, "v_cvt_f32_u32", 1, 1, 0),
	VOP1(7, "v_cvt_u32_f32", 1, 1, 0),	VOP1(8, "v_cvt_i32_f32", 1, 1, 0),
	VOP1(10, "v_cvt_f16_f32", 1, 1, 0),	VOP1(11, "v_cvt_f32_f16", 1, 1, F_16),
	VOP1(12, "v_cvt_rpi_i32_f32", 1, 1, 0),	VOP1(13, "v_cvt_flr_i32_f32", 1, 1, 0),
	VOP1(14, "v_cvt_off_f32_i4", 1, 1, 0),	VOP1(15, "v_cvt_f32_f64", 1, 2, 0),
	VOP1(16, "v_cvt_f64_f32", 2, 1, 0),	VOP1(17, "v_cvt_f32_ubyte0", 1, 1, 0),
	VOP1(18, "v_cvt_f32_ubyte1", 1, 1, 0),	VOP1(19, "v_cvt_f32_ubyte2", 1, 1, 0),
	VOP1(20, "v_cvt_f32_ubyte3", 1, 1, 0),	VOP1(21, "v_cvt_u32_f64", 1, 2, 0),
	VOP1(22, "v_cvt_f64_u32", 2, 1, 0),	VOP1(23, "v_trunc_f64", 2, 2, 0),
	VOP1(24, "v_ceil_f64", 2, 2, 0),	VOP1(25, "v_rndne_f64", 2, 2, 0),
	VOP1(26, "v_floor_f64", 2, 2, 0),
	VOP1(32, "v_fract_f32", 1, 1, 0),	VOP1(33, "v_trunc_f32", 1, 1, 0),
	VOP1(34, "v_ceil_f32", 1, 1, 0),	VOP1(35, "v_rndne_f32", 1, 1, 0),
	VOP1(36, "v_floor_f32", 1, 1, 0),	VOP1(37, "v_exp_f32", 1, 1, 0),
	VOP1(39, "v_log_f32", 1, 1, 0),		VOP1(42, "v_rcp_f32", 1, 1, 0),
	VOP1(43, "v_rcp_iflag_f32", 1, 1, 0),	VOP1(46, "v_rsq_f32", 1, 1, 0),
	VOP1(47, "v_rcp_f64", 2, 2, 0),		VOP1(49, "v_rsq_f64", 2, 2, 0),
	VOP1(51, "v_sqrt_f32", 1, 1, 0),	VOP1(52, "v_sqrt_f64", 2, 2, 0),
	VOP1(53, "v_sin_f32", 1, 1, 0),		VOP1(54, "v_cos_f32", 1, 1, 0),
	VOP1(55, "v_not_b32", 1, 1, 0),		VOP1(56, "v_bfrev_b32", 1, 1, 0),
	VOP1(57, "v_ffbh_u32", 1, 1, 0),	VOP1(58, "v_ffbl_b32", 1, 1, 0),
	VOP1(59, "v_ffbh_i32", 1, 1, 0),	VOP1(60, "v_frexp_exp_i32_f64", 1, 2, 0),
	VOP1(61, "v_frexp_mant_f64", 2, 2, 0),	VOP1(62, "v_fract_f64", 2, 2, 0),
	VOP1(63, "v_frexp_exp_i32_f32", 1, 1, 0), VOP1(64, "v_frexp_mant_f32", 1, 1, 0),

	/* VOPC (VOP3 opcode: op) */
	VOPC_F(0x00, "f32", 1, 0),
	VOPC_F(0x20, "f64", 2, 0),
	VOPC_I(0x80, "i32", 1, 0),		VOPCC(0x88, "v_cmp_class_f32", 1, 0),
	VOPCX_I(0x90, "i32", 1, 0),		VOPCCX(0x98, "v_cmpx_class_f32", 1, 0),
	VOPC_I(0xa0, "i64", 2, 0),		VOPCC(0xa8, "v_cmp_class_f64", 2, 0),
	VOPCX_I(0xb0, "i64", 2, 0),		VOPCCX(0xb8, "v_cmpx_class_f64", 2, 0),
	VOPC_I(0xc0, "u32", 1, 0),		VOPCX_I(0xd0, "u32", 1, 0),
	VOPC_I(0xe0, "u64", 2, 0),		VOPCX_I(0xf0, "u64", 2, 0),

	/* VOP3 only */
	VOP3(0x142, "v_mad_i32_i24", 1, 1, 1, 1, 0),
	VOP3(0x143, "v_mad_u32_u24", 1, 1, 1, 1, 0),
	VOP3(0x148, "v_bfe_u32", 1, 1, 1, 1, 0),
	VOP3(0x149, "v_bfe_i32", 1, 1, 1, 1, 0),
	VOP3(0x14a, "v_bfi_b32", 1, 1, 1, 1, 0),
	VOP3(0x14b, "v_fma_f32", 1, 1, 1, 1, 0),
	VOP3(0x14c, "v_fma_f64", 2, 2, 2, 2, 0),
	VOP3(0x14e, "v_alignbit_b32", 1, 1, 1, 1, 0),
	VOP3(0x14f, "v_alignbyte_b32", 1, 1, 1, 1, 0),
	VOP3(0x151, "v_min3_f32", 1, 1, 1, 1, 0),
	VOP3(0x152, "v_min3_i32", 1, 1, 1, 1, 0),
	VOP3(0x153, "v_min3_u32", 1, 1, 1, 1, 0),
	VOP3(0x154, "v_max3_f32", 1, 1, 1, 1, 0),
	VOP3(0x155, "v_max3_i32", 1, 1, 1, 1, 0),
	VOP3(0x156, "v_max3_u32", 1, 1, 1, 1, 0),
	VOP3(0x157, "v_med3_f32", 1, 1, 1, 1, 0),
	VOP3(0x158, "v_med3_i32", 1, 1, 1, 1, 0),
	VOP3(0x159, "v_med3_u32", 1, 1, 1, 1, 0),
	VOP3(0x15f, "v_div_fixup_f32", 1, 1, 1, 1, 0),
	VOP3(0x160, "v_div_fixup_f64", 2, 2, 2, 2, 0),
	VOP3(0x164, "v_add_f64", 2, 2, 2, 0, 0),
	VOP3(0x165, "v_mul_f64", 2, 2, 2, 0, 0),
	VOP3(0x166, "v_min_f64", 2, 2, 2, 0, 0),
	VOP3(0x167, "v_max_f64", 2, 2, 2, 0, 0),
	VOP3(0x168, "v_ldexp_f64", 2, 2, 1, 0, 0),
	VOP3(0x169, "v_mul_lo_u32", 1, 1, 1, 0, 0),
	VOP3(0x16a, "v_mul_hi_u32", 1, 1, 1, 0, 0),
	VOP3(0x16c, "v_mul_hi_i32", 1, 1, 1, 0, 0),
	VOP3(0x16d, "v_div_scale_f32", 1, 1, 1, 1, F_VOP3B),
	VOP3(0x16e, "v_div_scale_f64", 2, 2, 2, 2, F_VOP3B),
	VOP3(0x16f, "v_div_fmas_f32", 1, 1, 1, 1, 0),
	VOP3(0x170, "v_div_fmas_f64", 2, 2, 2, 2, 0),
	VOP3(0x176, "v_mad_u64_u32", 2, 1, 1, 2, F_VOP3B),
	VOP3(0x177, "v_mad_i64_i32", 2, 1, 1, 2, F_VOP3B),
	VOP3(0x178, "v_xor3_b32", 1, 1, 1, 1, 0),
	VOP3(0x2ff, "v_lshlrev_b64", 2, 1, 2, 0, 0),
	VOP3(0x300, "v_lshrrev_b64", 2, 1, 2, 0, 0),
	VOP3(0x301, "v_ashrrev_i64", 2, 1, 2, 0, 0),
	VOP3(0x30f, "v_add_co_u32", 1, 1, 1, 0, F_VOP3B),
	VOP3(0x310, "v_sub_co_u32", 1, 1, 1, 0, F_VOP3B),
	VOP3(0x319, "v_subrev_co_u32", 1, 1, 1, 0, F_VOP3B),
	VOP3(0x344, "v_perm_b32", 1, 1, 1, 1, 0),
	VOP3(0x345, "v_xad_u32", 1, 1, 1, 1, 0),
	VOP3(0x346, "v_lshl_add_u32", 1, 1, 1, 1, 0),
	VOP3(0x347, "v_add_lshl_u32", 1, 1, 1, 1, 0),
	VOP3(0x360, "v_readlane_b32", 1, 1, 1, 0, F_SDST | F_SRC1_SGPR),
	VOP3(0x361, "v_writelane_b32", 1, 1, 1, 0, F_SRC1_SGPR),
	VOP3(0x362, "v_ldexp_f32", 1, 1, 1, 0, 0),
	VOP3(0x363, "v_bfm_b32", 1, 1, 1, 0, 0),
	VOP3(0x364, "v_bcnt_u32_b32", 1, 1, 1, 0, 0),
	VOP3(0x365, "v_mbcnt_lo_u32_b32", 1, 1, 1, 0, 0),
	VOP3(0x366, "v_mbcnt_hi_u32_b32", 1, 1, 1, 0, 0),
	VOP3(0x36d, "v_add3_u32", 1, 1, 1, 1, 0),
	VOP3(0x36f, "v_lshl_or_b32", 1, 1, 1, 1, 0),
	VOP3(0x371, "v_and_or_b32", 1, 1, 1, 1, 0),
	VOP3(0x372, "v_or3_b32", 1, 1, 1, 1, 0),

	/* DS: as gfx9's, the opcode one bit higher */
	DS(0x00, "ds_add_u32", K_STORE, 0, 1, 0, 0),
	DS(0x01, "ds_sub_u32", K_STORE, 0, 1, 0, 0),
	DS(0x05, "ds_min_i32", K_STORE, 0, 1, 0, 0),
	DS(0x06, "ds_max_i32", K_STORE, 0, 1, 0, 0),
	DS(0x07, "ds_min_u32", K_STORE, 0, 1, 0, 0),
	DS(0x08, "ds_max_u32", K_STORE, 0, 1, 0, 0),
	DS(0x09, "ds_and_b32", K_STORE, 0, 1, 0, 0),
	DS(0x0a, "ds_or_b32", K_STORE, 0, 1, 0, 0),
	DS(0x0b, "ds_xor_b32", K_STORE, 0, 1, 0, 0),
	DS(0x0d, "ds_write_b32", K_STORE, 0, 1, 0, 0),
	DS(0x0e, "ds_write2_b32", K_STORE, 0, 1, 1, F_OFF2),
	DS(0x0f, "ds_write2st64_b32", K_STORE, 0, 1, 1, F_OFF2),
	DS(0x15, "ds_add_f32", K_STORE, 0, 1, 0, 0),
	/* GWS: no address; data0 the count where the operation takes one */
	DS(0x19, "ds_gws_init", K_STORE, 0, 1, 0, F_NO_ADDR),
	DS(0x1a, "ds_gws_sema_v", K_NONE, 0, 0, 0, F_NO_ADDR),
	DS(0x1b, "ds_gws_sema_br", K_STORE, 0, 1, 0, F_NO_ADDR),
	DS(0x1c, "ds_gws_sema_p", K_NONE, 0, 0, 0, F_NO_ADDR),
	DS(0x1d, "ds_gws_barrier", K_STORE, 0, 1, 0, F_NO_ADDR),
	DS(0x1e, "ds_write_b8", K_STORE, 0, 1, 0, 0),
	DS(0x1f, "ds_write_b16", K_STORE, 0, 1, 0, 0),
	DS(0x20, "ds_add_rtn_u32", K_ATOMIC, 1, 1, 0, 0),
	DS(0x36, "ds_read_b32", K_LOAD, 1, 0, 0, 0),
	DS(0x37, "ds_read2_b32", K_LOAD, 2, 0, 0, F_OFF2),
	DS(0x38, "ds_read2st64_b32", K_LOAD, 2, 0, 0, F_OFF2),
	DS(0x39, "ds_read_i8", K_LOAD, 1, 0, 0, 0),
	DS(0x3a, "ds_read_u8", K_LOAD, 1, 0, 0, 0),
	DS(0x3b, "ds_read_i16", K_LOAD, 1, 0, 0, 0),
	DS(0x3c, "ds_read_u16", K_LOAD, 1, 0, 0, 0),
	DS(0x4d, "ds_write_b64", K_STORE, 0, 2, 0, 0),
	DS(0x4e, "ds_write2_b64", K_STORE, 0, 2, 2, F_OFF2),
	DS(0x4f, "ds_write2st64_b64", K_STORE, 0, 2, 2, F_OFF2),
	DS(0x76, "ds_read_b64", K_LOAD, 2, 0, 0, 0),
	DS(0x77, "ds_read2_b64", K_LOAD, 4, 0, 0, F_OFF2),
	DS(0x78, "ds_read2st64_b64", K_LOAD, 4, 0, 0, F_OFF2),
	DS(0xde, "ds_write_b96", K_STORE, 0, 3, 0, 0),
	DS(0xdf, "ds_write_b128", K_STORE, 0, 4, 0, 0),
	DS(0xfe, "ds_read_b96", K_LOAD, 3, 0, 0, 0),
	DS(0xff, "ds_read_b128", K_LOAD, 4, 0, 0, 0),

	/* FLAT, GLOBAL, SCRATCH: the segment prefixes the name */
	FLAT(0x08, "load_ubyte", K_LOAD, 1, 0, 0),
	FLAT(0x09, "load_sbyte", K_LOAD, 1, 0, 0),
	FLAT(0x0a, "load_ushort", K_LOAD, 1, 0, 0),
	FLAT(0x0b, "load_sshort", K_LOAD, 1, 0, 0),
	FLAT(0x0c, "load_dword", K_LOAD, 1, 0, 0),
	FLAT(0x0d, "load_dwordx2", K_LOAD, 2, 0, 0),
	FLAT(0x0e, "load_dwordx4", K_LOAD, 4, 0, 0),
	FLAT(0x0f, "load_dwordx3", K_LOAD, 3, 0, 0),
	FLAT(0x18, "store_byte", K_STORE, 0, 1, 0),
	FLAT(0x19, "store_byte_d16_hi", K_STORE, 0, 1, 0),
	FLAT(0x1a, "store_short", K_STORE, 0, 1, 0),
	FLAT(0x1b, "store_short_d16_hi", K_STORE, 0, 1, 0),
	FLAT(0x1c, "store_dword", K_STORE, 0, 1, 0),
	FLAT(0x1d, "store_dwordx2", K_STORE, 0, 2, 0),
	FLAT(0x1e, "store_dwordx4", K_STORE, 0, 4, 0),
	FLAT(0x1f, "store_dwordx3", K_STORE, 0, 3, 0),
	FLAT(0x30, "atomic_swap", K_ATOMIC, 1, 1, 0),
	FLAT(0x31, "atomic_cmpswap", K_ATOMIC, 1, 2, 0),
	FLAT(0x32, "atomic_add", K_ATOMIC, 1, 1, 0),
	FLAT(0x33, "atomic_sub", K_ATOMIC, 1, 1, 0),
	FLAT(0x35, "atomic_smin", K_ATOMIC, 1, 1, 0),
	FLAT(0x36, "atomic_umin", K_ATOMIC, 1, 1, 0),
	FLAT(0x37, "atomic_smax", K_ATOMIC, 1, 1, 0),
	FLAT(0x38, "atomic_umax", K_ATOMIC, 1, 1, 0),
	FLAT(0x39, "atomic_and", K_ATOMIC, 1, 1, 0),
	FLAT(0x3a, "atomic_or", K_ATOMIC, 1, 1, 0),
	FLAT(0x3b, "atomic_xor", K_ATOMIC, 1, 1, 0),
	FLAT(0x3c, "atomic_inc", K_ATOMIC, 1, 1, 0),
	FLAT(0x3d, "atomic_dec", K_ATOMIC, 1, 1, 0),
	FLAT(0x50, "atomic_swap_x2", K_ATOMIC, 2, 2, 0),
	FLAT(0x51, "atomic_cmpswap_x2", K_ATOMIC, 2, 4, 0),
	FLAT(0x52, "atomic_add_x2", K_ATOMIC, 2, 2, 0),
	FLAT(0x53, "atomic_sub_x2", K_ATOMIC, 2, 2, 0),

	/* MUBUF */
	MUBUF(0x00, "buffer_load_format_x", K_LOAD, 1, 0),
	MUBUF(0x01, "buffer_load_format_xy", K_LOAD, 2, 0),
	MUBUF(0x02, "buffer_load_format_xyz", K_LOAD, 3, 0),
	MUBUF(0x03, "buffer_load_format_xyzw", K_LOAD, 4, 0),
	MUBUF(0x04, "buffer_store_format_x", K_STORE, 0, 1),
	MUBUF(0x05, "buffer_store_format_xy", K_STORE, 0, 2),
	MUBUF(0x06, "buffer_store_format_xyz", K_STORE, 0, 3),
	MUBUF(0x07, "buffer_store_format_xyzw", K_STORE, 0, 4),
	MUBUF(0x08, "buffer_load_ubyte", K_LOAD, 1, 0),
	MUBUF(0x09, "buffer_load_sbyte", K_LOAD, 1, 0),
	MUBUF(0x0a, "buffer_load_ushort", K_LOAD, 1, 0),
	MUBUF(0x0b, "buffer_load_sshort", K_LOAD, 1, 0),
	MUBUF(0x0c, "buffer_load_dword", K_LOAD, 1, 0),
	MUBUF(0x0d, "buffer_load_dwordx2", K_LOAD, 2, 0),
	MUBUF(0x0e, "buffer_load_dwordx4", K_LOAD, 4, 0),
	MUBUF(0x0f, "buffer_load_dwordx3", K_LOAD, 3, 0),
	MUBUF(0x18, "buffer_store_byte", K_STORE, 0, 1),
	MUBUF(0x1a, "buffer_store_short", K_STORE, 0, 1),
	MUBUF(0x1c, "buffer_store_dword", K_STORE, 0, 1),
	MUBUF(0x1d, "buffer_store_dwordx2", K_STORE, 0, 2),
	MUBUF(0x1e, "buffer_store_dwordx4", K_STORE, 0, 4),
	MUBUF(0x1f, "buffer_store_dwordx3", K_STORE, 0, 3),
	MUBUF(0x71, "buffer_gl0_inv", K_NONE, 0, 0),
	MUBUF(0x72, "buffer_gl1_inv", K_NONE, 0, 0),

	/* MIMG: the data size follows dmask, the address size dim */
	MIMG(0x00, "image_load", K_LOAD),
	MIMG(0x01, "image_load_mip", K_LOAD),
	MIMG(0x08, "image_store", K_STORE),
	MIMG(0x09, "image_store_mip", K_STORE),
};

const struct isa_table isa_table_gfx1030 = {
	.name = "gfx1030",
	.formats = gfx1030_formats,
	.n_formats = sizeof(gfx1030_formats) / sizeof(gfx1030_formats[0]),
	.ops = gfx1030_ops,
	.n_ops = sizeof(gfx1030_ops) / sizeof(gfx1030_ops[0]),
	.gen = ISA_GEN10,
};
