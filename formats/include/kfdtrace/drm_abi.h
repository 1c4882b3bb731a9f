/* SPDX-License-Identifier: MIT */
/*
 * The part of the DRM and amdgpu render-node ABI a KFD process depends on,
 * written for kfdtrace from the published layouts.
 *
 * A ROCm process opens /dev/dri/renderD* per GPU to hand its VM to KFD
 * (ACQUIRE_VM), to mmap BOs at the offsets ALLOC_MEMORY_OF_GPU returns, and
 * (through libdrm) to query the device. These are the requests on that fd.
 * Checked against libdrm's <drm.h> and <amdgpu_drm.h> at build time where
 * they are installed (formats/schema/abi_check.c).
 *
 * Pointers and size_t members are spelled uint64_t: the layouts are those of
 * a 64-bit process, the only kind KFD accepts.
 */
#ifndef KFDTRACE_DRM_ABI_H
#define KFDTRACE_DRM_ABI_H

#include <stdint.h>
#include <linux/ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KFD_DRM_IOCTL_BASE		'd'
/* Driver-private requests start here. */
#define KFD_DRM_COMMAND_BASE		0x40

/* ------------------------------------------------------------------ */
/* Core DRM                                                            */
/* ------------------------------------------------------------------ */

/* DRM_IOCTL_VERSION: the caller supplies three buffers and their sizes. */
struct kfd_drm_version {
	int32_t version_major;		/* out */
	int32_t version_minor;		/* out */
	int32_t version_patchlevel;	/* out */
	uint32_t pad;
	uint64_t name_len;		/* in: capacity; out: full length */
	uint64_t name;			/* in: char buffer */
	uint64_t date_len;
	uint64_t date;
	uint64_t desc_len;
	uint64_t desc;
};

struct kfd_drm_get_cap {
	uint64_t capability;		/* in: KFD_DRM_CAP_* */
	uint64_t value;			/* out */
};

#define KFD_DRM_CAP_DUMB_BUFFER			0x1
#define KFD_DRM_CAP_VBLANK_HIGH_CRTC		0x2
#define KFD_DRM_CAP_DUMB_PREFERRED_DEPTH	0x3
#define KFD_DRM_CAP_DUMB_PREFER_SHADOW		0x4
#define KFD_DRM_CAP_PRIME			0x5
#define KFD_DRM_CAP_TIMESTAMP_MONOTONIC		0x6
#define KFD_DRM_CAP_ASYNC_PAGE_FLIP		0x7
#define KFD_DRM_CAP_CURSOR_WIDTH		0x8
#define KFD_DRM_CAP_CURSOR_HEIGHT		0x9
#define KFD_DRM_CAP_ADDFB2_MODIFIERS		0x10
#define KFD_DRM_CAP_PAGE_FLIP_TARGET		0x11
#define KFD_DRM_CAP_CRTC_IN_VBLANK_EVENT	0x12
#define KFD_DRM_CAP_SYNCOBJ			0x13
#define KFD_DRM_CAP_SYNCOBJ_TIMELINE		0x14

#define KFD_DRM_PRIME_CAP_IMPORT		0x1
#define KFD_DRM_PRIME_CAP_EXPORT		0x2

/* PRIME_HANDLE_TO_FD and PRIME_FD_TO_HANDLE share one struct. */
struct kfd_drm_prime_handle {
	uint32_t handle;		/* GEM handle: in for ->fd, out for ->handle */
	uint32_t flags;			/* in (->fd only): O_CLOEXEC | O_RDWR */
	int32_t fd;			/* dmabuf fd: out for ->fd, in for ->handle */
};

struct kfd_drm_gem_close {
	uint32_t handle;		/* in */
	uint32_t pad;
};

/* ------------------------------------------------------------------ */
/* amdgpu                                                              */
/* ------------------------------------------------------------------ */

#define KFD_DRM_AMDGPU_GEM_CREATE	0x00
#define KFD_DRM_AMDGPU_GEM_MMAP		0x01
#define KFD_DRM_AMDGPU_CTX		0x02
#define KFD_DRM_AMDGPU_BO_LIST		0x03
#define KFD_DRM_AMDGPU_CS		0x04
#define KFD_DRM_AMDGPU_INFO		0x05
#define KFD_DRM_AMDGPU_GEM_METADATA	0x06
#define KFD_DRM_AMDGPU_GEM_VA		0x08
#define KFD_DRM_AMDGPU_WAIT_CS		0x09
/* User queues (Linux 6.16, DRM 3.64; GFX11+ GPUs with MES only). */
#define KFD_DRM_AMDGPU_USERQ		0x16
#define KFD_DRM_AMDGPU_USERQ_SIGNAL	0x17
#define KFD_DRM_AMDGPU_USERQ_WAIT	0x18
/* Linux 6.18, still DRM 3.64. */
#define KFD_DRM_AMDGPU_GEM_LIST_HANDLES	0x19
/*
 * One past the last merged driver request. 0x1a and up carry competing
 * proposals and are decoded as unknown requests.
 */
