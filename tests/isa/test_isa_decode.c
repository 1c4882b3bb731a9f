// SPDX-License-Identifier: MIT
/*
 * kfd_isa_decode() on hand-picked gfx90a instructions, one or more per
 * encoding (words and texts as llvm-objdump 15 printed them), and its
 * contract for what it cannot decode: length 4, a reason, no guess.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kfdtrace/isa.h"

struct golden {
	uint32_t w[3];
	unsigned int length;
	const char *text;
};

static const struct golden goldens[] = {
	{ { 0x8604ff1c, 0x0000ffff }, 8, "s_and_b32 s4, s28, 0xffff" },
	{ { 0xbe84206a }, 4, "s_and_saveexec_b64 s[4:5], vcc" },
	{ { 0xbf068413 }, 4, "s_cmp_eq_u32 s19, 4" },
	{ { 0xb00a0204 }, 4, "s_movk_i32 s10, 0x204" },
	{ { 0xbf8c0000 }, 4, "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)" },
	{ { 0xbf8cc07f }, 4, "s_waitcnt lgkmcnt(0)" },
	{ { 0xbf8200d4 }, 4, "s_branch 212" },
	{ { 0xc0120303, 0x00000000 }, 8, "s_load_dwordx16 s[12:27], s[6:7], 0x0" },
	/* an SGPR offset (soe) plus the signed immediate (llvm-mc 15) */
	{ { 0xc0024000, 0x04000010 }, 8, "s_load_dword s0, s[0:1], s2 offset:0x10" },
	{ { 0xc0024000, 0x041ffff0 }, 8, "s_load_dword s0, s[0:1], s2 offset:-0x10" },
	{ { 0xc0004000, 0x04000000 }, 8, "s_load_dword s0, s[0:1], s2" },
	{ { 0x2e000901, 0x3ed55555 }, 8, "v_madmk_f32 v0, v1, 0x3ed55555, v4" },
	{ { 0x380a0b06 }, 4, "v_addc_co_u32_e32 v5, vcc, v6, v5, vcc" },
	{ { 0x7e10050a }, 4, "v_readfirstlane_b32 s8, v10" },
	{ { 0x7c9a04f2 }, 4, "v_cmp_neq_f32_e32 vcc, 1.0, v2" },
	{ { 0xd04d016a, 0x00001700 }, 8, "v_cmp_neq_f32_e64 vcc, |v0|, s11" },
	{ { 0xd1cb0009, 0x84160300 }, 8, "v_fma_f32 v9, v0, v1, -v5" },
	{ { 0xd1e80400, 0x04083905 }, 8, "v_mad_u64_u32 v[0:1], s[4:5], v5, s28, v[2:3]" },
	{ { 0xd3b24204, 0x58020906 }, 8,
	  "v_pk_add_f32 v[4:5], v[6:7], v[4:5] neg_lo:[0,1] neg_hi:[0,1]" },
	{ { 0xd3a0400b, 0x0420010a }, 8, "v_fma_mix_f32 v11, v10, s0, v8 op_sel_hi:[0,0,1]" },
	{ { 0x281618f9, 0x0603050b }, 8,
	  "v_or_b32_sdwa v11, v11, v12 dst_sel:WORD_1 dst_unused:UNUSED_PAD "
	  "src0_sel:BYTE_3 src1_sel:DWORD" },
	{ { 0x7e0002fa, 0xff00e401 }, 8,
	  "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf" },
	{ { 0x020400fa, 0xff911f01 }, 8,
	  "v_add_f32_dpp v2, -v1, |v0| row_shr:15 row_mask:0xf bank_mask:0xf" },
	{ { 0xdc5c8010, 0x0e7f0008 }, 8, "global_load_dwordx4 v[14:17], v[8:9], off offset:16" },
	{ { 0xe00c2000, 0x80000000 }, 8, "buffer_load_format_xyzw v[0:3], v0, s[0:3], 0 idxen" },
	{ { 0xf0005f00, 0x00020012 }, 8, "image_load v[0:3], v18, s[8:15] dmask:0xf unorm da" },
	{ { 0xd86e0201, 0x00000002 }, 8, "ds_read2_b32 v[0:1], v2 offset0:1 offset1:2" },
	/* GWS: no address VGPR (llvm-mc 15) */
	{ { 0xd9330000, 0x00000000 }, 8, "ds_gws_init v0 gds" },
	{ { 0xd9350000, 0x00000000 }, 8, "ds_gws_sema_v gds" },
	{ { 0xd9370003, 0x00000200 }, 8, "ds_gws_sema_br v2 offset:3 gds" },
	{ { 0xd9390000, 0x00000000 }, 8, "ds_gws_sema_p gds" },
	{ { 0xd93b0001, 0x00000200 }, 8, "ds_gws_barrier v2 offset:1 gds" },
	/* device printf, traps and private memory */
	{ { 0xbf900001 }, 4, "s_sendmsg sendmsg(MSG_INTERRUPT)" },
	{ { 0xbf920002 }, 4, "s_trap 2" },
	{ { 0xb884780f }, 4, "s_getreg_b32 s4, hwreg(HW_REG_SH_MEM_BASES, 0, 16)" },
	{ { 0xe0a0c000, 0x00000000 }, 8, "buffer_wbl2" },
	{ { 0xe0fc0000, 0x00000000 }, 8, "buffer_wbinvl1_vol" },
	/* ds_swizzle_b32's offset spelled as the pattern it encodes */
	{ { 0xd87a041f, 0x07000006 }, 8, "ds_swizzle_b32 v7, v6 offset:swizzle(SWAP,1)" },
	{ { 0xd87a7c1f, 0x07000006 }, 8, "ds_swizzle_b32 v7, v6 offset:swizzle(REVERSE,32)" },
	{ { 0xd87a0078, 0x08000006 }, 8,
	  "ds_swizzle_b32 v8, v6 offset:swizzle(BROADCAST,8,3)" },
	{ { 0xd87a449a, 0x07000006 }, 8,
	  "ds_swizzle_b32 v7, v6 offset:swizzle(BITMASK_PERM,\"ip1p1\")" },
	{ { 0xd87a80b1, 0x06000006 }, 8,
	  "ds_swizzle_b32 v6, v6 offset:swizzle(QUAD_PERM,1,0,3,2)" },
	{ { 0xd87a8ab1, 0x07000006 }, 8, "ds_swizzle_b32 v7, v6 offset:35505" },
	/* VOPC in SDWA: the mask goes to vcc */
	{ { 0x7d9812f9, 0x00060006 }, 8,
	  "v_cmp_gt_u32_sdwa vcc, v6, v9 src0_sel:DWORD src1_sel:BYTE_0" },
};

