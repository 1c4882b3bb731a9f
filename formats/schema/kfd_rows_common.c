/* SPDX-License-Identifier: MIT */
/* Element descriptions shared by several rows. */
#include "schema_priv.h"

/* A u32 array of gpu_ids (MAP/UNMAP device lists): the replayer remaps them. */
struct ks_u32_gpu_id {
	uint32_t gpu_id;
};

static const struct kfd_field u32_gpu_id_fields[] = {
	KS_F(struct ks_u32_gpu_id, gpu_id, IN, GPU_ID),
};

const struct kfd_struct_desc ks_u32_gpu_id_desc = {
	.name = "u32_gpu_id",
	.size = sizeof(struct ks_u32_gpu_id),
	.fields = u32_gpu_id_fields,
	.nfields = KS_ARRAY_SIZE(u32_gpu_id_fields),
};

/*
 * A u32 array of queue ids (debugger suspend/resume); the kernel writes
 * error bits 30/31 back into the same words.
 */
struct ks_u32_queue_id {
	uint32_t queue_id;
};

static const struct kfd_field u32_queue_id_fields[] = {
	KS_F(struct ks_u32_queue_id, queue_id, INOUT, QUEUE_ID),
};

const struct kfd_struct_desc ks_u32_queue_id_desc = {
	.name = "u32_queue_id",
	.size = sizeof(struct ks_u32_queue_id),
	.fields = u32_queue_id_fields,
	.nfields = KS_ARRAY_SIZE(u32_queue_id_fields),
};

#define T struct kfd_abi_process_device_apertures
static const struct kfd_field apertures_fields[] = {
	KS_F(T, lds_base, OUT, GPU_VA),
	KS_F(T, lds_limit, OUT, GPU_VA),
	KS_F(T, scratch_base, OUT, GPU_VA),
	KS_F(T, scratch_limit, OUT, GPU_VA),
	KS_F(T, gpuvm_base, OUT, GPU_VA),
	KS_F(T, gpuvm_limit, OUT, GPU_VA),
	KS_F(T, gpu_id, OUT, GPU_ID),
	KS_F(T, pad, NONE, PAD),
};
#undef T

const struct kfd_struct_desc ks_apertures_desc = {
	.name = "kfd_abi_process_device_apertures",
	.size = sizeof(struct kfd_abi_process_device_apertures),
	.fields = apertures_fields,
	.nfields = KS_ARRAY_SIZE(apertures_fields),
};
