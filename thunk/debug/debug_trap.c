/* SPDX-License-Identifier: MIT */
/*
 * The upstream debugger interface (KFD 1.13, DBG_TRAP 0x26) as the newer
 * API exposes it: attach and detach, device and queue snapshots, a raw
 * pass-through, and the device entry a core dump needs.
 *
 * The snapshot ops report the total count whatever the buffer size, so
 * the library asks once with no buffer, allocates, and asks again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

#include "debug/debug_priv.h"
#include "queues/queues.h"
#include "topology/topology.h"

static HSAKMT_STATUS
debug_trap_check(HsaKFDContext *ctx)
{
	HSAKMT_STATUS st = kmt_debug_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return kmt_kfd_minor_at_least(ctx, KMT_DEBUG_MIN_MINOR) ? HSAKMT_STATUS_SUCCESS
								 : HSAKMT_STATUS_NOT_SUPPORTED;
}

/* One DBG_TRAP on this process; the ioctl's result (a count for some ops). */
static int
dbg_trap(HsaKFDContext *ctx, uint32_t op, struct kfd_abi_dbg_trap_args *args)
{
	args->op = op;
	args->pid = (uint32_t)getpid();
	return kmt_ioctl(ctx, KFD_ABI_IOC_DBG_TRAP, args);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgEnableCtx(HsaKFDContext *ctx, void **runtime_info, HSAuint32 *data_size)
{
	struct kfd_abi_dbg_trap_args args = {0};
	void *info;
	HSAKMT_STATUS st;

	st = debug_trap_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!runtime_info || !data_size)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	info = calloc(1, sizeof(struct kfd_abi_runtime_info));
	if (!info)
		return HSAKMT_STATUS_NO_MEMORY;
	args.enable.rinfo_ptr = (uintptr_t)info;
	args.enable.rinfo_size = sizeof(struct kfd_abi_runtime_info);
	args.enable.dbg_fd = (uint32_t)ctx->fd;
	if (dbg_trap(ctx, KFD_ABI_DBG_TRAP_ENABLE, &args) < 0) {
		kmt_debug("DBG_TRAP ENABLE: %s\n", strerror(errno));
		free(info);
		return HSAKMT_STATUS_ERROR;
	}
	*runtime_info = info;
	*data_size = sizeof(struct kfd_abi_runtime_info);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgEnable(void **runtime_info, HSAuint32 *data_size)
{
	return hsaKmtDbgEnableCtx(kmt_primary_ctx(), runtime_info, data_size);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgDisableCtx(HsaKFDContext *ctx)
{
	struct kfd_abi_dbg_trap_args args = {0};
	HSAKMT_STATUS st;

	st = debug_trap_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.enable.dbg_fd = (uint32_t)ctx->fd;
	if (dbg_trap(ctx, KFD_ABI_DBG_TRAP_DISABLE, &args) < 0) {
		kmt_debug("DBG_TRAP DISABLE: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgDisable(void)
{
	return hsaKmtDbgDisableCtx(kmt_primary_ctx());
}

/* GET_DEVICE_SNAPSHOT into @buf (@n entries in, the total out). */
static HSAKMT_STATUS
device_snapshot(HsaKFDContext *ctx, void *buf, uint32_t *n)
{
	struct kfd_abi_dbg_trap_args args = {0};

	args.device_snapshot.snapshot_buf_ptr = (uintptr_t)buf;
	args.device_snapshot.num_devices = *n;
	args.device_snapshot.entry_size = sizeof(struct kfd_abi_dbg_device_info_entry);
	if (dbg_trap(ctx, KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT, &args) < 0) {
		kmt_debug("DBG_TRAP GET_DEVICE_SNAPSHOT: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	*n = args.device_snapshot.num_devices;
	return HSAKMT_STATUS_SUCCESS;
}

/* GET_QUEUE_SNAPSHOT into @buf (@n entries in, the total out). */
static HSAKMT_STATUS
queue_snapshot(HsaKFDContext *ctx, void *buf, uint32_t *n)
{
	struct kfd_abi_dbg_trap_args args = {0};

	args.queue_snapshot.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW);
	args.queue_snapshot.snapshot_buf_ptr = (uintptr_t)buf;
	args.queue_snapshot.num_queues = *n;
	args.queue_snapshot.entry_size = sizeof(struct kfd_abi_queue_snapshot_entry);
	if (dbg_trap(ctx, KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT, &args) < 0) {
		kmt_debug("DBG_TRAP GET_QUEUE_SNAPSHOT: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	*n = args.queue_snapshot.num_queues;
	return HSAKMT_STATUS_SUCCESS;
}

/*
 * Count, allocate, fill. The count may grow between the two calls (a new
 * queue); then only the entries that fit are reported.
 */
static HSAKMT_STATUS
snapshot_alloc(HsaKFDContext *ctx, HSAKMT_STATUS (*take)(HsaKFDContext *, void *, uint32_t *),
	       size_t entry, void **data, uint32_t *n_entries)
{
	uint32_t n = 0, cap;
	HSAKMT_STATUS st;
	void *buf;

	st = take(ctx, NULL, &n);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	*data = NULL;
	*n_entries = 0;
	if (!n)
		return HSAKMT_STATUS_SUCCESS;
	buf = calloc(n, entry);
	if (!buf)
		return HSAKMT_STATUS_NO_MEMORY;
	cap = n;
	st = take(ctx, buf, &n);
	if (st != HSAKMT_STATUS_SUCCESS) {
		free(buf);
		return st;
	}
	*data = buf;
	*n_entries = n < cap ? n : cap;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgGetDeviceDataCtx(HsaKFDContext *ctx, void **data, HSAuint32 *n_entries,
			  HSAuint32 *entry_size)
{
	HSAKMT_STATUS st;

	st = debug_trap_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!data || !n_entries || !entry_size)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	*entry_size = sizeof(struct kfd_abi_dbg_device_info_entry);
	return snapshot_alloc(ctx, device_snapshot, *entry_size, data, n_entries);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgGetDeviceData(void **data, HSAuint32 *n_entries, HSAuint32 *entry_size)
{
	return hsaKmtDbgGetDeviceDataCtx(kmt_primary_ctx(), data, n_entries, entry_size);
}

KMT_API HSAKMT_STATUS
hsaKmtDbgGetQueueDataCtx(HsaKFDContext *ctx, void **data, HSAuint32 *n_entries,
			 HSAuint32 *entry_size, bool suspend_queues)
{
	struct kfd_abi_queue_snapshot_entry *q;
	struct kfd_abi_dbg_trap_args args = {0};
	uint32_t *ids, i, n;
	HSAKMT_STATUS st;

	st = debug_trap_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!data || !n_entries || !entry_size)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	*entry_size = sizeof(struct kfd_abi_queue_snapshot_entry);
	st = snapshot_alloc(ctx, queue_snapshot, *entry_size, data, n_entries);
	if (st != HSAKMT_STATUS_SUCCESS || !suspend_queues || !*n_entries)
		return st;

	/* Suspend what the snapshot saw, then describe the suspended queues. */
	q = *data;
	n = *n_entries;
	ids = malloc(n * sizeof(*ids));
	if (!ids)
		goto fail;
	for (i = 0; i < n; i++)
		ids[i] = q[i].queue_id;
	args.suspend_queues.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW);
	args.suspend_queues.queue_array_ptr = (uintptr_t)ids;
	args.suspend_queues.num_queues = n;
	if (dbg_trap(ctx, KFD_ABI_DBG_TRAP_SUSPEND_QUEUES, &args) < 0 ||
	    queue_snapshot(ctx, *data, &n) != HSAKMT_STATUS_SUCCESS) {
		free(ids);
		goto fail;
	}
	free(ids);
	return HSAKMT_STATUS_SUCCESS;

fail:
	free(*data);
	*data = NULL;
	*n_entries = 0;
	return HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtDbgGetQueueData(void **data, HSAuint32 *n_entries, HSAuint32 *entry_size,
		      bool suspend_queues)
{
	return hsaKmtDbgGetQueueDataCtx(kmt_primary_ctx(), data, n_entries, entry_size,
					suspend_queues);
}

/*
 * The pass-through issues its request once (retrying only EINTR): the
 * kernel answers QUERY_DEBUG_EVENT with EAGAIN when nothing is pending,
 * and the usual retry-on-EAGAIN would spin until something is.
 */
static int
dbg_trap_raw(HsaKFDContext *ctx, struct kfd_abi_dbg_trap_args *args)
{
	int ret;

	do {
		ret = kfd_dispatch_once(ctx->fd, KFD_FILE_KFD, KFD_ABI_IOC_DBG_TRAP, args);
	} while (ret == -1 && errno == EINTR);
	if (ret == -1 && errno == EBADF)
		ctx->forked = true;	/* a file of another process, as kmt_ioctl() */
	return ret;
}

KMT_API HSAKMT_STATUS
hsaKmtDebugTrapIoctlCtx(HsaKFDContext *ctx, struct kfd_ioctl_dbg_trap_args *arg,
			HSA_QUEUEID *Queues, HSAuint64 *DebugReturn)
{
	/* The kernel's struct and ours are the same 32 bytes. */
	struct kfd_abi_dbg_trap_args *args = (struct kfd_abi_dbg_trap_args *)arg;
	bool suspend, resume;
	uint32_t num = 0;
	HSAKMT_STATUS st;
	int ret;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!args)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	suspend = args->op == KFD_ABI_DBG_TRAP_SUSPEND_QUEUES;
	resume = args->op == KFD_ABI_DBG_TRAP_RESUME_QUEUES;
	if (suspend)
		num = args->suspend_queues.num_queues;
	else if (resume)
		num = args->resume_queues.num_queues;

	/* Queue handles become kernel queue ids in the caller's array. */
	if (Queues && (suspend || resume)) {
		uint64_t ptr = suspend ? args->suspend_queues.queue_array_ptr
				       : args->resume_queues.queue_array_ptr;
		uint32_t *ids = kmt_queue_ids(ctx, Queues, num);

		if (!ids || !ptr) {
			free(ids);
			return HSAKMT_STATUS_NO_MEMORY;
		}
		memcpy((void *)(uintptr_t)ptr, ids, num * sizeof(*ids));
		free(ids);
	}

	ret = dbg_trap_raw(ctx, args);
	if (DebugReturn)
		*DebugReturn = (HSAuint64)(int64_t)ret;
	/* Suspend and resume return how many queues they processed. */
	if ((suspend || resume) && ret >= 0 && (uint32_t)ret <= num)
		return HSAKMT_STATUS_SUCCESS;
	return ret == 0 ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR;
}

KMT_API HSAKMT_STATUS
hsaKmtDebugTrapIoctl(struct kfd_ioctl_dbg_trap_args *arg, HSA_QUEUEID *Queues,
		     HSAuint64 *DebugReturn)
{
	return hsaKmtDebugTrapIoctlCtx(kmt_primary_ctx(), arg, Queues, DebugReturn);
}

/* The apertures the kernel set up for @gpu_id (GET_PROCESS_APERTURES_NEW). */
static void
device_apertures(HsaKFDContext *ctx, uint32_t gpu_id, struct kfd_abi_dbg_device_info_entry *e)
{
	struct kfd_abi_get_process_apertures_new_args args = {0};
	struct kfd_abi_process_device_apertures *ap;
	uint32_t n = kmt_topo_num_nodes(ctx), i;

	ap = calloc(n ? n : 1, sizeof(*ap));
	if (!ap)
		return;
	args.kfd_process_device_apertures_ptr = (uintptr_t)ap;
	args.num_of_nodes = n;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &args) == 0) {
		for (i = 0; i < args.num_of_nodes && i < n; i++) {
			if (ap[i].gpu_id != gpu_id)
				continue;
			e->lds_base = ap[i].lds_base;
			e->lds_limit = ap[i].lds_limit;
			e->scratch_base = ap[i].scratch_base;
			e->scratch_limit = ap[i].scratch_limit;
			e->gpuvm_base = ap[i].gpuvm_base;
			e->gpuvm_limit = ap[i].gpuvm_limit;
		}
	}
	free(ap);
}

KMT_API HSAKMT_STATUS
hsaKmtGetCoreDeviceInfoCtx(HsaKFDContext *ctx, HSAuint32 gpu_id,
			   struct kfd_dbg_device_info_entry *device_info)
{
	struct kfd_abi_dbg_device_info_entry *e = (void *)device_info;
	const HsaNodeProperties *p;
	struct kmt_node_info info;
	uint32_t node;
	HSAKMT_STATUS st;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!e)
		return HSAKMT_STATUS_ERROR;
	st = kmt_topo_node_of_gpu(ctx, gpu_id, &node);
	if (st == HSAKMT_STATUS_SUCCESS)
		st = kmt_topo_node_info(ctx, node, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;

	/* What GET_DEVICE_SNAPSHOT would say, without attaching a debugger. */
	p = &info.props;
	memset(e, 0, sizeof(*e));
	e->gpu_id = gpu_id;
	e->location_id = p->LocationId;
	e->vendor_id = p->VendorId;
	e->device_id = p->DeviceId;
	e->fw_version = p->EngineId.ui32.uCode;
	e->gfx_target_version = p->EngineId.ui32.Major * 10000 + p->EngineId.ui32.Minor * 100 +
				p->EngineId.ui32.Stepping;
	e->simd_count = p->NumFComputeCores;
	e->max_waves_per_simd = p->MaxWavesPerSIMD;
	e->array_count = p->NumShaderBanks;
	e->simd_arrays_per_engine = p->NumArrays;
	e->num_xcc = info.num_xcc;
	e->capability = p->Capability.Value;
	e->debug_prop = (uint32_t)p->DebugProperties.Value;
	device_apertures(ctx, gpu_id, e);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetCoreDeviceInfo(HSAuint32 gpu_id, struct kfd_dbg_device_info_entry *device_info)
{
	return hsaKmtGetCoreDeviceInfoCtx(kmt_primary_ctx(), gpu_id, device_info);
}
