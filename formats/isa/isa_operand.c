// SPDX-License-Identifier: MIT
/*
 * Operand text: registers, inline constants and literals spelled as LLVM's
 * disassembler spells them, so that our text compares with llvm-objdump's.
 */
#include <stdarg.h>
#include <stdio.h>

#include "isa_priv.h"

void isa_put(struct isa_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->pos >= sizeof(c->insn->text))
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->insn->text + c->pos, sizeof(c->insn->text) - c->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->pos += (size_t)n;
}

int isa_fail(struct isa_ctx *c, const char *reason)
{
	if (!c->reason)
		c->reason = reason;
	return -1;
}

static void put_range(struct isa_ctx *c, const char *p, unsigned int first, unsigned int n)
{
	if (n == 1)
		isa_put(c, "%s%u", p, first);
	else
		isa_put(c, "%s[%u:%u]", p, first, first + n - 1);
}

/* A pair-named special register: the pair, or its _lo/_hi half. */
static int put_pair(struct isa_ctx *c, const char *name, unsigned int idx, unsigned int n)
{
	if (n == 2 && !(idx & 1))
		isa_put(c, "%s", name);
	else if (n == 1)
		isa_put(c, "%s_%s", name, (idx & 1) ? "hi" : "lo");
	else
		return isa_fail(c, "special register range not covered");
	return 0;
}

int isa_put_sreg(struct isa_ctx *c, unsigned int idx, unsigned int n)
{
	if (n == 0)
		return isa_fail(c, "operand of no size");
	/* the hardware ignores the low bits of a range's first register,
	 * and LLVM prints the aligned range */
	if (n == 2)
		idx &= ~1u;
	else if (n > 2)
		idx &= ~3u;
	/* gfx10 has 106 SGPRs: no flat_scratch or xnack_mask names */
	if (idx + n <= (isa_gen10(c) ? 106u : 102u)) {
		put_range(c, "s", idx, n);
		return 0;
	}
	if (idx >= 108 && idx + n <= 124) {
		put_range(c, "ttmp", idx - 108, n);
		return 0;
	}
	switch (idx & ~1u) {
	case 102:
		return put_pair(c, "flat_scratch", idx, n);
	case 104:
		return put_pair(c, "xnack_mask", idx, n);
	case 106:
		return put_pair(c, "vcc", idx, n);
	case 126:
		return put_pair(c, "exec", idx, n);
	}
	if (idx == 124 && n == 1) {
		isa_put(c, "m0");
		return 0;
	}
	/* gfx10: reads as zero, writes are dropped */
	if (idx == 125 && n == 1 && isa_gen10(c)) {
		isa_put(c, "null");
		return 0;
	}
	return isa_fail(c, "SGPR operand not covered");
}

int isa_put_vreg(struct isa_ctx *c, unsigned int idx, unsigned int n, int acc)
{
	if (n == 0)
		return isa_fail(c, "operand of no size");
	if (idx + n > 256)
		return isa_fail(c, "VGPR range past v255");
	put_range(c, acc ? "a" : "v", idx, n);
	return 0;
}

/* The inline float constants 240..248, as LLVM prints them. */
static const char *const fp_inline[] = {
	"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0",
};

/* The same constants given to a 16-bit integer operand: their f16 bits. */
static const uint16_t fp_inline_f16[] = {
	0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
};

/*
 * A 32-bit literal whose value an inline constant could have held prints
 * as that constant, as LLVM prints a value, not an encoding.
 */
static const uint32_t fp_inline_bits[] = {
	0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
	0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
};

static int put_literal(struct isa_ctx *c, uint32_t v, unsigned int n)
{
	unsigned int i;

	/* a 16-bit operand takes the literal's low half */
	if (c->is16) {
		v &= 0xffff;
		if ((int16_t)v >= -16 && (int16_t)v <= 64) {
			isa_put(c, "%d", (int16_t)v);
			return 0;
		}
		for (i = 0; i < 9 && !c->int16; i++) {
			if (v == fp_inline_f16[i]) {
				isa_put(c, "%s", i < 8 ? fp_inline[i] : "0.15915494");
				return 0;
			}
		}
		isa_put(c, "0x%x", v);
		return 0;
	}

	if (n == 1) {
		if ((int32_t)v >= -16 && (int32_t)v <= 64) {
			isa_put(c, "%d", (int32_t)v);
			return 0;
		}
		for (i = 0; i < 8; i++) {
			if (v == fp_inline_bits[i]) {
				isa_put(c, "%s", fp_inline[i]);
				return 0;
			}
		}
		if (v == 0x3e22f983) {
			isa_put(c, "0.15915494");
			return 0;
		}
	}
	isa_put(c, "0x%x", v);
	return 0;
}

int isa_put_src(struct isa_ctx *c, unsigned int f, unsigned int n)
{
	if (f >= 256)
		return isa_put_vreg(c, f - 256, n, 0);
	if (f < 128)
		return isa_put_sreg(c, f, n);
	if (f <= 192) {
		isa_put(c, "%u", f - 128);
		return 0;
	}
	if (f <= 208) {
		isa_put(c, "-%u", f - 192);
		return 0;
	}
	if (f >= 240 && f <= 248 && c->int16) {
		isa_put(c, "0x%x", fp_inline_f16[f - 240]);
		return 0;
	}
	if (f >= 240 && f <= 247) {
		isa_put(c, "%s", fp_inline[f - 240]);
		return 0;
	}
	switch (f) {
	case 235: isa_put(c, "src_shared_base"); return 0;
	case 236: isa_put(c, "src_shared_limit"); return 0;
	case 237: isa_put(c, "src_private_base"); return 0;
	case 238: isa_put(c, "src_private_limit"); return 0;
	case 239: isa_put(c, "src_pops_exiting_wave_id"); return 0;
	case 248:
		/* 1/(2*pi): LLVM prints the double's shortest digits for 64 bits */
		isa_put(c, "%s", n == 2 ? "0.15915494309189532" : "0.15915494");
		return 0;
	case 251: isa_put(c, "src_vccz"); return 0;
	case 252: isa_put(c, "src_execz"); return 0;
	case 253: isa_put(c, "src_scc"); return 0;
	case 254: isa_put(c, "src_lds_direct"); return 0;
	case 255:
		if (c->nwords * 4 < c->length + 4)
			return isa_fail(c, "literal constant past the end of the code");
		c->literal = c->words[c->length / 4];
		c->length += 4;
		return put_literal(c, c->literal, n);
	case 249:
		return isa_fail(c, "SDWA where it is not allowed");
	case 250:
		return isa_fail(c, "DPP where it is not allowed");
	}
	return isa_fail(c, "reserved source operand");
}

/* Is the 9-bit source field a constant (inline or literal)? */
static int is_constant(unsigned int f)
{
	return (f >= 128 && f <= 208) || (f >= 240 && f <= 248) || f == 255;
}

int isa_put_src_mod(struct isa_ctx *c, unsigned int f, unsigned int n, int neg, int abs)
{
	/* LLVM spells a negated constant neg(c), as "-" would read as its sign */
	int neg_fn = neg && !abs && is_constant(f);
	int r;

	if (neg)
		isa_put(c, neg_fn ? "neg(" : "-");
	if (abs)
		isa_put(c, "|");
	r = isa_put_src(c, f, n);
	if (abs)
		isa_put(c, "|");
	if (neg_fn)
		isa_put(c, ")");
	return r;
}
