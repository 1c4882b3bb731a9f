/* SPDX-License-Identifier: MIT */
/*
 * gfx942's architected flat scratch on the interpreter (shader_scratch.c),
 * on mi300x: the CP sets a wave's FLAT_SCRATCH to its own slot (gfx90a's
 * kernels set it themselves), and a SCRATCH instruction adds its VGPR
 * address only with bit 13 (SVE) set, its SGPR address unless that is
 * off. Each of the four address forms stores a known dword per lane; the
 * bytes must land where the swizzle puts them: dword d of lane l at
 * (d * 64 + l) * 4 from the wave's base. A VGPR the instruction must not
 * read holds an address far outside the scratch.
 */
#include <stdlib.h>
#include <string.h>

#include "ktest.h"
#include "lanes_util.h"

#define SCR_VA		0x62000000ull	/* the wave's scratch (a userptr BO) */
#define SCR_SIZE	8192u

static int
setup(void **state)
{
	return kt_setup_profile(state, "mi300x");
}

/* FLAT_SCRATCH at wave start: the CP's on gfx942, the kernel's on gfx90a. */
static void
test_wave_base(void **state)
{
	static const enum kfd_isa_family fam[2] = { KFD_ISA_GFX942, KFD_ISA_GFX90A };
	uint32_t srd[4], offset;
	uint64_t fs;

	(void)state;
	for (unsigned int k = 0; k < 2; k++) {
		struct sh_ctx *c = lt_ctx_new(fam[k], SH_LANES, 0);
		struct sh_wave *w;

		assert_non_null(c);
		w = &c->waves[0];
		c->scratch_base = SCR_VA;
		c->scratch_wave = 64 * 16;
		sh_scratch_wave(c, w, 3, srd, &fs, &offset);
		assert_int_equal(fs, SCR_VA);
		assert_int_equal(offset, 3 * 64 * 16);
		assert_int_equal(sh_sreg64(w, SH_FLAT_SCR), k ? 0 : SCR_VA + 3 * 64 * 16);
		lt_ctx_free(c);
	}
}

static void
test_address_forms(void **state)
{
	/* v2: the data; v0: the VGPR address; s4: the SGPR address */
	static const struct {
		uint32_t w[2];
		const char *text;
		uint32_t s4;
		unsigned int dword;	/* where each lane's dword lands */
	} forms[] = {
		{ { 0xdc704008, 0x007f0200 }, "scratch_store_dword off, v2, off offset:8",
		  0x40000000, 2 },
		{ { 0xdc706000, 0x007f0200 }, "scratch_store_dword v0, v2, off", 0x40000000, 3 },
		{ { 0xdc704004, 0x00040200 }, "scratch_store_dword off, v2, s4 offset:4", 12, 4 },
		{ { 0xdc706004, 0x00040200 }, "scratch_store_dword v0, v2, s4 offset:4", 4, 5 },
	};
	struct kt *t = *state;
	struct ksim_cp cp = { .p = t->kfd->proc, .dev = t->dev };
	struct ksim_cpq cq = { .gpu = 0 };
	struct sh_ctx *c = lt_ctx_new(KFD_ISA_GFX942, SH_LANES, 0);
	uint32_t *scr = (uint32_t *)kt_userptr_mapped(t, 0, SCR_VA, SCR_SIZE);
	struct sh_wave *w;

	assert_non_null(c);
	c->cp = &cp;
	c->cq = &cq;
	w = &c->waves[0];
	for (unsigned int f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		struct kfd_isa_insn in;
		struct kfd_isa_row row;
		struct sh_insn i;
		enum sh_step s;
		/* with SVE the VGPR is 12; without, an address it must not use */
		uint32_t vaddr = (forms[f].w[0] >> 13) & 1 ? 12 : 0x40000000;

		memset(scr, 0, SCR_SIZE);
		memset(w->s, 0, sizeof(w->s));
		sh_set_sreg64(w, SH_FLAT_SCR, SCR_VA);
		sh_set_exec(w, ~0ull);
		w->s[4] = forms[f].s4;
		for (unsigned int l = 0; l < SH_LANES; l++) {
			w->v[0][l] = vaddr;
			w->v[2][l] = 0x1000u * (f + 1) + l;
		}
		assert_int_equal(kfd_isa_decode(KFD_ISA_GFX942, (const uint8_t *)forms[f].w,
						8, &in), 0);
		assert_string_equal(in.text, forms[f].text);
		assert_int_equal(kfd_isa_row(KFD_ISA_GFX942, in.f.row, &row), 0);
		i.in = &in;
		i.id = lt_op_of(KFD_ISA_GFX942, &row);
		assert_int_not_equal(i.id, SH_OP_NONE);
		pthread_mutex_lock(&t->dev->lock);
		s = sh_mem(c, w, &i);
		pthread_mutex_unlock(&t->dev->lock);
		assert_int_equal(s, SH_NEXT);
		for (unsigned int l = 0; l < SH_LANES; l++)
			assert_int_equal(scr[forms[f].dword * 64 + l], 0x1000u * (f + 1) + l);
		/* nothing else written */
		for (unsigned int k = 0; k < SCR_SIZE / 4; k++)
			if (k / 64 != forms[f].dword)
				assert_int_equal(scr[k], 0);
	}
	lt_ctx_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wave_base),
		cmocka_unit_test_setup_teardown(test_address_forms, setup, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
