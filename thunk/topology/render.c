/* SPDX-License-Identifier: MIT */
/*
 * Render nodes. Each GPU's VM is acquired for KFD through a render-node
 * file (ACQUIRE_VM), and buffers are CPU-mapped through it. The kernel
 * keeps using that file for the process's lifetime, and refuses a second
 * one for the same GPU, so the primary context keeps its render fds open
 * across hsaKmtCloseKFD()/hsaKmtOpenKFD(); only a forked child drops
 * them. A secondary context is a KFD process of its own and opens files
 * of its own, which it closes with the context.
 *
 * libdrm amdgpu devices (hsaKmtGetAMDGPUDeviceHandle) are made lazily on
 * those files. libdrm normally shares one device per GPU across the
 * process; where libdrm has amdgpu_device_initialize2() we ask it not to,
 * so two contexts never share a DRM file through libdrm either.
 *
 * hsaKmtSetSigbusDelay() is a render-node request too (amdgpu's
 * PROC_OPTIONS), so it lives here.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <kfdtrace/drm_abi.h>

#include "topology/topology.h"

#ifdef KMT_HAVE_LIBDRM_AMDGPU
#include <amdgpu.h>
#endif

#define KMT_RENDER_FIRST	128
#define KMT_RENDER_LAST		255
#define KMT_RENDER_COUNT	(KMT_RENDER_LAST - KMT_RENDER_FIRST + 1)

struct kmt_render_node {
	int fd;
	void *dev;		/* amdgpu_device_handle */
};

struct kmt_render {
	uint32_t n_nodes;
	struct kmt_render_node *nodes;	/* by user node id */
};

/* The primary context's render fds, kept for the process's lifetime. */
static pthread_mutex_t kmt_primary_fds_lock = PTHREAD_MUTEX_INITIALIZER;
static int kmt_primary_fds[KMT_RENDER_COUNT];	/* fd + 1; 0: not open */

static int
render_open_minor(uint32_t minor)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd;
}

static int
render_primary_fd(uint32_t minor)
{
	int fd;

	pthread_mutex_lock(&kmt_primary_fds_lock);
	fd = kmt_primary_fds[minor - KMT_RENDER_FIRST] - 1;
	if (fd < 0) {
		fd = render_open_minor(minor);
		if (fd >= 0)
			kmt_primary_fds[minor - KMT_RENDER_FIRST] = fd + 1;
	}
	pthread_mutex_unlock(&kmt_primary_fds_lock);
	return fd;
}

/* In a forked child: the parent's files are no use to us. */
static void
render_primary_forget(void)
{
	int i;

	pthread_mutex_lock(&kmt_primary_fds_lock);
	for (i = 0; i < KMT_RENDER_COUNT; i++) {
		if (kmt_primary_fds[i])
			close(kmt_primary_fds[i] - 1);
		kmt_primary_fds[i] = 0;
	}
	pthread_mutex_unlock(&kmt_primary_fds_lock);
}

