/* SPDX-License-Identifier: MIT */
/*
 * The shader interpreter (shader_*.c): runs the waves of an AQL kernel
 * dispatch on the engine thread that processes the queue. Instructions are
 * decoded by formats/isa (kfdtrace/isa.h); each row the interpreter
 * implements is named here by mnemonic and bound to the family's table
 * once. An instruction without an implementation stops the dispatch with
 * an illegal-instruction error naming it: nothing is skipped silently.
 *
 *   shader.c        dispatch setup (kernel descriptor, SGPR/VGPR init),
 *                   workgroups, barriers, the fetch-decode loop
 *   shader_pm4.c    dispatch setup from a PM4 queue's compute registers
 *   shader_op.c     operands: SGPR space, inline constants, VGPRs
 *   shader_salu.c   scalar ALU, branches, program control
 *   shader_valu.c   vector ALU (VOP1, VOP2, VOPC, VOP3)
 *   shader_mem.c    scalar loads, global/flat, MUBUF, LDS
 *   shader_family.c the families run, and what one family has alone
 *   shader_sys.c    messages, traps, clocks, hardware registers, cache
 *                   control; waves that wait for the host
 *   shader_scratch.c private memory: the queue's scratch, swizzled
 *                   per lane, and generic pointers into the apertures
 *   shader_dpp.c    DPP and SDWA forms of the vector rows
 *   shader_xvalu.c  16-bit, byte, bit-permute and transcendental rows
 *   shader_f64.c    double precision
 *   shader_f16.c    half precision, mixed precision, d16_hi stores
 *   shader_lane.c   cross-lane DS (permute, swizzle) and strided DS
 *
 * Shared between those files only. Device lock held throughout.
 */
#ifndef KSIM_SHADER_PRIV_H
#define KSIM_SHADER_PRIV_H

#include <stdint.h>

#include "cp_priv.h"
#include "kfdtrace/isa.h"
#include "kfdtrace/packet_abi.h"

#define SH_LANES	64
#define SH_MAX_WAVES	32		/* 1024 work-items of wave32 */
#define SH_VGPRS	512		/* gfx90a: 256 VGPRs + 256 AGPRs */

/* The SGPR space of a 7-bit or 9-bit operand field. */
#define SH_FLAT_SCR	102
#define SH_XNACK	104
#define SH_VCC		106
#define SH_TTMP		108		/* ttmp0..15: the trap handler's */
#define SH_M0		124
#define SH_NULL		125		/* gfx10: reads 0 (the decoder refuses it on gfx9) */
#define SH_EXEC		126

/* SH_YIELD: the wave slept (s_sleep) and the dispatch gives the engine
 * back, so the host can answer what the wave waits for. */
/* SH_GWS: the wave waits on a GWS semaphore or barrier (shader_gws.c);
 * it retries the instruction when another wave of its group moved. */
enum sh_state { SH_RUN, SH_BARRIER, SH_END, SH_YIELD, SH_GWS };

struct sh_wave {
	uint32_t s[128];		/* SGPRs, then vcc, m0, exec at their
					 * field numbers */
	uint32_t (*v)[SH_LANES];	/* VGPRs, then AGPRs (a256..) */
	uint64_t pc;
	int scc;
	enum sh_state state;
	unsigned int id;		/* wave within its workgroup */
	unsigned int lanes;		/* 64, or 32 (gfx10 wave32): lane masks
					 * are then one SGPR and exec is exec_lo */
	const uint32_t *aperture_hi;	/* src_shared_base, _limit,
					 * src_private_base, _limit: bits 63:32 */
	/* shader_trap.c: in the trap handler (privileged), TRAPSTS, and
	 * whether the wave end trap was taken */
	int trap;
	uint32_t trapsts;
	int end_trapped;
	uint32_t watch_hit;		/* TRAPSTS bits of the watch points the
					 * instruction being run hit */
	/* DPP and SDWA: the sources after lane movement and selection,
	 * read as operand fields SH_SRC_XS and SH_SRC_XS + 1 */
	uint32_t xs[2][SH_LANES];
	/* shader_gws.c: the GWS barrier generation this wave waits past */
	int gws_armed;
	uint32_t gws_gen;
	/* gfx10: FLAT_SCRATCH is a hardware register (s_setreg), not
	 * SGPRs 102 and 103 */
	uint64_t flat_scr;
	/* MODE as s_setreg_b32 left it: rounding (bits 3:0) applies to the
	 * host's float arithmetic (sh_mode_round()) */
	uint32_t mode;
};

/* MODE at a wave's start: round to nearest even, denormals kept. */
#define SH_MODE_DEFAULT		0xf0u

/* The operand field of the wave's xs[0] (xs[1]: one more). */
#define SH_SRC_XS	512

struct sh_cached;

struct sh_ctx {
	struct ksim_cp *cp;
	struct ksim_cpq *cq;
	struct sh_wave waves[SH_MAX_WAVES];
	unsigned int nwaves;
	uint32_t wgid[3];		/* the work-group running */
	uint32_t (*vgprs)[SH_LANES];	/* every wave's */
	struct sh_cached *cache;	/* decoded instructions */
	uint64_t gen;			/* the dispatch: older cache entries
					 * are stale (the code may change) */
	uint8_t *lds;
	uint32_t lds_size;
	uint64_t executed;		/* wave instructions */
	uint64_t turn_end;		/* where this turn of the dispatch ends */
	uint64_t lanes;			/* lane instructions (VALU) */
	enum kfd_isa_family family;	/* the dispatch's GPU */
	int xform;			/* a DPP or SDWA form is being run */
	int lanewise;			/* 1: the per-lane paths only, no
					 * whole-wave fast path (set by the
					 * model test that compares them) */
	/* the failure, when an instruction stops the dispatch */
	int ec;				/* KFD_ABI_EC_* */
	uint32_t code;			/* queue-inactive error bits */
	uint64_t detail;
	char why[320];
	/* shader_scratch.c: the queue's private memory for this dispatch */
	uint64_t scratch_base;		/* GPU VA of the queue's scratch */
	uint64_t scratch_size;
	uint32_t scratch_wave;		/* bytes per wave slot */
	uint32_t scratch_srd[4];
	int scratch_asked;		/* the CP asked the runtime for more */
	uint32_t private_hi, shared_hi;	/* bits 63:32 of the private and LDS
					 * apertures' generic addresses */
	uint32_t aperture_hi[4];	/* what the waves' aperture_hi show */
	int halted;			/* a wave halted for good (s_trap with
					 * no handler): the dispatch never ends */
	uint32_t math_traps;		/* shader_trap.c: the float exceptions
					 * a debugger traps (TRAPSTS.EXCP bits) */
	/* a dispatch that yielded (shader_sys.c), resumed at the next call */
	struct ksim_cpq *held_by;	/* the queue whose dispatch it is */
	uint64_t held_id;		/* its packet */
	int in_group;			/* the work-group wgid[] was running */
	int write;			/* the access that faulted stored */
	/* shader_pcs.c: host-trap PC sampling of this dispatch */
	uint64_t pcs_interval;		/* ns between two samples; 0: off */
	uint64_t pcs_next;		/* CLOCK_MONOTONIC of the next one */
	uint64_t pcs_check;		/* c->executed at the next clock look */
	uint64_t pcs_packet;		/* the dispatch packet's index */
	uint64_t pcs_samples;		/* host traps sent */
};

/* An instruction being executed. */
struct sh_insn {
	const struct kfd_isa_insn *in;
	unsigned int id;		/* SH_OP_* of its row */
};

