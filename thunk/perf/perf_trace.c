/* SPDX-License-Identifier: MIT */
/*
 * Running a registered trace of privileged (IOMMU) counters through Linux
 * perf events: acquire reserves counter slots, start opens one system-wide
 * perf event per counter, query reads them into the caller's buffer, stop
 * keeps the final values and closes the events.
 *
 * Slots are accounted per context. AMD's library shares the count between
 * processes through a named semaphore and /dev/shm; this library does not
 * create files in /dev/shm (see docs/thunk.md).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf/perf_priv.h"
#include "topology/topology.h"

/* What read() returns with TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. */
struct perf_reading {
	uint64_t value;
	uint64_t time_enabled;
	uint64_t time_running;
};

static struct kmt_pmc_trace *
trace_find(struct kmt_perf_ctx *pc, HSATraceId id)
{
	struct kmt_pmc_trace *t;

	for (t = pc->traces; t; t = t->next)
		if ((HSATraceId)(uintptr_t)t == id)
			return t;
	return NULL;
}

static bool
trace_read(int fd, uint64_t *value)
{
	struct perf_reading r;
	ssize_t n;

	do {
		n = read(fd, &r, sizeof(r));
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(r))
		return false;
	*value = r.value;
	return true;
}

/* Keep the final values, then close every event of @t. */
static void
trace_close(struct kmt_pmc_trace *t)
{
	uint32_t i;

	for (i = 0; i < t->ncounters; i++) {
		if (t->fds[i] < 0)
			continue;
		if (!trace_read(t->fds[i], &t->last[i]))
			t->last[i] = 0;
		close(t->fds[i]);
		t->fds[i] = -1;
	}
	t->started = false;
}

static void
trace_release(struct kmt_perf_ctx *pc, struct kmt_pmc_trace *t)
{
	trace_close(t);
	if (t->acquired)
		pc->iommu_slots_left += t->ncounters;
	t->acquired = false;
}

static void
trace_free(struct kmt_pmc_trace *t)
{
	free(t->counter_ids);
	free(t->fds);
	free(t->last);
	free(t);
}

void
kmt_pmc_traces_free(struct kmt_perf_ctx *pc)
{
	struct kmt_pmc_trace *t, *next;

	for (t = pc->traces; t; t = next) {
		next = t->next;
		trace_release(pc, t);
		trace_free(t);
	}
	pc->traces = NULL;
}

