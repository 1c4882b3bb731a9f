/* SPDX-License-Identifier: MIT */
/*
 * Part of the /dev/kfd ioctl ABI (kfd_abi.h, which includes it where it
 * stands and has the conventions and the request codes): the debugger of ABI 1.13 (RUNTIME_ENABLE, DBG_TRAP and its operations, exceptions, snapshots).
 * Include <kfdtrace/kfd_abi.h>, not this.
 */
#ifndef KFDTRACE_KFD_ABI_DEBUG_H
#define KFDTRACE_KFD_ABI_DEBUG_H

#ifndef KFDTRACE_KFD_ABI_H
#error "include <kfdtrace/kfd_abi.h>, not <kfdtrace/kfd_abi_debug.h>"
#endif

/* ------------------------------------------------------------------ */
/* Debugger (1.13): 0x25 RUNTIME_ENABLE, 0x26 DBG_TRAP                 */
/* ------------------------------------------------------------------ */

#define KFD_ABI_DBG_TRAP_OVERRIDE_OR		0
#define KFD_ABI_DBG_TRAP_OVERRIDE_REPLACE	1

#define KFD_ABI_DBG_TRAP_MASK_FP_INVALID		(1u << 0)
#define KFD_ABI_DBG_TRAP_MASK_FP_INPUT_DENORMAL		(1u << 1)
#define KFD_ABI_DBG_TRAP_MASK_FP_DIVIDE_BY_ZERO		(1u << 2)
#define KFD_ABI_DBG_TRAP_MASK_FP_OVERFLOW		(1u << 3)
#define KFD_ABI_DBG_TRAP_MASK_FP_UNDERFLOW		(1u << 4)
#define KFD_ABI_DBG_TRAP_MASK_FP_INEXACT		(1u << 5)
#define KFD_ABI_DBG_TRAP_MASK_INT_DIVIDE_BY_ZERO	(1u << 6)
#define KFD_ABI_DBG_TRAP_MASK_DBG_ADDRESS_WATCH		(1u << 7)
#define KFD_ABI_DBG_TRAP_MASK_DBG_MEMORY_VIOLATION	(1u << 8)
#define KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START	(1u << 30)
#define KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_END		(1u << 31)

#define KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_NORMAL	0
#define KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_HALT		1
#define KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_DEBUG		3

#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_READ	0
#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_NONREAD	1
#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ATOMIC	2
#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ALL		3

#define KFD_ABI_DBG_TRAP_FLAG_SINGLE_MEM_OP		(1u << 0)
#define KFD_ABI_DBG_TRAP_FLAG_SINGLE_ALU_OP		(1u << 1)
#define KFD_ABI_DBG_TRAP_FLAG_LDS_OUT_OF_ADDR_RANGE	(1u << 2)	/* 1.21 */

/* Exception codes; KFD_ABI_EC_MASK(ec) is the bit in an exception mask. */
#define KFD_ABI_EC_NONE						0
#define KFD_ABI_EC_QUEUE_WAVE_ABORT				1
#define KFD_ABI_EC_QUEUE_WAVE_TRAP				2
#define KFD_ABI_EC_QUEUE_WAVE_MATH_ERROR			3
#define KFD_ABI_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION		4
#define KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION			5
#define KFD_ABI_EC_QUEUE_WAVE_APERTURE_VIOLATION		6
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID		16
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID 17
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID		18
#define KFD_ABI_EC_QUEUE_PACKET_RESERVED			19
#define KFD_ABI_EC_QUEUE_PACKET_UNSUPPORTED			20
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID 21
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_REGISTER_INVALID	22
#define KFD_ABI_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED		23
#define KFD_ABI_EC_QUEUE_PREEMPTION_ERROR			30
#define KFD_ABI_EC_QUEUE_NEW					31
#define KFD_ABI_EC_DEVICE_QUEUE_DELETE				32
#define KFD_ABI_EC_DEVICE_MEMORY_VIOLATION			33
#define KFD_ABI_EC_DEVICE_RAS_ERROR				34
#define KFD_ABI_EC_DEVICE_FATAL_HALT				35
#define KFD_ABI_EC_DEVICE_NEW					36
#define KFD_ABI_EC_PROCESS_RUNTIME				48
#define KFD_ABI_EC_PROCESS_DEVICE_REMOVE			49
#define KFD_ABI_EC_MAX						50
#define KFD_ABI_EC_MASK(ec)		(1ULL << ((ec) - 1))

#define KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED		0
#define KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED		1
#define KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED_BUSY	2
#define KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED_ERROR	3

