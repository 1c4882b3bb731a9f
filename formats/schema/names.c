/* SPDX-License-Identifier: MIT */
/*
 * Flag and enum name tables of the KFD ioctls. Flag tables hold one entry
 * per bit (value is the mask); enum tables one entry per value. Decoders
 * print unknown bits or values numerically, so a table may lag the kernel.
 */
#include <fcntl.h>

#include "schema_priv.h"

static const struct kfd_name alloc_flags[] = {
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, VRAM),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, GTT),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, USERPTR),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, DOORBELL),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, MMIO_REMAP),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, USERPTR_BATCH),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, CONTIGUOUS),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, EXT_COHERENT),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, UNCACHED),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, COHERENT),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, AQL_QUEUE_MEM),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, NO_SUBSTITUTE),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, PUBLIC),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, EXECUTABLE),
	KS_N(KFD_ABI_ALLOC_MEM_FLAGS_, WRITABLE),
};
KS_TABLE(ks_alloc_flags, "alloc_flags", alloc_flags);

static const struct kfd_name queue_type[] = {
	KS_N(KFD_ABI_QUEUE_TYPE_, COMPUTE),
	KS_N(KFD_ABI_QUEUE_TYPE_, SDMA),
	KS_N(KFD_ABI_QUEUE_TYPE_, COMPUTE_AQL),
	KS_N(KFD_ABI_QUEUE_TYPE_, SDMA_XGMI),
	KS_N(KFD_ABI_QUEUE_TYPE_, SDMA_BY_ENG_ID),
};
KS_TABLE(ks_queue_type, "queue_type", queue_type);

static const struct kfd_name cache_policy[] = {
	KS_N(KFD_ABI_CACHE_POLICY_, COHERENT),
	KS_N(KFD_ABI_CACHE_POLICY_, NONCOHERENT),
};
KS_TABLE(ks_cache_policy, "cache_policy", cache_policy);

static const struct kfd_name proc_flags[] = {
	KS_N(KFD_ABI_PROC_FLAG_, MFMA_HIGH_PRECISION),
};
KS_TABLE(ks_proc_flags, "proc_flags", proc_flags);

static const struct kfd_name event_type[] = {
	KS_N(KFD_ABI_EVENT_, SIGNAL),
	KS_N(KFD_ABI_EVENT_, NODECHANGE),
	KS_N(KFD_ABI_EVENT_, DEVICESTATECHANGE),
	KS_N(KFD_ABI_EVENT_, HW_EXCEPTION),
	KS_N(KFD_ABI_EVENT_, SYSTEM_EVENT),
	KS_N(KFD_ABI_EVENT_, DEBUG_EVENT),
	KS_N(KFD_ABI_EVENT_, PROFILE_EVENT),
	KS_N(KFD_ABI_EVENT_, QUEUE_EVENT),
	KS_N(KFD_ABI_EVENT_, MEMORY),
};
KS_TABLE(ks_event_type, "event_type", event_type);

static const struct kfd_name wait_result[] = {
	KS_N(KFD_ABI_WAIT_RESULT_, COMPLETE),
	KS_N(KFD_ABI_WAIT_RESULT_, TIMEOUT),
	KS_N(KFD_ABI_WAIT_RESULT_, FAIL),
};
KS_TABLE(ks_wait_result, "wait_result", wait_result);

static const struct kfd_name svm_op[] = {
	KS_N(KFD_ABI_SVM_OP_, SET_ATTR),
	KS_N(KFD_ABI_SVM_OP_, GET_ATTR),
};
KS_TABLE(ks_svm_op, "svm_op", svm_op);

static const struct kfd_name svm_attr_type[] = {
	KS_N(KFD_ABI_SVM_ATTR_, PREFERRED_LOC),
	KS_N(KFD_ABI_SVM_ATTR_, PREFETCH_LOC),
	KS_N(KFD_ABI_SVM_ATTR_, ACCESS),
	KS_N(KFD_ABI_SVM_ATTR_, ACCESS_IN_PLACE),
	KS_N(KFD_ABI_SVM_ATTR_, NO_ACCESS),
	KS_N(KFD_ABI_SVM_ATTR_, SET_FLAGS),
	KS_N(KFD_ABI_SVM_ATTR_, CLR_FLAGS),
	KS_N(KFD_ABI_SVM_ATTR_, GRANULARITY),
};
KS_TABLE(ks_svm_attr_type, "svm_attr_type", svm_attr_type);