static void put_words(uint8_t *b, const uint32_t *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		b[4 * i] = (uint8_t)w[i];
		b[4 * i + 1] = (uint8_t)(w[i] >> 8);
		b[4 * i + 2] = (uint8_t)(w[i] >> 16);
		b[4 * i + 3] = (uint8_t)(w[i] >> 24);
	}
}

static void test_goldens(void **state)
{
	struct kfd_isa_insn insn;
	uint8_t b[12];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		put_words(b, goldens[i].w, 3);
		assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, sizeof(b), &insn), 0);
		assert_string_equal(insn.text, goldens[i].text);
		assert_int_equal(insn.length, goldens[i].length);
		assert_non_null(insn.mnemonic);
		assert_null(insn.reason);
	}
}

static void expect_unknown(const uint32_t *w, size_t size, const char *reason)
{
	struct kfd_isa_insn insn;
	uint8_t b[16];

	put_words(b, w, 4);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, size, &insn), -1);
	assert_int_equal(insn.length, 4);
	assert_null(insn.mnemonic);
	assert_string_equal(insn.reason, reason);
	assert_true(!strncmp(insn.text, "unknown: ", 9));
}

static void test_unknown(void **state)
{
	/* s_and_b32 with its literal cut off */
	static const uint32_t lit[4] = { 0x8604ff1c };
	/* SOPP opcode 127: none in the table */
	static const uint32_t sopp[4] = { 0xbfff0000 };
	/* v_cmp_eq_u32_dpp: gfx9 has no DPP form of VOPC */
	static const uint32_t dpp[4] = { 0x7d9402fa, 0xff00e400 };
	/* a global load cut after its first dword */
	static const uint32_t load[4] = { 0xdc508000 };
	/* s_sendmsg of message 0, and s_getreg_b32 of register 0 */
	static const uint32_t msg[4] = { 0xbf900000 };
	static const uint32_t reg[4] = { 0xb8840000 };
	/* ds_gws_init without gds: LLVM knows no such form */
	static const uint32_t gws[4] = { 0xd9320000, 0x00000000 };

	(void)state;
	expect_unknown(lit, 4, "literal constant past the end of the code");
	expect_unknown(sopp, 4, "opcode not in the table");
	expect_unknown(dpp, 8, "VOPC has no DPP form on gfx9");
	expect_unknown(load, 4, "instruction past the end of the code");
	expect_unknown(load, 0, "no code left");
	expect_unknown(msg, 4, "sendmsg operand not covered");
	expect_unknown(reg, 4, "hwreg register not covered");
	expect_unknown(gws, 8, "GWS without gds");
}

