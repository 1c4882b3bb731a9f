// SPDX-License-Identifier: MIT
/*
 * Flag and enum name tables of the KFD ioctls. Flag tables hold one entry
 * per bit (value is the mask); enum tables one entry per value. Decoders
 * print unknown bits or values numerically, so a table may lag the kernel.
 */
#include <fcntl.h>

#include "schema_priv.h"

#define KS_TABLE(var, tname, arr)					\
	const struct kfd_name_table var = {				\
		.name = tname,						\
		.entries = arr,						\
		.count = KS_ARRAY_SIZE(arr),				\
	}

#define N(prefix, x)	{ prefix##x, #x }

static const struct kfd_name alloc_flags[] = {
	N(KFD_ABI_ALLOC_MEM_FLAGS_, VRAM),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, GTT),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, USERPTR),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, DOORBELL),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, MMIO_REMAP),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, USERPTR_BATCH),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, CONTIGUOUS),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, EXT_COHERENT),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, UNCACHED),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, COHERENT),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, AQL_QUEUE_MEM),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, NO_SUBSTITUTE),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, PUBLIC),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, EXECUTABLE),
	N(KFD_ABI_ALLOC_MEM_FLAGS_, WRITABLE),
};
KS_TABLE(ks_alloc_flags, "alloc_flags", alloc_flags);

static const struct kfd_name queue_type[] = {
	N(KFD_ABI_QUEUE_TYPE_, COMPUTE),
	N(KFD_ABI_QUEUE_TYPE_, SDMA),
	N(KFD_ABI_QUEUE_TYPE_, COMPUTE_AQL),
	N(KFD_ABI_QUEUE_TYPE_, SDMA_XGMI),
	N(KFD_ABI_QUEUE_TYPE_, SDMA_BY_ENG_ID),
};
KS_TABLE(ks_queue_type, "queue_type", queue_type);

static const struct kfd_name cache_policy[] = {
	N(KFD_ABI_CACHE_POLICY_, COHERENT),
	N(KFD_ABI_CACHE_POLICY_, NONCOHERENT),
};
KS_TABLE(ks_cache_policy, "cache_policy", cache_policy);

static const struct kfd_name proc_flags[] = {
	N(KFD_ABI_PROC_FLAG_, MFMA_HIGH_PRECISION),
};
KS_TABLE(ks_proc_flags, "proc_flags", proc_flags);

static const struct kfd_name event_type[] = {
	N(KFD_ABI_EVENT_, SIGNAL),
	N(KFD_ABI_EVENT_, NODECHANGE),
	N(KFD_ABI_EVENT_, DEVICESTATECHANGE),
	N(KFD_ABI_EVENT_, HW_EXCEPTION),
	N(KFD_ABI_EVENT_, SYSTEM_EVENT),
	N(KFD_ABI_EVENT_, DEBUG_EVENT),
	N(KFD_ABI_EVENT_, PROFILE_EVENT),
	N(KFD_ABI_EVENT_, QUEUE_EVENT),
	N(KFD_ABI_EVENT_, MEMORY),
};
KS_TABLE(ks_event_type, "event_type", event_type);

static const struct kfd_name wait_result[] = {
	N(KFD_ABI_WAIT_RESULT_, COMPLETE),
	N(KFD_ABI_WAIT_RESULT_, TIMEOUT),
	N(KFD_ABI_WAIT_RESULT_, FAIL),
};
KS_TABLE(ks_wait_result, "wait_result", wait_result);

static const struct kfd_name svm_op[] = {
	N(KFD_ABI_SVM_OP_, SET_ATTR),
	N(KFD_ABI_SVM_OP_, GET_ATTR),
};
KS_TABLE(ks_svm_op, "svm_op", svm_op);

static const struct kfd_name svm_attr_type[] = {
	N(KFD_ABI_SVM_ATTR_, PREFERRED_LOC),
	N(KFD_ABI_SVM_ATTR_, PREFETCH_LOC),
	N(KFD_ABI_SVM_ATTR_, ACCESS),
	N(KFD_ABI_SVM_ATTR_, ACCESS_IN_PLACE),
	N(KFD_ABI_SVM_ATTR_, NO_ACCESS),
	N(KFD_ABI_SVM_ATTR_, SET_FLAGS),
	N(KFD_ABI_SVM_ATTR_, CLR_FLAGS),
	N(KFD_ABI_SVM_ATTR_, GRANULARITY),
};
KS_TABLE(ks_svm_attr_type, "svm_attr_type", svm_attr_type);

