/* SPDX-License-Identifier: MIT */
/*
 * KFD rows: version, per-device settings (policy, clocks, apertures,
 * scratch, tiles, trap handler, free memory), SMI, CRIU, CREATE_PROCESS.
 */
#include "schema_priv.h"

/* 0x01 GET_VERSION */
#define T struct kfd_abi_get_version_args
static const struct kfd_field get_version_f[] = {
	KS_F(T, major_version, OUT, VERSION),
	KS_FA(T, minor_version, OUT, VERSION, VERSION),
};
KS_DESC(get_version_d, "kfd_abi_get_version_args", T, get_version_f);
#undef T

/* 0x04 SET_MEMORY_POLICY */
#define T struct kfd_abi_set_memory_policy_args
static const struct kfd_field set_memory_policy_f[] = {
	KS_F(T, alternate_aperture_base, IN, GPU_VA),
	KS_F(T, alternate_aperture_size, IN, SIZE),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_FN(T, default_policy, IN, ENUM, ks_cache_policy),
	KS_FN(T, alternate_policy, IN, ENUM, ks_cache_policy),
	/* A pad before 1.18; old callers leave it zero. */
	KS_FULL(T, misc_process_flag, IN, FLAGS, 0, 18, -1, 0, &ks_proc_flags),
};
KS_DESC(set_memory_policy_d, "kfd_abi_set_memory_policy_args", T, set_memory_policy_f);
#undef T

