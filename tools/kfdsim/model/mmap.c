/* SPDX-License-Identifier: MIT */
/*
 * mmap() of model files: /dev/kfd offsets (kfd_mmap: doorbells, events,
 * reserved memory, MMIO) and render-node GEM fake offsets (drm_gem_mmap).
 * The model answers with a memfd and an offset; the caller maps it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ksim_priv.h"

#define KFD_CWSR_TBA_TMA_SIZE	(2 * KSIM_PAGE_SIZE)

static int
give(int fd, uint64_t off, int flags, struct ksim_map *out)
{
	int dup = ksim_sys_dup_min(fd, 0, 1);

	if (dup < 0)
		return dup == -EMFILE ? -ENOMEM : dup;
	out->fd = dup;
	out->offset = off;
	out->flags = flags;
	return 0;
}

/* Page order of a length, as get_order() computes it. */
static int
order_of(uint64_t len)
{
	int o = 0;

	len = (len - 1) >> 12;
	while (len) {
		o++;
		len >>= 1;
	}
	return o;
}

static struct ksim_process *
mmap_process(struct ksim_file *f)
{
	pid_t self = ksim_self_pid();

	/* kfd_mmap works on the caller's process, whatever fd it uses; a
	 * secondary context is the fd's own. */
	if (f->proc && f->proc->secondary && f->proc->pid == self)
		return f->proc;
	for (struct ksim_process *p = f->dev->procs; p; p = p->next)
		if (p->pid == self && !p->secondary)
			return p;
	return NULL;
}

static int
kfd_mmap(struct ksim_file *f, uint64_t offset, size_t len, struct ksim_map *out)
{
	struct ksim_device *dev = f->dev;
	struct ksim_process *p = mmap_process(f);
	uint32_t gpu_id = KFD_ABI_MMAP_GET_GPU_ID(offset);
	int gpu = ksim_gpu_index(dev, gpu_id);
	struct ksim_pdd *pdd;
	int fd;

	if (!p)
		return -EINVAL;
	len = KSIM_PAGE_ALIGN(len);
	switch (KFD_ABI_MMAP_GET_TYPE(offset)) {
	case KFD_ABI_MMAP_TYPE_DOORBELL:
		if (gpu < 0)
			return -ENODEV;
		if (len != dev->gpus[gpu].g->doorbell_slice)
			return -EINVAL;
		pdd = ksim_pdd_by_id(p, gpu_id);
		if (!pdd)
			return -EINVAL;
		fd = ksim_doorbell_fd(dev, pdd);
		if (fd < 0)
			return -ENOMEM;
		return give(fd, 0, KSIM_MAP_UNCACHED | KSIM_MAP_DOORBELL, out);
	case KFD_ABI_MMAP_TYPE_EVENTS: {
		int page;

		if (order_of(len) != order_of(KFD_ABI_EVENTS_PAGE_SIZE))
			return -EINVAL;
		page = p->signal_bo ? p->signal_bo->memfd : p->signal_fd;
		if (page < 0)
			return -EINVAL;
		p->signal_mapped_size = len;
		return give(page, 0, 0, out);
	}
	case KFD_ABI_MMAP_TYPE_RESERVED_MEM: {
		int r;

		if (gpu < 0)
			return -ENODEV;
		if (len != KFD_CWSR_TBA_TMA_SIZE)
			return -EINVAL;
		if (!ksim_pdd_by_id(p, gpu_id))
			return -EINVAL;
		fd = ksim_sys_memfd("kfdsim-cwsr", 1);
		if (fd < 0)
			return -ENOMEM;
		if (ksim_sys_ftruncate(fd, KFD_CWSR_TBA_TMA_SIZE)) {
			ksim_sys_close(fd);
			return -ENOMEM;
		}
		out->fd = fd;
		out->offset = 0;
		out->flags = 0;
		r = 0;
		return r;
	}
	default:	/* KFD_ABI_MMAP_TYPE_MMIO is type 0 */
		if (gpu < 0)
			return -ENODEV;
		if (len != KSIM_PAGE_SIZE)
			return -EINVAL;
		pdd = ksim_pdd_by_id(p, gpu_id);
		if (!pdd)
			return -EINVAL;
		fd = ksim_mmio_fd(pdd);
		if (fd < 0)
			return -ENOMEM;
		return give(fd, 0, KSIM_MAP_UNCACHED, out);
	}
}

