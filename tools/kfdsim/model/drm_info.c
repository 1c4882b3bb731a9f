/* SPDX-License-Identifier: MIT */
/*
 * The amdgpu render node's AMDGPU_INFO: device info, hardware IPs, memory
 * heaps, firmware, registers, GDS and the other queries a KFD process
 * makes of the render node (drm.c dispatches to it).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "ksim_priv.h"

#define AMDGPU_VM_RESERVED_VRAM	(8ULL << 20)
#define AMDGPU_HW_IP_GFX	0
#define AMDGPU_HW_IP_COMPUTE	1
#define AMDGPU_HW_IP_DMA	2
#define AMDGPU_HW_IP_NUM	9
#define AMDGPU_GFX_MAX_SE	8
#define AMDGPU_GFX_MAX_SH_PER_SE 2

/* Layouts not in drm_abi.h (from the published uapi). */
struct amdgpu_info_hw_ip {
	uint32_t hw_ip_version_major;
	uint32_t hw_ip_version_minor;
	uint64_t capabilities_flags;
	uint32_t ib_start_alignment;
	uint32_t ib_size_alignment;
	uint32_t available_rings;
	uint32_t ip_discovery_version;
};

struct amdgpu_info_gds {
	uint32_t gds_gfx_partition_size;
	uint32_t compute_partition_size;
	uint32_t gds_total_size;
	uint32_t gws_per_gfx_partition;
	uint32_t gws_per_compute_partition;
	uint32_t oa_per_gfx_partition;
	uint32_t oa_per_compute_partition;
	uint32_t _pad;
};

/* Compute-only Instinct parts (gfx908, gfx90a, gfx94x) have no GFX ring. */
static int
d_has_gfx(const struct ksim_gpu_dev *gd)
{
	uint64_t v = gd->n->props[KSIM_NP_GFX_TARGET_VERSION];

	return !(v == 90008 || v == 90010 || v / 100 == 904 || v / 100 == 905);
}

uint32_t
ksim_drm_ip_rings(const struct ksim_gpu_dev *gd, uint32_t ip)
{
	const uint64_t *pr = gd->n->props;

	if (ip == AMDGPU_HW_IP_COMPUTE)
		return 0xff;
	if (ip == AMDGPU_HW_IP_DMA)
		return (1u << (pr[KSIM_NP_NUM_SDMA_ENGINES] & 31)) - 1;
	if (ip == AMDGPU_HW_IP_GFX && d_has_gfx(gd))
		return 1;
	return 0;
}

static void
fill_dev_info(struct ksim_file *f, struct kfd_drm_amdgpu_info_device *di)
{
	const struct ksim_gpu_dev *gd = &f->dev->gpus[f->gpu];
	const struct ksim_drm *d = gd->d;

	memset(di, 0, sizeof(*di));
	di->device_id = d->device_id;
	di->chip_rev = d->chip_rev;
	di->external_rev = d->external_rev;
	di->pci_rev = d->pci_rev;
	di->family = d->family;
	di->num_shader_engines = d->num_shader_engines;
	di->num_shader_arrays_per_engine = d->num_shader_arrays_per_engine;
	di->gpu_counter_freq = d->gpu_counter_freq;
	di->max_engine_clock = d->max_engine_clock;
	di->max_memory_clock = d->max_memory_clock;
	di->cu_active_number = d->cu_active_number;
	di->cu_ao_mask = d->cu_ao_mask;
	memcpy(di->cu_bitmap, d->cu_bitmap, sizeof(di->cu_bitmap));
	memcpy(di->cu_ao_bitmap, d->cu_bitmap, sizeof(di->cu_ao_bitmap));
	di->enabled_rb_pipes_mask = d->enabled_rb_pipes_mask;
	di->num_rb_pipes = d->num_rb_pipes;
	di->num_hw_gfx_contexts = d->num_hw_gfx_contexts;
	di->ids_flags = d->ids_flags;
	di->virtual_address_offset = d->virtual_address_offset;
	di->virtual_address_max = d->virtual_address_max;
	di->virtual_address_alignment = d->virtual_address_alignment;
	di->pte_fragment_size = d->pte_fragment_size;
	di->gart_page_size = d->gart_page_size;
	di->vram_type = d->vram_type;
	di->vram_bit_width = d->vram_bit_width;
	di->wave_front_size = d->wave_front_size;
	di->num_shader_visible_vgprs = d->num_shader_visible_vgprs;
	di->num_cu_per_sh = d->num_cu_per_sh;
	di->num_tcc_blocks = d->num_tcc_blocks;
	di->high_va_offset = d->high_va_offset;
	di->high_va_max = d->high_va_max;
}

