/* SPDX-License-Identifier: MIT */
/*
 * RUNTIME_ENABLE and the 1.13 debugger (kfd_debug.c, kfd_chardev.c
 * kfd_ioctl_set_debug_trap). Waves never run, so the debugger finds no
 * exceptions to report; the bookkeeping (enable state, suspended queues,
 * watch points, flags, snapshots) follows the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"

#define MAX_WATCH_ADDRESSES	4
#define CAP_PRECISE_MEMORY_OPS	0x00040000u
#define CAP_PRECISE_ALU		0x40000000u
#define TRAP_MASK_SUPPORTED	(0x1ffu | KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START | \
				 KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_END)
#define EC_QUEUE_FIRST		1
#define EC_QUEUE_LAST		31
#define EC_DEVICE_FIRST		32
#define EC_DEVICE_LAST		47

int
ksim_ioc_runtime_enable(struct ksim_file *f, struct ksim_process *p,
			void *data, unsigned int usize)
{
	struct kfd_abi_runtime_enable_args *args = data;

	if (!(args->mode_mask & KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK)) {
		p->runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED;
		p->r_debug = 0;
		return 0;
	}
	if (p->runtime_state != KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED)
		return -EBUSY;
	if (ksim_queue_count(p))
		return -EEXIST;
	p->runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED;
	p->r_debug = args->r_debug;
	p->ttmp_setup = (args->mode_mask &
			 KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK) != 0;
	return 0;
}

static int
needs_runtime(uint32_t op)
{
	switch (op) {
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE:
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE:
	case KFD_ABI_DBG_TRAP_SUSPEND_QUEUES:
	case KFD_ABI_DBG_TRAP_RESUME_QUEUES:
	case KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH:
	case KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH:
	case KFD_ABI_DBG_TRAP_SET_FLAGS:
		return 1;
	}
	return 0;
}

static int
trap_enable(struct ksim_process *t, struct kfd_abi_dbg_trap_enable_args *a)
{
	struct kfd_abi_runtime_info ri;
	uint32_t n;

	if (t->debug_enabled)
		return -EINVAL;
	for (unsigned int i = 0; i < t->n_pdds; i++)
		if (!t->dev->gpus[t->pdds[i].gpu].g->soc15)
			return -ENODEV;
	if (syscall(SYS_fcntl, (int)a->dbg_fd, F_GETFD) < 0)
		return -EBADF;
	memset(&ri, 0, sizeof(ri));
	ri.r_debug = t->r_debug;
	ri.runtime_state = (uint32_t)t->runtime_state;
	ri.ttmp_setup = (uint32_t)t->ttmp_setup;
	n = a->rinfo_size < sizeof(ri) ? a->rinfo_size : (uint32_t)sizeof(ri);
	t->debug_enabled = 1;
	t->dbg_fd = (int)a->dbg_fd;
	t->exception_mask = a->exception_mask;
	a->rinfo_size = sizeof(ri);
	if (ksim_copy_to_user(a->rinfo_ptr, &ri, n)) {
		t->debug_enabled = 0;
		return -EFAULT;
	}
	return 0;
}

/* SUSPEND_QUEUES / RESUME_QUEUES over a user array of queue ids. */
static int
queues_op(struct ksim_process *t, uint64_t uptr, uint32_t n, int suspend)
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
	for (uint32_t i = 0; i < n; i++) {
		uint32_t qid = ids[i] & ~(KFD_ABI_DBG_QUEUE_ERROR_MASK |
					  KFD_ABI_DBG_QUEUE_INVALID_MASK);
		struct ksim_queue *q = qid < KSIM_MAX_QUEUES ? t->queues[qid] : NULL;

		ids[i] = qid;
		if (!q) {
			ids[i] |= KFD_ABI_DBG_QUEUE_INVALID_MASK;
			continue;
		}
		if (q->suspended == suspend)
			continue;
		q->suspended = suspend;
		q->active = !suspend && q->ring && q->ring_size && q->percentage;
		done++;
	}
	if (ksim_copy_to_user(uptr, ids, bytes)) {
		free(ids);
		return -EFAULT;
	}
	free(ids);
	return done;
}

