/* SPDX-License-Identifier: MIT */
/*
 * Clock counters: the kernel's snapshot of a GPU's counter next to the
 * CPU's clocks, which is how runtimes correlate GPU timestamps with host
 * time. (The wallclock frequency is a topology fact: topo_freq.c.)
 */
#include <errno.h>
#include <string.h>

#include "core/core.h"
#include "topology/topology.h"

KMT_API HSAKMT_STATUS
hsaKmtGetClockCountersCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HsaClockCounters *Counters)
{
	struct kfd_abi_get_clock_counters_args args = {0};
	struct kmt_node_info info;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Counters)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_topo_node_info(ctx, NodeId, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* A CPU node asks with gpu_id 0: the kernel reports GPU counter 0. */
	args.gpu_id = info.gpu_id;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &args) == -1) {
		kmt_debug("GET_CLOCK_COUNTERS on node %u: %s\n", NodeId, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	Counters->GPUClockCounter = args.gpu_clock_counter;
	Counters->CPUClockCounter = args.cpu_clock_counter;
	Counters->SystemClockCounter = args.system_clock_counter;
	Counters->SystemClockFrequencyHz = args.system_clock_freq;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetClockCounters(HSAuint32 NodeId, HsaClockCounters *Counters)
{
	return hsaKmtGetClockCountersCtx(kmt_primary_ctx(), NodeId, Counters);
}