/*
 * Any dwords at all: the decoder answers, with a length the caller can
 * step by and a terminated text, and never reads past @size.
 */
static void test_any_words(void **state)
{
	struct kfd_isa_insn insn;
	uint32_t x = 0x9e3779b9u, w[3];
	uint8_t b[12];
	unsigned int i, known = 0;
	size_t size;

	(void)state;
	for (i = 0; i < 200000; i++) {
		for (size_t k = 0; k < 3; k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			w[k] = x;
		}
		put_words(b, w, 3);
		size = 4 * (1 + i % 3);
		if (kfd_isa_decode(KFD_ISA_GFX90A, b, size, &insn) == 0) {
			known++;
			assert_non_null(insn.mnemonic);
			assert_true(insn.length == 4 || insn.length == 8);
			assert_true(insn.length <= size);
		} else {
			assert_int_equal(insn.length, 4);
			assert_non_null(insn.reason);
		}
		assert_non_null(memchr(insn.text, 0, sizeof(insn.text)));
	}
	/* the table covers much of the space: a decoder that refused
	 * everything would pass the checks above */
	assert_true(known > 20000);
}

static void test_family(void **state)
{
	enum kfd_isa_family f;

	(void)state;
	assert_int_equal(kfd_isa_family_by_name("gfx90a", &f), 0);
	assert_int_equal(f, KFD_ISA_GFX90A);
	assert_int_equal(kfd_isa_family_by_name("gfx1030", &f), 0);
	assert_int_equal(f, KFD_ISA_GFX1030);
	/* no table yet: never decoded as another family's code */
	assert_int_equal(kfd_isa_family_by_name("gfx1100", &f), -1);
}

