/* SPDX-License-Identifier: MIT */
/*
 * dma-bufs: an exported BO is a real fd (a dup of the BO's memfd, so every
 * mapping of it sees the same bytes). The model recognises it again by the
 * memfd's inode: first among its own BOs, then in the machine registry,
 * which covers fds passed to another process over a socket.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"

/* dma_buf_get(fd) + "is it an amdgpu BO": returns the BO with a reference. */
struct ksim_bo *
ksim_dmabuf_resolve(struct ksim_device *dev, int fd, int *err)
{
	struct ksim_reg_buf info;
	struct ksim_bo *bo;
	uint64_t sdev, ino;
	int r;

	if (fd < 0 || syscall(SYS_fcntl, fd, F_GETFD) < 0) {
		*err = -EBADF;
		return NULL;
	}
	if (ksim_sys_identity(fd, &sdev, &ino)) {
		*err = -EBADF;
		return NULL;
	}
	bo = ksim_bo_by_identity(dev, sdev, ino);
	if (bo) {
		ksim_bo_get(bo);
		return bo;
	}
	/* Not a dma-buf of this machine (any other file is not one). */
	if (ksim_reg_buf_find(dev, sdev, ino, &info) < 0 ||
	    info.gpu >= dev->n_gpus) {
		*err = -EINVAL;
		return NULL;
	}
	bo = ksim_bo_new(dev, (int)info.gpu, (enum ksim_domain)info.domain,
			 info.size, fd, &r);
	if (!bo) {
		*err = r;
		return NULL;
	}
	bo->gem_flags = info.gem_flags;
	bo->kfd_flags = info.kfd_flags;
	bo->reg_slot = ksim_reg_buf_find(dev, sdev, ino, NULL);
	ksim_reg_buf_load_metadata(dev, bo);
	return bo;
}

/* dma_buf_fd(): a new fd at the lowest free number. */
int
ksim_dmabuf_export_fd(struct ksim_device *dev, struct ksim_bo *bo, int cloexec,
		      int *err)
{
	int fd;

	if (bo->domain == KSIM_DOM_USERPTR) {
		*err = -EPERM;
		return -1;
	}
	/* -EPERM for a doorbell without a page: nothing to share. */
	fd = ksim_bo_backing(bo);
	if (fd < 0) {
		*err = fd;
		return -1;
	}
	/* Doorbell and MMIO pages exist but are not exportable. */
	if (bo->domain != KSIM_DOM_VRAM && bo->domain != KSIM_DOM_GTT) {
		*err = -EINVAL;
		return -1;
	}
	ksim_reg_buf_publish(dev, bo);
	fd = ksim_sys_dup_min(bo->memfd, 0, cloexec);
	if (fd < 0) {
		*err = fd;
		return -1;
	}
	return fd;
}

/*
 * drm_vma_node_is_allowed: a render file may map a BO it holds a GEM
 * handle to, or a KFD BO of the process whose VM it carries.
 */
int
ksim_bo_accessible(struct ksim_file *f, struct ksim_bo *bo)
{
	struct ksim_process *p = f->vm.kfd_proc;

	for (unsigned int h = 0; h < f->handles_cap; h++)
		if (f->handles[h] == bo)
			return 1;
	if (bo->mmap_file == f)
		return 1;
	if (!p)
		return 0;
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		struct ksim_pdd *pdd = &p->pdds[i];

		if (pdd->drm_file != f)
			continue;
		for (unsigned int h = 0; h < pdd->idr_cap; h++)
			if (pdd->idr[h] && pdd->idr[h]->bo == bo)
				return 1;
	}
	return 0;
}

static uint32_t
bo_kfd_flags(const struct ksim_bo *bo)
{
	uint32_t flags = bo->domain == KSIM_DOM_VRAM ?
			 KFD_ABI_ALLOC_MEM_FLAGS_VRAM : KFD_ABI_ALLOC_MEM_FLAGS_GTT;

	if (bo->gem_flags & KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED)
		flags |= KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC;
	return flags;
}

