/* SPDX-License-Identifier: MIT */
/*
 * The amdgpu render node: drm_ioctl() dispatch (core table, then the
 * driver table at 0x40), the core ioctls a render client may use, and the
 * amdgpu GEM ioctls (GEM_CREATE/MMAP/METADATA/WAIT_IDLE/VA).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ksim_priv.h"

#define DRM_AUTH		0x1
#define DRM_RENDER_ALLOW	0x20
#define DRM_CORE_COUNT		0xd1
#define DRM_COMMAND_END		0xa0
#define AMDGPU_IOCTL_COUNT	0x16
#define AMDGPU_GEM_DOMAIN_MASK	0x7f
#define AMDGPU_VM_RESERVED_VRAM	(8ULL << 20)
#define AMDGPU_GMC_HOLE_START	0x0000800000000000ULL
#define AMDGPU_GMC_HOLE_END	0xffff800000000000ULL
#define AMDGPU_GMC_HOLE_MASK	0x0000ffffffffffffULL
#define AMDGPU_VA_RESERVED_TOP	(2ULL << 20)
#define AMDGPU_HW_IP_GFX	0
#define AMDGPU_HW_IP_COMPUTE	1
#define AMDGPU_HW_IP_DMA	2
#define AMDGPU_HW_IP_NUM	9
#define AMDGPU_GFX_MAX_SE	8
#define AMDGPU_GFX_MAX_SH_PER_SE 2

typedef int (*drm_handler)(struct ksim_file *f, void *data);

struct drm_row {
	drm_handler func;	/* NULL: known but not simulated (-ENOSYS) */
	uint16_t size;
	uint8_t dir;
	uint8_t flags;		/* DRM_RENDER_ALLOW etc.; 0xff: no entry */
};

#define NONE 0xff

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

union amdgpu_gem_wait_idle {
	struct {
		uint32_t handle;
		uint32_t flags;
		uint64_t timeout;
	} in;
	struct {
		uint32_t status;
		uint32_t domain;
	} out;
};

static struct ksim_bo *
handle_lookup(struct ksim_file *f, uint32_t h)
{
	return h < f->handles_cap ? f->handles[h] : NULL;
}

/* drm_gem_handle_create: idr from 1, lowest free. Takes a BO reference. */
static int
handle_create(struct ksim_file *f, struct ksim_bo *bo, uint32_t *out)
{
	unsigned int h;

	for (h = 1; h < f->handles_cap; h++)
		if (!f->handles[h])
			break;
	if (h >= f->handles_cap) {
		unsigned int cap = f->handles_cap ? f->handles_cap * 2 : 64;
		struct ksim_bo **n = realloc(f->handles, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + f->handles_cap, 0, (cap - f->handles_cap) * sizeof(*n));
		f->handles = n;
		f->handles_cap = cap;
		if (!h)
			h = 1;
	}
	ksim_bo_get(bo);
	f->handles[h] = bo;
	*out = h;
	return 0;
}

static int
copy_field(uint64_t *len, uint64_t uptr, const char *value)
{
	uint64_t n = strlen(value);

	if (n > *len)
		n = *len;
	*len = strlen(value);
	if (n && uptr && ksim_copy_to_user(uptr, value, n))
		return -EFAULT;
	return 0;
}

static int
drm_version(struct ksim_file *f, void *data)
{
	struct kfd_drm_version *v = data;
	const struct ksim_drm *d = f->dev->gpus[f->gpu].d;

	v->version_major = (int32_t)d->version_major;
	v->version_minor = (int32_t)d->version_minor;
	v->version_patchlevel = (int32_t)d->version_patch;
	if (copy_field(&v->name_len, v->name, "amdgpu") ||
	    copy_field(&v->date_len, v->date, "20150101") ||
	    copy_field(&v->desc_len, v->desc, "AMD GPU"))
		return -EFAULT;
	return 0;
}

