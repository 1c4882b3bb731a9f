// SPDX-License-Identifier: MIT
/*
 * gfx90a (CDNA2) encodings: the facts of AMD's "AMD Instinct MI200"
 * Instruction Set Architecture reference guide (chapter 12, microcode
 * formats), cross-checked against LLVM's disassembler by tests/isa.
 * An opcode absent here decodes as unknown.
 */
#include "isa_table.h"

/*
 * Order matters: the narrower matches (SOP1, SOPC, SOPP, VOP3P) first.
 * Columns: encoding, name, mask, match, dwords, opcode shift and mask.
 */
static const struct isa_format gfx90a_formats[] = {
	{ ISA_SOP1,  "SOP1",  0xff800000, 0xbe800000, 1, 8, 0xff },
	{ ISA_SOPC,  "SOPC",  0xff800000, 0xbf000000, 1, 16, 0x7f },
	{ ISA_SOPP,  "SOPP",  0xff800000, 0xbf800000, 1, 16, 0x7f },
	{ ISA_SOPK,  "SOPK",  0xf0000000, 0xb0000000, 1, 23, 0x1f },
	{ ISA_SOP2,  "SOP2",  0xc0000000, 0x80000000, 1, 23, 0x7f },
	{ ISA_SMEM,  "SMEM",  0xfc000000, 0xc0000000, 2, 18, 0xff },
	{ ISA_VOP1,  "VOP1",  0xfe000000, 0x7e000000, 1, 9, 0xff },
	{ ISA_VOPC,  "VOPC",  0xfe000000, 0x7c000000, 1, 17, 0xff },
	{ ISA_VOP2,  "VOP2",  0x80000000, 0x00000000, 1, 25, 0x3f },
	{ ISA_VOP3P, "VOP3P", 0xff800000, 0xd3800000, 2, 16, 0x7f },
	{ ISA_VOP3,  "VOP3",  0xfc000000, 0xd0000000, 2, 16, 0x3ff },
	{ ISA_DS,    "DS",    0xfc000000, 0xd8000000, 2, 17, 0xff },
	{ ISA_FLAT,  "FLAT",  0xfc000000, 0xdc000000, 2, 18, 0x7f },
	{ ISA_MUBUF, "MUBUF", 0xfc000000, 0xe0000000, 2, 18, 0x7f },
	{ ISA_MTBUF, "MTBUF", 0xfc000000, 0xe8000000, 2, 15, 0xf },
	{ ISA_MIMG,  "MIMG",  0xfc000000, 0xf0000000, 2, 18, 0x7f },
	{ ISA_EXP,   "EXP",   0xfc000000, 0xc4000000, 2, 0, 0x0 },
};

/* Scalar rows: dst, src0, src1 sizes in dwords. */
#define SOP2(o, n, d, a, b)	{ ISA_SOP2, o, n, K_STD, d, a, b, 0, 0 }
#define SOP1(o, n, d, a)	{ ISA_SOP1, o, n, K_STD, d, a, 0, 0, 0 }
#define SOP1F(o, n, d, a, f)	{ ISA_SOP1, o, n, K_STD, d, a, 0, 0, f }
#define SOPC(o, n, a, b)	{ ISA_SOPC, o, n, K_STD, 0, a, b, 0, 0 }
#define SOPK(o, n, k)		{ ISA_SOPK, o, n, k, 1, 0, 0, 0, 0 }
#define SOPP(o, n, k)		{ ISA_SOPP, o, n, k, 0, 0, 0, 0, 0 }
/* SMEM: dst (loaded), data (stored), base (2: address, 4: resource). */
#define SMEM(o, n, k, d, a, b)	{ ISA_SMEM, o, n, k, d, a, b, 0, 0 }
/* Vector rows: dst, src0, src1, src2 sizes and flags. */
#define VOP2(o, n, d, a, b, f)	{ ISA_VOP2, o, n, K_STD, d, a, b, 0, f }
#define VOP1(o, n, d, a, f)	{ ISA_VOP1, o, n, K_STD, d, a, 0, 0, f }
#define VOPC(o, n, a)		{ ISA_VOPC, o, n, K_STD, 2, a, a, 0, 0 }
#define VOPCC(o, n, a)		{ ISA_VOPC, o, n, K_STD, 2, a, 1, 0, 0 }
#define VOP3(o, n, d, a, b, c, f) { ISA_VOP3, o, n, K_STD, d, a, b, c, f }
#define VOP3P(o, n, d, a, b, c)	{ ISA_VOP3P, o, n, K_STD, d, a, b, c, 0 }
/* Memory rows: returned size, written size. */
#define DS(o, n, k, d, a, b, f)	{ ISA_DS, o, n, k, d, a, b, 0, f }
#define FLAT(o, n, k, d, a, f)	{ ISA_FLAT, o, n, k, d, a, 0, 0, f }
#define MUBUF(o, n, k, d, a)	{ ISA_MUBUF, o, n, k, d, a, 0, 0, 0 }
#define MIMG(o, n, k)		{ ISA_MIMG, o, n, k, 0, 0, 0, 0, 0 }

