/* SPDX-License-Identifier: MIT */
/*
 * The amdgpu render node: drm_ioctl() dispatch (core table, then the
 * driver table at 0x40), the core ioctls a render client may use, the
 * amdgpu GEM ioctls (GEM_CREATE/MMAP/METADATA/WAIT_IDLE/VA/LIST_HANDLES)
 * and the user queue ioctls. AMDGPU_INFO is in drm_info.c, AMDGPU_CTX in
 * drm_ctx.c, BO_LIST, CS and WAIT_CS in drm_cs.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_priv.h"

#define DRM_AUTH		0x1
#define DRM_RENDER_ALLOW	0x20
#define DRM_CORE_COUNT		0xd1
#define DRM_COMMAND_END		0xa0
/* The kernel's ENOTSUPP: not in <errno.h>, but what user space sees. */
#define KSIM_ENOTSUPP		524
/* What GEM_LIST_HANDLES reports of a BO's flags. */
#define AMDGPU_GEM_CREATE_SETTABLE_MASK					\
	(KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED |			\
	 KFD_DRM_AMDGPU_GEM_CREATE_NO_CPU_ACCESS |				\
	 KFD_DRM_AMDGPU_GEM_CREATE_CPU_GTT_USWC |				\
	 KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CLEARED |				\
	 KFD_DRM_AMDGPU_GEM_CREATE_VM_ALWAYS_VALID |				\
	 KFD_DRM_AMDGPU_GEM_CREATE_EXPLICIT_SYNC |				\
	 KFD_DRM_AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE |			\
	 KFD_DRM_AMDGPU_GEM_CREATE_ENCRYPTED |					\
	 KFD_DRM_AMDGPU_GEM_CREATE_GFX12_DCC |					\
	 KFD_DRM_AMDGPU_GEM_CREATE_DISCARDABLE |				\
	 KFD_DRM_AMDGPU_GEM_CREATE_COHERENT |					\
	 KFD_DRM_AMDGPU_GEM_CREATE_UNCACHED |					\
	 KFD_DRM_AMDGPU_GEM_CREATE_EXT_COHERENT)
#define AMDGPU_GEM_DOMAIN_MASK	0x7f
#define AMDGPU_GMC_HOLE_START	0x0000800000000000ULL
#define AMDGPU_GMC_HOLE_END	0xffff800000000000ULL
#define AMDGPU_GMC_HOLE_MASK	0x0000ffffffffffffULL
#define AMDGPU_VA_RESERVED_TOP	(2ULL << 20)

typedef int (*drm_handler)(struct ksim_file *f, void *data);

struct drm_row {
	drm_handler func;	/* NULL: known but not simulated (-ENOSYS) */
	uint16_t size;
	uint8_t dir;
	uint8_t flags;		/* DRM_RENDER_ALLOW etc.; 0xff: no entry */
	uint8_t since_minor;	/* DRM 3.x minor of the first kernel with it */
};

#define NONE 0xff

/* A layout not in drm_abi.h (from the published uapi). */
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

