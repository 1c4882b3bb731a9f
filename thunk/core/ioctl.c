/* SPDX-License-Identifier: MIT */
/*
 * The one path from the library to /dev/kfd and the render nodes (the
 * requests it makes itself; libdrm's own go straight to the kernel).
 * kfd_dispatch() retries EINTR/EAGAIN like the reference's wrapper and
 * lets the tracer observe each attempt.
 */
#include <errno.h>
#include <stdbool.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>

#include "core/core.h"

/*
 * Whether the kernel refuses the KFD file itself. Only asked after an
 * EBADF: that errno also answers a bad fd *argument* (IMPORT_DMABUF's
 * dmabuf_fd, ACQUIRE_VM's drm_fd), which is the caller's mistake and must
 * not condemn a healthy context. GET_VERSION takes no fd, so its EBADF can
 * only mean "KFD file used by a process other than its opener". The probe
 * is one extra ioctl on an error path, visible in traces.
 */
static bool
kmt_kfd_file_refused(HsaKFDContext *ctx)
{
	struct kfd_abi_get_version_args v = { 0 };
	int saved = errno;
	bool refused;

	refused = kfd_dispatch(ctx->fd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v) == -1 &&
		  errno == EBADF;
	errno = saved;
	return refused;
}

int
kmt_ioctl(HsaKFDContext *ctx, unsigned long request, void *arg)
{
	int ret;

	if (ctx->fd < 0) {
		errno = EBADF;
		return -1;
	}
	ret = kfd_dispatch(ctx->fd, KFD_FILE_KFD, request, arg);
	if (ret == -1 && errno == EBADF && kmt_kfd_file_refused(ctx)) {
		/*
		 * We are a child that got here without our atfork handler
		 * (clone(), vfork-like paths). Treat the context as
		 * inherited so every later call says so.
		 */
		kmt_err("KFD file descriptor not valid in this process\n");
		ctx->forked = true;
	}
	return ret;
}

int
kmt_drm_ioctl(int fd, unsigned long request, void *arg)
{
	return kfd_dispatch(fd, KFD_FILE_RENDER, request, arg);
}

HSAKMT_STATUS
kmt_status_from_errno(int err)
{
	switch (err) {
	case 0:
		return HSAKMT_STATUS_SUCCESS;
	case ENOMEM:
	case ENOSPC:
		return HSAKMT_STATUS_NO_MEMORY;
	case EINVAL:
	case EFAULT:
		return HSAKMT_STATUS_INVALID_PARAMETER;
	case EBUSY:
	case EEXIST:
		return HSAKMT_STATUS_UNAVAILABLE;
	case EPERM:
	case EACCES:
	case ENOTTY:
	case EOPNOTSUPP:
		return HSAKMT_STATUS_NOT_SUPPORTED;
	case EBADF:
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	case ETIME:
	case ETIMEDOUT:
		return HSAKMT_STATUS_WAIT_TIMEOUT;
	default:
		return HSAKMT_STATUS_ERROR;
	}
}