/* RUNTIME_ENABLE mode_mask bits */
#define KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK		(1u << 0)
#define KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK	(1u << 1)
/* RUNTIME_ENABLE capabilities_mask bits (out) */
#define KFD_ABI_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK (1u << 31)

/* Per-queue status bits written back by SUSPEND/RESUME_QUEUES. */
#define KFD_ABI_DBG_QUEUE_ERROR_BIT	30
#define KFD_ABI_DBG_QUEUE_INVALID_BIT	31
#define KFD_ABI_DBG_QUEUE_ERROR_MASK	(1u << KFD_ABI_DBG_QUEUE_ERROR_BIT)
#define KFD_ABI_DBG_QUEUE_INVALID_MASK	(1u << KFD_ABI_DBG_QUEUE_INVALID_BIT)
/* Both status bits; the queue id is what lies below them. */
#define KFD_ABI_DBG_QUEUE_STATUS_MASK	(KFD_ABI_DBG_QUEUE_ERROR_MASK | \
					 KFD_ABI_DBG_QUEUE_INVALID_MASK)

struct kfd_abi_runtime_info {
	uint64_t r_debug;
	uint32_t runtime_state;		/* KFD_ABI_DEBUG_RUNTIME_STATE_* */
	uint32_t ttmp_setup;
};

struct kfd_abi_runtime_enable_args {
	uint64_t r_debug;		/* in: ROCr's r_debug address, kept */
	uint32_t mode_mask;		/* in */
	uint32_t capabilities_mask;	/* out */
};

/* Element of GET_QUEUE_SNAPSHOT (64 bytes). */
struct kfd_abi_queue_snapshot_entry {
	uint64_t exception_status;
	uint64_t ring_base_address;
	uint64_t write_pointer_address;
	uint64_t read_pointer_address;
	uint64_t ctx_save_restore_address;
	uint32_t queue_id;
	uint32_t gpu_id;
	uint32_t ring_size;
	uint32_t queue_type;
	uint32_t ctx_save_restore_area_size;
	uint32_t reserved;
};

/*
 * Element of GET_DEVICE_SNAPSHOT: 128 bytes since capability2 (no ABI
 * bump), 120 before. The caller's entry_size sets the stride; the kernel
 * copies min(entry_size, its size) bytes of each entry.
 */
struct kfd_abi_dbg_device_info_entry {
	uint64_t exception_status;
	uint64_t lds_base;
	uint64_t lds_limit;
	uint64_t scratch_base;
	uint64_t scratch_limit;
	uint64_t gpuvm_base;
	uint64_t gpuvm_limit;
	uint32_t gpu_id;
	uint32_t location_id;
	uint32_t vendor_id;
	uint32_t device_id;
	uint32_t revision_id;
	uint32_t subsystem_vendor_id;
	uint32_t subsystem_device_id;
	uint32_t fw_version;
	uint32_t gfx_target_version;
	uint32_t simd_count;
	uint32_t max_waves_per_simd;
	uint32_t array_count;
	uint32_t simd_arrays_per_engine;
	uint32_t num_xcc;
	uint32_t capability;
	uint32_t debug_prop;
	uint32_t capability2;		/* KFD_ABI_CAP2_* */
	uint32_t pad;
};
/* The entry size before capability2. */
#define KFD_ABI_DBG_DEVICE_INFO_ENTRY_SIZE_120	120

/* Node capability2 bits (sysfs "capability2", 1.21). */
#define KFD_ABI_CAP2_PER_SDMA_QUEUE_RESET_SUPPORTED		0x1u
#define KFD_ABI_CAP2_TRAP_DEBUG_LDS_OUT_OF_ADDR_RANGE_SUPPORTED	0x2u

/* Header the kernel writes at the start of a queue's context save area. */
struct kfd_abi_context_save_area_header {
	struct {
		uint32_t control_stack_offset;
		uint32_t control_stack_size;
		uint32_t wave_state_offset;
		uint32_t wave_state_size;
	} wave_state;
	uint32_t debug_offset;
	uint32_t debug_size;
	uint64_t err_payload_addr;
	uint32_t err_event_id;
	uint32_t reserved1;
};

#define KFD_ABI_DBG_TRAP_ENABLE				0
#define KFD_ABI_DBG_TRAP_DISABLE			1
#define KFD_ABI_DBG_TRAP_SEND_RUNTIME_EVENT		2
#define KFD_ABI_DBG_TRAP_SET_EXCEPTIONS_ENABLED		3
#define KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE	4
#define KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE		5
#define KFD_ABI_DBG_TRAP_SUSPEND_QUEUES			6
#define KFD_ABI_DBG_TRAP_RESUME_QUEUES			7
#define KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH		8
#define KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH	9
#define KFD_ABI_DBG_TRAP_SET_FLAGS			10
#define KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT		11
#define KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO		12
#define KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT		13
#define KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT		14