struct ksim_bo *
ksim_drm_handle_bo(struct ksim_file *f, uint32_t h)
{
	return handle_lookup(f, h);
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
	int r, slot;

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
	/* Charged to this process (with a KFD process or not), so that its
	 * end gives the memory back. */
	slot = ksim_reg_proc_slot(dev->reg, ksim_self_pid(), "GEM_CREATE");
	if (slot < 0)
		return slot;
	r = -ENOMEM;
	if (domains & KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM) {
		c.gpu = f->gpu;
		c.vram_ttm = size;
		r = ksim_reg_charge(dev, slot, &c, 0);
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
		r = ksim_reg_charge(dev, slot, &c, 0);
		dom = KSIM_DOM_GTT;
	}
	if (r)
		return r;
	bo = ksim_bo_new(dev, f->gpu, dom, size, -1, &r);
	if (!bo) {
		ksim_reg_uncharge(dev, slot, &c);
		return r;
	}
	bo->charge = c;
	bo->charge_slot = slot;
	bo->gem_flags = (uint32_t)flags | KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CLEARED;
	bo->gem_domains = (uint32_t)domains;
	bo->gem_align = (uint32_t)(KSIM_PAGE_ALIGN(a->in.alignment) / KSIM_PAGE_SIZE);
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

/*
 * User queues need an IP with user queue functions (GFX11+/GFX12 with MES,
 * where amdgpu enables them). No GPU the model simulates has one, and from
 * Linux 6.18 the three requests check that first: ENOTSUPP whatever the
 * arguments (the argument struct itself was copied in by drm_ioctl).
 */
static int
userq_none(struct ksim_file *f, void *data)
{
	(void)f;
	(void)data;
	return -KSIM_ENOTSUPP;
}

static uint32_t
list_domains(const struct ksim_bo *bo)
{
	if (bo->gem_domains)
		return bo->gem_domains;
	switch (bo->domain) {
	case KSIM_DOM_VRAM:
		return KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM;
	case KSIM_DOM_USERPTR:
		return KFD_DRM_AMDGPU_GEM_DOMAIN_CPU;
	case KSIM_DOM_DOORBELL:
		return KFD_DRM_AMDGPU_GEM_DOMAIN_DOORBELL;
	default:
		return KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	}
}

/*
 * amdgpu_gem_list_handles_ioctl: the file's GEM handles in idr order. A
 * capacity below the count gets the count and nothing else (0: the
 * caller retries); otherwise every entry is written and the count set.
 */
static int
gem_list_handles(struct ksim_file *f, void *data)
{
	struct kfd_drm_amdgpu_gem_list_handles *a = data;
	struct kfd_drm_amdgpu_gem_list_handles_entry *e;
	uint32_t n = 0, i = 0;
	int r = 0;

	for (unsigned int h = 1; h < f->handles_cap; h++)
		n += f->handles[h] != NULL;
	if (a->num_entries < n || !n) {
		a->num_entries = n;
		return 0;
	}
	e = calloc(n, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (unsigned int h = 1; h < f->handles_cap; h++) {
		const struct ksim_bo *bo = f->handles[h];

		if (!bo)
			continue;
		e[i].gem_handle = h;
		e[i].size = bo->size;
		e[i].preferred_domains = list_domains(bo);
		e[i].alloc_flags = bo->gem_flags & AMDGPU_GEM_CREATE_SETTABLE_MASK;
		e[i].alignment = bo->gem_align;
		/* Only another device's dma-buf is attached: amdgpu takes
		 * its own GPU's buffers back as the same object. */
		if (bo->gpu != f->gpu)
			e[i].flags = KFD_DRM_AMDGPU_GEM_LIST_HANDLES_FLAG_IS_IMPORT;
		i++;
	}
	a->num_entries = i;
	if (ksim_copy_to_user(a->entries, e, (size_t)n * sizeof(*e)))
		r = -EFAULT;
	free(e);
	return r;
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

/*
 * The driver table of the newest merged kernel. since_minor hides a row
 * from a profile whose DRM version is older: drm_ioctl() then finds no
 * entry (EINVAL). Linux 6.16 to 7.0 all report 3.64; a 3.64 profile is
 * that range's newest kernel (with GEM_LIST_HANDLES, added in 6.18).
 */
static const struct drm_row amdgpu_rows[KFD_DRM_AMDGPU_NUM_IOCTLS] = {
	[0x00] = { gem_create, 32, RW, RA },
	[0x01] = { gem_mmap, 8, RW, RA },
	[0x02] = { ksim_drm_ctx, sizeof(union kfd_drm_amdgpu_ctx), RW, RA },
	[0x03] = { ksim_drm_bo_list, sizeof(union kfd_drm_amdgpu_bo_list), RW, RA },
	[0x04] = { ksim_drm_cs, sizeof(union kfd_drm_amdgpu_cs), RW, RA },
	[0x05] = { ksim_drm_info, 32, W, RA },
	[0x06] = { gem_metadata, 288, RW, RA },
	[0x07] = { gem_wait_idle, 16, RW, RA },
	[0x08] = { gem_va, 40, W, RA },
	[0x09] = { ksim_drm_wait_cs, sizeof(union kfd_drm_amdgpu_wait_cs), RW, RA },
	[0x0a] = { NULL, 0, 0, NONE }, [0x0b] = { NULL, 0, 0, NONE },
	[0x0c] = { NULL, 0, 0, NONE }, [0x0d] = { NULL, 0, 0, NONE },
	[0x0e] = { NULL, 0, 0, NONE }, [0x0f] = { NULL, 0, 0, NONE },
	[0x10] = { NULL, 16, RW, RA },		/* GEM_OP */
	[0x11] = { NULL, 24, RW, RA },		/* GEM_USERPTR */
	[0x12] = { NULL, 24, RW, RA },		/* WAIT_FENCES */
	[0x13] = { NULL, 8, RW, RA },		/* VM */
	[0x14] = { NULL, 24, RW, RA },		/* FENCE_TO_HANDLE */
	[0x15] = { NULL, 16, W, RA },		/* SCHED */
	[0x16] = { userq_none, sizeof(union kfd_drm_amdgpu_userq), RW, RA, 64 },
	[0x17] = { userq_none, sizeof(struct kfd_drm_amdgpu_userq_signal), RW, RA, 64 },
	[0x18] = { userq_none, sizeof(struct kfd_drm_amdgpu_userq_wait), RW, RA, 64 },
	[0x19] = { gem_list_handles, sizeof(struct kfd_drm_amdgpu_gem_list_handles),
		   RW, RA, 64 },
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
		if (nr - KFD_DRM_COMMAND_BASE >= KFD_DRM_AMDGPU_NUM_IOCTLS)
			return -EINVAL;
		row = &amdgpu_rows[nr - KFD_DRM_COMMAND_BASE];
		if (row->since_minor > dev->gpus[f->gpu].d->version_minor)
			return -EINVAL;
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
