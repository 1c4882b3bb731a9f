/* SPDX-License-Identifier: MIT */
/*
 * The scripted workload (fi_workload.h). Memory the script registers or
 * gives to SVM comes from mmap(), not malloc(), so that the driver's
 * check of the process's mappings sees only what the library did.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <kfdtrace/faults.h>

#include "fi_workload.h"

#define FI_MAX_NODES	64
#define FI_VRAM_SIZE	(1u << 20)
#define FI_HOST_SIZE	(64u << 10)
#define FI_USER_SIZE	(8u << 10)
#define FI_RING_SIZE	4096u
#define FI_SVM_SIZE	(64u << 10)

static const char *const call_names[FI_CALL_COUNT] = {
	[FI_OPEN] = "hsaKmtOpenKFD",
	[FI_SYSPROPS] = "hsaKmtAcquireSystemProperties",
	[FI_NODEPROPS] = "hsaKmtGetNodeProperties",
	[FI_AVAIL] = "hsaKmtAvailableMemory",
	[FI_CLOCK] = "hsaKmtGetClockCounters",
	[FI_VRAM_ALLOC] = "hsaKmtAllocMemory(VRAM)",
	[FI_VRAM_MAP] = "hsaKmtMapMemoryToGPUNodes(VRAM)",
	[FI_VRAM_QUERY] = "hsaKmtQueryPointerInfo(VRAM)",
	[FI_VRAM_UNMAP] = "hsaKmtUnmapMemoryToGPU(VRAM)",
	[FI_VRAM_FREE] = "hsaKmtFreeMemory(VRAM)",
	[FI_HOST_ALLOC] = "hsaKmtAllocMemory(host)",
	[FI_HOST_MAP] = "hsaKmtMapMemoryToGPU(host)",
	[FI_HOST_UNMAP] = "hsaKmtUnmapMemoryToGPU(host)",
	[FI_HOST_FREE] = "hsaKmtFreeMemory(host)",
	[FI_REGISTER] = "hsaKmtRegisterMemoryToNodes",
	[FI_USERPTR_MAP] = "hsaKmtMapMemoryToGPU(userptr)",
	[FI_USERPTR_UNMAP] = "hsaKmtUnmapMemoryToGPU(userptr)",
	[FI_DEREGISTER] = "hsaKmtDeregisterMemory",
	[FI_EVENT_CREATE] = "hsaKmtCreateEvent",
	[FI_EVENT_SET] = "hsaKmtSetEvent",
	[FI_EVENT_WAIT] = "hsaKmtWaitOnEvent",
	[FI_EVENT_DESTROY] = "hsaKmtDestroyEvent",
	[FI_RING_ALLOC] = "hsaKmtAllocMemory(ring)",
	[FI_RING_MAP] = "hsaKmtMapMemoryToGPUNodes(ring)",
	[FI_PTRS_ALLOC] = "hsaKmtAllocMemory(pointers)",
	[FI_PTRS_MAP] = "hsaKmtMapMemoryToGPUNodes(pointers)",
	[FI_QUEUE_CREATE] = "hsaKmtCreateQueue",
	[FI_QUEUE_DESTROY] = "hsaKmtDestroyQueue",
	[FI_RING_UNMAP] = "hsaKmtUnmapMemoryToGPU(ring)",
	[FI_RING_FREE] = "hsaKmtFreeMemory(ring)",
	[FI_PTRS_UNMAP] = "hsaKmtUnmapMemoryToGPU(pointers)",
	[FI_PTRS_FREE] = "hsaKmtFreeMemory(pointers)",
	[FI_SVM_SET] = "hsaKmtSVMSetAttr",
	[FI_SVM_GET] = "hsaKmtSVMGetAttr",
	[FI_RELEASE_SYSPROPS] = "hsaKmtReleaseSystemProperties",
	[FI_CLOSE] = "hsaKmtCloseKFD",
};

const char *
fi_call_name(enum fi_call c)
{
	return c < FI_CALL_COUNT ? call_names[c] : "?";
}

struct fi_run {
	struct kfd_faults *faults;
	struct fi_record *rec;
	unsigned long before;
};

enum fi_call fi_current_call = FI_CALL_COUNT;

static void
call_begin(struct fi_run *r, enum fi_call c)
{
	fi_current_call = c;
	r->before = r->faults ? kfd_faults_injected(r->faults) : 0;
}

static bool
call_end(struct fi_run *r, enum fi_call c, HSAKMT_STATUS st)
{
	fi_current_call = FI_CALL_COUNT;
	r->rec->ran[c] = true;
	r->rec->st[c] = st;
	r->rec->faults[c] = (r->faults ? kfd_faults_injected(r->faults) : 0) - r->before;
	return st == HSAKMT_STATUS_SUCCESS;
}

/* Runs one call and records it; evaluates to true on SUCCESS. */
#define CALL(r, c, expr)						\
	({								\
		call_begin(r, c);					\
		call_end(r, c, (expr));					\
	})

