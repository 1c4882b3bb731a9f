/* SPDX-License-Identifier: MIT */
/*
 * Buffer objects and the KFD memory ioctls: ACQUIRE_VM, ALLOC/FREE,
 * MAP/UNMAP (kfd_chardev.c, amdgpu_amdkfd_gpuvm.c). Validation order and
 * errno follow the kernel; see the semantics reference §6.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"

struct ksim_bo *
ksim_bo_new(struct ksim_device *dev, int gpu, enum ksim_domain dom,
	    uint64_t size, int share_fd, int *err)
{
	struct ksim_bo *bo = calloc(1, sizeof(*bo));
	int fd = -1, r;

	if (!bo) {
		*err = -ENOMEM;
		return NULL;
	}
	if (share_fd >= 0) {
		fd = ksim_sys_dup_min(share_fd, 0, 1);
		if (fd < 0) {
			free(bo);
			*err = -ENOMEM;
			return NULL;
		}
		fd = ksim_internal_fd(fd);
	}
	/* VRAM and GTT get their memfd when first needed (ksim_bo_backing). */
	if (fd >= 0) {
		r = ksim_sys_identity(fd, &bo->st_dev, &bo->st_ino);
		if (r) {
			ksim_sys_close(fd);
			free(bo);
			*err = -ENOMEM;
			return NULL;
		}
	}
	bo->refs = 1;
	bo->memfd = fd;
	bo->size = size;
	bo->domain = dom;
	bo->gpu = gpu;
	bo->reg_slot = -1;
	bo->charge.gpu = -1;
	bo->charge_slot = -1;
	bo->owner = ksim_self_pid();
	bo->next = dev->bos;
	if (dev->bos)
		dev->bos->prev = bo;
	dev->bos = bo;
	return bo;
}

int
ksim_bo_backing(struct ksim_bo *bo)
{
	uint64_t sdev, ino;
	int fd;

	if (bo->memfd >= 0)
		return bo->memfd;
	if (bo->domain != KSIM_DOM_VRAM && bo->domain != KSIM_DOM_GTT)
		return -EPERM;
	fd = ksim_sys_memfd("kfdsim-bo", 1);
	if (fd < 0)
		return -ENOMEM;
	fd = ksim_internal_fd(fd);
	/* Sparse: pages appear when touched, like VRAM never written. */
	if (ksim_sys_ftruncate(fd, bo->size) ||
	    ksim_sys_identity(fd, &sdev, &ino)) {
		ksim_sys_close(fd);
		return -ENOMEM;
	}
	bo->st_dev = sdev;
	bo->st_ino = ino;
	bo->memfd = fd;
	return fd;
}

