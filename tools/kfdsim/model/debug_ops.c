/* SPDX-License-Identifier: MIT */
/*
 * The DBG_TRAP ops on a debug-enabled target (kfd_debug.c,
 * kfd_device_queue_manager.c suspend/resume, pqm_get_queue_snapshot).
 * The target may be another process of the machine: everything is read
 * and changed through its debugger state (debug_priv.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug_priv.h"

#define CAP_PRECISE_MEMORY_OPS	0x00040000u
#define CAP_PRECISE_ALU		0x40000000u

/* The kernel's KFD_EC_MASK_QUEUE/DEVICE/PROCESS: which codes are whose. */
#define EC_MASK_QUEUE	(KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_ABORT) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_TRAP) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_MATH_ERROR) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_APERTURE_VIOLATION) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_RESERVED) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_UNSUPPORTED) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_REGISTER_INVALID) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PREEMPTION_ERROR) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW))
#define EC_MASK_DEVICE	(KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_QUEUE_DELETE) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_RAS_ERROR) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_FATAL_HALT) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_NEW))
#define EC_MASK_PROCESS	(KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME) | \
			 KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_DEVICE_REMOVE))

/* Whether an id of the user's array names queue @qid (status bits off). */
static int
ids_find(const uint32_t *ids, uint32_t n, uint32_t qid)
{
	for (uint32_t i = 0; i < n; i++)
		if ((ids[i] & ~(KFD_ABI_DBG_QUEUE_ERROR_MASK |
				KFD_ABI_DBG_QUEUE_INVALID_MASK)) == qid)
			return (int)i;
	return -1;
}

/*
 * SUSPEND_QUEUES / RESUME_QUEUES: every id starts invalid; a queue found
 * is unmasked. A queue already in the state counts. A new queue (its
 * EC_QUEUE_NEW not yet cleared by the debugger) is not suspended and stays
 * invalid, as suspend_single_queue() answers -EBUSY for it.
 */
int
dbg_queues_op(const struct dbg_target *t, uint64_t uptr, uint32_t n,
	      uint64_t clear_mask, int suspend)
{
	uint64_t bytes = (uint64_t)n * sizeof(uint32_t);
	uint32_t *ids;
	int done = 0;

	if (bytes > KSIM_KMALLOC_MAX)
		return -ENOMEM;
	ids = malloc(bytes ? bytes : 1);
	if (!ids)
		return -ENOMEM;
	if (ksim_copy_from_user(ids, uptr, bytes)) {
		free(ids);
		return -EFAULT;
	}
	for (uint32_t i = 0; i < n; i++)
		ids[i] |= KFD_ABI_DBG_QUEUE_INVALID_MASK;
	for (uint32_t qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		int gpu, at = ids_find(ids, n, qid);
		struct ksim_qdbg *q;

		if (at < 0 || !(q = dbg_queue(t, qid, &gpu)))
			continue;
		if (suspend && !q->suspended &&
		    (q->exception_status & KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW)))
			continue;
		ids[at] &= ~KFD_ABI_DBG_QUEUE_INVALID_MASK;
		__atomic_store_n(&q->suspended, (uint32_t)suspend, __ATOMIC_RELEASE);
		if (suspend)
			q->exception_status &= ~clear_mask;
		done++;
	}
	if (ksim_copy_to_user(uptr, ids, bytes)) {
		free(ids);
		return -EFAULT;
	}
	free(ids);
	return done;
}

int
dbg_queue_snapshot(const struct dbg_target *t,
		   struct kfd_abi_dbg_trap_queue_snapshot_args *a)
{
	uint32_t stride = a->entry_size, count = 0;
	uint32_t n = stride < sizeof(struct kfd_abi_queue_snapshot_entry) ?
		     stride : (uint32_t)sizeof(struct kfd_abi_queue_snapshot_entry);

	if (!stride)
		return -EINVAL;
	a->entry_size = n;
	for (uint32_t qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		struct kfd_abi_queue_snapshot_entry e;
		struct ksim_qdbg *q;
		int gpu;

		q = dbg_queue(t, qid, &gpu);
		if (!q)
			continue;
		if (count < a->num_queues) {
			memset(&e, 0, sizeof(e));
			e.exception_status = q->exception_status;
			e.ring_base_address = q->ring;
			e.write_pointer_address = q->wptr;
			e.read_pointer_address = q->rptr;
			e.ctx_save_restore_address = q->ctx;
			e.queue_id = qid;
			e.gpu_id = t->dev->gpus[gpu].gpu_id;
			e.ring_size = q->ring_size;
			e.queue_type = q->user_type;
			e.ctx_save_restore_area_size = q->ctx_size;
			if (ksim_copy_to_user(a->snapshot_buf_ptr +
					      (uint64_t)count * stride, &e, n))
				return -EFAULT;
			q->exception_status &= ~a->exception_mask;
		}
		count++;
	}
	a->num_queues = count;
	return 0;
}