/* The structured form: the row, its form, its operand sizes and literal. */
static void test_fields(void **state)
{
	static const uint32_t and_lit[] = { 0x8604ff1c, 0x0000ffff };
	static const uint32_t cmp_e64[] = { 0xd04d016a, 0x00001700 };
	static const uint32_t madmk[] = { 0x2e000901, 0x3ed55555 };
	struct kfd_isa_row row;
	struct kfd_isa_insn in;
	uint8_t b[16];

	(void)state;
	put_words(b, and_lit, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 8, &in), 0);
	assert_int_equal(in.f.enc, KFD_ISA_SOP2);
	assert_int_equal(in.f.form, KFD_ISA_FORM_NATIVE);
	assert_int_equal(in.f.has_literal, 1);
	assert_int_equal(in.f.literal, 0xffff);
	assert_int_equal(in.f.words[0], and_lit[0]);
	assert_int_equal(kfd_isa_row(KFD_ISA_GFX90A, in.f.row, &row), 0);
	assert_string_equal(row.mnemonic, "s_and_b32");
	assert_int_equal(row.opcode, in.f.opcode);

	put_words(b, cmp_e64, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 8, &in), 0);
	assert_int_equal(in.f.enc, KFD_ISA_VOPC);
	assert_int_equal(in.f.form, KFD_ISA_FORM_VOP3);
	assert_int_equal(in.f.has_literal, 0);
	assert_int_equal(in.f.dst_dwords, 2);
	assert_int_equal(kfd_isa_row(KFD_ISA_GFX90A, in.f.row, &row), 0);
	assert_string_equal(row.mnemonic, "v_cmp_neq_f32");

	put_words(b, madmk, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 8, &in), 0);
	assert_int_equal(in.f.enc, KFD_ISA_VOP2);
	assert_int_equal(in.f.has_literal, 1);
	assert_int_equal(in.f.literal, 0x3ed55555);
}

/* gfx942: what it encodes otherwise than gfx90a (llvm-objdump 15, gfx940). */
static const struct golden gfx942_goldens[] = {
	{ { 0xde538000, 0x017f0002 }, 8, "global_load_dword v1, v[2:3], off sc0 nt sc1" },
	{ { 0xdc708000, 0x007f0200 }, 8, "global_store_dword v[0:1], v2, off" },
	{ { 0xe052c000, 0x80000100 }, 8, "buffer_load_dword v1, off, s[0:3], 0 sc0 nt sc1" },
	{ { 0xd2080004, 0x04010004 }, 8, "v_lshl_add_u64 v[4:5], s[4:5], 0, v[0:1]" },
	{ { 0x7e007102 }, 4, "v_mov_b64_e32 v[0:1], v[2:3]" },
	{ { 0x2e000901, 0x3ed55555 }, 8, "v_fmamk_f32 v0, v1, 0x3ed55555, v4" },
	{ { 0x02040f06 }, 4, "v_add_f32_e32 v2, v6, v7" },
	/* cache controls with their scope; SCRATCH's VGPR only with SVE */
	{ { 0xe0a4c000, 0x00000000 }, 8, "buffer_inv sc0 sc1" },
	{ { 0xe0a0c000, 0x00000000 }, 8, "buffer_wbl2 sc0 sc1" },
	{ { 0xdc7040fc, 0x007f0000 }, 8, "scratch_store_dword off, v0, off offset:252" },
	{ { 0xdc506000, 0x017f0000 }, 8, "scratch_load_dword v1, v0, off" },
	{ { 0xdc704020, 0x00212a00 }, 8, "scratch_store_dword off, v42, s33 offset:32" },
	{ { 0xdd348000, 0x00080001 }, 8, "global_atomic_add_f32 v1, v0, s[8:9]" },
};