#define KFD_DRM_AMDGPU_NUM_IOCTLS	0x1a

/* GEM domains */
#define KFD_DRM_AMDGPU_GEM_DOMAIN_CPU		0x1
#define KFD_DRM_AMDGPU_GEM_DOMAIN_GTT		0x2
#define KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM		0x4
#define KFD_DRM_AMDGPU_GEM_DOMAIN_GDS		0x8
#define KFD_DRM_AMDGPU_GEM_DOMAIN_GWS		0x10
#define KFD_DRM_AMDGPU_GEM_DOMAIN_OA		0x20
#define KFD_DRM_AMDGPU_GEM_DOMAIN_DOORBELL	0x40

/* GEM_CREATE domain_flags */
#define KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED	(1u << 0)
#define KFD_DRM_AMDGPU_GEM_CREATE_NO_CPU_ACCESS		(1u << 1)
#define KFD_DRM_AMDGPU_GEM_CREATE_CPU_GTT_USWC		(1u << 2)
#define KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CLEARED		(1u << 3)
#define KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS	(1u << 5)
#define KFD_DRM_AMDGPU_GEM_CREATE_VM_ALWAYS_VALID	(1u << 6)
#define KFD_DRM_AMDGPU_GEM_CREATE_EXPLICIT_SYNC		(1u << 7)
#define KFD_DRM_AMDGPU_GEM_CREATE_CP_MQD_GFX9		(1u << 8)
#define KFD_DRM_AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE	(1u << 9)
#define KFD_DRM_AMDGPU_GEM_CREATE_ENCRYPTED		(1u << 10)
#define KFD_DRM_AMDGPU_GEM_CREATE_PREEMPTIBLE		(1u << 11)
#define KFD_DRM_AMDGPU_GEM_CREATE_DISCARDABLE		(1u << 12)
#define KFD_DRM_AMDGPU_GEM_CREATE_COHERENT		(1u << 13)
#define KFD_DRM_AMDGPU_GEM_CREATE_UNCACHED		(1u << 14)
#define KFD_DRM_AMDGPU_GEM_CREATE_EXT_COHERENT		(1u << 15)
#define KFD_DRM_AMDGPU_GEM_CREATE_GFX12_DCC		(1u << 16)

struct kfd_drm_amdgpu_gem_create_in {
	uint64_t bo_size;
	uint64_t alignment;
	uint64_t domains;		/* KFD_DRM_AMDGPU_GEM_DOMAIN_* */
	uint64_t domain_flags;		/* KFD_DRM_AMDGPU_GEM_CREATE_* */
};

struct kfd_drm_amdgpu_gem_create_out {
	uint32_t handle;
	uint32_t _pad;
};

/* Input and output overlay each other. */
union kfd_drm_amdgpu_gem_create {
	struct kfd_drm_amdgpu_gem_create_in in;
	struct kfd_drm_amdgpu_gem_create_out out;
};

struct kfd_drm_amdgpu_gem_mmap_in {
	uint32_t handle;
	uint32_t _pad;
};

struct kfd_drm_amdgpu_gem_mmap_out {
	uint64_t addr_ptr;		/* fake offset for mmap() on the render fd */
};

union kfd_drm_amdgpu_gem_mmap {
	struct kfd_drm_amdgpu_gem_mmap_in in;
	struct kfd_drm_amdgpu_gem_mmap_out out;
};

#define KFD_DRM_AMDGPU_GEM_METADATA_OP_SET_METADATA	1
#define KFD_DRM_AMDGPU_GEM_METADATA_OP_GET_METADATA	2
#define KFD_DRM_AMDGPU_GEM_METADATA_MAX_DWORDS		64

struct kfd_drm_amdgpu_gem_metadata {
	uint32_t handle;
	uint32_t op;			/* KFD_DRM_AMDGPU_GEM_METADATA_OP_* */
	struct {
		uint64_t flags;
		uint64_t tiling_info;
		uint32_t data_size_bytes;	/* valid bytes of data[] */
		uint32_t data[KFD_DRM_AMDGPU_GEM_METADATA_MAX_DWORDS];
		uint32_t _pad;		/* implicit in libdrm's struct */
	} data;
};

#define KFD_DRM_AMDGPU_VA_OP_MAP		1
#define KFD_DRM_AMDGPU_VA_OP_UNMAP		2
#define KFD_DRM_AMDGPU_VA_OP_CLEAR		3
#define KFD_DRM_AMDGPU_VA_OP_REPLACE		4

