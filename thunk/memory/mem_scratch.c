/* SPDX-License-Identifier: MIT */
/*
 * Scratch (private segment) backing. hsaKmtAllocMemory(Scratch) only
 * reserves a 64 KiB-aligned range in the SVM aperture and tells the
 * kernel about it (SET_SCRATCH_BACKING_VA, in 64 KiB units); VRAM is put
 * behind parts of it when the runtime maps them (hsaKmtMapMemoryToGPU on
 * an address inside), and taken away on unmap. The CPU never sees
 * scratch: its pages stay PROT_NONE.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/fmm.h"

#define KMT_SCRATCH_ALIGN	0x10000ULL

struct kmt_gpu_mem *
kmt_scratch_gpu_of(struct kmt_fmm *fmm, uint64_t addr)
{
	uint32_t i;

	for (i = 0; fmm && i < fmm->n_gpus; i++)
		if (kmt_ape_contains(&fmm->gpus[i].scratch, addr))
			return &fmm->gpus[i];
	return NULL;
}

HSAKMT_STATUS
kmt_scratch_alloc(HsaKFDContext *ctx, struct kmt_gpu_mem *g, uint64_t fixed, uint64_t size,
		  void **addr)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kfd_abi_set_scratch_backing_va_args args = {0};
	uint64_t aligned = (size + KMT_SCRATCH_ALIGN - 1) & ~(KMT_SCRATCH_ALIGN - 1);
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	uint64_t va;

	pthread_mutex_lock(&fmm->lock);
	if (kmt_ape_valid(&g->scratch) || !kmt_ape_valid(fmm->dgpu)) {
		/* One scratch range per GPU. */
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	if (kmt_ape_alloc_va(fmm, fmm->dgpu, fixed, aligned, KMT_SCRATCH_ALIGN, &va)) {
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	if (kmt_ape_setup(&g->scratch, va, va + aligned - 1, kmt_page_size(), 0, false, true)) {
		kmt_ape_release_va(fmm, fmm->dgpu, va, aligned);
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	args.gpu_id = g->gpu_id;
	args.va_addr = va >> 16;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, &args)) {
		kmt_err("SET_SCRATCH_BACKING_VA on GPU %#x failed: %s\n", g->gpu_id,
			strerror(errno));
		kmt_scratch_release(ctx, g, false);
		st = HSAKMT_STATUS_NO_MEMORY;
		goto out;
	}
	*addr = (void *)va;
out:
	pthread_mutex_unlock(&fmm->lock);
	return st;
}

HSAKMT_STATUS
kmt_scratch_map(HsaKFDContext *ctx, struct kmt_gpu_mem *g, uint64_t addr, uint64_t size)
{
	struct kmt_fmm *fmm = ctx->fmm;
	uint64_t page = kmt_page_size(), offset = 0, va;
	HSAKMT_STATUS st;
	struct kmt_obj *obj;
	void *p;

	if (!fmm->is_dgpu)
		return HSAKMT_STATUS_SUCCESS;	/* APU scratch is system memory */
	size = (size + page - 1) & ~(page - 1);
	if (!size || (addr & (page - 1)) || addr + size - 1 > g->scratch.limit)
		return HSAKMT_STATUS_ERROR;
	if (kmt_ape_alloc_va(fmm, &g->scratch, addr, size, 0, &va))
		return HSAKMT_STATUS_ERROR;	/* already backed */
	obj = kmt_bo_create(ctx, &g->scratch, KMT_OBJ_SCRATCH, g->gpu_id, addr, addr, size,
			    KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0,
			    &offset, &st);
	if (!obj) {
		kmt_ape_release_va(fmm, &g->scratch, addr, size);
		return HSAKMT_STATUS_ERROR;
	}
	obj->node_id = g->node;
	/* A CPU view for debuggers, inaccessible to the program. */
	p = mmap((void *)addr, size, PROT_NONE, MAP_PRIVATE | MAP_FIXED, g->render_fd,
		 (off_t)offset);
	if (p == MAP_FAILED) {
		kmt_obj_release(ctx, obj, false);
		return HSAKMT_STATUS_ERROR;
	}
	madvise(p, size, MADV_DONTFORK);
	obj->cpu_map = KMT_CPU_IN_APERTURE;
	obj->cpu_size = size;
	st = kmt_obj_map(ctx, obj, &g->gpu_id, 1);
	if (st != HSAKMT_STATUS_SUCCESS) {
		kmt_obj_release(ctx, obj, false);
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS
kmt_scratch_unmap(HsaKFDContext *ctx, struct kmt_gpu_mem *g, uint64_t addr)
{
	struct kmt_obj *obj;

	if (!ctx->fmm->is_dgpu)
		return HSAKMT_STATUS_SUCCESS;
	obj = kmt_obj_at(&g->scratch, addr);
	if (!obj)
		return HSAKMT_STATUS_ERROR;
	return kmt_obj_release(ctx, obj, false) ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
}

void
kmt_scratch_release(HsaKFDContext *ctx, struct kmt_gpu_mem *g, bool forked)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_rb_node *n;
	uint64_t base, size;

	if (!kmt_ape_valid(&g->scratch))
		return;
	while ((n = kmt_rb_first(&g->scratch.objs))) {
		struct kmt_obj *obj = kmt_rb_entry(n, struct kmt_obj, node);

		if (kmt_obj_release(ctx, obj, forked))
			kmt_obj_del(obj);
	}
	base = g->scratch.base;
	size = g->scratch.limit - base + 1;
	kmt_ape_teardown(&g->scratch);
	if (fmm->dgpu)
		kmt_ape_release_va(fmm, fmm->dgpu, base, size);
}
