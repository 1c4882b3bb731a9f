/* SPDX-License-Identifier: MIT */
/*
 * KFD rows only ROCm's DKMS kernels dispatch (0x80..0x87). Upstream kernels
 * answer them with an error; Debian's libhsakmt 5.2.3 uses the old DBG_TRAP.
 */
#include "schema_priv.h"

/* 0x80 IPC_IMPORT_HANDLE */
#define T struct kfd_abi_ipc_import_handle_args
static const struct kfd_field ipc_import_f[] = {
	KS_FA(T, handle, OUT, HANDLE, OBJ),
	KS_FA(T, va_addr, IN, GPU_VA, VA),
	KS_FA(T, mmap_offset, OUT, MMAP_OFFSET, MMAP_OFFSET),
	KS_FA(T, share_handle, IN, BYTES, SOURCE),
	KS_FA(T, gpu_id, IN, GPU_ID, GPU),
	KS_FN(T, flags, OUT, FLAGS, ks_alloc_flags),
};
KS_DESC(ipc_import_d, "kfd_abi_ipc_import_handle_args", T, ipc_import_f);
#undef T

/* 0x81 IPC_EXPORT_HANDLE */
#define T struct kfd_abi_ipc_export_handle_args
static const struct kfd_field ipc_export_f[] = {
	KS_FA(T, handle, IN, HANDLE, SOURCE),
	KS_FA(T, share_handle, OUT, BYTES, OBJ),
	KS_FA(T, gpu_id, IN, GPU_ID, GPU),
	KS_F(T, flags, IN, HEX),
};
KS_DESC(ipc_export_d, "kfd_abi_ipc_export_handle_args", T, ipc_export_f);
#undef T

/* 0x82 DBG_TRAP (old): ptr and data1..4 mean what op says. */
#define T struct kfd_abi_dbg_trap_old_args
static const struct kfd_field dbg_trap_old_f[] = {
	KS_FN(T, exception_mask, INOUT, FLAGS, ks_exception_mask),	/* 0 */
	KS_F(T, ptr, IN, PTR),					/* 1 */
	KS_F(T, pid, IN, PID),					/* 2 */
	KS_FN(T, op, IN, ENUM, ks_dbg_trap_old_op),		/* 3 */
	KS_F(T, data1, INOUT, COUNT),				/* 4 */
	KS_F(T, data2, INOUT, NONE),				/* 5 */
	KS_F(T, data3, INOUT, SIZE),				/* 6 */
	KS_F(T, data4, INOUT, SIZE),				/* 7 */
};
KS_DESC(dbg_trap_old_d, "kfd_abi_dbg_trap_old_args", T, dbg_trap_old_f);
#undef T
#define B(n, cnt, esz, kind, d, o, el)					\
	KS_BUF(n, 1, cnt, esz, kind, d, 3, KFD_ABI_DBG_TRAP_OLD_##o, el)
static const struct kfd_indirect dbg_trap_old_b[] = {
	B("runtime_info", 6, 1, CAPACITY, OUT, ENABLE, NULL),
	B("queue_ids", 4, sizeof(uint32_t), COUNT, INOUT, NODE_SUSPEND,
	  &ks_u32_queue_id_desc),
	B("queue_ids", 4, sizeof(uint32_t), COUNT, INOUT, NODE_RESUME,
	  &ks_u32_queue_id_desc),
	B("queue_snapshot", 4, KFD_ABI_DBG_TRAP_OLD_QUEUE_SNAPSHOT_ENTRY_SIZE,
	  CAPACITY, OUT, GET_QUEUE_SNAPSHOT, NULL),
	B("exception_info", 7, 1, CAPACITY, OUT, QUERY_EXCEPTION_INFO, NULL),
	B("device_snapshot", 4, KFD_ABI_DBG_TRAP_OLD_DEVICE_SNAPSHOT_ENTRY_SIZE,
	  CAPACITY, OUT, DEVICE_SNAPSHOT, NULL),
};
#undef B

/* 0x83 CROSS_MEMORY_COPY */
#define T struct kfd_abi_memory_range
static const struct kfd_field memory_range_f[] = {
	KS_F(T, va_addr, IN, GPU_VA),
	KS_F(T, size, IN, SIZE),
};
KS_DESC(memory_range_d, "kfd_abi_memory_range", T, memory_range_f);
#undef T

#define T struct kfd_abi_cross_memory_copy_args
static const struct kfd_field cross_memory_copy_f[] = {
	KS_F(T, pid, IN, PID),					/* 0 */
	KS_FN(T, flags, IN, FLAGS, ks_cross_memory_flags),	/* 1 */
	KS_F(T, src_mem_range_array, IN, PTR),			/* 2 */
	KS_F(T, src_mem_array_size, IN, COUNT),			/* 3 */
	KS_F(T, dst_mem_range_array, IN, PTR),			/* 4 */
	KS_F(T, dst_mem_array_size, IN, COUNT),			/* 5 */
	KS_F(T, bytes_copied, OUT, SIZE),			/* 6 */
};
KS_DESC(cross_memory_copy_d, "kfd_abi_cross_memory_copy_args", T, cross_memory_copy_f);
#undef T
static const struct kfd_indirect cross_memory_copy_b[] = {
	KS_BUF("src_ranges", 2, 3, sizeof(struct kfd_abi_memory_range), COUNT, IN,
	       -1, 0, &memory_range_d),
	KS_BUF("dst_ranges", 4, 5, sizeof(struct kfd_abi_memory_range), COUNT, IN,
	       -1, 0, &memory_range_d),
};

/*
 * 0x84 RLC_SPM. The kernel fills dest_buf asynchronously; the valid length
 * of a buffer is reported by bytes_copied of the next SET_DEST_BUF, so the
 * after-image of this call only bounds it.
 */
#define T struct kfd_abi_spm_args
static const struct kfd_field spm_f[] = {
	KS_F(T, dest_buf, IN, PTR),				/* 0 */
	KS_F(T, buf_size, IN, SIZE),				/* 1 */
	KS_FN(T, op, IN, ENUM, ks_spm_op),			/* 2 */
	KS_F(T, timeout, INOUT, TIMEOUT),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, bytes_copied, OUT, SIZE),
	KS_F(T, has_data_loss, OUT, NONE),
};
KS_DESC(spm_d, "kfd_abi_spm_args", T, spm_f);
#undef T
static const struct kfd_indirect spm_b[] = {
	KS_BUF("dest_buf", 0, 1, 1, BYTES, OUT, 2, KFD_ABI_SPM_OP_SET_DEST_BUF, NULL),
};

