/* SPDX-License-Identifier: MIT */
/*
 * The LDS 64-bit atomics (shader_ds64.c) on a bare wave: ds_add_f64
 * and ds_add_rtn_f64, with lanes adding into one address one after the
 * other, lanes at addresses of their own, an inactive lane, a lane past
 * the work-group's LDS (reads zero, drops its add) and the offset field.
 * Each sum is exact in double, so every byte is known. ds_cmpst_rtn_b64
 * the same way: lanes that share an address see each other's stores in
 * lane order, and a compare that differs in the high dword fails.
 */
#include <string.h>

#include "ktest.h"
#include "lanes_util.h"

#define LDS_SIZE	1024u
#define SHARED		64u	/* lanes 0..31 add here, before the offset */
#define OFFSET		8u

static double
lds_at(const uint8_t *lds, uint32_t a)
{
	double v;

	memcpy(&v, lds + a, 8);
	return v;
}

static uint64_t
lds64(const uint8_t *lds, uint32_t a)
{
	uint64_t v;

	memcpy(&v, lds + a, 8);
	return v;
}

static void
set64(struct sh_wave *w, unsigned int vgpr, unsigned int lane, uint64_t v)
{
	w->v[vgpr][lane] = (uint32_t)v;
	w->v[vgpr + 1][lane] = (uint32_t)(v >> 32);
}

static uint64_t
get64(const struct sh_wave *w, unsigned int vgpr, unsigned int lane)
{
	return (uint64_t)w->v[vgpr + 1][lane] << 32 | w->v[vgpr][lane];
}

static void
set_data(struct sh_wave *w, unsigned int vgpr, unsigned int lane, double v)
{
	uint64_t b;

	memcpy(&b, &v, 8);
	set64(w, vgpr, lane, b);
}

static double
get_data(const struct sh_wave *w, unsigned int vgpr, unsigned int lane)
{
	uint64_t b = get64(w, vgpr, lane);
	double v;

	memcpy(&v, &b, 8);
	return v;
}

/*
 * A gfx90a wave over @lds (LDS_SIZE bytes and 64 past them, zeroed):
 * lanes 0..31 address SHARED, lanes 32..62 addresses of their own, lane
 * 63 one past the LDS (v0), and lane 40 is inactive.
 */
static struct sh_ctx *
wave_new(uint8_t *lds)
{
	struct sh_ctx *c = lt_ctx_new(KFD_ISA_GFX90A, 64, 0);
	struct sh_wave *w;

	assert_non_null(c);
	w = &c->waves[0];
	memset(lds, 0, LDS_SIZE + 64);
	c->lds = lds;
	c->lds_size = LDS_SIZE;
	sh_set_exec(w, ~0ull & ~(1ull << 40));
	for (unsigned int l = 0; l < SH_LANES; l++)
		w->v[0][l] = l < 32 ? SHARED : l < 63 ? 128 + 8 * l : LDS_SIZE;
	return c;
}

/* Run ds_add_f64 (@rtn: ds_add_rtn_f64 into v[4:5]) v0, v[2:3] offset:8. */
static void
run(struct sh_ctx *c, int rtn)
{
	uint32_t code[2] = { (rtn ? 0xd8f80000u : 0xd8b80000u) | OFFSET,
			     0u | 2u << 8 | (rtn ? 4u << 24 : 0) };
	struct kfd_isa_insn in;
	struct sh_insn i = { .in = &in, .id = rtn ? SH_OP_DS_ADD_RTN_F64 : SH_OP_DS_ADD_F64 };

	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, (const uint8_t *)code, 8, &in), 0);
	assert_string_equal(in.mnemonic, rtn ? "ds_add_rtn_f64" : "ds_add_f64");
	assert_int_equal(sh_mem(c, &c->waves[0], &i), SH_NEXT);
}

