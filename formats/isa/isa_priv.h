/* SPDX-License-Identifier: MIT */
#ifndef KFD_ISA_PRIV_H
#define KFD_ISA_PRIV_H

/* The decoder's state and its helpers, shared by formats/isa's files. */

#include <stddef.h>
#include <stdint.h>

#include "isa_table.h"

/* gfx9: where the VOP3 opcode space holds each smaller encoding. */
#define VOP3_VOPC_END	0x100
#define VOP3_VOP2_BASE	0x100
#define VOP3_VOP1_BASE	0x140
#define VOP3_ONLY_BASE	0x1c0
/* gfx10: VOP2 0x100..0x13f, VOP3-only 0x140..0x17f, VOP1 0x180..0x1ff,
 * VOP3-only again from 0x200 */
#define VOP3_GEN10_VOP1_BASE	0x180
#define VOP3_GEN10_ONLY_BASE	0x140

struct isa_ctx {
	const struct isa_table *table;
	uint32_t words[4];	/* the instruction's dwords (zero past the end) */
	size_t nwords;		/* dwords available */
	unsigned int length;	/* bytes consumed so far */
	uint32_t literal;
	int is16;		/* the sources are 16 bits wide */
	int int16;		/* ... and integers */
	const char *reason;	/* the first reason for failure */
	const struct isa_op *op;	/* the row found (isa_lookup) */
	enum kfd_isa_form form;
	unsigned int fmt_dwords;	/* the format's length without a literal */
	struct kfd_isa_insn *insn;
	size_t pos;		/* end of the text */
};

/* 1 for gfx10's encodings (wave32 lane masks, null SGPR, moved fields). */
static inline int isa_gen10(const struct isa_ctx *c)
{
	return c->table->gen == ISA_GEN10;
}

/* Append to the text (truncated at KFD_ISA_TEXT_MAX). */
void isa_put(struct isa_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Record @reason (the first one wins); returns -1. */
int isa_fail(struct isa_ctx *c, const char *reason);
/* An SGPR-space operand (0..127) of @n dwords. */
int isa_put_sreg(struct isa_ctx *c, unsigned int idx, unsigned int n);
/* VGPRs (@acc: AGPRs) @idx.. of @n dwords. */
int isa_put_vreg(struct isa_ctx *c, unsigned int idx, unsigned int n, int acc);
/* A 9-bit source field (SGPR, constant, literal or VGPR) of @n dwords. */
int isa_put_src(struct isa_ctx *c, unsigned int f, unsigned int n);
/* The same with VOP3's neg and abs modifiers. */
int isa_put_src_mod(struct isa_ctx *c, unsigned int f, unsigned int n, int neg, int abs);

/* The decoders of each group of encodings (isa_scalar.c, isa_vector.c,
 * isa_memory.c): print operands after the mnemonic. */
int isa_scalar(struct isa_ctx *c, const struct isa_op *op);
int isa_vector(struct isa_ctx *c, const struct isa_format *fmt, uint32_t opc);
int isa_memory(struct isa_ctx *c, const struct isa_op *op);
/* The row of (@enc, @opc), or NULL; remembered as the instruction's row. */
const struct isa_op *isa_lookup(struct isa_ctx *c, unsigned int enc, unsigned int opc);
/* The row of (@enc, @opc), or NULL. */
const struct isa_op *isa_find_op(const struct isa_table *t, unsigned int enc, unsigned int opc);

#endif