static int
drm_get_cap(struct ksim_file *f, void *data)
{
	struct kfd_drm_get_cap *c = data;

	c->value = 0;
	switch (c->capability) {
	case KFD_DRM_CAP_TIMESTAMP_MONOTONIC:
	case KFD_DRM_CAP_SYNCOBJ:
	case KFD_DRM_CAP_SYNCOBJ_TIMELINE:
		c->value = 1;
		return 0;
	case KFD_DRM_CAP_PRIME:
		c->value = KFD_DRM_PRIME_CAP_IMPORT | KFD_DRM_PRIME_CAP_EXPORT;
		return 0;
	case KFD_DRM_CAP_DUMB_BUFFER:
	case KFD_DRM_CAP_VBLANK_HIGH_CRTC:
	case KFD_DRM_CAP_DUMB_PREFER_SHADOW:
	case KFD_DRM_CAP_ADDFB2_MODIFIERS:
	case KFD_DRM_CAP_PAGE_FLIP_TARGET:
	case KFD_DRM_CAP_CRTC_IN_VBLANK_EVENT:
		c->value = 1;
		return 0;
	case KFD_DRM_CAP_DUMB_PREFERRED_DEPTH:
		c->value = 24;
		return 0;
	case KFD_DRM_CAP_ASYNC_PAGE_FLIP:
		return 0;
	case KFD_DRM_CAP_CURSOR_WIDTH:
	case KFD_DRM_CAP_CURSOR_HEIGHT:
		c->value = 64;
		return 0;
	default:
		return -EINVAL;
	}
}

static int
drm_gem_close(struct ksim_file *f, void *data)
{
	struct kfd_drm_gem_close *a = data;
	struct ksim_bo *bo = handle_lookup(f, a->handle);

	if (!bo)
		return -EINVAL;
	f->handles[a->handle] = NULL;
	ksim_bo_put(f->dev, bo);
	return 0;
}

static int
drm_prime_handle_to_fd(struct ksim_file *f, void *data)
{
	struct kfd_drm_prime_handle *a = data;
	struct ksim_bo *bo;
	int r = 0, fd;

	if (a->flags & ~(uint32_t)(O_CLOEXEC | O_RDWR))
		return -EINVAL;
	bo = handle_lookup(f, a->handle);
	if (!bo)
		return -ENOENT;
	if (bo->gem_flags & KFD_DRM_AMDGPU_GEM_CREATE_VM_ALWAYS_VALID)
		return -EPERM;
	fd = ksim_dmabuf_export_fd(f->dev, bo, (a->flags & O_CLOEXEC) != 0, &r);
	if (fd < 0)
		return r;
	a->fd = fd;
	return 0;
}

static int
drm_prime_fd_to_handle(struct ksim_file *f, void *data)
{
	struct kfd_drm_prime_handle *a = data;
	struct ksim_bo *bo;
	int r = 0;

	bo = ksim_dmabuf_resolve(f->dev, a->fd, &r);
	if (!bo)
		return r;
	/* The same buffer imported twice gives the same handle. */
	for (unsigned int h = 1; h < f->handles_cap; h++) {
		if (f->handles[h] == bo) {
			a->handle = h;
			ksim_bo_put(f->dev, bo);
			return 0;
		}
	}
	r = handle_create(f, bo, &a->handle);
	ksim_bo_put(f->dev, bo);
	return r;
}