static const struct kfd_name svm_flags[] = {
	KS_N(KFD_ABI_SVM_FLAG_, HOST_ACCESS),
	KS_N(KFD_ABI_SVM_FLAG_, COHERENT),
	KS_N(KFD_ABI_SVM_FLAG_, HIVE_LOCAL),
	KS_N(KFD_ABI_SVM_FLAG_, GPU_RO),
	KS_N(KFD_ABI_SVM_FLAG_, GPU_EXEC),
	KS_N(KFD_ABI_SVM_FLAG_, GPU_READ_MOSTLY),
	KS_N(KFD_ABI_SVM_FLAG_, GPU_ALWAYS_MAPPED),
	KS_N(KFD_ABI_SVM_FLAG_, EXT_COHERENT),
};
KS_TABLE(ks_svm_flags, "svm_flags", svm_flags);

static const struct kfd_name criu_op[] = {
	KS_N(KFD_ABI_CRIU_OP_, PROCESS_INFO),
	KS_N(KFD_ABI_CRIU_OP_, CHECKPOINT),
	KS_N(KFD_ABI_CRIU_OP_, UNPAUSE),
	KS_N(KFD_ABI_CRIU_OP_, RESTORE),
	KS_N(KFD_ABI_CRIU_OP_, RESUME),
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
	KS_N(KFD_ABI_DBG_TRAP_, ENABLE),
	KS_N(KFD_ABI_DBG_TRAP_, DISABLE),
	KS_N(KFD_ABI_DBG_TRAP_, SEND_RUNTIME_EVENT),
	KS_N(KFD_ABI_DBG_TRAP_, SET_EXCEPTIONS_ENABLED),
	KS_N(KFD_ABI_DBG_TRAP_, SET_WAVE_LAUNCH_OVERRIDE),
	KS_N(KFD_ABI_DBG_TRAP_, SET_WAVE_LAUNCH_MODE),
	KS_N(KFD_ABI_DBG_TRAP_, SUSPEND_QUEUES),
	KS_N(KFD_ABI_DBG_TRAP_, RESUME_QUEUES),
	KS_N(KFD_ABI_DBG_TRAP_, SET_NODE_ADDRESS_WATCH),
	KS_N(KFD_ABI_DBG_TRAP_, CLEAR_NODE_ADDRESS_WATCH),
	KS_N(KFD_ABI_DBG_TRAP_, SET_FLAGS),
	KS_N(KFD_ABI_DBG_TRAP_, QUERY_DEBUG_EVENT),
	KS_N(KFD_ABI_DBG_TRAP_, QUERY_EXCEPTION_INFO),
	KS_N(KFD_ABI_DBG_TRAP_, GET_QUEUE_SNAPSHOT),
	KS_N(KFD_ABI_DBG_TRAP_, GET_DEVICE_SNAPSHOT),
};
KS_TABLE(ks_dbg_trap_op, "dbg_trap_op", dbg_trap_op);

static const struct kfd_name dbg_trap_old_op[] = {
	KS_N(KFD_ABI_DBG_TRAP_OLD_, ENABLE),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, SET_WAVE_LAUNCH_OVERRIDE),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, SET_WAVE_LAUNCH_MODE),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, NODE_SUSPEND),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, NODE_RESUME),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, QUERY_DEBUG_EVENT),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, GET_QUEUE_SNAPSHOT),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, GET_VERSION),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, CLEAR_ADDRESS_WATCH),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, SET_ADDRESS_WATCH),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, SET_PRECISE_MEM_OPS),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, QUERY_EXCEPTION_INFO),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, DEVICE_SNAPSHOT),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, RUNTIME_ENABLE),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, SEND_RUNTIME_EVENT),
	KS_N(KFD_ABI_DBG_TRAP_OLD_, SET_EXCEPTIONS_ENABLED),
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
	KS_N(KFD_ABI_DBG_TRAP_MASK_, FP_INVALID),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, FP_INPUT_DENORMAL),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, FP_DIVIDE_BY_ZERO),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, FP_OVERFLOW),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, FP_UNDERFLOW),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, FP_INEXACT),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, INT_DIVIDE_BY_ZERO),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, DBG_ADDRESS_WATCH),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, DBG_MEMORY_VIOLATION),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, TRAP_ON_WAVE_START),
	KS_N(KFD_ABI_DBG_TRAP_MASK_, TRAP_ON_WAVE_END),
};
KS_TABLE(ks_trap_mask, "trap_mask", trap_mask);

