// SPDX-License-Identifier: MIT
/*
 * gfx942 (CDNA3) encodings, as a delta of gfx90a's: the facts of AMD's
 * "AMD Instinct MI300" Instruction Set Architecture reference guide
 * (chapter 12, microcode formats), cross-checked against LLVM's
 * disassembler (LLVM 15 as gfx940, whose encodings gfx942 shares) by
 * tests/isa. The formats are gfx90a's (the table names none of its own);
 * FLAT and MUBUF name their cache bits sc0, sc1 and nt. SCRATCH reads
 * its VGPR address only with bit 13 (SVE) set: gfx90a's lds bit.
 */
#include "isa_table.h"

#define VOP2(o, n, d, a, b, f)	{ ISA_VOP2, o, n, K_STD, d, a, b, 0, f }
#define VOP1(o, n, d, a, f)	{ ISA_VOP1, o, n, K_STD, d, a, 0, 0, f }
#define VOP3(o, n, d, a, b, c, f) { ISA_VOP3, o, n, K_STD, d, a, b, c, f }
#define MUBUF(o, n)		{ ISA_MUBUF, o, n, K_NONE, 0, 0, 0, 0, 0 }
#define FLAT(o, n, k, d, a)	{ ISA_FLAT, o, n, k, d, a, 0, 0, 0 }

/* What gfx942 adds to gfx90a, or encodes otherwise. */
static const struct isa_op gfx942_ops[] = {
	/* the fused forms take the opcodes of v_madmk_f32 and v_madak_f32 */
	VOP2(23, "v_fmamk_f32", 1, 1, 1, F_MADMK | F_E32_ONLY),
	VOP2(24, "v_fmaak_f32", 1, 1, 1, F_MADAK | F_E32_ONLY),
	VOP1(0x38, "v_mov_b64", 2, 2, 0),
	VOP3(0x208, "v_lshl_add_u64", 2, 2, 1, 2, 0),
	/* gfx90a's buffer_invl2: one invalidation, its scope in sc0/sc1 */
	MUBUF(0x29, "buffer_inv"),
	/* a float add in memory: clang's atomicAdd on float, where gfx90a
	 * loops on a compare-and-swap */
	FLAT(0x4d, "atomic_add_f32", K_ATOMIC, 1, 1),
};

/* What gfx942 no longer has of gfx90a. */
static const struct isa_gone gfx942_gone[] = {
	{ ISA_VOP2, 22 },	/* v_mac_f32 */
	{ ISA_VOP3, 0x1c0 },	/* v_mad_legacy_f32 */
	{ ISA_VOP3, 0x1c1 },	/* v_mad_f32 */
	/* no image instructions: MI300 has no texture units */
	{ ISA_MIMG, 0x00 }, { ISA_MIMG, 0x01 }, { ISA_MIMG, 0x08 }, { ISA_MIMG, 0x09 },
};

const struct isa_table isa_table_gfx942 = {
	.name = "gfx942",
	.ops = gfx942_ops,
	.n_ops = sizeof(gfx942_ops) / sizeof(gfx942_ops[0]),
	.base = &isa_table_gfx90a,
	.gone = gfx942_gone,
	.n_gone = sizeof(gfx942_gone) / sizeof(gfx942_gone[0]),
	.cpol = ISA_CPOL_SC,
	.scratch_sve = 1,
};
