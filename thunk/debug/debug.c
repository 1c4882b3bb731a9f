/* SPDX-License-Identifier: MIT */
/*
 * The runtime's side of the debugger: telling the kernel the HSA runtime
 * is up (so a debugger can find its r_debug), and what the runtime may ask
 * about debugger support.
 *
 * hsaKmtRuntimeEnable()/Disable() keep the one HSAKMT_1 entry point and
 * prototype that ROCr 5.2.3 and newer callers share; the kernel picks the
 * interface behind it:
 *  - KFD 1.13 and later: RUNTIME_ENABLE (0x25), as AMD's newer libraries
 *    do. It is there only when hsaKmtCheckRuntimeDebugSupport() says so
 *    (every GPU's firmware too); otherwise NOT_SUPPORTED. With a debugger
 *    attached the kernel holds the request until the debugger answers the
 *    EC_PROCESS_RUNTIME event, so the call may block.
 *  - older kernels: ROCm 5.x's DBG_TRAP (0x82) as Debian's libhsakmt
 *    5.2.3 does, a version query first. Upstream kernels answer 0x82 with
 *    EINVAL, so both calls report NOT_SUPPORTED there, which ROCr 5.2.3
 *    accepts and carries on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug/debug_priv.h"
#include "topology/topology.h"

/* The old interface's major version RuntimeEnable requires. */
#define OLD_DBG_TRAP_RUNTIME_MAJOR	10

static void
debug_ctx_fini(HsaKFDContext *ctx, bool forked)
{
	struct kmt_debug_ctx *dc = ctx->debug;

	if (!dc)
		return;
	pthread_mutex_destroy(&dc->lock);
	free(dc);
	ctx->debug = NULL;
}

