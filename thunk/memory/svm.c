/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory attributes (KFD 1.5) and the XNACK mode.
 *
 * The SVM ioctl carries its attributes inline after a 24-byte header, and
 * the request's size bits grow by 8 bytes per attribute: the kernel copies
 * exactly _IOC_SIZE bytes in and out. Locations and access lists name
 * GPUs; the API speaks in user node ids, the kernel in gpu_ids (0 for
 * system memory, ~0 for "none"), so both directions are translated.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "topology/topology.h"

/* The SVM ioctl appeared in KFD 1.5, with SET_XNACK_MODE. */
#define KMT_SVM_MIN_MINOR	5

/* The 14-bit size field bounds the attributes one request can carry. */
#define KMT_SVM_MAX_ATTRS							\
	(((1u << _IOC_SIZEBITS) - 1 - sizeof(struct kfd_abi_svm_args)) /	\
	 sizeof(struct kfd_abi_svm_attribute))

static bool
attr_is_location(uint32_t type)
{
	return type == HSA_SVM_ATTR_PREFERRED_LOC || type == HSA_SVM_ATTR_PREFETCH_LOC;
}

static bool
attr_is_access(uint32_t type)
{
	return type == HSA_SVM_ATTR_ACCESS || type == HSA_SVM_ATTR_ACCESS_IN_PLACE ||
	       type == HSA_SVM_ATTR_NO_ACCESS;
}

/* Common argument checks; allocates the request with the attributes copied in. */
static HSAKMT_STATUS
svm_prepare(HsaKFDContext *ctx, void *start, HSAuint64 size, unsigned int nattr,
	    const HSA_SVM_ATTRIBUTE *attrs, uint32_t op, struct kfd_abi_svm_args **out)
{
	size_t page = kmt_page_size();
	struct kfd_abi_svm_args *args;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!kmt_kfd_minor_at_least(ctx, KMT_SVM_MIN_MINOR))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	if (!start || !size || ((uintptr_t)start & (page - 1)) || (size & (page - 1)))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if ((nattr && !attrs) || nattr > KMT_SVM_MAX_ATTRS)
		return HSAKMT_STATUS_INVALID_PARAMETER;

	args = calloc(1, sizeof(*args) + (size_t)nattr * sizeof(args->attrs[0]));
	if (!args)
		return HSAKMT_STATUS_NO_MEMORY;
	args->start_addr = (uintptr_t)start;
	args->size = size;
	args->op = op;
	args->nattr = nattr;
	if (nattr)
		memcpy(args->attrs, attrs, (size_t)nattr * sizeof(args->attrs[0]));
	*out = args;
	return HSAKMT_STATUS_SUCCESS;
}

/* Node id -> gpu_id (0 for a CPU node); INVALID_NODE_UNIT for unknown nodes. */
static HSAKMT_STATUS
svm_node_to_gpu(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id)
{
	struct kmt_node_info info;
	HSAKMT_STATUS st = kmt_topo_node_info(ctx, node, &info);

	if (st == HSAKMT_STATUS_SUCCESS)
		*gpu_id = info.gpu_id;
	return st;
}

