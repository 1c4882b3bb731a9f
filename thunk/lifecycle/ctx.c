/* SPDX-License-Identifier: MIT */
/*
 * The list of live contexts, the fork handlers' work on them, and the
 * common open/close sequence of primary and secondary contexts (the
 * primary context itself is core/ctx.c's).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lifecycle/lifecycle.h"
#include "memory/memory.h"
#include "topology/topology.h"

/* Guards kmt_ctx_head; taken after a ctx->lock, never before. */
static pthread_mutex_t kmt_ctx_list_lock = PTHREAD_MUTEX_INITIALIZER;
static HsaKFDContext *kmt_ctx_head;

void
kmt_ctx_list_add(HsaKFDContext *ctx)
{
	pthread_mutex_lock(&kmt_ctx_list_lock);
	ctx->next = kmt_ctx_head;
	kmt_ctx_head = ctx;
	pthread_mutex_unlock(&kmt_ctx_list_lock);
}

void
kmt_ctx_list_del(HsaKFDContext *ctx)
{
	HsaKFDContext **pp;

	pthread_mutex_lock(&kmt_ctx_list_lock);
	for (pp = &kmt_ctx_head; *pp; pp = &(*pp)->next) {
		if (*pp == ctx) {
			*pp = ctx->next;
			break;
		}
	}
	ctx->next = NULL;
	pthread_mutex_unlock(&kmt_ctx_list_lock);
}

/*
 * fork(): the prepare handler takes the primary's lock, the list lock and
 * every secondary's lock (in that order; nobody takes the list lock while
 * holding a context lock), so the child sees consistent contexts. In the
 * child only the forking thread exists: the locks are re-created and
 * every open context is marked inherited.
 */
void
kmt_ctx_fork_prepare(void)
{
	HsaKFDContext *primary = kmt_primary_ctx();
	HsaKFDContext *ctx;

	pthread_mutex_lock(&primary->lock);
	pthread_mutex_lock(&kmt_ctx_list_lock);
	for (ctx = kmt_ctx_head; ctx; ctx = ctx->next)
		pthread_mutex_lock(&ctx->lock);
	kmt_fmm_fork_prepare(primary);
	for (ctx = kmt_ctx_head; ctx; ctx = ctx->next)
		kmt_fmm_fork_prepare(ctx);
}

void
kmt_ctx_fork_parent(void)
{
	HsaKFDContext *primary = kmt_primary_ctx();
	HsaKFDContext *ctx;

	for (ctx = kmt_ctx_head; ctx; ctx = ctx->next)
		kmt_fmm_fork_parent(ctx);
	kmt_fmm_fork_parent(primary);
	for (ctx = kmt_ctx_head; ctx; ctx = ctx->next)
		pthread_mutex_unlock(&ctx->lock);
	pthread_mutex_unlock(&kmt_ctx_list_lock);
	pthread_mutex_unlock(&primary->lock);
}

void
kmt_ctx_fork_child(void)
{
	HsaKFDContext *primary = kmt_primary_ctx();
	HsaKFDContext *ctx;

	for (ctx = kmt_ctx_head; ctx; ctx = ctx->next) {
		kmt_fmm_fork_child(ctx);
		pthread_mutex_init(&ctx->lock, NULL);
		if (ctx->fd >= 0)
			ctx->forked = true;
	}
	pthread_mutex_init(&kmt_ctx_list_lock, NULL);
	kmt_fmm_fork_child(primary);
	pthread_mutex_init(&primary->lock, NULL);
	if (primary->fd >= 0)
		primary->forked = true;
}

