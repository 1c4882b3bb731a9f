/* SPDX-License-Identifier: MIT */
/*
 * KFD row 0x28 PROFILER (1.23): upstream's 16-byte form, and a 40-byte
 * form told apart by its size alone, whose layout is not settled upstream.
 */
#include "schema_priv.h"

/* Upstream: op, then the union at offset 4. */
#define T struct kfd_abi_profiler_1_23_args
#define A(m, d, r, o)		KS_FS(T, m, d, r, 0, KFD_ABI_PROFILER_##o)
static const struct kfd_field profiler_f[] = {
	KS_FN(T, op, IN, ENUM, ks_profiler_op_1_23),	/* 0 */
	A(pmc.gpu_id, IN, GPU_ID, PMC),
	A(pmc.lock, IN, NONE, PMC),
	A(pmc.perfcount_enable, IN, NONE, PMC),
	A(ptl.gpu_id, IN, GPU_ID, PTL_CONTROL),
	A(ptl.enable, IN, NONE, PTL_CONTROL),
	A(version, OUT, VERSION, VERSION),
};
KS_DESC(profiler_d, "kfd_abi_profiler_1_23_args", T, profiler_f);
#undef A
#undef T

/*
 * The 40-byte form of an out-of-tree dispatch-log design: its ops and
 * their arguments (one hands back a stream fd) differ between its
 * versions, so only op is named and the rest stays raw bytes.
 */
#define T struct kfd_abi_profiler_dlog_args
static const struct kfd_field profiler_dlog_f[] = {
	KS_F(T, op, INOUT, NONE),
	KS_F(T, pad, INOUT, HEX),
	KS_F(T, data, INOUT, BYTES),
};
KS_DESC(profiler_dlog_d, "kfd_abi_profiler_dlog_args", T, profiler_dlog_f);
#undef T

const struct kfd_ioctl_desc ks_rows_profiler[] = {
	{
		KS_KFD_ROW("PROFILER", "profiler", 0x28,
			   KFD_ABI_IOC_PROFILER, 23),
		KS_ARGS(profiler_d),
	},
	{
		KS_KFD_ROW("PROFILER_DLOG", "profiler_dlog", 0x28,
			   KFD_ABI_IOC_PROFILER_DLOG, 23),
		.only_size = KFD_ABI_PROFILER_DLOG_ARGS_SIZE,
		/* Its ops open streams whose own ioctls no trace holds. */
		.no_replay = 1,
		KS_ARGS(profiler_dlog_d),
	},
};
KS_DEFINE_COUNT(profiler);