static HSAKMT_STATUS
svm_issue(HsaKFDContext *ctx, struct kfd_abi_svm_args *args)
{
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SVM_NATTR(args->nattr), args) == -1) {
		kmt_debug("SVM op %u at 0x%llx+0x%llx: %s\n", args->op,
			  (unsigned long long)args->start_addr,
			  (unsigned long long)args->size, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSVMSetAttrCtx(HsaKFDContext *ctx, void *start_addr, HSAuint64 size, unsigned int nattr,
		    HSA_SVM_ATTRIBUTE *attrs)
{
	struct kfd_abi_svm_args *args;
	HSAKMT_STATUS st;
	unsigned int i;

	st = svm_prepare(ctx, start_addr, size, nattr, attrs, KFD_ABI_SVM_OP_SET_ATTR, &args);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	for (i = 0; i < nattr; i++) {
		uint32_t type = attrs[i].type;

		if (!attr_is_location(type) && !attr_is_access(type))
			continue;
		if (type == HSA_SVM_ATTR_PREFERRED_LOC && attrs[i].value == INVALID_NODEID) {
			args->attrs[i].value = KFD_ABI_SVM_LOCATION_UNDEFINED;
			continue;
		}
		st = svm_node_to_gpu(ctx, attrs[i].value, &args->attrs[i].value);
		if (st == HSAKMT_STATUS_SUCCESS && attr_is_access(type) && !args->attrs[i].value)
			st = HSAKMT_STATUS_INVALID_NODE_UNIT;	/* the CPU is no accessor */
		if (st != HSAKMT_STATUS_SUCCESS) {
			kmt_debug("SVM attribute %u: bad node %u\n", type, attrs[i].value);
			free(args);
			return st;
		}
	}
	st = svm_issue(ctx, args);
	free(args);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtSVMSetAttr(void *start_addr, HSAuint64 size, unsigned int nattr, HSA_SVM_ATTRIBUTE *attrs)
{
	return hsaKmtSVMSetAttrCtx(kmt_primary_ctx(), start_addr, size, nattr, attrs);
}

KMT_API HSAKMT_STATUS
hsaKmtSVMGetAttrCtx(HsaKFDContext *ctx, void *start_addr, HSAuint64 size, unsigned int nattr,
		    HSA_SVM_ATTRIBUTE *attrs)
{
	struct kfd_abi_svm_args *args;
	HSAKMT_STATUS st;
	unsigned int i;

	st = svm_prepare(ctx, start_addr, size, nattr, attrs, KFD_ABI_SVM_OP_GET_ATTR, &args);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* Access queries name the GPU asked about. */
	for (i = 0; i < nattr; i++) {
		if (!attr_is_access(attrs[i].type))
			continue;
		st = svm_node_to_gpu(ctx, attrs[i].value, &args->attrs[i].value);
		if (st == HSAKMT_STATUS_SUCCESS && !args->attrs[i].value)
			st = HSAKMT_STATUS_INVALID_NODE_UNIT;
		if (st != HSAKMT_STATUS_SUCCESS) {
			free(args);
			return st;
		}
	}
	st = svm_issue(ctx, args);
	if (st != HSAKMT_STATUS_SUCCESS) {
		free(args);
		return st;
	}
	memcpy(attrs, args->attrs, (size_t)nattr * sizeof(attrs[0]));
	free(args);

	for (i = 0; i < nattr; i++) {
		if (!attr_is_location(attrs[i].type) && !attr_is_access(attrs[i].type))
			continue;
		if (attrs[i].value == KFD_ABI_SVM_LOCATION_SYSMEM) {
			attrs[i].value = 0;
		} else if (attrs[i].value == KFD_ABI_SVM_LOCATION_UNDEFINED) {
			attrs[i].value = INVALID_NODEID;
		} else {
			st = kmt_topo_node_of_gpu(ctx, attrs[i].value, &attrs[i].value);
			if (st != HSAKMT_STATUS_SUCCESS)
				return st;
		}
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSVMGetAttr(void *start_addr, HSAuint64 size, unsigned int nattr, HSA_SVM_ATTRIBUTE *attrs)
{
	return hsaKmtSVMGetAttrCtx(kmt_primary_ctx(), start_addr, size, nattr, attrs);
}

/* SET_XNACK_MODE: a negative value queries; the current mode comes back. */
static HSAKMT_STATUS
xnack_mode(HsaKFDContext *ctx, HSAint32 *mode)
{
	struct kfd_abi_set_xnack_mode_args args = {0};
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!kmt_kfd_minor_at_least(ctx, KMT_SVM_MIN_MINOR))
		return HSAKMT_STATUS_NOT_SUPPORTED;
	args.xnack_enabled = *mode;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_XNACK_MODE, &args) == -1) {
		int err = errno;

		/* EPERM: some GPU cannot change mode (or no SVM); EBUSY: queues exist. */
		kmt_debug("SET_XNACK_MODE(%d): %s\n", *mode, strerror(err));
		return err == EPERM ? HSAKMT_STATUS_NOT_SUPPORTED : HSAKMT_STATUS_ERROR;
	}
	*mode = args.xnack_enabled;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSetXNACKModeCtx(HsaKFDContext *ctx, HSAint32 enable)
{
	return xnack_mode(ctx, &enable);
}

KMT_API HSAKMT_STATUS
hsaKmtSetXNACKMode(HSAint32 enable)
{
	return hsaKmtSetXNACKModeCtx(kmt_primary_ctx(), enable);
}

KMT_API HSAKMT_STATUS
hsaKmtGetXNACKModeCtx(HsaKFDContext *ctx, HSAint32 *enable)
{
	if (!enable)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	*enable = -1;
	return xnack_mode(ctx, enable);
}

KMT_API HSAKMT_STATUS
hsaKmtGetXNACKMode(HSAint32 *enable)
{
	return hsaKmtGetXNACKModeCtx(kmt_primary_ctx(), enable);
}