static void test_gfx942(void **state)
{
	/* gone on gfx942: image_load and v_mac_f32 */
	static const uint32_t image[] = { 0xf0005f00, 0x00020012 };
	static const uint32_t mac[] = { 0x2c000901 };
	struct kfd_isa_insn insn;
	struct kfd_isa_row row;
	enum kfd_isa_family f;
	unsigned int i, gaps = 0;
	uint8_t b[12];
	int r;

	(void)state;
	assert_int_equal(kfd_isa_family_by_name("gfx942", &f), 0);
	assert_int_equal(f, KFD_ISA_GFX942);
	for (i = 0; i < sizeof(gfx942_goldens) / sizeof(gfx942_goldens[0]); i++) {
		put_words(b, gfx942_goldens[i].w, 3);
		assert_int_equal(kfd_isa_decode(KFD_ISA_GFX942, b, sizeof(b), &insn), 0);
		assert_string_equal(insn.text, gfx942_goldens[i].text);
		assert_int_equal(insn.length, gfx942_goldens[i].length);
		/* the row index names the row decoded, own or gfx90a's */
		assert_int_equal(kfd_isa_row(KFD_ISA_GFX942, insn.f.row, &row), 0);
		assert_int_equal(row.opcode, insn.f.opcode);
		assert_true(!strncmp(insn.mnemonic, "global_", 7) ||
			    !strncmp(insn.mnemonic, row.mnemonic, strlen(row.mnemonic)));
	}
	put_words(b, image, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX942, b, 8, &insn), -1);
	put_words(b, mac, 1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX942, b, 4, &insn), -1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 4, &insn), 0);
	assert_string_equal(insn.text, "v_mac_f32_e32 v0, v1, v4");
	/* each dropped or replaced gfx90a row is a gap in the numbering */
	for (i = 0; (r = kfd_isa_row(KFD_ISA_GFX942, i, &row)) >= 0; i++)
		gaps += r == 1;
	assert_int_equal(gaps, 10);
}

/*
 * gfx908: what gfx90a took over or added (llvm-mc 15): VOP2 opcode 4,
 * packed f32, the L2 cache controls and the AGPR bit of memory
 * instructions.
 */
static void test_gfx908(void **state)
{
	static const uint32_t mul_legacy[] = { 0x08000501 };
	static const uint32_t pk_fma[] = { 0xd3b00000, 0x18020100 };
	static const uint32_t wbl2[] = { 0xe0a00000, 0x00000000 };
	static const uint32_t load_acc[] = { 0xdc508000, 0x01800000 };
	static const uint32_t load[] = { 0xdc508000, 0x01000000 };
	struct kfd_isa_insn insn;
	enum kfd_isa_family f;
	uint8_t b[12];

	(void)state;
	assert_int_equal(kfd_isa_family_by_name("gfx908", &f), 0);
	assert_int_equal(f, KFD_ISA_GFX908);
	put_words(b, mul_legacy, 1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX908, b, 4, &insn), 0);
	assert_string_equal(insn.text, "v_mul_legacy_f32_e32 v0, v1, v2");
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 4, &insn), 0);
	assert_string_equal(insn.text, "v_fmac_f64_e32 v[0:1], v[1:2], v[2:3]");
	put_words(b, pk_fma, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX908, b, 8, &insn), -1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 8, &insn), 0);
	put_words(b, wbl2, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX908, b, 8, &insn), -1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 8, &insn), 0);
	put_words(b, load_acc, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX908, b, 8, &insn), -1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 8, &insn), 0);
	assert_string_equal(insn.text, "global_load_dword a1, v0, s[0:1]");
	put_words(b, load, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX908, b, 8, &insn), 0);
	assert_string_equal(insn.text, "global_load_dword v1, v0, s[0:1]");
}