#define KFD_DRM_AMDGPU_VM_DELAY_UPDATE		(1u << 0)
#define KFD_DRM_AMDGPU_VM_PAGE_READABLE		(1u << 1)
#define KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE	(1u << 2)
#define KFD_DRM_AMDGPU_VM_PAGE_EXECUTABLE	(1u << 3)
#define KFD_DRM_AMDGPU_VM_PAGE_PRT		(1u << 4)
#define KFD_DRM_AMDGPU_VM_MTYPE_MASK		(0xfu << 5)
#define KFD_DRM_AMDGPU_VM_MTYPE_DEFAULT		(0u << 5)
#define KFD_DRM_AMDGPU_VM_MTYPE_NC		(1u << 5)
#define KFD_DRM_AMDGPU_VM_MTYPE_WC		(2u << 5)
#define KFD_DRM_AMDGPU_VM_MTYPE_CC		(3u << 5)
#define KFD_DRM_AMDGPU_VM_MTYPE_UC		(4u << 5)
#define KFD_DRM_AMDGPU_VM_MTYPE_RW		(5u << 5)
#define KFD_DRM_AMDGPU_VM_PAGE_NOALLOC		(1u << 9)

struct kfd_drm_amdgpu_gem_va {
	uint32_t handle;		/* GEM handle (0 for CLEAR) */
	uint32_t _pad;
	uint32_t operation;		/* KFD_DRM_AMDGPU_VA_OP_* */
	uint32_t flags;			/* KFD_DRM_AMDGPU_VM_* */
	uint64_t va_address;
	uint64_t offset_in_bo;
	uint64_t map_size;
};

/* AMDGPU_INFO queries (the union arm follows the query id). */
#define KFD_DRM_AMDGPU_INFO_ACCEL_WORKING		0x00
#define KFD_DRM_AMDGPU_INFO_CRTC_FROM_ID		0x01
#define KFD_DRM_AMDGPU_INFO_HW_IP_INFO			0x02
#define KFD_DRM_AMDGPU_INFO_HW_IP_COUNT			0x03
#define KFD_DRM_AMDGPU_INFO_TIMESTAMP			0x05
#define KFD_DRM_AMDGPU_INFO_FW_VERSION			0x0e
#define KFD_DRM_AMDGPU_INFO_NUM_BYTES_MOVED		0x0f
#define KFD_DRM_AMDGPU_INFO_VRAM_USAGE			0x10
#define KFD_DRM_AMDGPU_INFO_GTT_USAGE			0x11
#define KFD_DRM_AMDGPU_INFO_GDS_CONFIG			0x13
#define KFD_DRM_AMDGPU_INFO_VRAM_GTT			0x14
#define KFD_DRM_AMDGPU_INFO_READ_MMR_REG		0x15
#define KFD_DRM_AMDGPU_INFO_DEV_INFO			0x16
#define KFD_DRM_AMDGPU_INFO_VIS_VRAM_USAGE		0x17
#define KFD_DRM_AMDGPU_INFO_NUM_EVICTIONS		0x18
#define KFD_DRM_AMDGPU_INFO_MEMORY			0x19
#define KFD_DRM_AMDGPU_INFO_VCE_CLOCK_TABLE		0x1A
#define KFD_DRM_AMDGPU_INFO_VBIOS			0x1B
#define KFD_DRM_AMDGPU_INFO_NUM_HANDLES			0x1C
#define KFD_DRM_AMDGPU_INFO_SENSOR			0x1D
#define KFD_DRM_AMDGPU_INFO_NUM_VRAM_CPU_PAGE_FAULTS	0x1E
#define KFD_DRM_AMDGPU_INFO_VRAM_LOST_COUNTER		0x1F
#define KFD_DRM_AMDGPU_INFO_RAS_ENABLED_FEATURES	0x20
#define KFD_DRM_AMDGPU_INFO_VIDEO_CAPS			0x21
#define KFD_DRM_AMDGPU_INFO_GPUVM_FAULT			0x23	/* DRM 3.55 */
#define KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS			0x24	/* DRM 3.64 */

/* AMDGPU_HW_IP_* (INFO's query_hw_ip.type, USERQ's ip_type) */
#define KFD_DRM_AMDGPU_HW_IP_GFX		0
#define KFD_DRM_AMDGPU_HW_IP_COMPUTE		1
#define KFD_DRM_AMDGPU_HW_IP_DMA		2
#define KFD_DRM_AMDGPU_HW_IP_UVD		3
#define KFD_DRM_AMDGPU_HW_IP_VCE		4
#define KFD_DRM_AMDGPU_HW_IP_UVD_ENC		5
#define KFD_DRM_AMDGPU_HW_IP_VCN_DEC		6
#define KFD_DRM_AMDGPU_HW_IP_VCN_ENC		7
#define KFD_DRM_AMDGPU_HW_IP_VCN_JPEG		8
#define KFD_DRM_AMDGPU_HW_IP_VPE		9