static void
problem(struct fi_record *rec, const char *what)
{
	if (!rec->problem[0])
		snprintf(rec->problem, sizeof(rec->problem), "%s", what);
}

static HsaMemFlags
host_flags(bool non_paged)
{
	HsaMemFlags f = {0};

	f.ui32.NonPaged = non_paged;
	f.ui32.HostAccess = 1;
	f.ui32.ExecuteAccess = 1;
	f.ui32.CoarseGrain = 1;
	return f;
}

/* VRAM: allocate, map on the GPU, look it up, unmap, free. */
static void
run_vram(struct fi_run *r, HSAuint32 gpu)
{
	HsaMemFlags f = {0};
	HsaPointerInfo info;
	HSAuint64 va = 0;
	void *p = NULL;

	/* Device memory as a runtime asks for it: no CPU access, which a
	 * small-BAR GPU could not give. */
	f.ui32.NonPaged = 1;
	f.ui32.CoarseGrain = 1;
	if (!CALL(r, FI_VRAM_ALLOC, hsaKmtAllocMemory(gpu, FI_VRAM_SIZE, f, &p)))
		return;
	if (CALL(r, FI_VRAM_MAP, hsaKmtMapMemoryToGPUNodes(p, FI_VRAM_SIZE, &va,
							     (HsaMemMapFlags){0}, 1, &gpu))) {
		if (CALL(r, FI_VRAM_QUERY, hsaKmtQueryPointerInfo(p, &info)) &&
		    (info.Type != HSA_POINTER_ALLOCATED || info.NMappedNodes != 1))
			problem(r->rec, "VRAM QueryPointerInfo after map");
		CALL(r, FI_VRAM_UNMAP, hsaKmtUnmapMemoryToGPU(p));
	}
	CALL(r, FI_VRAM_FREE, hsaKmtFreeMemory(p, FI_VRAM_SIZE));
}

/* Paged system memory (a userptr BO at an SVM address). */
static void
run_host(struct fi_run *r)
{
	HSAuint64 va = 0;
	void *p = NULL;

	if (!CALL(r, FI_HOST_ALLOC, hsaKmtAllocMemory(0, FI_HOST_SIZE, host_flags(false), &p)))
		return;
	if (CALL(r, FI_HOST_MAP, hsaKmtMapMemoryToGPU(p, FI_HOST_SIZE, &va)))
		CALL(r, FI_HOST_UNMAP, hsaKmtUnmapMemoryToGPU(p));
	CALL(r, FI_HOST_FREE, hsaKmtFreeMemory(p, FI_HOST_SIZE));
}