struct kfd_abi_dbg_trap_enable_args {
	uint64_t exception_mask;	/* in */
	uint64_t rinfo_ptr;		/* in: runtime info copied out here */
	uint32_t rinfo_size;		/* in/out */
	uint32_t dbg_fd;		/* in: eventfd-like notifier */
};

struct kfd_abi_dbg_trap_send_runtime_event_args {
	uint64_t exception_mask;
	uint32_t gpu_id;
	uint32_t queue_id;
};

struct kfd_abi_dbg_trap_set_exceptions_enabled_args {
	uint64_t exception_mask;
};

struct kfd_abi_dbg_trap_set_wave_launch_override_args {
	uint32_t override_mode;
	uint32_t enable_mask;		/* in/out */
	uint32_t support_request_mask;	/* in/out */
	uint32_t pad;
};

struct kfd_abi_dbg_trap_set_wave_launch_mode_args {
	uint32_t launch_mode;
	uint32_t pad;
};

struct kfd_abi_dbg_trap_suspend_queues_args {
	uint64_t exception_mask;
	uint64_t queue_array_ptr;	/* in/out: u32 queue ids[num_queues] */
	uint32_t num_queues;
	uint32_t grace_period;
};

struct kfd_abi_dbg_trap_resume_queues_args {
	uint64_t queue_array_ptr;	/* in/out: u32 queue ids[num_queues] */
	uint32_t num_queues;
	uint32_t pad;
};

struct kfd_abi_dbg_trap_set_node_address_watch_args {
	uint64_t address;
	uint32_t mode;
	uint32_t mask;
	uint32_t gpu_id;
	uint32_t id;			/* out */
};

struct kfd_abi_dbg_trap_clear_node_address_watch_args {
	uint32_t gpu_id;
	uint32_t id;
};

struct kfd_abi_dbg_trap_set_flags_args {
	uint32_t flags;			/* in; out: previous flags */
	uint32_t pad;
};

struct kfd_abi_dbg_trap_query_debug_event_args {
	uint64_t exception_mask;	/* in: to clear; out: raised */
	uint32_t gpu_id;		/* out */
	uint32_t queue_id;		/* out */
};

struct kfd_abi_dbg_trap_query_exception_info_args {
	uint64_t info_ptr;		/* in: info_size bytes copied out */
	uint32_t info_size;		/* in/out */
	uint32_t source_id;
	uint32_t exception_code;
	uint32_t clear_exception;
};

struct kfd_abi_dbg_trap_queue_snapshot_args {
	uint64_t exception_mask;
	uint64_t snapshot_buf_ptr;	/* num_queues entries of entry_size bytes */
	uint32_t num_queues;		/* in: capacity; out: queues that exist */
	uint32_t entry_size;		/* in/out */
};

struct kfd_abi_dbg_trap_device_snapshot_args {
	uint64_t exception_mask;
	uint64_t snapshot_buf_ptr;
	uint32_t num_devices;
	uint32_t entry_size;
};

/* DBG_TRAP 0x26: the op selects one arm of the union (32 bytes total). */
struct kfd_abi_dbg_trap_args {
	uint32_t pid;
	uint32_t op;			/* KFD_ABI_DBG_TRAP_* */
	union {
		struct kfd_abi_dbg_trap_enable_args enable;
		struct kfd_abi_dbg_trap_send_runtime_event_args send_runtime_event;
		struct kfd_abi_dbg_trap_set_exceptions_enabled_args set_exceptions_enabled;
		struct kfd_abi_dbg_trap_set_wave_launch_override_args launch_override;
		struct kfd_abi_dbg_trap_set_wave_launch_mode_args launch_mode;
		struct kfd_abi_dbg_trap_suspend_queues_args suspend_queues;
		struct kfd_abi_dbg_trap_resume_queues_args resume_queues;
		struct kfd_abi_dbg_trap_set_node_address_watch_args set_node_address_watch;
		struct kfd_abi_dbg_trap_clear_node_address_watch_args clear_node_address_watch;
		struct kfd_abi_dbg_trap_set_flags_args set_flags;
		struct kfd_abi_dbg_trap_query_debug_event_args query_debug_event;
		struct kfd_abi_dbg_trap_query_exception_info_args query_exception_info;
		struct kfd_abi_dbg_trap_queue_snapshot_args queue_snapshot;
		struct kfd_abi_dbg_trap_device_snapshot_args device_snapshot;
	};
};

#endif /* KFDTRACE_KFD_ABI_DEBUG_H */