/* The sixteen float compares and eight integer compares, in opcode order. */
#define VOPC_F(base, t, s) \
	VOPC(base + 0, "v_cmp_f_" t, s), VOPC(base + 1, "v_cmp_lt_" t, s), \
	VOPC(base + 2, "v_cmp_eq_" t, s), VOPC(base + 3, "v_cmp_le_" t, s), \
	VOPC(base + 4, "v_cmp_gt_" t, s), VOPC(base + 5, "v_cmp_lg_" t, s), \
	VOPC(base + 6, "v_cmp_ge_" t, s), VOPC(base + 7, "v_cmp_o_" t, s), \
	VOPC(base + 8, "v_cmp_u_" t, s), VOPC(base + 9, "v_cmp_nge_" t, s), \
	VOPC(base + 10, "v_cmp_nlg_" t, s), VOPC(base + 11, "v_cmp_ngt_" t, s), \
	VOPC(base + 12, "v_cmp_nle_" t, s), VOPC(base + 13, "v_cmp_neq_" t, s), \
	VOPC(base + 14, "v_cmp_nlt_" t, s), VOPC(base + 15, "v_cmp_tru_" t, s), \
	VOPC(base + 16, "v_cmpx_f_" t, s), VOPC(base + 17, "v_cmpx_lt_" t, s), \
	VOPC(base + 18, "v_cmpx_eq_" t, s), VOPC(base + 19, "v_cmpx_le_" t, s), \
	VOPC(base + 20, "v_cmpx_gt_" t, s), VOPC(base + 21, "v_cmpx_lg_" t, s), \
	VOPC(base + 22, "v_cmpx_ge_" t, s), VOPC(base + 23, "v_cmpx_o_" t, s), \
	VOPC(base + 24, "v_cmpx_u_" t, s), VOPC(base + 25, "v_cmpx_nge_" t, s), \
	VOPC(base + 26, "v_cmpx_nlg_" t, s), VOPC(base + 27, "v_cmpx_ngt_" t, s), \
	VOPC(base + 28, "v_cmpx_nle_" t, s), VOPC(base + 29, "v_cmpx_neq_" t, s), \
	VOPC(base + 30, "v_cmpx_nlt_" t, s), VOPC(base + 31, "v_cmpx_tru_" t, s)
#define VOPC_I(base, x, t, s) \
	VOPC(base + 0, "v_cmp" x "_f_" t, s), VOPC(base + 1, "v_cmp" x "_lt_" t, s), \
	VOPC(base + 2, "v_cmp" x "_eq_" t, s), VOPC(base + 3, "v_cmp" x "_le_" t, s), \
	VOPC(base + 4, "v_cmp" x "_gt_" t, s), VOPC(base + 5, "v_cmp" x "_ne_" t, s), \
	VOPC(base + 6, "v_cmp" x "_ge_" t, s), VOPC(base + 7, "v_cmp" x "_t_" t, s)

