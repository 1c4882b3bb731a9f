/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's whole-wave VALU fast paths (shader_lanes.c, the 64-bit
 * shifts and v_mad_u64_u32 of shader_valu.c) against its per-lane switch.
 * Every VOP1, VOP2, VOPC and VOP3 row the interpreter runs is encoded in
 * each of its forms, with VGPR, SGPR, inline-constant and literal sources
 * and random VOP3 modifiers (abs, neg, clamp, omod), then executed on the
 * same seeded random register state twice: once as the engine runs it,
 * once with the fast paths off (sh_ctx.lanewise). Both runs must leave
 * every VGPR, SGPR (VCC and EXEC among them) and SCC bit alike, and stop
 * alike when one refuses the instruction. Sources mix random bits with
 * +-0, +-inf, quiet and signalling NaNs and denormals. EXEC is full,
 * empty and random; wave64 on gfx90a, gfx942 and gfx1030, and wave32 on
 * gfx1030. Every opcode a fast path takes must have run at least once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktest.h"
#include "lanes_util.h"

#define LT_TRIALS	12	/* per row, form and EXEC kind */
#define LT_VREGS	12	/* v0..v11 as operands: results overlap sources */
#define LT_REPORT	20	/* mismatches printed in full */

static const uint32_t specials[] = {
	0x00000000, 0x80000000,			/* +0, -0 */
	0x7f800000, 0xff800000,			/* +inf, -inf */
	0x7fc00000, 0xffc00000, 0x7fc00001,	/* quiet NaNs */
	0x7f800001, 0xffa00000,			/* signalling NaNs */
	0x00000001, 0x807fffff, 0x00400000,	/* denormals */
	0x3f800000, 0xbf800000, 0x7f7fffff, 0x00800000,
	0xffffffff, 0x7fffffff, 1, 31, 32, 33, 63, 64,
};

struct lt_family {
	enum kfd_isa_family isa;
	unsigned int lanes;
	const char *name;
};

static const struct lt_family families[] = {
	{ KFD_ISA_GFX90A, 64, "gfx90a" },
	{ KFD_ISA_GFX942, 64, "gfx942" },
	{ KFD_ISA_GFX1030, 64, "gfx1030 wave64" },
	{ KFD_ISA_GFX1030, 32, "gfx1030 wave32" },
};

/* Per SH_OP_*: trials both paths ran to completion on active lanes. */
static unsigned int ran[SH_OP_COUNT];
static unsigned int mismatches;

static uint32_t
value(uint64_t *s)
{
	uint64_t r = lt_rand(s);

	switch (r & 7) {
	case 0: case 1: case 2:
		return specials[(r >> 8) % (sizeof(specials) / sizeof(specials[0]))];
	case 3:
		return (uint32_t)(r >> 8) & 0x3f;
	default:
		return (uint32_t)(r >> 32);
	}
}

/* A 9-bit source field: VGPR, SGPR, VCC/EXEC/M0, constant, or literal. */
static unsigned int
source(uint64_t *s, int literal)
{
	uint64_t r = lt_rand(s);
	static const unsigned int sregs[] = { SH_VCC, SH_EXEC, SH_M0 };

	switch (r % 9) {
	case 0: case 1: case 2: case 3:
		return 256 + (unsigned int)(r >> 8) % LT_VREGS;
	case 4:
		return (unsigned int)(r >> 8) % 100 & ~1u;
	case 5:
		return sregs[(r >> 8) % 3];
	case 6:
		return 128 + (unsigned int)(r >> 8) % 81;	/* 0..64, -1..-16 */
	case 7:
		return 240 + (unsigned int)(r >> 8) % 9;	/* float constants */
	default:
		return literal ? 255 : 256 + (unsigned int)(r >> 8) % LT_VREGS;
	}
}

/* An SGPR pair for a lane mask: an even SGPR or VCC. */
static unsigned int
mask_reg(uint64_t *s)
{
	uint64_t r = lt_rand(s);

	return r & 1 ? SH_VCC : (unsigned int)(r >> 8) % 100 & ~1u;
}