int
dbg_device_snapshot(const struct dbg_target *t,
		    struct kfd_abi_dbg_trap_device_snapshot_args *a)
{
	const struct ksim_device *dev = t->dev;
	/* The entry gained capability2 in 2026 (no ABI bump): 128 bytes
	 * from 1.23, the 120 of the kernels before it below. */
	uint32_t ksize = dev->abi_minor >= 23 ?
		(uint32_t)sizeof(struct kfd_abi_dbg_device_info_entry) :
		KFD_ABI_DBG_DEVICE_INFO_ENTRY_SIZE_120;
	uint32_t stride = a->entry_size, count = 0;
	uint32_t n = stride < ksize ? stride : ksize;

	if (!stride)
		return -EINVAL;
	a->entry_size = n;
	for (unsigned int i = 0; i < dev->n_gpus; i++) {
		const struct ksim_gpu_dev *gd = &dev->gpus[i];
		const uint64_t *pr = gd->n->props;
		struct kfd_abi_dbg_device_info_entry e;

		if (count < a->num_devices) {
			memset(&e, 0, sizeof(e));
			e.exception_status = t->d->dev_status[i];
			e.lds_base = gd->g->apertures.lds_base;
			e.lds_limit = gd->g->apertures.lds_limit;
			e.scratch_base = gd->g->apertures.scratch_base;
			e.scratch_limit = gd->g->apertures.scratch_limit;
			e.gpuvm_base = gd->g->apertures.gpuvm_base;
			e.gpuvm_limit = gd->g->apertures.gpuvm_limit;
			e.gpu_id = gd->gpu_id;
			e.location_id = (uint32_t)pr[KSIM_NP_LOCATION_ID];
			e.vendor_id = (uint32_t)pr[KSIM_NP_VENDOR_ID];
			e.device_id = (uint32_t)pr[KSIM_NP_DEVICE_ID];
			e.revision_id = gd->d->pci_rev;
			e.subsystem_vendor_id = gd->d->subsystem_vendor;
			e.subsystem_device_id = gd->d->subsystem_device;
			e.fw_version = (uint32_t)pr[KSIM_NP_FW_VERSION];
			e.gfx_target_version = (uint32_t)pr[KSIM_NP_GFX_TARGET_VERSION];
			e.simd_count = (uint32_t)pr[KSIM_NP_SIMD_COUNT];
			e.max_waves_per_simd = (uint32_t)pr[KSIM_NP_MAX_WAVES_PER_SIMD];
			e.array_count = (uint32_t)pr[KSIM_NP_ARRAY_COUNT];
			e.simd_arrays_per_engine = (uint32_t)pr[KSIM_NP_SIMD_ARRAYS_PER_ENGINE];
			e.num_xcc = (uint32_t)pr[KSIM_NP_NUM_XCC];
			e.capability = (uint32_t)pr[KSIM_NP_CAPABILITY];
			e.debug_prop = (uint32_t)pr[KSIM_NP_DEBUG_PROP];
			e.capability2 = (uint32_t)pr[KSIM_NP_CAPABILITY2];
			if (ksim_copy_to_user(a->snapshot_buf_ptr +
					      (uint64_t)count * stride, &e, n))
				return -EFAULT;
			t->d->dev_status[i] &= ~a->exception_mask;
		}
		count++;
	}
	a->num_devices = count;
	return 0;
}

int
dbg_set_flags(const struct dbg_target *t, uint32_t *flags)
{
	uint32_t supported = ~0u, prev = t->d->flags;

	for (unsigned int i = 0; i < t->dev->n_gpus; i++) {
		const uint64_t *pr = t->dev->gpus[i].n->props;
		uint64_t cap = pr[KSIM_NP_CAPABILITY];
		uint32_t s = 0;

		/* 1.21: LDS out-of-range exceptions where capability2 says. */
		if (pr[KSIM_NP_CAPABILITY2] &
		    KFD_ABI_CAP2_TRAP_DEBUG_LDS_OUT_OF_ADDR_RANGE_SUPPORTED)
			s |= KFD_ABI_DBG_TRAP_FLAG_LDS_OUT_OF_ADDR_RANGE;

		if (cap & CAP_PRECISE_MEMORY_OPS)
			s |= KFD_ABI_DBG_TRAP_FLAG_SINGLE_MEM_OP;
		if (cap & CAP_PRECISE_ALU)
			s |= KFD_ABI_DBG_TRAP_FLAG_SINGLE_ALU_OP;
		supported &= s;
	}
	if (*flags & ~supported)
		return -EACCES;
	t->d->flags = *flags;
	*flags = prev;
	return 0;
}