/* The rows the interpreter implements: mnemonic -> SH_OP_*. */
#define SH_OPS(X) \
	X(S_NOP, "s_nop") X(S_ENDPGM, "s_endpgm") X(S_WAITCNT, "s_waitcnt") \
	X(S_BARRIER, "s_barrier") X(S_BRANCH, "s_branch") \
	X(S_CBRANCH_SCC0, "s_cbranch_scc0") X(S_CBRANCH_SCC1, "s_cbranch_scc1") \
	X(S_CBRANCH_VCCZ, "s_cbranch_vccz") X(S_CBRANCH_VCCNZ, "s_cbranch_vccnz") \
	X(S_CBRANCH_EXECZ, "s_cbranch_execz") X(S_CBRANCH_EXECNZ, "s_cbranch_execnz") \
	X(S_SETPRIO, "s_setprio") X(S_SLEEP, "s_sleep") X(S_DCACHE_WB, "s_dcache_wb") \
	X(S_DCACHE_INV, "s_dcache_inv") X(S_SETHALT, "s_sethalt") \
	X(S_MOV_B32, "s_mov_b32") X(S_MOV_B64, "s_mov_b64") X(S_MOVK_I32, "s_movk_i32") \
	X(S_CMOV_B32, "s_cmov_b32") X(S_CMOV_B64, "s_cmov_b64") \
	X(S_NOT_B32, "s_not_b32") X(S_NOT_B64, "s_not_b64") \
	X(S_BREV_B32, "s_brev_b32") X(S_BCNT1_I32_B32, "s_bcnt1_i32_b32") \
	X(S_BCNT1_I32_B64, "s_bcnt1_i32_b64") X(S_FF1_I32_B32, "s_ff1_i32_b32") \
	X(S_FF1_I32_B64, "s_ff1_i32_b64") X(S_FLBIT_I32_B32, "s_flbit_i32_b32") \
	X(S_SEXT_I32_I8, "s_sext_i32_i8") X(S_SEXT_I32_I16, "s_sext_i32_i16") \
	X(S_ABS_I32, "s_abs_i32") X(S_GETPC_B64, "s_getpc_b64") \
	X(S_SETPC_B64, "s_setpc_b64") X(S_SWAPPC_B64, "s_swappc_b64") \
	X(S_AND_SAVEEXEC_B64, "s_and_saveexec_b64") X(S_OR_SAVEEXEC_B64, "s_or_saveexec_b64") \
	X(S_XOR_SAVEEXEC_B64, "s_xor_saveexec_b64") \
	X(S_ANDN2_SAVEEXEC_B64, "s_andn2_saveexec_b64") \
	X(S_ORN2_SAVEEXEC_B64, "s_orn2_saveexec_b64") \
	X(S_ADD_U32, "s_add_u32") X(S_SUB_U32, "s_sub_u32") X(S_ADD_I32, "s_add_i32") \
	X(S_SUB_I32, "s_sub_i32") X(S_ADDC_U32, "s_addc_u32") X(S_SUBB_U32, "s_subb_u32") \
	X(S_MIN_I32, "s_min_i32") X(S_MIN_U32, "s_min_u32") X(S_MAX_I32, "s_max_i32") \
	X(S_MAX_U32, "s_max_u32") X(S_CSELECT_B32, "s_cselect_b32") \
	X(S_CSELECT_B64, "s_cselect_b64") X(S_AND_B32, "s_and_b32") X(S_AND_B64, "s_and_b64") \
	X(S_OR_B32, "s_or_b32") X(S_OR_B64, "s_or_b64") X(S_XOR_B32, "s_xor_b32") \
	X(S_XOR_B64, "s_xor_b64") X(S_ANDN2_B32, "s_andn2_b32") X(S_ANDN2_B64, "s_andn2_b64") \
	X(S_ORN2_B32, "s_orn2_b32") X(S_ORN2_B64, "s_orn2_b64") X(S_NAND_B64, "s_nand_b64") \
	X(S_NOR_B64, "s_nor_b64") X(S_XNOR_B64, "s_xnor_b64") \
	X(S_LSHL_B32, "s_lshl_b32") X(S_LSHL_B64, "s_lshl_b64") X(S_LSHR_B32, "s_lshr_b32") \
	X(S_LSHR_B64, "s_lshr_b64") X(S_ASHR_I32, "s_ashr_i32") X(S_ASHR_I64, "s_ashr_i64") \
	X(S_BFE_U32, "s_bfe_u32") X(S_BFE_I32, "s_bfe_i32") X(S_BFE_U64, "s_bfe_u64") \
	X(S_BFM_B32, "s_bfm_b32") X(S_MUL_I32, "s_mul_i32") X(S_MUL_HI_U32, "s_mul_hi_u32") \
	X(S_LSHL1_ADD_U32, "s_lshl1_add_u32") X(S_LSHL2_ADD_U32, "s_lshl2_add_u32") \
	X(S_LSHL3_ADD_U32, "s_lshl3_add_u32") X(S_LSHL4_ADD_U32, "s_lshl4_add_u32") \
	X(S_ABSDIFF_I32, "s_absdiff_i32") X(S_PACK_LL_B32_B16, "s_pack_ll_b32_b16") \
	X(S_CMP_EQ_I32, "s_cmp_eq_i32") X(S_CMP_LG_I32, "s_cmp_lg_i32") \
	X(S_CMP_GT_I32, "s_cmp_gt_i32") X(S_CMP_GE_I32, "s_cmp_ge_i32") \
	X(S_CMP_LT_I32, "s_cmp_lt_i32") X(S_CMP_LE_I32, "s_cmp_le_i32") \
	X(S_CMP_EQ_U32, "s_cmp_eq_u32") X(S_CMP_LG_U32, "s_cmp_lg_u32") \
	X(S_CMP_GT_U32, "s_cmp_gt_u32") X(S_CMP_GE_U32, "s_cmp_ge_u32") \
	X(S_CMP_LT_U32, "s_cmp_lt_u32") X(S_CMP_LE_U32, "s_cmp_le_u32") \
	X(S_CMP_EQ_U64, "s_cmp_eq_u64") X(S_CMP_LG_U64, "s_cmp_lg_u64") \
	X(S_BITCMP0_B32, "s_bitcmp0_b32") X(S_BITCMP1_B32, "s_bitcmp1_b32") \
	X(S_CMPK_EQ_I32, "s_cmpk_eq_i32") X(S_CMPK_LG_I32, "s_cmpk_lg_i32") \
	X(S_CMPK_GT_I32, "s_cmpk_gt_i32") X(S_CMPK_GE_I32, "s_cmpk_ge_i32") \
	X(S_CMPK_LT_I32, "s_cmpk_lt_i32") X(S_CMPK_LE_I32, "s_cmpk_le_i32") \
	X(S_CMPK_EQ_U32, "s_cmpk_eq_u32") X(S_CMPK_LG_U32, "s_cmpk_lg_u32") \
	X(S_CMPK_GT_U32, "s_cmpk_gt_u32") X(S_CMPK_GE_U32, "s_cmpk_ge_u32") \
	X(S_CMPK_LT_U32, "s_cmpk_lt_u32") X(S_CMPK_LE_U32, "s_cmpk_le_u32") \
	X(S_ADDK_I32, "s_addk_i32") X(S_MULK_I32, "s_mulk_i32") \
	X(S_LOAD_DWORD, "s_load_dword") X(S_LOAD_DWORDX2, "s_load_dwordx2") \
	X(S_LOAD_DWORDX4, "s_load_dwordx4") X(S_LOAD_DWORDX8, "s_load_dwordx8") \
	X(S_LOAD_DWORDX16, "s_load_dwordx16") X(S_BUFFER_LOAD_DWORD, "s_buffer_load_dword") \
	X(S_BUFFER_LOAD_DWORDX2, "s_buffer_load_dwordx2") \
	X(S_BUFFER_LOAD_DWORDX4, "s_buffer_load_dwordx4") \
	X(S_BUFFER_LOAD_DWORDX8, "s_buffer_load_dwordx8") \
	X(S_BUFFER_LOAD_DWORDX16, "s_buffer_load_dwordx16") \
	X(V_NOP, "v_nop") X(V_MOV_B32, "v_mov_b32") X(V_READFIRSTLANE_B32, "v_readfirstlane_b32") \
	X(V_READLANE_B32, "v_readlane_b32") X(V_WRITELANE_B32, "v_writelane_b32") \
	X(V_NOT_B32, "v_not_b32") X(V_BFREV_B32, "v_bfrev_b32") X(V_FFBH_U32, "v_ffbh_u32") \
	X(V_FFBL_B32, "v_ffbl_b32") X(V_CVT_F32_I32, "v_cvt_f32_i32") \
	X(V_CVT_F32_U32, "v_cvt_f32_u32") X(V_CVT_U32_F32, "v_cvt_u32_f32") \
	X(V_CVT_I32_F32, "v_cvt_i32_f32") X(V_RCP_F32, "v_rcp_f32") \
	X(V_RCP_IFLAG_F32, "v_rcp_iflag_f32") X(V_SQRT_F32, "v_sqrt_f32") \
	X(V_TRUNC_F32, "v_trunc_f32") X(V_FLOOR_F32, "v_floor_f32") \
	X(V_PK_MOV_B32, "v_pk_mov_b32") X(V_PK_ADD_F32, "v_pk_add_f32") \
	X(V_PK_MUL_F32, "v_pk_mul_f32") X(V_PK_FMA_F32, "v_pk_fma_f32") \
	X(V_ACCVGPR_READ_B32, "v_accvgpr_read_b32") X(V_ACCVGPR_WRITE_B32, "v_accvgpr_write_b32") \
	/* gfx942's own (shader_family.c): keep these four together */ \
	X(V_MOV_B64, "v_mov_b64") X(V_LSHL_ADD_U64, "v_lshl_add_u64") \
	X(V_FMAMK_F32, "v_fmamk_f32") X(V_FMAAK_F32, "v_fmaak_f32") \
	/* gfx1030's own (shader_family.c): keep these together, up to S_GL1_INV */ \
	X(S_AND_SAVEEXEC_B32, "s_and_saveexec_b32") X(S_OR_SAVEEXEC_B32, "s_or_saveexec_b32") \
	X(S_XOR_SAVEEXEC_B32, "s_xor_saveexec_b32") \
	X(S_ANDN2_SAVEEXEC_B32, "s_andn2_saveexec_b32") \
	X(S_ORN2_SAVEEXEC_B32, "s_orn2_saveexec_b32") \
	X(S_WAITCNT_VSCNT, "s_waitcnt_vscnt") X(S_CLAUSE, "s_clause") \
	X(S_INST_PREFETCH, "s_inst_prefetch") X(BUFFER_GL0_INV, "buffer_gl0_inv") \
	X(BUFFER_GL1_INV, "buffer_gl1_inv") X(S_GL1_INV, "s_gl1_inv") \
	X(V_CNDMASK_B32, "v_cndmask_b32") X(V_ADD_F32, "v_add_f32") X(V_SUB_F32, "v_sub_f32") \
	X(V_SUBREV_F32, "v_subrev_f32") X(V_MUL_F32, "v_mul_f32") X(V_MIN_F32, "v_min_f32") \
	X(V_MAX_F32, "v_max_f32") X(V_MAC_F32, "v_mac_f32") X(V_FMAC_F32, "v_fmac_f32") \
	X(V_MAD_F32, "v_mad_f32") X(V_FMA_F32, "v_fma_f32") \
	X(V_MUL_I32_I24, "v_mul_i32_i24") X(V_MUL_U32_U24, "v_mul_u32_u24") \
	X(V_MIN_I32, "v_min_i32") X(V_MAX_I32, "v_max_i32") X(V_MIN_U32, "v_min_u32") \
	X(V_MAX_U32, "v_max_u32") X(V_LSHRREV_B32, "v_lshrrev_b32") \
	X(V_ASHRREV_I32, "v_ashrrev_i32") X(V_LSHLREV_B32, "v_lshlrev_b32") \
	X(V_AND_B32, "v_and_b32") X(V_OR_B32, "v_or_b32") X(V_XOR_B32, "v_xor_b32") \
	X(V_ADD_U32, "v_add_u32") X(V_SUB_U32, "v_sub_u32") X(V_SUBREV_U32, "v_subrev_u32") \
	X(V_ADD_CO_U32, "v_add_co_u32") X(V_SUB_CO_U32, "v_sub_co_u32") \
	X(V_SUBREV_CO_U32, "v_subrev_co_u32") X(V_ADDC_CO_U32, "v_addc_co_u32") \
	X(V_SUBB_CO_U32, "v_subb_co_u32") X(V_SUBBREV_CO_U32, "v_subbrev_co_u32") \
	X(V_MUL_LO_U32, "v_mul_lo_u32") X(V_MUL_HI_U32, "v_mul_hi_u32") \
	X(V_MUL_HI_I32, "v_mul_hi_i32") X(V_MAD_U32_U24, "v_mad_u32_u24") \
	X(V_MAD_U64_U32, "v_mad_u64_u32") X(V_BFE_U32, "v_bfe_u32") X(V_BFE_I32, "v_bfe_i32") \
	X(V_BFI_B32, "v_bfi_b32") X(V_ALIGNBIT_B32, "v_alignbit_b32") \
	X(V_LSHL_ADD_U32, "v_lshl_add_u32") X(V_ADD_LSHL_U32, "v_add_lshl_u32") \
	X(V_ADD3_U32, "v_add3_u32") X(V_LSHL_OR_B32, "v_lshl_or_b32") \
	X(V_AND_OR_B32, "v_and_or_b32") X(V_OR3_B32, "v_or3_b32") \
	X(V_LSHLREV_B64, "v_lshlrev_b64") X(V_LSHRREV_B64, "v_lshrrev_b64") \
	X(V_ASHRREV_I64, "v_ashrrev_i64") X(V_MBCNT_LO_U32_B32, "v_mbcnt_lo_u32_b32") \
	X(V_MBCNT_HI_U32_B32, "v_mbcnt_hi_u32_b32") \
	X(V_CMP_F_I32, "v_cmp_f_i32") X(V_CMP_LT_I32, "v_cmp_lt_i32") \
	X(V_CMP_EQ_I32, "v_cmp_eq_i32") X(V_CMP_LE_I32, "v_cmp_le_i32") \
	X(V_CMP_GT_I32, "v_cmp_gt_i32") X(V_CMP_NE_I32, "v_cmp_ne_i32") \
	X(V_CMP_GE_I32, "v_cmp_ge_i32") X(V_CMP_T_I32, "v_cmp_t_i32") \
	X(V_CMP_F_U32, "v_cmp_f_u32") X(V_CMP_LT_U32, "v_cmp_lt_u32") \
	X(V_CMP_EQ_U32, "v_cmp_eq_u32") X(V_CMP_LE_U32, "v_cmp_le_u32") \
	X(V_CMP_GT_U32, "v_cmp_gt_u32") X(V_CMP_NE_U32, "v_cmp_ne_u32") \
	X(V_CMP_GE_U32, "v_cmp_ge_u32") X(V_CMP_T_U32, "v_cmp_t_u32") \
	X(V_CMP_LT_I64, "v_cmp_lt_i64") X(V_CMP_EQ_I64, "v_cmp_eq_i64") \
	X(V_CMP_LE_I64, "v_cmp_le_i64") X(V_CMP_GT_I64, "v_cmp_gt_i64") \
	X(V_CMP_NE_I64, "v_cmp_ne_i64") X(V_CMP_GE_I64, "v_cmp_ge_i64") \
	X(V_CMP_LT_U64, "v_cmp_lt_u64") X(V_CMP_EQ_U64, "v_cmp_eq_u64") \
	X(V_CMP_LE_U64, "v_cmp_le_u64") X(V_CMP_GT_U64, "v_cmp_gt_u64") \
	X(V_CMP_NE_U64, "v_cmp_ne_u64") X(V_CMP_GE_U64, "v_cmp_ge_u64") \
	X(V_CMP_LT_F32, "v_cmp_lt_f32") X(V_CMP_EQ_F32, "v_cmp_eq_f32") \
	X(V_CMP_LE_F32, "v_cmp_le_f32") X(V_CMP_GT_F32, "v_cmp_gt_f32") \
	X(V_CMP_LG_F32, "v_cmp_lg_f32") X(V_CMP_GE_F32, "v_cmp_ge_f32") \
	X(V_CMP_NEQ_F32, "v_cmp_neq_f32") X(V_CMP_NLT_F32, "v_cmp_nlt_f32") \
	X(V_CMP_NGT_F32, "v_cmp_ngt_f32") X(V_CMP_O_F32, "v_cmp_o_f32") \
	X(V_CMP_U_F32, "v_cmp_u_f32") \
	X(GLOBAL_LOAD_UBYTE, "load_ubyte") X(GLOBAL_LOAD_SBYTE, "load_sbyte") \
	X(GLOBAL_LOAD_USHORT, "load_ushort") X(GLOBAL_LOAD_SSHORT, "load_sshort") \
	X(GLOBAL_LOAD_DWORD, "load_dword") X(GLOBAL_LOAD_DWORDX2, "load_dwordx2") \
	X(GLOBAL_LOAD_DWORDX3, "load_dwordx3") X(GLOBAL_LOAD_DWORDX4, "load_dwordx4") \
	X(GLOBAL_STORE_BYTE, "store_byte") X(GLOBAL_STORE_SHORT, "store_short") \
	X(GLOBAL_STORE_DWORD, "store_dword") X(GLOBAL_STORE_DWORDX2, "store_dwordx2") \
	X(GLOBAL_STORE_DWORDX3, "store_dwordx3") X(GLOBAL_STORE_DWORDX4, "store_dwordx4") \
	X(GLOBAL_ATOMIC_ADD, "atomic_add") X(GLOBAL_ATOMIC_SUB, "atomic_sub") \
	X(GLOBAL_ATOMIC_SWAP, "atomic_swap") X(GLOBAL_ATOMIC_CMPSWAP, "atomic_cmpswap") \
	X(GLOBAL_ATOMIC_UMAX, "atomic_umax") X(GLOBAL_ATOMIC_UMIN, "atomic_umin") \
	X(GLOBAL_ATOMIC_SMAX, "atomic_smax") X(GLOBAL_ATOMIC_SMIN, "atomic_smin") \
	X(GLOBAL_ATOMIC_AND, "atomic_and") X(GLOBAL_ATOMIC_OR, "atomic_or") \
	X(GLOBAL_ATOMIC_XOR, "atomic_xor") X(GLOBAL_ATOMIC_INC, "atomic_inc") \
	X(GLOBAL_ATOMIC_DEC, "atomic_dec") X(GLOBAL_ATOMIC_ADD_X2, "atomic_add_x2") \
	X(GLOBAL_ATOMIC_ADD_F32, "atomic_add_f32") \
	X(BUFFER_LOAD_UBYTE, "buffer_load_ubyte") X(BUFFER_LOAD_USHORT, "buffer_load_ushort") \
	X(BUFFER_LOAD_DWORD, "buffer_load_dword") X(BUFFER_LOAD_DWORDX2, "buffer_load_dwordx2") \
	X(BUFFER_LOAD_DWORDX3, "buffer_load_dwordx3") X(BUFFER_LOAD_DWORDX4, "buffer_load_dwordx4") \
	X(BUFFER_STORE_BYTE, "buffer_store_byte") X(BUFFER_STORE_SHORT, "buffer_store_short") \
	X(BUFFER_STORE_DWORD, "buffer_store_dword") \
	X(BUFFER_STORE_DWORDX2, "buffer_store_dwordx2") \
	X(BUFFER_STORE_DWORDX3, "buffer_store_dwordx3") \
	X(BUFFER_STORE_DWORDX4, "buffer_store_dwordx4") \
	X(DS_ADD_U32, "ds_add_u32") X(DS_ADD_RTN_U32, "ds_add_rtn_u32") \
	X(DS_ADD_F32, "ds_add_f32") X(DS_ADD_RTN_F32, "ds_add_rtn_f32") \
	X(DS_WRITE_B32, "ds_write_b32") X(DS_WRITE_B64, "ds_write_b64") \
	X(DS_WRITE_B128, "ds_write_b128") X(DS_WRITE2_B32, "ds_write2_b32") \
	X(DS_WRITE2_B64, "ds_write2_b64") X(DS_READ_B32, "ds_read_b32") \
	X(DS_READ_B64, "ds_read_b64") X(DS_READ_B128, "ds_read_b128") \
	X(DS_READ2_B32, "ds_read2_b32") X(DS_READ2_B64, "ds_read2_b64") \
	X(DS_WRITE_B8, "ds_write_b8") X(DS_WRITE_B16, "ds_write_b16") \
	X(DS_READ_U8, "ds_read_u8") X(DS_READ_U16, "ds_read_u16") X(DS_NOP, "ds_nop") \
	SH_OPS_GWS(X) \
	X(S_STORE_DWORD, "s_store_dword") X(S_STORE_DWORDX2, "s_store_dwordx2") \
	X(S_STORE_DWORDX4, "s_store_dwordx4") \
	/* gfx10's d16 loads (shader_gfx10.c): SH_OP_GFX10_FIRST to \
	 * _LAST, keep together */ \
	X(GLOBAL_LOAD_UBYTE_D16, "load_ubyte_d16") \
	X(GLOBAL_LOAD_UBYTE_D16_HI, "load_ubyte_d16_hi") \
	X(GLOBAL_LOAD_SBYTE_D16, "load_sbyte_d16") \
	X(GLOBAL_LOAD_SBYTE_D16_HI, "load_sbyte_d16_hi") \
	X(GLOBAL_LOAD_SHORT_D16, "load_short_d16") \
	X(GLOBAL_LOAD_SHORT_D16_HI, "load_short_d16_hi") \
	/* gfx10's own VALU rows (shader_gfx10.c), sh_valu() hands them on */ \
	X(V_XOR3_B32, "v_xor3_b32") X(V_FMAC_F16, "v_fmac_f16") \
	SH_OPS_DOT(X) \
	SH_OPS_SYS(X) SH_OPS_XV(X) SH_OPS_XDS(X) SH_OPS_DS64(X) SH_OPS_TRAP(X)

