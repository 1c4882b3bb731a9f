/* SPDX-License-Identifier: MIT */
/* KFD rows: VM acquisition, BO alloc/free/map/unmap, dma-buf interop. */
#include "schema_priv.h"

/* 0x15 ACQUIRE_VM */
#define T struct kfd_abi_acquire_vm_args
static const struct kfd_field acquire_vm_f[] = {
	KS_F(T, drm_fd, IN, FD),
	KS_F(T, gpu_id, IN, GPU_ID),
};
KS_DESC(acquire_vm_d, "kfd_abi_acquire_vm_args", T, acquire_vm_f);
#undef T

/* 0x16 ALLOC_MEMORY_OF_GPU */
#define T struct kfd_abi_alloc_memory_of_gpu_args
static const struct kfd_field alloc_f[] = {
	KS_FA(T, va_addr, IN, GPU_VA, VA),
	KS_FA(T, size, IN, SIZE, SIZE),
	KS_FA(T, handle, OUT, HANDLE, OBJ),
	/*
	 * In: the CPU address for USERPTR; out: the render-node mmap offset
	 * (or a /dev/kfd MMIO offset for MMIO_REMAP).
	 */
	KS_FA(T, mmap_offset, INOUT, MMAP_OFFSET, MMAP_OFFSET),
	KS_FA(T, gpu_id, IN, GPU_ID, GPU),
	KS_FNA(T, flags, IN, FLAGS, ks_alloc_flags, FLAGS),
};
KS_DESC(alloc_d, "kfd_abi_alloc_memory_of_gpu_args", T, alloc_f);
#undef T

/* 0x17 FREE_MEMORY_OF_GPU */
#define T struct kfd_abi_free_memory_of_gpu_args
static const struct kfd_field free_f[] = {
	KS_FA(T, handle, IN, HANDLE, OBJ),
};
KS_DESC(free_d, "kfd_abi_free_memory_of_gpu_args", T, free_f);
#undef T

/* 0x18 MAP_MEMORY_TO_GPU */
#define T struct kfd_abi_map_memory_to_gpu_args
static const struct kfd_field map_f[] = {
	KS_FA(T, handle, IN, HANDLE, OBJ),		/* 0 */
	KS_F(T, device_ids_array_ptr, IN, PTR),		/* 1 */
	KS_F(T, n_devices, IN, COUNT),			/* 2 */
	KS_F(T, n_success, INOUT, COUNT),		/* 3 */
};
KS_DESC(map_d, "kfd_abi_map_memory_to_gpu_args", T, map_f);
#undef T

/* 0x19 UNMAP_MEMORY_FROM_GPU */
#define T struct kfd_abi_unmap_memory_from_gpu_args
static const struct kfd_field unmap_f[] = {
	KS_FA(T, handle, IN, HANDLE, OBJ),		/* 0 */
	KS_F(T, device_ids_array_ptr, IN, PTR),		/* 1 */
	KS_F(T, n_devices, IN, COUNT),			/* 2 */
	KS_F(T, n_success, INOUT, COUNT),		/* 3 */
};
KS_DESC(unmap_d, "kfd_abi_unmap_memory_from_gpu_args", T, unmap_f);
#undef T

static const struct kfd_indirect device_ids_b[] = {
	KS_BUF("device_ids", 1, 2, sizeof(uint32_t), COUNT, IN, -1, 0,
	       &ks_u32_gpu_id_desc),
};

/* 0x1C GET_DMABUF_INFO */
#define T struct kfd_abi_get_dmabuf_info_args
static const struct kfd_field dmabuf_info_f[] = {
	KS_FA(T, size, OUT, SIZE, SIZE),		/* 0 */
	KS_F(T, metadata_ptr, IN, PTR),			/* 1 */
	KS_F(T, metadata_size, INOUT, SIZE),		/* 2 */
	KS_FA(T, gpu_id, OUT, GPU_ID, GPU),
	KS_FNA(T, flags, OUT, FLAGS, ks_alloc_flags, FLAGS),
	KS_FA(T, dmabuf_fd, IN, FD, OBJ),
};
KS_DESC(dmabuf_info_d, "kfd_abi_get_dmabuf_info_args", T, dmabuf_info_f);
#undef T
static const struct kfd_indirect dmabuf_info_b[] = {
	KS_BUF("metadata", 1, 2, 1, CAPACITY, OUT, -1, 0, NULL),
};