/*
 * kfd_dbg_ev_query_debug_event(): the first queue, then device, then the
 * process with an enabled exception pending; its whole status is reported
 * and the asked bits cleared.
 */
int
dbg_query_debug_event(const struct dbg_target *t,
		      struct kfd_abi_dbg_trap_query_debug_event_args *a)
{
	uint64_t enabled = t->d->exception_mask, clear = a->exception_mask;

	a->exception_mask = 0;
	a->queue_id = 0;
	a->gpu_id = 0;
	for (uint32_t qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		struct ksim_qdbg *q;
		int gpu;

		q = dbg_queue(t, qid, &gpu);
		if (!q || !(q->exception_status & enabled))
			continue;
		a->exception_mask = q->exception_status;
		a->queue_id = qid;
		a->gpu_id = t->dev->gpus[gpu].gpu_id;
		q->exception_status &= ~clear;
		return 0;
	}
	for (unsigned int i = 0; i < t->dev->n_gpus; i++) {
		if (!(t->d->dev_status[i] & enabled))
			continue;
		a->exception_mask = t->d->dev_status[i];
		a->gpu_id = t->dev->gpus[i].gpu_id;
		t->d->dev_status[i] &= ~clear;
		return 0;
	}
	if (t->d->exception_status & enabled) {
		a->exception_mask = t->d->exception_status;
		t->d->exception_status &= ~clear;
		return 0;
	}
	return -EAGAIN;
}

int
dbg_query_exception_info(const struct dbg_target *t,
			 struct kfd_abi_dbg_trap_query_exception_info_args *a)
{
	uint32_t ec = a->exception_code;
	uint64_t bit = ec && ec <= 64 ? KFD_ABI_EC_MASK(ec) : 0;
	uint64_t *status;
	uint32_t actual = 0;

	if (!a->info_ptr)
		return -EINVAL;
	if (bit & EC_MASK_QUEUE) {
		int gpu;
		struct ksim_qdbg *q = dbg_queue(t, a->source_id, &gpu);

		if (!q)
			return -EINVAL;
		status = &q->exception_status;
	} else if (bit & EC_MASK_DEVICE) {
		int gpu = ksim_gpu_index(t->dev, a->source_id);

		if (gpu < 0)
			return -EINVAL;
		status = &t->d->dev_status[gpu];
		if ((*status & bit) && ec == KFD_ABI_EC_DEVICE_MEMORY_VIOLATION) {
			/* The fault's data, kept at the fault (none after
			 * a clear: size 0). */
			uint32_t have = (t->d->vm_fault_saved & (1u << gpu)) ?
					(uint32_t)sizeof(t->d->vm_fault[0]) : 0;
			uint32_t n = a->info_size < have ? a->info_size : have;

			if (n && ksim_copy_to_user(a->info_ptr, &t->d->vm_fault[gpu], n))
				return -EFAULT;
			actual = have;
			if (a->clear_exception)
				t->d->vm_fault_saved &= ~(1u << gpu);
		}
	} else if (bit & EC_MASK_PROCESS) {
		status = &t->d->exception_status;
	} else {
		return -EINVAL;
	}
	if (!(*status & bit))
		return -ENODATA;
	if (ec == KFD_ABI_EC_PROCESS_RUNTIME) {
		struct kfd_abi_runtime_info ri;
		uint32_t n = a->info_size < sizeof(ri) ? a->info_size : (uint32_t)sizeof(ri);

		memset(&ri, 0, sizeof(ri));
		ri.r_debug = t->d->r_debug;
		ri.runtime_state = t->d->runtime_state;
		ri.ttmp_setup = t->d->ttmp_setup;
		if (ksim_copy_to_user(a->info_ptr, &ri, n))
			return -EFAULT;
		actual = sizeof(ri);
	}
	a->info_size = actual;
	if (a->clear_exception)
		*status &= ~bit;
	return 0;
}

/* kfd_dbg_set_enabled_debug_exception_mask(): an exception already
 * pending that the new mask enables is announced at once. */
void
dbg_set_exceptions_enabled(const struct dbg_target *t, uint64_t mask)
{
	uint64_t found = t->d->exception_status;

	for (uint32_t qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		int gpu;
		struct ksim_qdbg *q = dbg_queue(t, qid, &gpu);

		if (q)
			found |= q->exception_status;
	}
	for (unsigned int i = 0; i < t->dev->n_gpus; i++)
		found |= t->d->dev_status[i];
	if (mask & found)
		dbg_notify(t->d);
	t->d->exception_mask = mask;
}