static const struct kfd_name override_mode[] = {
	KS_N(KFD_ABI_DBG_TRAP_OVERRIDE_, OR),
	KS_N(KFD_ABI_DBG_TRAP_OVERRIDE_, REPLACE),
};
KS_TABLE(ks_override_mode, "override_mode", override_mode);

static const struct kfd_name launch_mode[] = {
	KS_N(KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_, NORMAL),
	KS_N(KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_, HALT),
	KS_N(KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_, DEBUG),
};
KS_TABLE(ks_launch_mode, "wave_launch_mode", launch_mode);

static const struct kfd_name watch_mode[] = {
	KS_N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, READ),
	KS_N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, NONREAD),
	KS_N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, ATOMIC),
	KS_N(KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_, ALL),
};
KS_TABLE(ks_watch_mode, "address_watch_mode", watch_mode);

static const struct kfd_name dbg_flags[] = {
	KS_N(KFD_ABI_DBG_TRAP_FLAG_, SINGLE_MEM_OP),
	KS_N(KFD_ABI_DBG_TRAP_FLAG_, SINGLE_ALU_OP),
	KS_N(KFD_ABI_DBG_TRAP_FLAG_, LDS_OUT_OF_ADDR_RANGE),
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
	KS_N(KFD_ABI_SPM_OP_, ACQUIRE),
	KS_N(KFD_ABI_SPM_OP_, RELEASE),
	KS_N(KFD_ABI_SPM_OP_, SET_DEST_BUF),
};
KS_TABLE(ks_spm_op, "spm_op", spm_op);

static const struct kfd_name pcs_op[] = {
	KS_N(KFD_ABI_PCS_OP_, QUERY_CAPABILITIES),
	KS_N(KFD_ABI_PCS_OP_, CREATE),
	KS_N(KFD_ABI_PCS_OP_, DESTROY),
	KS_N(KFD_ABI_PCS_OP_, START),
	KS_N(KFD_ABI_PCS_OP_, STOP),
};
KS_TABLE(ks_pcs_op, "pc_sample_op", pcs_op);

static const struct kfd_name pcs_method[] = {
	KS_N(KFD_ABI_PCS_METHOD_, HOSTTRAP),
	KS_N(KFD_ABI_PCS_METHOD_, STOCHASTIC),
};
KS_TABLE(ks_pcs_method, "pc_sample_method", pcs_method);

static const struct kfd_name pcs_type[] = {
	KS_N(KFD_ABI_PCS_TYPE_, TIME_US),
	KS_N(KFD_ABI_PCS_TYPE_, CLOCK_CYCLES),
	KS_N(KFD_ABI_PCS_TYPE_, INSTRUCTIONS),
};
KS_TABLE(ks_pcs_type, "pc_sample_type", pcs_type);

static const struct kfd_name pcs_flags[] = {
	KS_N(KFD_ABI_PCS_, QUERY_TYPE_FULL),
};
KS_TABLE(ks_pcs_flags, "pc_sample_flags", pcs_flags);

static const struct kfd_name profiler_op[] = {
	KS_N(KFD_ABI_PROFILER_, PMC),
	KS_N(KFD_ABI_PROFILER_, PC_SAMPLE),
	KS_N(KFD_ABI_PROFILER_, VERSION),
	KS_N(KFD_ABI_PROFILER_, PTL_CONTROL),
};
KS_TABLE(ks_profiler_op, "profiler_op", profiler_op);

/* 0x28's ops: upstream has no PC_SAMPLE there. */
static const struct kfd_name profiler_op_1_23[] = {
	KS_N(KFD_ABI_PROFILER_, PMC),
	KS_N(KFD_ABI_PROFILER_, VERSION),
	KS_N(KFD_ABI_PROFILER_, PTL_CONTROL),
};
KS_TABLE(ks_profiler_op_1_23, "profiler_op_1_23", profiler_op_1_23);

static const struct kfd_name ais_op[] = {
	KS_N(KFD_ABI_AIS_, READ),
	KS_N(KFD_ABI_AIS_, WRITE),
};
KS_TABLE(ks_ais_op, "ais_op", ais_op);

static const struct kfd_name cap2[] = {
	KS_N(KFD_ABI_CAP2_, PER_SDMA_QUEUE_RESET_SUPPORTED),
	KS_N(KFD_ABI_CAP2_, TRAP_DEBUG_LDS_OUT_OF_ADDR_RANGE_SUPPORTED),
};
KS_TABLE(ks_cap2, "capability2", cap2);
