/* SPDX-License-Identifier: MIT */
/*
 * Part of the /dev/kfd ioctl ABI (kfd_abi.h, which includes it where it
 * stands and has the conventions and the request codes): the ROCm DKMS range 0x80..0x87 (IPC handles, the old DBG_TRAP, cross-memory copy, SPM, PC sampling, the DKMS profiler, AIS).
 * Include <kfdtrace/kfd_abi.h>, not this.
 */
#ifndef KFDTRACE_KFD_ABI_ROCM_H
#define KFDTRACE_KFD_ABI_ROCM_H

#ifndef KFDTRACE_KFD_ABI_H
#error "include <kfdtrace/kfd_abi.h>, not <kfdtrace/kfd_abi_rocm.h>"
#endif

/* ------------------------------------------------------------------ */
/* ROCm DKMS only: 0x80..0x87                                          */
/* ------------------------------------------------------------------ */

struct kfd_abi_ipc_import_handle_args {
	uint64_t handle;		/* out */
	uint64_t va_addr;		/* in */
	uint64_t mmap_offset;		/* out */
	uint32_t share_handle[4];	/* in */
	uint32_t gpu_id;		/* in */
	uint32_t flags;			/* out */
};

struct kfd_abi_ipc_export_handle_args {
	uint64_t handle;		/* in */
	uint32_t share_handle[4];	/* out */
	uint32_t gpu_id;		/* in */
	uint32_t flags;			/* in */
};

/*
 * DBG_TRAP as ROCm 5.x (and Debian's libhsakmt 5.2.3) issue it on 0x82:
 * a generic op with a pointer and four data words (40 bytes).
 */
#define KFD_ABI_DBG_TRAP_OLD_ENABLE			0
#define KFD_ABI_DBG_TRAP_OLD_SET_WAVE_LAUNCH_OVERRIDE	1
#define KFD_ABI_DBG_TRAP_OLD_SET_WAVE_LAUNCH_MODE	2
#define KFD_ABI_DBG_TRAP_OLD_NODE_SUSPEND		3
#define KFD_ABI_DBG_TRAP_OLD_NODE_RESUME		4
#define KFD_ABI_DBG_TRAP_OLD_QUERY_DEBUG_EVENT		5
#define KFD_ABI_DBG_TRAP_OLD_GET_QUEUE_SNAPSHOT		6
#define KFD_ABI_DBG_TRAP_OLD_GET_VERSION		7
#define KFD_ABI_DBG_TRAP_OLD_CLEAR_ADDRESS_WATCH	8
#define KFD_ABI_DBG_TRAP_OLD_SET_ADDRESS_WATCH		9
#define KFD_ABI_DBG_TRAP_OLD_SET_PRECISE_MEM_OPS	10
#define KFD_ABI_DBG_TRAP_OLD_QUERY_EXCEPTION_INFO	11
#define KFD_ABI_DBG_TRAP_OLD_DEVICE_SNAPSHOT		12
#define KFD_ABI_DBG_TRAP_OLD_RUNTIME_ENABLE		13
#define KFD_ABI_DBG_TRAP_OLD_SEND_RUNTIME_EVENT		14
#define KFD_ABI_DBG_TRAP_OLD_SET_EXCEPTIONS_ENABLED	15

struct kfd_abi_dbg_trap_old_args {
	uint64_t exception_mask;
	uint64_t ptr;			/* op-specific user pointer (r_debug for 13) */
	uint32_t pid;
	uint32_t op;			/* KFD_ABI_DBG_TRAP_OLD_* */
	uint32_t data1;
	uint32_t data2;
	uint32_t data3;
	uint32_t data4;
};

/*
 * Element sizes of the old snapshot ops (GET_QUEUE_SNAPSHOT: five u64, four
 * u32 and 18 reserved u32; DEVICE_SNAPSHOT: seven u64, gpu_id and a pad).
 */
#define KFD_ABI_DBG_TRAP_OLD_QUEUE_SNAPSHOT_ENTRY_SIZE	128
#define KFD_ABI_DBG_TRAP_OLD_DEVICE_SNAPSHOT_ENTRY_SIZE	64

/* CROSS_MEMORY_COPY flags: bit 0 set = write to the remote process. */
#define KFD_ABI_CROSS_MEMORY_RW_BIT	(1u << 0)

struct kfd_abi_memory_range {
	uint64_t va_addr;
	uint64_t size;
};