/* FW_VERSION fw_type values */
#define KFD_DRM_AMDGPU_INFO_FW_VCE		0x01
#define KFD_DRM_AMDGPU_INFO_FW_UVD		0x02
#define KFD_DRM_AMDGPU_INFO_FW_GMC		0x03
#define KFD_DRM_AMDGPU_INFO_FW_GFX_ME		0x04
#define KFD_DRM_AMDGPU_INFO_FW_GFX_PFP		0x05
#define KFD_DRM_AMDGPU_INFO_FW_GFX_CE		0x06
#define KFD_DRM_AMDGPU_INFO_FW_GFX_RLC		0x07
#define KFD_DRM_AMDGPU_INFO_FW_GFX_MEC		0x08
#define KFD_DRM_AMDGPU_INFO_FW_SMC		0x0a
#define KFD_DRM_AMDGPU_INFO_FW_SDMA		0x0b
#define KFD_DRM_AMDGPU_INFO_FW_SOS		0x0c
#define KFD_DRM_AMDGPU_INFO_FW_ASD		0x0d
#define KFD_DRM_AMDGPU_INFO_FW_VCN		0x0e
#define KFD_DRM_AMDGPU_INFO_FW_TA		0x13

/* READ_MMR_REG instance encoding: SE index in bits 0..7, SH in 8..15. */
#define KFD_DRM_AMDGPU_INFO_MMR_SE_INDEX_SHIFT	0
#define KFD_DRM_AMDGPU_INFO_MMR_SE_INDEX_MASK	0xff
#define KFD_DRM_AMDGPU_INFO_MMR_SH_INDEX_SHIFT	8
#define KFD_DRM_AMDGPU_INFO_MMR_SH_INDEX_MASK	0xff

struct kfd_drm_amdgpu_query_fw {
	uint32_t fw_type;		/* KFD_DRM_AMDGPU_INFO_FW_* */
	uint32_t ip_instance;
	uint32_t index;
	uint32_t _pad;
};

/*
 * AMDGPU_INFO is an _IOW request, but the kernel writes up to return_size
 * bytes of the query's result to return_pointer.
 */
struct kfd_drm_amdgpu_info {
	uint64_t return_pointer;
	uint32_t return_size;
	uint32_t query;			/* KFD_DRM_AMDGPU_INFO_* */
	union {
		struct {
			uint32_t id;
			uint32_t _pad;
		} mode_crtc;
		struct {
			uint32_t type;
			uint32_t ip_instance;
		} query_hw_ip;
		struct {
			uint32_t dword_offset;
			uint32_t count;		/* registers; result is count u32 */
			uint32_t instance;
			uint32_t flags;
		} read_mmr_reg;
		struct kfd_drm_amdgpu_query_fw query_fw;
		struct {
			uint32_t type;
			uint32_t offset;
		} vbios_info;
		struct {
			uint32_t type;
		} sensor_info;
		struct {
			uint32_t type;
		} video_cap;
	};
};

/* Result of FW_VERSION */
struct kfd_drm_amdgpu_info_firmware {
	uint32_t ver;
	uint32_t feature;
};

/* Result of VRAM_GTT */
struct kfd_drm_amdgpu_info_vram_gtt {
	uint64_t vram_size;
	uint64_t vram_cpu_accessible_size;
	uint64_t gtt_size;
};

struct kfd_drm_amdgpu_heap_info {
	uint64_t total_heap_size;
	uint64_t usable_heap_size;
	uint64_t heap_usage;
	uint64_t max_allocation;
};

/* Result of MEMORY */
struct kfd_drm_amdgpu_memory_info {
	struct kfd_drm_amdgpu_heap_info vram;
	struct kfd_drm_amdgpu_heap_info cpu_accessible_vram;
	struct kfd_drm_amdgpu_heap_info gtt;
};

#define KFD_DRM_AMDGPU_IDS_FLAGS_FUSION		0x1
#define KFD_DRM_AMDGPU_IDS_FLAGS_PREEMPTION	0x2
#define KFD_DRM_AMDGPU_IDS_FLAGS_TMZ		0x4

#define KFD_DRM_AMDGPU_FAMILY_UNKNOWN		0
#define KFD_DRM_AMDGPU_FAMILY_SI		110
#define KFD_DRM_AMDGPU_FAMILY_CI		120
#define KFD_DRM_AMDGPU_FAMILY_KV		125
#define KFD_DRM_AMDGPU_FAMILY_VI		130
#define KFD_DRM_AMDGPU_FAMILY_CZ		135
#define KFD_DRM_AMDGPU_FAMILY_AI		141	/* gfx9 dGPU (Vega, MI) */
#define KFD_DRM_AMDGPU_FAMILY_RV		142
#define KFD_DRM_AMDGPU_FAMILY_NV		143	/* gfx10 */
#define KFD_DRM_AMDGPU_FAMILY_VGH		144
#define KFD_DRM_AMDGPU_FAMILY_GC_11_0_0		145	/* gfx11 dGPU */
#define KFD_DRM_AMDGPU_FAMILY_YC		146