static const struct kfd_name svm_flags[] = {
	N(KFD_ABI_SVM_FLAG_, HOST_ACCESS),
	N(KFD_ABI_SVM_FLAG_, COHERENT),
	N(KFD_ABI_SVM_FLAG_, HIVE_LOCAL),
	N(KFD_ABI_SVM_FLAG_, GPU_RO),
	N(KFD_ABI_SVM_FLAG_, GPU_EXEC),
	N(KFD_ABI_SVM_FLAG_, GPU_READ_MOSTLY),
	N(KFD_ABI_SVM_FLAG_, GPU_ALWAYS_MAPPED),
	N(KFD_ABI_SVM_FLAG_, EXT_COHERENT),
};
KS_TABLE(ks_svm_flags, "svm_flags", svm_flags);

static const struct kfd_name criu_op[] = {
	N(KFD_ABI_CRIU_OP_, PROCESS_INFO),
	N(KFD_ABI_CRIU_OP_, CHECKPOINT),
	N(KFD_ABI_CRIU_OP_, UNPAUSE),
	N(KFD_ABI_CRIU_OP_, RESTORE),
	N(KFD_ABI_CRIU_OP_, RESUME),
};
KS_TABLE(ks_criu_op, "criu_op", criu_op);

static const struct kfd_name runtime_mode[] = {
	{ KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK, "ENABLE" },
	{ KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK, "TTMP_SAVE" },
};
KS_TABLE(ks_runtime_mode, "runtime_enable_mode", runtime_mode);

static const struct kfd_name runtime_caps[] = {
	{ KFD_ABI_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK, "SUPPORTS_CORE_DUMP" },
};
KS_TABLE(ks_runtime_caps, "runtime_enable_caps", runtime_caps);

static const struct kfd_name dbg_trap_op[] = {
	N(KFD_ABI_DBG_TRAP_, ENABLE),
	N(KFD_ABI_DBG_TRAP_, DISABLE),
	N(KFD_ABI_DBG_TRAP_, SEND_RUNTIME_EVENT),
	N(KFD_ABI_DBG_TRAP_, SET_EXCEPTIONS_ENABLED),
	N(KFD_ABI_DBG_TRAP_, SET_WAVE_LAUNCH_OVERRIDE),
	N(KFD_ABI_DBG_TRAP_, SET_WAVE_LAUNCH_MODE),
	N(KFD_ABI_DBG_TRAP_, SUSPEND_QUEUES),
	N(KFD_ABI_DBG_TRAP_, RESUME_QUEUES),
	N(KFD_ABI_DBG_TRAP_, SET_NODE_ADDRESS_WATCH),
	N(KFD_ABI_DBG_TRAP_, CLEAR_NODE_ADDRESS_WATCH),
	N(KFD_ABI_DBG_TRAP_, SET_FLAGS),
	N(KFD_ABI_DBG_TRAP_, QUERY_DEBUG_EVENT),
	N(KFD_ABI_DBG_TRAP_, QUERY_EXCEPTION_INFO),
	N(KFD_ABI_DBG_TRAP_, GET_QUEUE_SNAPSHOT),
	N(KFD_ABI_DBG_TRAP_, GET_DEVICE_SNAPSHOT),
};
KS_TABLE(ks_dbg_trap_op, "dbg_trap_op", dbg_trap_op);

