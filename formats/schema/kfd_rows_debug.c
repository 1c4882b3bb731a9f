/* SPDX-License-Identifier: MIT */
/*
 * KFD rows: the debugger. The pre-1.13 DBG_* ioctls (kept for decoding;
 * they answer EPERM), RUNTIME_ENABLE and the 1.13 DBG_TRAP whose op selects
 * one arm of a union.
 */
#include "schema_priv.h"

/* 0x0D/0x0E DBG_REGISTER/UNREGISTER */
#define T struct kfd_abi_dbg_register_args
static const struct kfd_field dbg_register_f[] = {
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(dbg_register_d, "kfd_abi_dbg_register_args", T, dbg_register_f);
#undef T

#define T struct kfd_abi_dbg_unregister_args
static const struct kfd_field dbg_unregister_f[] = {
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(dbg_unregister_d, "kfd_abi_dbg_unregister_args", T, dbg_unregister_f);
#undef T

/* 0x0F/0x10: a packed blob of buf_size_in_bytes at content_ptr. */
#define T struct kfd_abi_dbg_address_watch_args
static const struct kfd_field dbg_address_watch_f[] = {
	KS_F(T, content_ptr, IN, PTR),			/* 0 */
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, buf_size_in_bytes, IN, SIZE),		/* 2 */
};
KS_DESC(dbg_address_watch_d, "kfd_abi_dbg_address_watch_args", T, dbg_address_watch_f);
#undef T

#define T struct kfd_abi_dbg_wave_control_args
static const struct kfd_field dbg_wave_control_f[] = {
	KS_F(T, content_ptr, IN, PTR),			/* 0 */
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, buf_size_in_bytes, IN, SIZE),		/* 2 */
};
KS_DESC(dbg_wave_control_d, "kfd_abi_dbg_wave_control_args", T, dbg_wave_control_f);
#undef T

static const struct kfd_indirect dbg_content_b[] = {
	KS_BUF("content", 0, 2, 1, BYTES, IN, -1, 0, NULL),
};

/* 0x25 RUNTIME_ENABLE */
#define T struct kfd_abi_runtime_enable_args
static const struct kfd_field runtime_enable_f[] = {
	KS_F(T, r_debug, IN, CPU_ADDR),
	KS_FN(T, mode_mask, IN, FLAGS, ks_runtime_mode),
	KS_FN(T, capabilities_mask, OUT, FLAGS, ks_runtime_caps),
};
KS_DESC(runtime_enable_d, "kfd_abi_runtime_enable_args", T, runtime_enable_f);
#undef T

/* Snapshot elements */
#define T struct kfd_abi_queue_snapshot_entry
static const struct kfd_field queue_snapshot_f[] = {
	KS_FN(T, exception_status, OUT, FLAGS, ks_exception_mask),
	KS_F(T, ring_base_address, OUT, GPU_VA),
	KS_F(T, write_pointer_address, OUT, GPU_VA),
	KS_F(T, read_pointer_address, OUT, GPU_VA),
	KS_F(T, ctx_save_restore_address, OUT, GPU_VA),
	KS_F(T, queue_id, OUT, QUEUE_ID),
	KS_F(T, gpu_id, OUT, GPU_ID),
	KS_F(T, ring_size, OUT, SIZE),
	KS_FN(T, queue_type, OUT, ENUM, ks_queue_type),
	KS_F(T, ctx_save_restore_area_size, OUT, SIZE),
	KS_F(T, reserved, NONE, PAD),
};
KS_DESC(queue_snapshot_d, "kfd_abi_queue_snapshot_entry", T, queue_snapshot_f);
#undef T

