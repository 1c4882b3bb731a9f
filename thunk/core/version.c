/* SPDX-License-Identifier: MIT */
/* hsaKmtGetVersion: the interface version read at open. */
#include "core/core.h"

KMT_API HSAKMT_STATUS
hsaKmtGetVersionCtx(HsaKFDContext *ctx, HsaVersionInfo *VersionInfo)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!VersionInfo)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	*VersionInfo = ctx->version;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetVersion(HsaVersionInfo *VersionInfo)
{
	return hsaKmtGetVersionCtx(kmt_primary_ctx(), VersionInfo);
}