static int
gem_create(struct ksim_file *f, void *data)
{
	union kfd_drm_amdgpu_gem_create *a = data;
	struct ksim_device *dev = f->dev;
	const uint64_t valid =
		KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED |
		KFD_DRM_AMDGPU_GEM_CREATE_NO_CPU_ACCESS |
		KFD_DRM_AMDGPU_GEM_CREATE_CPU_GTT_USWC |
		KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CLEARED |
		KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS |
		KFD_DRM_AMDGPU_GEM_CREATE_VM_ALWAYS_VALID |
		KFD_DRM_AMDGPU_GEM_CREATE_EXPLICIT_SYNC |
		KFD_DRM_AMDGPU_GEM_CREATE_ENCRYPTED |
		KFD_DRM_AMDGPU_GEM_CREATE_DISCARDABLE |
		KFD_DRM_AMDGPU_GEM_CREATE_COHERENT |
		KFD_DRM_AMDGPU_GEM_CREATE_UNCACHED |
		KFD_DRM_AMDGPU_GEM_CREATE_EXT_COHERENT;
	uint64_t flags = a->in.domain_flags, domains = a->in.domains;
	uint64_t size = KSIM_PAGE_ALIGN(a->in.bo_size);
	struct ksim_charge c = { .gpu = -1 };
	enum ksim_domain dom;
	struct ksim_bo *bo;
	uint32_t handle;
	int r;

	if (flags & ~valid)
		return -EINVAL;
	if (domains & ~(uint64_t)AMDGPU_GEM_DOMAIN_MASK)
		return -EINVAL;
	if ((flags & KFD_DRM_AMDGPU_GEM_CREATE_ENCRYPTED) &&
	    !(dev->gpus[f->gpu].d->ids_flags & KFD_DRM_AMDGPU_IDS_FLAGS_TMZ))
		return -EINVAL;
	/* GDS/GWS/OA partitions are not handed to compute processes. */
	if (domains & (KFD_DRM_AMDGPU_GEM_DOMAIN_GDS |
		       KFD_DRM_AMDGPU_GEM_DOMAIN_GWS |
		       KFD_DRM_AMDGPU_GEM_DOMAIN_OA))
		return -EINVAL;
	if (!a->in.bo_size || size < a->in.bo_size)
		return -EINVAL;
	r = -ENOMEM;
	if (domains & KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM) {
		c.gpu = f->gpu;
		c.vram_ttm = size;
		r = ksim_reg_charge(dev, f->vm.kfd_proc ? f->vm.kfd_proc->reg_slot : -1,
				    &c, 0);
		dom = KSIM_DOM_VRAM;
	}
	/* Retry in GTT when VRAM is full and GTT is allowed (or VRAM was
	 * the only choice: amdgpu adds GTT then). */
	if (r && (domains & (KFD_DRM_AMDGPU_GEM_DOMAIN_GTT |
			     KFD_DRM_AMDGPU_GEM_DOMAIN_CPU |
			     KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM))) {
		memset(&c, 0, sizeof(c));
		c.gpu = -1;
		if (domains & (KFD_DRM_AMDGPU_GEM_DOMAIN_GTT |
			       KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM))
			c.ttm = size;
		r = ksim_reg_charge(dev, -1, &c, 0);
		dom = KSIM_DOM_GTT;
	}
	if (r)
		return r;
	bo = ksim_bo_new(dev, f->gpu, dom, size, -1, &r);
	if (!bo) {
		ksim_reg_uncharge(dev, -1, &c);
		return r;
	}
	bo->charge = c;
	bo->gem_flags = (uint32_t)flags | KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CLEARED;
	bo->kfd_flags = dom == KSIM_DOM_VRAM ? KFD_ABI_ALLOC_MEM_FLAGS_VRAM :
			KFD_ABI_ALLOC_MEM_FLAGS_GTT;
	r = handle_create(f, bo, &handle);
	ksim_bo_put(dev, bo);
	if (r)
		return r;
	memset(a, 0, sizeof(*a));
	a->out.handle = handle;
	return 0;
}

static int
gem_mmap(struct ksim_file *f, void *data)
{
	union kfd_drm_amdgpu_gem_mmap *a = data;
	uint32_t h = a->in.handle;
	struct ksim_bo *bo = handle_lookup(f, h);

	memset(a, 0, sizeof(*a));
	if (!bo)
		return -ENOENT;
	if (bo->domain == KSIM_DOM_USERPTR ||
	    (bo->gem_flags & KFD_DRM_AMDGPU_GEM_CREATE_NO_CPU_ACCESS))
		return -EPERM;
	a->out.addr_ptr = ksim_bo_fake_offset(f->dev, bo);
	return 0;
}

static int
gem_metadata(struct ksim_file *f, void *data)
{
	struct kfd_drm_amdgpu_gem_metadata *a = data;
	struct ksim_bo *bo = handle_lookup(f, a->handle);

	if (!bo)
		return -ENOENT;
	ksim_reg_buf_load_metadata(f->dev, bo);
	if (a->op == KFD_DRM_AMDGPU_GEM_METADATA_OP_GET_METADATA) {
		a->data.tiling_info = bo->tiling_flags;
		/* amdgpu_bo_get_metadata into the 256-byte data[] */
		memcpy(a->data.data, bo->metadata, bo->metadata_size);
		a->data.data_size_bytes = bo->metadata_size;
		a->data.flags = bo->metadata_flags;
	} else if (a->op == KFD_DRM_AMDGPU_GEM_METADATA_OP_SET_METADATA) {
		if (a->data.data_size_bytes > sizeof(a->data.data))
			return -EINVAL;
		bo->tiling_flags = a->data.tiling_info;
		memcpy(bo->metadata, a->data.data, a->data.data_size_bytes);
		bo->metadata_size = a->data.data_size_bytes;
		bo->metadata_flags = a->data.data_size_bytes ? a->data.flags : 0;
		ksim_reg_buf_sync_metadata(f->dev, bo);
	}
	return 0;
}

