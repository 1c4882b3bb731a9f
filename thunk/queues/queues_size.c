/* SPDX-License-Identifier: MIT */
/*
 * Sizes of the buffers a compute queue hands the kernel: the EOP buffer
 * and the context save/restore (CWSR) area. The kernel (6.12+) refuses a
 * queue whose sizes differ from its own computation by a single byte, so
 * these follow the kernel's arithmetic rather than an approximation.
 */
#include "queues/queues_priv.h"

/* Per-CU state the save area holds besides vector registers. */
#define SGPR_BYTES_PER_CU	0x4000
#define LDS_BYTES_PER_CU	0x10000
#define HWREG_BYTES_PER_CU	0x1000
/* The trap handler's debugger area: 32 bytes per wave, 64-byte aligned. */
#define DEBUG_BYTES_PER_WAVE	32
#define DEBUG_BYTES_ALIGN	64
/* gfx10's control stack register cannot describe more than this. */
#define GFX10_CTL_STACK_MAX	0x7000
/* Tonga's EOP buffer must cover its 32 KiB VA alignment quirk. */
#define TONGA_EOP_SIZE		0x8000

static uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Bytes of vector registers one CU saves. */
static uint32_t
vgpr_bytes_per_cu(uint32_t gfxv)
{
	/* The MI parts with a doubled (accumulation) register file. */
	if (gfxv == KMT_GFX(9, 0, 8) || gfxv == KMT_GFX(9, 0, 10) ||
	    (gfxv & ~0xffu) == KMT_GFX(9, 4, 0) || (gfxv & ~0xffu) == KMT_GFX(9, 5, 0))
		return 0x80000;
	/* RDNA3/4 parts with 1.5x the register file. */
	if (gfxv == KMT_GFX(11, 0, 0) || gfxv == KMT_GFX(11, 0, 1) ||
	    gfxv == KMT_GFX(12, 0, 0) || gfxv == KMT_GFX(12, 0, 1))
		return 0x60000;
	return 0x40000;
}

static bool
is_sdma_type(HSA_QUEUE_TYPE type)
{
	return type == HSA_QUEUE_SDMA || type == HSA_QUEUE_SDMA_XGMI ||
	       type == HSA_QUEUE_SDMA_BY_ENG_ID;
}

static uint32_t
eop_size(const struct kmt_node_info *info, HSA_QUEUE_TYPE type, uint32_t gfxv)
{
	if (is_sdma_type(type))
		return 0;
	if (info->eop_buffer_size)
		return info->eop_buffer_size;
	if (gfxv == KMT_GFX(8, 0, 2))
		return TONGA_EOP_SIZE;
	/* GC 9.4.x runs AQL queues without an EOP buffer. */
	if ((gfxv & ~0xffu) == KMT_GFX(9, 4, 0))
		return type == HSA_QUEUE_COMPUTE ? 4096 : 0;
	if (gfxv >= KMT_GFX(8, 0, 0))
		return 4096;
	return 0;
}

void
kmt_queue_sizes(const struct kmt_node_info *info, HSA_QUEUE_TYPE type, size_t page,
		struct kmt_queue_sizes *out)
{
	const HsaNodeProperties *p = &info->props;
	uint32_t gfxv = kmt_gfx_value(info->gfx);
	uint32_t cu, waves, ctl, per_cu;

	*out = (struct kmt_queue_sizes){0};
	out->num_xcc = info->num_xcc ? info->num_xcc : 1;
	out->eop_buffer_size = eop_size(info, type, gfxv);

	/* Context save/restore exists from Carrizo on, for compute queues. */
	if (is_sdma_type(type) || gfxv < KMT_GFX(8, 0, 1) ||
	    !p->NumFComputeCores || !p->NumSIMDPerCU)
		return;

	cu = p->NumFComputeCores / p->NumSIMDPerCU / out->num_xcc;
	if (gfxv < KMT_GFX(10, 1, 0)) {
		/* At most 40 waves per CU and 512 per shader engine. */
		uint32_t se_waves = p->NumArrays ? p->NumShaderBanks / p->NumArrays * 512 : 0;

		waves = cu * 40 < se_waves ? cu * 40 : se_waves;
	} else {
		waves = cu * 32;
	}

	ctl = waves * (gfxv >= KMT_GFX(10, 1, 0) ? 12 : 8) + 8;
	ctl = (uint32_t)align_up(sizeof(HsaUserContextSaveAreaHeader) + ctl, page);
	if ((gfxv >> 16) == 10 && ctl > GFX10_CTL_STACK_MAX)
		ctl = GFX10_CTL_STACK_MAX;

	per_cu = vgpr_bytes_per_cu(gfxv) + SGPR_BYTES_PER_CU + LDS_BYTES_PER_CU +
		 HWREG_BYTES_PER_CU;
	out->has_cwsr = true;
	out->ctl_stack_size = ctl;
	out->ctx_save_restore_size = ctl + (uint32_t)align_up((uint64_t)cu * per_cu, page);
	out->debug_memory_size = (uint32_t)align_up((uint64_t)waves * DEBUG_BYTES_PER_WAVE,
						    DEBUG_BYTES_ALIGN);

	/* Newer kernels publish the sizes they will check: trust them. */
	if (info->cwsr_size && info->ctl_stack_size) {
		if (info->cwsr_size != out->ctx_save_restore_size ||
		    info->ctl_stack_size != out->ctl_stack_size)
			kmt_debug("node %u: CWSR %u/%u from sysfs, computed %u/%u\n",
				  info->node_id, info->cwsr_size, info->ctl_stack_size,
				  out->ctx_save_restore_size, out->ctl_stack_size);
		out->ctx_save_restore_size = info->cwsr_size;
		out->ctl_stack_size = info->ctl_stack_size;
	}

	out->cwsr_total_size = align_up((uint64_t)(out->ctx_save_restore_size +
						   out->debug_memory_size) * out->num_xcc,
					page);
}