static const struct kfd_name dbg_trap_old_op[] = {
	N(KFD_ABI_DBG_TRAP_OLD_, ENABLE),
	N(KFD_ABI_DBG_TRAP_OLD_, SET_WAVE_LAUNCH_OVERRIDE),
	N(KFD_ABI_DBG_TRAP_OLD_, SET_WAVE_LAUNCH_MODE),
	N(KFD_ABI_DBG_TRAP_OLD_, NODE_SUSPEND),
	N(KFD_ABI_DBG_TRAP_OLD_, NODE_RESUME),
	N(KFD_ABI_DBG_TRAP_OLD_, QUERY_DEBUG_EVENT),
	N(KFD_ABI_DBG_TRAP_OLD_, GET_QUEUE_SNAPSHOT),
	N(KFD_ABI_DBG_TRAP_OLD_, GET_VERSION),
	N(KFD_ABI_DBG_TRAP_OLD_, CLEAR_ADDRESS_WATCH),
	N(KFD_ABI_DBG_TRAP_OLD_, SET_ADDRESS_WATCH),
	N(KFD_ABI_DBG_TRAP_OLD_, SET_PRECISE_MEM_OPS),
	N(KFD_ABI_DBG_TRAP_OLD_, QUERY_EXCEPTION_INFO),
	N(KFD_ABI_DBG_TRAP_OLD_, DEVICE_SNAPSHOT),
	N(KFD_ABI_DBG_TRAP_OLD_, RUNTIME_ENABLE),
	N(KFD_ABI_DBG_TRAP_OLD_, SEND_RUNTIME_EVENT),
	N(KFD_ABI_DBG_TRAP_OLD_, SET_EXCEPTIONS_ENABLED),
};
KS_TABLE(ks_dbg_trap_old_op, "dbg_trap_old_op", dbg_trap_old_op);

/* Exception masks: bit (code - 1) per exception code. */
#define EC(x)	{ KFD_ABI_EC_MASK(KFD_ABI_EC_##x), #x }
static const struct kfd_name exception_mask[] = {
	EC(QUEUE_WAVE_ABORT),
	EC(QUEUE_WAVE_TRAP),
	EC(QUEUE_WAVE_MATH_ERROR),
	EC(QUEUE_WAVE_ILLEGAL_INSTRUCTION),
	EC(QUEUE_WAVE_MEMORY_VIOLATION),
	EC(QUEUE_WAVE_APERTURE_VIOLATION),
	EC(QUEUE_PACKET_DISPATCH_DIM_INVALID),
	EC(QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID),
	EC(QUEUE_PACKET_DISPATCH_CODE_INVALID),
	EC(QUEUE_PACKET_RESERVED),
	EC(QUEUE_PACKET_UNSUPPORTED),
	EC(QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID),
	EC(QUEUE_PACKET_DISPATCH_REGISTER_INVALID),
	EC(QUEUE_PACKET_VENDOR_UNSUPPORTED),
	EC(QUEUE_PREEMPTION_ERROR),
	EC(QUEUE_NEW),
	EC(DEVICE_QUEUE_DELETE),
	EC(DEVICE_MEMORY_VIOLATION),
	EC(DEVICE_RAS_ERROR),
	EC(DEVICE_FATAL_HALT),
	EC(DEVICE_NEW),
	EC(PROCESS_RUNTIME),
	EC(PROCESS_DEVICE_REMOVE),
};
KS_TABLE(ks_exception_mask, "exception_mask", exception_mask);

static const struct kfd_name trap_mask[] = {
	N(KFD_ABI_DBG_TRAP_MASK_, FP_INVALID),
	N(KFD_ABI_DBG_TRAP_MASK_, FP_INPUT_DENORMAL),
	N(KFD_ABI_DBG_TRAP_MASK_, FP_DIVIDE_BY_ZERO),
	N(KFD_ABI_DBG_TRAP_MASK_, FP_OVERFLOW),
	N(KFD_ABI_DBG_TRAP_MASK_, FP_UNDERFLOW),
	N(KFD_ABI_DBG_TRAP_MASK_, FP_INEXACT),
	N(KFD_ABI_DBG_TRAP_MASK_, INT_DIVIDE_BY_ZERO),
	N(KFD_ABI_DBG_TRAP_MASK_, DBG_ADDRESS_WATCH),
	N(KFD_ABI_DBG_TRAP_MASK_, DBG_MEMORY_VIOLATION),
	N(KFD_ABI_DBG_TRAP_MASK_, TRAP_ON_WAVE_START),
	N(KFD_ABI_DBG_TRAP_MASK_, TRAP_ON_WAVE_END),
};
KS_TABLE(ks_trap_mask, "trap_mask", trap_mask);

