// SPDX-License-Identifier: MIT
/*
 * kfd_isa_decode(): find the instruction format of the first dword in the
 * family's table, then the opcode row, then print the operands.
 */
#include <stdio.h>
#include <string.h>

#include "isa_priv.h"

static const struct {
	const char *name;
	enum kfd_isa_family family;
	const struct isa_table *table;
} isa_families[] = {
	{ "gfx90a", KFD_ISA_GFX90A, &isa_table_gfx90a },
	/* LLVM 15 knows gfx940 only; gfx942 encodes the same */
	{ "gfx940", KFD_ISA_GFX942, &isa_table_gfx942 },
	{ "gfx942", KFD_ISA_GFX942, &isa_table_gfx942 },
	{ "gfx1030", KFD_ISA_GFX1030, &isa_table_gfx1030 },
	{ "gfx908", KFD_ISA_GFX908, &isa_table_gfx908 },
};

int kfd_isa_family_by_name(const char *name, enum kfd_isa_family *family)
{
	size_t i;

	for (i = 0; i < sizeof(isa_families) / sizeof(isa_families[0]); i++) {
		if (!strcmp(name, isa_families[i].name)) {
			*family = isa_families[i].family;
			return 0;
		}
	}
	return -1;
}

/* 1 when @t, a delta table, drops (enc, opc) of its base. */
static int gone(const struct isa_table *t, unsigned int enc, unsigned int opc)
{
	unsigned int i;

	for (i = 0; i < t->n_gone; i++)
		if (t->gone[i].enc == enc && t->gone[i].op == opc)
			return 1;
	return 0;
}

static const struct isa_op *own_op(const struct isa_table *t, unsigned int enc,
				   unsigned int opc)
{
	unsigned int i;

	for (i = 0; i < t->n_ops; i++)
		if (t->ops[i].enc == enc && t->ops[i].op == opc)
			return &t->ops[i];
	return NULL;
}

const struct isa_op *isa_find_op(const struct isa_table *t, unsigned int enc, unsigned int opc)
{
	const struct isa_op *op = own_op(t, enc, opc);

	if (op || !t->base || gone(t, enc, opc))
		return op;
	return isa_find_op(t->base, enc, opc);
}

/* The row index of @op, a row of @t or of its bases. */
static unsigned int row_index(const struct isa_table *t, const struct isa_op *op)
{
	if (op >= t->ops && op < t->ops + t->n_ops)
		return (unsigned int)(op - t->ops);
	return t->n_ops + row_index(t->base, op);
}

/*
 * The row at @index: 0 with *@op set, 1 when the index names a base row
 * the delta drops or replaces, -1 past the last row.
 */
static int row_at(const struct isa_table *t, unsigned int index, const struct isa_op **op)
{
	int r;

	if (index < t->n_ops) {
		*op = &t->ops[index];
		return 0;
	}
	if (!t->base)
		return -1;
	r = row_at(t->base, index - t->n_ops, op);
	if (r)
		return r;
	if (gone(t, (*op)->enc, (*op)->op) || own_op(t, (*op)->enc, (*op)->op))
		return 1;
	return 0;
}

const struct isa_op *isa_lookup(struct isa_ctx *c, unsigned int enc, unsigned int opc)
{
	c->op = isa_find_op(c->table, enc, opc);
	return c->op;
}

/* The structured form of a decoded instruction (one decode, two outputs). */
static void fill_fields(struct isa_ctx *c)
{
	struct kfd_isa_fields *f = &c->insn->f;
	const struct isa_op *op = c->op;
	unsigned int i;

	f->enc = (enum kfd_isa_enc)op->enc;
	f->form = c->form;
	f->opcode = op->op;
	f->row = row_index(c->table, op);
	f->dst_dwords = op->dst;
	f->src_dwords[0] = op->src0;
	f->src_dwords[1] = op->src1;
	f->src_dwords[2] = op->src2;
	for (i = 0; i < c->length / 4 && i < 4; i++)
		f->words[i] = c->words[i];
	/* a literal is the last dword beyond the format's own */
	f->has_literal = c->length > c->fmt_dwords * 4u && c->form != KFD_ISA_FORM_SDWA &&
			 c->form != KFD_ISA_FORM_DPP;
	f->literal = f->has_literal ? c->words[c->length / 4 - 1] : 0;
}

static const struct isa_table *family_table(enum kfd_isa_family family)
{
	size_t i;

	for (i = 0; i < sizeof(isa_families) / sizeof(isa_families[0]); i++)
		if (isa_families[i].family == family)
			return isa_families[i].table;
	return NULL;
}

/* The formats of @t: its own, or a delta's base's. */
static const struct isa_table *format_table(const struct isa_table *t)
{
	return t->n_formats || !t->base ? t : t->base;
}