/* Find trace @id; on success pc->lock is held. */
static HSAKMT_STATUS
trace_lock(HsaKFDContext *ctx, HSATraceId id, struct kmt_perf_ctx **pcp,
	   struct kmt_pmc_trace **tp)
{
	struct kmt_perf_ctx *pc;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!id)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pc = kmt_perf_ctx_get(ctx);
	if (!pc)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&pc->lock);
	*tp = trace_find(pc, id);
	if (!*tp) {
		pthread_mutex_unlock(&pc->lock);
		return HSAKMT_STATUS_INVALID_HANDLE;
	}
	*pcp = pc;
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
node_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id)
{
	struct kmt_node_info info;

	if (kmt_topo_node_info(ctx, node, &info) != HSAKMT_STATUS_SUCCESS)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	*gpu_id = info.gpu_id;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcUnregisterTraceCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSATraceId TraceId)
{
	struct kmt_pmc_trace **pp, *t;
	struct kmt_perf_ctx *pc;
	uint32_t gpu_id;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!TraceId)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = node_gpu_id(ctx, NodeId, &gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = trace_lock(ctx, TraceId, &pc, &t);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (t->gpu_id != gpu_id) {
		pthread_mutex_unlock(&pc->lock);
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	}
	trace_release(pc, t);
	for (pp = &pc->traces; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
	pthread_mutex_unlock(&pc->lock);
	trace_free(t);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcUnregisterTrace(HSAuint32 NodeId, HSATraceId TraceId)
{
	return hsaKmtPmcUnregisterTraceCtx(kmt_primary_ctx(), NodeId, TraceId);
}

KMT_API HSAKMT_STATUS
hsaKmtPmcAcquireTraceAccessCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSATraceId TraceId)
{
	struct kmt_pmc_trace *t;
	struct kmt_perf_ctx *pc;
	uint32_t gpu_id;
	HSAKMT_STATUS st;

	st = trace_lock(ctx, TraceId, &pc, &t);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = node_gpu_id(ctx, NodeId, &gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS || t->acquired)
		goto out;
	if (pc->iommu_slots_left < t->ncounters) {
		st = HSAKMT_STATUS_UNAVAILABLE;
	} else if (getuid() != 0 || !pc->iommu.perf_type) {
		/* System-wide IOMMU events need root and a perf event source. */
		kmt_err("IOMMU counters need root and the amd_iommu perf source\n");
		st = HSAKMT_STATUS_ERROR;
	} else {
		pc->iommu_slots_left -= t->ncounters;
		t->acquired = true;
	}
out:
	pthread_mutex_unlock(&pc->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcAcquireTraceAccess(HSAuint32 NodeId, HSATraceId TraceId)
{
	return hsaKmtPmcAcquireTraceAccessCtx(kmt_primary_ctx(), NodeId, TraceId);
}

KMT_API HSAKMT_STATUS
hsaKmtPmcReleaseTraceAccessCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSATraceId TraceId)
{
	struct kmt_pmc_trace *t;
	struct kmt_perf_ctx *pc;
	HSAKMT_STATUS st;

	st = trace_lock(ctx, TraceId, &pc, &t);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	trace_release(pc, t);
	pthread_mutex_unlock(&pc->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcReleaseTraceAccess(HSAuint32 NodeId, HSATraceId TraceId)
{
	return hsaKmtPmcReleaseTraceAccessCtx(kmt_primary_ctx(), NodeId, TraceId);
}

static int
perf_open(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* System wide on CPU 0: the IOMMU is not a per-task resource. */
	return (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1,
			    PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_CLOEXEC);
}

KMT_API HSAKMT_STATUS
hsaKmtPmcStartTraceCtx(HsaKFDContext *ctx, HSATraceId TraceId, void *TraceBuffer,
		       HSAuint64 TraceBufferSizeBytes)
{
	struct kmt_pmc_trace *t;
	struct kmt_perf_ctx *pc;
	HSAKMT_STATUS st;
	uint32_t i;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!TraceId || !TraceBuffer || !TraceBufferSizeBytes)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = trace_lock(ctx, TraceId, &pc, &t);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!t->acquired) {
		st = HSAKMT_STATUS_UNAVAILABLE;
		goto out;
	}
	if (!t->started) {
		for (i = 0; i < t->ncounters; i++) {
			t->fds[i] = perf_open(pc->iommu.perf_type, t->counter_ids[i]);
			if (t->fds[i] < 0) {
				kmt_err("perf_event_open: %s\n", strerror(errno));
				trace_close(t);
				st = HSAKMT_STATUS_ERROR;
				goto out;
			}
		}
		t->started = true;
	}
	t->buf = TraceBuffer;
	t->buf_size = TraceBufferSizeBytes;
out:
	pthread_mutex_unlock(&pc->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcStartTrace(HSATraceId TraceId, void *TraceBuffer, HSAuint64 TraceBufferSizeBytes)
{
	return hsaKmtPmcStartTraceCtx(kmt_primary_ctx(), TraceId, TraceBuffer,
				      TraceBufferSizeBytes);
}

KMT_API HSAKMT_STATUS
hsaKmtPmcQueryTraceCtx(HsaKFDContext *ctx, HSATraceId TraceId)
{
	struct kmt_pmc_trace *t;
	struct kmt_perf_ctx *pc;
	HSAKMT_STATUS st;
	uint64_t *out;
	uint32_t i;

	st = trace_lock(ctx, TraceId, &pc, &t);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* One 64-bit value per counter must fit the buffer given at start. */
	if (!t->buf || (uint64_t)t->ncounters * sizeof(uint64_t) > t->buf_size) {
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	out = t->buf;
	for (i = 0; i < t->ncounters; i++) {
		if (!t->started) {
			out[i] = t->last[i];
		} else if (!trace_read(t->fds[i], &out[i])) {
			st = HSAKMT_STATUS_ERROR;
			break;
		}
	}
out:
	pthread_mutex_unlock(&pc->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcQueryTrace(HSATraceId TraceId)
{
	return hsaKmtPmcQueryTraceCtx(kmt_primary_ctx(), TraceId);
}

KMT_API HSAKMT_STATUS
hsaKmtPmcStopTraceCtx(HsaKFDContext *ctx, HSATraceId TraceId)
{
	struct kmt_pmc_trace *t;
	struct kmt_perf_ctx *pc;
	HSAKMT_STATUS st;

	st = trace_lock(ctx, TraceId, &pc, &t);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!t->acquired)
		st = HSAKMT_STATUS_UNAVAILABLE;
	else
		trace_close(t);
	pthread_mutex_unlock(&pc->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtPmcStopTrace(HSATraceId TraceId)
{
	return hsaKmtPmcStopTraceCtx(kmt_primary_ctx(), TraceId);
}