static const struct kfd_name override_mode[] = {
	N(KFD_ABI_DBG_TRAP_OVERRIDE_, OR),
	N(KFD_ABI_DBG_TRAP_OVERRIDE_, REPLACE),
};
KS_TABLE(ks_override_mode, "override_mode", override_mode);

static const struct kfd_name launch_mode[] = {
	N(KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_, NORMAL),
	N(KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_, HALT),
	N(KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_, DEBUG),
};
KS_TABLE(ks_launch_mode, "wave_launch_mode", launch_mode);

static const struct kfd_name watch_mode[] = {
	N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, READ),
	N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, NONREAD),
	N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, ATOMIC),
	N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, ALL),
};
KS_TABLE(ks_watch_mode, "address_watch_mode", watch_mode);

static const struct kfd_name dbg_flags[] = {
	N(KFD_ABI_DBG_TRAP_FLAG_, SINGLE_MEM_OP),
	N(KFD_ABI_DBG_TRAP_FLAG_, SINGLE_ALU_OP),
	N(KFD_ABI_DBG_TRAP_FLAG_, LDS_OUT_OF_ADDR_RANGE),
};
KS_TABLE(ks_dbg_flags, "dbg_trap_flags", dbg_flags);

/* dma-buf and PRIME fd flags are open(2) flags. */
static const struct kfd_name fd_flags[] = {
	{ O_WRONLY, "O_WRONLY" },
	{ O_RDWR, "O_RDWR" },
	{ O_CLOEXEC, "O_CLOEXEC" },
};
KS_TABLE(ks_fd_flags, "fd_flags", fd_flags);

static const struct kfd_name cross_memory_flags[] = {
	{ KFD_ABI_CROSS_MEMORY_RW_BIT, "WRITE" },
};
KS_TABLE(ks_cross_memory_flags, "cross_memory_flags", cross_memory_flags);

static const struct kfd_name spm_op[] = {
	N(KFD_ABI_SPM_OP_, ACQUIRE),
	N(KFD_ABI_SPM_OP_, RELEASE),
	N(KFD_ABI_SPM_OP_, SET_DEST_BUF),
};
KS_TABLE(ks_spm_op, "spm_op", spm_op);

static const struct kfd_name pcs_op[] = {
	N(KFD_ABI_PCS_OP_, QUERY_CAPABILITIES),
	N(KFD_ABI_PCS_OP_, CREATE),
	N(KFD_ABI_PCS_OP_, DESTROY),
	N(KFD_ABI_PCS_OP_, START),
	N(KFD_ABI_PCS_OP_, STOP),
};
KS_TABLE(ks_pcs_op, "pc_sample_op", pcs_op);

static const struct kfd_name pcs_method[] = {
	N(KFD_ABI_PCS_METHOD_, HOSTTRAP),
	N(KFD_ABI_PCS_METHOD_, STOCHASTIC),
};
KS_TABLE(ks_pcs_method, "pc_sample_method", pcs_method);

static const struct kfd_name pcs_type[] = {
	N(KFD_ABI_PCS_TYPE_, TIME_US),
	N(KFD_ABI_PCS_TYPE_, CLOCK_CYCLES),
	N(KFD_ABI_PCS_TYPE_, INSTRUCTIONS),
};
KS_TABLE(ks_pcs_type, "pc_sample_type", pcs_type);

static const struct kfd_name pcs_flags[] = {
	N(KFD_ABI_PCS_, QUERY_TYPE_FULL),
};
KS_TABLE(ks_pcs_flags, "pc_sample_flags", pcs_flags);

static const struct kfd_name profiler_op[] = {
	N(KFD_ABI_PROFILER_, PMC),
	N(KFD_ABI_PROFILER_, PC_SAMPLE),
	N(KFD_ABI_PROFILER_, VERSION),
	N(KFD_ABI_PROFILER_, PTL_CONTROL),
};
KS_TABLE(ks_profiler_op, "profiler_op", profiler_op);

static const struct kfd_name ais_op[] = {
	N(KFD_ABI_AIS_, READ),
	N(KFD_ABI_AIS_, WRITE),
};
KS_TABLE(ks_ais_op, "ais_op", ais_op);