static int
is_cmp(unsigned int id)
{
	return id >= SH_OP_V_CMP_F_I32 && id <= SH_OP_V_CMP_U_F32;
}

static int
sgpr_dst(unsigned int id)
{
	return id == SH_OP_V_READFIRSTLANE_B32 || id == SH_OP_V_READLANE_B32;
}

static int
carry_out(unsigned int id)
{
	switch (id) {
	case SH_OP_V_ADD_CO_U32: case SH_OP_V_SUB_CO_U32: case SH_OP_V_SUBREV_CO_U32:
	case SH_OP_V_ADDC_CO_U32: case SH_OP_V_SUBB_CO_U32: case SH_OP_V_SUBBREV_CO_U32:
	case SH_OP_V_MAD_U64_U32:
		return 1;
	}
	return 0;
}

/*
 * Encode row @row (@vop3: in its VOP3 form) with random operands into
 * @code. Return: its bytes.
 */
static size_t
encode(const struct lt_family *fam, const struct kfd_isa_row *row, unsigned int id, int vop3,
       uint64_t *s, uint32_t code[4])
{
	int gen10 = fam->isa == KFD_ISA_GFX1030, lit = 0;
	unsigned int n = 1;

	if (!vop3) {
		uint32_t w = row->word0;
		unsigned int src0 = source(s, 1);

		w |= src0;
		if (!strcmp(row->format, "VOP2") || !strcmp(row->format, "VOPC"))
			w |= (unsigned int)(lt_rand(s) % LT_VREGS) << 9;
		if (strcmp(row->format, "VOPC"))
			w |= (unsigned int)(sgpr_dst(id) ? lt_rand(s) % 100 :
					    lt_rand(s) % LT_VREGS) << 17;
		code[0] = w;
		lit = src0 == 255;
	} else {
		uint32_t w0 = row->vop3_word0 ? row->vop3_word0 : row->word0, w1 = 0;
		uint64_t r = lt_rand(s);
		unsigned int src[3];

		for (unsigned int k = 0; k < 3; k++) {
			src[k] = source(s, gen10 && !lit);
			lit |= src[k] == 255;
		}
		if (is_cmp(id) || sgpr_dst(id))
			w0 |= mask_reg(s);
		else
			w0 |= (unsigned int)(lt_rand(s) % LT_VREGS);
		if (carry_out(id))
			w0 |= mask_reg(s) << 8;
		else if (!(r & 3))
			w0 |= (unsigned int)((r >> 8) & 7) << 8;	/* abs */
		if (!((r >> 12) & 7))
			w0 |= 1u << 15;				/* clamp */
		w1 = src[0] | src[1] << 9 | src[2] << 18;
		if (!((r >> 16) & 7))
			w1 |= (unsigned int)((r >> 20) & 3) << 27;	/* omod */
		if (!((r >> 24) & 3))
			w1 |= (unsigned int)((r >> 28) & 7) << 29;	/* neg */
		code[0] = w0;
		code[1] = w1;
		n = 2;
	}
	if (lit)
		code[n++] = value(s);
	return n * 4;
}

static void
random_state(const struct lt_family *fam, unsigned int exec_kind, uint64_t *s,
	     struct sh_wave *w)
{
	uint64_t full = fam->lanes == 64 ? ~0ull : 0xffffffffull, exec;

	for (unsigned int k = 0; k < 128; k++)
		w->s[k] = value(s);
	for (unsigned int r = 0; r < SH_VGPRS; r++)
		for (unsigned int l = 0; l < SH_LANES; l++)
			w->v[r][l] = r < LT_VREGS + 2 ? value(s) : r * 0x10001u + l;
	w->scc = (int)(lt_rand(s) & 1);
	exec = exec_kind == 0 ? full : exec_kind == 1 ? 0 : lt_rand(s) & full;
	sh_set_exec(w, exec);
}