/* 0x1D IMPORT_DMABUF */
#define T struct kfd_abi_import_dmabuf_args
static const struct kfd_field import_f[] = {
	KS_FA(T, va_addr, IN, GPU_VA, VA),
	KS_FA(T, handle, OUT, HANDLE, OBJ),
	KS_FA(T, gpu_id, IN, GPU_ID, GPU),
	KS_FA(T, dmabuf_fd, IN, FD, SOURCE),
};
KS_DESC(import_d, "kfd_abi_import_dmabuf_args", T, import_f);
#undef T

/* 0x24 EXPORT_DMABUF */
#define T struct kfd_abi_export_dmabuf_args
static const struct kfd_field export_f[] = {
	KS_FA(T, handle, IN, HANDLE, SOURCE),
	KS_FN(T, flags, IN, FLAGS, ks_fd_flags),
	KS_FA(T, dmabuf_fd, OUT, FD, OBJ),
};
KS_DESC(export_d, "kfd_abi_export_dmabuf_args", T, export_f);
#undef T

const struct kfd_ioctl_desc ks_rows_memory[] = {
	{
		KS_KFD_ROW("ACQUIRE_VM", "acquire_vm", 0x15,
			   KFD_ABI_IOC_ACQUIRE_VM, 1),
		KS_ARGS(acquire_vm_d),
	},
	{
		KS_KFD_ROW("ALLOC_MEMORY_OF_GPU", "alloc_memory_of_gpu", 0x16,
			   KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, 1),
		.free_mem = KFD_FREE_MEM_CHANGES,
		KS_CREATES(BUFFER),
		KS_ARGS(alloc_d),
	},
	{
		KS_KFD_ROW("FREE_MEMORY_OF_GPU", "free_memory_of_gpu", 0x17,
			   KFD_ABI_IOC_FREE_MEMORY_OF_GPU, 1),
		.free_mem = KFD_FREE_MEM_CHANGES,
		KS_ENDS(BUFFER),
		KS_ARGS(free_d),
	},
	{
		KS_KFD_ROW("MAP_MEMORY_TO_GPU", "map_memory_to_gpu", 0x18,
			   KFD_ABI_IOC_MAP_MEMORY_TO_GPU, 1),
		KS_ARGS(map_d),
		KS_BUFS(device_ids_b),
	},
	{
		KS_KFD_ROW("UNMAP_MEMORY_FROM_GPU", "unmap_memory_from_gpu", 0x19,
			   KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, 1),
		KS_ARGS(unmap_d),
		KS_BUFS(device_ids_b),
	},
	{
		KS_KFD_ROW("GET_DMABUF_INFO", "get_dmabuf_info", 0x1C,
			   KFD_ABI_IOC_GET_DMABUF_INFO, 1),
		KS_ARGS(dmabuf_info_d),
		KS_BUFS(dmabuf_info_b),
	},
	{
		KS_KFD_ROW("IMPORT_DMABUF", "import_dmabuf", 0x1D,
			   KFD_ABI_IOC_IMPORT_DMABUF, 1),
		.free_mem = KFD_FREE_MEM_CHANGES,
		KS_CREATES_FROM(BUFFER, DMABUF),
		KS_ARGS(import_d),
	},
	{
		KS_KFD_ROW("EXPORT_DMABUF", "export_dmabuf", 0x24,
			   KFD_ABI_IOC_EXPORT_DMABUF, 12),
		KS_CREATES_FROM(DMABUF, BUFFER),
		KS_ARGS(export_d),
	},
};
KS_DEFINE_COUNT(memory);
