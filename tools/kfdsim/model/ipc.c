/* SPDX-License-Identifier: MIT */
/*
 * IPC_IMPORT_HANDLE (0x80) and IPC_EXPORT_HANDLE (0x81): the ROCm DKMS
 * driver's (amdgpu-dkms, kfd_ipc.c) way to share a KFD BO between processes
 * by a 128-bit handle instead of a dma-buf fd. Upstream Linux has no such
 * ioctls; the model answers them only in the rocm kernel flavour. The
 * handles live in the machine registry (registry_ipc.c), so processes of
 * one KFDSIM_MACHINE share them, and an import maps the exporter's bytes.
 *
 * Semantics of the 5.x DKMS driver (what Debian's libhsakmt 5.2.3 talks to):
 *   export: gpu_id names no device of the process -> -EINVAL; no VM
 *     acquired -> the bind error; the handle's idr is not in that device's
 *     table -> -EINVAL; a userptr BO cannot become a dma-buf -> -EPERM;
 *     exporting the same kgd_mem again returns the same handle (and keeps
 *     the first flags). The handle stays valid while any kgd_mem holds
 *     the object: the exporter's until it is freed, each import's.
 *   import: gpu_id -> -EINVAL; unknown handle -> -EINVAL; bind error; a
 *     BO of another device -> -EINVAL (5.x only imports its own device's
 *     BOs); not VRAM/GTT -> -EINVAL; idr full -> -EFAULT. Out: handle
 *     (gpu_id << 32 | idr), mmap_offset (the BO's render-node offset, which
 *     the thunk maps on that GPU's render fd), and the exporter's flags.
 *     The new kgd_mem takes the exporter's alloc flags and, like a dma-buf
 *     import, adds nothing to vram_usage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_priv.h"

/* The BO an import names, with a reference: ours, or a new one on @fd. */
static struct ksim_bo *
import_bo(struct ksim_device *dev, const struct ksim_reg_ipc *info, int *err)
{
	struct ksim_bo *bo;

	bo = ksim_bo_by_identity(dev, info->b.st_dev, info->b.st_ino);
	if (bo) {
		ksim_bo_get(bo);
		return bo;
	}
	if (info->fd < 0 || info->b.gpu >= dev->n_gpus) {
		*err = -EINVAL;
		return NULL;
	}
	bo = ksim_bo_new(dev, (int)info->b.gpu, (enum ksim_domain)info->b.domain,
			 info->b.size, info->fd, err);
	if (!bo)
		return NULL;
	bo->gem_flags = info->b.gem_flags;
	bo->kfd_flags = info->b.kfd_flags;
	bo->tiling_flags = info->b.tiling_flags;
	bo->metadata_flags = info->b.metadata_flags;
	bo->metadata_size = info->b.metadata_size;
	memcpy(bo->metadata, info->b.metadata, sizeof(bo->metadata));
	return bo;
}

int
ksim_ioc_ipc_import_handle(struct ksim_file *f, struct ksim_process *p,
			   void *data, unsigned int usize)
{
	struct kfd_abi_ipc_import_handle_args *args = data;
	struct ksim_device *dev = f->dev;
	struct ksim_reg_ipc info;
	struct ksim_pdd *pdd;
	struct ksim_kmem *m = NULL;
	struct ksim_bo *bo = NULL;
	int r, idr;

	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	r = ksim_reg_ipc_import(dev, args->share_handle, &info);
	if (r)
		return r;
	r = ksim_pdd_bind(pdd);
	if (r)
		goto fail;
	bo = import_bo(dev, &info, &r);
	if (!bo)
		goto fail;
	if (bo->gpu != pdd->gpu ||
	    (bo->domain != KSIM_DOM_VRAM && bo->domain != KSIM_DOM_GTT)) {
		r = -EINVAL;
		goto fail;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		r = -ENOMEM;
		goto fail;
	}
	m->bo = bo;
	m->va = args->va_addr;
	m->va_size = bo->size;
	m->alloc_flags = bo->kfd_flags ? bo->kfd_flags :
			 (bo->domain == KSIM_DOM_VRAM ? KFD_ABI_ALLOC_MEM_FLAGS_VRAM :
			  KFD_ABI_ALLOC_MEM_FLAGS_GTT) |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE;
	m->gpu = pdd->gpu;
	m->imported = 1;
	m->ipc_entry = info.slot + 1;
	m->ipc_gen = info.gen;
	idr = ksim_kmem_insert(pdd, m);
	if (idr < 0) {
		r = -EFAULT;
		goto fail;
	}
	ksim_reg_ipc_set_fd(dev, info.slot, info.gen, bo->memfd);
	ksim_xmem_publish(p, m);
	ksim_sys_close(info.fd);
	args->handle = KFD_ABI_MAKE_HANDLE(args->gpu_id, idr);
	args->mmap_offset = ksim_bo_fake_offset(dev, bo);
	args->flags = info.flags;
	return 0;
fail:
	free(m);
	if (bo)
		ksim_bo_put(dev, bo);
	ksim_sys_close(info.fd);
	ksim_reg_ipc_put(dev, info.slot, info.gen);
	return r;
}

int
ksim_ioc_ipc_export_handle(struct ksim_file *f, struct ksim_process *p,
			   void *data, unsigned int usize)
{
	struct kfd_abi_ipc_export_handle_args *args = data;
	struct ksim_pdd *pdd;
	struct ksim_kmem *m;
	unsigned int slot;
	uint64_t gen;
	int r;

	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	r = ksim_pdd_bind(pdd);
	if (r)
		return r;
	m = ksim_kmem_lookup(pdd, KFD_ABI_HANDLE_IDR(args->handle));
	if (!m)
		return -EINVAL;
	if (m->ipc_entry)
		return ksim_reg_ipc_handle(f->dev, m->ipc_entry - 1, m->ipc_gen,
					   args->share_handle);
	/* amdgpu_gem_prime_export refuses userptr BOs */
	if (m->bo->domain == KSIM_DOM_USERPTR || ksim_bo_backing(m->bo) < 0)
		return -EPERM;
	r = ksim_reg_ipc_export(f->dev, m->bo, args->flags, args->share_handle,
				&slot, &gen);
	if (r)
		return r;
	m->ipc_entry = slot + 1;
	m->ipc_gen = gen;
	return 0;
}