/* shader_sys.c's rows, SH_OP_S_SENDMSG up to SH_OP_BUFFER_WBINVL1_VOL;
 * then the 64-bit compare-swap of shader_mem.c that hostcalls use. */
#define SH_OPS_SYS(X) \
	X(S_SENDMSG, "s_sendmsg") X(S_SENDMSGHALT, "s_sendmsghalt") X(S_TRAP, "s_trap") \
	X(S_MEMTIME, "s_memtime") X(S_MEMREALTIME, "s_memrealtime") \
	X(S_GETREG_B32, "s_getreg_b32") X(S_ICACHE_INV, "s_icache_inv") \
	X(S_TTRACEDATA, "s_ttracedata") X(BUFFER_WBL2, "buffer_wbl2") \
	X(BUFFER_INVL2, "buffer_invl2") X(BUFFER_WBINVL1, "buffer_wbinvl1") \
	X(BUFFER_WBINVL1_VOL, "buffer_wbinvl1_vol") \
	X(GLOBAL_ATOMIC_CMPSWAP_X2, "atomic_cmpswap_x2")

/*
 * The rocPRIM/rocRAND block (shader_xvalu.c, shader_f64.c, shader_lane.c):
 * one contiguous range of ids, SH_OP_XV_FIRST to SH_OP_XV_LAST, which
 * sh_valu() hands to sh_xvalu() before its own switch.
 */
