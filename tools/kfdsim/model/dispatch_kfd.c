/* SPDX-License-Identifier: MIT */
/*
 * /dev/kfd ioctl dispatch, in kfd_ioctl()'s order: the nr range (of the
 * emulated ABI minor), the wrong-process check, privileges, the copy-in of
 * the caller's _IOC_SIZE bytes (zero-filled up to the kernel struct), the
 * handler, and the copy-out that happens even when the handler failed.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"

#define F_CRIU		0x1	/* KFD_IOC_FLAG_CHECKPOINT_RESTORE */
#define F_NOLOCK	0x2	/* touches no mutable state */

struct kfd_ioctl_row {
	ksim_kfd_handler func;
	uint16_t size;		/* kernel struct size (newest) */
	uint8_t dir;		/* _IOC_READ / _IOC_WRITE of the kernel's cmd */
	uint8_t since;		/* ABI minor that added it */
	uint8_t flags;
};

#define R _IOC_READ
#define W _IOC_WRITE
#define RW (_IOC_READ | _IOC_WRITE)

static const struct kfd_ioctl_row rows[0x28] = {
	[0x01] = { ksim_ioc_get_version, 8, R, 1, F_NOLOCK },
	[0x02] = { ksim_ioc_create_queue, 96, RW, 1, 0 },
	[0x03] = { ksim_ioc_destroy_queue, 8, RW, 1, 0 },
	[0x04] = { ksim_ioc_set_memory_policy, 32, W, 1, 0 },
	[0x05] = { ksim_ioc_get_clock_counters, 40, RW, 1, F_NOLOCK },
	[0x06] = { ksim_ioc_get_process_apertures, 400, R, 1, 0 },
	[0x07] = { ksim_ioc_update_queue, 24, W, 1, 0 },
	[0x08] = { ksim_ioc_create_event, 32, RW, 1, 0 },
	[0x09] = { ksim_ioc_destroy_event, 8, W, 1, 0 },
	[0x0A] = { ksim_ioc_set_event, 8, W, 1, 0 },
	[0x0B] = { ksim_ioc_reset_event, 8, W, 1, 0 },
	[0x0C] = { ksim_ioc_wait_events, 24, RW, 1, 0 },
	[0x0D] = { ksim_ioc_dbg_deprecated, 8, W, 1, F_NOLOCK },
	[0x0E] = { ksim_ioc_dbg_deprecated, 8, W, 1, F_NOLOCK },
	[0x0F] = { ksim_ioc_dbg_deprecated, 16, W, 1, F_NOLOCK },
	[0x10] = { ksim_ioc_dbg_deprecated, 16, W, 1, F_NOLOCK },
	[0x11] = { ksim_ioc_set_scratch_backing_va, 16, RW, 1, 0 },
	[0x12] = { ksim_ioc_get_tile_config, 40, RW, 1, 0 },
	[0x13] = { ksim_ioc_set_trap_handler, 24, W, 1, 0 },
	[0x14] = { ksim_ioc_get_process_apertures_new, 16, RW, 1, 0 },
	[0x15] = { ksim_ioc_acquire_vm, 8, W, 1, 0 },
	[0x16] = { ksim_ioc_alloc_memory, 40, RW, 1, 0 },
	[0x17] = { ksim_ioc_free_memory, 8, W, 1, 0 },
	[0x18] = { ksim_ioc_map_memory, 24, RW, 1, 0 },
	[0x19] = { ksim_ioc_unmap_memory, 24, RW, 1, 0 },
	[0x1A] = { ksim_ioc_set_cu_mask, 16, W, 1, 0 },
	[0x1B] = { ksim_ioc_get_queue_wave_state, 24, RW, 1, 0 },
	[0x1C] = { ksim_ioc_get_dmabuf_info, 32, RW, 1, 0 },
	[0x1D] = { ksim_ioc_import_dmabuf, 24, RW, 1, 0 },
	[0x1E] = { ksim_ioc_alloc_queue_gws, 16, RW, 1, 0 },
	[0x1F] = { ksim_ioc_smi_events, 8, RW, 3, 0 },
	[0x20] = { ksim_ioc_svm, 24, RW, 5, 0 },
	[0x21] = { ksim_ioc_set_xnack_mode, 4, RW, 5, 0 },
	[0x22] = { ksim_ioc_criu_op, 56, RW, 7, F_CRIU },
	[0x23] = { ksim_ioc_available_memory, 16, RW, 9, 0 },
	[0x24] = { ksim_ioc_export_dmabuf, 16, RW, 12, 0 },
	[0x25] = { ksim_ioc_runtime_enable, 16, RW, 13, 0 },
	[0x26] = { ksim_ioc_dbg_trap, 32, RW, 13, 0 },
	[0x27] = { ksim_ioc_create_process, 0, 0, 19, 0 },
};