#define T struct kfd_abi_dbg_device_info_entry
static const struct kfd_field device_info_f[] = {
	KS_FN(T, exception_status, OUT, FLAGS, ks_exception_mask),
	KS_F(T, lds_base, OUT, GPU_VA),
	KS_F(T, lds_limit, OUT, GPU_VA),
	KS_F(T, scratch_base, OUT, GPU_VA),
	KS_F(T, scratch_limit, OUT, GPU_VA),
	KS_F(T, gpuvm_base, OUT, GPU_VA),
	KS_F(T, gpuvm_limit, OUT, GPU_VA),
	KS_F(T, gpu_id, OUT, GPU_ID),
	KS_F(T, location_id, OUT, HEX),
	KS_F(T, vendor_id, OUT, HEX),
	KS_F(T, device_id, OUT, HEX),
	KS_F(T, revision_id, OUT, HEX),
	KS_F(T, subsystem_vendor_id, OUT, HEX),
	KS_F(T, subsystem_device_id, OUT, HEX),
	KS_F(T, fw_version, OUT, NONE),
	KS_F(T, gfx_target_version, OUT, NONE),
	KS_F(T, simd_count, OUT, NONE),
	KS_F(T, max_waves_per_simd, OUT, NONE),
	KS_F(T, array_count, OUT, NONE),
	KS_F(T, simd_arrays_per_engine, OUT, NONE),
	KS_F(T, num_xcc, OUT, NONE),
	KS_F(T, capability, OUT, HEX),
	KS_F(T, debug_prop, OUT, HEX),
	/* From 2026 kernels (no ABI bump); a 120-byte stride omits them. */
	KS_FN(T, capability2, OUT, FLAGS, ks_cap2),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(device_info_d, "kfd_abi_dbg_device_info_entry", T, device_info_f);
#undef T

/* 0x26 DBG_TRAP: fields[1] (op) selects the union arm. */
#define T struct kfd_abi_dbg_trap_args
#define OP	1
#define A(m, d, r, o)		KS_FS(T, m, d, r, OP, KFD_ABI_DBG_TRAP_##o)
#define AN(m, d, r, o, tbl)	KS_FSN(T, m, d, r, OP, KFD_ABI_DBG_TRAP_##o, tbl)
static const struct kfd_field dbg_trap_f[] = {
	KS_F(T, pid, IN, PID),						/* 0 */
	KS_FN(T, op, IN, ENUM, ks_dbg_trap_op),				/* 1 */
	AN(enable.exception_mask, IN, FLAGS, ENABLE, ks_exception_mask), /* 2 */
	A(enable.rinfo_ptr, IN, PTR, ENABLE),				/* 3 */
	A(enable.rinfo_size, INOUT, SIZE, ENABLE),			/* 4 */
	A(enable.dbg_fd, IN, FD, ENABLE),				/* 5 */
	AN(send_runtime_event.exception_mask, IN, FLAGS, SEND_RUNTIME_EVENT,
	   ks_exception_mask),						/* 6 */
	A(send_runtime_event.gpu_id, IN, GPU_ID, SEND_RUNTIME_EVENT),	/* 7 */
	A(send_runtime_event.queue_id, IN, QUEUE_ID, SEND_RUNTIME_EVENT), /* 8 */
	AN(set_exceptions_enabled.exception_mask, IN, FLAGS,
	   SET_EXCEPTIONS_ENABLED, ks_exception_mask),			/* 9 */
	AN(launch_override.override_mode, IN, ENUM, SET_WAVE_LAUNCH_OVERRIDE,
	   ks_override_mode),						/* 10 */
	AN(launch_override.enable_mask, INOUT, FLAGS, SET_WAVE_LAUNCH_OVERRIDE,
	   ks_trap_mask),						/* 11 */
	AN(launch_override.support_request_mask, INOUT, FLAGS,
	   SET_WAVE_LAUNCH_OVERRIDE, ks_trap_mask),			/* 12 */
	A(launch_override.pad, NONE, PAD, SET_WAVE_LAUNCH_OVERRIDE),	/* 13 */
	AN(launch_mode.launch_mode, IN, ENUM, SET_WAVE_LAUNCH_MODE,
	   ks_launch_mode),						/* 14 */
	A(launch_mode.pad, NONE, PAD, SET_WAVE_LAUNCH_MODE),		/* 15 */
	AN(suspend_queues.exception_mask, IN, FLAGS, SUSPEND_QUEUES,
	   ks_exception_mask),						/* 16 */
	A(suspend_queues.queue_array_ptr, IN, PTR, SUSPEND_QUEUES),	/* 17 */
	A(suspend_queues.num_queues, IN, COUNT, SUSPEND_QUEUES),	/* 18 */
	A(suspend_queues.grace_period, IN, NONE, SUSPEND_QUEUES),	/* 19 */
	A(resume_queues.queue_array_ptr, IN, PTR, RESUME_QUEUES),	/* 20 */
	A(resume_queues.num_queues, IN, COUNT, RESUME_QUEUES),		/* 21 */
	A(resume_queues.pad, NONE, PAD, RESUME_QUEUES),			/* 22 */
	A(set_node_address_watch.address, IN, GPU_VA, SET_NODE_ADDRESS_WATCH), /* 23 */
	AN(set_node_address_watch.mode, IN, ENUM, SET_NODE_ADDRESS_WATCH,
	   ks_watch_mode),						/* 24 */
	A(set_node_address_watch.mask, IN, HEX, SET_NODE_ADDRESS_WATCH), /* 25 */
	A(set_node_address_watch.gpu_id, IN, GPU_ID, SET_NODE_ADDRESS_WATCH), /* 26 */
	A(set_node_address_watch.id, OUT, NONE, SET_NODE_ADDRESS_WATCH), /* 27 */
	A(clear_node_address_watch.gpu_id, IN, GPU_ID, CLEAR_NODE_ADDRESS_WATCH), /* 28 */
	A(clear_node_address_watch.id, IN, NONE, CLEAR_NODE_ADDRESS_WATCH), /* 29 */
	AN(set_flags.flags, INOUT, FLAGS, SET_FLAGS, ks_dbg_flags),	/* 30 */
	A(set_flags.pad, NONE, PAD, SET_FLAGS),				/* 31 */
	AN(query_debug_event.exception_mask, INOUT, FLAGS, QUERY_DEBUG_EVENT,
	   ks_exception_mask),						/* 32 */
	A(query_debug_event.gpu_id, OUT, GPU_ID, QUERY_DEBUG_EVENT),	/* 33 */
	A(query_debug_event.queue_id, OUT, QUEUE_ID, QUERY_DEBUG_EVENT), /* 34 */
	A(query_exception_info.info_ptr, IN, PTR, QUERY_EXCEPTION_INFO), /* 35 */
	A(query_exception_info.info_size, INOUT, SIZE, QUERY_EXCEPTION_INFO), /* 36 */
	A(query_exception_info.source_id, IN, NONE, QUERY_EXCEPTION_INFO), /* 37 */
	A(query_exception_info.exception_code, IN, NONE, QUERY_EXCEPTION_INFO), /* 38 */
	A(query_exception_info.clear_exception, IN, NONE, QUERY_EXCEPTION_INFO), /* 39 */
	AN(queue_snapshot.exception_mask, IN, FLAGS, GET_QUEUE_SNAPSHOT,
	   ks_exception_mask),						/* 40 */
	A(queue_snapshot.snapshot_buf_ptr, IN, PTR, GET_QUEUE_SNAPSHOT), /* 41 */
	A(queue_snapshot.num_queues, INOUT, COUNT, GET_QUEUE_SNAPSHOT), /* 42 */
	A(queue_snapshot.entry_size, INOUT, SIZE, GET_QUEUE_SNAPSHOT),	/* 43 */
	AN(device_snapshot.exception_mask, IN, FLAGS, GET_DEVICE_SNAPSHOT,
	   ks_exception_mask),						/* 44 */
	A(device_snapshot.snapshot_buf_ptr, IN, PTR, GET_DEVICE_SNAPSHOT), /* 45 */
	A(device_snapshot.num_devices, INOUT, COUNT, GET_DEVICE_SNAPSHOT), /* 46 */
	A(device_snapshot.entry_size, INOUT, SIZE, GET_DEVICE_SNAPSHOT), /* 47 */
};
KS_DESC(dbg_trap_d, "kfd_abi_dbg_trap_args", T, dbg_trap_f);
#undef A
#undef AN
#undef T

#define B(n, ptr, cnt, esz, kind, d, o, el)				\
	KS_BUF(n, ptr, cnt, esz, kind, d, OP, KFD_ABI_DBG_TRAP_##o, el)
/*
 * Snapshots stride by the caller's entry_size (the kernel fills
 * min(entry_size, its entry size) bytes of each): elements decode at that
 * stride, and fields past it are absent.
 */
static const struct kfd_indirect dbg_trap_b[] = {
	B("runtime_info", 3, 4, 1, CAPACITY, OUT, ENABLE, NULL),
	B("queue_ids", 17, 18, sizeof(uint32_t), COUNT, INOUT, SUSPEND_QUEUES,
	  &ks_u32_queue_id_desc),
	B("queue_ids", 20, 21, sizeof(uint32_t), COUNT, INOUT, RESUME_QUEUES,
	  &ks_u32_queue_id_desc),
	B("exception_info", 35, 36, 1, CAPACITY, OUT, QUERY_EXCEPTION_INFO, NULL),
	KS_BUF_STRIDED("queue_snapshot", 41, 42, 43,
		       sizeof(struct kfd_abi_queue_snapshot_entry), OUT, OP,
		       KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT, &queue_snapshot_d),
	KS_BUF_STRIDED("device_snapshot", 45, 46, 47,
		       sizeof(struct kfd_abi_dbg_device_info_entry), OUT, OP,
		       KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT, &device_info_d),
};
#undef B
#undef OP

const struct kfd_ioctl_desc ks_rows_debug[] = {
	{
		KS_KFD_ROW("DBG_REGISTER", "dbg_register", 0x0D,
			   KFD_ABI_IOC_DBG_REGISTER, 0),
		.deprecated = 1,
		KS_ARGS(dbg_register_d),
	},
	{
		KS_KFD_ROW("DBG_UNREGISTER", "dbg_unregister", 0x0E,
			   KFD_ABI_IOC_DBG_UNREGISTER, 0),
		.deprecated = 1,
		KS_ARGS(dbg_unregister_d),
	},
	{
		KS_KFD_ROW("DBG_ADDRESS_WATCH", "dbg_address_watch", 0x0F,
			   KFD_ABI_IOC_DBG_ADDRESS_WATCH, 0),
		.deprecated = 1,
		KS_ARGS(dbg_address_watch_d),
		KS_BUFS(dbg_content_b),
	},
	{
		KS_KFD_ROW("DBG_WAVE_CONTROL", "dbg_wave_control", 0x10,
			   KFD_ABI_IOC_DBG_WAVE_CONTROL, 0),
		.deprecated = 1,
		KS_ARGS(dbg_wave_control_d),
		KS_BUFS(dbg_content_b),
	},
	{
		KS_KFD_ROW("RUNTIME_ENABLE", "runtime_enable", 0x25,
			   KFD_ABI_IOC_RUNTIME_ENABLE, 13),
		KS_ARGS(runtime_enable_d),
	},
	{
		KS_KFD_ROW("DBG_TRAP", "dbg_trap", 0x26, KFD_ABI_IOC_DBG_TRAP, 13),
		KS_ARGS(dbg_trap_d),
		KS_BUFS(dbg_trap_b),
	},
};
KS_DEFINE_COUNT(debug);