#define SH_OPS_XV(X) \
	X(V_BCNT_U32_B32, "v_bcnt_u32_b32") X(V_PERM_B32, "v_perm_b32") \
	X(V_XAD_U32, "v_xad_u32") X(V_MUL_HI_U32_U24, "v_mul_hi_u32_u24") \
	X(V_MUL_HI_I32_I24, "v_mul_hi_i32_i24") X(V_BFM_B32, "v_bfm_b32") \
	X(V_MIN3_U32, "v_min3_u32") X(V_MAX3_U32, "v_max3_u32") \
	X(V_MIN3_I32, "v_min3_i32") X(V_MAX3_I32, "v_max3_i32") \
	X(V_CVT_F32_UBYTE0, "v_cvt_f32_ubyte0") X(V_CVT_F32_UBYTE1, "v_cvt_f32_ubyte1") \
	X(V_CVT_F32_UBYTE2, "v_cvt_f32_ubyte2") X(V_CVT_F32_UBYTE3, "v_cvt_f32_ubyte3") \
	X(V_ADD_U16, "v_add_u16") X(V_SUB_U16, "v_sub_u16") X(V_SUBREV_U16, "v_subrev_u16") \
	X(V_MUL_LO_U16, "v_mul_lo_u16") X(V_LSHLREV_B16, "v_lshlrev_b16") \
	X(V_LSHRREV_B16, "v_lshrrev_b16") X(V_ASHRREV_I16, "v_ashrrev_i16") \
	X(V_MIN_U16, "v_min_u16") X(V_MAX_U16, "v_max_u16") X(V_MIN_I16, "v_min_i16") \
	X(V_MAX_I16, "v_max_i16") \
	X(V_CMP_LT_U16, "v_cmp_lt_u16") X(V_CMP_EQ_U16, "v_cmp_eq_u16") \
	X(V_CMP_LE_U16, "v_cmp_le_u16") X(V_CMP_GT_U16, "v_cmp_gt_u16") \
	X(V_CMP_NE_U16, "v_cmp_ne_u16") X(V_CMP_GE_U16, "v_cmp_ge_u16") \
	X(V_CMP_LT_I16, "v_cmp_lt_i16") X(V_CMP_EQ_I16, "v_cmp_eq_i16") \
	X(V_CMP_LE_I16, "v_cmp_le_i16") X(V_CMP_GT_I16, "v_cmp_gt_i16") \
	X(V_CMP_NE_I16, "v_cmp_ne_i16") X(V_CMP_GE_I16, "v_cmp_ge_i16") \
	X(V_EXP_F32, "v_exp_f32") X(V_LOG_F32, "v_log_f32") X(V_SIN_F32, "v_sin_f32") \
	X(V_COS_F32, "v_cos_f32") X(V_RSQ_F32, "v_rsq_f32") X(V_RNDNE_F32, "v_rndne_f32") \
	X(V_CEIL_F32, "v_ceil_f32") X(V_FRACT_F32, "v_fract_f32") X(V_LDEXP_F32, "v_ldexp_f32") \
	X(V_FREXP_EXP_I32_F32, "v_frexp_exp_i32_f32") \
	X(V_FREXP_MANT_F32, "v_frexp_mant_f32") X(V_CMP_CLASS_F32, "v_cmp_class_f32") \
	X(V_CVT_F16_F32, "v_cvt_f16_f32") X(V_CVT_F32_F16, "v_cvt_f32_f16") \
	X(V_PACK_B32_F16, "v_pack_b32_f16") X(V_CVT_PKRTZ_F16_F32, "v_cvt_pkrtz_f16_f32") \
	X(V_ADD_F16, "v_add_f16") X(V_SUB_F16, "v_sub_f16") X(V_MUL_F16, "v_mul_f16") \
	X(V_FMA_F16, "v_fma_f16") X(V_SQRT_F16, "v_sqrt_f16") \
	X(V_CMP_CLASS_F16, "v_cmp_class_f16") X(V_PK_FMA_F16, "v_pk_fma_f16") \
	X(V_PK_MUL_F16, "v_pk_mul_f16") X(V_PK_ADD_F16, "v_pk_add_f16") \
	X(V_FMA_MIX_F32, "v_fma_mix_f32") X(V_FMA_MIXLO_F16, "v_fma_mixlo_f16") \
	X(V_FMA_MIXHI_F16, "v_fma_mixhi_f16") \
	X(V_ADD_F64, "v_add_f64") X(V_MUL_F64, "v_mul_f64") X(V_FMA_F64, "v_fma_f64") \
	X(V_FMAC_F64, "v_fmac_f64") X(V_MIN_F64, "v_min_f64") X(V_MAX_F64, "v_max_f64") \
	X(V_LDEXP_F64, "v_ldexp_f64") X(V_DIV_SCALE_F64, "v_div_scale_f64") \
	X(V_DIV_FMAS_F64, "v_div_fmas_f64") X(V_DIV_FIXUP_F64, "v_div_fixup_f64") \
	X(V_RCP_F64, "v_rcp_f64") X(V_RSQ_F64, "v_rsq_f64") X(V_SQRT_F64, "v_sqrt_f64") \
	X(V_FLOOR_F64, "v_floor_f64") X(V_CEIL_F64, "v_ceil_f64") \
	X(V_TRUNC_F64, "v_trunc_f64") X(V_RNDNE_F64, "v_rndne_f64") \
	X(V_FRACT_F64, "v_fract_f64") X(V_FREXP_EXP_I32_F64, "v_frexp_exp_i32_f64") \
	X(V_FREXP_MANT_F64, "v_frexp_mant_f64") X(V_CVT_F32_F64, "v_cvt_f32_f64") \
	X(V_CVT_F64_F32, "v_cvt_f64_f32") X(V_CVT_F64_I32, "v_cvt_f64_i32") \
	X(V_CVT_F64_U32, "v_cvt_f64_u32") X(V_CVT_I32_F64, "v_cvt_i32_f64") \
	X(V_CVT_U32_F64, "v_cvt_u32_f64") \
	X(V_CMP_F_F64, "v_cmp_f_f64") X(V_CMP_LT_F64, "v_cmp_lt_f64") \
	X(V_CMP_EQ_F64, "v_cmp_eq_f64") X(V_CMP_LE_F64, "v_cmp_le_f64") \
	X(V_CMP_GT_F64, "v_cmp_gt_f64") X(V_CMP_LG_F64, "v_cmp_lg_f64") \
	X(V_CMP_GE_F64, "v_cmp_ge_f64") X(V_CMP_O_F64, "v_cmp_o_f64") \
	X(V_CMP_U_F64, "v_cmp_u_f64") X(V_CMP_NGE_F64, "v_cmp_nge_f64") \
	X(V_CMP_NLG_F64, "v_cmp_nlg_f64") X(V_CMP_NGT_F64, "v_cmp_ngt_f64") \
	X(V_CMP_NLE_F64, "v_cmp_nle_f64") X(V_CMP_NEQ_F64, "v_cmp_neq_f64") \
	X(V_CMP_NLT_F64, "v_cmp_nlt_f64") X(V_CMP_TRU_F64, "v_cmp_tru_f64") \
	X(V_CMP_CLASS_F64, "v_cmp_class_f64")