static void
copy_wave(struct sh_wave *to, const struct sh_wave *from)
{
	memcpy(to->s, from->s, sizeof(to->s));
	memcpy(to->v, from->v, sizeof(*to->v) * SH_VGPRS);
	to->scc = from->scc;
	to->pc = from->pc;
	to->lanes = from->lanes;
	to->state = from->state;
}

static void
report(const struct lt_family *fam, const struct kfd_isa_insn *in, const struct sh_wave *w0,
       const char *what, unsigned int lane, uint32_t fast, uint32_t slow)
{
	const struct kfd_isa_fields *f = &in->f;

	if (++mismatches > LT_REPORT)
		return;
	print_error("%s: %s (exec 0x%016llx): %s lane %u: fast path 0x%08x, per-lane 0x%08x;"
		    " lane %u before: v0..v%u =", fam->name, in->text,
		    (unsigned long long)sh_exec(w0), what, lane, fast, slow, lane, LT_VREGS - 1);
	for (unsigned int r = 0; r < LT_VREGS; r++)
		print_error(" 0x%08x", w0->v[r][lane]);
	print_error("; words 0x%08x 0x%08x 0x%08x\n", f->words[0], f->words[1], f->words[2]);
}

/* Compare the two waves after the instruction, bit for bit. */
static void
compare(const struct lt_family *fam, const struct kfd_isa_insn *in, const struct sh_wave *w0,
	const struct sh_wave *a, const struct sh_wave *b)
{
	char what[32];

	for (unsigned int k = 0; k < 128; k++)
		if (a->s[k] != b->s[k]) {
			snprintf(what, sizeof(what), "s%u", k);
			report(fam, in, w0, what, 0, a->s[k], b->s[k]);
		}
	if (a->scc != b->scc)
		report(fam, in, w0, "scc", 0, (uint32_t)a->scc, (uint32_t)b->scc);
	for (unsigned int r = 0; r < SH_VGPRS; r++) {
		if (!memcmp(a->v[r], b->v[r], sizeof(a->v[r])))
			continue;
		for (unsigned int l = 0; l < SH_LANES; l++)
			if (a->v[r][l] != b->v[r][l]) {
				snprintf(what, sizeof(what), "v%u", r);
				report(fam, in, w0, what, l, a->v[r][l], b->v[r][l]);
			}
	}
}

/* One encoded instruction on one random state, both ways. */
static void
trial(const struct lt_family *fam, struct sh_ctx *cf, struct sh_ctx *cl, struct sh_wave *w0,
      const struct kfd_isa_insn *in, unsigned int id)
{
	struct sh_wave *a = &cf->waves[0], *b = &cl->waves[0];
	struct sh_insn i = { .in = in, .id = id };
	enum sh_step ra, rb;

	copy_wave(a, w0);
	copy_wave(b, w0);
	cf->ec = cl->ec = 0;
	ra = sh_valu(cf, a, &i);
	rb = sh_valu(cl, b, &i);
	if (ra != rb || (ra == SH_FAIL && (cf->ec != cl->ec || strcmp(cf->why, cl->why)))) {
		if (++mismatches <= LT_REPORT)
			print_error("%s: %s: fast path %d (%s), per-lane %d (%s)\n", fam->name,
				    in->text, ra, ra == SH_FAIL ? cf->why : "",
				    rb, rb == SH_FAIL ? cl->why : "");
		return;
	}
	compare(fam, in, w0, a, b);
	if (ra == SH_NEXT && sh_exec(w0))
		ran[id]++;
}