void *
ksim_bo_view(struct ksim_bo *bo)
{
	void *v = __atomic_load_n(&bo->view, __ATOMIC_ACQUIRE), *none = NULL;
	struct stat st;

	if (v || bo->memfd < 0 || !bo->size ||
	    (bo->domain != KSIM_DOM_VRAM && bo->domain != KSIM_DOM_GTT))
		return v;
	/* A file shorter than the BO (an import) would raise SIGBUS. */
	if (syscall(SYS_fstat, bo->memfd, &st) || (uint64_t)st.st_size < bo->size)
		return NULL;
	/* Raw: the program's mmap may be wrapped, and this is not its. */
	v = (void *)syscall(SYS_mmap, NULL, (size_t)bo->size, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_NORESERVE, bo->memfd, 0);
	if (v == MAP_FAILED)
		return NULL;
	/* Two engines may race here: one mapping stays. */
	if (!__atomic_compare_exchange_n(&bo->view, &none, v, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		syscall(SYS_munmap, v, (size_t)bo->size);
		v = none;
	}
	return v;
}

void
ksim_bo_get(struct ksim_bo *bo)
{
	bo->refs++;
}

void
ksim_bo_put(struct ksim_device *dev, struct ksim_bo *bo)
{
	if (--bo->refs > 0)
		return;
	if (bo->prev)
		bo->prev->next = bo->next;
	else
		dev->bos = bo->next;
	if (bo->next)
		bo->next->prev = bo->prev;
	if (bo->view)
		syscall(SYS_munmap, bo->view, (size_t)bo->size);
	if (bo->memfd >= 0)
		ksim_sys_close(bo->memfd);
	/* A fork child holding a copy of its parent's BO must not give the
	 * parent's memory back. */
	if (bo->owner == ksim_self_pid())
		ksim_reg_uncharge(dev, bo->charge_slot, &bo->charge);
	free(bo);
}

struct ksim_bo *
ksim_bo_by_identity(struct ksim_device *dev, uint64_t st_dev, uint64_t st_ino)
{
	for (struct ksim_bo *bo = dev->bos; bo; bo = bo->next)
		if (bo->memfd >= 0 && bo->st_ino == st_ino && bo->st_dev == st_dev)
			return bo;
	return NULL;
}

struct ksim_bo *
ksim_bo_by_fake_offset(struct ksim_device *dev, uint64_t off)
{
	for (struct ksim_bo *bo = dev->bos; bo; bo = bo->next)
		if (bo->fake_offset == off)
			return bo;
	return NULL;
}

/* amdgpu_bo_mmap_offset: allocated on first use, never reused. */
uint64_t
ksim_bo_fake_offset(struct ksim_device *dev, struct ksim_bo *bo)
{
	if (!bo->fake_offset) {
		bo->fake_offset = dev->next_fake_offset;
		dev->next_fake_offset += bo->size ? bo->size : KSIM_PAGE_SIZE;
	}
	return bo->fake_offset;
}

struct ksim_kmem *
ksim_kmem_lookup(struct ksim_pdd *pdd, uint32_t idr)
{
	return idr < pdd->idr_cap ? pdd->idr[idr] : NULL;
}

/*
 * idr_alloc(.., 0, 0): the lowest free id from 0. Two bitmap levels find it
 * without walking the slots: idr_used has a bit per id, idr_full a bit per
 * idr_used word that has no free bit left, so a search reads one word per
 * 4096 ids, then one, then a bit.
 */
static int
idr_grow(struct ksim_pdd *pdd)
{
	unsigned int cap = pdd->idr_cap ? pdd->idr_cap * 2 : 64;
	unsigned int ow = pdd->idr_cap / 64, nw = cap / 64;
	unsigned int ofw = (ow + 63) / 64, nfw = (nw + 63) / 64;
	struct ksim_kmem **n;
	uint64_t *u, *f;

	if (cap > (1u << 24))
		return -ENOSPC;
	n = realloc(pdd->idr, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + pdd->idr_cap, 0, (cap - pdd->idr_cap) * sizeof(*n));
	pdd->idr = n;
	u = realloc(pdd->idr_used, nw * sizeof(*u));
	if (!u)
		return -ENOMEM;
	memset(u + ow, 0, (nw - ow) * sizeof(*u));
	pdd->idr_used = u;
	f = realloc(pdd->idr_full, nfw * sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f + ofw, 0, (nfw - ofw) * sizeof(*f));
	pdd->idr_full = f;
	pdd->idr_cap = cap;
	return 0;
}

/* The lowest id whose bit is clear, or idr_cap when every id is taken. */
static unsigned int
idr_first_free(const struct ksim_pdd *pdd)
{
	unsigned int nw = pdd->idr_cap / 64, nfw = (nw + 63) / 64, i;

	for (i = 0; i < nfw; i++) {
		uint64_t free_words = ~pdd->idr_full[i];
		unsigned int w;

		if (i == nfw - 1 && nw % 64)
			free_words &= (1ull << (nw % 64)) - 1;
		if (!free_words)
			continue;
		w = i * 64 + (unsigned int)__builtin_ctzll(free_words);
		return w * 64 + (unsigned int)__builtin_ctzll(~pdd->idr_used[w]);
	}
	return pdd->idr_cap;
}

static void
idr_mark(struct ksim_pdd *pdd, unsigned int id, int used)
{
	unsigned int w = id / 64;

	if (used) {
		pdd->idr_used[w] |= 1ull << (id % 64);
		if (pdd->idr_used[w] == ~0ull)
			pdd->idr_full[w / 64] |= 1ull << (w % 64);
	} else {
		pdd->idr_used[w] &= ~(1ull << (id % 64));
		pdd->idr_full[w / 64] &= ~(1ull << (w % 64));
	}
}

int
ksim_kmem_insert(struct ksim_pdd *pdd, struct ksim_kmem *m)
{
	unsigned int i = idr_first_free(pdd);
	int r;

	if (i >= pdd->idr_cap) {
		i = pdd->idr_cap;
		r = idr_grow(pdd);
		if (r)
			return r;
	}
	pdd->idr[i] = m;
	idr_mark(pdd, i, 1);
	return (int)i;
}

/* Give an id back (idr_remove). */
static void
ksim_kmem_remove(struct ksim_pdd *pdd, uint32_t idr)
{
	if (idr >= pdd->idr_cap)
		return;
	pdd->idr[idr] = NULL;
	idr_mark(pdd, idr, 0);
}

/* Drop a handle with all its GPU mappings (teardown; no checks). */
void
ksim_kmem_destroy(struct ksim_process *p, struct ksim_pdd *pdd, uint32_t idr)
{
	struct ksim_kmem *m = ksim_kmem_lookup(pdd, idr);

	if (!m)
		return;
	for (unsigned int i = 0; i < p->n_pdds; i++)
		if (p->pdds[i].drm_file)
			ksim_vm_remove_kmem(p->dev, &p->pdds[i].drm_file->vm, m);
	pdd->vram_usage -= m->vram_usage;
	ksim_xmem_unpublish(p, m);
	if (m->ipc_entry)
		ksim_reg_ipc_put(p->dev, m->ipc_entry - 1, m->ipc_gen);
	ksim_bo_put(p->dev, m->bo);
	free(m);
	ksim_kmem_remove(pdd, idr);
}

/* The process doorbell page (kfd_get_process_doorbells). */
int
ksim_doorbell_fd(struct ksim_device *dev, struct ksim_pdd *pdd)
{
	int fd;

	if (pdd->doorbell_fd >= 0)
		return pdd->doorbell_fd;
	fd = ksim_sys_memfd("kfdsim-doorbells", 1);
	if (fd < 0)
		return -ENOMEM;
	fd = ksim_internal_fd(fd);
	if (ksim_sys_ftruncate(fd, dev->gpus[pdd->gpu].g->doorbell_slice)) {
		ksim_sys_close(fd);
		return -ENOMEM;
	}
	pdd->doorbell_fd = fd;
	return fd;
}

/* The HDP flush remap page the MMIO_REMAP BO and mmap expose. */
int
ksim_mmio_fd(struct ksim_pdd *pdd)
{
	int fd;

	if (pdd->mmio_fd >= 0)
		return pdd->mmio_fd;
	fd = ksim_sys_memfd("kfdsim-mmio", 1);
	if (fd < 0)
		return -ENOMEM;
	fd = ksim_internal_fd(fd);
	if (ksim_sys_ftruncate(fd, KSIM_PAGE_SIZE)) {
		ksim_sys_close(fd);
		return -ENOMEM;
	}
	pdd->mmio_fd = fd;
	return fd;
}

int
ksim_ioc_acquire_vm(struct ksim_file *f, struct ksim_process *p, void *data,
		    unsigned int usize)
{
	struct kfd_abi_acquire_vm_args *args = data;
	struct ksim_file *drm;
	struct ksim_pdd *pdd;

	/* fget(drm_fd) */
	if (syscall(SYS_fcntl, (int)args->drm_fd, F_GETFD) < 0)
		return -EINVAL;
	drm = ksim_file_lookup_fd(f->dev, (int)args->drm_fd);
	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	if (pdd->drm_file)
		return pdd->drm_file == drm ? 0 : -EBUSY;
	/* amdgpu_file_to_fpriv: not an amdgpu render file */
	if (!drm || drm->kind != KFD_FILE_RENDER)
		return -EINVAL;
	/* A render node of another GPU, or a VM that is already a compute
	 * VM (amdgpu_amdkfd_gpuvm_acquire_process_vm). */
	if (drm->gpu != pdd->gpu || drm->vm.kfd_proc)
		return -EINVAL;
	ksim_file_get(drm);
	drm->vm.kfd_proc = p;
	pdd->drm_file = drm;
	ksim_pm_vm_acquired(p, pdd->gpu);
	/* kfd_process_device_init_vm() announces the process. */
	ksim_smi_process_event(p, pdd->gpu, 1);
	return 0;
}

/* Pick the BO placement (amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu). */
static int
alloc_domain(const struct ksim_gpu *g, uint32_t flags, uint64_t mmap_offset,
	     uint64_t size, enum ksim_domain *dom, uint32_t *gem_flags)
{
	*gem_flags = 0;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM) {
		if (g->is_apu) {
			*dom = KSIM_DOM_GTT;
		} else {
			*dom = KSIM_DOM_VRAM;
			*gem_flags = KFD_DRM_AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE |
				((flags & KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC) ?
				 KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED :
				 KFD_DRM_AMDGPU_GEM_CREATE_NO_CPU_ACCESS);
			if (flags & KFD_ABI_ALLOC_MEM_FLAGS_CONTIGUOUS)
				*gem_flags |= KFD_DRM_AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS;
		}
	} else if (flags & KFD_ABI_ALLOC_MEM_FLAGS_GTT) {
		*dom = KSIM_DOM_GTT;
	} else if (flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR) {
		*dom = KSIM_DOM_USERPTR;
		*gem_flags = KFD_DRM_AMDGPU_GEM_CREATE_PREEMPTIBLE;
		if (!mmap_offset)
			return -EINVAL;
	} else if (flags & (KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL |
			    KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP)) {
		*dom = (flags & KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL) ?
		       KSIM_DOM_DOORBELL : KSIM_DOM_MMIO;
		*gem_flags = KFD_DRM_AMDGPU_GEM_CREATE_PREEMPTIBLE;
		if (size > UINT32_MAX)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_COHERENT)
		*gem_flags |= KFD_DRM_AMDGPU_GEM_CREATE_COHERENT;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_EXT_COHERENT)
		*gem_flags |= KFD_DRM_AMDGPU_GEM_CREATE_EXT_COHERENT;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_UNCACHED)
		*gem_flags |= KFD_DRM_AMDGPU_GEM_CREATE_UNCACHED;
	return 0;
}