static const struct isa_format *find_format(const struct isa_table *t, uint32_t w0)
{
	unsigned int i;

	t = format_table(t);
	for (i = 0; i < t->n_formats; i++)
		if ((w0 & t->formats[i].mask) == t->formats[i].match)
			return &t->formats[i];
	return NULL;
}

static int decode(struct isa_ctx *c)
{
	const struct isa_format *fmt;
	const struct isa_op *op;
	uint32_t opc;

	if (c->nwords < 1)
		return isa_fail(c, "no code left");
	fmt = find_format(c->table, c->words[0]);
	if (!fmt)
		return isa_fail(c, "no instruction format matches");
	if (c->nwords < fmt->dwords)
		return isa_fail(c, "instruction past the end of the code");
	c->length = fmt->dwords * 4u;
	c->fmt_dwords = fmt->dwords;
	opc = (c->words[0] >> fmt->op_shift) & fmt->op_mask;
	switch (fmt->enc) {
	case ISA_VOP1: case ISA_VOP2: case ISA_VOPC: case ISA_VOP3: case ISA_VOP3P:
		return isa_vector(c, fmt, opc);
	default:
		break;
	}
	op = isa_lookup(c, fmt->enc, opc);
	if (!op)
		return isa_fail(c, "opcode not in the table");
	switch (fmt->enc) {
	case ISA_SOP2: case ISA_SOPK: case ISA_SOP1: case ISA_SOPC: case ISA_SOPP:
	case ISA_SMEM:
		return isa_scalar(c, op);
	case ISA_DS: case ISA_FLAT: case ISA_MUBUF: case ISA_MIMG:
		return isa_memory(c, op);
	default:
		return isa_fail(c, "encoding not covered");
	}
}

static const struct isa_format *enc_format(const struct isa_table *t, unsigned int enc)
{
	unsigned int i;

	t = format_table(t);
	for (i = 0; i < t->n_formats; i++)
		if (t->formats[i].enc == enc)
			return &t->formats[i];
	return NULL;
}

int kfd_isa_row(enum kfd_isa_family family, unsigned int index, struct kfd_isa_row *row)
{
	const struct isa_table *t = family_table(family);
	const struct isa_format *fmt, *vop3;
	const struct isa_op *op;
	unsigned int base;

	int r;

	if (!t)
		return -1;
	r = row_at(t, index, &op);
	if (r)
		return r;
	fmt = enc_format(t, op->enc);
	if (!fmt)
		return -1;
	row->mnemonic = op->name;
	row->format = fmt->name;
	row->opcode = op->op;
	row->dwords = fmt->dwords;
	row->word0 = fmt->match | (uint32_t)op->op << fmt->op_shift;
	row->word0_fixed = fmt->mask | (uint32_t)fmt->op_mask << fmt->op_shift;
	row->vop3_word0 = 0;
	row->vop3_fixed = 0;
	vop3 = enc_format(t, ISA_VOP3);
	base = op->enc == ISA_VOPC ? 0 : op->enc == ISA_VOP2 ? VOP3_VOP2_BASE :
	       op->enc == ISA_VOP1 ? (t->gen == ISA_GEN10 ? VOP3_GEN10_VOP1_BASE :
				      VOP3_VOP1_BASE) : ~0u;
	if (vop3 && base != ~0u && !(op->flags & F_E32_ONLY))
	{
		row->vop3_word0 = vop3->match | (uint32_t)(base + op->op) << vop3->op_shift;
		row->vop3_fixed = vop3->mask | (uint32_t)vop3->op_mask << vop3->op_shift;
	}
	return 0;
}

int kfd_isa_decode(enum kfd_isa_family family, const uint8_t *code, size_t size,
		   struct kfd_isa_insn *insn)
{
	struct isa_ctx c;
	size_t i;

	memset(&c, 0, sizeof(c));
	memset(insn, 0, sizeof(*insn));
	c.insn = insn;
	c.table = family_table(family);
	c.nwords = size / 4 < 4 ? size / 4 : 4;
	for (i = 0; i < c.nwords; i++)
		c.words[i] = (uint32_t)code[4 * i] | (uint32_t)code[4 * i + 1] << 8 |
			     (uint32_t)code[4 * i + 2] << 16 | (uint32_t)code[4 * i + 3] << 24;
	if (!c.table)
		isa_fail(&c, "no table for this family");
	else if (decode(&c) == 0 && !c.reason && c.pos < sizeof(insn->text) && c.op) {
		insn->length = c.length;
		fill_fields(&c);
		return 0;
	}
	if (!c.reason)
		c.reason = "text longer than KFD_ISA_TEXT_MAX";
	insn->length = 4;
	insn->mnemonic = NULL;
	insn->reason = c.reason;
	snprintf(insn->text, sizeof(insn->text), "unknown: %s", c.reason);
	return -1;
}
