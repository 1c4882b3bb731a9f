/* SPDX-License-Identifier: MIT */
/*
 * /dev/kfd ioctl dispatch, in kfd_ioctl()'s order: the nr range (of the
 * emulated ABI minor), the wrong-process check, privileges, the copy-in of
 * the caller's _IOC_SIZE bytes (zero-filled up to the kernel struct), the
 * handler, and the copy-out that happens even when the handler failed.
 */
#include <errno.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <kfdtrace/schema.h>

#include "dispatch_kfd.h"
#include "ksim_priv.h"

#define F_CRIU		KSIM_KFD_F_CRIU
#define F_NOLOCK	KSIM_KFD_F_NOLOCK
#define F_PERFMON	KSIM_KFD_F_PERFMON

/*
 * The model's part of a row: its handler and how it is called. The
 * kernel's struct size, direction and the ABI minor the ioctl appeared
 * in are the schema row's (kfd_rows_*.c), read once into struct
 * kfd_ioctl_row by dispatch_init().
 */
struct kfd_handler_row {
	ksim_kfd_handler func;
	uint8_t flags;
};

struct kfd_ioctl_row {
	ksim_kfd_handler func;
	uint16_t size;		/* kernel struct size (newest) */
	uint8_t dir;		/* _IOC_READ / _IOC_WRITE of the kernel's cmd */
	uint8_t since;		/* ABI minor that added it */
	uint8_t flags;
	int8_t bound;		/* 1: schema row found, -1: none, 0: no handler */
};

#define NROWS		KFD_ABI_COMMAND_END
#define NROWS_ROCM	(KFD_ABI_COMMAND_END_2 - KFD_ABI_COMMAND_START_2 + 1)

static const struct kfd_handler_row handlers[NROWS] = {
	[0x01] = { ksim_ioc_get_version, F_NOLOCK },
	[0x02] = { ksim_ioc_create_queue, 0 },
	[0x03] = { ksim_ioc_destroy_queue, 0 },
	[0x04] = { ksim_ioc_set_memory_policy, 0 },
	[0x05] = { ksim_ioc_get_clock_counters, F_NOLOCK },
	[0x06] = { ksim_ioc_get_process_apertures, 0 },
	[0x07] = { ksim_ioc_update_queue, 0 },
	[0x08] = { ksim_ioc_create_event, 0 },
	[0x09] = { ksim_ioc_destroy_event, 0 },
	[0x0A] = { ksim_ioc_set_event, 0 },
	[0x0B] = { ksim_ioc_reset_event, 0 },
	[0x0C] = { ksim_ioc_wait_events, 0 },
	[0x0D] = { ksim_ioc_dbg_deprecated, F_NOLOCK },
	[0x0E] = { ksim_ioc_dbg_deprecated, F_NOLOCK },
	[0x0F] = { ksim_ioc_dbg_deprecated, F_NOLOCK },
	[0x10] = { ksim_ioc_dbg_deprecated, F_NOLOCK },
	[0x11] = { ksim_ioc_set_scratch_backing_va, 0 },
	[0x12] = { ksim_ioc_get_tile_config, 0 },
	[0x13] = { ksim_ioc_set_trap_handler, 0 },
	[0x14] = { ksim_ioc_get_process_apertures_new, 0 },
	[0x15] = { ksim_ioc_acquire_vm, 0 },
	[0x16] = { ksim_ioc_alloc_memory, 0 },
	[0x17] = { ksim_ioc_free_memory, 0 },
	[0x18] = { ksim_ioc_map_memory, 0 },
	[0x19] = { ksim_ioc_unmap_memory, 0 },
	[0x1A] = { ksim_ioc_set_cu_mask, 0 },
	[0x1B] = { ksim_ioc_get_queue_wave_state, 0 },
	[0x1C] = { ksim_ioc_get_dmabuf_info, 0 },
	[0x1D] = { ksim_ioc_import_dmabuf, 0 },
	[0x1E] = { ksim_ioc_alloc_queue_gws, 0 },
	[0x1F] = { ksim_ioc_smi_events, 0 },
	[0x20] = { ksim_ioc_svm, 0 },
	[0x21] = { ksim_ioc_set_xnack_mode, 0 },
	[0x22] = { ksim_ioc_criu_op, F_CRIU },
	[0x23] = { ksim_ioc_available_memory, 0 },
	[0x24] = { ksim_ioc_export_dmabuf, 0 },
	[0x25] = { ksim_ioc_runtime_enable, 0 },
	[0x26] = { ksim_ioc_dbg_trap, 0 },
	[0x27] = { ksim_ioc_create_process, 0 },
	[0x28] = { ksim_ioc_profiler, 0 },
};