#define KFD_DRM_AMDGPU_VRAM_TYPE_UNKNOWN	0
#define KFD_DRM_AMDGPU_VRAM_TYPE_GDDR5		5
#define KFD_DRM_AMDGPU_VRAM_TYPE_HBM		6
#define KFD_DRM_AMDGPU_VRAM_TYPE_DDR4		8
#define KFD_DRM_AMDGPU_VRAM_TYPE_GDDR6		9
#define KFD_DRM_AMDGPU_VRAM_TYPE_DDR5		10

/*
 * Result of DEV_INFO, as far as Debian's libdrm knows it. Newer kernels
 * append fields; the kernel copies min(return_size, its size), so a caller
 * built against this layout is served the prefix.
 */
struct kfd_drm_amdgpu_info_device {
	uint32_t device_id;
	uint32_t chip_rev;
	uint32_t external_rev;
	uint32_t pci_rev;
	uint32_t family;		/* KFD_DRM_AMDGPU_FAMILY_* */
	uint32_t num_shader_engines;
	uint32_t num_shader_arrays_per_engine;
	uint32_t gpu_counter_freq;	/* kHz */
	uint64_t max_engine_clock;	/* kHz */
	uint64_t max_memory_clock;	/* kHz */
	uint32_t cu_active_number;
	uint32_t cu_ao_mask;
	uint32_t cu_bitmap[4][4];
	uint32_t enabled_rb_pipes_mask;
	uint32_t num_rb_pipes;
	uint32_t num_hw_gfx_contexts;
	uint32_t _pad;
	uint64_t ids_flags;		/* KFD_DRM_AMDGPU_IDS_FLAGS_* */
	uint64_t virtual_address_offset;
	uint64_t virtual_address_max;
	uint32_t virtual_address_alignment;
	uint32_t pte_fragment_size;
	uint32_t gart_page_size;
	uint32_t ce_ram_size;
	uint32_t vram_type;		/* KFD_DRM_AMDGPU_VRAM_TYPE_* */
	uint32_t vram_bit_width;
	uint32_t vce_harvest_config;
	uint32_t gc_double_offchip_lds_buf;
	uint64_t prim_buf_gpu_addr;
	uint64_t pos_buf_gpu_addr;
	uint64_t cntl_sb_buf_gpu_addr;
	uint64_t param_buf_gpu_addr;
	uint32_t prim_buf_size;
	uint32_t pos_buf_size;
	uint32_t cntl_sb_buf_size;
	uint32_t param_buf_size;
	uint32_t wave_front_size;
	uint32_t num_shader_visible_vgprs;
	uint32_t num_cu_per_sh;
	uint32_t num_tcc_blocks;
	uint32_t gs_vgt_table_depth;
	uint32_t gs_prim_buffer_depth;
	uint32_t max_gs_waves_per_vgt;
	uint32_t _pad1;
	uint32_t cu_ao_bitmap[4][4];
	uint64_t high_va_offset;
	uint64_t high_va_max;
	uint32_t pa_sc_tile_steering_override;
	uint64_t tcc_disabled_mask;
};

/* Result of GPUVM_FAULT: the VM's last fault (zeros when it had none). */
struct kfd_drm_amdgpu_info_gpuvm_fault {
	uint64_t addr;
	uint32_t status;		/* the hub's fault status register */
	uint32_t vmhub;			/* KFD_DRM_AMDGPU_VMHUB_* */
};

#define KFD_DRM_AMDGPU_VMHUB_TYPE_MASK		0xff
#define KFD_DRM_AMDGPU_VMHUB_TYPE_GFX		0
#define KFD_DRM_AMDGPU_VMHUB_TYPE_MM0		1
#define KFD_DRM_AMDGPU_VMHUB_TYPE_MM1		2
#define KFD_DRM_AMDGPU_VMHUB_IDX_MASK		0xff00
#define KFD_DRM_AMDGPU_VMHUB_IDX_SHIFT		8

/* Result of UQ_FW_AREAS (the arm follows query_hw_ip.type). */
struct kfd_drm_amdgpu_info_uq_metadata {
	union {
		struct {
			uint32_t shadow_size;
			uint32_t shadow_alignment;
			uint32_t csa_size;
			uint32_t csa_alignment;
		} gfx;
		struct {
			uint32_t eop_size;
			uint32_t eop_alignment;
		} compute;
		struct {
			uint32_t csa_size;
			uint32_t csa_alignment;
		} sdma;
	};
};

/* CTX: a submission context of the render file (amdgpu_ctx.c). */
#define KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX		1
#define KFD_DRM_AMDGPU_CTX_OP_FREE_CTX		2
#define KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE	3
#define KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE2	4
#define KFD_DRM_AMDGPU_CTX_OP_GET_STABLE_PSTATE	5
#define KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE	6