static void
run_family(const struct lt_family *fam, uint64_t seed)
{
	struct sh_ctx *cf = lt_ctx_new(fam->isa, fam->lanes, 0);
	struct sh_ctx *cl = lt_ctx_new(fam->isa, fam->lanes, 1);
	struct sh_ctx *c0 = lt_ctx_new(fam->isa, fam->lanes, 1);
	struct kfd_isa_row row;
	unsigned int decoded = 0;
	int gap;

	assert_non_null(cf);
	assert_non_null(cl);
	assert_non_null(c0);
	for (unsigned int r = 0; (gap = kfd_isa_row(fam->isa, r, &row)) >= 0; r++) {
		unsigned int id;
		int native_vector;

		if (gap)
			continue;
		native_vector = !strcmp(row.format, "VOP1") || !strcmp(row.format, "VOP2") ||
				!strcmp(row.format, "VOPC");
		if (!native_vector && strcmp(row.format, "VOP3"))
			continue;
		id = lt_op_of(fam->isa, &row);
		if (id == SH_OP_NONE || sh_family_op(id))
			continue;
		for (int vop3 = 0; vop3 < 2; vop3++) {
			if (vop3 && native_vector && !row.vop3_word0)
				continue;
			if (!vop3 && !native_vector)
				continue;
			for (unsigned int ek = 0; ek < 3; ek++)
				for (unsigned int t = 0; t < LT_TRIALS; t++) {
					uint64_t s = seed ^ ((uint64_t)r << 32 | vop3 << 16 |
							     ek << 8 | t);
					struct kfd_isa_insn in;
					uint32_t code[4] = { 0 };
					size_t n;

					lt_rand(&s);
					n = encode(fam, &row, id, vop3, &s, code);
					if (kfd_isa_decode(fam->isa, (const uint8_t *)code, n, &in) ||
					    in.f.row != r)
						continue;
					decoded++;
					random_state(fam, ek, &s, &c0->waves[0]);
					trial(fam, cf, cl, &c0->waves[0], &in, id);
				}
		}
	}
	print_message("%s: %u instructions compared\n", fam->name, decoded);
	assert_true(decoded > 1000);
	lt_ctx_free(cf);
	lt_ctx_free(cl);
	lt_ctx_free(c0);
}

/* 1 when a fast path takes @id: the probes write nothing with EXEC 0. */
static int
fast_op(unsigned int id)
{
	uint32_t dst[SH_LANES];
	uint64_t m;

	return sh_lanes32(id, 0, sh_zero_row, sh_zero_row, sh_zero_row, dst) ||
	       sh_lanes32_carry(id, 0, sh_zero_row, sh_zero_row, 0, dst, &m) ||
	       sh_cmp32(id, 0, sh_zero_row, sh_zero_row, &m) ||
	       id == SH_OP_V_LSHLREV_B64 || id == SH_OP_V_LSHRREV_B64 ||
	       id == SH_OP_V_ASHRREV_I64 || id == SH_OP_V_MAD_U64_U32;
}

static void
test_valu_paths_agree(void **state)
{
	uint64_t seed = 0x6c616e6563686b31ull;
	const char *env = getenv("KFDSIM_LANES_SEED");
	unsigned int missing = 0, fast = 0;

	(void)state;
	/* a documented variable replays another seed's states */
	if (env && *env)
		seed = strtoull(env, NULL, 0);
	print_message("seed 0x%llx (KFDSIM_LANES_SEED)\n", (unsigned long long)seed);
	memset(ran, 0, sizeof(ran));
	mismatches = 0;
	for (size_t k = 0; k < sizeof(families) / sizeof(families[0]); k++)
		run_family(&families[k], seed + k);
	for (unsigned int id = 1; id < SH_OP_COUNT; id++) {
		if (!fast_op(id))
			continue;
		fast++;
		if (ran[id] < 4) {
			print_error("%s: a fast-path opcode run only %u times\n",
				    lt_op_name(id), ran[id]);
			missing++;
		}
	}
	print_message("%u fast-path opcodes, %u mismatches\n", fast, mismatches);
	assert_true(fast > 50);
	assert_int_equal(missing, 0);
	assert_int_equal(mismatches, 0);
}

