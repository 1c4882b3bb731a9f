/* SPDX-License-Identifier: MIT */
/*
 * perf/perf_priv.h - what the counter files (perf*.c) share; private to
 * perf/.
 *
 * The counter model is AMD's: per GPU generation, a table of hardware
 * blocks, each with a number of counter slots and the event ids it can
 * count. Those blocks are non-privileged: a profiler programs them from
 * its own queue (AQL packets), so the library only describes them. The
 * one privileged block, the AMD IOMMU's (APUs), is read through Linux
 * perf events, and only it can be traced with the hsaKmtPmc*Trace calls.
 */
#ifndef KMT_PERF_PRIV_H
#define KMT_PERF_PRIV_H

#include "core/core.h"

/* Block indices, as HsaCounter.BlockIndex reports them. */
enum kmt_pmc_block_id {
	KMT_PMC_CB = 0,
	KMT_PMC_CPC,
	KMT_PMC_CPF,
	KMT_PMC_CPG,
	KMT_PMC_DB,
	KMT_PMC_GDS,
	KMT_PMC_GRBM,
	KMT_PMC_GRBMSE,
	KMT_PMC_IA,
	KMT_PMC_MC,
	KMT_PMC_PASC,
	KMT_PMC_PASU,
	KMT_PMC_SPI,
	KMT_PMC_SRBM,
	KMT_PMC_SQ,
	KMT_PMC_SX,
	KMT_PMC_TA,
	KMT_PMC_TCA,
	KMT_PMC_TCC,
	KMT_PMC_TCP,
	KMT_PMC_TCS,
	KMT_PMC_TD,
	KMT_PMC_VGT,
	KMT_PMC_WD,
	KMT_PMC_IOMMUV2,		/* privileged */
	KMT_PMC_BLOCK_MAX
};

/* A run of consecutive event ids. */
struct kmt_pmc_range {
	uint16_t first, last;
};

/* One block of a generation's table; all its counters are 64-bit. */
struct kmt_pmc_block {
	uint8_t id;			/* enum kmt_pmc_block_id */
	uint8_t slots;			/* counters it can run at once */
	uint8_t nranges;
	struct kmt_pmc_range ranges[2];
};

/*
 * kmt_pmc_table() - the blocks of a GPU of @gfxv (KMT_GFX()).
 * Return: the table and its length in *@n, or NULL for generations
 * without a table (AMD's library then answers INVALID_PARAMETER).
 */
const struct kmt_pmc_block *kmt_pmc_table(uint32_t gfxv, uint32_t *n);

/* kmt_pmc_block_uuid() - the HSA_PROFILEBLOCK_AMD_* id of a block, or NULL. */
const HSA_UUID *kmt_pmc_block_uuid(uint32_t id);

/* kmt_pmc_block_counters() - how many event ids a block offers. */
uint32_t kmt_pmc_block_counters(const struct kmt_pmc_block *b);

/* The IOMMU block as sysfs describes it (empty where there is none). */
struct kmt_pmc_iommu {
	uint32_t slots;			/* perf/iommu/max_concurrent of node 0 */
	uint32_t ncounters;
	uint32_t *counter_ids;		/* csource values of its perf events */
	uint32_t perf_type;		/* perf_event_attr.type, 0 if unknown */
};

/* A registered trace (HSATraceId is its address). */
struct kmt_pmc_trace {
	struct kmt_pmc_trace *next;
	uint32_t gpu_id;
	uint32_t ncounters;
	bool acquired, started;
	void *buf;
	uint64_t buf_size;
	uint64_t *counter_ids;		/* [ncounters], IOMMU event ids */
	int *fds;			/* [ncounters], -1 when closed */
	uint64_t *last;			/* [ncounters], values at the last stop */
};

/* The counter area of a context (HsaKFDContext.perf). */
struct kmt_perf_ctx {
	pthread_mutex_t lock;		/* guards everything below */
	uint32_t num_nodes;
	HsaCounterProperties **props;	/* [num_nodes], built on first query */
	bool iommu_probed;
	struct kmt_pmc_iommu iommu;
	uint32_t iommu_slots_left;	/* this context's share of the slots */
	struct kmt_pmc_trace *traces;
};

/* kmt_perf_ctx_get() - @ctx's counter area, created on first use (NULL: no memory). */
struct kmt_perf_ctx *kmt_perf_ctx_get(HsaKFDContext *ctx);

/*
 * kmt_pmc_props() - the counter properties of @node, built on first use.
 * Called with pc->lock held. Return: INVALID_PARAMETER for a GPU without
 * a table, NO_MEMORY.
 */
HSAKMT_STATUS kmt_pmc_props(HsaKFDContext *ctx, struct kmt_perf_ctx *pc, uint32_t node,
			    HsaCounterProperties **out);

/* kmt_pmc_iommu_probe() - read the IOMMU block from sysfs (once). pc->lock held. */
void kmt_pmc_iommu_probe(struct kmt_perf_ctx *pc);

/* kmt_pmc_traces_free() - drop every trace of @pc (closing its perf fds). */
void kmt_pmc_traces_free(struct kmt_perf_ctx *pc);

#endif /* KMT_PERF_PRIV_H */