/* Registers amdgpu_asic_read_register lets user space read. */
static int
read_register(const struct ksim_gpu_dev *gd, uint32_t reg, uint32_t *val)
{
	switch (reg) {
	case 0x263e:			/* GB_ADDR_CONFIG */
		*val = gd->g->gb_addr_config;
		return 0;
	case 0x263d:			/* CC_RB_BACKEND_DISABLE */
	case 0x2004:			/* GRBM_STATUS */
	case 0x2002:			/* GRBM_STATUS2 */
	case 0x9d8:			/* MC_ARB_RAMCFG */
	case 0xa0d4:			/* PA_SC_RASTER_CONFIG */
	case 0xa0d5:			/* PA_SC_RASTER_CONFIG_1 */
		*val = 0;
		return 0;
	}
	if (reg >= 0x2644 && reg < 0x2644 + 32) {	/* GB_TILE_MODE* */
		*val = 0;
		return 0;
	}
	if (reg >= 0x2664 && reg < 0x2664 + 16) {	/* GB_MACROTILE_MODE* */
		*val = 0;
		return 0;
	}
	return -EFAULT;
}

static int
info_out(const struct kfd_drm_amdgpu_info *in, const void *val, uint64_t size)
{
	uint64_t n = in->return_size < size ? in->return_size : size;

	return ksim_copy_to_user(in->return_pointer, val, n) ? -EFAULT : 0;
}

