/* SPDX-License-Identifier: MIT */
/*
 * The primary context (a static object, opened by hsaKmtOpenKFD()) and
 * the check every Ctx function starts with. Opening and closing contexts
 * is lifecycle/'s.
 */
#include "core/core.h"

static HsaKFDContext kmt_primary = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.fd = -1,
	.primary = true,
};

HsaKFDContext *
kmt_primary_ctx(void)
{
	return &kmt_primary;
}

HSAKMT_STATUS
kmt_ctx_check(HsaKFDContext *ctx)
{
	if (!ctx)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (ctx->fd < 0 || ctx->forked)
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	/*
	 * A child created without our atfork handler (raw clone) still
	 * has the parent's pid recorded: its KFD file is useless to it.
	 */
	if (ctx->pid != kmt_getpid()) {
		ctx->forked = true;
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	}
	return HSAKMT_STATUS_SUCCESS;
}