/* The row of @mnemonic in @isa's table, its VOP3 form's first dword. */
static uint32_t
vop3_word0(enum kfd_isa_family isa, const char *mnemonic)
{
	struct kfd_isa_row row;
	int gap;

	for (unsigned int r = 0; (gap = kfd_isa_row(isa, r, &row)) >= 0; r++)
		if (!gap && !strcmp(row.mnemonic, mnemonic))
			return row.vop3_word0 ? row.vop3_word0 : row.word0;
	fail_msg("no row %s", mnemonic);
	return 0;
}

/* A packed source field: VGPR pair, SGPR pair, VCC, or inline constant. */
static unsigned int
pk_source(uint64_t *s)
{
	uint64_t r = lt_rand(s);

	switch (r % 6) {
	case 0: case 1: case 2:
		return 256 + (unsigned int)(r >> 8) % (LT_VREGS - 1);
	case 3:
		return (unsigned int)(r >> 8) % 100 & ~1u;
	case 4:
		return SH_VCC;
	default:
		return (r >> 8) & 1 ? 128 + (unsigned int)(r >> 9) % 81 :
		       240 + (unsigned int)(r >> 9) % 9;
	}
}

/*
 * One half of packed instruction @pk run as its unpacked VOP3 opcode
 * (@word0) on @w, per lane, into v@tmp: the sources the half selects,
 * its neg bits.
 */
static void
pk_half(enum kfd_isa_family isa, struct sh_ctx *c, uint32_t word0, unsigned int id,
	const unsigned int src[3], const unsigned int sel[3], unsigned int nsrc,
	unsigned int neg, unsigned int tmp)
{
	uint32_t code[2] = { word0 | tmp, 0 };
	struct kfd_isa_insn in;
	struct sh_insn i = { .in = &in, .id = id };

	for (unsigned int k = 0; k < nsrc; k++) {
		/* a constant is the same in both halves */
		unsigned int f = src[k] < 128 || src[k] >= 256 ? src[k] + sel[k] : src[k];

		code[1] |= f << (9 * k);
	}
	code[1] |= neg << 29;
	assert_int_equal(kfd_isa_decode(isa, (const uint8_t *)code, 8, &in), 0);
	assert_int_equal(sh_valu(c, &c->waves[0], &i), SH_NEXT);
}

/*
 * gfx90a's and gfx942's packed 32-bit VOP3P (a loop over the lanes with no
 * per-lane fallback): each half must be what the unpacked opcode gives,
 * per lane, on the dwords op_sel and op_sel_hi pick, with neg_lo and
 * neg_hi as its neg modifier.
 */