/*
 * The second range of the ROCm DKMS driver (AMDKFD_COMMAND_START_2..END_2),
 * answered in the rocm kernel flavour only. Its other ioctls (the old
 * DBG_TRAP 0x82, CROSS_MEMORY_COPY, RLC_SPM, PC_SAMPLE, PROFILER, AIS) are
 * not modelled and answer -EINVAL as upstream does: for the 0x82 runtime
 * enable Debian's libhsakmt then reports NOT_SUPPORTED, which ROCr accepts.
 */
static const struct kfd_ioctl_row rows_rocm[] = {
	[0x80 - KFD_ABI_COMMAND_START_2] = { ksim_ioc_ipc_import_handle, 48, RW, 1, 0 },
	[0x81 - KFD_ABI_COMMAND_START_2] = { ksim_ioc_ipc_export_handle, 32, RW, 1, 0 },
};

/* AMDKFD_COMMAND_END of a kernel implementing ABI 1.@minor. */
static unsigned int
command_end(unsigned int minor)
{
	static unsigned int cache[KSIM_ABI_MINOR_MAX + 1];
	unsigned int end = 1;

	if (minor <= KSIM_ABI_MINOR_MAX &&
	    (end = __atomic_load_n(&cache[minor], __ATOMIC_RELAXED)))
		return end;
	end = 1;
	for (unsigned int nr = 1; nr < KSIM_ARRAY_SIZE(rows); nr++)
		if (rows[nr].func && rows[nr].since <= minor)
			end = nr + 1;
	if (minor <= KSIM_ABI_MINOR_MAX)
		__atomic_store_n(&cache[minor], end, __ATOMIC_RELAXED);
	return end;
}

static int
capable(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return 0;
	return (data[cap / 32].effective >> (cap % 32)) & 1;
}

int
ksim_kfd_ioctl(struct ksim_file *f, unsigned long request, void *arg)
{
	struct ksim_device *dev = f->dev;
	unsigned int nr = KFD_ABI_IOC_NR(request);
	unsigned int usize = KFD_ABI_IOC_SIZE(request);
	const struct kfd_ioctl_row *row;
	struct ksim_process *p;
	uint64_t stack_buf[512];	/* 4 KiB, u64-aligned for the structs */
	char *kdata = (char *)stack_buf;
	unsigned int asize;
	uint64_t uarg = (uint64_t)(uintptr_t)arg;
	int r;

	if (nr >= KFD_ABI_COMMAND_START_2 && nr <= KFD_ABI_COMMAND_END_2) {
		/* The ROCm DKMS range: outside [START, END) upstream. */
		if (dev->kernel != KSIM_KERNEL_ROCM ||
		    nr - KFD_ABI_COMMAND_START_2 >= KSIM_ARRAY_SIZE(rows_rocm) ||
		    !rows_rocm[nr - KFD_ABI_COMMAND_START_2].func)
			return -EINVAL;
		row = &rows_rocm[nr - KFD_ABI_COMMAND_START_2];
	} else if (nr < KFD_ABI_COMMAND_START || nr >= command_end(dev->abi_minor)) {
		return -ENOTTY;
	} else {
		row = &rows[nr];
	}
	p = f->proc;
	/* "Using KFD FD in wrong process" */
	if (f->owner != ksim_self_pid() || !p || f->released)
		return -EBADF;
	if (!row->func)
		return -EINVAL;
	if ((row->flags & F_CRIU) &&
	    !capable(40 /* CAP_CHECKPOINT_RESTORE */) && !capable(CAP_SYS_ADMIN))
		return -EACCES;

	asize = usize;
	if (row->size > asize)
		asize = row->size;
	if (asize > sizeof(stack_buf)) {
		kdata = malloc(asize);
		if (!kdata)
			return -ENOMEM;
	}
	if (row->dir) {
		if (asize > usize)
			memset(kdata + usize, 0, asize - usize);
		if (row->dir & _IOC_WRITE) {
			if (ksim_copy_from_user(kdata, uarg, usize)) {
				r = -EFAULT;
				goto out;
			}
		} else {
			memset(kdata, 0, usize);
		}
	}

	if (row->flags & F_NOLOCK) {
		r = row->func(f, p, kdata, usize);
	} else {
		pthread_mutex_lock(&dev->lock);
		/* The process may have been replaced (CREATE_PROCESS) or
		 * dropped (fork) since we looked. */
		p = f->proc;
		r = p ? row->func(f, p, kdata, usize) : -EBADF;
		pthread_mutex_unlock(&dev->lock);
	}

	if ((row->dir & _IOC_READ) && ksim_copy_to_user(uarg, kdata, usize))
		r = -EFAULT;
out:
	if (kdata != (char *)stack_buf)
		free(kdata);
	return r;
}