static int
gem_wait_idle(struct ksim_file *f, void *data)
{
	union amdgpu_gem_wait_idle *a = data;
	struct ksim_bo *bo = handle_lookup(f, a->in.handle);

	if (!bo)
		return -ENOENT;
	memset(a, 0, sizeof(*a));
	/* Nothing ever runs on the GPU: every BO is idle. */
	a->out.domain = bo->domain == KSIM_DOM_VRAM ? KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM :
			KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	return 0;
}

/* amdgpu_vm_bo_clear_mappings for GEM_VA CLEAR/REPLACE (non-KFD ones). */
static int
va_clear(struct ksim_file *f, uint64_t start, uint64_t size)
{
	struct ksim_vm *vm = &f->vm;
	uint64_t end = start + size;
	unsigned int i = 0;

	while (i < vm->n) {
		struct ksim_mapping *m = &vm->maps[i];
		uint64_t mend = m->start + m->size;

		if (m->kmem || mend <= start || m->start >= end) {
			i++;
			continue;
		}
		if (m->start < start && mend > end) {
			struct ksim_mapping tail = *m;

			tail.offset += end - m->start;
			tail.size = mend - end;
			tail.start = end;
			m->size = start - m->start;
			if (ksim_vm_insert(vm, &tail))
				return -ENOMEM;
			i++;
		} else if (m->start < start) {
			m->size = start - m->start;
			i++;
		} else if (mend > end) {
			m->offset += end - m->start;
			m->size = mend - end;
			m->start = end;
			i++;
		} else {
			ksim_vm_remove(f->dev, vm, m);
		}
	}
	return 0;
}

static int
gem_va(struct ksim_file *f, void *data)
{
	struct kfd_drm_amdgpu_gem_va *a = data;
	const struct ksim_drm *d = f->dev->gpus[f->gpu].d;
	const uint32_t valid = KFD_DRM_AMDGPU_VM_DELAY_UPDATE |
		KFD_DRM_AMDGPU_VM_PAGE_READABLE | KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE |
		KFD_DRM_AMDGPU_VM_PAGE_EXECUTABLE | KFD_DRM_AMDGPU_VM_MTYPE_MASK |
		KFD_DRM_AMDGPU_VM_PAGE_NOALLOC;
	const uint32_t prt = KFD_DRM_AMDGPU_VM_DELAY_UPDATE |
		KFD_DRM_AMDGPU_VM_PAGE_PRT;
	struct ksim_bo *bo = NULL;
	struct ksim_mapping m;
	uint64_t va;
	int r;

	/* Before 1.15 a VM that KFD adopted refused GEM_VA. */
	if (f->vm.kfd_proc && f->dev->abi_minor < 15)
		return -EINVAL;
	if (a->va_address < d->virtual_address_offset)
		return -EINVAL;
	if (a->va_address >= AMDGPU_GMC_HOLE_START &&
	    a->va_address < AMDGPU_GMC_HOLE_END)
		return -EINVAL;
	va = a->va_address & AMDGPU_GMC_HOLE_MASK;
	if (va + a->map_size < va ||
	    va + a->map_size > KSIM_VM_SIZE - AMDGPU_VA_RESERVED_TOP)
		return -EINVAL;
	if ((a->flags & ~valid) && (a->flags & ~prt))
		return -EINVAL;
	if (a->operation < KFD_DRM_AMDGPU_VA_OP_MAP ||
	    a->operation > KFD_DRM_AMDGPU_VA_OP_REPLACE)
		return -EINVAL;
	if (a->operation != KFD_DRM_AMDGPU_VA_OP_CLEAR &&
	    !(a->flags & KFD_DRM_AMDGPU_VM_PAGE_PRT)) {
		bo = handle_lookup(f, a->handle);
		if (!bo)
			return -ENOENT;
	}
	memset(&m, 0, sizeof(m));
	m.start = va;
	m.size = a->map_size;
	m.bo = bo;
	m.offset = a->offset_in_bo;
	m.flags = a->flags;
	switch (a->operation) {
	case KFD_DRM_AMDGPU_VA_OP_REPLACE:
	case KFD_DRM_AMDGPU_VA_OP_MAP:
		if ((a->offset_in_bo | a->map_size) & (KSIM_PAGE_SIZE - 1) ||
		    (bo && (a->offset_in_bo + a->map_size < a->offset_in_bo ||
			    a->offset_in_bo + a->map_size > bo->size)))
			return -EINVAL;
		if (a->operation == KFD_DRM_AMDGPU_VA_OP_REPLACE) {
			if (va & (KSIM_PAGE_SIZE - 1))
				return -EINVAL;
			r = va_clear(f, va, a->map_size);
			if (r)
				return r;
		}
		return ksim_vm_insert(&f->vm, &m);
	case KFD_DRM_AMDGPU_VA_OP_UNMAP: {
		struct ksim_mapping *x = ksim_vm_find(&f->vm, va);

		if (!x || x->start != va || x->bo != bo || x->kmem)
			return -ENOENT;
		ksim_vm_remove(f->dev, &f->vm, x);
		return 0;
	}
	case KFD_DRM_AMDGPU_VA_OP_CLEAR:
		if ((va | a->map_size) & (KSIM_PAGE_SIZE - 1))
			return -EINVAL;
		return va_clear(f, va, a->map_size);
	}
	return -EINVAL;
}