static const struct isa_op gfx90a_ops[] = {
	/* SOP2 */
	SOP2(0, "s_add_u32", 1, 1, 1),		SOP2(1, "s_sub_u32", 1, 1, 1),
	SOP2(2, "s_add_i32", 1, 1, 1),		SOP2(3, "s_sub_i32", 1, 1, 1),
	SOP2(4, "s_addc_u32", 1, 1, 1),		SOP2(5, "s_subb_u32", 1, 1, 1),
	SOP2(6, "s_min_i32", 1, 1, 1),		SOP2(7, "s_min_u32", 1, 1, 1),
	SOP2(8, "s_max_i32", 1, 1, 1),		SOP2(9, "s_max_u32", 1, 1, 1),
	SOP2(10, "s_cselect_b32", 1, 1, 1),	SOP2(11, "s_cselect_b64", 2, 2, 2),
	SOP2(12, "s_and_b32", 1, 1, 1),		SOP2(13, "s_and_b64", 2, 2, 2),
	SOP2(14, "s_or_b32", 1, 1, 1),		SOP2(15, "s_or_b64", 2, 2, 2),
	SOP2(16, "s_xor_b32", 1, 1, 1),		SOP2(17, "s_xor_b64", 2, 2, 2),
	SOP2(18, "s_andn2_b32", 1, 1, 1),	SOP2(19, "s_andn2_b64", 2, 2, 2),
	SOP2(20, "s_orn2_b32", 1, 1, 1),	SOP2(21, "s_orn2_b64", 2, 2, 2),
	SOP2(22, "s_nand_b32", 1, 1, 1),	SOP2(23, "s_nand_b64", 2, 2, 2),
	SOP2(24, "s_nor_b32", 1, 1, 1),		SOP2(25, "s_nor_b64", 2, 2, 2),
	SOP2(26, "s_xnor_b32", 1, 1, 1),	SOP2(27, "s_xnor_b64", 2, 2, 2),
	SOP2(28, "s_lshl_b32", 1, 1, 1),	SOP2(29, "s_lshl_b64", 2, 2, 1),
	SOP2(30, "s_lshr_b32", 1, 1, 1),	SOP2(31, "s_lshr_b64", 2, 2, 1),
	SOP2(32, "s_ashr_i32", 1, 1, 1),	SOP2(33, "s_ashr_i64", 2, 2, 1),
	SOP2(34, "s_bfm_b32", 1, 1, 1),		SOP2(35, "s_bfm_b64", 2, 1, 1),
	SOP2(36, "s_mul_i32", 1, 1, 1),		SOP2(37, "s_bfe_u32", 1, 1, 1),
	SOP2(38, "s_bfe_i32", 1, 1, 1),		SOP2(39, "s_bfe_u64", 2, 2, 1),
	SOP2(40, "s_bfe_i64", 2, 2, 1),		SOP2(42, "s_absdiff_i32", 1, 1, 1),
	SOP2(44, "s_mul_hi_u32", 1, 1, 1),	SOP2(45, "s_mul_hi_i32", 1, 1, 1),
	SOP2(46, "s_lshl1_add_u32", 1, 1, 1),	SOP2(47, "s_lshl2_add_u32", 1, 1, 1),
	SOP2(48, "s_lshl3_add_u32", 1, 1, 1),	SOP2(49, "s_lshl4_add_u32", 1, 1, 1),
	SOP2(50, "s_pack_ll_b32_b16", 1, 1, 1),	SOP2(51, "s_pack_lh_b32_b16", 1, 1, 1),
	SOP2(52, "s_pack_hh_b32_b16", 1, 1, 1),

	/* SOPK */
	SOPK(0, "s_movk_i32", K_SOPK_DST),	SOPK(1, "s_cmovk_i32", K_SOPK_DST),
	SOPK(2, "s_cmpk_eq_i32", K_SOPK_SRC),	SOPK(3, "s_cmpk_lg_i32", K_SOPK_SRC),
	SOPK(4, "s_cmpk_gt_i32", K_SOPK_SRC),	SOPK(5, "s_cmpk_ge_i32", K_SOPK_SRC),
	SOPK(6, "s_cmpk_lt_i32", K_SOPK_SRC),	SOPK(7, "s_cmpk_le_i32", K_SOPK_SRC),
	SOPK(8, "s_cmpk_eq_u32", K_SOPK_SRC),	SOPK(9, "s_cmpk_lg_u32", K_SOPK_SRC),
	SOPK(10, "s_cmpk_gt_u32", K_SOPK_SRC),	SOPK(11, "s_cmpk_ge_u32", K_SOPK_SRC),
	SOPK(12, "s_cmpk_lt_u32", K_SOPK_SRC),	SOPK(13, "s_cmpk_le_u32", K_SOPK_SRC),
	SOPK(14, "s_addk_i32", K_SOPK_DST),	SOPK(15, "s_mulk_i32", K_SOPK_DST),

	/* SOP1 */
	SOP1(0, "s_mov_b32", 1, 1),		SOP1(1, "s_mov_b64", 2, 2),
	SOP1(2, "s_cmov_b32", 1, 1),		SOP1(3, "s_cmov_b64", 2, 2),
	SOP1(4, "s_not_b32", 1, 1),		SOP1(5, "s_not_b64", 2, 2),
	SOP1(6, "s_wqm_b32", 1, 1),		SOP1(7, "s_wqm_b64", 2, 2),
	SOP1(8, "s_brev_b32", 1, 1),		SOP1(9, "s_brev_b64", 2, 2),
	SOP1(10, "s_bcnt0_i32_b32", 1, 1),	SOP1(11, "s_bcnt0_i32_b64", 1, 2),
	SOP1(12, "s_bcnt1_i32_b32", 1, 1),	SOP1(13, "s_bcnt1_i32_b64", 1, 2),
	SOP1(14, "s_ff0_i32_b32", 1, 1),	SOP1(15, "s_ff0_i32_b64", 1, 2),
	SOP1(16, "s_ff1_i32_b32", 1, 1),	SOP1(17, "s_ff1_i32_b64", 1, 2),
	SOP1(18, "s_flbit_i32_b32", 1, 1),	SOP1(19, "s_flbit_i32_b64", 1, 2),
	SOP1(20, "s_flbit_i32", 1, 1),		SOP1(21, "s_flbit_i32_i64", 1, 2),
	SOP1(22, "s_sext_i32_i8", 1, 1),	SOP1(23, "s_sext_i32_i16", 1, 1),
	SOP1(24, "s_bitset0_b32", 1, 1),	SOP1(25, "s_bitset0_b64", 2, 1),
	SOP1(26, "s_bitset1_b32", 1, 1),	SOP1(27, "s_bitset1_b64", 2, 1),
	SOP1(28, "s_getpc_b64", 2, 0),		SOP1F(29, "s_setpc_b64", 0, 2, F_NO_DST),
	SOP1(30, "s_swappc_b64", 2, 2),		SOP1F(31, "s_rfe_b64", 0, 2, F_NO_DST),
	SOP1(32, "s_and_saveexec_b64", 2, 2),	SOP1(33, "s_or_saveexec_b64", 2, 2),
	SOP1(34, "s_xor_saveexec_b64", 2, 2),	SOP1(35, "s_andn2_saveexec_b64", 2, 2),
	SOP1(36, "s_orn2_saveexec_b64", 2, 2),	SOP1(37, "s_nand_saveexec_b64", 2, 2),
	SOP1(38, "s_nor_saveexec_b64", 2, 2),	SOP1(39, "s_xnor_saveexec_b64", 2, 2),
	SOP1(40, "s_quadmask_b32", 1, 1),	SOP1(41, "s_quadmask_b64", 2, 2),
	SOP1(42, "s_movrels_b32", 1, 1),	SOP1(43, "s_movrels_b64", 2, 2),
	SOP1(44, "s_movreld_b32", 1, 1),	SOP1(45, "s_movreld_b64", 2, 2),
	SOP1(48, "s_abs_i32", 1, 1),
	SOP1(51, "s_andn1_saveexec_b64", 2, 2),	SOP1(52, "s_orn1_saveexec_b64", 2, 2),
	SOP1(53, "s_andn1_wrexec_b64", 2, 2),	SOP1(54, "s_andn2_wrexec_b64", 2, 2),
	SOP1(55, "s_bitreplicate_b64_b32", 2, 1),

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
	SOPP(0, "s_nop", K_SOPP_UIMM),		SOPP(1, "s_endpgm", K_SOPP_NONE),
	SOPP(2, "s_branch", K_SOPP_BRANCH),	SOPP(3, "s_wakeup", K_SOPP_NONE),
	SOPP(4, "s_cbranch_scc0", K_SOPP_BRANCH), SOPP(5, "s_cbranch_scc1", K_SOPP_BRANCH),
	SOPP(6, "s_cbranch_vccz", K_SOPP_BRANCH), SOPP(7, "s_cbranch_vccnz", K_SOPP_BRANCH),
	SOPP(8, "s_cbranch_execz", K_SOPP_BRANCH), SOPP(9, "s_cbranch_execnz", K_SOPP_BRANCH),
	SOPP(10, "s_barrier", K_SOPP_NONE),	SOPP(11, "s_setkill", K_SOPP_UIMM),
	SOPP(12, "s_waitcnt", K_SOPP_WAITCNT),	SOPP(13, "s_sethalt", K_SOPP_UIMM),
	SOPP(14, "s_sleep", K_SOPP_UIMM),	SOPP(15, "s_setprio", K_SOPP_UIMM),
	SOPP(19, "s_icache_inv", K_SOPP_NONE),	SOPP(20, "s_incperflevel", K_SOPP_UIMM),
	SOPP(21, "s_decperflevel", K_SOPP_UIMM), SOPP(22, "s_ttracedata", K_SOPP_NONE),
	SOPP(27, "s_endpgm_saved", K_SOPP_NONE),

	/* SMEM */
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
	SMEM(16, "s_store_dword", K_STORE, 0, 1, 2),
	SMEM(17, "s_store_dwordx2", K_STORE, 0, 2, 2),
	SMEM(18, "s_store_dwordx4", K_STORE, 0, 4, 2),
	SMEM(24, "s_buffer_store_dword", K_STORE, 0, 1, 4),
	SMEM(25, "s_buffer_store_dwordx2", K_STORE, 0, 2, 4),
	SMEM(26, "s_buffer_store_dwordx4", K_STORE, 0, 4, 4),
	SMEM(32, "s_dcache_inv", K_NONE, 0, 0, 0),
	SMEM(33, "s_dcache_wb", K_NONE, 0, 0, 0),
	SMEM(34, "s_dcache_inv_vol", K_NONE, 0, 0, 0),
	SMEM(35, "s_dcache_wb_vol", K_NONE, 0, 0, 0),
	SMEM(36, "s_memtime", K_LOAD, 2, 0, 0),
	SMEM(37, "s_memrealtime", K_LOAD, 2, 0, 0),

	/* VOP2 (VOP3 opcode: 0x100 + op) */
	VOP2(0, "v_cndmask_b32", 1, 1, 1, F_VCC_IN),
	VOP2(1, "v_add_f32", 1, 1, 1, 0),	VOP2(2, "v_sub_f32", 1, 1, 1, 0),
	VOP2(3, "v_subrev_f32", 1, 1, 1, 0),	VOP2(4, "v_fmac_f64", 2, 2, 2, F_MAC),
	VOP2(5, "v_mul_f32", 1, 1, 1, 0),	VOP2(6, "v_mul_i32_i24", 1, 1, 1, 0),
	VOP2(7, "v_mul_hi_i32_i24", 1, 1, 1, 0), VOP2(8, "v_mul_u32_u24", 1, 1, 1, 0),
	VOP2(9, "v_mul_hi_u32_u24", 1, 1, 1, 0), VOP2(10, "v_min_f32", 1, 1, 1, 0),
	VOP2(11, "v_max_f32", 1, 1, 1, 0),	VOP2(12, "v_min_i32", 1, 1, 1, 0),
	VOP2(13, "v_max_i32", 1, 1, 1, 0),	VOP2(14, "v_min_u32", 1, 1, 1, 0),
	VOP2(15, "v_max_u32", 1, 1, 1, 0),	VOP2(16, "v_lshrrev_b32", 1, 1, 1, 0),
	VOP2(17, "v_ashrrev_i32", 1, 1, 1, 0),	VOP2(18, "v_lshlrev_b32", 1, 1, 1, 0),
	VOP2(19, "v_and_b32", 1, 1, 1, 0),	VOP2(20, "v_or_b32", 1, 1, 1, 0),
	VOP2(21, "v_xor_b32", 1, 1, 1, 0),	VOP2(22, "v_mac_f32", 1, 1, 1, F_MAC),
	VOP2(23, "v_madmk_f32", 1, 1, 1, F_MADMK | F_E32_ONLY),
	VOP2(24, "v_madak_f32", 1, 1, 1, F_MADAK | F_E32_ONLY),
	VOP2(25, "v_add_co_u32", 1, 1, 1, F_VCC_OUT),
	VOP2(26, "v_sub_co_u32", 1, 1, 1, F_VCC_OUT),
	VOP2(27, "v_subrev_co_u32", 1, 1, 1, F_VCC_OUT),
	VOP2(28, "v_addc_co_u32", 1, 1, 1, F_VCC_OUT | F_VCC_IN),
	VOP2(29, "v_subb_co_u32", 1, 1, 1, F_VCC_OUT | F_VCC_IN),
	VOP2(30, "v_subbrev_co_u32", 1, 1, 1, F_VCC_OUT | F_VCC_IN),
	VOP2(31, "v_add_f16", 1, 1, 1, 0),	VOP2(32, "v_sub_f16", 1, 1, 1, 0),
	VOP2(33, "v_subrev_f16", 1, 1, 1, 0),	VOP2(34, "v_mul_f16", 1, 1, 1, 0),
	VOP2(35, "v_mac_f16", 1, 1, 1, F_MAC),
	VOP2(38, "v_add_u16", 1, 1, 1, 0),	VOP2(39, "v_sub_u16", 1, 1, 1, 0),
	VOP2(40, "v_subrev_u16", 1, 1, 1, 0),	VOP2(41, "v_mul_lo_u16", 1, 1, 1, 0),
	VOP2(42, "v_lshlrev_b16", 1, 1, 1, 0),	VOP2(43, "v_lshrrev_b16", 1, 1, 1, 0),
	VOP2(44, "v_ashrrev_i16", 1, 1, 1, 0),	VOP2(45, "v_max_f16", 1, 1, 1, 0),
	VOP2(46, "v_min_f16", 1, 1, 1, 0),	VOP2(47, "v_max_u16", 1, 1, 1, 0),
	VOP2(48, "v_max_i16", 1, 1, 1, 0),	VOP2(49, "v_min_u16", 1, 1, 1, 0),
	VOP2(50, "v_min_i16", 1, 1, 1, 0),	VOP2(51, "v_ldexp_f16", 1, 1, 1, 0),
	VOP2(52, "v_add_u32", 1, 1, 1, 0),	VOP2(53, "v_sub_u32", 1, 1, 1, 0),
	VOP2(54, "v_subrev_u32", 1, 1, 1, 0),
	VOP2(59, "v_fmac_f32", 1, 1, 1, F_MAC),	VOP2(61, "v_xnor_b32", 1, 1, 1, 0),

	/* VOP1 (VOP3 opcode: 0x140 + op) */
	VOP1(0, "v_nop", 0, 0, F_NO_DST | F_E32_ONLY),
	VOP1(1, "v_mov_b32", 1, 1, 0),
	VOP1(2, "v_readfirstlane_b32", 1, 1, F_SDST | F_E32_ONLY),
	VOP1(3, "v_cvt_i32_f64", 1, 2, 0),	VOP1(4, "v_cvt_f64_i32", 2, 1, 0),
	VOP1(5, "v_cvt_f32_i32", 1, 1, 0),	VOP1(6, "v_cvt_f32_u32", 1, 1, 0),
	VOP1(7, "v_cvt_u32_f32", 1, 1, 0),	VOP1(8, "v_cvt_i32_f32", 1, 1, 0),
	VOP1(10, "v_cvt_f16_f32", 1, 1, 0),	VOP1(11, "v_cvt_f32_f16", 1, 1, 0),
	VOP1(12, "v_cvt_rpi_i32_f32", 1, 1, 0),	VOP1(13, "v_cvt_flr_i32_f32", 1, 1, 0),
	VOP1(14, "v_cvt_off_f32_i4", 1, 1, 0),	VOP1(15, "v_cvt_f32_f64", 1, 2, 0),
	VOP1(16, "v_cvt_f64_f32", 2, 1, 0),	VOP1(17, "v_cvt_f32_ubyte0", 1, 1, 0),
	VOP1(18, "v_cvt_f32_ubyte1", 1, 1, 0),	VOP1(19, "v_cvt_f32_ubyte2", 1, 1, 0),
	VOP1(20, "v_cvt_f32_ubyte3", 1, 1, 0),	VOP1(21, "v_cvt_u32_f64", 1, 2, 0),
	VOP1(22, "v_cvt_f64_u32", 2, 1, 0),	VOP1(23, "v_trunc_f64", 2, 2, 0),
	VOP1(24, "v_ceil_f64", 2, 2, 0),	VOP1(25, "v_rndne_f64", 2, 2, 0),
	VOP1(26, "v_floor_f64", 2, 2, 0),	VOP1(27, "v_fract_f32", 1, 1, 0),
	VOP1(28, "v_trunc_f32", 1, 1, 0),	VOP1(29, "v_ceil_f32", 1, 1, 0),
	VOP1(30, "v_rndne_f32", 1, 1, 0),	VOP1(31, "v_floor_f32", 1, 1, 0),
	VOP1(32, "v_exp_f32", 1, 1, 0),		VOP1(33, "v_log_f32", 1, 1, 0),
	VOP1(34, "v_rcp_f32", 1, 1, 0),		VOP1(35, "v_rcp_iflag_f32", 1, 1, 0),
	VOP1(36, "v_rsq_f32", 1, 1, 0),		VOP1(37, "v_rcp_f64", 2, 2, 0),
	VOP1(38, "v_rsq_f64", 2, 2, 0),		VOP1(39, "v_sqrt_f32", 1, 1, 0),
	VOP1(40, "v_sqrt_f64", 2, 2, 0),	VOP1(41, "v_sin_f32", 1, 1, 0),
	VOP1(42, "v_cos_f32", 1, 1, 0),		VOP1(43, "v_not_b32", 1, 1, 0),
	VOP1(44, "v_bfrev_b32", 1, 1, 0),	VOP1(45, "v_ffbh_u32", 1, 1, 0),
	VOP1(46, "v_ffbl_b32", 1, 1, 0),	VOP1(47, "v_ffbh_i32", 1, 1, 0),
	VOP1(48, "v_frexp_exp_i32_f64", 1, 2, 0), VOP1(49, "v_frexp_mant_f64", 2, 2, 0),
	VOP1(50, "v_fract_f64", 2, 2, 0),	VOP1(51, "v_frexp_exp_i32_f32", 1, 1, 0),
	VOP1(52, "v_frexp_mant_f32", 1, 1, 0),
	VOP1(57, "v_cvt_f16_u16", 1, 1, 0),	VOP1(58, "v_cvt_f16_i16", 1, 1, 0),
	VOP1(59, "v_cvt_u16_f16", 1, 1, 0),	VOP1(60, "v_cvt_i16_f16", 1, 1, 0),
	VOP1(61, "v_rcp_f16", 1, 1, 0),		VOP1(62, "v_sqrt_f16", 1, 1, 0),
	VOP1(63, "v_rsq_f16", 1, 1, 0),		VOP1(64, "v_log_f16", 1, 1, 0),
	VOP1(65, "v_exp_f16", 1, 1, 0),		VOP1(66, "v_frexp_mant_f16", 1, 1, 0),
	VOP1(67, "v_frexp_exp_i16_f16", 1, 1, 0), VOP1(68, "v_floor_f16", 1, 1, 0),
	VOP1(69, "v_ceil_f16", 1, 1, 0),	VOP1(70, "v_trunc_f16", 1, 1, 0),
	VOP1(71, "v_rndne_f16", 1, 1, 0),	VOP1(72, "v_fract_f16", 1, 1, 0),
	VOP1(73, "v_sin_f16", 1, 1, 0),		VOP1(74, "v_cos_f16", 1, 1, 0),

	/* VOPC (VOP3 opcode: op) */
	VOPCC(0x10, "v_cmp_class_f32", 1),	VOPCC(0x11, "v_cmpx_class_f32", 1),
	VOPCC(0x12, "v_cmp_class_f64", 2),	VOPCC(0x13, "v_cmpx_class_f64", 2),
	VOPCC(0x14, "v_cmp_class_f16", 1),	VOPCC(0x15, "v_cmpx_class_f16", 1),
	VOPC_F(0x20, "f16", 1),
	VOPC_F(0x40, "f32", 1),
	VOPC_F(0x60, "f64", 2),
	VOPC_I(0xa0, "", "i16", 1),		VOPC_I(0xa8, "", "u16", 1),
	VOPC_I(0xb0, "x", "i16", 1),		VOPC_I(0xb8, "x", "u16", 1),
	VOPC_I(0xc0, "", "i32", 1),		VOPC_I(0xc8, "", "u32", 1),
	VOPC_I(0xd0, "x", "i32", 1),		VOPC_I(0xd8, "x", "u32", 1),
	VOPC_I(0xe0, "", "i64", 2),		VOPC_I(0xe8, "", "u64", 2),
	VOPC_I(0xf0, "x", "i64", 2),		VOPC_I(0xf8, "x", "u64", 2),

	/* VOP3 only */
	VOP3(0x1c0, "v_mad_legacy_f32", 1, 1, 1, 1, 0),
	VOP3(0x1c1, "v_mad_f32", 1, 1, 1, 1, 0),
	VOP3(0x1c2, "v_mad_i32_i24", 1, 1, 1, 1, 0),
	VOP3(0x1c3, "v_mad_u32_u24", 1, 1, 1, 1, 0),
	VOP3(0x1c4, "v_cubeid_f32", 1, 1, 1, 1, 0),
	VOP3(0x1c5, "v_cubesc_f32", 1, 1, 1, 1, 0),
	VOP3(0x1c6, "v_cubetc_f32", 1, 1, 1, 1, 0),
	VOP3(0x1c7, "v_cubema_f32", 1, 1, 1, 1, 0),
	VOP3(0x1c8, "v_bfe_u32", 1, 1, 1, 1, 0),
	VOP3(0x1c9, "v_bfe_i32", 1, 1, 1, 1, 0),
	VOP3(0x1ca, "v_bfi_b32", 1, 1, 1, 1, 0),
	VOP3(0x1cb, "v_fma_f32", 1, 1, 1, 1, 0),
	VOP3(0x1cc, "v_fma_f64", 2, 2, 2, 2, 0),
	VOP3(0x1cd, "v_lerp_u8", 1, 1, 1, 1, 0),
	VOP3(0x1ce, "v_alignbit_b32", 1, 1, 1, 1, 0),
	VOP3(0x1cf, "v_alignbyte_b32", 1, 1, 1, 1, 0),
	VOP3(0x1d0, "v_min3_f32", 1, 1, 1, 1, 0),
	VOP3(0x1d1, "v_min3_i32", 1, 1, 1, 1, 0),
	VOP3(0x1d2, "v_min3_u32", 1, 1, 1, 1, 0),
	VOP3(0x1d3, "v_max3_f32", 1, 1, 1, 1, 0),
	VOP3(0x1d4, "v_max3_i32", 1, 1, 1, 1, 0),
	VOP3(0x1d5, "v_max3_u32", 1, 1, 1, 1, 0),
	VOP3(0x1d6, "v_med3_f32", 1, 1, 1, 1, 0),
	VOP3(0x1d7, "v_med3_i32", 1, 1, 1, 1, 0),
	VOP3(0x1d8, "v_med3_u32", 1, 1, 1, 1, 0),
	VOP3(0x1d9, "v_sad_u8", 1, 1, 1, 1, 0),
	VOP3(0x1da, "v_sad_hi_u8", 1, 1, 1, 1, 0),
	VOP3(0x1db, "v_sad_u16", 1, 1, 1, 1, 0),
	VOP3(0x1dc, "v_sad_u32", 1, 1, 1, 1, 0),
	VOP3(0x1dd, "v_cvt_pk_u8_f32", 1, 1, 1, 1, 0),
	VOP3(0x1de, "v_div_fixup_f32", 1, 1, 1, 1, 0),
	VOP3(0x1df, "v_div_fixup_f64", 2, 2, 2, 2, 0),
	VOP3(0x1e0, "v_div_scale_f32", 1, 1, 1, 1, F_VOP3B),
	VOP3(0x1e1, "v_div_scale_f64", 2, 2, 2, 2, F_VOP3B),
	VOP3(0x1e2, "v_div_fmas_f32", 1, 1, 1, 1, 0),
	VOP3(0x1e3, "v_div_fmas_f64", 2, 2, 2, 2, 0),
	VOP3(0x1e4, "v_msad_u8", 1, 1, 1, 1, 0),
	VOP3(0x1e5, "v_qsad_pk_u16_u8", 2, 2, 1, 2, 0),
	VOP3(0x1e6, "v_mqsad_pk_u16_u8", 2, 2, 1, 2, 0),
	VOP3(0x1e7, "v_mqsad_u32_u8", 4, 2, 1, 4, 0),
	VOP3(0x1e8, "v_mad_u64_u32", 2, 1, 1, 2, F_VOP3B),
	VOP3(0x1e9, "v_mad_i64_i32", 2, 1, 1, 2, F_VOP3B),
	VOP3(0x1f1, "v_mad_u32_u16", 1, 1, 1, 1, 0),
	VOP3(0x1f2, "v_mad_i32_i16", 1, 1, 1, 1, 0),
	VOP3(0x1f3, "v_xad_u32", 1, 1, 1, 1, 0),
	VOP3(0x1fd, "v_lshl_add_u32", 1, 1, 1, 1, 0),
	VOP3(0x1fe, "v_add_lshl_u32", 1, 1, 1, 1, 0),
	VOP3(0x1ff, "v_add3_u32", 1, 1, 1, 1, 0),
	VOP3(0x200, "v_lshl_or_b32", 1, 1, 1, 1, 0),
	VOP3(0x201, "v_and_or_b32", 1, 1, 1, 1, 0),
	VOP3(0x202, "v_or3_b32", 1, 1, 1, 1, 0),
	VOP3(0x280, "v_add_f64", 2, 2, 2, 0, 0),
	VOP3(0x281, "v_mul_f64", 2, 2, 2, 0, 0),
	VOP3(0x282, "v_min_f64", 2, 2, 2, 0, 0),
	VOP3(0x283, "v_max_f64", 2, 2, 2, 0, 0),
	VOP3(0x284, "v_ldexp_f64", 2, 2, 1, 0, 0),
	VOP3(0x285, "v_mul_lo_u32", 1, 1, 1, 0, 0),
	VOP3(0x286, "v_mul_hi_u32", 1, 1, 1, 0, 0),
	VOP3(0x287, "v_mul_hi_i32", 1, 1, 1, 0, 0),
	VOP3(0x288, "v_ldexp_f32", 1, 1, 1, 0, 0),
	VOP3(0x289, "v_readlane_b32", 1, 1, 1, 0, F_SDST | F_SRC1_SGPR),
	VOP3(0x28a, "v_writelane_b32", 1, 1, 1, 0, F_SRC1_SGPR),
	VOP3(0x28b, "v_bcnt_u32_b32", 1, 1, 1, 0, 0),
	VOP3(0x28c, "v_mbcnt_lo_u32_b32", 1, 1, 1, 0, 0),
	VOP3(0x28d, "v_mbcnt_hi_u32_b32", 1, 1, 1, 0, 0),
	VOP3(0x28f, "v_lshlrev_b64", 2, 1, 2, 0, 0),
	VOP3(0x290, "v_lshrrev_b64", 2, 1, 2, 0, 0),
	VOP3(0x291, "v_ashrrev_i64", 2, 1, 2, 0, 0),
	VOP3(0x292, "v_trig_preop_f64", 2, 2, 1, 0, 0),
	VOP3(0x293, "v_bfm_b32", 1, 1, 1, 0, 0),
	VOP3(0x294, "v_cvt_pknorm_i16_f32", 1, 1, 1, 0, 0),
	VOP3(0x295, "v_cvt_pknorm_u16_f32", 1, 1, 1, 0, 0),
	VOP3(0x296, "v_cvt_pkrtz_f16_f32", 1, 1, 1, 0, 0),
	VOP3(0x297, "v_cvt_pk_u16_u32", 1, 1, 1, 0, 0),
	VOP3(0x298, "v_cvt_pk_i16_i32", 1, 1, 1, 0, 0),

	/* VOP3P */
	VOP3P(0x30, "v_pk_fma_f32", 2, 2, 2, 2),
	VOP3P(0x31, "v_pk_mul_f32", 2, 2, 2, 0),
	VOP3P(0x32, "v_pk_add_f32", 2, 2, 2, 0),
	VOP3P(0x33, "v_pk_mov_b32", 2, 2, 2, 0),

	/* DS: returned, address is one VGPR, data0, data1 */
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
	DS(0x3e, "ds_permute_b32", K_ATOMIC, 1, 1, 0, 0),
	DS(0x3f, "ds_bpermute_b32", K_ATOMIC, 1, 1, 0, 0),
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
	FLAT(0x10, "load_ubyte", K_LOAD, 1, 0, 0),
	FLAT(0x11, "load_sbyte", K_LOAD, 1, 0, 0),
	FLAT(0x12, "load_ushort", K_LOAD, 1, 0, 0),
	FLAT(0x13, "load_sshort", K_LOAD, 1, 0, 0),
	FLAT(0x14, "load_dword", K_LOAD, 1, 0, 0),
	FLAT(0x15, "load_dwordx2", K_LOAD, 2, 0, 0),
	FLAT(0x16, "load_dwordx3", K_LOAD, 3, 0, 0),
	FLAT(0x17, "load_dwordx4", K_LOAD, 4, 0, 0),
	FLAT(0x18, "store_byte", K_STORE, 0, 1, 0),
	FLAT(0x19, "store_byte_d16_hi", K_STORE, 0, 1, 0),
	FLAT(0x1a, "store_short", K_STORE, 0, 1, 0),
	FLAT(0x1b, "store_short_d16_hi", K_STORE, 0, 1, 0),
	FLAT(0x1c, "store_dword", K_STORE, 0, 1, 0),
	FLAT(0x1d, "store_dwordx2", K_STORE, 0, 2, 0),
	FLAT(0x1e, "store_dwordx3", K_STORE, 0, 3, 0),
	FLAT(0x1f, "store_dwordx4", K_STORE, 0, 4, 0),
	FLAT(0x40, "atomic_swap", K_ATOMIC, 1, 1, 0),
	FLAT(0x41, "atomic_cmpswap", K_ATOMIC, 1, 2, 0),
	FLAT(0x42, "atomic_add", K_ATOMIC, 1, 1, 0),
	FLAT(0x43, "atomic_sub", K_ATOMIC, 1, 1, 0),
	FLAT(0x44, "atomic_smin", K_ATOMIC, 1, 1, 0),
	FLAT(0x45, "atomic_umin", K_ATOMIC, 1, 1, 0),
	FLAT(0x46, "atomic_smax", K_ATOMIC, 1, 1, 0),
	FLAT(0x47, "atomic_umax", K_ATOMIC, 1, 1, 0),
	FLAT(0x48, "atomic_and", K_ATOMIC, 1, 1, 0),
	FLAT(0x49, "atomic_or", K_ATOMIC, 1, 1, 0),
	FLAT(0x4a, "atomic_xor", K_ATOMIC, 1, 1, 0),
	FLAT(0x4b, "atomic_inc", K_ATOMIC, 1, 1, 0),
	FLAT(0x4c, "atomic_dec", K_ATOMIC, 1, 1, 0),
	FLAT(0x60, "atomic_swap_x2", K_ATOMIC, 2, 2, 0),
	FLAT(0x61, "atomic_cmpswap_x2", K_ATOMIC, 2, 4, 0),
	FLAT(0x62, "atomic_add_x2", K_ATOMIC, 2, 2, 0),
	FLAT(0x63, "atomic_sub_x2", K_ATOMIC, 2, 2, 0),

	/* MUBUF */
	MUBUF(0x00, "buffer_load_format_x", K_LOAD, 1, 0),
	MUBUF(0x01, "buffer_load_format_xy", K_LOAD, 2, 0),
	MUBUF(0x02, "buffer_load_format_xyz", K_LOAD, 3, 0),
	MUBUF(0x03, "buffer_load_format_xyzw", K_LOAD, 4, 0),
	MUBUF(0x04, "buffer_store_format_x", K_STORE, 0, 1),
	MUBUF(0x05, "buffer_store_format_xy", K_STORE, 0, 2),
	MUBUF(0x06, "buffer_store_format_xyz", K_STORE, 0, 3),
	MUBUF(0x07, "buffer_store_format_xyzw", K_STORE, 0, 4),
	MUBUF(0x10, "buffer_load_ubyte", K_LOAD, 1, 0),
	MUBUF(0x11, "buffer_load_sbyte", K_LOAD, 1, 0),
	MUBUF(0x12, "buffer_load_ushort", K_LOAD, 1, 0),
	MUBUF(0x13, "buffer_load_sshort", K_LOAD, 1, 0),
	MUBUF(0x14, "buffer_load_dword", K_LOAD, 1, 0),
	MUBUF(0x15, "buffer_load_dwordx2", K_LOAD, 2, 0),
	MUBUF(0x16, "buffer_load_dwordx3", K_LOAD, 3, 0),
	MUBUF(0x17, "buffer_load_dwordx4", K_LOAD, 4, 0),
	MUBUF(0x18, "buffer_store_byte", K_STORE, 0, 1),
	MUBUF(0x1a, "buffer_store_short", K_STORE, 0, 1),
	MUBUF(0x1c, "buffer_store_dword", K_STORE, 0, 1),
	MUBUF(0x1d, "buffer_store_dwordx2", K_STORE, 0, 2),
	MUBUF(0x1e, "buffer_store_dwordx3", K_STORE, 0, 3),
	MUBUF(0x1f, "buffer_store_dwordx4", K_STORE, 0, 4),

	/* MIMG: the data size follows dmask */
	MIMG(0x00, "image_load", K_LOAD),
	MIMG(0x01, "image_load_mip", K_LOAD),
	MIMG(0x08, "image_store", K_STORE),
	MIMG(0x09, "image_store_mip", K_STORE),
};

const struct isa_table isa_table_gfx90a = {
	.name = "gfx90a",
	.formats = gfx90a_formats,
	.n_formats = sizeof(gfx90a_formats) / sizeof(gfx90a_formats[0]),
	.ops = gfx90a_ops,
	.n_ops = sizeof(gfx90a_ops) / sizeof(gfx90a_ops[0]),
};
