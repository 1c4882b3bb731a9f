/* SPDX-License-Identifier: MIT */
/*
 * Performance counter properties, and the registration of traces.
 *
 * hsaKmtPmcGetCounterProperties() describes every block of a GPU's table
 * (perf_table.c) plus, where the machine has one, the AMD IOMMU's block,
 * which sysfs lists under the perf event source amd_iommu_0 (amd_iommu
 * before Linux 4.12). The result is built once per node and owned by the
 * library until the context closes.
 *
 * Only privileged counters (the IOMMU's) take part in a trace; a trace
 * naming none is refused with INVALID_PARAMETER, as by AMD's library, so
 * on discrete GPUs traces cannot be registered at all.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf_priv.h"
#include "topology/topology.h"

#define IOMMU_EVENTS_DIR	"/sys/bus/event_source/devices/amd_iommu_0"
#define IOMMU_EVENTS_DIR_OLD	"/sys/bus/event_source/devices/amd_iommu"
#define IOMMU_MAX_CONCURRENT	"/sys/devices/virtual/kfd/kfd/topology/nodes/0/perf/iommu/max_concurrent"
/* The IOMMU counter bank selects sources with 8 bits. */
#define IOMMU_MAX_EVENT_ID	0xff
/* A trace holds at most this many counters (as AMD's library). */
#define PMC_MAX_TRACE_COUNTERS	512

static void
perf_ctx_fini(HsaKFDContext *ctx, bool forked)
{
	struct kmt_perf_ctx *pc = ctx->perf;
	uint32_t i;

	if (!pc)
		return;
	/* A forked child never takes the area's lock (see core/core.h). */
	if (!forked)
		pthread_mutex_lock(&pc->lock);
	kmt_pmc_traces_free(pc);
	for (i = 0; i < pc->num_nodes; i++)
		free(pc->props[i]);
	free(pc->props);
	free(pc->iommu.counter_ids);
	if (!forked) {
		pthread_mutex_unlock(&pc->lock);
		pthread_mutex_destroy(&pc->lock);
	}
	free(pc);
	ctx->perf = NULL;
}

struct kmt_perf_ctx *
kmt_perf_ctx_get(HsaKFDContext *ctx)
{
	struct kmt_perf_ctx *pc;

	pthread_mutex_lock(&ctx->lock);
	pc = ctx->perf;
	if (!pc) {
		uint32_t n = kmt_topo_num_nodes(ctx);

		pc = calloc(1, sizeof(*pc));
		if (pc)
			pc->props = calloc(n ? n : 1, sizeof(*pc->props));
		if (pc && pc->props) {
			pthread_mutex_init(&pc->lock, NULL);
			pc->num_nodes = n;
			ctx->perf = pc;
			ctx->perf_fini = perf_ctx_fini;
		} else {
			if (pc)
				free(pc->props);
			free(pc);
			pc = NULL;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return pc;
}

/* The number after @prefix on the first line of @path (decimal or 0x hex). */
static bool
read_u32_file(const char *path, const char *prefix, uint32_t *v)
{
	char line[64], *p, *end;
	unsigned long n;
	size_t len = strlen(prefix);
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(line, sizeof(line), f) && !strncmp(line, prefix, len);
	fclose(f);
	if (!ok)
		return false;
	p = line + len;
	n = strtoul(p, &end, 0);
	if (end == p || n > UINT32_MAX)
		return false;
	*v = (uint32_t)n;
	return true;
}

void
kmt_pmc_iommu_probe(struct kmt_perf_ctx *pc)
{
	bool seen[IOMMU_MAX_EVENT_ID + 1] = { false };
	struct kmt_pmc_iommu *io = &pc->iommu;
	const char *dir = IOMMU_EVENTS_DIR;
	char path[PATH_MAX];
	struct dirent *de;
	uint32_t id, n = 0;
	DIR *d;

	if (pc->iommu_probed)
		return;
	pc->iommu_probed = true;
	snprintf(path, sizeof(path), "%s/events", dir);
	d = opendir(path);
	if (!d) {
		dir = IOMMU_EVENTS_DIR_OLD;
		snprintf(path, sizeof(path), "%s/events", dir);
		d = opendir(path);
	}
	if (!d)
		return;
	/* Each event file reads "csource=0x<id>". */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/events/%s", dir, de->d_name) >=
		    (int)sizeof(path))
			continue;
		if (read_u32_file(path, "csource=", &id) && id <= IOMMU_MAX_EVENT_ID &&
		    !seen[id]) {
			seen[id] = true;
			n++;
		}
	}
	closedir(d);
	if (!n || !read_u32_file(IOMMU_MAX_CONCURRENT, "", &io->slots) || !io->slots)
		return;
	io->counter_ids = calloc(n, sizeof(*io->counter_ids));
	if (!io->counter_ids) {
		io->slots = 0;
		return;
	}
	for (id = 0; id <= IOMMU_MAX_EVENT_ID; id++)
		if (seen[id])
			io->counter_ids[io->ncounters++] = id;
	snprintf(path, sizeof(path), "%s/type", dir);
	if (!read_u32_file(path, "", &io->perf_type))
		io->perf_type = 0;
	pc->iommu_slots_left = io->slots;
}