struct kfd_abi_cross_memory_copy_args {
	uint32_t pid;			/* in: remote process */
	uint32_t flags;			/* in */
	uint64_t src_mem_range_array;	/* in: kfd_abi_memory_range[src_mem_array_size] */
	uint64_t src_mem_array_size;
	uint64_t dst_mem_range_array;	/* in: kfd_abi_memory_range[dst_mem_array_size] */
	uint64_t dst_mem_array_size;
	uint64_t bytes_copied;		/* out */
};

#define KFD_ABI_SPM_OP_ACQUIRE		0
#define KFD_ABI_SPM_OP_RELEASE		1
#define KFD_ABI_SPM_OP_SET_DEST_BUF	2

struct kfd_abi_spm_args {
	uint64_t dest_buf;		/* in: filled asynchronously */
	uint32_t buf_size;		/* in */
	uint32_t op;			/* in: KFD_ABI_SPM_OP_* */
	uint32_t timeout;		/* in/out: ms */
	uint32_t gpu_id;		/* in */
	uint32_t bytes_copied;		/* out: valid bytes of the previous buffer */
	uint32_t has_data_loss;		/* out */
};

#define KFD_ABI_PCS_OP_QUERY_CAPABILITIES	0
#define KFD_ABI_PCS_OP_CREATE			1
#define KFD_ABI_PCS_OP_DESTROY			2
#define KFD_ABI_PCS_OP_START			3
#define KFD_ABI_PCS_OP_STOP			4

#define KFD_ABI_PCS_METHOD_HOSTTRAP		1
#define KFD_ABI_PCS_METHOD_STOCHASTIC		2

#define KFD_ABI_PCS_TYPE_TIME_US		0
#define KFD_ABI_PCS_TYPE_CLOCK_CYCLES		1
#define KFD_ABI_PCS_TYPE_INSTRUCTIONS		2

/* kfd_abi_pc_sample_info flags: the interval must be a power of 2. */
#define KFD_ABI_PCS_FLAG_POWER_OF_2		(1u << 0)

/* PC_SAMPLE flags: query every supported configuration, not the current. */
#define KFD_ABI_PCS_QUERY_TYPE_FULL		(1u << 0)

/* Element of PC_SAMPLE's sample_info array (40 bytes). */
struct kfd_abi_pc_sample_info {
	uint64_t interval;		/* in */
	uint64_t interval_min;		/* out */
	uint64_t interval_max;		/* out */
	uint64_t flags;			/* out */
	uint32_t method;		/* in/out: KFD_ABI_PCS_METHOD_* */
	uint32_t type;			/* in/out: KFD_ABI_PCS_TYPE_* */
};

struct kfd_abi_pc_sample_args {
	uint64_t sample_info_ptr;	/* kfd_abi_pc_sample_info[num_sample_info] */
	uint32_t num_sample_info;	/* in: capacity; out: count */
	uint32_t op;			/* KFD_ABI_PCS_OP_* */
	uint32_t gpu_id;
	uint32_t trace_id;		/* out on CREATE, in after */
	uint32_t flags;			/* KFD_ABI_PCS_QUERY_TYPE_FULL */
	uint32_t reserved;
};
/* Early ROCm kernels ended the struct after trace_id. */
#define KFD_ABI_PC_SAMPLE_ARGS_SIZE_V1	24

/*
 * PROFILER_DKMS (0x86): the ops and settings are 0x28's (kfd_abi.h), but
 * the union is 8-aligned here and has a PC_SAMPLE arm (40 bytes).
 */
struct kfd_abi_profiler_args {
	uint32_t op;			/* KFD_ABI_PROFILER_* */
	uint32_t pad;			/* the union is 8-aligned */
	union {
		struct kfd_abi_pc_sample_args pc_sample;
		struct kfd_abi_pmc_settings pmc;
		struct kfd_abi_ptl_control ptl;
		uint32_t version;
	};
};

#define KFD_ABI_AIS_READ	1	/* file -> VRAM */
#define KFD_ABI_AIS_WRITE	2	/* VRAM -> file */

struct kfd_abi_ais_in_args {
	uint64_t handle;		/* BO handle */
	uint64_t handle_offset;		/* byte offset inside the BO */
	uint64_t file_offset;
	uint64_t size;
	uint32_t op;			/* KFD_ABI_AIS_READ/WRITE */
	int32_t fd;			/* file to read or write */
};

struct kfd_abi_ais_out_args {
	uint64_t size_copied;
	int32_t status;
	uint32_t pad;
};

struct kfd_abi_ais_args {
	union {
		struct kfd_abi_ais_in_args in;
		struct kfd_abi_ais_out_args out;
	};
};

#endif /* KFDTRACE_KFD_ABI_ROCM_H */