/* QUERY_STATE's reset_status */
#define KFD_DRM_AMDGPU_CTX_NO_RESET		0
#define KFD_DRM_AMDGPU_CTX_GUILTY_RESET		1
#define KFD_DRM_AMDGPU_CTX_INNOCENT_RESET	2
#define KFD_DRM_AMDGPU_CTX_UNKNOWN_RESET	3

/* QUERY_STATE2's flags */
#define KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RESET		(1u << 0)
#define KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST	(1u << 1)
#define KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_GUILTY		(1u << 2)
#define KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RAS_CE		(1u << 3)
#define KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RAS_UE		(1u << 4)
#define KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS (1u << 5)

/* ALLOC_CTX's priority (signed) */
#define KFD_DRM_AMDGPU_CTX_PRIORITY_UNSET	(-2048)
#define KFD_DRM_AMDGPU_CTX_PRIORITY_VERY_LOW	(-1023)
#define KFD_DRM_AMDGPU_CTX_PRIORITY_LOW		(-512)
#define KFD_DRM_AMDGPU_CTX_PRIORITY_NORMAL	0
#define KFD_DRM_AMDGPU_CTX_PRIORITY_HIGH	512
#define KFD_DRM_AMDGPU_CTX_PRIORITY_VERY_HIGH	1023

/* SET_STABLE_PSTATE's flags, GET_STABLE_PSTATE's out.pstate.flags */
#define KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_FLAGS_MASK	0xfu
#define KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_NONE		0
#define KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_STANDARD	1
#define KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_MIN_SCLK	2
#define KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_MIN_MCLK	3
#define KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK		4

struct kfd_drm_amdgpu_ctx_in {
	uint32_t op;			/* KFD_DRM_AMDGPU_CTX_OP_* */
	uint32_t flags;			/* 0; SET_STABLE_PSTATE: the pstate */
	uint32_t ctx_id;
	int32_t priority;		/* ALLOC_CTX: KFD_DRM_AMDGPU_CTX_PRIORITY_* */
};

union kfd_drm_amdgpu_ctx_out {
	struct {
		uint32_t ctx_id;
		uint32_t _pad;
	} alloc;
	struct {
		uint64_t flags;		/* QUERY_STATE2: ..._QUERY2_FLAGS_* */
		uint32_t hangs;		/* always 0 */
		uint32_t reset_status;	/* QUERY_STATE: ..._CTX_*_RESET */
	} state;
	struct {
		uint32_t flags;		/* ..._STABLE_PSTATE_* */
		uint32_t _pad;
	} pstate;
};

union kfd_drm_amdgpu_ctx {
	struct kfd_drm_amdgpu_ctx_in in;
	union kfd_drm_amdgpu_ctx_out out;
};

/* BO_LIST: the BOs a command submission uses, kept under a handle. */
#define KFD_DRM_AMDGPU_BO_LIST_OP_CREATE	0
#define KFD_DRM_AMDGPU_BO_LIST_OP_DESTROY	1
#define KFD_DRM_AMDGPU_BO_LIST_OP_UPDATE	2

struct kfd_drm_amdgpu_bo_list_in {
	uint32_t operation;		/* KFD_DRM_AMDGPU_BO_LIST_OP_* */
	uint32_t list_handle;		/* DESTROY, UPDATE: the list */
	uint32_t bo_number;		/* entries at bo_info_ptr */
	uint32_t bo_info_size;		/* bytes per entry */
	uint64_t bo_info_ptr;		/* in: kfd_drm_amdgpu_bo_list_entry[] */
};

struct kfd_drm_amdgpu_bo_list_entry {
	uint32_t bo_handle;		/* GEM handle */
	uint32_t bo_priority;		/* eviction priority, capped at 32 */
};

struct kfd_drm_amdgpu_bo_list_out {
	uint32_t list_handle;
	uint32_t _pad;
};

union kfd_drm_amdgpu_bo_list {
	struct kfd_drm_amdgpu_bo_list_in in;
	struct kfd_drm_amdgpu_bo_list_out out;
};

/* CS: chunks points at num_chunks addresses of kfd_drm_amdgpu_cs_chunk. */
#define KFD_DRM_AMDGPU_CHUNK_ID_IB			0x01
#define KFD_DRM_AMDGPU_CHUNK_ID_FENCE			0x02
#define KFD_DRM_AMDGPU_CHUNK_ID_DEPENDENCIES		0x03
#define KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_IN		0x04
#define KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_OUT		0x05
#define KFD_DRM_AMDGPU_CHUNK_ID_BO_HANDLES		0x06
#define KFD_DRM_AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES	0x07
#define KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT	0x08
#define KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL	0x09
#define KFD_DRM_AMDGPU_CHUNK_ID_CP_GFX_SHADOW		0x0a

struct kfd_drm_amdgpu_cs_chunk {
	uint32_t chunk_id;		/* KFD_DRM_AMDGPU_CHUNK_ID_* */
	uint32_t length_dw;		/* dwords at chunk_data */
	uint64_t chunk_data;
};