/* Cross-lane and strided DS (shader_lane.c): SH_OP_XDS_FIRST to _LAST;
 * then the FLAT stores of a high half (shader_f16.c). */
#define SH_OPS_XDS(X) \
	X(DS_BPERMUTE_B32, "ds_bpermute_b32") X(DS_PERMUTE_B32, "ds_permute_b32") \
	X(DS_SWIZZLE_B32, "ds_swizzle_b32") X(DS_READ2ST64_B32, "ds_read2st64_b32") \
	X(DS_READ2ST64_B64, "ds_read2st64_b64") X(DS_WRITE2ST64_B32, "ds_write2st64_b32") \
	X(DS_WRITE2ST64_B64, "ds_write2st64_b64") \
	X(GLOBAL_STORE_BYTE_D16_HI, "store_byte_d16_hi") \
	X(GLOBAL_STORE_SHORT_D16_HI, "store_short_d16_hi")
/* The LDS 64-bit atomics of rocSPARSE's kernels (shader_ds64.c). */
#define SH_OPS_DS64(X) \
	X(DS_ADD_F64, "ds_add_f64") X(DS_ADD_RTN_F64, "ds_add_rtn_f64") \
	X(DS_CMPST_RTN_B64, "ds_cmpst_rtn_b64")

/* Global wave sync (shader_gws.c): SH_OP_DS_GWS_INIT to _BARRIER. */
#define SH_OPS_GWS(X) \
	X(DS_GWS_INIT, "ds_gws_init") X(DS_GWS_SEMA_V, "ds_gws_sema_v") \
	X(DS_GWS_SEMA_BR, "ds_gws_sema_br") X(DS_GWS_SEMA_P, "ds_gws_sema_p") \
	X(DS_GWS_BARRIER, "ds_gws_barrier")