/* The process's own memory, registered for the GPU at an in-page offset. */
static void
run_userptr(struct fi_run *r, HSAuint32 gpu)
{
	char *mem = mmap(NULL, FI_USER_SIZE + 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	HSAuint64 va = 0;
	char *p;

	if (mem == MAP_FAILED) {
		problem(r->rec, "mmap for the user range failed");
		return;
	}
	p = mem + 64;
	if (CALL(r, FI_REGISTER, hsaKmtRegisterMemoryToNodes(p, FI_USER_SIZE, 1, &gpu))) {
		if (CALL(r, FI_USERPTR_MAP, hsaKmtMapMemoryToGPU(p, FI_USER_SIZE, &va)))
			CALL(r, FI_USERPTR_UNMAP, hsaKmtUnmapMemoryToGPU(p));
		CALL(r, FI_DEREGISTER, hsaKmtDeregisterMemory(p));
	}
	munmap(mem, FI_USER_SIZE + 4096);
}

/* A signal event: create, set, consume the signal with a wait, destroy. */
static void
run_events(struct fi_run *r, HSAuint32 gpu)
{
	HsaEventDescriptor desc;
	HsaEvent *ev = NULL;

	memset(&desc, 0, sizeof(desc));
	desc.EventType = HSA_EVENTTYPE_SIGNAL;
	desc.NodeId = gpu;
	if (!CALL(r, FI_EVENT_CREATE, hsaKmtCreateEvent(&desc, false, false, &ev)))
		return;
	if (CALL(r, FI_EVENT_SET, hsaKmtSetEvent(ev)))
		CALL(r, FI_EVENT_WAIT, hsaKmtWaitOnEvent(ev, 0));
	CALL(r, FI_EVENT_DESTROY, hsaKmtDestroyEvent(ev));
}

/* An AQL queue as a runtime makes one: ring and pointers GPU-mapped first. */
static void
run_queue(struct fi_run *r, HSAuint32 gpu)
{
	HsaQueueResource res;
	HSAuint64 va = 0;
	HSAuint64 *ptrs = NULL;
	void *ring = NULL;
	bool ring_mapped = false, ptrs_mapped = false;

	if (CALL(r, FI_RING_ALLOC, hsaKmtAllocMemory(0, FI_RING_SIZE, host_flags(true), &ring)))
		ring_mapped = CALL(r, FI_RING_MAP,
				   hsaKmtMapMemoryToGPUNodes(ring, FI_RING_SIZE, &va,
							     (HsaMemMapFlags){0}, 1, &gpu));
	if (CALL(r, FI_PTRS_ALLOC, hsaKmtAllocMemory(0, 4096, host_flags(true), (void **)&ptrs)))
		ptrs_mapped = CALL(r, FI_PTRS_MAP,
				   hsaKmtMapMemoryToGPUNodes(ptrs, 4096, &va,
							     (HsaMemMapFlags){0}, 1, &gpu));
	if (ring_mapped && ptrs_mapped) {
		memset(&res, 0, sizeof(res));
		res.QueueRptrValue = (uintptr_t)&ptrs[0];
		res.QueueWptrValue = (uintptr_t)&ptrs[1];
		if (CALL(r, FI_QUEUE_CREATE,
			 hsaKmtCreateQueue(gpu, HSA_QUEUE_COMPUTE_AQL, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, ring, FI_RING_SIZE, NULL,
					   &res))) {
			if (!res.Queue_DoorBell)
				problem(r->rec, "queue without a doorbell");
			CALL(r, FI_QUEUE_DESTROY, hsaKmtDestroyQueue(res.QueueId));
		}
	}
	if (ring_mapped)
		CALL(r, FI_RING_UNMAP, hsaKmtUnmapMemoryToGPU(ring));
	if (ring)
		CALL(r, FI_RING_FREE, hsaKmtFreeMemory(ring, FI_RING_SIZE));
	if (ptrs_mapped)
		CALL(r, FI_PTRS_UNMAP, hsaKmtUnmapMemoryToGPU(ptrs));
	if (ptrs)
		CALL(r, FI_PTRS_FREE, hsaKmtFreeMemory(ptrs, 4096));
}

/* SVM attributes of an anonymous range: GPU access, coherence; read back. */
static void
run_svm(struct fi_run *r, HSAuint32 gpu)
{
	void *range = mmap(NULL, FI_SVM_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	HSA_SVM_ATTRIBUTE set[2], get[2];

	if (range == MAP_FAILED) {
		problem(r->rec, "mmap for the SVM range failed");
		return;
	}
	set[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_ACCESS, gpu };
	set[1] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_SET_FLAGS, HSA_SVM_FLAG_COHERENT };
	if (CALL(r, FI_SVM_SET, hsaKmtSVMSetAttr(range, FI_SVM_SIZE, 2, set))) {
		get[0] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_ACCESS, gpu };
		get[1] = (HSA_SVM_ATTRIBUTE){ HSA_SVM_ATTR_SET_FLAGS, 0 };
		if (CALL(r, FI_SVM_GET, hsaKmtSVMGetAttr(range, FI_SVM_SIZE, 2, get)) &&
		    (get[0].type != HSA_SVM_ATTR_ACCESS || !(get[1].value & HSA_SVM_FLAG_COHERENT)))
			problem(r->rec, "SVM attributes not read back");
	}
	munmap(range, FI_SVM_SIZE);
}

void
fi_workload_run(struct kfd_faults *faults, struct fi_record *rec)
{
	struct fi_run run = { .faults = faults, .rec = rec };
	struct fi_run *r = &run;
	HsaSystemProperties sys;
	HsaNodeProperties props;
	HsaClockCounters clk;
	HSAuint64 avail = 0;
	HSAuint32 gpu = UINT32_MAX;

	memset(rec, 0, sizeof(*rec));
	rec->gpu = UINT32_MAX;
	if (!CALL(r, FI_OPEN, hsaKmtOpenKFD()))
		return;
	if (CALL(r, FI_SYSPROPS, hsaKmtAcquireSystemProperties(&sys))) {
		for (HSAuint32 n = 0; n < sys.NumNodes && n < FI_MAX_NODES; n++) {
			if (hsaKmtGetNodeProperties(n, &props) == HSAKMT_STATUS_SUCCESS &&
			    props.NumFComputeCores) {
				if (gpu == UINT32_MAX)
					gpu = n;
				rec->n_gpus++;
			}
		}
	}
	rec->gpu = gpu;
	if (gpu != UINT32_MAX && CALL(r, FI_NODEPROPS, hsaKmtGetNodeProperties(gpu, &props))) {
		CALL(r, FI_AVAIL, hsaKmtAvailableMemory(gpu, &avail));
		CALL(r, FI_CLOCK, hsaKmtGetClockCounters(gpu, &clk));
		run_vram(r, gpu);
		run_host(r);
		run_userptr(r, gpu);
		run_events(r, gpu);
		run_queue(r, gpu);
		run_svm(r, gpu);
	}
	if (rec->ran[FI_SYSPROPS] && rec->st[FI_SYSPROPS] == HSAKMT_STATUS_SUCCESS)
		CALL(r, FI_RELEASE_SYSPROPS, hsaKmtReleaseSystemProperties());
	CALL(r, FI_CLOSE, hsaKmtCloseKFD());
}