struct kfd_drm_amdgpu_cs_in {
	uint32_t ctx_id;		/* AMDGPU_CTX's id */
	uint32_t bo_list_handle;	/* BO_LIST's handle, or 0 */
	uint32_t num_chunks;
	uint32_t flags;
	uint64_t chunks;		/* in: uint64_t[num_chunks], chunk addresses */
};

struct kfd_drm_amdgpu_cs_out {
	uint64_t handle;		/* the submission's sequence number */
};

union kfd_drm_amdgpu_cs {
	struct kfd_drm_amdgpu_cs_in in;
	struct kfd_drm_amdgpu_cs_out out;
};

/* IB chunk flags (AMDGPU_IB_FLAG_*) */
#define KFD_DRM_AMDGPU_IB_FLAG_CE		(1u << 0)
#define KFD_DRM_AMDGPU_IB_FLAG_PREAMBLE		(1u << 1)
#define KFD_DRM_AMDGPU_IB_FLAG_PREEMPT		(1u << 2)

struct kfd_drm_amdgpu_cs_chunk_ib {
	uint32_t _pad;
	uint32_t flags;			/* KFD_DRM_AMDGPU_IB_FLAG_* */
	uint64_t va_start;		/* GPU VA of the IB */
	uint32_t ib_bytes;
	uint32_t ip_type;		/* KFD_DRM_AMDGPU_HW_IP_* */
	uint32_t ip_instance;
	uint32_t ring;
};

struct kfd_drm_amdgpu_cs_chunk_fence {
	uint32_t handle;		/* GEM handle of a one-page BO */
	uint32_t offset;		/* where the fence value goes */
};

struct kfd_drm_amdgpu_cs_chunk_dep {
	uint32_t ip_type;
	uint32_t ip_instance;
	uint32_t ring;
	uint32_t ctx_id;
	uint64_t handle;		/* sequence number */
};

/* WAIT_CS: handle ~0 is the entity's latest submission. */
struct kfd_drm_amdgpu_wait_cs_in {
	uint64_t handle;		/* CS's out.handle */
	uint64_t timeout;		/* absolute, CLOCK_MONOTONIC ns */
	uint32_t ip_type;
	uint32_t ip_instance;
	uint32_t ring;
	uint32_t ctx_id;
};

struct kfd_drm_amdgpu_wait_cs_out {
	uint64_t status;		/* 0: completed; 1: still busy */
};

union kfd_drm_amdgpu_wait_cs {
	struct kfd_drm_amdgpu_wait_cs_in in;
	struct kfd_drm_amdgpu_wait_cs_out out;
};

/* USERQ */
#define KFD_DRM_AMDGPU_USERQ_OP_CREATE		1
#define KFD_DRM_AMDGPU_USERQ_OP_FREE		2

#define KFD_DRM_AMDGPU_USERQ_CREATE_FLAGS_QUEUE_PRIORITY_MASK	0x3
#define KFD_DRM_AMDGPU_USERQ_CREATE_FLAGS_QUEUE_SECURE		(1u << 2)

struct kfd_drm_amdgpu_userq_in {
	uint32_t op;			/* KFD_DRM_AMDGPU_USERQ_OP_* */
	uint32_t queue_id;		/* FREE */
	uint32_t ip_type;		/* KFD_DRM_AMDGPU_HW_IP_* */
	uint32_t doorbell_handle;	/* GEM handle of the doorbell BO */
	uint32_t doorbell_offset;	/* in the doorbell BO, in doorbells */
	uint32_t flags;			/* KFD_DRM_AMDGPU_USERQ_CREATE_FLAGS_* */
	uint64_t queue_va;
	uint64_t queue_size;		/* bytes, a power of two */
	uint64_t rptr_va;
	uint64_t wptr_va;
	uint64_t mqd;			/* in: the IP's MQD properties */
	uint64_t mqd_size;		/* bytes at mqd */
};

struct kfd_drm_amdgpu_userq_out {
	uint32_t queue_id;
	uint32_t _pad;
};

union kfd_drm_amdgpu_userq {
	struct kfd_drm_amdgpu_userq_in in;
	struct kfd_drm_amdgpu_userq_out out;
};

struct kfd_drm_amdgpu_userq_signal {
	uint32_t queue_id;
	uint32_t pad;
	uint64_t syncobj_handles;	/* u32 array */
	uint64_t num_syncobj_handles;
	uint64_t bo_read_handles;	/* u32 GEM handle array */
	uint64_t bo_write_handles;	/* u32 GEM handle array */
	uint32_t num_bo_read_handles;
	uint32_t num_bo_write_handles;
};

/* One fence USERQ_WAIT hands back: wait until *va >= value. */
struct kfd_drm_amdgpu_userq_fence_info {
	uint64_t va;
	uint64_t value;
};