/* gfx1030's permutes and dot products (shader_dot.c):
 * SH_OP_GFX10_DOT_FIRST to _LAST, keep together. */
#define SH_OPS_DOT(X) \
	X(V_PERMLANE16_B32, "v_permlane16_b32") X(V_PERMLANEX16_B32, "v_permlanex16_b32") \
	X(V_DOT2_F32_F16, "v_dot2_f32_f16") X(V_DOT2_I32_I16, "v_dot2_i32_i16") \
	X(V_DOT2_U32_U16, "v_dot2_u32_u16") X(V_DOT4_I32_I8, "v_dot4_i32_i8") \
	X(V_DOT4_U32_U8, "v_dot4_u32_u8") X(V_DOT8_I32_I4, "v_dot8_i32_i4") \
	X(V_DOT8_U32_U4, "v_dot8_u32_u4") X(V_DOT2C_F32_F16, "v_dot2c_f32_f16") \
	X(V_DOT4C_I32_I8, "v_dot4c_i32_i8")

/* The trap handler's rows (shader_trap.c): SH_OP_S_RFE_B64 to
 * SH_OP_S_SETREG_B32. */
#define SH_OPS_TRAP(X) \
	X(S_RFE_B64, "s_rfe_b64") X(S_SETREG_B32, "s_setreg_b32")

enum sh_op_id {
	SH_OP_NONE,
#define SH_ENUM(id, name) SH_OP_##id,
	SH_OPS(SH_ENUM)
#undef SH_ENUM
	SH_OP_COUNT,
};

#define SH_OP_XV_FIRST		SH_OP_V_BCNT_U32_B32
#define SH_OP_XV_LAST		SH_OP_V_CMP_CLASS_F64
#define SH_OP_XDS_FIRST		SH_OP_DS_BPERMUTE_B32
#define SH_OP_XDS_LAST		SH_OP_DS_WRITE2ST64_B64
#define SH_OP_GFX10_FIRST	SH_OP_GLOBAL_LOAD_UBYTE_D16
#define SH_OP_GFX10_LAST	SH_OP_GLOBAL_LOAD_SHORT_D16_HI
#define SH_OP_GFX10_VALU_FIRST	SH_OP_V_XOR3_B32
#define SH_OP_GFX10_VALU_LAST	SH_OP_V_FMAC_F16
#define SH_OP_GFX10_DOT_FIRST	SH_OP_V_PERMLANE16_B32
#define SH_OP_GFX10_DOT_LAST	SH_OP_V_DOT4C_I32_I8

/* The outcome of one instruction. */
enum sh_step { SH_NEXT, SH_JUMPED, SH_STOP, SH_FAIL };

/* shader.c */
/* Stop the dispatch: an instruction the model cannot execute. */
enum sh_step sh_illegal(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
			const char *what);
/* Stop the dispatch: a memory access the GPU VM refuses. */
enum sh_step sh_fault(struct sh_ctx *c, struct sh_wave *w, uint64_t va, const char *what);
/* The same for a store or an atomic: a read-only page faults too. */
enum sh_step sh_fault_write(struct sh_ctx *c, struct sh_wave *w, uint64_t va,
			    const char *what);

/* shader_op.c */
uint64_t sh_exec(const struct sh_wave *w);
void sh_set_exec(struct sh_wave *w, uint64_t v);
/* A lane mask at SGPR @idx: a pair, or one SGPR in a wave32 wave. */
uint64_t sh_mask(const struct sh_wave *w, unsigned int idx);
void sh_set_mask(struct sh_wave *w, unsigned int idx, uint64_t v);
uint64_t sh_sreg64(const struct sh_wave *w, unsigned int idx);
void sh_set_sreg64(struct sh_wave *w, unsigned int idx, uint64_t v);
/*
 * A 32-bit source (9-bit field @f: SGPR space, constant, literal, VGPR) of
 * @lane. Return: 0, or -1 for a field the model does not read.
 */
int sh_src32(const struct sh_wave *w, const struct sh_insn *i, unsigned int f,
	     unsigned int lane, uint32_t *v);
/* The same, 64 bits; @fp: the operand is a double (constants differ). */
int sh_src64(const struct sh_wave *w, const struct sh_insn *i, unsigned int f,
	     unsigned int lane, int fp, uint64_t *v);
/*
 * The 64 lanes of 32-bit source field @f, resolved once per instruction
 * rather than per lane: a VGPR's row, or @tmp filled with the scalar.
 * Return: the row, or NULL for a field the model does not read.
 */
const uint32_t *sh_row32(const struct sh_wave *w, const struct sh_insn *i, unsigned int f,
			 uint32_t tmp[SH_LANES]);

/* The operand fields of a vector instruction, whatever its encoding. */
struct sh_vop {
	unsigned int vdst;	/* VGPR, or the SGPR of a scalar result */
	unsigned int sdst;	/* carry-out / compare mask: SGPR pair */
	unsigned int src[3];	/* 9-bit fields, or SH_SRC_XS + k */
	unsigned int cin;	/* carry-in / lane mask: SGPR pair */
	unsigned int abs, neg, clamp;
	unsigned int nsrc;
	unsigned int omod;	/* output modifier: 0, *2, *4, /2 */
};

/* shader_dpp.c */
/* Run a DPP or SDWA form: move or select the sources, run the row, then
 * mask or merge what it wrote. */
enum sh_step sh_xform(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* The fields of a DPP or SDWA form (sources at SH_SRC_XS). Return: 0. */
int sh_xform_fields(const struct sh_insn *i, struct sh_vop *o);

/* shader_xvalu.c, shader_f64.c: the SH_OP_XV_FIRST.._LAST rows */
enum sh_step sh_xvalu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		      const struct sh_vop *o);
/*
 * shader_xvalu.c: the class mask of a float of @exp_bits and @man_bits
 * (v_cmp_class): bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
 * 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
 */
uint32_t sh_fclass(uint64_t v, unsigned int exp_bits, unsigned int man_bits);
/* shader_f64.c: the double-precision rows of that block (1 when @id is). */
int sh_f64_row(unsigned int id);
enum sh_step sh_f64(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		    const struct sh_vop *o);

/* shader_f16.c: the half-precision rows of the block (1 when @id is one),
 * their VOP3P forms, and the FLAT stores of a high half. */
