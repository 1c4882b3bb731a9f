// SPDX-License-Identifier: MIT
/*
 * gfx908 (CDNA1, MI100) encodings, as a delta of gfx90a's: the facts of
 * AMD's "AMD Instinct MI100" Instruction Set Architecture reference guide,
 * cross-checked against LLVM's disassembler by tests/isa. The formats and
 * the cache bits (glc, slc) are gfx90a's. gfx90a added packed f32 math,
 * v_fmac_f64 and its L2 cache controls; gfx908 has none of them. Its
 * AGPRs serve MFMA alone: no load or store reaches them (gfx90a's acc
 * bit of DS, FLAT and MUBUF is not covered).
 */
#include "isa_table.h"

#define VOP2(o, n, d, a, b, f)	{ ISA_VOP2, o, n, K_STD, d, a, b, 0, f }

/* What gfx908 encodes otherwise than gfx90a. */
static const struct isa_op gfx908_ops[] = {
	/* gfx90a gave this opcode to v_fmac_f64 */
	VOP2(4, "v_mul_legacy_f32", 1, 1, 1, 0),
};

/* What gfx908 lacks of gfx90a. */
static const struct isa_gone gfx908_gone[] = {
	/* packed f32: v_pk_fma_f32, v_pk_mul_f32, v_pk_add_f32, v_pk_mov_b32 */
	{ ISA_VOP3P, 0x30 }, { ISA_VOP3P, 0x31 }, { ISA_VOP3P, 0x32 }, { ISA_VOP3P, 0x33 },
	/* buffer_wbl2 and buffer_invl2 */
	{ ISA_MUBUF, 0x28 }, { ISA_MUBUF, 0x29 },
	/* LDS double adds (gfx90a's): ds_add_f64, ds_add_rtn_f64 */
	{ ISA_DS, 0x5c }, { ISA_DS, 0x7c },
};

const struct isa_table isa_table_gfx908 = {
	.name = "gfx908",
	.ops = gfx908_ops,
	.n_ops = sizeof(gfx908_ops) / sizeof(gfx908_ops[0]),
	.base = &isa_table_gfx90a,
	.gone = gfx908_gone,
	.n_gone = sizeof(gfx908_gone) / sizeof(gfx908_gone[0]),
	.cpol = ISA_CPOL_GLC,
	.no_mem_acc = 1,
};