int
ksim_ioc_alloc_memory(struct ksim_file *f, struct ksim_process *p, void *data,
		      unsigned int usize)
{
	struct kfd_abi_alloc_memory_of_gpu_args *args = data;
	struct ksim_device *dev = f->dev;
	uint32_t flags = args->flags;
	const struct ksim_gpu *g;
	struct ksim_pdd *pdd;
	struct ksim_kmem *m;
	struct ksim_bo *bo;
	struct ksim_charge c = { .gpu = -1 };
	enum ksim_domain dom;
	uint32_t gem_flags;
	uint64_t size = args->size, aligned;
	int share_fd = -1, r, idr;

	if (size == 0)
		return -EINVAL;
	if (dev->abi_minor >= 5 && !(dev->flags & KSIM_OPT_NO_SVM)) {
		/* VRAM without a VA is the one case SVM ranges do not block. */
		if (!(!args->va_addr && (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM)) &&
		    ksim_svm_overlaps(p, args->va_addr, size))
			return -EADDRINUSE;
		if ((flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR) &&
		    ksim_svm_overlaps(p, args->mmap_offset, size))
			return -EADDRINUSE;
	}
	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	g = dev->gpus[pdd->gpu].g;
	if ((flags & KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC) &&
	    (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM) && !g->large_bar)
		return -EINVAL;
	r = ksim_pdd_bind(pdd);
	if (r)
		return r;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL) {
		if (size != g->doorbell_slice)
			return -EINVAL;
		share_fd = ksim_doorbell_fd(dev, pdd);
		if (share_fd < 0)
			return -ENOMEM;
	} else if (flags & KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP) {
		if (size != KSIM_PAGE_SIZE)
			return -EINVAL;
		share_fd = ksim_mmio_fd(pdd);
		if (share_fd < 0)
			return -ENOMEM;
	}
	r = alloc_domain(g, flags, args->mmap_offset, size, &dom, &gem_flags);
	if (r)
		return r;
	/* AQL rings are mapped twice: only half is allocated. */
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM)
		size >>= 1;
	aligned = KSIM_PAGE_ALIGN(size);
	if (!aligned || aligned < size)
		return -EINVAL;
	switch (dom) {
	case KSIM_DOM_VRAM:
		c.gpu = pdd->gpu;
		c.vram = aligned;
		c.vram_ttm = aligned;
		break;
	case KSIM_DOM_GTT:
		c.sys = aligned;
		c.ttm = aligned;
		break;
	case KSIM_DOM_USERPTR:
		c.sys = aligned;
		break;
	default:
		break;
	}
	r = ksim_reg_charge(dev, p->reg_slot, &c, 1);
	if (r)
		return r;
	bo = ksim_bo_new(dev, pdd->gpu, dom, aligned, share_fd, &r);
	if (!bo) {
		ksim_reg_uncharge(dev, p->reg_slot, &c);
		return -ENOMEM;
	}
	bo->charge = c;
	bo->charge_slot = p->reg_slot;
	bo->gem_flags = gem_flags;
	bo->kfd_flags = flags;
	bo->mmap_file = pdd->drm_file;
	if (dom == KSIM_DOM_USERPTR) {
		bo->userptr = args->mmap_offset;
		/* init_user_pages: the pages must exist */
		if (!ksim_user_range_mapped(args->mmap_offset, size)) {
			ksim_bo_put(dev, bo);
			return -EFAULT;
		}
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		ksim_bo_put(dev, bo);
		return -ENOMEM;
	}
	m->bo = bo;
	m->va = args->va_addr;
	m->va_size = aligned;
	m->alloc_flags = flags;
	m->gpu = pdd->gpu;
	ksim_bo_fake_offset(dev, bo);
	idr = ksim_kmem_insert(pdd, m);
	if (idr < 0) {
		ksim_bo_put(dev, bo);
		free(m);
		return -EFAULT;
	}
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM) {
		m->vram_usage = aligned;
		pdd->vram_usage += aligned;
	}
	ksim_xmem_publish(p, m);
	args->handle = KFD_ABI_MAKE_HANDLE(args->gpu_id, idr);
	args->mmap_offset = bo->fake_offset;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP)
		args->mmap_offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_MMIO,
							args->gpu_id, 0);
	return 0;
}