/* GET_VERSION; the major version must be 1. */
static HSAKMT_STATUS
ctx_check_version(HsaKFDContext *ctx)
{
	struct kfd_abi_get_version_args args = {0};

	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_VERSION, &args) == -1) {
		kmt_err("GET_VERSION failed: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	ctx->version.KernelInterfaceMajorVersion = args.major_version;
	ctx->version.KernelInterfaceMinorVersion = args.minor_version;
	if (args.major_version != 1) {
		kmt_err("unsupported KFD interface %u.%u\n", args.major_version,
			args.minor_version);
		return HSAKMT_STATUS_DRIVER_MISMATCH;
	}
	return HSAKMT_STATUS_SUCCESS;
}

/* Turn the fresh fd into a KFD process of its own (KFD 1.19). */
static HSAKMT_STATUS
ctx_create_process(HsaKFDContext *ctx)
{
	if (!kmt_kfd_minor_at_least(ctx, 19)) {
		kmt_info("KFD %u.%u has no CREATE_PROCESS\n",
			 ctx->version.KernelInterfaceMajorVersion,
			 ctx->version.KernelInterfaceMinorVersion);
		return HSAKMT_STATUS_NOT_SUPPORTED;
	}
	if (kmt_ioctl(ctx, KFD_ABI_IOC_CREATE_PROCESS, NULL) == -1) {
		int err = errno;

		kmt_err("CREATE_PROCESS failed: %s\n", strerror(err));
		return err == ENOTTY || err == EINVAL ? HSAKMT_STATUS_NOT_SUPPORTED
						      : HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS
kmt_ctx_open(HsaKFDContext *ctx)
{
	const struct kmt_env *env = kmt_env();
	HSAKMT_STATUS st;

	ctx->fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (ctx->fd < 0) {
		kmt_err("cannot open /dev/kfd: %s\n", strerror(errno));
		ctx->fd = -1;
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	}
	ctx->pid = kmt_getpid();
	ctx->forked = false;

	st = ctx_check_version(ctx);
	if (st == HSAKMT_STATUS_SUCCESS && !ctx->primary)
		st = ctx_create_process(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		goto fail_fd;

	/* Secondary contexts never back paged memory with user pointers:
	 * the mm's MMU notifiers belong to the primary process. */
	ctx->userptr_for_paged_mem = ctx->primary && env->userptr_for_paged_mem;

	st = kmt_topo_open(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		goto fail_fd;
	st = kmt_render_open(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		goto fail_topo;
	st = kmt_fmm_open(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		goto fail_render;
	return HSAKMT_STATUS_SUCCESS;

fail_render:
	kmt_render_close(ctx, false);
fail_topo:
	kmt_topo_close(ctx);
fail_fd:
	close(ctx->fd);
	ctx->fd = -1;
	return st;
}

/* The areas that live on memory and queues go first. */
static void
ctx_fini_areas(HsaKFDContext *ctx, bool forked)
{
	if (ctx->debug && ctx->debug_fini)
		ctx->debug_fini(ctx, forked);
	if (ctx->queues && ctx->queues_fini)
		ctx->queues_fini(ctx, forked);
	if (ctx->events && ctx->events_fini)
		ctx->events_fini(ctx, forked);
	if (ctx->svm && ctx->svm_fini)
		ctx->svm_fini(ctx, forked);
	if (ctx->perf && ctx->perf_fini)
		ctx->perf_fini(ctx, forked);
	/* A hook that forgot to clear its pointer must not be called twice. */
	ctx->debug = NULL;
	ctx->queues = NULL;
	ctx->events = NULL;
	ctx->svm = NULL;
	ctx->perf = NULL;
}

void
kmt_ctx_close(HsaKFDContext *ctx, bool forked)
{
	ctx_fini_areas(ctx, forked);
	kmt_fmm_close(ctx, forked);
	kmt_render_close(ctx, forked);
	kmt_topo_close(ctx);
	if (ctx->fd >= 0)
		close(ctx->fd);
	ctx->fd = -1;
	ctx->open_count = 0;
	ctx->forked = false;
	ctx->topo_acquired = false;
	memset(&ctx->version, 0, sizeof(ctx->version));
}

KMT_API HSAKMT_STATUS
hsaKmtOpenSecondaryKFDCtx(HsaKFDContext **pCtx)
{
	HsaKFDContext *ctx;
	HSAKMT_STATUS st;

	if (!pCtx)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_init(&ctx->lock, NULL);
	ctx->fd = -1;

	pthread_mutex_lock(&ctx->lock);
	st = kmt_ctx_open(ctx);
	if (st == HSAKMT_STATUS_SUCCESS)
		ctx->open_count = 1;
	pthread_mutex_unlock(&ctx->lock);
	if (st != HSAKMT_STATUS_SUCCESS) {
		pthread_mutex_destroy(&ctx->lock);
		free(ctx);
		return st;
	}
	kmt_ctx_list_add(ctx);
	kmt_fork_setup();	/* after the open: see kmt_fork_setup() */
	*pCtx = ctx;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtCloseSecondaryKFDCtx(HsaKFDContext *ctx)
{
	if (!ctx || ctx->primary)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	kmt_ctx_list_del(ctx);
	pthread_mutex_lock(&ctx->lock);
	/* In a forked child the secondary process belongs to the parent. */
	kmt_ctx_close(ctx, ctx->forked || ctx->pid != kmt_getpid());
	pthread_mutex_unlock(&ctx->lock);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
	return HSAKMT_STATUS_SUCCESS;
}
