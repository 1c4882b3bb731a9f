/* SPDX-License-Identifier: MIT */
/*
 * A PM4 DISPATCH_DIRECT on the interpreter: the waves start from the
 * compute registers the queue's SET_SH_REG packets wrote, with no kernel
 * descriptor and no AQL packet. The code is at COMPUTE_PGM_LO/HI << 8;
 * the user SGPRs are COMPUTE_USER_DATA_0.. as written, as many as
 * COMPUTE_PGM_RSRC2.USER_SGPR counts; the system SGPRs and the work-item
 * ids in v0 follow RSRC2 as for an AQL dispatch (shader.c). The work-group
 * size is COMPUTE_NUM_THREAD_X/Y/Z; the packet's dimensions are the end of
 * the grid, in work-groups or (COMPUTE_DISPATCH_INITIATOR's
 * USE_THREAD_DIMENSIONS) in work-items, and COMPUTE_START_X/Y/Z the first
 * work-group unless the initiator's FORCE_START_AT_000 says 0. LDS is
 * RSRC2.LDS_SIZE; no scratch is modelled. Device lock held.
 */
#include <stdio.h>
#include <string.h>

#include "shader_priv.h"

/* COMPUTE_PGM_RSRC2 (gfx9) */
#define RSRC2_USER_SGPR(r)	(((r) >> 1) & 0x1fu)
#define RSRC2_LDS_SIZE(r)	(((r) >> 15) & 0x1ffu)	/* 128-dword units */
/* COMPUTE_DISPATCH_INITIATOR */
#define INIT_FORCE_START_AT_000	(1u << 2)
/* COMPUTE_TMPRING_SIZE: bits 12-24 the scratch of a wave, in KiB */
#define TMPRING_WAVESIZE(r)	(((r) >> 12) & 0x1fffu)
/* COMPUTE_NUM_THREAD_X/Y/Z: bits 0-15 the work-group's size */
#define NUM_THREAD_FULL(r)	((r) & 0xffffu)

#define USER_DATA_COUNT		16u
#define WG_MAX			1024u

static uint32_t
reg(const struct ksim_cpq *cq, uint32_t off)
{
	return cq->sh_regs[off - KFD_PM4_SH_COMPUTE_FIRST];
}

static int
refuse(struct sh_result *res, uint32_t code, int ec, uint64_t detail,
       const char *why)
{
	res->code = code;
	res->ec = ec;
	res->detail = detail;
	snprintf(res->why, sizeof(res->why), "%s", why);
	return -1;
}

int
sh_dispatch_pm4(struct ksim_cp *cp, struct ksim_cpq *cq,
		const struct kfd_pm4_dispatch_direct *pkt, struct sh_result *res)
{
	uint32_t end[3] = { pkt->dim_x, pkt->dim_y, pkt->dim_z };
	int threads = !!(pkt->initiator & KFD_PM4_INIT_USE_THREAD_DIMS);
	uint64_t items = 1;
	struct sh_dispatch d;

	memset(&d, 0, sizeof(d));
	memset(res, 0, sizeof(*res));
	if (!(pkt->initiator & KFD_PM4_INIT_COMPUTE_SHADER_EN))
		return 0;
	for (unsigned int k = 0; k < 3; k++) {
		uint32_t wg = NUM_THREAD_FULL(reg(cq, KFD_PM4_SH_NUM_THREAD_X + k));
		uint64_t groups, first = 0;

		/* A size of 0 counts as 1, as an AQL packet's does. */
		d.wg[k] = (uint16_t)(wg ? wg : 1);
		items *= d.wg[k];
		if (!(pkt->initiator & INIT_FORCE_START_AT_000))
			first = reg(cq, KFD_PM4_SH_START_X + k);
		groups = threads ? ((uint64_t)end[k] + d.wg[k] - 1) / d.wg[k] : end[k];
		if (groups <= first)
			return 0;	/* an empty grid: no wave runs */
		groups -= first;
		if (groups * d.wg[k] > UINT32_MAX)
			return refuse(res, CP_ERR_DIM,
				      KFD_ABI_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID,
				      end[k], "grid of more than 2^32 work-items");
		d.start[k] = (uint32_t)first;
		d.nwg[k] = (uint32_t)groups;
		d.grid[k] = threads ? end[k] - (uint32_t)first * d.wg[k] :
				      (uint32_t)groups * d.wg[k];
	}
	if (items > WG_MAX)
		return refuse(res, CP_ERR_WG_SIZE,
			      KFD_ABI_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID,
			      items, "work-group larger than 1024");
	d.rsrc2 = reg(cq, KFD_PM4_SH_PGM_RSRC2);
	d.entry = ((uint64_t)(reg(cq, KFD_PM4_SH_PGM_HI) & 0xffu) << 32 |
		   reg(cq, KFD_PM4_SH_PGM_LO)) << 8;
	d.kobj = d.entry;
	d.group_size = RSRC2_LDS_SIZE(d.rsrc2) * 512u;
	/* a work-item's share of its wave's scratch (none is modelled) */
	d.private_size = TMPRING_WAVESIZE(reg(cq, KFD_PM4_SH_TMPRING_SIZE)) * 1024u / 64u;
	d.user_data = &cq->sh_regs[KFD_PM4_SH_USER_DATA_0 - KFD_PM4_SH_COMPUTE_FIRST];
	d.user_sgprs = RSRC2_USER_SGPR(d.rsrc2) < USER_DATA_COUNT ?
		       RSRC2_USER_SGPR(d.rsrc2) : USER_DATA_COUNT;
	return sh_run(cp, cq, &d, res);
}
