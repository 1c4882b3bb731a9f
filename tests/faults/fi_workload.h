/* SPDX-License-Identifier: MIT */
/*
 * The fault-injection workload: a fixed script of libhsakmt calls (ours,
 * linked statically so a dispatch hook sees its ioctls) that touches every
 * area a runtime uses: open, topology, VRAM and host memory, user memory
 * registration, events, a queue, SVM attributes, available memory, close.
 *
 * Each API call is recorded with its status and with how many injected
 * faults fired while it ran, so the driver can tell which call a fault
 * hit and check what that call returned. A call whose prerequisite failed
 * is skipped (a runtime would not issue it either); cleanup calls run for
 * whatever was set up.
 */
#ifndef FI_WORKLOAD_H
#define FI_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "hsakmt/hsakmt.h"

struct kfd_faults;

/* The API calls of the script, in order. */
enum fi_call {
	FI_OPEN,
	FI_SYSPROPS,		/* hsaKmtAcquireSystemProperties */
	FI_NODEPROPS,		/* hsaKmtGetNodeProperties of the GPU */
	FI_AVAIL,		/* hsaKmtAvailableMemory */
	FI_CLOCK,		/* hsaKmtGetClockCounters */
	FI_VRAM_ALLOC,
	FI_VRAM_MAP,
	FI_VRAM_QUERY,		/* hsaKmtQueryPointerInfo (no ioctl) */
	FI_VRAM_UNMAP,
	FI_VRAM_FREE,
	FI_HOST_ALLOC,		/* paged system memory: a userptr BO */
	FI_HOST_MAP,
	FI_HOST_UNMAP,
	FI_HOST_FREE,
	FI_REGISTER,		/* hsaKmtRegisterMemoryToNodes */
	FI_USERPTR_MAP,
	FI_USERPTR_UNMAP,
	FI_DEREGISTER,
	FI_EVENT_CREATE,	/* a signal event (the first: the events page) */
	FI_EVENT_SET,
	FI_EVENT_WAIT,
	FI_EVENT_DESTROY,
	FI_RING_ALLOC,		/* ring and pointer page for the queue */
	FI_RING_MAP,
	FI_PTRS_ALLOC,
	FI_PTRS_MAP,
	FI_QUEUE_CREATE,	/* an AQL compute queue */
	FI_QUEUE_DESTROY,
	FI_RING_UNMAP,
	FI_RING_FREE,
	FI_PTRS_UNMAP,
	FI_PTRS_FREE,
	FI_SVM_SET,
	FI_SVM_GET,
	FI_RELEASE_SYSPROPS,
	FI_CLOSE,
	FI_CALL_COUNT
};

/* What one run of the script did. */
struct fi_record {
	bool ran[FI_CALL_COUNT];
	HSAKMT_STATUS st[FI_CALL_COUNT];
	/* Faults that fired during each call (kfd_faults_injected delta). */
	unsigned long faults[FI_CALL_COUNT];
	HSAuint32 gpu;		/* the GPU node used, UINT32_MAX if none */
	unsigned int n_gpus;	/* GPU nodes of the topology */
	/* Problems found by the script itself (wrong outputs), as text. */
	char problem[256];
};

/* The call running now (FI_CALL_COUNT between calls), for hooks. */
extern enum fi_call fi_current_call;

/* fi_call_name() - "hsaKmtAllocMemory(VRAM)" and the like. */
const char *fi_call_name(enum fi_call c);

/*
 * fi_workload_run() - run the script once.
 * @faults:	the attached fault set whose counter tells which call a
 *		fault hit, or NULL
 * @rec:	filled in
 */
void fi_workload_run(struct kfd_faults *faults, struct fi_record *rec);

#endif /* FI_WORKLOAD_H */
