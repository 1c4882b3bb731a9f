/* SPDX-License-Identifier: MIT */
/* KFD rows: shared virtual memory attributes and XNACK mode. */
#include "schema_priv.h"

/*
 * One SVM attribute. value is a gpu_id for the location and access types,
 * flags for SET/CLR_FLAGS and a log2 page count for GRANULARITY; it is
 * printed in hex so all of them read sensibly.
 */
#define T struct kfd_abi_svm_attribute
static const struct kfd_field svm_attr_f[] = {
	KS_FNA(T, type, INOUT, ENUM, ks_svm_attr_type, TYPE),
	KS_FA(T, value, INOUT, HEX, VALUE),
};
KS_DESC(svm_attr_d, "kfd_abi_svm_attribute", T, svm_attr_f);
#undef T

/* 0x20 SVM: 24 fixed bytes + nattr inline attributes. */
#define T struct kfd_abi_svm_args
static const struct kfd_field svm_f[] = {
	KS_FA(T, start_addr, IN, GPU_VA, VA),
	KS_FA(T, size, IN, SIZE, SIZE),
	KS_FNA(T, op, IN, ENUM, ks_svm_op, OP),
	KS_FA(T, nattr, IN, COUNT, COUNT),		/* 3 */
};
KS_DESC(svm_d, "kfd_abi_svm_args", T, svm_f);
#undef T
static const struct kfd_indirect svm_b[] = {
	KS_BUF("attrs", -1, 3, sizeof(struct kfd_abi_svm_attribute), TRAILING,
	       INOUT, -1, 0, &svm_attr_d),
};

/* 0x21 SET_XNACK_MODE: negative input queries. */
#define T struct kfd_abi_set_xnack_mode_args
static const struct kfd_field xnack_f[] = {
	KS_FI(T, xnack_enabled, INOUT, NONE),
};
KS_DESC(xnack_d, "kfd_abi_set_xnack_mode_args", T, xnack_f);
#undef T

const struct kfd_ioctl_desc ks_rows_svm[] = {
	{
		KS_KFD_ROW("SVM", "svm", 0x20, KFD_ABI_IOC_SVM, 5),
		KS_ARGS(svm_d),
		KS_BUFS(svm_b),
	},
	{
		KS_KFD_ROW("SET_XNACK_MODE", "set_xnack_mode", 0x21,
			   KFD_ABI_IOC_SET_XNACK_MODE, 5),
		KS_ARGS(xnack_d),
	},
};
KS_DEFINE_COUNT(svm);