int
ksim_drm_info(struct ksim_file *f, void *data)
{
	struct kfd_drm_amdgpu_info *in = data;
	struct ksim_device *dev = f->dev;
	const struct ksim_gpu_dev *gd = &dev->gpus[f->gpu];
	const uint64_t *pr = gd->n->props;
	uint64_t vram_kfd = 0, vram_ttm = 0, gtt = 0, u64v;
	uint32_t u32v;

	if (!in->return_size || !in->return_pointer)
		return -EINVAL;
	ksim_reg_usage(dev, f->gpu, &vram_kfd, NULL, &vram_ttm, &gtt);
	switch (in->query) {
	case KFD_DRM_AMDGPU_INFO_ACCEL_WORKING:
		u32v = 1;
		return info_out(in, &u32v, 4);
	case KFD_DRM_AMDGPU_INFO_HW_IP_COUNT:
		if (in->query_hw_ip.type >= AMDGPU_HW_IP_NUM)
			return -EINVAL;
		u32v = 0;
		if (in->query_hw_ip.type == AMDGPU_HW_IP_COMPUTE)
			u32v = 1;
		else if (in->query_hw_ip.type == AMDGPU_HW_IP_DMA)
			u32v = (uint32_t)(pr[KSIM_NP_NUM_SDMA_ENGINES] +
					  pr[KSIM_NP_NUM_SDMA_XGMI_ENGINES]);
		else if (in->query_hw_ip.type == AMDGPU_HW_IP_GFX)
			u32v = d_has_gfx(gd) ? 1 : 0;
		return info_out(in, &u32v, 4);
	case KFD_DRM_AMDGPU_INFO_HW_IP_INFO: {
		struct amdgpu_info_hw_ip ip;

		if (in->query_hw_ip.type >= AMDGPU_HW_IP_NUM ||
		    in->query_hw_ip.ip_instance > 0)
			return -EINVAL;
		memset(&ip, 0, sizeof(ip));
		ip.hw_ip_version_major = (uint32_t)(pr[KSIM_NP_GFX_TARGET_VERSION] / 10000);
		ip.hw_ip_version_minor = (uint32_t)(pr[KSIM_NP_GFX_TARGET_VERSION] / 100 % 100);
		ip.ib_start_alignment = 32;
		ip.ib_size_alignment = 32;
		ip.available_rings = ksim_drm_ip_rings(gd, in->query_hw_ip.type);
		return info_out(in, &ip, sizeof(ip));
	}
	case KFD_DRM_AMDGPU_INFO_TIMESTAMP: {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		u64v = (uint64_t)((unsigned __int128)((uint64_t)ts.tv_sec * 1000000000ULL +
						      (uint64_t)ts.tv_nsec) *
				  gd->g->gpu_clock_hz / 1000000000ULL);
		return info_out(in, &u64v, 8);
	}
	case KFD_DRM_AMDGPU_INFO_FW_VERSION: {
		struct kfd_drm_amdgpu_info_firmware fw = { 0, 0 };

		switch (in->query_fw.fw_type) {
		case KFD_DRM_AMDGPU_INFO_FW_GFX_MEC:
			fw.ver = (uint32_t)pr[KSIM_NP_FW_VERSION];
			break;
		case KFD_DRM_AMDGPU_INFO_FW_SDMA:
			fw.ver = (uint32_t)pr[KSIM_NP_SDMA_FW_VERSION];
			break;
		default:
			if (in->query_fw.fw_type > 0x20 || !in->query_fw.fw_type)
				return -EINVAL;
		}
		return info_out(in, &fw, sizeof(fw));
	}
	case KFD_DRM_AMDGPU_INFO_NUM_BYTES_MOVED:
	case KFD_DRM_AMDGPU_INFO_NUM_EVICTIONS:
	case KFD_DRM_AMDGPU_INFO_NUM_VRAM_CPU_PAGE_FAULTS:
		u64v = 0;
		return info_out(in, &u64v, 8);
	case KFD_DRM_AMDGPU_INFO_VRAM_LOST_COUNTER:
		u32v = 0;
		return info_out(in, &u32v, 4);
	case KFD_DRM_AMDGPU_INFO_VRAM_USAGE:
		return info_out(in, &vram_ttm, 8);
	case KFD_DRM_AMDGPU_INFO_VIS_VRAM_USAGE:
		u64v = vram_ttm < gd->d->visible_vram_size ? vram_ttm :
		       gd->d->visible_vram_size;
		return info_out(in, &u64v, 8);
	case KFD_DRM_AMDGPU_INFO_GTT_USAGE:
		return info_out(in, &gtt, 8);
	case KFD_DRM_AMDGPU_INFO_GDS_CONFIG: {
		struct amdgpu_info_gds g;

		memset(&g, 0, sizeof(g));
		g.gds_total_size = (uint32_t)pr[KSIM_NP_GDS_SIZE_IN_KB] * 1024;
		g.gds_gfx_partition_size = g.gds_total_size;
		g.compute_partition_size = g.gds_total_size;
		g.gws_per_gfx_partition = (uint32_t)pr[KSIM_NP_NUM_GWS];
		g.gws_per_compute_partition = (uint32_t)pr[KSIM_NP_NUM_GWS];
		g.oa_per_gfx_partition = 16;
		g.oa_per_compute_partition = 16;
		return info_out(in, &g, sizeof(g));
	}
	case KFD_DRM_AMDGPU_INFO_VRAM_GTT: {
		struct kfd_drm_amdgpu_info_vram_gtt vg;
		uint64_t usable = gd->d->vram_size > AMDGPU_VM_RESERVED_VRAM ?
				  gd->d->vram_size - AMDGPU_VM_RESERVED_VRAM : 0;

		vg.vram_size = usable;
		vg.vram_cpu_accessible_size = gd->d->visible_vram_size < usable ?
					      gd->d->visible_vram_size : usable;
		vg.gtt_size = gd->d->gtt_size;
		return info_out(in, &vg, sizeof(vg));
	}
	case KFD_DRM_AMDGPU_INFO_MEMORY: {
		struct kfd_drm_amdgpu_memory_info m;
		uint64_t usable = gd->d->vram_size > AMDGPU_VM_RESERVED_VRAM ?
				  gd->d->vram_size - AMDGPU_VM_RESERVED_VRAM : 0;

		memset(&m, 0, sizeof(m));
		m.vram.total_heap_size = gd->d->vram_size;
		m.vram.usable_heap_size = usable;
		m.vram.heap_usage = vram_ttm;
		m.vram.max_allocation = usable * 3 / 4;
		m.cpu_accessible_vram.total_heap_size = gd->d->visible_vram_size;
		m.cpu_accessible_vram.usable_heap_size =
			gd->d->visible_vram_size < usable ? gd->d->visible_vram_size : usable;
		m.cpu_accessible_vram.heap_usage =
			vram_ttm < gd->d->visible_vram_size ? vram_ttm :
			gd->d->visible_vram_size;
		m.cpu_accessible_vram.max_allocation =
			m.cpu_accessible_vram.usable_heap_size * 3 / 4;
		m.gtt.total_heap_size = gd->d->gtt_size;
		m.gtt.usable_heap_size = gd->d->gtt_size;
		m.gtt.heap_usage = gtt;
		m.gtt.max_allocation = gd->d->gtt_size * 3 / 4;
		return info_out(in, &m, sizeof(m));
	}
	case KFD_DRM_AMDGPU_INFO_READ_MMR_REG: {
		uint32_t se = (in->read_mmr_reg.instance >> KFD_DRM_AMDGPU_INFO_MMR_SE_INDEX_SHIFT) &
			      KFD_DRM_AMDGPU_INFO_MMR_SE_INDEX_MASK;
		uint32_t sh = (in->read_mmr_reg.instance >> KFD_DRM_AMDGPU_INFO_MMR_SH_INDEX_SHIFT) &
			      KFD_DRM_AMDGPU_INFO_MMR_SH_INDEX_MASK;
		uint32_t regs[128];
		uint32_t n = in->read_mmr_reg.count;

		if (se != KFD_DRM_AMDGPU_INFO_MMR_SE_INDEX_MASK && se >= AMDGPU_GFX_MAX_SE)
			return -EINVAL;
		if (sh != KFD_DRM_AMDGPU_INFO_MMR_SH_INDEX_MASK && sh >= AMDGPU_GFX_MAX_SH_PER_SE)
			return -EINVAL;
		if (n > 128)
			return -EINVAL;
		for (uint32_t i = 0; i < n; i++)
			if (read_register(gd, in->read_mmr_reg.dword_offset + i, &regs[i]))
				return -EFAULT;
		return info_out(in, regs, (uint64_t)n * 4);
	}
	case KFD_DRM_AMDGPU_INFO_DEV_INFO: {
		struct kfd_drm_amdgpu_info_device di;

		fill_dev_info(f, &di);
		return info_out(in, &di, sizeof(di));
	}
	case KFD_DRM_AMDGPU_INFO_SENSOR: {
		/* GFX_SCLK 1, GFX_MCLK 2 (MHz), GPU_TEMP 3 (m°C),
		 * GPU_LOAD 4 (%), GPU_AVG_POWER 5 (W) */
		switch (in->sensor_info.type) {
		case 1:
			u32v = (uint32_t)(gd->d->max_engine_clock / 1000);
			break;
		case 2:
			u32v = (uint32_t)(gd->d->max_memory_clock / 1000);
			break;
		case 3:
			u32v = 35000;
			break;
		case 4:
			u32v = 0;
			break;
		case 5:
			u32v = 40;
			break;
		default:
			return -EINVAL;
		}
		return info_out(in, &u32v, 4);
	}
	case KFD_DRM_AMDGPU_INFO_GPUVM_FAULT: {
		/*
		 * The last fault of this file's VM (ksim_event_vm_fault()):
		 * zeros while it has had none.
		 */
		struct kfd_drm_amdgpu_info_gpuvm_fault vf;

		if (gd->d->version_minor < 55)
			return -EINVAL;
		memset(&vf, 0, sizeof(vf));
		vf.vmhub = __atomic_load_n(&f->vm.fault_vmhub, __ATOMIC_ACQUIRE);
		vf.addr = __atomic_load_n(&f->vm.fault_addr, __ATOMIC_RELAXED);
		vf.status = __atomic_load_n(&f->vm.fault_status, __ATOMIC_RELAXED);
		return info_out(in, &vf, sizeof(vf));
	}
	case KFD_DRM_AMDGPU_INFO_RAS_ENABLED_FEATURES:
		/* No RAS context without RAS; the enabled blocks (high
		 * word) are the blocks whose feature is on (low word). */
		if (!gd->d->ras_features)
			return -EINVAL;
		u64v = (uint64_t)gd->d->ras_features << 32 | gd->d->ras_features;
		return info_out(in, &u64v, 8);
	case KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS:
		if (gd->d->version_minor < 64)
			return -EINVAL;
		if (in->query_hw_ip.type != AMDGPU_HW_IP_GFX)
			return -EINVAL;
		/* Only GFX11+ has a shadow area to describe; before it the
		 * GFX block has no way to answer. The model knows no GFX11
		 * shadow sizes: it does not simulate the query there. */
		if (pr[KSIM_NP_GFX_TARGET_VERSION] < 110000)
			return -EOPNOTSUPP;
		return -ENOSYS;
	default:
		return -EINVAL;
	}
}