HSAKMT_STATUS
kmt_render_open(HsaKFDContext *ctx)
{
	uint32_t n = kmt_topo_num_nodes(ctx), i;
	struct kmt_render *r;

	r = calloc(1, sizeof(*r));
	if (!r)
		return HSAKMT_STATUS_NO_MEMORY;
	r->nodes = calloc(n ? n : 1, sizeof(*r->nodes));
	if (!r->nodes) {
		free(r);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	r->n_nodes = n;
	ctx->render = r;
	for (i = 0; i < n; i++) {
		struct kmt_node_info info;
		int fd;

		r->nodes[i].fd = -1;
		if (kmt_topo_node_info(ctx, i, &info) != HSAKMT_STATUS_SUCCESS || !info.gpu_id)
			continue;
		if (info.drm_render_minor < KMT_RENDER_FIRST ||
		    info.drm_render_minor > KMT_RENDER_LAST) {
			kmt_err("node %u: render minor %u out of range\n", i,
				info.drm_render_minor);
			kmt_render_close(ctx, false);
			return HSAKMT_STATUS_ERROR;
		}
		fd = ctx->primary ? render_primary_fd(info.drm_render_minor)
				  : render_open_minor(info.drm_render_minor);
		if (fd < 0) {
			kmt_err("cannot open render node %u: %s\n", info.drm_render_minor,
				strerror(-fd));
			kmt_render_close(ctx, false);
			return HSAKMT_STATUS_ERROR;
		}
		r->nodes[i].fd = fd;
	}
	return HSAKMT_STATUS_SUCCESS;
}

#ifdef KMT_HAVE_LIBDRM_AMDGPU
/* amdgpu_device_initialize2(fd, deduplicate, &major, &minor, &dev), libdrm >= 2.4.122 */
typedef int kmt_amdgpu_init2_fn(int fd, bool deduplicate, uint32_t *major, uint32_t *minor,
				amdgpu_device_handle *dev);

static int
render_device_create(HsaKFDContext *ctx, int fd, amdgpu_device_handle *dev)
{
	kmt_amdgpu_init2_fn *init2 = NULL;
	uint32_t major, minor;
	void *sym;

	if (!ctx->primary) {
		sym = dlsym(RTLD_DEFAULT, "amdgpu_device_initialize2");
		memcpy(&init2, &sym, sizeof(sym));
	}
	if (init2)
		return init2(fd, false, &major, &minor, dev);
	return amdgpu_device_initialize(fd, &major, &minor, dev);
}
#endif

HSAKMT_STATUS
kmt_render_device(HsaKFDContext *ctx, uint32_t node, void **dev)
{
	struct kmt_render *r = ctx->render;

	if (!r || node >= r->n_nodes || r->nodes[node].fd < 0)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
#ifdef KMT_HAVE_LIBDRM_AMDGPU
	if (!r->nodes[node].dev) {
		amdgpu_device_handle h;

		if (render_device_create(ctx, r->nodes[node].fd, &h))
			return HSAKMT_STATUS_ERROR;
		r->nodes[node].dev = h;
	}
	*dev = r->nodes[node].dev;
	return HSAKMT_STATUS_SUCCESS;
#else
	(void)dev;
	return HSAKMT_STATUS_NOT_SUPPORTED;
#endif
}

void
kmt_render_close(HsaKFDContext *ctx, bool forked)
{
	struct kmt_render *r = ctx->render;
	uint32_t i;

	if (r) {
		for (i = 0; i < r->n_nodes; i++) {
#ifdef KMT_HAVE_LIBDRM_AMDGPU
			/* A child must not tear down the parent's device state
			 * through libdrm; it only forgets the handle. */
			if (r->nodes[i].dev && !forked)
				amdgpu_device_deinitialize(r->nodes[i].dev);
#endif
			if (!ctx->primary && r->nodes[i].fd >= 0)
				close(r->nodes[i].fd);
		}
		free(r->nodes);
		free(r);
		ctx->render = NULL;
	}
	if (ctx->primary && forked)
		render_primary_forget();
}

int
kmt_render_fd(HsaKFDContext *ctx, uint32_t node)
{
	struct kmt_render *r = ctx->render;

	if (!r || node >= r->n_nodes)
		return -1;
	return r->nodes[node].fd;
}

KMT_API HSAKMT_STATUS
hsaKmtGetAMDGPUDeviceHandleCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
			       HsaAMDGPUDeviceHandle *DeviceHandle)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!DeviceHandle)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_mutex_lock(&ctx->lock);
	st = kmt_render_device(ctx, NodeId, DeviceHandle);
	pthread_mutex_unlock(&ctx->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtGetAMDGPUDeviceHandle(HSAuint32 NodeId, HsaAMDGPUDeviceHandle *DeviceHandle)
{
	return hsaKmtGetAMDGPUDeviceHandleCtx(kmt_primary_ctx(), NodeId, DeviceHandle);
}

/*
 * amdgpu's PROC_OPTIONS request (0x1a): per-process driver options, of
 * which one exists, the delay before KFD raises SIGBUS for poisoned
 * (RAS) memory. Not in kfdtrace's DRM ABI tables; kernels without it
 * answer EINVAL.
 */
#define KMT_DRM_AMDGPU_PROC_OPTIONS		0x1a
#define KMT_PROC_OPTIONS_OP_KFD_SIGBUS_DELAY	0

struct kmt_drm_proc_options {
	uint32_t op;
	uint32_t kfd_sigbus_delay;	/* ms; 0 now, 0xffffffff never */
};

#define KMT_DRM_IOCTL_AMDGPU_PROC_OPTIONS					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KMT_DRM_AMDGPU_PROC_OPTIONS, \
	      struct kmt_drm_proc_options)

KMT_API HSAKMT_STATUS
hsaKmtSetSigbusDelayCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint32 DelayMs)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_drm_proc_options args = {
		.op = KMT_PROC_OPTIONS_OP_KFD_SIGBUS_DELAY,
		.kfd_sigbus_delay = DelayMs,
	};
	int fd;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* Every failure, a node without a GPU included, is NOT_SUPPORTED, as AMD's. */
	fd = kmt_render_fd(ctx, NodeId);
	if (fd < 0 || kmt_drm_ioctl(fd, KMT_DRM_IOCTL_AMDGPU_PROC_OPTIONS, &args))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSetSigbusDelay(HSAuint32 NodeId, HSAuint32 DelayMs)
{
	return hsaKmtSetSigbusDelayCtx(kmt_primary_ctx(), NodeId, DelayMs);
}