/* 0x85 PC_SAMPLE */
#define T struct kfd_abi_pc_sample_info
static const struct kfd_field pc_sample_info_f[] = {
	KS_F(T, interval, INOUT, NONE),
	KS_F(T, interval_min, OUT, NONE),
	KS_F(T, interval_max, OUT, NONE),
	KS_F(T, flags, OUT, HEX),
	KS_FN(T, method, INOUT, ENUM, ks_pcs_method),
	KS_FN(T, type, INOUT, ENUM, ks_pcs_type),
};
KS_DESC(pc_sample_info_d, "kfd_abi_pc_sample_info", T, pc_sample_info_f);
#undef T

#define T struct kfd_abi_pc_sample_args
static const struct kfd_field pc_sample_f[] = {
	KS_F(T, sample_info_ptr, IN, PTR),			/* 0 */
	KS_F(T, num_sample_info, INOUT, COUNT),			/* 1 */
	KS_FN(T, op, IN, ENUM, ks_pcs_op),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, trace_id, INOUT, NONE),
	KS_FN(T, flags, IN, FLAGS, ks_pcs_flags),
	KS_F(T, reserved, NONE, PAD),
};
KS_DESC(pc_sample_d, "kfd_abi_pc_sample_args", T, pc_sample_f);
#undef T
static const struct kfd_indirect pc_sample_b[] = {
	KS_BUF("sample_info", 0, 1, sizeof(struct kfd_abi_pc_sample_info), CAPACITY,
	       INOUT, -1, 0, &pc_sample_info_d),
};
static const struct kfd_size_variant pc_sample_v[] = {
	{ KFD_ABI_IOC_PC_SAMPLE_V1, KFD_ABI_PC_SAMPLE_ARGS_SIZE_V1, 0, 0xff },
	{ KFD_ABI_IOC_PC_SAMPLE, sizeof(struct kfd_abi_pc_sample_args), 0, 0xff },
};

