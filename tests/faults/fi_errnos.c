/* SPDX-License-Identifier: MIT */
/* Kernel errnos per KFD ioctl and the statuses they must become (fi_errnos.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "fi_errnos.h"

/*
 * Per ioctl nr (kfd_chardev.c order). Sources per row, in the reference:
 * §3 queues, §4 per-device, §5 events, §6 memory, §7 SVM/XNACK, §8 debug.
 */
static const struct fi_ioctl_errnos table[] = {
	/* never fails; only the copy-out can */
	{ 0x01, "GET_VERSION", { EFAULT } },
	/* checks, then bind (ESRCH), queue limits (ENOSPC), DQM (ENOMEM, EBUSY),
	 * HWS without oversubscription (EPERM), unknown type (ENOTSUPP) */
	{ 0x02, "CREATE_QUEUE", { EINVAL, EFAULT, FI_ENOTSUPP, ESRCH, ENOSPC, ENOMEM, EPERM,
				  EBUSY } },
	/* unknown qid; an interrupted wait for the HWS */
	{ 0x03, "DESTROY_QUEUE", { EINVAL, EINTR } },
	{ 0x04, "SET_MEMORY_POLICY", { EINVAL, ESRCH } },
	{ 0x05, "GET_CLOCK_COUNTERS", { EFAULT } },
	{ 0x06, "GET_PROCESS_APERTURES", { EFAULT } },
	{ 0x07, "UPDATE_QUEUE", { EINVAL, EFAULT } },
	/* bad page handle (EINVAL), no VM (ENODEV), slots full (ENOSPC) */
	{ 0x08, "CREATE_EVENT", { EINVAL, ENODEV, ENOSPC, ENOMEM } },
	{ 0x09, "DESTROY_EVENT", { EINVAL } },
	{ 0x0A, "SET_EVENT", { EINVAL } },
	{ 0x0B, "RESET_EVENT", { EINVAL } },
	/* bad array, waiter allocation, unknown id, destroyed while waiting,
	 * interrupted */
	{ 0x0C, "WAIT_EVENTS", { EFAULT, ENOMEM, EINVAL, EIO, EINTR } },
	{ 0x11, "SET_SCRATCH_BACKING_VA", { EINVAL, ENODEV } },
	{ 0x12, "GET_TILE_CONFIG", { EINVAL, EFAULT } },
	{ 0x13, "SET_TRAP_HANDLER", { EINVAL, ESRCH } },
	{ 0x14, "GET_PROCESS_APERTURES_NEW", { ENOMEM, EFAULT } },
	/* bad drm fd or gpu (EINVAL), another render file already (EBUSY) */
	{ 0x15, "ACQUIRE_VM", { EINVAL, EBUSY } },
	/* size/gpu/flags (EINVAL), SVM overlap (EADDRINUSE), no VM (ENODEV),
	 * accounting (ENOMEM), IDR (EFAULT) */
	{ 0x16, "ALLOC_MEMORY_OF_GPU", { EINVAL, EADDRINUSE, ENODEV, ENOMEM, EFAULT } },
	/* the events page (EPERM), unknown handle (EINVAL), still mapped (EBUSY) */
	{ 0x17, "FREE_MEMORY_OF_GPU", { EPERM, EINVAL, EBUSY } },
	/* bad device/handle (EINVAL, ENOMEM), array copy (EFAULT), no VM
	 * (ENODEV), interrupted wait for page tables (EINTR) */
	{ 0x18, "MAP_MEMORY_TO_GPU", { EINVAL, ENOMEM, EFAULT, ENODEV, EINTR } },
	/* as MAP, and a BO a queue uses (EBUSY) */
	{ 0x19, "UNMAP_MEMORY_FROM_GPU", { EINVAL, ENOMEM, EFAULT, EBUSY } },
	{ 0x1A, "SET_CU_MASK", { EINVAL, EFAULT, EBUSY } },
	{ 0x1B, "GET_QUEUE_WAVE_STATE", { EFAULT, EINVAL } },
	{ 0x1C, "GET_DMABUF_INFO", { EINVAL, ENOMEM } },
	{ 0x1D, "IMPORT_DMABUF", { EINVAL, EFAULT } },
	{ 0x1E, "ALLOC_QUEUE_GWS", { EINVAL, ENODEV, EBUSY } },
	{ 0x1F, "SMI_EVENTS", { EINVAL } },
	/* alignment/attributes (EINVAL), range not mapped (EFAULT), BO overlap
	 * (EADDRINUSE), no SVM support (EPERM) */
	{ 0x20, "SVM", { EINVAL, EFAULT, EADDRINUSE, EPERM, ENOMEM } },
	{ 0x21, "SET_XNACK_MODE", { EBUSY, EPERM } },
	{ 0x23, "AVAILABLE_MEMORY", { EINVAL } },
	{ 0x24, "EXPORT_DMABUF", { EINVAL } },
	{ 0x25, "RUNTIME_ENABLE", { EBUSY, EEXIST } },
	{ 0x26, "DBG_TRAP", { EINVAL, ESRCH, EPERM, ENODEV } },
	{ 0x27, "CREATE_PROCESS", { EINVAL } },
};