static void
test_ds_add_f64(void **state)
{
	static uint8_t lds[LDS_SIZE + 64];
	struct sh_ctx *c = wave_new(lds);
	struct sh_wave *w = &c->waves[0];
	double sum = 1.0;

	(void)state;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		set_data(w, 2, l, 0.25 * (l + 1));
		set_data(w, 4, l, -1.0);
	}
	memcpy(lds + SHARED + OFFSET, &sum, 8);
	memcpy(lds + LDS_SIZE, &sum, 8);	/* beyond lds_size: untouched */

	run(c, 0);
	for (unsigned int l = 0; l < 32; l++)
		sum += 0.25 * (l + 1);
	assert_true(lds_at(lds, SHARED + OFFSET) == sum);	/* 1 + 132: lane order */
	for (unsigned int l = 32; l < 63; l++)
		assert_true(lds_at(lds, 128 + 8 * l + OFFSET) == (l == 40 ? 0 : 0.25 * (l + 1)));
	assert_true(lds_at(lds, LDS_SIZE) == 1.0);
	/* ds_add_f64 returns nothing */
	assert_true(get_data(w, 4, 0) == -1.0);

	/* again, returning: each lane gets the value before its own add */
	run(c, 1);
	for (unsigned int l = 0; l < 32; l++) {
		assert_true(get_data(w, 4, l) == sum);
		sum += 0.25 * (l + 1);
	}
	assert_true(lds_at(lds, SHARED + OFFSET) == sum);
	assert_true(get_data(w, 4, 33) == 0.25 * 34);
	assert_true(lds_at(lds, 128 + 8 * 33 + OFFSET) == 0.5 * 34);
	assert_true(get_data(w, 4, 40) == -1.0);	/* inactive: untouched */
	assert_true(get_data(w, 4, 63) == 0.0);		/* outside reads zero */
	assert_true(lds_at(lds, LDS_SIZE) == 1.0);
	lt_ctx_free(c);
}

/*
 * ds_cmpst_rtn_b64 v[4:5], v0, v[2:3], v[6:7] offset:8: where LDS holds
 * data0 (the compare), it gets data1; vdst gets the value before.
 */
static void
test_ds_cmpst_rtn_b64(void **state)
{
	static uint8_t lds[LDS_SIZE + 64];
	uint32_t code[2] = { 0xd8e00000u | OFFSET, 0u | 2u << 8 | 6u << 16 | 4u << 24 };
	struct sh_ctx *c = wave_new(lds);
	struct sh_wave *w = &c->waves[0];
	struct kfd_isa_insn in;
	struct sh_insn i = { .in = &in, .id = SH_OP_DS_CMPST_RTN_B64 };
	const uint64_t first = 0x3ff0000000000000ull, high = 1ull << 32;

	(void)state;
	assert_int_equal(kfd_isa_decode(KFD_ISA_GFX90A, (const uint8_t *)code, 8, &in), 0);
	assert_string_equal(in.mnemonic, "ds_cmpst_rtn_b64");
	/*
	 * Lanes 0..31 share an address that holds @first: each compares
	 * with @first and stores 100 + lane, but lane 5 compares with lane
	 * 0's store. Lanes 32..62 have addresses of their own, holding 0:
	 * even lanes compare with 0, odd ones with 1 << 32.
	 */
	for (unsigned int l = 0; l < SH_LANES; l++) {
		set64(w, 2, l, l < 32 ? (l == 5 ? 100 : first) : l % 2 ? high : 0);
		set64(w, 6, l, 100 + l);
		set64(w, 4, l, ~0ull);
	}
	memcpy(lds + SHARED + OFFSET, &first, 8);
	memcpy(lds + LDS_SIZE, &first, 8);	/* beyond lds_size: untouched */
	assert_int_equal(sh_mem(c, w, &i), SH_NEXT);

	assert_true(get64(w, 4, 0) == first);
	for (unsigned int l = 1; l < 32; l++)
		assert_true(get64(w, 4, l) == (l <= 5 ? 100u : 105u));
	assert_true(lds64(lds, SHARED + OFFSET) == 105);
	for (unsigned int l = 32; l < 63; l++) {
		if (l == 40) {
			assert_true(get64(w, 4, l) == ~0ull);	/* inactive */
			assert_true(lds64(lds, 128 + 8 * l + OFFSET) == 0);
			continue;
		}
		assert_true(get64(w, 4, l) == 0);
		assert_true(lds64(lds, 128 + 8 * l + OFFSET) == (l % 2 ? 0 : 100u + l));
	}
	assert_true(get64(w, 4, 63) == 0);		/* outside reads zero */
	assert_true(lds64(lds, LDS_SIZE) == first);
	lt_ctx_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ds_add_f64),
		cmocka_unit_test(test_ds_cmpst_rtn_b64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