/* 0x86 PROFILER_DKMS: op selects the arm (union 8-aligned). */
#define T struct kfd_abi_profiler_args
#define A(m, d, r, o)		KS_FS(T, m, d, r, 0, KFD_ABI_PROFILER_##o)
#define AN(m, d, r, o, tbl)	KS_FSN(T, m, d, r, 0, KFD_ABI_PROFILER_##o, tbl)
static const struct kfd_field profiler_f[] = {
	KS_FN(T, op, IN, ENUM, ks_profiler_op),	/* 0 */
	KS_F(T, pad, NONE, PAD),	/* 1 */
	A(pc_sample.sample_info_ptr, IN, PTR, PC_SAMPLE),	/* 2 */
	A(pc_sample.num_sample_info, INOUT, COUNT, PC_SAMPLE),	/* 3 */
	AN(pc_sample.op, IN, ENUM, PC_SAMPLE, ks_pcs_op),	/* 4 */
	A(pc_sample.gpu_id, IN, GPU_ID, PC_SAMPLE),	/* 5 */
	A(pc_sample.trace_id, INOUT, NONE, PC_SAMPLE),	/* 6 */
	AN(pc_sample.flags, IN, FLAGS, PC_SAMPLE, ks_pcs_flags),	/* 7 */
	A(pc_sample.reserved, NONE, PAD, PC_SAMPLE),	/* 8 */
	A(pmc.gpu_id, IN, GPU_ID, PMC),	/* 9 */
	A(pmc.lock, IN, NONE, PMC),	/* 10 */
	A(pmc.perfcount_enable, IN, NONE, PMC),	/* 11 */
	A(ptl.gpu_id, IN, GPU_ID, PTL_CONTROL),	/* 12 */
	A(ptl.enable, IN, NONE, PTL_CONTROL),	/* 13 */
	A(version, OUT, VERSION, VERSION),	/* 14 */
};
KS_DESC(profiler_d, "kfd_abi_profiler_args", T, profiler_f);
#undef A
#undef AN
#undef T
static const struct kfd_indirect profiler_b[] = {
	KS_BUF("sample_info", 2, 3, sizeof(struct kfd_abi_pc_sample_info), CAPACITY,
	       INOUT, 0, KFD_ABI_PROFILER_PC_SAMPLE, &pc_sample_info_d),
};

/* 0x87 AIS_OP: the in and out halves overlay each other. */
#define T struct kfd_abi_ais_args
static const struct kfd_field ais_f[] = {
	KS_F(T, in.handle, IN, HANDLE),
	KS_F(T, in.handle_offset, IN, SIZE),
	KS_F(T, in.file_offset, IN, SIZE),
	KS_F(T, in.size, IN, SIZE),
	KS_FN(T, in.op, IN, ENUM, ks_ais_op),
	KS_FI(T, in.fd, IN, FD),
	KS_F(T, out.size_copied, OUT, SIZE),
	KS_FI(T, out.status, OUT, NONE),
};
KS_DESC(ais_d, "kfd_abi_ais_args", T, ais_f);
#undef T

#define ROCM_ROW(NAME, ev, nr_, req)					\
	KS_KFD_ROW(NAME, ev, nr_, req, 0), .rocm_only = 1

const struct kfd_ioctl_desc ks_rows_rocm[] = {
	{
		ROCM_ROW("IPC_IMPORT_HANDLE", "ipc_import_handle", 0x80,
			 KFD_ABI_IOC_IPC_IMPORT_HANDLE),
		.free_mem = KFD_FREE_MEM_CHANGES,
		KS_CREATES_FROM(BUFFER, SHARE),
		KS_ARGS(ipc_import_d),
	},
	{
		ROCM_ROW("IPC_EXPORT_HANDLE", "ipc_export_handle", 0x81,
			 KFD_ABI_IOC_IPC_EXPORT_HANDLE),
		KS_CREATES_FROM(SHARE, BUFFER),
		KS_ARGS(ipc_export_d),
	},
	{
		ROCM_ROW("DBG_TRAP_OLD", "dbg_trap_old", 0x82,
			 KFD_ABI_IOC_DBG_TRAP_OLD),
		KS_ARGS(dbg_trap_old_d),
		KS_BUFS(dbg_trap_old_b),
	},
	{
		ROCM_ROW("CROSS_MEMORY_COPY", "cross_memory_copy", 0x83,
			 KFD_ABI_IOC_CROSS_MEMORY_COPY),
		/* Copies between any two processes' address ranges. */
		.no_replay = 1,
		KS_ARGS(cross_memory_copy_d),
		KS_BUFS(cross_memory_copy_b),
	},
	{
		ROCM_ROW("RLC_SPM", "rlc_spm", 0x84, KFD_ABI_IOC_RLC_SPM),
		KS_ARGS(spm_d),
		KS_BUFS(spm_b),
	},
	{
		ROCM_ROW("PC_SAMPLE", "pc_sample", 0x85, KFD_ABI_IOC_PC_SAMPLE),
		KS_ARGS(pc_sample_d),
		KS_BUFS(pc_sample_b),
		KS_VARIANTS(pc_sample_v),
	},
	{
		ROCM_ROW("PROFILER_DKMS", "profiler_dkms", 0x86,
			 KFD_ABI_IOC_PROFILER_DKMS),
		KS_ARGS(profiler_d),
		KS_BUFS(profiler_b),
	},
	{
		ROCM_ROW("AIS_OP", "ais_op", 0x87, KFD_ABI_IOC_AIS_OP),
		/* File I/O straight into GPU memory. */
		.no_replay = 1,
		KS_ARGS(ais_d),
	},
};
KS_DEFINE_COUNT(rocm);
