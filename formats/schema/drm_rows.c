/* SPDX-License-Identifier: MIT */
/*
 * Render-node rows: the DRM core and amdgpu requests a KFD process issues
 * on /dev/dri/renderD* (directly or through libdrm).
 */
#include "schema_priv.h"

/* DRM_IOCTL_VERSION: three caller buffers, lengths in, full lengths out. */
#define T struct kfd_drm_version
static const struct kfd_field version_f[] = {
	KS_FI(T, version_major, OUT, VERSION),
	KS_FI(T, version_minor, OUT, VERSION),
	KS_FI(T, version_patchlevel, OUT, VERSION),
	KS_F(T, pad, NONE, PAD),
	KS_F(T, name_len, INOUT, SIZE),				/* 4 */
	KS_F(T, name, IN, PTR),					/* 5 */
	KS_F(T, date_len, INOUT, SIZE),				/* 6 */
	KS_F(T, date, IN, PTR),					/* 7 */
	KS_F(T, desc_len, INOUT, SIZE),				/* 8 */
	KS_F(T, desc, IN, PTR),					/* 9 */
};
KS_DESC(version_d, "kfd_drm_version", T, version_f);
#undef T
static const struct kfd_indirect version_b[] = {
	KS_BUF("name", 5, 4, 1, CAPACITY, OUT, -1, 0, NULL),
	KS_BUF("date", 7, 6, 1, CAPACITY, OUT, -1, 0, NULL),
	KS_BUF("desc", 9, 8, 1, CAPACITY, OUT, -1, 0, NULL),
};