struct kfd_drm_amdgpu_userq_wait {
	uint32_t waitq_id;
	uint32_t pad;
	uint64_t syncobj_handles;		/* u32 array */
	uint64_t syncobj_timeline_handles;	/* u32 array */
	uint64_t syncobj_timeline_points;	/* u64 array, one per handle */
	uint64_t bo_read_handles;		/* u32 GEM handle array */
	uint64_t bo_write_handles;		/* u32 GEM handle array */
	uint16_t num_syncobj_timeline_handles;
	uint16_t num_fences;		/* in: capacity (0: count only); out: count */
	uint32_t num_syncobj_handles;
	uint32_t num_bo_read_handles;
	uint32_t num_bo_write_handles;
	uint64_t out_fences;		/* struct kfd_drm_amdgpu_userq_fence_info array */
};

/* GEM_LIST_HANDLES */
#define KFD_DRM_AMDGPU_GEM_LIST_HANDLES_FLAG_IS_IMPORT	(1u << 0)

/*
 * num_entries is the capacity of entries on input. Out: the number of
 * handles; when that exceeds the capacity nothing is written (call again).
 */
struct kfd_drm_amdgpu_gem_list_handles {
	uint64_t entries;		/* struct kfd_drm_amdgpu_gem_list_handles_entry array */
	uint32_t num_entries;
	uint32_t padding;
};

struct kfd_drm_amdgpu_gem_list_handles_entry {
	uint32_t gem_handle;
	uint32_t flags;			/* KFD_DRM_AMDGPU_GEM_LIST_HANDLES_FLAG_* */
	uint64_t size;
	uint64_t preferred_domains;	/* KFD_DRM_AMDGPU_GEM_DOMAIN_* */
	uint64_t alloc_flags;		/* KFD_DRM_AMDGPU_GEM_CREATE_* */
	uint64_t alignment;		/* in pages */
};

/* ------------------------------------------------------------------ */
/* Request codes                                                       */
/* ------------------------------------------------------------------ */

#define KFD_DRM_IOCTL_VERSION		_IOWR(KFD_DRM_IOCTL_BASE, 0x00, struct kfd_drm_version)
#define KFD_DRM_IOCTL_GEM_CLOSE		_IOW(KFD_DRM_IOCTL_BASE, 0x09, struct kfd_drm_gem_close)
#define KFD_DRM_IOCTL_GET_CAP		_IOWR(KFD_DRM_IOCTL_BASE, 0x0c, struct kfd_drm_get_cap)
#define KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD _IOWR(KFD_DRM_IOCTL_BASE, 0x2d, struct kfd_drm_prime_handle)
#define KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE _IOWR(KFD_DRM_IOCTL_BASE, 0x2e, struct kfd_drm_prime_handle)

#define KFD_DRM_IOCTL_AMDGPU_GEM_CREATE					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_CREATE, \
	      union kfd_drm_amdgpu_gem_create)
#define KFD_DRM_IOCTL_AMDGPU_GEM_MMAP					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_MMAP, \
	      union kfd_drm_amdgpu_gem_mmap)
#define KFD_DRM_IOCTL_AMDGPU_CTX					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_CTX, \
	      union kfd_drm_amdgpu_ctx)
#define KFD_DRM_IOCTL_AMDGPU_BO_LIST					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_BO_LIST, \
	      union kfd_drm_amdgpu_bo_list)
#define KFD_DRM_IOCTL_AMDGPU_CS						\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_CS, \
	      union kfd_drm_amdgpu_cs)
#define KFD_DRM_IOCTL_AMDGPU_INFO					\
	_IOW(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_INFO, \
	     struct kfd_drm_amdgpu_info)
#define KFD_DRM_IOCTL_AMDGPU_GEM_METADATA				\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_METADATA, \
	      struct kfd_drm_amdgpu_gem_metadata)
#define KFD_DRM_IOCTL_AMDGPU_GEM_VA					\
	_IOW(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_VA, \
	     struct kfd_drm_amdgpu_gem_va)
#define KFD_DRM_IOCTL_AMDGPU_WAIT_CS					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_WAIT_CS, \
	      union kfd_drm_amdgpu_wait_cs)

#define KFD_DRM_IOCTL_AMDGPU_USERQ					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_USERQ, \
	      union kfd_drm_amdgpu_userq)
#define KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL				\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_USERQ_SIGNAL, \
	      struct kfd_drm_amdgpu_userq_signal)
#define KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT					\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_USERQ_WAIT, \
	      struct kfd_drm_amdgpu_userq_wait)
#define KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES				\
	_IOWR(KFD_DRM_IOCTL_BASE, KFD_DRM_COMMAND_BASE + KFD_DRM_AMDGPU_GEM_LIST_HANDLES, \
	      struct kfd_drm_amdgpu_gem_list_handles)

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_DRM_ABI_H */