/* 0x05 GET_CLOCK_COUNTERS */
#define T struct kfd_abi_get_clock_counters_args
static const struct kfd_field get_clock_counters_f[] = {
	KS_F(T, gpu_clock_counter, OUT, CLOCK),
	KS_F(T, cpu_clock_counter, OUT, CLOCK),
	KS_F(T, system_clock_counter, OUT, CLOCK),
	KS_F(T, system_clock_freq, OUT, CLOCK),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(get_clock_counters_d, "kfd_abi_get_clock_counters_args", T, get_clock_counters_f);
#undef T

/* 0x06 GET_PROCESS_APERTURES: seven inline entries. */
#define T struct kfd_abi_get_process_apertures_args
#define APERT(i)							\
	KS_F(T, process_apertures[i].lds_base, OUT, GPU_VA),		\
	KS_F(T, process_apertures[i].lds_limit, OUT, GPU_VA),		\
	KS_F(T, process_apertures[i].scratch_base, OUT, GPU_VA),	\
	KS_F(T, process_apertures[i].scratch_limit, OUT, GPU_VA),	\
	KS_F(T, process_apertures[i].gpuvm_base, OUT, GPU_VA),		\
	KS_F(T, process_apertures[i].gpuvm_limit, OUT, GPU_VA),		\
	KS_F(T, process_apertures[i].gpu_id, OUT, GPU_ID),		\
	KS_F(T, process_apertures[i].pad, NONE, PAD)
static const struct kfd_field get_process_apertures_f[] = {
	APERT(0), APERT(1), APERT(2), APERT(3), APERT(4), APERT(5), APERT(6),
	KS_FA(T, num_of_nodes, OUT, COUNT, COUNT),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(get_process_apertures_d, "kfd_abi_get_process_apertures_args", T,
	get_process_apertures_f);
#undef APERT
#undef T

/* 0x11 SET_SCRATCH_BACKING_VA */
#define T struct kfd_abi_set_scratch_backing_va_args
static const struct kfd_field set_scratch_f[] = {
	KS_F(T, va_addr, IN, GPU_VA),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(set_scratch_d, "kfd_abi_set_scratch_backing_va_args", T, set_scratch_f);
#undef T

/* 0x12 GET_TILE_CONFIG: two capacity-in, count-out arrays. */
#define T struct kfd_abi_get_tile_config_args
static const struct kfd_field get_tile_config_f[] = {
	KS_F(T, tile_config_ptr, IN, PTR),		/* 0 */
	KS_F(T, macro_tile_config_ptr, IN, PTR),	/* 1 */
	KS_F(T, num_tile_configs, INOUT, COUNT),	/* 2 */
	KS_F(T, num_macro_tile_configs, INOUT, COUNT),	/* 3 */
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, gb_addr_config, OUT, HEX),
	KS_F(T, num_banks, OUT, NONE),
	KS_F(T, num_ranks, OUT, NONE),
};
KS_DESC(get_tile_config_d, "kfd_abi_get_tile_config_args", T, get_tile_config_f);
#undef T
static const struct kfd_indirect get_tile_config_b[] = {
	KS_BUF("tile_config", 0, 2, 4, CAPACITY, OUT, -1, 0, NULL),
	KS_BUF("macro_tile_config", 1, 3, 4, CAPACITY, OUT, -1, 0, NULL),
};

/* 0x13 SET_TRAP_HANDLER */
#define T struct kfd_abi_set_trap_handler_args
static const struct kfd_field set_trap_handler_f[] = {
	KS_F(T, tba_addr, IN, GPU_VA),
	KS_F(T, tma_addr, IN, GPU_VA),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(set_trap_handler_d, "kfd_abi_set_trap_handler_args", T, set_trap_handler_f);
#undef T

/* 0x14 GET_PROCESS_APERTURES_NEW */
#define T struct kfd_abi_get_process_apertures_new_args
static const struct kfd_field get_apertures_new_f[] = {
	KS_F(T, kfd_process_device_apertures_ptr, IN, PTR),	/* 0 */
	KS_FA(T, num_of_nodes, INOUT, COUNT, COUNT),		/* 1 */
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(get_apertures_new_d, "kfd_abi_get_process_apertures_new_args", T,
	get_apertures_new_f);
#undef T
static const struct kfd_indirect get_apertures_new_b[] = {
	KS_BUF("apertures", 0, 1, sizeof(struct kfd_abi_process_device_apertures),
	       CAPACITY, OUT, -1, 0, &ks_apertures_desc),
};

/* 0x1F SMI_EVENTS */
#define T struct kfd_abi_smi_events_args
static const struct kfd_field smi_events_f[] = {
	KS_F(T, gpuid, IN, GPU_ID),
	KS_FA(T, anon_fd, OUT, FD, OBJ),
};
KS_DESC(smi_events_d, "kfd_abi_smi_events_args", T, smi_events_f);
#undef T

/* 0x22 CRIU_OP: the op decides which buffers are read and which written. */
#define T struct kfd_abi_criu_device_bucket
static const struct kfd_field criu_device_f[] = {
	KS_F(T, user_gpu_id, INOUT, GPU_ID),
	KS_F(T, actual_gpu_id, INOUT, GPU_ID),
	KS_F(T, drm_fd, INOUT, FD),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(criu_device_d, "kfd_abi_criu_device_bucket", T, criu_device_f);
#undef T

#define T struct kfd_abi_criu_bo_bucket
static const struct kfd_field criu_bo_f[] = {
	KS_F(T, addr, INOUT, GPU_VA),
	KS_F(T, size, INOUT, SIZE),
	KS_F(T, offset, INOUT, MMAP_OFFSET),
	KS_F(T, restored_offset, INOUT, MMAP_OFFSET),
	KS_F(T, gpu_id, INOUT, GPU_ID),
	KS_FN(T, alloc_flags, INOUT, FLAGS, ks_alloc_flags),
	KS_F(T, dmabuf_fd, INOUT, FD),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(criu_bo_d, "kfd_abi_criu_bo_bucket", T, criu_bo_f);
#undef T

#define T struct kfd_abi_criu_args
static const struct kfd_field criu_f[] = {
	KS_F(T, devices, IN, PTR),			/* 0 */
	KS_F(T, bos, IN, PTR),				/* 1 */
	KS_F(T, priv_data, IN, PTR),			/* 2 */
	KS_F(T, priv_data_size, INOUT, SIZE),		/* 3 */
	KS_F(T, num_devices, INOUT, COUNT),		/* 4 */
	KS_F(T, num_bos, INOUT, COUNT),			/* 5 */
	KS_F(T, num_objects, INOUT, COUNT),		/* 6 */
	KS_F(T, pid, INOUT, PID),			/* 7 */
	KS_FN(T, op, IN, ENUM, ks_criu_op),		/* 8 */
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(criu_d, "kfd_abi_criu_args", T, criu_f);
#undef T
#define CKPT KFD_ABI_CRIU_OP_CHECKPOINT
#define RSTR KFD_ABI_CRIU_OP_RESTORE
static const struct kfd_indirect criu_b[] = {
	KS_BUF("devices", 0, 4, sizeof(struct kfd_abi_criu_device_bucket),
	       COUNT, OUT, 8, CKPT, &criu_device_d),
	KS_BUF("bos", 1, 5, sizeof(struct kfd_abi_criu_bo_bucket),
	       COUNT, OUT, 8, CKPT, &criu_bo_d),
	KS_BUF("priv_data", 2, 3, 1, BYTES, OUT, 8, CKPT, NULL),
	KS_BUF("devices", 0, 4, sizeof(struct kfd_abi_criu_device_bucket),
	       COUNT, IN, 8, RSTR, &criu_device_d),
	KS_BUF("bos", 1, 5, sizeof(struct kfd_abi_criu_bo_bucket),
	       COUNT, INOUT, 8, RSTR, &criu_bo_d),
	KS_BUF("priv_data", 2, 3, 1, BYTES, IN, 8, RSTR, NULL),
};
#undef CKPT
#undef RSTR

/* 0x23 AVAILABLE_MEMORY */
#define T struct kfd_abi_get_available_memory_args
static const struct kfd_field available_memory_f[] = {
	KS_F(T, available, OUT, SIZE),
	KS_F(T, gpu_id, IN, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(available_memory_d, "kfd_abi_get_available_memory_args", T, available_memory_f);
#undef T

/* 0x27 CREATE_PROCESS: no payload upstream; ROCm passes 8 bytes of flags. */
#define T struct kfd_abi_create_process_args
static const struct kfd_field create_process_f[] = {
	KS_F(T, flags, IN, HEX),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(create_process_d, "kfd_abi_create_process_args", T, create_process_f);
#undef T
static const struct kfd_size_variant create_process_v[] = {
	{ KFD_ABI_IOC_CREATE_PROCESS, 0, 19, 0xff },
	{ KFD_ABI_IOC_CREATE_PROCESS_FLAGS, sizeof(struct kfd_abi_create_process_args), 19, 0xff },
};

const struct kfd_ioctl_desc ks_rows_misc[] = {
	{
		KS_KFD_ROW("GET_VERSION", "get_version", 0x01,
			   KFD_ABI_IOC_GET_VERSION, 0),
		KS_ARGS(get_version_d),
	},
	{
		KS_KFD_ROW("SET_MEMORY_POLICY", "set_memory_policy", 0x04,
			   KFD_ABI_IOC_SET_MEMORY_POLICY, 0),
		KS_ARGS(set_memory_policy_d),
	},
	{
		KS_KFD_ROW("GET_CLOCK_COUNTERS", "get_clock_counters", 0x05,
			   KFD_ABI_IOC_GET_CLOCK_COUNTERS, 0),
		KS_ARGS(get_clock_counters_d),
	},
	{
		KS_KFD_ROW("GET_PROCESS_APERTURES", "get_process_apertures", 0x06,
			   KFD_ABI_IOC_GET_PROCESS_APERTURES, 0),
		KS_ARGS(get_process_apertures_d),
	},
	{
		KS_KFD_ROW("SET_SCRATCH_BACKING_VA", "set_scratch_backing_va", 0x11,
			   KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, 0),
		KS_ARGS(set_scratch_d),
	},
	{
		KS_KFD_ROW("GET_TILE_CONFIG", "get_tile_config", 0x12,
			   KFD_ABI_IOC_GET_TILE_CONFIG, 0),
		KS_ARGS(get_tile_config_d),
		KS_BUFS(get_tile_config_b),
	},
	{
		KS_KFD_ROW("SET_TRAP_HANDLER", "set_trap_handler", 0x13,
			   KFD_ABI_IOC_SET_TRAP_HANDLER, 0),
		KS_ARGS(set_trap_handler_d),
	},
	{
		KS_KFD_ROW("GET_PROCESS_APERTURES_NEW", "get_process_apertures_new", 0x14,
			   KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, 1),
		KS_ARGS(get_apertures_new_d),
		KS_BUFS(get_apertures_new_b),
	},
	{
		KS_KFD_ROW("SMI_EVENTS", "smi_events", 0x1F,
			   KFD_ABI_IOC_SMI_EVENTS, 3),
		KS_CREATES(FD),
		KS_ARGS(smi_events_d),
	},
	{
		KS_KFD_ROW("CRIU_OP", "criu_op", 0x22, KFD_ABI_IOC_CRIU_OP, 7),
		/* Checkpoints and restores whole processes. */
		.no_replay = 1,
		KS_ARGS(criu_d),
		KS_BUFS(criu_b),
	},
	{
		KS_KFD_ROW("AVAILABLE_MEMORY", "available_memory", 0x23,
			   KFD_ABI_IOC_AVAILABLE_MEMORY, 9),
		.free_mem = KFD_FREE_MEM_READS,
		KS_ARGS(available_memory_d),
	},
	{
		KS_KFD_ROW("CREATE_PROCESS", "create_process", 0x27,
			   KFD_ABI_IOC_CREATE_PROCESS, 19),
		KS_CREATES(PROCESS),
		KS_ARGS(create_process_d),
		KS_VARIANTS(create_process_v),
	},
};
KS_DEFINE_COUNT(misc);