#define T struct kfd_drm_gem_close
static const struct kfd_field gem_close_f[] = {
	KS_F(T, handle, IN, GEM_HANDLE),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(gem_close_d, "kfd_drm_gem_close", T, gem_close_f);
#undef T

#define T struct kfd_drm_get_cap
static const struct kfd_field get_cap_f[] = {
	KS_FN(T, capability, IN, ENUM, ks_drm_cap),
	KS_F(T, value, OUT, HEX),
};
KS_DESC(get_cap_d, "kfd_drm_get_cap", T, get_cap_f);
#undef T

#define T struct kfd_drm_prime_handle
static const struct kfd_field handle_to_fd_f[] = {
	KS_F(T, handle, IN, GEM_HANDLE),
	KS_FN(T, flags, IN, FLAGS, ks_fd_flags),
	KS_FI(T, fd, OUT, FD),
};
KS_DESC(handle_to_fd_d, "kfd_drm_prime_handle", T, handle_to_fd_f);

static const struct kfd_field fd_to_handle_f[] = {
	KS_F(T, handle, OUT, GEM_HANDLE),
	KS_F(T, flags, IN, HEX),
	KS_FI(T, fd, IN, FD),
};
KS_DESC(fd_to_handle_d, "kfd_drm_prime_handle", T, fd_to_handle_f);
#undef T

/* The GEM unions: input and output overlay each other. */
#define T union kfd_drm_amdgpu_gem_create
static const struct kfd_field gem_create_f[] = {
	KS_F(T, in.bo_size, IN, SIZE),
	KS_F(T, in.alignment, IN, SIZE),
	KS_FN(T, in.domains, IN, FLAGS, ks_gem_domains),
	KS_FN(T, in.domain_flags, IN, FLAGS, ks_gem_create_flags),
	KS_F(T, out.handle, OUT, GEM_HANDLE),
};
KS_DESC(gem_create_d, "kfd_drm_amdgpu_gem_create", T, gem_create_f);
#undef T

#define T union kfd_drm_amdgpu_gem_mmap
static const struct kfd_field gem_mmap_f[] = {
	KS_F(T, in.handle, IN, GEM_HANDLE),
	KS_F(T, out.addr_ptr, OUT, MMAP_OFFSET),
};
KS_DESC(gem_mmap_d, "kfd_drm_amdgpu_gem_mmap", T, gem_mmap_f);
#undef T

/* AMDGPU_INFO: fields[2] (query) selects the union arm. */
#define T struct kfd_drm_amdgpu_info
#define Q	2
#define A(m, d, r, q)		KS_FS(T, m, d, r, Q, KFD_DRM_AMDGPU_INFO_##q)
static const struct kfd_field info_f[] = {
	KS_F(T, return_pointer, IN, PTR),			/* 0 */
	KS_F(T, return_size, IN, SIZE),				/* 1 */
	KS_FN(T, query, IN, ENUM, ks_info_query),		/* 2 */
	A(mode_crtc.id, IN, NONE, CRTC_FROM_ID),
	A(query_hw_ip.type, IN, NONE, HW_IP_INFO),
	A(query_hw_ip.ip_instance, IN, NONE, HW_IP_INFO),
	KS_FSNAMED("hw_ip_count.type", T, query_hw_ip.type, IN, NONE, Q,
		   KFD_DRM_AMDGPU_INFO_HW_IP_COUNT),
	A(read_mmr_reg.dword_offset, IN, HEX, READ_MMR_REG),
	A(read_mmr_reg.count, IN, COUNT, READ_MMR_REG),
	A(read_mmr_reg.instance, IN, HEX, READ_MMR_REG),
	A(read_mmr_reg.flags, IN, HEX, READ_MMR_REG),
	KS_FSN(T, query_fw.fw_type, IN, ENUM, Q, KFD_DRM_AMDGPU_INFO_FW_VERSION,
	       ks_fw_type),
	A(query_fw.ip_instance, IN, NONE, FW_VERSION),
	A(query_fw.index, IN, NONE, FW_VERSION),
	A(vbios_info.type, IN, NONE, VBIOS),
	A(vbios_info.offset, IN, NONE, VBIOS),
	A(sensor_info.type, IN, NONE, SENSOR),
	A(video_cap.type, IN, NONE, VIDEO_CAPS),
};
KS_DESC(info_d, "kfd_drm_amdgpu_info", T, info_f);
#undef A
#undef Q
#undef T
/* An _IOW request whose result goes to return_pointer. */
static const struct kfd_indirect info_b[] = {
	KS_BUF("result", 0, 1, 1, BYTES, OUT, -1, 0, NULL),
};

#define T struct kfd_drm_amdgpu_gem_metadata
static const struct kfd_field gem_metadata_f[] = {
	KS_F(T, handle, IN, GEM_HANDLE),
	KS_FN(T, op, IN, ENUM, ks_gem_metadata_op),
	KS_F(T, data.flags, INOUT, HEX),
	KS_F(T, data.tiling_info, INOUT, HEX),
	KS_F(T, data.data_size_bytes, INOUT, SIZE),
	KS_F(T, data.data, INOUT, BYTES),
	KS_F(T, data._pad, NONE, PAD),
};
KS_DESC(gem_metadata_d, "kfd_drm_amdgpu_gem_metadata", T, gem_metadata_f);
#undef T

#define T struct kfd_drm_amdgpu_gem_va
static const struct kfd_field gem_va_f[] = {
	KS_F(T, handle, IN, GEM_HANDLE),
	KS_F(T, _pad, NONE, PAD),
	KS_FN(T, operation, IN, ENUM, ks_va_op),
	KS_FN(T, flags, IN, FLAGS, ks_vm_flags),
	KS_F(T, va_address, IN, GPU_VA),
	KS_F(T, offset_in_bo, IN, SIZE),
	KS_F(T, map_size, IN, SIZE),
};
KS_DESC(gem_va_d, "kfd_drm_amdgpu_gem_va", T, gem_va_f);
#undef T

const struct kfd_ioctl_desc ks_rows_drm[] = {
	{
		KS_DRM_ROW("DRM_VERSION", "drm_version", 0x00, KFD_DRM_IOCTL_VERSION),
		KS_ARGS(version_d),
		KS_BUFS(version_b),
	},
	{
		KS_DRM_ROW("DRM_GEM_CLOSE", "drm_gem_close", 0x09,
			   KFD_DRM_IOCTL_GEM_CLOSE),
		KS_ARGS(gem_close_d),
	},
	{
		KS_DRM_ROW("DRM_GET_CAP", "drm_get_cap", 0x0c, KFD_DRM_IOCTL_GET_CAP),
		KS_ARGS(get_cap_d),
	},
	{
		KS_DRM_ROW("DRM_PRIME_HANDLE_TO_FD", "drm_prime_handle_to_fd", 0x2d,
			   KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD),
		KS_ARGS(handle_to_fd_d),
	},
	{
		KS_DRM_ROW("DRM_PRIME_FD_TO_HANDLE", "drm_prime_fd_to_handle", 0x2e,
			   KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE),
		KS_ARGS(fd_to_handle_d),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_CREATE", "amdgpu_gem_create",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_CREATE,
			   KFD_DRM_IOCTL_AMDGPU_GEM_CREATE),
		KS_ARGS(gem_create_d),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_MMAP", "amdgpu_gem_mmap",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_MMAP,
			   KFD_DRM_IOCTL_AMDGPU_GEM_MMAP),
		KS_ARGS(gem_mmap_d),
	},
	{
		KS_DRM_ROW("AMDGPU_INFO", "amdgpu_info",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_INFO,
			   KFD_DRM_IOCTL_AMDGPU_INFO),
		KS_ARGS(info_d),
		KS_BUFS(info_b),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_METADATA", "amdgpu_gem_metadata",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_METADATA,
			   KFD_DRM_IOCTL_AMDGPU_GEM_METADATA),
		KS_ARGS(gem_metadata_d),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_VA", "amdgpu_gem_va",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_VA,
			   KFD_DRM_IOCTL_AMDGPU_GEM_VA),
		KS_ARGS(gem_va_d),
	},
};
KS_DEFINE_COUNT(drm);