const struct fi_ioctl_errnos *
fi_errnos_of(unsigned int nr)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].nr == nr)
			return &table[i];
	return NULL;
}

const char *
fi_errno_name(int err)
{
	static __thread char buf[16];
	const char *name = err == FI_ENOTSUPP ? "ENOTSUPP" : strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}

#define NR(ioc)	KFD_ABI_IOC_NR(KFD_ABI_IOC_##ioc)
#define BIT(ioc)	(1ull << NR(ioc))

HSAKMT_STATUS
fi_expected_status(enum fi_call call, unsigned int nr, int err, uint64_t prior)
{
	switch (call) {
	case FI_OPEN:
		/*
		 * Optional parts of the set-up: when GET_PROCESS_APERTURES_NEW
		 * fails the old GET_PROCESS_APERTURES is asked instead, and
		 * the MMIO remap page (its ALLOC and MAP) is a nicety the
		 * library does without, as AMD's does.
		 */
		if (nr == NR(GET_PROCESS_APERTURES_NEW) || nr == NR(ALLOC_MEMORY_OF_GPU) ||
		    nr == NR(MAP_MEMORY_TO_GPU))
			return HSAKMT_STATUS_SUCCESS;
		return HSAKMT_STATUS_ERROR;
	case FI_VRAM_ALLOC:
		/* AMD's hsaKmtAllocMemory: any failed VRAM allocation. */
		return HSAKMT_STATUS_NO_MEMORY;
	case FI_QUEUE_CREATE:
		/*
		 * The EOP, CWSR and control-stack buffers are made before
		 * CREATE_QUEUE: their failure is NO_MEMORY (AMD's queue
		 * buffer allocation). Once the queue exists, a doorbell slice
		 * the kernel will not make a BO of is mapped from /dev/kfd
		 * instead, so those failures do not fail the call.
		 */
		if (nr == NR(CREATE_QUEUE))
			return HSAKMT_STATUS_ERROR;
		if (prior & BIT(CREATE_QUEUE))
			return HSAKMT_STATUS_SUCCESS;
		return HSAKMT_STATUS_NO_MEMORY;
	case FI_QUEUE_DESTROY:
		/* The queue is gone once DESTROY_QUEUE succeeded; its buffers
		 * are released best-effort (and again at close). */
		return nr == NR(DESTROY_QUEUE) ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
	case FI_CLOSE:
		/* Nothing a caller could do about it: close always succeeds. */
		return HSAKMT_STATUS_SUCCESS;
	default:
		/*
		 * AMD's 5.2.3 library answers a failed ioctl with ERROR in
		 * every other call of the script (memory.c, fmm.c, events.c,
		 * queues.c, svm.c, time.c), whatever the errno; programs
		 * written against it test for exactly that.
		 */
		return HSAKMT_STATUS_ERROR;
	}
}

unsigned int
fi_call_area(enum fi_call call)
{
	switch (call) {
	case FI_AVAIL:
		return 1;
	case FI_CLOCK:
		return 2;
	case FI_VRAM_ALLOC ... FI_VRAM_FREE:
		return 3;
	case FI_HOST_ALLOC ... FI_HOST_FREE:
		return 4;
	case FI_REGISTER ... FI_DEREGISTER:
		return 5;
	case FI_EVENT_CREATE ... FI_EVENT_DESTROY:
		return 6;
	case FI_RING_ALLOC ... FI_PTRS_FREE:
		return 7;
	case FI_SVM_SET ... FI_SVM_GET:
		return 8;
	default:
		return 0;
	}
}
