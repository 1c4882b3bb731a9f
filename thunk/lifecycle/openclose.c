/* SPDX-License-Identifier: MIT */
/*
 * hsaKmtOpenKFD / hsaKmtCloseKFD: the reference-counted primary context.
 */
#include <unistd.h>

#include "lifecycle/lifecycle.h"

KMT_API HSAKMT_STATUS
hsaKmtOpenKFDCtx(HsaKFDContext **pCtx)
{
	HsaKFDContext *ctx = kmt_primary_ctx();
	HSAKMT_STATUS st;

	pthread_mutex_lock(&ctx->lock);
	if (ctx->fd >= 0 && (ctx->forked || ctx->pid != kmt_getpid()))
		kmt_fork_cleanup(ctx);

	if (ctx->open_count > 0) {
		ctx->open_count++;
		st = HSAKMT_STATUS_KERNEL_ALREADY_OPENED;
	} else {
		st = kmt_ctx_open(ctx);
		if (st == HSAKMT_STATUS_SUCCESS)
			ctx->open_count = 1;
	}
	pthread_mutex_unlock(&ctx->lock);
	/* After the open: see kmt_fork_setup(). */
	if (st == HSAKMT_STATUS_SUCCESS)
		kmt_fork_setup();

	if (pCtx && (st == HSAKMT_STATUS_SUCCESS ||
		     st == HSAKMT_STATUS_KERNEL_ALREADY_OPENED))
		*pCtx = ctx;
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtOpenKFD(void)
{
	return hsaKmtOpenKFDCtx(NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtCloseKFDCtx(void)
{
	HsaKFDContext *ctx = kmt_primary_ctx();
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;

	pthread_mutex_lock(&ctx->lock);
	if (ctx->fd < 0 || ctx->open_count == 0) {
		st = HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	} else if (ctx->forked || ctx->pid != kmt_getpid()) {
		/* Whatever the parent opened is not ours to close. */
		kmt_fork_cleanup(ctx);
	} else if (--ctx->open_count == 0) {
		kmt_ctx_close(ctx, false);
	}
	pthread_mutex_unlock(&ctx->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtCloseKFD(void)
{
	return hsaKmtCloseKFDCtx();
}