static void
test_packed_halves(void **state)
{
	static const struct {
		const char *pk, *half;
		unsigned int pk_id, half_id, nsrc;
	} ops[] = {
		{ "v_pk_mov_b32", "v_mov_b32", SH_OP_V_PK_MOV_B32, SH_OP_V_MOV_B32, 2 },
		{ "v_pk_add_f32", "v_add_f32", SH_OP_V_PK_ADD_F32, SH_OP_V_ADD_F32, 2 },
		{ "v_pk_mul_f32", "v_mul_f32", SH_OP_V_PK_MUL_F32, SH_OP_V_MUL_F32, 2 },
		{ "v_pk_fma_f32", "v_fma_f32", SH_OP_V_PK_FMA_F32, SH_OP_V_FMA_F32, 3 },
	};
	const struct lt_family *fams = families;
	uint64_t seed = 0x6c616e65706b3332ull;
	const char *env = getenv("KFDSIM_LANES_SEED");
	unsigned int runs = 0;

	(void)state;
	if (env && *env)
		seed = strtoull(env, NULL, 0);
	mismatches = 0;
	for (unsigned int fk = 0; fk < 2; fk++) {
		const struct lt_family *fam = &fams[fk];
		struct sh_ctx *cp = lt_ctx_new(fam->isa, 64, 0);
		struct sh_ctx *cr = lt_ctx_new(fam->isa, 64, 1);
		struct sh_ctx *c0 = lt_ctx_new(fam->isa, 64, 1);

		assert_non_null(cp);
		assert_non_null(cr);
		assert_non_null(c0);
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			uint32_t pk0 = vop3_word0(fam->isa, ops[k].pk);
			uint32_t half0 = vop3_word0(fam->isa, ops[k].half);

			for (unsigned int t = 0; t < 3 * 40; t++) {
				uint64_t s = seed ^ ((uint64_t)fk << 40 | (uint64_t)k << 32 | t);
				unsigned int src[3], slo[3], shi[3], vdst, op_sel, op_sel_hi;
				unsigned int neg_lo, neg_hi;
				struct sh_wave *w0 = &c0->waves[0], *p = &cp->waves[0];
				struct sh_wave *r = &cr->waves[0];
				struct sh_insn i = { .id = ops[k].pk_id };
				struct kfd_isa_insn in;
				uint32_t code[2], half[2][SH_LANES];
				uint64_t exec;

				lt_rand(&s);
				for (unsigned int n = 0; n < 3; n++)
					src[n] = n < ops[k].nsrc ? pk_source(&s) : 0;
				vdst = (unsigned int)(lt_rand(&s) % (LT_VREGS - 1));
				op_sel = (unsigned int)lt_rand(&s) & 7;
				op_sel_hi = (unsigned int)lt_rand(&s) & 7;
				neg_lo = ops[k].pk_id == SH_OP_V_PK_MOV_B32 ? 0 :
					 (unsigned int)lt_rand(&s) & 7;
				neg_hi = ops[k].pk_id == SH_OP_V_PK_MOV_B32 ? 0 :
					 (unsigned int)lt_rand(&s) & 7;
				code[0] = pk0 | vdst | neg_hi << 8 | op_sel << 11 |
					  (op_sel_hi >> 2) << 14;
				code[1] = src[0] | src[1] << 9 | src[2] << 18 |
					  (op_sel_hi & 3) << 27 | neg_lo << 29;
				if (kfd_isa_decode(fam->isa, (const uint8_t *)code, 8, &in))
					continue;
				i.in = &in;
				random_state(fam, t % 3, &s, w0);
				exec = sh_exec(w0);
				copy_wave(p, w0);
				copy_wave(r, w0);
				assert_int_equal(sh_valu(cp, p, &i), SH_NEXT);
				runs++;
				/* the reference: each half unpacked, into v40 and v41 */
				for (unsigned int n = 0; n < 3; n++) {
					slo[n] = (op_sel >> n) & 1;
					shi[n] = (op_sel_hi >> n) & 1;
				}
				if (ops[k].pk_id == SH_OP_V_PK_MOV_B32) {
					unsigned int s0[3] = { src[0] }, s1[3] = { src[1] };
					unsigned int l0[3] = { slo[0] }, l1[3] = { slo[1] };

					pk_half(fam->isa, cr, half0, ops[k].half_id, s0, l0, 1, 0, 40);
					pk_half(fam->isa, cr, half0, ops[k].half_id, s1, l1, 1, 0, 41);
				} else {
					pk_half(fam->isa, cr, half0, ops[k].half_id, src, slo,
						ops[k].nsrc, neg_lo, 40);
					pk_half(fam->isa, cr, half0, ops[k].half_id, src, shi,
						ops[k].nsrc, neg_hi, 41);
				}
				memcpy(half, &r->v[40], sizeof(half));
				copy_wave(r, w0);
				for (unsigned int l = 0; l < SH_LANES; l++) {
					if (!((exec >> l) & 1))
						continue;
					r->v[vdst][l] = half[0][l];
					r->v[vdst + 1][l] = half[1][l];
				}
				compare(fam, &in, w0, p, r);
			}
		}
		lt_ctx_free(cp);
		lt_ctx_free(cr);
		lt_ctx_free(c0);
	}
	print_message("%u packed instructions compared, %u mismatches\n", runs, mismatches);
	assert_true(runs > 500);
	assert_int_equal(mismatches, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valu_paths_agree),
		cmocka_unit_test(test_packed_halves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