/* gfx1030: gfx10's encodings and wave32 (llvm-objdump 15). */
static const struct golden gfx1030_goldens[] = {
	{ { 0xbe803c01 }, 4, "s_and_saveexec_b32 s0, s1" },
	{ { 0xbf8c0070 }, 4, "s_waitcnt vmcnt(0) lgkmcnt(0)" },
	{ { 0xbbfd0000 }, 4, "s_waitcnt_vscnt null, 0x0" },
	{ { 0xbfa10001 }, 4, "s_clause 0x1" },
	{ { 0xf4000040, 0xfa00002c }, 8, "s_load_dword s1, s[0:1], 0x2c" },
	{ { 0xf4054082, 0xfa000010 }, 8, "s_load_dwordx2 s[2:3], s[4:5], 0x10 glc dlc" },
	{ { 0x7d840200 }, 4, "v_cmp_eq_u32_e32 vcc_lo, s0, v1" },
	{ { 0xd4940000, 0x00020200 }, 8, "v_cmpx_gt_i32_e64 s0, v1" },
	{ { 0xd5010000, 0x000e0501 }, 8, "v_cndmask_b32_e64 v0, v1, v2, s3" },
	{ { 0xd70f6a00, 0x00020501 }, 8, "v_add_co_u32 v0, vcc_lo, v1, v2" },
	{ { 0x50000501 }, 4, "v_add_co_ci_u32_e32 v0, vcc_lo, v1, v2, vcc_lo" },
	{ { 0xd5760000, 0x04120501 }, 8, "v_mad_u64_u32 v[0:1], s0, v1, v2, v[4:5]" },
	{ { 0xdc339ff0, 0x01040002 }, 8,
	  "global_load_dword v1, v2, s[4:5] offset:-16 glc slc dlc" },
	{ { 0xd8d80010, 0x00000001 }, 8, "ds_read_b32 v0, v1 offset:16" },
	{ { 0xd8660000, 0x00000000 }, 8, "ds_gws_init v0 gds" },
	{ { 0xd86a0000, 0x00000000 }, 8, "ds_gws_sema_v gds" },
	{ { 0xd86e0003, 0x00000100 }, 8, "ds_gws_sema_br v1 offset:3 gds" },
	{ { 0xd8720000, 0x00000000 }, 8, "ds_gws_sema_p gds" },
	{ { 0xd8760001, 0x00000200 }, 8, "ds_gws_barrier v2 offset:1 gds" },
	{ { 0xe030d000, 0x80400102 }, 8, "buffer_load_dword v1, v2, s[0:3], 0 offen glc slc dlc" },
	{ { 0xe1c40000, 0x00000000 }, 8, "buffer_gl0_inv" },
	{ { 0xf0001f08, 0x00010000 }, 8,
	  "image_load v[0:3], v[0:1], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D unorm" },
	/* SDWA, DPP16 and DPP8, 16-bit and mixed precision, hwreg, scratch */
	{ { 0x380000f9, 0x06040605 }, 8,
	  "v_or_b32_sdwa v0, v5, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD" },
	{ { 0x7d8400f9, 0x06048405 }, 8,
	  "v_cmp_eq_u32_sdwa s4, v5, v0 src0_sel:WORD_0 src1_sel:DWORD" },
	{ { 0x500000fa, 0xff015105 }, 8,
	  "v_add_co_ci_u32_dpp v0, vcc_lo, v5, v0, vcc_lo row_share:1 row_mask:0xf bank_mask:0xf" },
	{ { 0x7e0002fa, 0xff016301 }, 8,
	  "v_mov_b32_dpp v0, v1 row_xmask:3 row_mask:0xf bank_mask:0xf" },
	{ { 0x060000ea, 0x24924905 }, 8, "v_add_f32_dpp v0, v5, v0 dpp8:[1,1,1,1,1,1,1,1] fi:1" },
	{ { 0x6a0002f2 }, 4, "v_mul_f16_e32 v0, 1.0, v1" },
	{ { 0xd74b0000, 0x03fe0501, 0x00001234 }, 12, "v_fma_f16 v0, v1, v2, 0x1234" },
	{ { 0xcc210000, 0x040e0501 }, 8, "v_fma_mixlo_f16 v0, v1, v2, v3" },
	{ { 0xb98cf814 }, 4, "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s12" },
	{ { 0xdc704010, 0x007f0100 }, 8, "scratch_store_dword off, v1, off offset:16" },
	{ { 0xdc848000, 0x007d0000 }, 8, "global_load_ubyte_d16_hi v0, v[0:1], off" },
	{ { 0xdacc0000, 0x01000302 }, 8, "ds_bpermute_b32 v1, v2, v3" },
	{ { 0xd8d4041f, 0x07000006 }, 8, "ds_swizzle_b32 v7, v6 offset:swizzle(SWAP,1)" },
	/* lane permutes (op_sel: fi, bound_ctrl) and dot products (llvm-mc 15) */
	{ { 0xd7770001, 0x00100702 }, 8, "v_permlane16_b32 v1, v2, s3, s4" },
	{ { 0xd7781005, 0x00110306 }, 8, "v_permlanex16_b32 v5, v6, 1, s4 op_sel:[0,1]" },
	{ { 0xd7771801, 0x00100702 }, 8, "v_permlane16_b32 v1, v2, s3, s4 op_sel:[1,1]" },
	{ { 0xcc134001, 0x1c120702 }, 8, "v_dot2_f32_f16 v1, v2, v3, v4" },
	{ { 0xcc134801, 0x14120702 }, 8,
	  "v_dot2_f32_f16 v1, v2, v3, v4 op_sel:[1,0,0] op_sel_hi:[0,1,1]" },
	{ { 0xcc144001, 0x1c120702 }, 8, "v_dot2_i32_i16 v1, v2, v3, v4" },
	{ { 0xcc154001, 0x1c120702 }, 8, "v_dot2_u32_u16 v1, v2, v3, v4" },
	{ { 0xcc164001, 0x1c120702 }, 8, "v_dot4_i32_i8 v1, v2, v3, v4" },
	{ { 0xcc170001, 0x04120702 }, 8, "v_dot4_u32_u8 v1, v2, v3, v4 op_sel_hi:[0,0,0]" },
	{ { 0xcc184001, 0x1c120702 }, 8, "v_dot8_i32_i4 v1, v2, v3, v4" },
	{ { 0xcc194001, 0x1c120702 }, 8, "v_dot8_u32_u4 v1, v2, v3, v4" },
	{ { 0x04020702 }, 4, "v_dot2c_f32_f16_e32 v1, v2, v3" },
	{ { 0x1a020702 }, 4, "v_dot4c_i32_i8_e32 v1, v2, v3" },	/* a second-level trap handler's entry and return (kfdtest's) */
	{ { 0xb97af803 }, 4, "s_getreg_b32 ttmp14, hwreg(HW_REG_TRAPSTS)" },
	{ { 0xb9eef807 }, 4, "s_setreg_b32 hwreg(HW_REG_IB_STS), ttmp2" },
	{ { 0xb9f8f802 }, 4, "s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12" },
	{ { 0x7e08026d }, 4, "v_mov_b32_e32 v4, ttmp1" },
	{ { 0xbe80226c }, 4, "s_rfe_b64 ttmp[0:1]" },
};

