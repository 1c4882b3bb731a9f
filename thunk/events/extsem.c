/* SPDX-License-Identifier: MIT */
/*
 * External semaphores: synchronisation objects of another API (a D3D
 * syncobj behind a Windows NT handle) that queues signal and wait on.
 * Only AMD's Windows library implements them; on Linux its pair answers
 * NOT_SUPPORTED whatever it is given, before any check, and so does ours
 * (the Ctx forms skip the usual context check for that reason).
 */
#include "core/core.h"

KMT_API HSAKMT_STATUS
hsaKmtImportExternalSemaphoreCtx(HsaKFDContext *ctx, HSAuint32 NodeId, void *NtHandle,
				 HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE Type,
				 HSA_EXTERNAL_SEMAPHORE_HANDLE *OutHandle)
{
	(void)ctx, (void)NodeId, (void)NtHandle, (void)Type, (void)OutHandle;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

KMT_API HSAKMT_STATUS
hsaKmtImportExternalSemaphore(HSAuint32 NodeId, void *NtHandle,
			      HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE Type,
			      HSA_EXTERNAL_SEMAPHORE_HANDLE *OutHandle)
{
	return hsaKmtImportExternalSemaphoreCtx(kmt_primary_ctx(), NodeId, NtHandle, Type,
						OutHandle);
}

KMT_API HSAKMT_STATUS
hsaKmtDestroyExternalSemaphoreCtx(HsaKFDContext *ctx, HSA_EXTERNAL_SEMAPHORE_HANDLE Handle)
{
	(void)ctx, (void)Handle;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

KMT_API HSAKMT_STATUS
hsaKmtDestroyExternalSemaphore(HSA_EXTERNAL_SEMAPHORE_HANDLE Handle)
{
	return hsaKmtDestroyExternalSemaphoreCtx(kmt_primary_ctx(), Handle);
}
