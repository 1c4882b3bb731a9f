/* SPDX-License-Identifier: MIT */
/* KFD rows: user queues (create, destroy, update, CU mask, wave state, GWS). */
#include "schema_priv.h"

/* 0x02 CREATE_QUEUE: 88 bytes up to 1.16, 96 from 1.17. */
#define T struct kfd_abi_create_queue_args
static const struct kfd_field create_queue_f[] = {
	KS_FA(T, ring_base_address, IN, GPU_VA, RING),
	/* The "from KFD" of old headers is wrong: both are inputs. */
	KS_FA(T, write_pointer_address, IN, GPU_VA, WPTR),
	KS_FA(T, read_pointer_address, IN, GPU_VA, RPTR),
	KS_FA(T, doorbell_offset, OUT, DOORBELL_OFFSET, DOORBELL),
	/* Clamped up to KFD_ABI_MIN_QUEUE_RING_SIZE and written back. */
	KS_FA(T, ring_size, INOUT, SIZE, RING_SIZE),
	KS_FA(T, gpu_id, IN, GPU_ID, GPU),
	KS_FNA(T, queue_type, IN, ENUM, ks_queue_type, TYPE),
	KS_F(T, queue_percentage, IN, NONE),
	KS_F(T, queue_priority, IN, NONE),
	KS_FA(T, queue_id, OUT, QUEUE_ID, OBJ),
	KS_FA(T, eop_buffer_address, IN, GPU_VA, EOP),
	KS_FA(T, eop_buffer_size, IN, SIZE, EOP_SIZE),
	KS_FA(T, ctx_save_restore_address, IN, GPU_VA, CTX),
	KS_FA(T, ctx_save_restore_size, IN, SIZE, CTX_SIZE),
	KS_F(T, ctl_stack_size, IN, SIZE),
	KS_FV(T, sdma_engine_id, IN, NONE, 17),
	/* "pad" until 1.21; the kernel reads it for COMPUTE_AQL only. */
	KS_FV(T, metadata_ring_size, IN, SIZE, 22),
};
KS_DESC(create_queue_d, "kfd_abi_create_queue_args", T, create_queue_f);
#undef T
static const struct kfd_size_variant create_queue_v[] = {
	{ KFD_ABI_IOC_CREATE_QUEUE_1_16, KFD_ABI_CREATE_QUEUE_ARGS_SIZE_1_16, 0, 16 },
	{ KFD_ABI_IOC_CREATE_QUEUE, sizeof(struct kfd_abi_create_queue_args), 17, 0xff },
};

/* 0x03 DESTROY_QUEUE */
#define T struct kfd_abi_destroy_queue_args
static const struct kfd_field destroy_queue_f[] = {
	KS_FA(T, queue_id, IN, QUEUE_ID, OBJ),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(destroy_queue_d, "kfd_abi_destroy_queue_args", T, destroy_queue_f);
#undef T

/* 0x07 UPDATE_QUEUE: 24 bytes in every ABI. */
#define T struct kfd_abi_update_queue_args
static const struct kfd_field update_queue_f[] = {
	KS_F(T, ring_base_address, IN, GPU_VA),
	KS_F(T, queue_id, IN, QUEUE_ID),
	KS_F(T, ring_size, IN, SIZE),
	KS_F(T, queue_percentage, IN, NONE),
	KS_F(T, queue_priority, IN, NONE),
};
KS_DESC(update_queue_d, "kfd_abi_update_queue_args", T, update_queue_f);
#undef T

/* 0x1A SET_CU_MASK: num_cu_mask counts bits. */
#define T struct kfd_abi_set_cu_mask_args
static const struct kfd_field set_cu_mask_f[] = {
	KS_F(T, queue_id, IN, QUEUE_ID),		/* 0 */
	KS_F(T, num_cu_mask, IN, COUNT),		/* 1 */
	KS_F(T, cu_mask_ptr, IN, PTR),			/* 2 */
};
KS_DESC(set_cu_mask_d, "kfd_abi_set_cu_mask_args", T, set_cu_mask_f);
#undef T
static const struct kfd_indirect set_cu_mask_b[] = {
	KS_BUF("cu_mask", 2, 1, 4, BITS32, IN, -1, 0, NULL),
};

/* 0x1B GET_QUEUE_WAVE_STATE: the control stack is copied to user memory. */
#define T struct kfd_abi_get_queue_wave_state_args
static const struct kfd_field get_wave_state_f[] = {
	KS_F(T, ctl_stack_address, IN, PTR),		/* 0 */
	KS_F(T, ctl_stack_used_size, OUT, SIZE),	/* 1 */
	KS_F(T, save_area_used_size, OUT, SIZE),
	KS_F(T, queue_id, IN, QUEUE_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(get_wave_state_d, "kfd_abi_get_queue_wave_state_args", T, get_wave_state_f);
#undef T
static const struct kfd_indirect get_wave_state_b[] = {
	KS_BUF("ctl_stack", 0, 1, 1, BYTES, OUT, -1, 0, NULL),
};

/* 0x1E ALLOC_QUEUE_GWS */
#define T struct kfd_abi_alloc_queue_gws_args
static const struct kfd_field alloc_gws_f[] = {
	KS_F(T, queue_id, IN, QUEUE_ID),
	KS_F(T, num_gws, IN, COUNT),
	KS_F(T, first_gws, OUT, NONE),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(alloc_gws_d, "kfd_abi_alloc_queue_gws_args", T, alloc_gws_f);
#undef T

const struct kfd_ioctl_desc ks_rows_queues[] = {
	{
		KS_KFD_ROW("CREATE_QUEUE", "create_queue", 0x02,
			   KFD_ABI_IOC_CREATE_QUEUE, 0),
		KS_CREATES(QUEUE),
		KS_ARGS(create_queue_d),
		KS_VARIANTS(create_queue_v),
	},
	{
		KS_KFD_ROW("DESTROY_QUEUE", "destroy_queue", 0x03,
			   KFD_ABI_IOC_DESTROY_QUEUE, 0),
		KS_ENDS(QUEUE),
		KS_ARGS(destroy_queue_d),
	},
	{
		KS_KFD_ROW("UPDATE_QUEUE", "update_queue", 0x07,
			   KFD_ABI_IOC_UPDATE_QUEUE, 0),
		KS_ARGS(update_queue_d),
	},
	{
		KS_KFD_ROW("SET_CU_MASK", "set_cu_mask", 0x1A,
			   KFD_ABI_IOC_SET_CU_MASK, 1),
		KS_ARGS(set_cu_mask_d),
		KS_BUFS(set_cu_mask_b),
	},
	{
		KS_KFD_ROW("GET_QUEUE_WAVE_STATE", "get_queue_wave_state", 0x1B,
			   KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, 1),
		KS_ARGS(get_wave_state_d),
		KS_BUFS(get_wave_state_b),
	},
	{
		KS_KFD_ROW("ALLOC_QUEUE_GWS", "alloc_queue_gws", 0x1E,
			   KFD_ABI_IOC_ALLOC_QUEUE_GWS, 1),
		KS_ARGS(alloc_gws_d),
	},
};
KS_DEFINE_COUNT(queues);