int sh_f16_row(unsigned int id);
enum sh_step sh_f16(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		    const struct sh_vop *o);
enum sh_step sh_f16_vop3p(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
enum sh_step sh_store_d16_hi(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);

/* shader_lane.c: the SH_OP_XDS_FIRST.._LAST rows */
enum sh_step sh_ds_lane(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* shader_ds64.c: the SH_OPS_DS64 rows (1 when @id is one), and their step. */
int sh_ds64_row(unsigned int id);
enum sh_step sh_ds64(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);

/* shader_gws.c: the GWS rows, on the resources of the queue's process */
static inline int
sh_gws_op(unsigned int id)
{
	return id >= SH_OP_DS_GWS_INIT && id <= SH_OP_DS_GWS_BARRIER;
}
enum sh_step sh_gws(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* Fail the dispatch: every wave left of the group waits on GWS, and the
 * waves that could release them run later. Return: -1. */
int sh_gws_stuck(struct sh_ctx *c);

/* shader_salu.c */
enum sh_step sh_salu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* shader_valu.c */
enum sh_step sh_valu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* shader_family.c */
/* The decoder's family of a GPU (sysfs gfx_target_version). Return: 0, or
 * -1 when the interpreter does not run that family. */
int sh_family_of(uint32_t gfx_target_version, enum kfd_isa_family *isa);
/* 1 for the rows of one family only (SH_OP_V_MOV_B64..SH_OP_S_GL1_INV). */
int sh_family_op(unsigned int id);
/* Execute one of those rows. */
enum sh_step sh_family_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/*
 * The name under which the interpreter implements the row @mnemonic of
 * @isa (gfx10 renamed some, and its v_cmpx rows run as v_cmp ones): the
 * mnemonic itself, or @buf filled. NULL: none.
 */
const char *sh_family_name(enum kfd_isa_family isa, const char *mnemonic, char *buf,
			   size_t n);
/* 1 for gfx10's encodings (fields moved from gfx9's). */
static inline int sh_gen10(const struct sh_ctx *c)
{
	return c->family == KFD_ISA_GFX1030;
}
/* shader_mem.c */
enum sh_step sh_mem(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* shader_lanes.c */
/*
 * The 32-bit VALU opcodes whose result is a function of their three
 * sources alone, one tight loop over the lanes of @exec: @dst[l] from
 * @a[l], @b[l], @d[l] (@dst may be one of them). The per-lane switch of
 * sh_valu() takes every other opcode.
 * Return: 1 when @id is one of them and @dst is written, else 0.
 */
int sh_lanes32(unsigned int id, uint64_t exec, const uint32_t *a, const uint32_t *b,
	       const uint32_t *d, uint32_t *dst);
/*
 * The same for the opcodes with a lane mask in (@cin) or a carry out:
 * the carry-out mask of the active lanes in *@carry (v_cndmask_b32: 0).
 */
int sh_lanes32_carry(unsigned int id, uint64_t exec, const uint32_t *a, const uint32_t *b,
		     uint64_t cin, uint32_t *dst, uint64_t *carry);
/*
 * The 32-bit integer and float compares: the mask of the lanes of @exec
 * whose condition holds, in *@mask. Return: 1 when @id is one, else 0.
 */
int sh_cmp32(unsigned int id, uint64_t exec, const uint32_t *a, const uint32_t *b,
	     uint64_t *mask);
/* 64 zeros: the row of a source an instruction does not have. */
extern const uint32_t sh_zero_row[SH_LANES];

/* shader_f16.c: f16 bits to float (exact); a double to f16 bits,
 * rounded to nearest even */
float sh_h2f(uint16_t h);
uint16_t sh_f2h(double d);

/* shader_sys.c */
/* 1 when shader_sys.c executes the row @id. */
static inline int
sh_sys_op(unsigned int id)
{
	return id >= SH_OP_S_SENDMSG && id <= SH_OP_BUFFER_WBINVL1_VOL;
}
enum sh_step sh_sys(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/*
 * The 64-bit compare-and-swap at @va (@data: the new value, then the one
 * compared), atomic to the host's CPUs where they share the memory.
 * *@old gets the value before. Return: 0, or -1 if @va is not mapped.
 */
int sh_cmpswap_x2(struct sh_ctx *c, uint64_t va, const uint32_t *data, uint64_t *old);
/* s_sleep: the wave waits, and the dispatch yields to the host. */
enum sh_step sh_sleep(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);

/* shader_trap.c */
/* TRAPSTS bits a trap sets */
#define SH_TRAPSTS_WAVE_START	(1u << 23)
#define SH_TRAPSTS_WAVE_END	(1u << 24)
/* 1 when shader_trap.c executes the row @id. */
static inline int
sh_trap_op(unsigned int id)
{
	return id >= SH_OP_S_RFE_B64 && id <= SH_OP_S_SETREG_B32;
}
enum sh_step sh_trap_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* SQ_WAVE_STATUS of @w: SCC, EXECZ, VCCZ, PRIV, TRAP_EN. */
uint32_t sh_status(const struct sh_wave *w);
/*
 * 1 when the wave's process runs a second-level trap handler (tba/tma of
 * SET_TRAP_HANDLER) for its traps: a debugger enabled traps on it, since
 * the model does not run the runtime's own handler (shader_sys.c).
 */
int sh_trap_handler(const struct sh_ctx *c);
/* 1 when a debugger enabled traps on the wave's process. */
int sh_trap_debugged(const struct sh_ctx *c);
/*
 * s_trap @tid under a debugger with no second-level handler: the
 * first-level one reports EC_QUEUE_WAVE_TRAP on the queue and halts the
 * wave (the dispatch never ends).
 */
enum sh_step sh_trap_halt(struct sh_ctx *c, struct sh_wave *w, unsigned int tid);
/* Enter the second-level handler: trap id @tid, TRAPSTS @why. */
enum sh_step sh_trap_enter(struct sh_ctx *c, struct sh_wave *w, unsigned int tid,
			   uint32_t why);
/* The wave start and end traps of the debugger's launch override:
 * 1 when @w entered the handler (its pc moved), else 0. */
int sh_trap_wave_start(struct sh_ctx *c, struct sh_wave *w);
int sh_trap_wave_end(struct sh_ctx *c, struct sh_wave *w);
/*
 * The float exceptions (TRAPSTS.EXCP bits: invalid, -, divide by zero,
 * overflow, underflow, inexact) the debugger's override traps on, for a
 * dispatch starting; 0 for none.
 */
uint32_t sh_trap_math_mask(const struct sh_ctx *c);
/* Around a vector instruction @i when c->math_traps: 1 when begun (the
 * host's IEEE flags cleared); then the trap its exceptions raise, after
 * its step @s. */
int sh_trap_math_begin(struct sh_ctx *c, const struct sh_insn *i);
enum sh_step sh_trap_math_end(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
			      enum sh_step s);
/* shader_pcs.c */
/*
 * At the start of a turn of the dispatch of packet @packet_index: whether
 * a started host-trap session samples its waves, and how often.
 */
void sh_pcs_turn(struct sh_ctx *c, uint64_t packet_index);
/*
 * When c->pcs_interval and c->executed reached c->pcs_check: 1 when the
 * sampler's host trap sent @w into its trap handler (its pc moved).
 */
int sh_pcs_poll(struct sh_ctx *c, struct sh_wave *w);
/* s_sendmsg @msg (MSG_GET_DOORBELL, MSG_INTERRUPT) from the handler. */
enum sh_step sh_trap_sendmsg(struct sh_ctx *c, struct sh_wave *w, unsigned int msg);
/*
 * The address watch points the active lanes' accesses at @va hit (@kind:
 * 0 a load, 1 a store, 2 an atomic), kept in @w->watch_hit when the
 * debugger's override enables the address-watch trap.
 */
void sh_trap_watch(struct sh_ctx *c, struct sh_wave *w, const uint64_t *va, uint64_t exec,
		   int kind);
/* After a memory instruction @s: the watch trap it hit, taken once the
 * access is done (precisely, at the next instruction). */
enum sh_step sh_trap_after_mem(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
			       enum sh_step s);
/*
 * The host rounding mode (fesetround()) for MODE's f32 rounding field, or
 * -1 for round to nearest even (nothing to set).
 */
int sh_mode_round(uint32_t mode);
/* s_getreg_b32 of TRAPSTS and MODE: 0 and *@v, or -1 for another. */
int sh_trap_getreg(const struct sh_wave *w, unsigned int id, uint32_t *v);
/* shader_gfx10.c */
/* 1 for gfx10's DPP8 form: src0 233 or 234 (fetch inactive). */
static inline int
sh_dpp8(const struct kfd_isa_fields *f)
{
	unsigned int src0 = f->words[0] & 0x1ff;

	return f->form == KFD_ISA_FORM_DPP && (src0 == 233 || src0 == 234);
}
/* 1 when @id is a d16 load (SH_OP_GFX10_FIRST to _LAST), with the bytes
 * and sign of what it loads; else 0. */
int sh_gfx10_d16(unsigned int id, unsigned int *bytes, int *sign);
/* The VGPR @old once the d16 load @id put the loaded @v into one half. */
uint32_t sh_gfx10_d16_merge(unsigned int id, uint32_t old, uint32_t v);
/* The rows SH_OP_GFX10_FIRST to _LAST: gfx10's d16 loads. */
enum sh_step sh_gfx10_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* gfx10's s_setreg_b32 of FLAT_SCR_LO or _HI (hwreg @id 20 or 21). */
enum sh_step sh_gfx10_setreg(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/* 1 for a gfx10 hwreg id sh_gfx10_setreg() writes. */
static inline int
sh_gfx10_flat_scr(const struct sh_ctx *c, unsigned int id)
{
	return sh_gen10(c) && (id == 20 || id == 21);
}
/* shader_dot.c: SH_OP_GFX10_DOT_FIRST to _LAST; @o is unused on VOP3P. */
enum sh_step sh_dot_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
			 const struct sh_vop *o);
/* SH_OP_GFX10_VALU_FIRST to _LAST, with @o's operand fields (sh_valu()). */
enum sh_step sh_gfx10_valu(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
			   const struct sh_vop *o);

/* shader_scratch.c */
/*
 * Set up the dispatch's private memory from the queue's scratch fields
 * (amd_queue_t) for a per-lane size of @private_size bytes and work-groups
 * of up to @waves waves of @lanes lanes.
 * Return: 0; 1 when the queue's scratch is too small (the CP asked the
 * runtime for more: call again); -1 with the error in @c.
 */
int sh_scratch_setup(struct sh_ctx *c, uint64_t queue_va, uint32_t private_size,
		     unsigned int waves, unsigned int lanes);
/*
 * Wave @n's private-segment buffer and flat-scratch user SGPRs, and its
 * view of the apertures (the src_*_base operands). On gfx942 also its
 * FLAT_SCRATCH, which the CP sets there.
 */
void sh_scratch_wave(const struct sh_ctx *c, struct sh_wave *w, unsigned int n,
		     uint32_t srd[4], uint64_t *flat_scratch, uint32_t *wave_offset);
/* MUBUF through a resource with ADD_TID_ENABLE (the scratch one). */
enum sh_step sh_scratch_mubuf(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i);
/*
 * FLAT with generic addresses in the private or LDS aperture, and SCRATCH
 * instructions: the outcome in *@s. Return: 0; -1 when no lane of a FLAT
 * access is in either aperture (a global access, for the caller).
 */
int sh_scratch_flat(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		    enum sh_step *s);
/* 1 when bits 63:32 @hi of a generic address are an aperture's. */
static inline int
sh_aperture(const struct sh_ctx *c, uint32_t hi)
{
	return hi == c->private_hi || hi == c->shared_hi;
}
/* The process's apertures for the wave: SH_MEM_BASES. */
uint32_t sh_mem_bases(const struct sh_ctx *c);

/*
 * Float results both VALU paths (the whole-wave loops and the per-lane
 * switch) share, so that they agree bit for bit whatever the compiler
 * does with each. Kernels run in IEEE mode (the kernel descriptor's
 * default): per the MI200 ISA's MODE.IEEE, signalling NaN inputs are
 * quieted and propagated, and min and max are IEEE 754-2008's minNum
 * and maxNum.
 */
static inline int
sh_fisnan(uint32_t v)
{
	return (v & 0x7fffffffu) > 0x7f800000u;
}

/*
 * The NaN @r carries when it is one: IEEE 754 leaves open which input
 * NaN a result takes, and a compiler may commute the operands of a sum
 * or product (a vectorized loop often does). Here the first NaN of @x,
 * @y, @z in source order, quieted; @r itself when no input is a NaN.
 */
static inline uint32_t
sh_fnan_in(uint32_t r, uint32_t x, uint32_t y, uint32_t z)
{
	if (!sh_fisnan(r))
		return r;
	if (sh_fisnan(x))
		return x | 0x400000u;
	if (sh_fisnan(y))
		return y | 0x400000u;
	if (sh_fisnan(z))
		return z | 0x400000u;
	return r;
}

/*
 * minNum (@max 0) or maxNum (@max 1): a signalling NaN quieted (src0's
 * first), a quiet NaN gives the other operand; -0 is taken as below +0
 * (C leaves that to the build).
 */
static inline uint32_t
sh_fminmax32(uint32_t x, uint32_t y, int max)
{
	float a, b;

	if (sh_fisnan(x) && !(x & 0x400000u))
		return x | 0x400000u;
	if (sh_fisnan(y) && !(y & 0x400000u))
		return y | 0x400000u;
	if (sh_fisnan(x))
		return y;
	if (sh_fisnan(y))
		return x;
	__builtin_memcpy(&a, &x, 4);
	__builtin_memcpy(&b, &y, 4);
	if (a == b)	/* equal, or zeros of either sign: x is -0 or not */
		return !(x & 0x80000000u) == !max ? y : x;
	return (max ? a > b : a < b) ? x : y;
}

static inline uint32_t sh_fmin32(uint32_t x, uint32_t y) { return sh_fminmax32(x, y, 0); }
static inline uint32_t sh_fmax32(uint32_t x, uint32_t y) { return sh_fminmax32(x, y, 1); }

/* shader.c, for cp_aql.c */
/* 1 when the GPU of @cq has an interpreter for its family, else 0. */
int sh_family_runs(struct ksim_cp *cp, struct ksim_cpq *cq);

/* Why a dispatch stopped, for the queue error. */
struct sh_result {
	int ec;				/* KFD_ABI_EC_*; 0: none */
	uint32_t code;			/* queue-inactive error bits */
	uint64_t detail;		/* the pc or the address */
	char why[320];
	int write;			/* a fault: the access stored */
	uint64_t executed;		/* wave instructions */
	uint64_t turn_end;		/* where this turn of the dispatch ends */
	uint64_t lanes;			/* lane instructions */
};

/*
 * Run the kernel dispatch packet @pkt (at GPU VA @packet_va, its queue's
 * amd_queue_t at @queue_va, dispatch id @id) to completion.
 * Return: 0; 1 when it waits (a wave waits for the host, the queue's
 * scratch is being grown, or another queue's dispatch waits): call again
 * with the same packet; -1 with the error in @res.
 */
int sh_dispatch(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt,
		uint64_t packet_va, uint64_t queue_va, uint64_t id, struct sh_result *res);

/*
 * What starts the waves of a dispatch, from either source: an AQL packet
 * and its kernel descriptor (sh_dispatch()), or a PM4 queue's compute
 * registers (sh_dispatch_pm4()).
 */
struct sh_dispatch {
	uint16_t wg[3];			/* work-group size, work-items */
	uint32_t grid[3];		/* grid size, work-items */
	uint32_t private_size, group_size;
	uint64_t kobj, kernarg, packet_va, queue_va, id;
	uint32_t rsrc2, props;		/* props: the descriptor's user-SGPR
					 * enables (0 for PM4) */
	uint64_t entry;
	uint32_t nwg[3];		/* work-groups */
	uint32_t start[3];		/* added to the work-group ids */
	/* PM4: the user SGPRs as written (COMPUTE_USER_DATA_n); NULL: the
	 * descriptor's enables lay them out */
	const uint32_t *user_data;
	unsigned int user_sgprs;
	int wave32;			/* the dispatch asks for 32-lane waves
					 * (gfx10 only; sh_run() decides) */
	/* set by sh_run(): the GPU's family, the waves' size (64 or 32) */
	enum kfd_isa_family family;
	unsigned int lanes;
};

/* Run the waves @d describes to completion; as sh_dispatch(). */
int sh_run(struct ksim_cp *cp, struct ksim_cpq *cq, const struct sh_dispatch *d,
	   struct sh_result *res);

/* shader_pm4.c, for cp_pm4.c */
/*
 * Run the DISPATCH_DIRECT @pkt (dims and initiator) with the compute
 * registers @cq's SET_SH_REG packets left (cq->sh_regs) to completion.
 * Return: 0 (also when the initiator leaves the shader disabled or a
 * dimension is 0: no wave runs), or -1 with the error in @res.
 */
int sh_dispatch_pm4(struct ksim_cp *cp, struct ksim_cpq *cq,
		    const struct kfd_pm4_dispatch_direct *pkt, struct sh_result *res);

#endif /* KSIM_SHADER_PRIV_H */
