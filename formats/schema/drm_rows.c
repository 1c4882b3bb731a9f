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
	KS_FA(T, handle, IN, GEM_HANDLE, OBJ),
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
	KS_FA(T, handle, IN, GEM_HANDLE, SOURCE),
	KS_FN(T, flags, IN, FLAGS, ks_fd_flags),
	KS_FIA(T, fd, OUT, FD, OBJ),
};
KS_DESC(handle_to_fd_d, "kfd_drm_prime_handle", T, handle_to_fd_f);

static const struct kfd_field fd_to_handle_f[] = {
	KS_FA(T, handle, OUT, GEM_HANDLE, OBJ),
	KS_F(T, flags, IN, HEX),
	KS_FIA(T, fd, IN, FD, SOURCE),
};
KS_DESC(fd_to_handle_d, "kfd_drm_prime_handle", T, fd_to_handle_f);
#undef T

/* The GEM unions: input and output overlay each other. */
#define T union kfd_drm_amdgpu_gem_create
static const struct kfd_field gem_create_f[] = {
	KS_FA(T, in.bo_size, IN, SIZE, SIZE),
	KS_F(T, in.alignment, IN, SIZE),
	KS_FNA(T, in.domains, IN, FLAGS, ks_gem_domains, FLAGS),
	KS_FN(T, in.domain_flags, IN, FLAGS, ks_gem_create_flags),
	KS_FA(T, out.handle, OUT, GEM_HANDLE, OBJ),
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

/*
 * AMDGPU_CTX: in.op picks the fields. in.flags and in.ctx_id are read by
 * every op (flags must be 0 but for SET_STABLE_PSTATE, where it is the
 * pstate; ALLOC_CTX ignores ctx_id). The outputs overlay the input and
 * are read from the after-image. Context ids are plain numbers.
 */
#define T union kfd_drm_amdgpu_ctx
#define O(op)	KFD_DRM_AMDGPU_CTX_OP_##op
static const struct kfd_field ctx_f[] = {
	KS_FN(T, in.op, IN, ENUM, ks_ctx_op),			/* 0 */
	KS_F(T, in.flags, IN, HEX),
	KS_F(T, in.ctx_id, IN, NONE),
	KS_FULL(T, in.priority, IN, ENUM, 1, 0, 0, O(ALLOC_CTX), &ks_ctx_priority),
	KS_FS(T, out.alloc.ctx_id, OUT, NONE, 0, O(ALLOC_CTX)),
	KS_FS(T, out.state.hangs, OUT, NONE, 0, O(QUERY_STATE)),
	KS_FSN(T, out.state.reset_status, OUT, ENUM, 0, O(QUERY_STATE), ks_ctx_reset),
	KS_NFULL("out.state2.flags", T, out.state.flags, OUT, FLAGS, 0, 0, 0,
		 O(QUERY_STATE2), &ks_ctx_query2_flags),
	KS_FSNAMED("out.state2.hangs", T, out.state.hangs, OUT, NONE, 0,
		   O(QUERY_STATE2)),
	KS_FSN(T, out.pstate.flags, OUT, ENUM, 0, O(GET_STABLE_PSTATE), ks_ctx_pstate),
};
KS_DESC(ctx_d, "kfd_drm_amdgpu_ctx", T, ctx_f);
#undef O
#undef T

/*
 * AMDGPU_BO_LIST: every op reads the entry array (bo_number entries of
 * bo_info_size bytes, 8 for every libdrm; DESTROY usually has none). The output overlays
 * in.operation. List handles are file-local numbers, like context ids.
 */
#define T union kfd_drm_amdgpu_bo_list
static const struct kfd_field bo_list_f[] = {
	KS_FN(T, in.operation, IN, ENUM, ks_bo_list_op),	/* 0 */
	KS_F(T, in.list_handle, IN, NONE),
	KS_F(T, in.bo_number, IN, COUNT),			/* 2 */
	KS_F(T, in.bo_info_size, IN, SIZE),			/* 3 */
	KS_F(T, in.bo_info_ptr, IN, PTR),			/* 4 */
	KS_F(T, out.list_handle, OUT, NONE),
};
KS_DESC(bo_list_d, "kfd_drm_amdgpu_bo_list", T, bo_list_f);
#undef T
#define T struct kfd_drm_amdgpu_bo_list_entry
static const struct kfd_field bo_list_entry_f[] = {
	KS_F(T, bo_handle, IN, GEM_HANDLE),
	KS_F(T, bo_priority, IN, NONE),
};
KS_DESC(bo_list_entry_d, "kfd_drm_amdgpu_bo_list_entry", T, bo_list_entry_f);
#undef T
/* Entries are read at the kernel's size; libdrm's stride is that size. */
static const struct kfd_indirect bo_list_b[] = {
	KS_BUF("bo_info", 4, 2, sizeof(struct kfd_drm_amdgpu_bo_list_entry), COUNT,
	       IN, -1, 0, &bo_list_entry_d),
};

/*
 * AMDGPU_CS: in.chunks holds num_chunks addresses, each of a chunk
 * header that points at its data. The trace keeps the address array;
 * the headers and their data are one level further and are not kept,
 * so the replayer does not reissue it (nor WAIT_CS, which waits for it).
 * The output (the sequence number) overlays ctx_id and bo_list_handle.
 */
#define T union kfd_drm_amdgpu_cs
static const struct kfd_field cs_f[] = {
	KS_F(T, in.ctx_id, IN, NONE),
	KS_F(T, in.bo_list_handle, IN, NONE),
	KS_F(T, in.num_chunks, IN, COUNT),			/* 2 */
	KS_F(T, in.flags, IN, HEX),
	KS_F(T, in.chunks, IN, PTR),				/* 4 */
	KS_F(T, out.handle, OUT, NONE),
};
KS_DESC(cs_d, "kfd_drm_amdgpu_cs", T, cs_f);
#undef T
struct ks_u64_addr {
	uint64_t addr;
};
static const struct kfd_field u64_addr_f[] = {
	KS_F(struct ks_u64_addr, addr, IN, PTR),
};
KS_DESC(u64_addr_d, "u64_chunk_address", struct ks_u64_addr, u64_addr_f);
static const struct kfd_indirect cs_b[] = {
	KS_BUF("chunks", 4, 2, 8, COUNT, IN, -1, 0, &u64_addr_d),
};

/* AMDGPU_WAIT_CS: the output overlays in.handle. */
#define T union kfd_drm_amdgpu_wait_cs
static const struct kfd_field wait_cs_f[] = {
	KS_F(T, in.handle, IN, NONE),
	KS_F(T, in.timeout, IN, NONE),
	KS_FN(T, in.ip_type, IN, ENUM, ks_hw_ip),
	KS_F(T, in.ip_instance, IN, NONE),
	KS_F(T, in.ring, IN, NONE),
	KS_F(T, in.ctx_id, IN, NONE),
	KS_F(T, out.status, OUT, NONE),
};
KS_DESC(wait_cs_d, "kfd_drm_amdgpu_wait_cs", T, wait_cs_f);
#undef T

/* AMDGPU_INFO: fields[2] (query) selects the union arm. */
#define T struct kfd_drm_amdgpu_info
#define Q	2
#define A(m, d, r, q)		KS_FS(T, m, d, r, Q, KFD_DRM_AMDGPU_INFO_##q)
static const struct kfd_field info_f[] = {
	KS_F(T, return_pointer, IN, PTR),			/* 0 */
	KS_F(T, return_size, IN, SIZE),				/* 1 */
	KS_FNA(T, query, IN, ENUM, ks_info_query, OP),		/* 2 */
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
	KS_NFULL("uq_fw_areas.type", T, query_hw_ip.type, IN, ENUM, 0, 0, Q,
		 KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS, &ks_hw_ip),
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

/*
 * USERQ: in.op picks the fields. The output overlays in.op, so it is
 * read from the after-image while the selector reads the before-image.
 * User queue ids name no KFD queue: they are plain numbers here.
 */
#define T union kfd_drm_amdgpu_userq
#define C(m, r)		KS_FS(T, in.m, IN, r, 0, KFD_DRM_AMDGPU_USERQ_OP_CREATE)
static const struct kfd_field userq_f[] = {
	KS_FN(T, in.op, IN, ENUM, ks_userq_op),			/* 0 */
	KS_FS(T, in.queue_id, IN, NONE, 0, KFD_DRM_AMDGPU_USERQ_OP_FREE),
	KS_FSN(T, in.ip_type, IN, ENUM, 0, KFD_DRM_AMDGPU_USERQ_OP_CREATE,
	       ks_hw_ip),
	C(doorbell_handle, GEM_HANDLE),
	C(doorbell_offset, NONE),
	KS_FSN(T, in.flags, IN, FLAGS, 0, KFD_DRM_AMDGPU_USERQ_OP_CREATE,
	       ks_userq_flags),
	C(queue_va, GPU_VA),
	C(queue_size, SIZE),
	C(rptr_va, GPU_VA),
	C(wptr_va, GPU_VA),
	C(mqd, PTR),						/* 10 */
	C(mqd_size, SIZE),					/* 11 */
	KS_FS(T, out.queue_id, OUT, NONE, 0, KFD_DRM_AMDGPU_USERQ_OP_CREATE),
};
KS_DESC(userq_d, "kfd_drm_amdgpu_userq", T, userq_f);
#undef C
#undef T
static const struct kfd_indirect userq_b[] = {
	KS_BUF("mqd", 10, 11, 1, BYTES, IN, 0, KFD_DRM_AMDGPU_USERQ_OP_CREATE,
	       NULL),
};

/* Elements of the handle arrays the user queue requests carry. */
struct ks_u32_gem {
	uint32_t handle;
};
static const struct kfd_field u32_gem_f[] = {
	KS_F(struct ks_u32_gem, handle, IN, GEM_HANDLE),
};
KS_DESC(u32_gem_d, "u32_gem_handle", struct ks_u32_gem, u32_gem_f);

/* Syncobj handles are file-local ids the replayer has no space for. */
struct ks_u32_syncobj {
	uint32_t syncobj;
};
static const struct kfd_field u32_syncobj_f[] = {
	KS_F(struct ks_u32_syncobj, syncobj, IN, NONE),
};
KS_DESC(u32_syncobj_d, "u32_syncobj", struct ks_u32_syncobj, u32_syncobj_f);

struct ks_u64_point {
	uint64_t point;
};
static const struct kfd_field u64_point_f[] = {
	KS_F(struct ks_u64_point, point, IN, NONE),
};
KS_DESC(u64_point_d, "u64_timeline_point", struct ks_u64_point, u64_point_f);

#define T struct kfd_drm_amdgpu_userq_signal
static const struct kfd_field userq_signal_f[] = {
	KS_F(T, queue_id, IN, NONE),
	KS_F(T, pad, NONE, PAD),
	KS_F(T, syncobj_handles, IN, PTR),			/* 2 */
	KS_F(T, num_syncobj_handles, IN, COUNT),		/* 3 */
	KS_F(T, bo_read_handles, IN, PTR),			/* 4 */
	KS_F(T, bo_write_handles, IN, PTR),			/* 5 */
	KS_F(T, num_bo_read_handles, IN, COUNT),		/* 6 */
	KS_F(T, num_bo_write_handles, IN, COUNT),		/* 7 */
};
KS_DESC(userq_signal_d, "kfd_drm_amdgpu_userq_signal", T, userq_signal_f);
#undef T
static const struct kfd_indirect userq_signal_b[] = {
	KS_BUF("syncobj_handles", 2, 3, 4, COUNT, IN, -1, 0, &u32_syncobj_d),
	KS_BUF("bo_read_handles", 4, 6, 4, COUNT, IN, -1, 0, &u32_gem_d),
	KS_BUF("bo_write_handles", 5, 7, 4, COUNT, IN, -1, 0, &u32_gem_d),
};

#define T struct kfd_drm_amdgpu_userq_fence_info
static const struct kfd_field fence_info_f[] = {
	KS_F(T, va, OUT, HEX),
	KS_F(T, value, OUT, NONE),
};
KS_DESC(fence_info_d, "kfd_drm_amdgpu_userq_fence_info", T, fence_info_f);
#undef T

#define T struct kfd_drm_amdgpu_userq_wait
static const struct kfd_field userq_wait_f[] = {
	KS_F(T, waitq_id, IN, NONE),
	KS_F(T, pad, NONE, PAD),
	KS_F(T, syncobj_handles, IN, PTR),			/* 2 */
	KS_F(T, syncobj_timeline_handles, IN, PTR),		/* 3 */
	KS_F(T, syncobj_timeline_points, IN, PTR),		/* 4 */
	KS_F(T, bo_read_handles, IN, PTR),			/* 5 */
	KS_F(T, bo_write_handles, IN, PTR),			/* 6 */
	KS_F(T, num_syncobj_timeline_handles, IN, COUNT),	/* 7 */
	KS_F(T, num_fences, INOUT, COUNT),			/* 8 */
	KS_F(T, num_syncobj_handles, IN, COUNT),		/* 9 */
	KS_F(T, num_bo_read_handles, IN, COUNT),		/* 10 */
	KS_F(T, num_bo_write_handles, IN, COUNT),		/* 11 */
	KS_F(T, out_fences, IN, PTR),				/* 12 */
};
KS_DESC(userq_wait_d, "kfd_drm_amdgpu_userq_wait", T, userq_wait_f);
#undef T
static const struct kfd_indirect userq_wait_b[] = {
	KS_BUF("syncobj_handles", 2, 9, 4, COUNT, IN, -1, 0, &u32_syncobj_d),
	KS_BUF("syncobj_timeline_handles", 3, 7, 4, COUNT, IN, -1, 0,
	       &u32_syncobj_d),
	KS_BUF("syncobj_timeline_points", 4, 7, 8, COUNT, IN, -1, 0,
	       &u64_point_d),
	KS_BUF("bo_read_handles", 5, 10, 4, COUNT, IN, -1, 0, &u32_gem_d),
	KS_BUF("bo_write_handles", 6, 11, 4, COUNT, IN, -1, 0, &u32_gem_d),
	KS_BUF("out_fences", 12, 8, sizeof(struct kfd_drm_amdgpu_userq_fence_info),
	       CAPACITY, OUT, -1, 0, &fence_info_d),
};

#define T struct kfd_drm_amdgpu_gem_list_handles_entry
static const struct kfd_field list_entry_f[] = {
	KS_F(T, gem_handle, OUT, GEM_HANDLE),
	KS_FN(T, flags, OUT, FLAGS, ks_list_handles_flags),
	KS_F(T, size, OUT, SIZE),
	KS_FN(T, preferred_domains, OUT, FLAGS, ks_gem_domains),
	KS_FN(T, alloc_flags, OUT, FLAGS, ks_gem_create_flags),
	KS_F(T, alignment, OUT, NONE),
};
KS_DESC(list_entry_d, "kfd_drm_amdgpu_gem_list_handles_entry", T, list_entry_f);
#undef T

/*
 * GEM_LIST_HANDLES: num_entries is the capacity in, the handle count out.
 * A count above the capacity means nothing was written; the after-image
 * is bounded by the capacity all the same.
 */
#define T struct kfd_drm_amdgpu_gem_list_handles
static const struct kfd_field list_handles_f[] = {
	KS_F(T, entries, IN, PTR),				/* 0 */
	KS_F(T, num_entries, INOUT, COUNT),			/* 1 */
	KS_F(T, padding, NONE, PAD),
};
KS_DESC(list_handles_d, "kfd_drm_amdgpu_gem_list_handles", T, list_handles_f);
#undef T
static const struct kfd_indirect list_handles_b[] = {
	KS_BUF("entries", 0, 1, sizeof(struct kfd_drm_amdgpu_gem_list_handles_entry),
	       CAPACITY, OUT, -1, 0, &list_entry_d),
};

const struct kfd_ioctl_desc ks_rows_drm[] = {
	{
		KS_DRM_ROW("DRM_VERSION", "drm_version", 0x00, KFD_DRM_IOCTL_VERSION),
		KS_ARGS(version_d),
		KS_BUFS(version_b),
	},
	{
		KS_DRM_ROW("DRM_GEM_CLOSE", "drm_gem_close", 0x09,
			   KFD_DRM_IOCTL_GEM_CLOSE),
		KS_ENDS(GEM),
		KS_ARGS(gem_close_d),
	},
	{
		KS_DRM_ROW("DRM_GET_CAP", "drm_get_cap", 0x0c, KFD_DRM_IOCTL_GET_CAP),
		KS_ARGS(get_cap_d),
	},
	{
		KS_DRM_ROW("DRM_PRIME_HANDLE_TO_FD", "drm_prime_handle_to_fd", 0x2d,
			   KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD),
		KS_CREATES_FROM(DMABUF, GEM),
		KS_ARGS(handle_to_fd_d),
	},
	{
		KS_DRM_ROW("DRM_PRIME_FD_TO_HANDLE", "drm_prime_fd_to_handle", 0x2e,
			   KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE),
		KS_CREATES_FROM(GEM, DMABUF),
		KS_ARGS(fd_to_handle_d),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_CREATE", "amdgpu_gem_create",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_CREATE,
			   KFD_DRM_IOCTL_AMDGPU_GEM_CREATE),
		KS_CREATES(GEM),
		KS_ARGS(gem_create_d),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_MMAP", "amdgpu_gem_mmap",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_MMAP,
			   KFD_DRM_IOCTL_AMDGPU_GEM_MMAP),
		KS_ARGS(gem_mmap_d),
	},
	{
		KS_DRM_ROW("AMDGPU_CTX", "amdgpu_ctx",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_CTX,
			   KFD_DRM_IOCTL_AMDGPU_CTX),
		KS_ARGS(ctx_d),
	},
	{
		KS_DRM_ROW("AMDGPU_BO_LIST", "amdgpu_bo_list",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_BO_LIST,
			   KFD_DRM_IOCTL_AMDGPU_BO_LIST),
		KS_ARGS(bo_list_d),
		KS_BUFS(bo_list_b),
	},
	{
		KS_DRM_ROW("AMDGPU_CS", "amdgpu_cs",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_CS,
			   KFD_DRM_IOCTL_AMDGPU_CS),
		KS_ARGS(cs_d),
		KS_BUFS(cs_b),
		/* Its IBs run on memory the CPU wrote, which no trace holds,
		 * and its chunks lie two pointers deep. */
		.no_replay = 1,
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
	{
		KS_DRM_ROW("AMDGPU_WAIT_CS", "amdgpu_wait_cs",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_WAIT_CS,
			   KFD_DRM_IOCTL_AMDGPU_WAIT_CS),
		KS_ARGS(wait_cs_d),
		/* It waits for what a CS, never reissued, submitted. */
		.no_replay = 1,
	},
	{
		KS_DRM_ROW("AMDGPU_USERQ", "amdgpu_userq",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_USERQ,
			   KFD_DRM_IOCTL_AMDGPU_USERQ),
		KS_ARGS(userq_d),
		KS_BUFS(userq_b),
	},
	{
		KS_DRM_ROW("AMDGPU_USERQ_SIGNAL", "amdgpu_userq_signal",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_USERQ_SIGNAL,
			   KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL),
		KS_ARGS(userq_signal_d),
		KS_BUFS(userq_signal_b),
	},
	{
		KS_DRM_ROW("AMDGPU_USERQ_WAIT", "amdgpu_userq_wait",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_USERQ_WAIT,
			   KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT),
		KS_ARGS(userq_wait_d),
		KS_BUFS(userq_wait_b),
	},
	{
		KS_DRM_ROW("AMDGPU_GEM_LIST_HANDLES", "amdgpu_gem_list_handles",
			   KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_LIST_HANDLES,
			   KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES),
		KS_ARGS(list_handles_d),
		KS_BUFS(list_handles_b),
	},
};
KS_DEFINE_COUNT(drm);