struct kmt_debug_ctx *
kmt_debug_ctx_get(HsaKFDContext *ctx)
{
	struct kmt_debug_ctx *dc;

	pthread_mutex_lock(&ctx->lock);
	dc = ctx->debug;
	if (!dc) {
		dc = calloc(1, sizeof(*dc));
		if (dc) {
			pthread_mutex_init(&dc->lock, NULL);
			ctx->debug = dc;
			ctx->debug_fini = debug_ctx_fini;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return dc;
}

HSAKMT_STATUS
kmt_debug_check(HsaKFDContext *ctx)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	return kmt_ctx_is_primary(ctx) ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_NOT_SUPPORTED;
}

/* One old-style DBG_TRAP request; the ioctl's result. */
static int
old_dbg_trap(HsaKFDContext *ctx, uint32_t op, struct kfd_abi_dbg_trap_old_args *args)
{
	args->op = op;
	args->pid = (uint32_t)getpid();
	return kmt_ioctl(ctx, KFD_ABI_IOC_DBG_TRAP_OLD, args);
}

KMT_API HSAKMT_STATUS
hsaKmtGetKernelDebugTrapVersionInfoCtx(HsaKFDContext *ctx, HSAuint32 *Major, HSAuint32 *Minor)
{
	struct kfd_abi_dbg_trap_old_args args = {0};
	HSAKMT_STATUS st;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Major || !Minor)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (old_dbg_trap(ctx, KFD_ABI_DBG_TRAP_OLD_GET_VERSION, &args) == -1) {
		kmt_debug("DBG_TRAP(0x82) GET_VERSION: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	*Major = args.data1;
	*Minor = args.data2;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetKernelDebugTrapVersionInfo(HSAuint32 *Major, HSAuint32 *Minor)
{
	return hsaKmtGetKernelDebugTrapVersionInfoCtx(kmt_primary_ctx(), Major, Minor);
}

/* Does the kernel speak the old interface at a version RuntimeEnable knows? */
static bool
old_runtime_supported(HsaKFDContext *ctx)
{
	HSAuint32 major, minor;

	if (hsaKmtGetKernelDebugTrapVersionInfoCtx(ctx, &major, &minor) != HSAKMT_STATUS_SUCCESS)
		return false;
	return major == OLD_DBG_TRAP_RUNTIME_MAJOR;
}

/* Record what the kernel now knows of the runtime (dc->lock not held). */
static void
runtime_state_set(struct kmt_debug_ctx *dc, uint32_t state, uint64_t r_debug, bool ttmp)
{
	pthread_mutex_lock(&dc->lock);
	dc->runtime.runtime_state = state;
	dc->runtime.r_debug = r_debug;
	dc->runtime.ttmp_setup = ttmp;
	pthread_mutex_unlock(&dc->lock);
}

/*
 * RUNTIME_ENABLE (0x25). The kernel answers EBUSY when the runtime is
 * enabled already and EEXIST when the process has queues (the runtime
 * must come first); only EBUSY has a status of its own.
 */
static HSAKMT_STATUS
runtime_enable_new(HsaKFDContext *ctx, struct kmt_debug_ctx *dc, void *rDebug, bool setupTtmp)
{
	struct kfd_abi_runtime_enable_args args = {0};
	int err;

	args.r_debug = (uintptr_t)rDebug;
	args.mode_mask = KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK;
	if (setupTtmp)
		args.mode_mask |= KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_RUNTIME_ENABLE, &args) == -1) {
		err = errno;
		kmt_debug("RUNTIME_ENABLE: %s\n", strerror(err));
		return err == EBUSY ? HSAKMT_STATUS_UNAVAILABLE : HSAKMT_STATUS_ERROR;
	}
	pthread_mutex_lock(&dc->lock);
	dc->runtime_caps = args.capabilities_mask;
	pthread_mutex_unlock(&dc->lock);
	runtime_state_set(dc, KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED, (uintptr_t)rDebug, setupTtmp);
	return HSAKMT_STATUS_SUCCESS;
}

/* ROCm 5.x's runtime enable on DBG_TRAP (0x82), as libhsakmt 5.2.3 sends it. */
static HSAKMT_STATUS
runtime_enable_old(HsaKFDContext *ctx, struct kmt_debug_ctx *dc, void *rDebug, bool setupTtmp)
{
	struct kfd_abi_dbg_trap_old_args args = {0};
	int err;

	if (!old_runtime_supported(ctx))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	args.data1 = 1;			/* enable */
	args.data2 = setupTtmp;
	args.ptr = (uintptr_t)rDebug;
	if (old_dbg_trap(ctx, KFD_ABI_DBG_TRAP_OLD_RUNTIME_ENABLE, &args) == -1) {
		err = errno;
		kmt_debug("DBG_TRAP(0x82) RUNTIME_ENABLE: %s\n", strerror(err));
		if (err == EBUSY) {
			pthread_mutex_lock(&dc->lock);
			dc->runtime.runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED_BUSY;
			pthread_mutex_unlock(&dc->lock);
		}
		return err == EBUSY ? HSAKMT_STATUS_UNAVAILABLE : HSAKMT_STATUS_ERROR;
	}
	runtime_state_set(dc, KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED, (uintptr_t)rDebug, setupTtmp);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtRuntimeEnableCtx(HsaKFDContext *ctx, void *rDebug, bool setupTtmp)
{
	struct kmt_debug_ctx *dc;
	HSAKMT_STATUS st;
	bool new_api;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	new_api = kmt_kfd_minor_at_least(ctx, KMT_DEBUG_MIN_MINOR);
	if (new_api) {
		st = hsaKmtCheckRuntimeDebugSupportCtx(ctx);
		if (st != HSAKMT_STATUS_SUCCESS)
			return st;
	}
	dc = kmt_debug_ctx_get(ctx);
	if (!dc)
		return HSAKMT_STATUS_NO_MEMORY;
	if (new_api)
		return runtime_enable_new(ctx, dc, rDebug, setupTtmp);
	return runtime_enable_old(ctx, dc, rDebug, setupTtmp);
}

KMT_API HSAKMT_STATUS
hsaKmtRuntimeEnable(void *rDebug, bool setupTtmp)
{
	return hsaKmtRuntimeEnableCtx(kmt_primary_ctx(), rDebug, setupTtmp);
}

/* The disable of either interface; the kernel's result. */
static int
runtime_disable_ioctl(HsaKFDContext *ctx, bool new_api)
{
	struct kfd_abi_runtime_enable_args args = {0};
	struct kfd_abi_dbg_trap_old_args old = {0};

	if (new_api)
		return kmt_ioctl(ctx, KFD_ABI_IOC_RUNTIME_ENABLE, &args);	/* mode 0 */
	old.data1 = 0;			/* disable */
	return old_dbg_trap(ctx, KFD_ABI_DBG_TRAP_OLD_RUNTIME_ENABLE, &old);
}

KMT_API HSAKMT_STATUS
hsaKmtRuntimeDisableCtx(HsaKFDContext *ctx)
{
	struct kmt_debug_ctx *dc;
	HSAKMT_STATUS st;
	bool new_api;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	new_api = kmt_kfd_minor_at_least(ctx, KMT_DEBUG_MIN_MINOR);
	if (new_api)
		st = hsaKmtCheckRuntimeDebugSupportCtx(ctx);
	else if (!old_runtime_supported(ctx))
		st = HSAKMT_STATUS_NOT_SUPPORTED;
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* With a debugger attached the kernel waits for its answer here too. */
	if (runtime_disable_ioctl(ctx, new_api) == -1)
		return HSAKMT_STATUS_ERROR;
	dc = kmt_debug_ctx_get(ctx);
	if (dc)
		runtime_state_set(dc, KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED, 0, false);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtRuntimeDisable(void)
{
	return hsaKmtRuntimeDisableCtx(kmt_primary_ctx());
}

KMT_API HSAKMT_STATUS
hsaKmtGetRuntimeCapabilitiesCtx(HsaKFDContext *ctx, HSAuint32 *caps_mask)
{
	struct kmt_debug_ctx *dc;
	HSAKMT_STATUS st;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!caps_mask)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	dc = kmt_debug_ctx_get(ctx);
	if (!dc)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&dc->lock);
	*caps_mask = dc->runtime_caps;
	pthread_mutex_unlock(&dc->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetRuntimeCapabilities(HSAuint32 *caps_mask)
{
	return hsaKmtGetRuntimeCapabilitiesCtx(kmt_primary_ctx(), caps_mask);
}

KMT_API HSAKMT_STATUS
hsaKmtGetCoreRuntimeInfoCtx(HsaKFDContext *ctx, struct kfd_runtime_info *runtime_info)
{
	struct kmt_debug_ctx *dc;
	HSAKMT_STATUS st;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* AMD's library answers ERROR, not INVALID_PARAMETER, here. */
	if (!runtime_info)
		return HSAKMT_STATUS_ERROR;
	dc = kmt_debug_ctx_get(ctx);
	if (!dc)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&dc->lock);
	memcpy(runtime_info, &dc->runtime, sizeof(dc->runtime));
	pthread_mutex_unlock(&dc->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetCoreRuntimeInfo(struct kfd_runtime_info *runtime_info)
{
	return hsaKmtGetCoreRuntimeInfoCtx(kmt_primary_ctx(), runtime_info);
}

KMT_API HSAKMT_STATUS
hsaKmtCheckRuntimeDebugSupportCtx(HsaKFDContext *ctx)
{
	struct kmt_node_info info;
	uint32_t i, n;
	HSAKMT_STATUS st;

	st = kmt_debug_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* Every GPU's firmware must support the debugger. */
	n = kmt_topo_num_nodes(ctx);
	for (i = 0; i < n; i++) {
		if (kmt_topo_node_info(ctx, i, &info) != HSAKMT_STATUS_SUCCESS)
			return HSAKMT_STATUS_ERROR;
		if (info.is_gpu && !info.props.Capability.ui32.DebugSupportedFirmware)
			return HSAKMT_STATUS_NOT_SUPPORTED;
	}
	if (!kmt_kfd_minor_at_least(ctx, KMT_DEBUG_MIN_MINOR))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtCheckRuntimeDebugSupport(void)
{
	return hsaKmtCheckRuntimeDebugSupportCtx(kmt_primary_ctx());
}
