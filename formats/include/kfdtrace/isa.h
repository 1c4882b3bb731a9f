/* SPDX-License-Identifier: MIT */
#ifndef KFDTRACE_ISA_H
#define KFDTRACE_ISA_H

/*
 * kfdtrace/isa.h: a table-driven decoder of AMDGPU machine code.
 *
 * The encodings (instruction formats, opcode numbers, operand sizes) are
 * data, per GPU family, in formats/isa. The decoder turns one instruction
 * into its length and into the text llvm-objdump prints for it, so that
 * the two can be compared string for string. An instruction the table
 * does not cover is "unknown" with a reason; it is never guessed.
 */

#include <stddef.h>
#include <stdint.h>

/* The GPU families with a table. */
enum kfd_isa_family {
	KFD_ISA_GFX90A,		/* CDNA2: MI200 */
	KFD_ISA_GFX942,		/* CDNA3: MI300 (gfx940's encodings) */
	KFD_ISA_GFX1030,	/* RDNA2: RX 6900 XT, wave32 */
	KFD_ISA_GFX908,		/* CDNA1: MI100 (gfx90a's, less) */
};

/* The encodings (VOP3 holds VOP3A and VOP3B; FLAT holds GLOBAL and SCRATCH). */
enum kfd_isa_enc {
	KFD_ISA_SOP2, KFD_ISA_SOPK, KFD_ISA_SOP1, KFD_ISA_SOPC, KFD_ISA_SOPP,
	KFD_ISA_SMEM, KFD_ISA_VOP2, KFD_ISA_VOP1, KFD_ISA_VOPC, KFD_ISA_VOP3,
	KFD_ISA_VOP3P, KFD_ISA_DS, KFD_ISA_FLAT, KFD_ISA_MUBUF, KFD_ISA_MTBUF,
	KFD_ISA_MIMG, KFD_ISA_EXP,
};

/* How a vector row was encoded. */
enum kfd_isa_form {
	KFD_ISA_FORM_NATIVE,	/* the row's own encoding (_e32 for vector rows) */
	KFD_ISA_FORM_VOP3,	/* a VOP1/VOP2/VOPC row in VOP3 (_e64) */
	KFD_ISA_FORM_SDWA,
	KFD_ISA_FORM_DPP,
};

/*
 * The structured form of a decoded instruction: which row, how it was
 * encoded, its operand sizes and its dwords. The operand fields are the
 * hardware's, at their documented bits of @words (an executor reads them
 * there); the text is one rendering of the same decode.
 */
struct kfd_isa_fields {
	enum kfd_isa_enc enc;	/* the row's encoding (VOP2 for v_add_f32_e64) */
	enum kfd_isa_form form;
	unsigned int opcode;	/* the row's opcode in @enc */
	unsigned int row;	/* the row's index (kfd_isa_row()) */
	unsigned int dst_dwords;	/* operand sizes from the row; 0: absent */
	unsigned int src_dwords[3];
	int has_literal;	/* @literal follows the instruction */
	uint32_t literal;
	uint32_t words[4];	/* the instruction's dwords, literal included */
};

/* Longest text of one instruction, with its terminating NUL. */
#define KFD_ISA_TEXT_MAX	256

/* One decoded instruction. */
struct kfd_isa_insn {
	unsigned int length;	/* bytes: 4, 8 or 12; 4 when unknown */
	const char *mnemonic;	/* as printed (with _e32/_e64); NULL if unknown */
	const char *reason;	/* why it is unknown; NULL when decoded */
	char text[KFD_ISA_TEXT_MAX];	/* "mnemonic operands", as llvm-objdump */
	struct kfd_isa_fields f;	/* when decoded */
};

/**
 * kfd_isa_family_by_name() - the family of a processor name
 * @name: a processor as LLVM names it ("gfx90a")
 * @family: where to store the family
 *
 * Return: 0, or -1 when no table covers @name.
 */
int kfd_isa_family_by_name(const char *name, enum kfd_isa_family *family);

/**
 * kfd_isa_decode() - decode the instruction at the start of @code
 * @family: the GPU family whose encodings apply
 * @code: the machine code, little-endian dwords
 * @size: bytes available at @code
 * @insn: the result
 *
 * A decoded instruction gets its length, mnemonic and text. An unknown one
 * (an opcode, encoding or operand the table does not cover, or an
 * instruction cut short by @size) gets length 4, a NULL mnemonic, a reason,
 * and the text "unknown: <reason>"; the caller may go on 4 bytes further.
 * A decoded one also gets its structured form in @insn->f.
 *
 * Return: 0 when decoded, -1 when unknown.
 */
int kfd_isa_decode(enum kfd_isa_family family, const uint8_t *code, size_t size,
		   struct kfd_isa_insn *insn);

/* A table row, for tools and tests that sweep the table. */
struct kfd_isa_row {
	const char *mnemonic;	/* the row's name (FLAT rows: without segment) */
	const char *format;	/* the encoding: "SOP2", "VOP1", ... */
	unsigned int opcode;
	unsigned int dwords;	/* length without a literal constant */
	uint32_t word0;		/* the first dword, operand fields zero */
	uint32_t word0_fixed;	/* its bits that name the format and opcode */
	uint32_t vop3_word0;	/* the same in VOP3 (_e64); 0 when none */
	uint32_t vop3_fixed;
};

/**
 * kfd_isa_row() - the row @index of a family's table
 * @family: the GPU family
 * @index: 0 up to the number of rows
 * @row: where to store the row
 *
 * A family that drops or replaces an opcode of the family it derives from
 * leaves a gap in the numbering: the caller skips the index and goes on.
 *
 * Return: 0, 1 when @index is a gap (@row untouched), or -1 past the last row.
 */
int kfd_isa_row(enum kfd_isa_family family, unsigned int index, struct kfd_isa_row *row);

#endif