static int
render_mmap(struct ksim_file *f, uint64_t offset, size_t len,
	    struct ksim_map *out)
{
	struct ksim_bo *bo = ksim_bo_by_fake_offset(f->dev, offset);

	/* drm_vma_offset_exact_lookup_locked: exact start, fits */
	if (!bo || !len || KSIM_PAGE_ALIGN(len) > bo->size)
		return -EINVAL;
	if (!ksim_bo_accessible(f, bo))
		return -EACCES;
	if (bo->domain == KSIM_DOM_USERPTR || ksim_bo_backing(bo) < 0)
		return -EPERM;
	return give(bo->memfd, 0,
		    bo->domain == KSIM_DOM_DOORBELL ?
		    KSIM_MAP_UNCACHED | KSIM_MAP_DOORBELL :
		    bo->domain == KSIM_DOM_MMIO ? KSIM_MAP_UNCACHED : 0, out);
}

/*
 * The caller's process whose doorbell page @bo is (a DOORBELL BO shares
 * the page's memfd); NULL if none.
 */
static struct ksim_process *
doorbell_owner(struct ksim_device *dev, const struct ksim_bo *bo)
{
	pid_t self = ksim_self_pid();
	uint64_t d0, i0, d1, i1;

	if (ksim_sys_identity(bo->memfd, &d0, &i0))
		return NULL;
	for (struct ksim_process *p = dev->procs; p; p = p->next) {
		if (p->pid != self)
			continue;
		for (unsigned int i = 0; i < p->n_pdds; i++)
			if (p->pdds[i].doorbell_fd >= 0 &&
			    !ksim_sys_identity(p->pdds[i].doorbell_fd, &d1, &i1) &&
			    d0 == d1 && i0 == i1)
				return p;
	}
	return NULL;
}

__attribute__((visibility("default"))) void
ksim_notify_mapped(struct ksim_file *f, uint64_t offset, void *addr,
		   size_t len, int flags)
{
	struct ksim_process *p = NULL;
	struct ksim_bo *bo;

	/* A private mapping's stores never reach the page. */
	if (!f || !addr || !len ||
	    ((flags & MAP_TYPE) != MAP_SHARED &&
	     (flags & MAP_TYPE) != MAP_SHARED_VALIDATE))
		return;
	pthread_mutex_lock(&f->dev->lock);
	if (f->released) {
		p = NULL;
	} else if (f->kind == KFD_FILE_KFD) {
		if (KFD_ABI_MMAP_GET_TYPE(offset) == KFD_ABI_MMAP_TYPE_DOORBELL)
			p = mmap_process(f);
	} else {
		bo = ksim_bo_by_fake_offset(f->dev, offset);
		if (bo && bo->domain == KSIM_DOM_DOORBELL && bo->memfd >= 0)
			p = doorbell_owner(f->dev, bo);
	}
	if (p)
		ksim_cp_doorbell_mapped(p, (uint64_t)(uintptr_t)addr,
					KSIM_PAGE_ALIGN(len));
	pthread_mutex_unlock(&f->dev->lock);
}

__attribute__((visibility("default"))) int
ksim_mmap(struct ksim_file *f, uint64_t offset, size_t len, int prot,
	  int flags, struct ksim_map *out)
{
	int r;

	if (!f || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!len)
		return -EINVAL;
	pthread_mutex_lock(&f->dev->lock);
	if (f->released)
		r = -EBADF;
	else if (f->kind == KFD_FILE_KFD)
		r = kfd_mmap(f, offset, len, out);
	else
		r = render_mmap(f, offset, len, out);
	pthread_mutex_unlock(&f->dev->lock);
	return r;
}