int
ksim_ioc_get_dmabuf_info(struct ksim_file *f, struct ksim_process *p,
			 void *data, unsigned int usize)
{
	struct kfd_abi_get_dmabuf_info_args *args = data;
	struct ksim_device *dev = f->dev;
	uint8_t meta[sizeof(((struct ksim_bo *)0)->metadata)];
	struct ksim_bo *bo;
	int r = 0;

	if (!dev->n_gpus)
		return -EINVAL;
	if (args->metadata_ptr && args->metadata_size > KSIM_KMALLOC_MAX)
		return -ENOMEM;
	bo = ksim_dmabuf_resolve(dev, (int)args->dmabuf_fd, &r);
	if (!bo)
		return r;
	if (bo->domain != KSIM_DOM_VRAM && bo->domain != KSIM_DOM_GTT) {
		r = -EINVAL;
		goto out;
	}
	ksim_reg_buf_load_metadata(dev, bo);
	args->size = bo->size;
	if (args->metadata_ptr) {
		/* amdgpu_bo_get_metadata: the buffer must hold it all */
		if (args->metadata_size < bo->metadata_size) {
			r = -EINVAL;
			goto out;
		}
		memcpy(meta, bo->metadata, bo->metadata_size);
	}
	args->metadata_size = bo->metadata_size;
	args->gpu_id = dev->gpus[bo->gpu].gpu_id;
	args->flags = bo_kfd_flags(bo);
	if (args->metadata_ptr &&
	    ksim_copy_to_user(args->metadata_ptr, meta, args->metadata_size))
		r = -EFAULT;
out:
	ksim_bo_put(dev, bo);
	return r;
}

int
ksim_ioc_import_dmabuf(struct ksim_file *f, struct ksim_process *p, void *data,
		       unsigned int usize)
{
	struct kfd_abi_import_dmabuf_args *args = data;
	struct ksim_device *dev = f->dev;
	struct ksim_pdd *pdd;
	struct ksim_kmem *m;
	struct ksim_bo *bo;
	int r = 0, idr;

	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	r = ksim_pdd_bind(pdd);
	if (r)
		return r;
	bo = ksim_dmabuf_resolve(dev, (int)args->dmabuf_fd, &r);
	if (!bo)
		return r;
	if (bo->domain != KSIM_DOM_VRAM && bo->domain != KSIM_DOM_GTT) {
		ksim_bo_put(dev, bo);
		return -EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		ksim_bo_put(dev, bo);
		return -ENOMEM;
	}
	m->bo = bo;
	m->va = args->va_addr;
	m->va_size = bo->size;
	m->alloc_flags = bo_kfd_flags(bo) | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE;
	m->gpu = pdd->gpu;
	m->imported = 1;
	ksim_bo_fake_offset(dev, bo);
	idr = ksim_kmem_insert(pdd, m);
	if (idr < 0) {
		ksim_bo_put(dev, bo);
		free(m);
		return -EFAULT;
	}
	ksim_xmem_publish(p, m);
	args->handle = KFD_ABI_MAKE_HANDLE(args->gpu_id, idr);
	return 0;
}

int
ksim_ioc_export_dmabuf(struct ksim_file *f, struct ksim_process *p, void *data,
		       unsigned int usize)
{
	struct kfd_abi_export_dmabuf_args *args = data;
	struct ksim_pdd *pdd;
	struct ksim_kmem *m;
	int r = 0, fd;

	if (ksim_gpu_index(f->dev, KFD_ABI_HANDLE_GPU_ID(args->handle)) < 0)
		return -EINVAL;
	pdd = ksim_pdd_by_id(p, KFD_ABI_HANDLE_GPU_ID(args->handle));
	if (!pdd)
		return -EINVAL;
	m = ksim_kmem_lookup(pdd, KFD_ABI_HANDLE_IDR(args->handle));
	if (!m)
		return -EINVAL;
	fd = ksim_dmabuf_export_fd(f->dev, m->bo, (args->flags & O_CLOEXEC) != 0,
				   &r);
	if (fd < 0)
		return r;
	args->dmabuf_fd = (uint32_t)fd;
	return 0;
}