static void test_gfx1030(void **state)
{
	struct kfd_isa_insn insn;
	struct kfd_isa_row row;
	uint8_t b[12];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(gfx1030_goldens) / sizeof(gfx1030_goldens[0]); i++) {
		put_words(b, gfx1030_goldens[i].w, 3);
		assert_int_equal(kfd_isa_decode(KFD_ISA_GFX1030, b, sizeof(b), &insn), 0);
		assert_string_equal(insn.text, gfx1030_goldens[i].text);
		assert_int_equal(insn.length, gfx1030_goldens[i].length);
		assert_int_equal(kfd_isa_row(KFD_ISA_GFX1030, insn.f.row, &row), 0);
	}
	/* the same word means another compare on gfx90a, in wave64 */
	put_words(b, gfx1030_goldens[6].w, 1);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, b, 4, &insn), 0);
	assert_string_equal(insn.text, "v_cmp_eq_i32_e32 vcc, s0, v1");
	/* a v_cmpx writes exec only: no destination in the row */
	put_words(b, gfx1030_goldens[7].w, 2);
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX1030, b, 8, &insn), 0);
	assert_int_equal(insn.f.dst_dwords, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_any_words),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_gfx942),
		cmocka_unit_test(test_gfx908),
		cmocka_unit_test(test_gfx1030),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