int
ksim_ioc_free_memory(struct ksim_file *f, struct ksim_process *p, void *data,
		     unsigned int usize)
{
	struct kfd_abi_free_memory_of_gpu_args *args = data;
	struct ksim_pdd *pdd;
	struct ksim_kmem *m;

	if (p->signal_bo && p->signal_handle == args->handle)
		return -EPERM;
	pdd = ksim_pdd_by_id(p, KFD_ABI_HANDLE_GPU_ID(args->handle));
	if (!pdd)
		return -EINVAL;
	m = ksim_kmem_lookup(pdd, KFD_ABI_HANDLE_IDR(args->handle));
	if (!m)
		return -EINVAL;
	if (m->mapped_count > 0)
		return -EBUSY;
	ksim_kmem_destroy(p, pdd, KFD_ABI_HANDLE_IDR(args->handle));
	return 0;
}

/* Read the device id array of MAP/UNMAP. */
static int
read_devices(const struct kfd_abi_map_memory_to_gpu_args *args, uint32_t **out)
{
	uint64_t bytes = (uint64_t)args->n_devices * sizeof(uint32_t);
	uint32_t *ids;

	if (!args->n_devices)
		return -EINVAL;
	if (args->n_success > args->n_devices)
		return -EINVAL;
	if (bytes > KSIM_KMALLOC_MAX)
		return -ENOMEM;
	ids = malloc(bytes);
	if (!ids)
		return -ENOMEM;
	if (ksim_copy_from_user(ids, args->device_ids_array_ptr, bytes)) {
		free(ids);
		return -EFAULT;
	}
	*out = ids;
	return 0;
}

