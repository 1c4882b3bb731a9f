/* SPDX-License-Identifier: MIT */
/*
 * debug/debug_priv.h - what the debugger files (debug*.c) share; private
 * to debug/.
 *
 * Three kernel interfaces meet here:
 *  - the pre-1.13 debugger (DBG_REGISTER .. DBG_WAVE_CONTROL, 0x0D-0x10),
 *    which kernels since 1.13 refuse with EPERM;
 *  - ROCm 5.x's DBG_TRAP on 0x82, which Debian's libhsakmt 5.2.3 uses for
 *    hsaKmtRuntimeEnable() and which upstream kernels answer with EINVAL;
 *  - the upstream debugger of KFD 1.13 (RUNTIME_ENABLE 0x25, DBG_TRAP 0x26).
 * Only the primary context may debug: a secondary one is refused with
 * NOT_SUPPORTED before any ioctl.
 */
#ifndef KMT_DEBUG_PRIV_H
#define KMT_DEBUG_PRIV_H

#include "core/core.h"

/* The upstream debugger interface appeared in KFD 1.13. */
#define KMT_DEBUG_MIN_MINOR	13

/* The debug area of a context (HsaKFDContext.debug). */
struct kmt_debug_ctx {
	pthread_mutex_t lock;			/* guards the fields below */
	uint32_t runtime_caps;			/* RUNTIME_ENABLE's capabilities */
	struct kfd_abi_runtime_info runtime;	/* what a debugger would be told */
};

/* kmt_debug_ctx_get() - @ctx's debug area, created on first use (NULL: no memory). */
struct kmt_debug_ctx *kmt_debug_ctx_get(HsaKFDContext *ctx);

/*
 * kmt_debug_check() - may @ctx make a debugger call now?
 * Return: kmt_ctx_check()'s refusals, NOT_SUPPORTED on a secondary context.
 */
HSAKMT_STATUS kmt_debug_check(HsaKFDContext *ctx);

#endif /* KMT_DEBUG_PRIV_H */
