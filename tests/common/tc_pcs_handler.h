/* SPDX-License-Identifier: MIT */
/*
 * A gfx9 second-level trap handler that logs host-trap PC samples, shared
 * by the PC-sampling tests of the model and of the thunk.
 *
 * It takes record n = tma[0]++ (mod TC_PCS_RECORDS) at tma + 64 + 32 n:
 * ttmp0 (the sampled pc), ttmp1, ttmp6 (the dispatch packet's index),
 * ttmp11, exec, ttmp8 (the work-group id x), the time. It returns to the
 * sampled instruction with the wave's exec and SCC.
 */
#ifndef TC_PCS_HANDLER_H
#define TC_PCS_HANDLER_H

#include <stdint.h>

#define TC_PCS_RECORDS	0x4000u		/* the handler's ring of records */

static const uint32_t tc_pcs_handler[] = {
	0xbeee017e,		/* s_mov_b64 ttmp[2:3], exec */
	0xbefe0181,		/* s_mov_b64 exec, 1 */
	0xc0941c00, 0x00000000,	/* s_memrealtime ttmp[4:5] */
	0x7e000280,		/* v_mov_b32 v0, 0 */
	0x7e020281,		/* v_mov_b32 v1, 1 */
	0xdd098000, 0x017a0100,	/* global_atomic_add v1, v0, v1, ttmp[14:15] glc */
	0xbf8c0070,		/* s_waitcnt vmcnt(0) lgkmcnt(0) */
	0x260202ff, 0x00003fff,	/* v_and_b32 v1, 0x3fff, v1 */
	0x24020285,		/* v_lshlrev_b32 v1, 5, v1 */
	0x680202c0,		/* v_add_u32 v1, 64, v1 */
	0x7e04026c,		/* v_mov_b32 v2, ttmp0 */
	0x7e06026d,		/* v_mov_b32 v3, ttmp1 */
	0x7e080272,		/* v_mov_b32 v4, ttmp6 */
	0x7e0a0277,		/* v_mov_b32 v5, ttmp11 */
	0xdc7c8000, 0x007a0201,	/* global_store_dwordx4 v1, v[2:5], ttmp[14:15] */
	0x7e04026e,		/* v_mov_b32 v2, ttmp2 */
	0x7e06026f,		/* v_mov_b32 v3, ttmp3 */
	0x7e080274,		/* v_mov_b32 v4, ttmp8 */
	0x7e0a0270,		/* v_mov_b32 v5, ttmp4 */
	0xdc7c8010, 0x007a0201,	/* global_store_dwordx4 v1, v[2:5], ttmp[14:15] offset:16 */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0xbefe016e,		/* s_mov_b64 exec, ttmp[2:3] */
	0x866dff6d, 0x0000ffff,	/* s_and_b32 ttmp1, ttmp1, 0xffff */
	0xb978f802,		/* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
	0xbe801f6c,		/* s_rfe_b64 ttmp[0:1] */
};

/* One record, as the handler stores it. */
struct tc_pcs_record {
	uint32_t pc_lo, ttmp1, packet, ttmp11;
	uint32_t exec_lo, exec_hi, wg_x, time_lo;
};

#endif
