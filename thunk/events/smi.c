/* SPDX-License-Identifier: MIT */
/*
 * The kernel's System Management Interface event stream (KFD 1.3): an
 * anonymous fd per GPU. The caller writes a 64-bit event mask to it and
 * reads text records; the library only opens it.
 */
#include <errno.h>
#include <string.h>

#include "core/core.h"
#include "topology/topology.h"

KMT_API HSAKMT_STATUS
hsaKmtOpenSMICtx(HsaKFDContext *ctx, HSAuint32 NodeId, int *fd)
{
	struct kfd_abi_smi_events_args args = {0};
	struct kmt_node_info info;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!fd)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_topo_node_info(ctx, NodeId, &info);
	if (st != HSAKMT_STATUS_SUCCESS) {
		kmt_err("OpenSMI: invalid node %u\n", NodeId);
		return st;
	}
	args.gpuid = info.gpu_id;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SMI_EVENTS, &args) == -1) {
		kmt_debug("SMI_EVENTS on node %u: %s\n", NodeId, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	*fd = (int)args.anon_fd;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtOpenSMI(HSAuint32 NodeId, int *fd)
{
	return hsaKmtOpenSMICtx(kmt_primary_ctx(), NodeId, fd);
}