/* Map @m into the VM of @peer (map_bo_to_gpuvm for each attachment). */
static int
map_one(struct ksim_device *dev, struct ksim_kmem *m, struct ksim_pdd *peer)
{
	struct ksim_vm *vm = &peer->drm_file->vm;
	unsigned int natt = (m->alloc_flags & KFD_ABI_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM) ? 2 : 1;
	struct ksim_mapping mp;
	int r;

	if (m->mapped_mask & (1u << peer->gpu))
		return 0;
	r = ksim_vm_check(vm, m->va, m->va_size * natt);
	if (r)
		return r;
	for (unsigned int a = 0; a < natt; a++) {
		memset(&mp, 0, sizeof(mp));
		mp.start = m->va + a * m->va_size;
		mp.size = m->va_size;
		mp.bo = m->bo;
		mp.kmem = m;
		mp.flags = m->alloc_flags;
		r = ksim_vm_insert(vm, &mp);
		if (r) {
			ksim_vm_remove_kmem(dev, vm, m);
			return r;
		}
	}
	m->mapped_mask |= 1u << peer->gpu;
	m->mapped_count++;
	return 0;
}

int
ksim_ioc_map_memory(struct ksim_file *f, struct ksim_process *p, void *data,
		    unsigned int usize)
{
	struct kfd_abi_map_memory_to_gpu_args *args = data;
	struct ksim_pdd *pdd, *peer;
	struct ksim_kmem *m;
	uint32_t *ids;
	int r;

	r = read_devices(args, &ids);
	if (r)
		return r;
	pdd = ksim_pdd_by_id(p, KFD_ABI_HANDLE_GPU_ID(args->handle));
	if (!pdd) {
		r = -EINVAL;
		goto out;
	}
	r = ksim_pdd_bind(pdd);
	if (r)
		goto out;
	m = ksim_kmem_lookup(pdd, KFD_ABI_HANDLE_IDR(args->handle));
	if (!m) {
		r = -ENOMEM;	/* sic: kfd_ioctl_map_memory_to_gpu */
		goto out;
	}
	for (uint32_t i = args->n_success; i < args->n_devices; i++) {
		peer = ksim_pdd_by_id(p, ids[i]);
		if (!peer) {
			r = -EINVAL;
			goto out;
		}
		r = ksim_pdd_bind(peer);
		if (r)
			goto out;
		r = map_one(f->dev, m, peer);
		if (r)
			goto out;
		args->n_success = i + 1;
	}
out:
	free(ids);
	return r;
}

