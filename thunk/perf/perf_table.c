/* SPDX-License-Identifier: MIT */
/*
 * Counter tables per GPU generation: for each hardware block, how many
 * counters it runs at once and which event ids it offers, as AMD's
 * library publishes them for GFX9 (Vega, MI) and GFX10 (Navi). Other
 * generations have no table, where AMD's library (5.2.3 and newer alike)
 * answers INVALID_PARAMETER; the pre-GFX9 tables are left out on purpose
 * (no ROCm 5.x runtime supports those GPUs for compute).
 */
#include "perf/perf_priv.h"

#define R1(a, b)		1, { { a, b } }
#define R2(a, b, c, d)		2, { { a, b }, { c, d } }

/* GFX9: Vega10/12/20, Raven, Arcturus, Aldebaran, GC 9.4.x. */
static const struct kmt_pmc_block pmc_gfx9[] = {
	{ KMT_PMC_CB,     7,  R1(0, 437) },
	{ KMT_PMC_CPF,    5,  R1(0, 31) },
	{ KMT_PMC_CPG,    5,  R1(0, 58) },
	{ KMT_PMC_DB,     12, R1(0, 327) },
	{ KMT_PMC_GDS,    4,  R1(0, 120) },
	{ KMT_PMC_GRBM,   2,  R1(0, 37) },
	{ KMT_PMC_GRBMSE, 1,  R1(0, 15) },
	{ KMT_PMC_IA,     7,  R1(0, 31) },
	{ KMT_PMC_PASC,   11, R1(0, 490) },
	{ KMT_PMC_PASU,   10, R1(0, 291) },
	{ KMT_PMC_SPI,    18, R1(0, 195) },
	{ KMT_PMC_SQ,     16, R2(1, 183, 255, 372) },
	{ KMT_PMC_SX,     4,  R1(0, 207) },
	{ KMT_PMC_TA,     6,  R1(0, 118) },
	{ KMT_PMC_TCA,    10, R1(1, 34) },
	{ KMT_PMC_TCC,    10, R2(0, 107, 128, 255) },
	{ KMT_PMC_TCP,    10, R1(0, 84) },
	{ KMT_PMC_TD,     6,  R1(0, 56) },
	{ KMT_PMC_VGT,    10, R1(0, 147) },
	{ KMT_PMC_WD,     4,  R1(0, 57) },
};

/* GFX10: Navi1x/2x and their APUs. */
static const struct kmt_pmc_block pmc_gfx10[] = {
	{ KMT_PMC_CB,     7,  R1(0, 460) },
	{ KMT_PMC_CPF,    6,  R1(0, 39) },
	{ KMT_PMC_CPG,    6,  R1(0, 81) },
	{ KMT_PMC_DB,     12, R1(0, 369) },
	{ KMT_PMC_GDS,    10, R1(0, 122) },
	{ KMT_PMC_GRBM,   2,  R1(0, 46) },
	{ KMT_PMC_GRBMSE, 1,  R1(0, 18) },
	{ KMT_PMC_PASC,   11, R1(0, 551) },
	{ KMT_PMC_PASU,   16, R1(0, 265) },
	{ KMT_PMC_SPI,    18, R1(0, 328) },
	{ KMT_PMC_SQ,     16, R1(0, 511) },
	{ KMT_PMC_SX,     4,  R1(0, 224) },
	{ KMT_PMC_TA,     5,  R1(0, 225) },
	{ KMT_PMC_TCP,    10, R1(0, 76) },
	{ KMT_PMC_TD,     5,  R1(0, 60) },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

const struct kmt_pmc_block *
kmt_pmc_table(uint32_t gfxv, uint32_t *n)
{
	switch (gfxv >> 16) {
	case 9:
		*n = ARRAY_LEN(pmc_gfx9);
		return pmc_gfx9;
	case 10:
		*n = ARRAY_LEN(pmc_gfx10);
		return pmc_gfx10;
	default:
		*n = 0;
		return NULL;
	}
}

uint32_t
kmt_pmc_block_counters(const struct kmt_pmc_block *b)
{
	uint32_t i, n = 0;

	for (i = 0; i < b->nranges; i++)
		n += (uint32_t)(b->ranges[i].last - b->ranges[i].first + 1);
	return n;
}

const HSA_UUID *
kmt_pmc_block_uuid(uint32_t id)
{
	static const HSA_UUID *const uuids[KMT_PMC_BLOCK_MAX] = {
		[KMT_PMC_CB] = &HSA_PROFILEBLOCK_AMD_CB,
		[KMT_PMC_CPF] = &HSA_PROFILEBLOCK_AMD_CPF,
		[KMT_PMC_CPG] = &HSA_PROFILEBLOCK_AMD_CPG,
		[KMT_PMC_DB] = &HSA_PROFILEBLOCK_AMD_DB,
		[KMT_PMC_GDS] = &HSA_PROFILEBLOCK_AMD_GDS,
		[KMT_PMC_GRBM] = &HSA_PROFILEBLOCK_AMD_GRBM,
		[KMT_PMC_GRBMSE] = &HSA_PROFILEBLOCK_AMD_GRBMSE,
		[KMT_PMC_IA] = &HSA_PROFILEBLOCK_AMD_IA,
		[KMT_PMC_MC] = &HSA_PROFILEBLOCK_AMD_MC,
		[KMT_PMC_PASC] = &HSA_PROFILEBLOCK_AMD_PASC,
		[KMT_PMC_PASU] = &HSA_PROFILEBLOCK_AMD_PASU,
		[KMT_PMC_SPI] = &HSA_PROFILEBLOCK_AMD_SPI,
		[KMT_PMC_SRBM] = &HSA_PROFILEBLOCK_AMD_SRBM,
		[KMT_PMC_SQ] = &HSA_PROFILEBLOCK_AMD_SQ,
		[KMT_PMC_SX] = &HSA_PROFILEBLOCK_AMD_SX,
		[KMT_PMC_TA] = &HSA_PROFILEBLOCK_AMD_TA,
		[KMT_PMC_TCA] = &HSA_PROFILEBLOCK_AMD_TCA,
		[KMT_PMC_TCC] = &HSA_PROFILEBLOCK_AMD_TCC,
		[KMT_PMC_TCP] = &HSA_PROFILEBLOCK_AMD_TCP,
		[KMT_PMC_TCS] = &HSA_PROFILEBLOCK_AMD_TCS,
		[KMT_PMC_TD] = &HSA_PROFILEBLOCK_AMD_TD,
		[KMT_PMC_VGT] = &HSA_PROFILEBLOCK_AMD_VGT,
		[KMT_PMC_WD] = &HSA_PROFILEBLOCK_AMD_WD,
		[KMT_PMC_IOMMUV2] = &HSA_PROFILEBLOCK_AMD_IOMMUV2,
	};

	return id < KMT_PMC_BLOCK_MAX ? uuids[id] : NULL;
}