static int
queue_snapshot(struct ksim_process *t, struct kfd_abi_dbg_trap_queue_snapshot_args *a)
{
	uint32_t stride = a->entry_size, count = 0;
	uint32_t n = stride < sizeof(struct kfd_abi_queue_snapshot_entry) ?
		     stride : (uint32_t)sizeof(struct kfd_abi_queue_snapshot_entry);

	if (!stride)
		return -EINVAL;
	a->entry_size = n;
	for (unsigned int qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		struct ksim_queue *q = t->queues[qid];
		struct kfd_abi_queue_snapshot_entry e;

		if (!q)
			continue;
		if (count < a->num_queues) {
			memset(&e, 0, sizeof(e));
			e.exception_status = q->exception_status;
			e.ring_base_address = q->ring;
			e.write_pointer_address = q->wptr;
			e.read_pointer_address = q->rptr;
			e.ctx_save_restore_address = q->ctx;
			e.queue_id = q->id;
			e.gpu_id = t->pdds[q->gpu].gpu_id;
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

static int
device_snapshot(struct ksim_process *t, struct kfd_abi_dbg_trap_device_snapshot_args *a)
{
	/* The entry gained capability2 in 2026 (no ABI bump): 128 bytes
	 * from 1.23, the 120 of the kernels before it below. */
	uint32_t ksize = t->dev->abi_minor >= 23 ?
		(uint32_t)sizeof(struct kfd_abi_dbg_device_info_entry) :
		KFD_ABI_DBG_DEVICE_INFO_ENTRY_SIZE_120;
	uint32_t stride = a->entry_size, count = 0;
	uint32_t n = stride < ksize ? stride : ksize;

	if (!stride)
		return -EINVAL;
	a->entry_size = n;
	for (unsigned int i = 0; i < t->n_pdds; i++) {
		struct ksim_pdd *pdd = &t->pdds[i];
		const struct ksim_gpu_dev *gd = &t->dev->gpus[pdd->gpu];
		const uint64_t *pr = gd->n->props;
		struct kfd_abi_dbg_device_info_entry e;

		if (count < a->num_devices) {
			memset(&e, 0, sizeof(e));
			e.exception_status = pdd->exception_status;
			e.lds_base = gd->g->apertures.lds_base;
			e.lds_limit = gd->g->apertures.lds_limit;
			e.scratch_base = gd->g->apertures.scratch_base;
			e.scratch_limit = gd->g->apertures.scratch_limit;
			e.gpuvm_base = gd->g->apertures.gpuvm_base;
			e.gpuvm_limit = gd->g->apertures.gpuvm_limit;
			e.gpu_id = pdd->gpu_id;
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
			pdd->exception_status &= ~a->exception_mask;
		}
		count++;
	}
	a->num_devices = count;
	return 0;
}

static int
set_flags(struct ksim_process *t, uint32_t *flags)
{
	uint32_t supported = ~0u, prev = t->dbg_flags;

	for (unsigned int i = 0; i < t->n_pdds; i++) {
		const uint64_t *pr = t->dev->gpus[t->pdds[i].gpu].n->props;
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
	t->dbg_flags = *flags;
	*flags = prev;
	return 0;
}

static int
query_exception_info(struct ksim_process *t,
		     struct kfd_abi_dbg_trap_query_exception_info_args *a)
{
	uint32_t ec = a->exception_code;
	uint64_t status;

	if (ec == KFD_ABI_EC_NONE || ec >= KFD_ABI_EC_MAX)
		return -EINVAL;
	if (ec >= EC_QUEUE_FIRST && ec <= EC_QUEUE_LAST) {
		struct ksim_queue *q = a->source_id < KSIM_MAX_QUEUES ?
				       t->queues[a->source_id] : NULL;

		if (!q)
			return -EINVAL;
		status = q->exception_status;
	} else if (ec >= EC_DEVICE_FIRST && ec <= EC_DEVICE_LAST) {
		struct ksim_pdd *pdd = ksim_pdd_by_id(t, a->source_id);

		if (!pdd)
			return -EINVAL;
		status = pdd->exception_status;
	} else {
		status = t->exception_status;
	}
	if (!(status & KFD_ABI_EC_MASK(ec)))
		return -ENODATA;
	a->info_size = 0;
	return 0;
}

int
ksim_ioc_dbg_trap(struct ksim_file *f, struct ksim_process *p, void *data,
		  unsigned int usize)
{
	struct kfd_abi_dbg_trap_args *args = data;
	struct ksim_device *dev = f->dev;
	struct ksim_process *t;
	struct ksim_pdd *pdd = NULL;
	pid_t pid = (pid_t)args->pid;

	for (unsigned int i = 0; i < dev->n_gpus; i++)
		if (dev->gpus[i].g->sched_policy == 2)
			return -EINVAL;
	if (pid <= 0 || !ksim_sys_pid_alive(pid))
		return -ESRCH;
	/* Only our own process is visible here; another live process can be
	 * debugged only by its ptrace parent, which the model never is. */
	if (pid != p->pid)
		return args->op == KFD_ABI_DBG_TRAP_DISABLE ? -ESRCH : -EPERM;
	t = p;
	if (args->op != KFD_ABI_DBG_TRAP_ENABLE && !t->debug_enabled)
		return -EINVAL;
	if (t->runtime_state != KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED &&
	    needs_runtime(args->op))
		return -EPERM;
	if (args->op == KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH ||
	    args->op == KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH) {
		pdd = ksim_pdd_by_id(t, args->op == KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH ?
				     args->set_node_address_watch.gpu_id :
				     args->clear_node_address_watch.gpu_id);
		if (!pdd)
			return -ENODEV;
	}
	switch (args->op) {
	case KFD_ABI_DBG_TRAP_ENABLE:
		return trap_enable(t, &args->enable);
	case KFD_ABI_DBG_TRAP_DISABLE:
		t->debug_enabled = 0;
		t->dbg_fd = -1;
		t->dbg_flags = 0;
		for (unsigned int q = 0; q < KSIM_MAX_QUEUES; q++)
			if (t->queues[q] && t->queues[q]->suspended) {
				struct ksim_queue *qq = t->queues[q];

				qq->suspended = 0;
				qq->active = qq->ring && qq->ring_size && qq->percentage;
			}
		return 0;
	case KFD_ABI_DBG_TRAP_SEND_RUNTIME_EVENT: {
		struct kfd_abi_dbg_trap_send_runtime_event_args *a = &args->send_runtime_event;
		struct ksim_pdd *d;

		if (a->exception_mask & KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME))
			return 0;
		d = ksim_pdd_by_id(t, a->gpu_id);
		if (!d)
			return -ENODEV;
		if (a->queue_id >= KSIM_MAX_QUEUES || !t->queues[a->queue_id] ||
		    t->queues[a->queue_id]->gpu != d->gpu)
			return -EINVAL;
		return 0;
	}
	case KFD_ABI_DBG_TRAP_SET_EXCEPTIONS_ENABLED:
		t->exception_mask = args->set_exceptions_enabled.exception_mask;
		return 0;
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE: {
		struct kfd_abi_dbg_trap_set_wave_launch_override_args *a = &args->launch_override;
		uint32_t prev = t->launch_enable_mask;

		if (a->override_mode > KFD_ABI_DBG_TRAP_OVERRIDE_REPLACE)
			return -EINVAL;
		if (a->support_request_mask & ~TRAP_MASK_SUPPORTED) {
			a->support_request_mask = TRAP_MASK_SUPPORTED;
			return -EACCES;
		}
		t->launch_override_mode = a->override_mode;
		if (a->override_mode == KFD_ABI_DBG_TRAP_OVERRIDE_OR)
			t->launch_enable_mask |= a->enable_mask & a->support_request_mask;
		else
			t->launch_enable_mask = (t->launch_enable_mask &
						 ~a->support_request_mask) |
						(a->enable_mask & a->support_request_mask);
		a->enable_mask = prev;
		a->support_request_mask = TRAP_MASK_SUPPORTED;
		return 0;
	}
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE:
		if (args->launch_mode.launch_mode != KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_NORMAL &&
		    args->launch_mode.launch_mode != KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_HALT &&
		    args->launch_mode.launch_mode != KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_DEBUG)
			return -EINVAL;
		t->launch_mode = args->launch_mode.launch_mode;
		return 0;
	case KFD_ABI_DBG_TRAP_SUSPEND_QUEUES:
		return queues_op(t, args->suspend_queues.queue_array_ptr,
				 args->suspend_queues.num_queues, 1);
	case KFD_ABI_DBG_TRAP_RESUME_QUEUES:
		return queues_op(t, args->resume_queues.queue_array_ptr,
				 args->resume_queues.num_queues, 0);
	case KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH: {
		uint32_t id;

		if (args->set_node_address_watch.mode > KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ALL)
			return -EINVAL;
		for (id = 0; id < MAX_WATCH_ADDRESSES; id++)
			if (!(pdd->watch_ids & (1u << id)))
				break;
		if (id == MAX_WATCH_ADDRESSES)
			return -ENOMEM;
		pdd->watch_ids |= 1u << id;
		args->set_node_address_watch.id = id;
		return 0;
	}
	case KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH: {
		uint32_t id = args->clear_node_address_watch.id;

		if (id >= MAX_WATCH_ADDRESSES || !(pdd->watch_ids & (1u << id)))
			return -EINVAL;
		pdd->watch_ids &= ~(1u << id);
		return 0;
	}
	case KFD_ABI_DBG_TRAP_SET_FLAGS:
		return set_flags(t, &args->set_flags.flags);
	case KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT:
		/* Nothing ever raises a debug event in the model. */
		return -EAGAIN;
	case KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO:
		return query_exception_info(t, &args->query_exception_info);
	case KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT:
		return queue_snapshot(t, &args->queue_snapshot);
	case KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT:
		return device_snapshot(t, &args->device_snapshot);
	default:
		return -EINVAL;
	}
}