/*
 * The second range of the ROCm DKMS driver (AMDKFD_COMMAND_START_2..END_2),
 * answered in the rocm kernel flavour only. Its other ioctls (the old
 * DBG_TRAP 0x82, RLC_SPM, PROFILER_DKMS, AIS) are
 * not modelled and answer -EINVAL as upstream does: for the 0x82 runtime
 * enable Debian's libhsakmt then reports NOT_SUPPORTED, which ROCr accepts.
 */
static const struct kfd_handler_row handlers_rocm[NROWS_ROCM] = {
	[0x80 - KFD_ABI_COMMAND_START_2] = { ksim_ioc_ipc_import_handle, 0 },
	[0x81 - KFD_ABI_COMMAND_START_2] = { ksim_ioc_ipc_export_handle, 0 },
	[0x83 - KFD_ABI_COMMAND_START_2] = { ksim_ioc_cross_memory_copy, 0 },
	[0x85 - KFD_ABI_COMMAND_START_2] = { ksim_ioc_pc_sample, F_PERFMON },
};

static struct kfd_ioctl_row rows[NROWS];
static struct kfd_ioctl_row rows_rocm[NROWS_ROCM];
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

/* One row: the handler, and what the schema row of @nr says of the kernel. */
static void
bind_row(struct kfd_ioctl_row *row, const struct kfd_handler_row *h,
	 unsigned int nr)
{
	const struct kfd_ioctl_desc *d;

	if (!h->func)
		return;
	d = kfd_schema_lookup(KFD_FILE_KFD, _IOC(_IOC_NONE, KFD_ABI_IOCTL_BASE, nr, 0));
	if (!d) {
		/* No struct size to copy: left out (no handler), and
		 * ksim_kfd_row_info() tells the tests. */
		row->bound = -1;
		return;
	}
	row->func = h->func;
	row->flags = h->flags;
	/* The kernel copies _IOC_SIZE of its own command (CREATE_PROCESS's
	 * is an _IO: nothing). */
	row->size = (uint16_t)KFD_ABI_IOC_SIZE(d->request);
	row->dir = (uint8_t)KFD_ABI_IOC_DIR(d->request);
	row->since = d->since_minor;
	row->bound = 1;
}

static void
dispatch_init(void)
{
	unsigned int nr;

	for (nr = 0; nr < NROWS; nr++)
		bind_row(&rows[nr], &handlers[nr], nr);
	for (nr = 0; nr < NROWS_ROCM; nr++)
		bind_row(&rows_rocm[nr], &handlers_rocm[nr],
			 nr + KFD_ABI_COMMAND_START_2);
}

static inline void
dispatch_ready(void)
{
	pthread_once(&rows_once, dispatch_init);
}

int
ksim_kfd_row_info(unsigned int nr, struct ksim_kfd_row_info *out)
{
	const struct kfd_ioctl_row *row;
	int rocm = nr >= KFD_ABI_COMMAND_START_2;

	dispatch_ready();
	if (rocm && nr - KFD_ABI_COMMAND_START_2 < NROWS_ROCM)
		row = &rows_rocm[nr - KFD_ABI_COMMAND_START_2];
	else if (!rocm && nr < NROWS)
		row = &rows[nr];
	else
		return 0;
	if (row->bound <= 0)
		return row->bound;
	out->size = row->size;
	out->dir = row->dir;
	out->since = row->since;
	out->flags = row->flags;
	out->rocm = (uint8_t)rocm;
	return 1;
}

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
	dispatch_ready();
	for (unsigned int nr = 1; nr < KSIM_ARRAY_SIZE(rows); nr++)
		if (rows[nr].func && rows[nr].since <= minor)
			end = nr + 1;
	if (minor <= KSIM_ABI_MINOR_MAX)
		__atomic_store_n(&cache[minor], end, __ATOMIC_RELAXED);
	return end;
}

int
ksim_capable(int cap)
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

	dispatch_ready();
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
	    !ksim_capable(40 /* CAP_CHECKPOINT_RESTORE */) &&
	    !ksim_capable(CAP_SYS_ADMIN))
		return -EACCES;
	/* PC sampling shows other processes' waves. */
	if ((row->flags & F_PERFMON) &&
	    !ksim_capable(38 /* CAP_PERFMON */) &&
	    !ksim_capable(CAP_SYS_ADMIN))
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