/* ---- AMDGPU_INFO ---- */

/* Compute-only Instinct parts (gfx908, gfx90a, gfx94x) have no GFX ring. */
static int
d_has_gfx(const struct ksim_gpu_dev *gd)
{
	uint64_t v = gd->n->props[KSIM_NP_GFX_TARGET_VERSION];

	return !(v == 90008 || v == 90010 || v / 100 == 904 || v / 100 == 905);
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

static int
amdgpu_info(struct ksim_file *f, void *data)
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
		if (in->query_hw_ip.type == AMDGPU_HW_IP_COMPUTE)
			ip.available_rings = 0xff;
		else if (in->query_hw_ip.type == AMDGPU_HW_IP_DMA)
			ip.available_rings = (1u << (pr[KSIM_NP_NUM_SDMA_ENGINES] & 31)) - 1;
		else if (in->query_hw_ip.type == AMDGPU_HW_IP_GFX && d_has_gfx(gd))
			ip.available_rings = 1;
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
	default:
		return -EINVAL;
	}
}

#define R _IOC_READ
#define W _IOC_WRITE
#define RW (_IOC_READ | _IOC_WRITE)
#define RA DRM_RENDER_ALLOW

/* The core table by nr; unlisted nrs below DRM_CORE_COUNT exist but are
 * not for render nodes (modesetting, legacy, master). */
static const struct drm_row core_rows[DRM_CORE_COUNT] = {
	[0x00] = { drm_version, 64, RW, RA },
	[0x09] = { drm_gem_close, 8, W, RA },
	[0x0c] = { drm_get_cap, 16, RW, RA },
	[0x0e] = { NULL, 0, 0, NONE },
	[0x0f] = { NULL, 0, 0, NONE },
	[0x2d] = { drm_prime_handle_to_fd, 12, RW, RA },
	[0x2e] = { drm_prime_fd_to_handle, 12, RW, RA },
	/* syncobjs: render clients may, the model does not simulate them */
	[0xbf] = { NULL, 16, RW, RA }, [0xc0] = { NULL, 8, RW, RA },
	[0xc1] = { NULL, 16, RW, RA }, [0xc2] = { NULL, 16, RW, RA },
	[0xc3] = { NULL, 32, RW, RA }, [0xc4] = { NULL, 16, RW, RA },
	[0xc5] = { NULL, 16, RW, RA }, [0xca] = { NULL, 40, RW, RA },
	[0xcb] = { NULL, 24, RW, RA }, [0xcc] = { NULL, 32, RW, RA },
	[0xcd] = { NULL, 24, RW, RA }, [0xcf] = { NULL, 24, RW, RA },
};