/* Write one block and its counters; the next block follows its last counter. */
static HsaCounterBlockProperties *
props_put_block(HsaCounterBlockProperties *bp, uint32_t id, uint32_t slots, uint32_t ncounters)
{
	const HSA_UUID *uuid = kmt_pmc_block_uuid(id);

	if (uuid)
		bp->BlockId = *uuid;
	bp->NumCounters = ncounters;
	bp->NumConcurrent = slots;
	return bp;
}

static void
props_put_counter(HsaCounter *c, uint32_t block, uint64_t id, bool privileged)
{
	memset(c, 0, sizeof(*c));
	c->Type = privileged ? HSA_PROFILE_TYPE_PRIVILEGED_IMMEDIATE
			     : HSA_PROFILE_TYPE_NONPRIV_IMMEDIATE;
	c->CounterId = id;
	c->CounterSizeInBits = 64;
	c->CounterMask = UINT64_MAX;
	c->Flags.ui32.Global = 1;
	c->BlockIndex = block;
}

HSAKMT_STATUS
kmt_pmc_props(HsaKFDContext *ctx, struct kmt_perf_ctx *pc, uint32_t node,
	      HsaCounterProperties **out)
{
	const struct kmt_pmc_block *table;
	uint32_t nblocks, ncounters = 0, nconc = 0, n, i, r, v, k;
	struct kmt_node_info info;
	HsaCounterBlockProperties *bp;
	HsaCounterProperties *props;
	size_t size;

	if (node < pc->num_nodes && pc->props[node]) {
		*out = pc->props[node];
		return HSAKMT_STATUS_SUCCESS;
	}
	if (kmt_topo_node_info(ctx, node, &info) != HSAKMT_STATUS_SUCCESS ||
	    node >= pc->num_nodes)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	table = kmt_pmc_table(kmt_gfx_value(info.gfx), &n);
	if (!table)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	kmt_pmc_iommu_probe(pc);

	nblocks = n;
	for (i = 0; i < n; i++) {
		ncounters += kmt_pmc_block_counters(&table[i]);
		nconc += table[i].slots;
	}
	if (pc->iommu.slots) {
		nblocks++;
		ncounters += pc->iommu.ncounters;
		nconc += pc->iommu.slots;
	}
	/* Blocks[1] and Counters[1] are already in the fixed sizes. */
	size = sizeof(HsaCounterProperties) + (nblocks - 1) * sizeof(HsaCounterBlockProperties) +
	       (ncounters - nblocks) * sizeof(HsaCounter);
	props = calloc(1, size);
	if (!props)
		return HSAKMT_STATUS_NO_MEMORY;
	props->NumBlocks = nblocks;
	props->NumConcurrent = nconc;

	bp = &props->Blocks[0];
	for (i = 0; i < n; i++) {
		props_put_block(bp, table[i].id, table[i].slots, kmt_pmc_block_counters(&table[i]));
		k = 0;
		for (r = 0; r < table[i].nranges; r++)
			for (v = table[i].ranges[r].first; v <= table[i].ranges[r].last; v++)
				props_put_counter(&bp->Counters[k++], table[i].id, v, false);
		bp = (HsaCounterBlockProperties *)&bp->Counters[bp->NumCounters];
	}
	if (pc->iommu.slots) {
		props_put_block(bp, KMT_PMC_IOMMUV2, pc->iommu.slots, pc->iommu.ncounters);
		for (k = 0; k < pc->iommu.ncounters; k++)
			props_put_counter(&bp->Counters[k], KMT_PMC_IOMMUV2,
					  pc->iommu.counter_ids[k], true);
	}
	pc->props[node] = props;
	*out = props;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcGetCounterPropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
				 HsaCounterProperties **CounterProperties)
{
	struct kmt_perf_ctx *pc;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!CounterProperties)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pc = kmt_perf_ctx_get(ctx);
	if (!pc)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&pc->lock);
	st = kmt_pmc_props(ctx, pc, NodeId, CounterProperties);
	pthread_mutex_unlock(&pc->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcGetCounterProperties(HSAuint32 NodeId, HsaCounterProperties **CounterProperties)
{
	return hsaKmtPmcGetCounterPropertiesCtx(kmt_primary_ctx(), NodeId, CounterProperties);
}

/* How many counters of block @id a node runs at once (0: no such block). */
static uint32_t
props_block_slots(const HsaCounterProperties *props, uint32_t id)
{
	const HsaCounterBlockProperties *bp = &props->Blocks[0];
	uint32_t i;

	for (i = 0; i < props->NumBlocks; i++) {
		if (bp->NumCounters && bp->Counters[0].BlockIndex == id)
			return bp->NumConcurrent;
		bp = (const HsaCounterBlockProperties *)&bp->Counters[bp->NumCounters];
	}
	return 0;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcRegisterTraceCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint32 NumberOfCounters,
			  HsaCounter *Counters, HsaPmcTraceRoot *TraceRoot)
{
	uint32_t per_block[KMT_PMC_BLOCK_MAX] = {0};
	HsaCounterProperties *props;
	struct kmt_pmc_trace *t;
	struct kmt_node_info info;
	struct kmt_perf_ctx *pc;
	uint64_t bytes = 0;
	uint32_t i, n = 0;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Counters || !TraceRoot || !NumberOfCounters)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (kmt_topo_node_info(ctx, NodeId, &info) != HSAKMT_STATUS_SUCCESS)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	if (NumberOfCounters > PMC_MAX_TRACE_COUNTERS)
		return HSAKMT_STATUS_NO_MEMORY;

	/* Only privileged counters are traced by the library. */
	for (i = 0; i < NumberOfCounters; i++) {
		if (Counters[i].BlockIndex >= KMT_PMC_BLOCK_MAX)
			return HSAKMT_STATUS_INVALID_PARAMETER;
		if (Counters[i].Type > HSA_PROFILE_TYPE_PRIVILEGED_STREAMING)
			continue;
		per_block[Counters[i].BlockIndex]++;
		bytes += Counters[i].CounterSizeInBits / 8;
		n++;
	}
	if (!n)
		return HSAKMT_STATUS_INVALID_PARAMETER;

	pc = kmt_perf_ctx_get(ctx);
	if (!pc)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&pc->lock);
	st = kmt_pmc_props(ctx, pc, NodeId, &props);
	for (i = 0; st == HSAKMT_STATUS_SUCCESS && i < KMT_PMC_BLOCK_MAX; i++) {
		uint32_t slots;

		if (!per_block[i])
			continue;
		slots = props_block_slots(props, i);
		if (!slots || per_block[i] > slots)
			st = HSAKMT_STATUS_INVALID_PARAMETER;
	}
	if (st != HSAKMT_STATUS_SUCCESS)
		goto out;

	t = calloc(1, sizeof(*t));
	if (t) {
		t->counter_ids = calloc(n, sizeof(*t->counter_ids));
		t->fds = calloc(n, sizeof(*t->fds));
		t->last = calloc(n, sizeof(*t->last));
	}
	if (!t || !t->counter_ids || !t->fds || !t->last) {
		if (t) {
			free(t->counter_ids);
			free(t->fds);
			free(t->last);
		}
		free(t);
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	t->gpu_id = info.gpu_id;
	for (i = 0; i < NumberOfCounters; i++)
		if (Counters[i].Type <= HSA_PROFILE_TYPE_PRIVILEGED_STREAMING)
			t->counter_ids[t->ncounters++] = Counters[i].CounterId;
	for (i = 0; i < n; i++)
		t->fds[i] = -1;
	t->next = pc->traces;
	pc->traces = t;

	TraceRoot->NumberOfPasses = 1;
	TraceRoot->TraceBufferMinSizeBytes = (bytes + kmt_page_size() - 1) /
					     kmt_page_size() * kmt_page_size();
	TraceRoot->TraceId = (HSATraceId)(uintptr_t)t;
out:
	pthread_mutex_unlock(&pc->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcRegisterTrace(HSAuint32 NodeId, HSAuint32 NumberOfCounters, HsaCounter *Counters,
		       HsaPmcTraceRoot *TraceRoot)
{
	return hsaKmtPmcRegisterTraceCtx(kmt_primary_ctx(), NodeId, NumberOfCounters, Counters,
					 TraceRoot);
}
