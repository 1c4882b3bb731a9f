/* SPDX-License-Identifier: MIT */
#ifndef KFD_ISA_TABLE_H
#define KFD_ISA_TABLE_H

/*
 * The shape of a family's tables: its instruction formats (how the first
 * dword names the encoding) and its opcode rows (mnemonic, operand layout
 * and operand sizes). Private to formats/isa.
 */

#include <stdint.h>

#include "kfdtrace/isa.h"

/* The encodings. VOP3 holds VOP3A and VOP3B; FLAT holds GLOBAL and SCRATCH. */
enum isa_enc {
	ISA_SOP2 = KFD_ISA_SOP2, ISA_SOPK = KFD_ISA_SOPK, ISA_SOP1 = KFD_ISA_SOP1,
	ISA_SOPC = KFD_ISA_SOPC, ISA_SOPP = KFD_ISA_SOPP, ISA_SMEM = KFD_ISA_SMEM,
	ISA_VOP2 = KFD_ISA_VOP2, ISA_VOP1 = KFD_ISA_VOP1, ISA_VOPC = KFD_ISA_VOPC,
	ISA_VOP3 = KFD_ISA_VOP3, ISA_VOP3P = KFD_ISA_VOP3P, ISA_DS = KFD_ISA_DS,
	ISA_FLAT = KFD_ISA_FLAT, ISA_MUBUF = KFD_ISA_MUBUF, ISA_MTBUF = KFD_ISA_MTBUF,
	ISA_MIMG = KFD_ISA_MIMG, ISA_EXP = KFD_ISA_EXP,
	ISA_ENC_COUNT,
};

/* An instruction format: dword 0 & mask == match names the encoding. */
struct isa_format {
	enum isa_enc enc;
	const char *name;
	uint32_t mask;
	uint32_t match;
	uint8_t dwords;		/* length without a literal constant */
	uint8_t op_shift;	/* the opcode field: (dword 0 >> shift) & mask */
	uint16_t op_mask;
};

/* Operand layouts; each encoding reads the ones that apply to it. */
enum isa_kind {
	K_STD,		/* dst then sources, as the sizes say */
	K_SOPK_DST,	/* SOPK: sdst, simm16 (hex) */
	K_SOPK_SRC,	/* SOPK: ssrc (in the sdst field), simm16 (hex) */
	K_SOPP_NONE,	/* SOPP: no operand */
	K_SOPP_UIMM,	/* SOPP: simm16 as unsigned decimal */
	K_SOPP_BRANCH,	/* SOPP: simm16, a dword offset from pc + 4 */
	K_SOPP_WAITCNT,	/* SOPP: vmcnt/expcnt/lgkmcnt fields */
	K_SOPP_ENDPGM,	/* SOPP: simm16 as decimal, absent when 0 */
	K_SOPP_SENDMSG,	/* SOPP: sendmsg(MSG_..., ...) */
	K_SOPK_GETREG,	/* SOPK: sdst, hwreg(HW_REG_..., offset, size) */
	K_LOAD,		/* memory: dst <- address */
	K_STORE,	/* memory: address <- data */
	K_ATOMIC,	/* memory: data op at address; dst with glc */
	K_NONE,		/* no operand (SMEM cache controls, ds_nop) */
	K_SOPP_HEX,	/* SOPP: simm16 in hex (s_clause) */
	K_SOPK_SETREG,	/* SOPK: hwreg(HW_REG_..., offset, size), ssrc in sdst */
};

/* Row flags. */
#define F_E32_ONLY	0x0001	/* no VOP3 form: no _e32 suffix */
#define F_VCC_OUT	0x0002	/* VOP2: carry out in vcc (VOP3B: sdst) */
#define F_VCC_IN	0x0004	/* VOP2: carry in / mask in vcc (VOP3: src2) */
#define F_MADMK		0x0008	/* VOP2: literal between src0 and src1 */
#define F_MADAK		0x0010	/* VOP2: literal after src1 */
#define F_SDST		0x0020	/* the destination is an SGPR */
#define F_MAC		0x0040	/* VOP3 form reads no src2: it is the dst */
#define F_VOP3B		0x0080	/* VOP3-only op with an sdst field */
#define F_SRC1_SGPR	0x0100	/* src1 is an SGPR (lane select) */
#define F_OFF2		0x0200	/* DS: offset0/offset1 instead of offset */
#define F_NO_DST	0x0400	/* SOP1/VOP1: no destination operand */
#define F_MIX		0x0800	/* VOP3P: mixed precision; op_sel_hi 0 by default */
#define F_16		0x1000	/* the sources are 16 bits wide (op_sel applies) */
#define F_I16		0x2000	/* ... and integers: float constants are f16 bits */
#define F_SRC_REG	0x4000	/* the source is a register, not a constant */
#define F_CMPX		0x8000	/* gfx10 v_cmpx: writes exec only, no destination */
#define F_SWIZZLE	0x10000	/* DS: the offset is a ds_swizzle pattern */
#define F_NO_ADDR	0x20000	/* DS: no address VGPR (GWS) */
#define F_PERMLANE	0x40000	/* op_sel bits 0-1: fi and bound_ctrl, op_sel:[a,b] */
#define F_NO_E64	0x80000	/* VOP2 with _e32 and DPP forms only (no VOP3, no SDWA) */
#define F_NO_MOD	0x100000 /* integer sources: a DPP form's neg and abs unprinted */

/*
 * An opcode row. Sizes are in dwords (0: the operand is absent). For
 * memory operations dst is the returned data and src0 the data written.
 */
struct isa_op {
	uint8_t enc;
	uint16_t op;
	const char *name;
	uint8_t kind;
	uint8_t dst, src0, src1, src2;
	uint32_t flags;
};

/* An opcode a delta table takes away from its base: (encoding, opcode). */
struct isa_gone {
	uint8_t enc;
	uint16_t op;
};

/*
 * A family's tables. A family that shares most encodings with another is
 * a delta of it: @base's rows count too, after @ops, except those that
 * @ops replaces (the same encoding and opcode) and those listed in @gone.
 * Row indices number @ops first, then the base rows that remain. A delta
 * without @formats has its base's.
 */
struct isa_table {
	const char *name;
	const struct isa_format *formats;
	unsigned int n_formats;
	const struct isa_op *ops;
	unsigned int n_ops;
	const struct isa_table *base;
	const struct isa_gone *gone;
	unsigned int n_gone;
	unsigned int cpol;	/* the cache-policy spelling (ISA_CPOL_*) */
	unsigned int gen;	/* the encoding generation (ISA_GEN*) */
	unsigned int scratch_sve; /* SCRATCH bit 13 enables the VGPR address */
	unsigned int no_mem_acc;  /* memory instructions reach no AGPRs */
};

/* Encoding generations: gfx9 (wave64), gfx10 (wave32 here). */
#define ISA_GEN9	0
#define ISA_GEN10	1

/* How the FLAT and MUBUF cache-policy bits print. */
#define ISA_CPOL_GLC	0	/* gfx9: glc, slc */
#define ISA_CPOL_SC	1	/* gfx940: sc0, nt, sc1 */

extern const struct isa_table isa_table_gfx90a;
extern const struct isa_table isa_table_gfx942;
extern const struct isa_table isa_table_gfx908;
extern const struct isa_table isa_table_gfx1030;

#endif