static const struct drm_row amdgpu_rows[AMDGPU_IOCTL_COUNT] = {
	[0x00] = { gem_create, 32, RW, RA },
	[0x01] = { gem_mmap, 8, RW, RA },
	[0x02] = { NULL, 16, RW, RA },		/* CTX */
	[0x03] = { NULL, 24, RW, RA },		/* BO_LIST */
	[0x04] = { NULL, 24, RW, RA },		/* CS */
	[0x05] = { amdgpu_info, 32, W, RA },
	[0x06] = { gem_metadata, 288, RW, RA },
	[0x07] = { gem_wait_idle, 16, RW, RA },
	[0x08] = { gem_va, 40, W, RA },
	[0x09] = { NULL, 32, RW, RA },		/* WAIT_CS */
	[0x0a] = { NULL, 0, 0, NONE }, [0x0b] = { NULL, 0, 0, NONE },
	[0x0c] = { NULL, 0, 0, NONE }, [0x0d] = { NULL, 0, 0, NONE },
	[0x0e] = { NULL, 0, 0, NONE }, [0x0f] = { NULL, 0, 0, NONE },
	[0x10] = { NULL, 16, RW, RA },		/* GEM_OP */
	[0x11] = { NULL, 24, RW, RA },		/* GEM_USERPTR */
	[0x12] = { NULL, 24, RW, RA },		/* WAIT_FENCES */
	[0x13] = { NULL, 8, RW, RA },		/* VM */
	[0x14] = { NULL, 24, RW, RA },		/* FENCE_TO_HANDLE */
	[0x15] = { NULL, 16, W, RA },		/* SCHED */
};

int
ksim_drm_ioctl(struct ksim_file *f, unsigned long request, void *arg)
{
	struct ksim_device *dev = f->dev;
	unsigned int nr = _IOC_NR(request);
	unsigned int usize = _IOC_SIZE(request);
	unsigned int udir = _IOC_DIR(request);
	uint64_t uarg = (uint64_t)(uintptr_t)arg;
	const struct drm_row *row;
	struct drm_row legacy = { NULL, 0, 0, 0 };
	uint64_t buf[512];
	char *kdata = (char *)buf;
	unsigned int in_size, out_size, ksize;
	int r;

	if (f->released)
		return -EBADF;
	if (nr >= KFD_DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
		if (nr - KFD_DRM_COMMAND_BASE >= AMDGPU_IOCTL_COUNT)
			return -EINVAL;
		row = &amdgpu_rows[nr - KFD_DRM_COMMAND_BASE];
	} else {
		if (nr >= DRM_CORE_COUNT)
			return -EINVAL;
		row = &core_rows[nr];
		/* an existing core ioctl a render node may not use; its
		 * layout is the caller's (it is only copied in, then refused) */
		if (!row->func && !row->size && !row->flags) {
			legacy.dir = (uint8_t)udir;
			row = &legacy;
		}
	}
	if (row->flags == NONE)
		return -EINVAL;
	in_size = out_size = usize;
	if (!(udir & row->dir & _IOC_WRITE))
		in_size = 0;
	if (!(udir & row->dir & _IOC_READ))
		out_size = 0;
	ksize = in_size > out_size ? in_size : out_size;
	if (row->size > ksize)
		ksize = row->size;
	if (ksize > sizeof(buf)) {
		kdata = malloc(ksize);
		if (!kdata)
			return -ENOMEM;
	}
	if (in_size && ksim_copy_from_user(kdata, uarg, in_size)) {
		r = -EFAULT;
		goto out;
	}
	if (ksize > in_size)
		memset(kdata + in_size, 0, ksize - in_size);
	/* drm_ioctl_permit: render clients need DRM_RENDER_ALLOW */
	if (!(row->flags & DRM_RENDER_ALLOW)) {
		r = -EACCES;
		goto out;
	}
	if (!row->func) {
		r = -ENOSYS;	/* exists, but the model does not simulate it */
		goto out;
	}
	pthread_mutex_lock(&dev->lock);
	r = row->func(f, kdata);
	pthread_mutex_unlock(&dev->lock);
	if (out_size && ksim_copy_to_user(uarg, kdata, out_size))
		r = -EFAULT;
out:
	if (kdata != (char *)buf)
		free(kdata);
	return r;
}