int
ksim_ioc_unmap_memory(struct ksim_file *f, struct ksim_process *p, void *data,
		      unsigned int usize)
{
	struct kfd_abi_unmap_memory_from_gpu_args *args = data;
	struct ksim_pdd *pdd, *peer;
	struct ksim_kmem *m;
	uint32_t *ids;
	int r;

	r = read_devices((struct kfd_abi_map_memory_to_gpu_args *)args, &ids);
	if (r)
		return r;
	pdd = ksim_pdd_by_id(p, KFD_ABI_HANDLE_GPU_ID(args->handle));
	if (!pdd) {
		r = -EINVAL;
		goto out;
	}
	m = ksim_kmem_lookup(pdd, KFD_ABI_HANDLE_IDR(args->handle));
	if (!m) {
		r = -ENOMEM;	/* sic */
		goto out;
	}
	for (uint32_t i = args->n_success; i < args->n_devices; i++) {
		struct ksim_vm *vm;

		peer = ksim_pdd_by_id(p, ids[i]);
		if (!peer) {
			r = -EINVAL;
			goto out;
		}
		/* No VM reserved: the BO was not mapped there. */
		if (!(m->mapped_mask & (1u << peer->gpu)) || !peer->drm_file) {
			r = -EINVAL;
			goto out;
		}
		vm = &peer->drm_file->vm;
		for (unsigned int k = 0; k < vm->n; k++) {
			if (vm->maps[k].kmem == m && vm->maps[k].queue_refcount) {
				r = -EBUSY;
				goto out;
			}
		}
		ksim_vm_remove_kmem(f->dev, vm, m);
		m->mapped_mask &= ~(1u << peer->gpu);
		m->mapped_count--;
		args->n_success = i + 1;
	}
out:
	free(ids);
	return r;
}
