/* SPDX-License-Identifier: MIT */
/*
 * Allocation and freeing: hsaKmtAllocMemory(Align), hsaKmtFreeMemory and
 * the kmt_mem_alloc() helper of the other areas.
 *
 * Where memory goes:
 *  - VRAM (NonPaged on a GPU node): a VRAM BO at a VA of the SVM aperture
 *    (or the GPU's own GPUVM aperture), CPU-mapped through the render
 *    node: read/write with HostAccess, PROT_NONE otherwise.
 *  - system memory on dGPU systems: paged memory is anonymous memory at
 *    an SVM address wrapped in a USERPTR BO (unless
 *    HSA_USERPTR_FOR_PAGED_MEM=0); non-paged memory is a GTT BO, mapped
 *    through the render node when the CPU needs it. Both belong to the
 *    first GPU; coarse-grained memory sits in the default SVM aperture,
 *    fine-grained in the coherent one.
 *  - system memory on APU systems: plain anonymous memory.
 *  - Scratch: see mem_scratch.c.
 * Nothing is GPU-mapped here: hsaKmtMapMemoryToGPU* does that.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/fmm.h"

uint32_t
kmt_kfd_flags_from_mem(HsaMemFlags m)
{
	/*
	 * Every user allocation is executable: the runtime has no way to
	 * say which ones hold code.
	 */
	uint32_t f = KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE;

	if (m.ui32.AQLQueueMemory)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM | KFD_ABI_ALLOC_MEM_FLAGS_UNCACHED;
	if (!m.ui32.ReadOnly)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
	return f;
}

HsaMemFlags
kmt_mem_flags_from_kfd(uint32_t f)
{
	HsaMemFlags m = {0};

	if (!(f & KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE))
		m.ui32.ReadOnly = 1;
	if (!(f & KFD_ABI_ALLOC_MEM_FLAGS_COHERENT))
		m.ui32.CoarseGrain = 1;
	if (f & KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC)
		m.ui32.HostAccess = 1;
	return m;
}

struct kmt_obj *
kmt_bo_create(HsaKFDContext *ctx, struct kmt_aperture *ape, enum kmt_obj_kind kind,
	      uint32_t gpu_id, uint64_t va, uint64_t va_arg, uint64_t size, uint32_t kfd_flags,
	      uint64_t userptr, uint64_t *mmap_offset, HSAKMT_STATUS *st)
{
	struct kfd_abi_alloc_memory_of_gpu_args args = {
		.va_addr = va_arg,
		.size = size,
		.gpu_id = gpu_id,
		.flags = kfd_flags | KFD_ABI_ALLOC_MEM_FLAGS_NO_SUBSTITUTE,
		.mmap_offset = userptr,
	};
	struct kmt_obj *obj;

	if (kmt_ioctl(ctx, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &args)) {
		int err = errno;

		kmt_info("ALLOC_MEMORY_OF_GPU(size %#lx flags %#x) failed: %s\n",
			 (unsigned long)size, args.flags, strerror(err));
		*st = err == ENOMEM || err == ENOSPC ? HSAKMT_STATUS_NO_MEMORY : HSAKMT_STATUS_ERROR;
		return NULL;
	}
	obj = kmt_obj_new(ape, kind, va, size);
	if (!obj) {
		kmt_bo_free_ioctl(ctx, args.handle);
		*st = HSAKMT_STATUS_NO_MEMORY;
		return NULL;
	}
	obj->handle = args.handle;
	obj->gpu_id = gpu_id;
	obj->kfd_flags = args.flags;
	obj->mflags = kmt_mem_flags_from_kfd(args.flags);
	if (mmap_offset)
		*mmap_offset = args.mmap_offset;
	*st = HSAKMT_STATUS_SUCCESS;
	return obj;
}

int
kmt_bo_free_ioctl(HsaKFDContext *ctx, uint64_t handle)
{
	struct kfd_abi_free_memory_of_gpu_args args = { .handle = handle };

	if (kmt_ioctl(ctx, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &args))
		return -errno;
	return 0;
}

/* What an allocation request amounts to. */
struct alloc_req {
	uint32_t node;			/* PreferredNode */
	uint64_t size;
	uint64_t align;
	uint64_t fixed;			/* FixedAddress, else 0 */
	HsaMemFlags mflags;
	struct kmt_gpu_mem *anchor;	/* GPU a system-memory BO belongs to */
};

static uint64_t
page_align(uint64_t v)
{
	return (v + kmt_page_size() - 1) & ~(kmt_page_size() - 1);
}

/* A render-node mapping over [va, va + size) of the BO at @offset. */
static HSAKMT_STATUS
map_bo_cpu(struct kmt_obj *obj, int fd, uint64_t offset, uint64_t size, bool access)
{
	void *p = mmap((void *)obj->va, size, access ? PROT_READ | PROT_WRITE : PROT_NONE,
		       (access ? MAP_SHARED : MAP_PRIVATE) | MAP_FIXED, fd, (off_t)offset);

	if (p == MAP_FAILED) {
		kmt_err("mmap of a BO on the render node failed: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	/* Children must not keep our BOs alive (or see them). */
	madvise(p, size, MADV_DONTFORK);
	obj->cpu = access ? p : NULL;
	obj->cpu_size = size;
	obj->cpu_map = KMT_CPU_IN_APERTURE;
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
alloc_device(HsaKFDContext *ctx, struct kmt_gpu_mem *g, const struct alloc_req *r, void **out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	HsaMemFlags m = r->mflags;
	uint32_t f = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | kmt_kfd_flags_from_mem(m);
	struct kmt_aperture *ape = g->svm_needed ? fmm->dgpu : &g->gpuvm;
	uint64_t size = r->size, va, offset = 0, va_arg;
	HSAKMT_STATUS st;
	struct kmt_obj *obj;

	if (m.ui32.HostAccess)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC;
	if (!m.ui32.CoarseGrain || fmm->disable_cache)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_COHERENT;
	if (m.ui32.Uncached || fmm->disable_cache)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_UNCACHED;
	if (m.Value & HSA_MEMFLAG_CONTIGUOUS)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_CONTIGUOUS;
	/* AQL rings are mapped twice in a row so packets can wrap. */
	if (m.ui32.AQLQueueMemory && g->svm_needed)
		size *= 2;
	if (!kmt_ape_valid(ape))
		return HSAKMT_STATUS_ERROR;

	if (kmt_ape_alloc_va(fmm, ape, r->fixed, size, r->align, &va))
		return HSAKMT_STATUS_NO_MEMORY;
	/* GPUVM apertures outside the CPU range take aperture offsets. */
	va_arg = ape == &g->gpuvm && !fmm->is_dgpu ? va - ape->base : va;
	obj = kmt_bo_create(ctx, ape, KMT_OBJ_ALLOC, g->gpu_id, va, va_arg, size, f, 0, &offset,
			    &st);
	if (!obj) {
		kmt_ape_release_va(fmm, ape, va, size);
		return st;
	}
	obj->mflags = m;
	obj->node_id = g->node;
	if (ape->mmap_backed || ape->cpu_reserved) {
		st = map_bo_cpu(obj, g->render_fd, offset, r->size, m.ui32.HostAccess);
		if (st != HSAKMT_STATUS_SUCCESS) {
			kmt_obj_release(ctx, obj, false);
			return st;
		}
	}
	*out = (void *)va;
	return HSAKMT_STATUS_SUCCESS;
}

/* System memory of a dGPU system. */
static HSAKMT_STATUS
alloc_host_gpu(HsaKFDContext *ctx, const struct alloc_req *r, void **out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_gpu_mem *g = r->anchor;
	HsaMemFlags m = r->mflags;
	struct kmt_aperture *ape = m.ui32.CoarseGrain ? fmm->dgpu : fmm->dgpu_alt;
	uint32_t f = kmt_kfd_flags_from_mem(m);
	uint64_t size = r->size, va, offset = 0;
	HSAKMT_STATUS st;
	struct kmt_obj *obj;

	if (!g || !kmt_ape_valid(ape))
		return HSAKMT_STATUS_ERROR;
	if (!m.ui32.CoarseGrain || fmm->disable_cache)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_COHERENT;
	if (m.ui32.Uncached || fmm->disable_cache)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_UNCACHED;
	if (m.ui32.AQLQueueMemory)
		size *= 2;
	if (kmt_ape_alloc_va(fmm, ape, r->fixed, size, r->align, &va))
		return HSAKMT_STATUS_ERROR;

	if (!m.ui32.NonPaged && fmm->userptr_paged) {
		/* Ordinary pages at the SVM address, pinned by a userptr BO. */
		void *p = mmap((void *)va, r->size, PROT_READ | PROT_WRITE,
			       MAP_ANONYMOUS | MAP_PRIVATE | MAP_FIXED, -1, 0);

		if (p == MAP_FAILED) {
			kmt_ape_release_va(fmm, ape, va, size);
			return HSAKMT_STATUS_ERROR;
		}
		madvise(p, r->size, MADV_DONTFORK);
		obj = kmt_bo_create(ctx, ape, KMT_OBJ_ALLOC, g->gpu_id, va, va, size,
				    f | KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, va, NULL, &st);
		if (!obj) {
			kmt_ape_release_va(fmm, ape, va, size);
			return HSAKMT_STATUS_ERROR;
		}
		obj->cpu = p;
		obj->cpu_size = r->size;
		obj->cpu_map = KMT_CPU_IN_APERTURE;
	} else {
		obj = kmt_bo_create(ctx, ape, KMT_OBJ_ALLOC, g->gpu_id, va, va, size,
				    f | KFD_ABI_ALLOC_MEM_FLAGS_GTT, 0, &offset, &st);
		if (!obj) {
			kmt_ape_release_va(fmm, ape, va, size);
			return HSAKMT_STATUS_ERROR;
		}
		if (m.ui32.HostAccess) {
			if (map_bo_cpu(obj, g->render_fd, offset, r->size, true)) {
				kmt_obj_release(ctx, obj, false);
				return HSAKMT_STATUS_ERROR;
			}
			if (m.ui32.AQLQueueMemory) {
				/* The second half shows the same pages again. */
				void *p2 = mmap((void *)(va + size / 2), r->size,
						PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
						g->render_fd, (off_t)offset);

				memset((void *)va, 0, r->size);
				if (p2 != MAP_FAILED)
					madvise(p2, r->size, MADV_DONTFORK);
			}
		}
	}
	obj->mflags = m;
	obj->node_id = r->node;
	*out = (void *)va;
	return HSAKMT_STATUS_SUCCESS;
}

/* System memory of an APU system: the GPU reaches it without a BO. */
static HSAKMT_STATUS
alloc_host_cpu(HsaKFDContext *ctx, const struct alloc_req *r, void **out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	int prot = PROT_READ;
	struct kmt_obj *obj;
	void *p;

	if (r->fixed || !kmt_ape_valid(&fmm->cpuvm))
		return HSAKMT_STATUS_ERROR;
	if (r->mflags.ui32.ExecuteAccess)
		prot |= PROT_EXEC;
	if (!r->mflags.ui32.ReadOnly)
		prot |= PROT_WRITE;
	p = mmap(NULL, r->size, prot, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (p == MAP_FAILED)
		return HSAKMT_STATUS_ERROR;
	obj = kmt_obj_new(&fmm->cpuvm, KMT_OBJ_HOST_CPU, (uint64_t)p, r->size);
	if (!obj) {
		munmap(p, r->size);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	obj->cpu = p;
	obj->cpu_size = r->size;
	obj->cpu_map = KMT_CPU_OWN;
	obj->mflags = r->mflags;
	obj->node_id = 0;
	*out = p;
	return HSAKMT_STATUS_SUCCESS;
}

/* A VA range only (newer API's OnlyAddress): no BO, no CPU pages. */
static HSAKMT_STATUS
alloc_va_only(HsaKFDContext *ctx, struct kmt_gpu_mem *g, const struct alloc_req *r, void **out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_aperture *ape = g && !g->svm_needed ? &g->gpuvm : fmm->dgpu;
	struct kmt_obj *obj;
	uint64_t va;

	if (!kmt_ape_valid(ape))
		return HSAKMT_STATUS_ERROR;
	if (kmt_ape_alloc_va(fmm, ape, r->fixed, r->size, r->align, &va))
		return HSAKMT_STATUS_NO_MEMORY;
	obj = kmt_obj_new(ape, KMT_OBJ_VA_ONLY, va, r->size);
	if (!obj) {
		kmt_ape_release_va(fmm, ape, va, r->size);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	obj->mflags = r->mflags;
	obj->node_id = r->node;
	*out = (void *)va;
	return HSAKMT_STATUS_SUCCESS;
}

/* A BO with no address of its own (NoAddress): a mem_handle "address". */
static HSAKMT_STATUS
alloc_no_address(HsaKFDContext *ctx, struct kmt_gpu_mem *g, const struct alloc_req *r,
		 void **out)
{
	struct kmt_fmm *fmm = ctx->fmm;
	uint32_t f = kmt_kfd_flags_from_mem(r->mflags);
	HSAKMT_STATUS st;
	struct kmt_obj *obj;
	uint64_t va;

	if (!g)
		g = r->anchor;
	if (!g || !kmt_ape_valid(&fmm->mem_handle))
		return HSAKMT_STATUS_ERROR;
	f |= r->mflags.ui32.NonPaged && r->node == g->node ? KFD_ABI_ALLOC_MEM_FLAGS_VRAM
							   : KFD_ABI_ALLOC_MEM_FLAGS_GTT;
	if (!r->mflags.ui32.CoarseGrain)
		f |= KFD_ABI_ALLOC_MEM_FLAGS_COHERENT;
	if (kmt_ape_alloc_va(fmm, &fmm->mem_handle, 0, r->size, r->align, &va))
		return HSAKMT_STATUS_NO_MEMORY;
	obj = kmt_bo_create(ctx, &fmm->mem_handle, KMT_OBJ_ALLOC, g->gpu_id, va, 0, r->size, f,
			    0, NULL, &st);
	if (!obj) {
		kmt_ape_release_va(fmm, &fmm->mem_handle, va, r->size);
		return st;
	}
	obj->mflags = r->mflags;
	obj->node_id = r->node;
	*out = (void *)va;
	return HSAKMT_STATUS_SUCCESS;
}

static uint64_t
page_size_of(HsaMemFlags m)
{
	switch (m.ui32.PageSize) {
	case HSA_PAGE_SIZE_64KB:
		return 64 << 10;
	case HSA_PAGE_SIZE_2MB:
		return 2 << 20;
	case HSA_PAGE_SIZE_1GB:
		return 1 << 30;
	default:
		return 4 << 10;
	}
}

static HSAKMT_STATUS
mem_alloc(HsaKFDContext *ctx, uint32_t node, uint32_t anchor_node, uint64_t size,
	  uint64_t align, HsaMemFlags m, void **addr)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct alloc_req r = { .node = node, .size = size, .align = align, .mflags = m };
	struct kmt_node_info info;
	struct kmt_gpu_mem *g;
	HSAKMT_STATUS st;

	st = kmt_topo_node_info(ctx, node, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!addr || !size || (size & (page_size_of(m) - 1)))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (align && ((align & (align - 1)) || align < kmt_page_size()))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (m.ui32.FixedAddress) {
		if (!*addr || ((uintptr_t)*addr & (kmt_page_size() - 1)))
			return HSAKMT_STATUS_INVALID_PARAMETER;
		r.fixed = (uintptr_t)*addr;
	} else {
		*addr = NULL;
	}

	pthread_mutex_lock(&fmm->lock);
	g = info.gpu_id ? kmt_fmm_gpu(fmm, info.gpu_id) : NULL;
	r.anchor = kmt_fmm_gpu_of_node(fmm, anchor_node);
	if (!r.anchor && fmm->n_gpus)
		r.anchor = &fmm->gpus[0];

	if (m.ui32.Scratch) {
		pthread_mutex_unlock(&fmm->lock);
		if (!g)
			return HSAKMT_STATUS_NO_MEMORY;
		return kmt_scratch_alloc(ctx, g, r.fixed, size, addr);
	}
	if (m.Value & HSA_MEMFLAG_ONLY_ADDRESS)
		st = alloc_va_only(ctx, g, &r, addr);
	else if (m.Value & HSA_MEMFLAG_NO_ADDRESS)
		st = alloc_no_address(ctx, g, &r, addr);
	else if (!g || !m.ui32.NonPaged || kmt_env()->zfb) {
		/* Paged memory asked of a GPU node is system memory too. */
		if (g && m.ui32.NonPaged)
			r.mflags.ui32.CoarseGrain = 1;	/* ZFB: VRAM is system memory */
		st = fmm->is_dgpu ? alloc_host_gpu(ctx, &r, addr) : alloc_host_cpu(ctx, &r, addr);
	} else {
		st = alloc_device(ctx, g, &r, addr);
		/* As AMD's library: a VRAM allocation fails with NO_MEMORY, whatever
		 * the kernel said (e.g. EINVAL for host access on a small BAR). */
		if (st != HSAKMT_STATUS_SUCCESS)
			st = HSAKMT_STATUS_NO_MEMORY;
	}
	pthread_mutex_unlock(&fmm->lock);
	if (st != HSAKMT_STATUS_SUCCESS)
		kmt_info("allocation of %#lx bytes on node %u failed (%d)\n", (unsigned long)size,
			 node, st);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtAllocMemoryAlignCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode, HSAuint64 SizeInBytes,
			  HSAuint64 Alignment, HsaMemFlags MemFlags, void **MemoryAddress)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* System memory BOs belong to the first GPU, as with AMD's library. */
	return mem_alloc(ctx, PreferredNode, UINT32_MAX, SizeInBytes, Alignment, MemFlags,
			 MemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtAllocMemoryAlign(HSAuint32 PreferredNode, HSAuint64 SizeInBytes, HSAuint64 Alignment,
		       HsaMemFlags MemFlags, void **MemoryAddress)
{
	return hsaKmtAllocMemoryAlignCtx(kmt_primary_ctx(), PreferredNode, SizeInBytes, Alignment,
					 MemFlags, MemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtAllocMemoryCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode, HSAuint64 SizeInBytes,
		     HsaMemFlags MemFlags, void **MemoryAddress)
{
	return hsaKmtAllocMemoryAlignCtx(ctx, PreferredNode, SizeInBytes, 0, MemFlags,
					 MemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtAllocMemory(HSAuint32 PreferredNode, HSAuint64 SizeInBytes, HsaMemFlags MemFlags,
		  void **MemoryAddress)
{
	return hsaKmtAllocMemoryCtx(kmt_primary_ctx(), PreferredNode, SizeInBytes, MemFlags,
				    MemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtAllocMemoryHostGttCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode, HSAuint32 GttAnchorNode,
			    HSAuint64 SizeInBytes, HsaMemFlags MemFlags, void **MemoryAddress)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	uint32_t gpu_id;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (kmt_topo_gpu_id(ctx, GttAnchorNode, &gpu_id) != HSAKMT_STATUS_SUCCESS)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	/* System memory only: a GTT BO on the anchor GPU. */
	MemFlags.ui32.NonPaged = 1;
	MemFlags.ui32.Scratch = 0;
	if (kmt_topo_gpu_id(ctx, PreferredNode, &gpu_id) == HSAKMT_STATUS_SUCCESS)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	return mem_alloc(ctx, PreferredNode, GttAnchorNode, SizeInBytes, 0, MemFlags,
			 MemoryAddress);
}

/*
 * Free a buffer the caller still has mapped on a GPU, as AMD's library
 * does: no UNMAP first; FREE goes to the kernel, which refuses a mapped BO
 * (EBUSY), and the buffer stays allocated and mapped: ERROR. Programs
 * written for AMD's library rely on that (they unmap and free again), and
 * a trace of either library shows the same requests. Called with
 * fmm->lock held.
 */
static HSAKMT_STATUS
mem_free_mapped(HsaKFDContext *ctx, struct kmt_obj *obj)
{
	int err = kmt_bo_free_ioctl(ctx, obj->handle);

	if (err) {
		kmt_debug("FREE_MEMORY_OF_GPU of mapped %#lx: %s\n", (unsigned long)obj->va,
			  strerror(-err));
		return HSAKMT_STATUS_ERROR;
	}
	/* The kernel let it go: drop our side without further ioctls. */
	kmt_obj_release(ctx, obj, true);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtFreeMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress, HSAuint64 SizeInBytes)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_fmm *fmm;
	struct kmt_obj *obj;

	(void)SizeInBytes;
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!MemoryAddress)
		return HSAKMT_STATUS_ERROR;	/* as AMD's library: not INVALID_PARAMETER */
	fmm = ctx->fmm;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)MemoryAddress, 0, KMT_FIND_START);
	if (obj && obj->n_map && obj->handle && obj->kind != KMT_OBJ_USERPTR &&
	    obj->kind != KMT_OBJ_MMIO && !kmt_scratch_gpu_of(fmm, (uintptr_t)MemoryAddress)) {
		st = mem_free_mapped(ctx, obj);
		pthread_mutex_unlock(&fmm->lock);
		return st;
	}
	pthread_mutex_unlock(&fmm->lock);
	return kmt_mem_free(ctx, MemoryAddress);
}

KMT_API HSAKMT_STATUS
hsaKmtFreeMemory(void *MemoryAddress, HSAuint64 SizeInBytes)
{
	return hsaKmtFreeMemoryCtx(kmt_primary_ctx(), MemoryAddress, SizeInBytes);
}

HSAKMT_STATUS
kmt_mem_free(HsaKFDContext *ctx, void *addr)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_gpu_mem *g;
	struct kmt_obj *obj;
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;

	if (!fmm)
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	pthread_mutex_lock(&fmm->lock);
	g = kmt_scratch_gpu_of(fmm, (uintptr_t)addr);
	if (g) {
		kmt_scratch_release(ctx, g, false);
		goto out;
	}
	obj = kmt_fmm_find(fmm, (uintptr_t)addr, 0, KMT_FIND_START);
	if (!obj || obj->kind == KMT_OBJ_USERPTR || obj->kind == KMT_OBJ_MMIO) {
		st = HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
		goto out;
	}
	if (kmt_obj_release(ctx, obj, false))
		st = HSAKMT_STATUS_ERROR;
out:
	pthread_mutex_unlock(&fmm->lock);
	return st;
}

void
kmt_mem_forget(HsaKFDContext *ctx, void *addr)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_obj *obj;

	if (!fmm)
		return;
	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)addr, 0, KMT_FIND_START);
	/* Keep the VA (and any CPU mapping) taken: leave the range alone. */
	if (obj)
		kmt_obj_del(obj);
	pthread_mutex_unlock(&fmm->lock);
}

HSAKMT_STATUS
kmt_mem_alloc(HsaKFDContext *ctx, uint32_t node, uint64_t size, uint64_t align,
	      unsigned int flags, void **addr)
{
	HsaMemFlags m = {0};
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_node_info info;
	HSAKMT_STATUS st;
	uint32_t alloc_node = node;
	struct kmt_obj *obj;
	bool vram = flags & KMT_MEM_VRAM;

	if (!addr || !size || !fmm)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_topo_node_info(ctx, node, &info);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	size = page_align(size);
	/* The memory flags AMD's library asks for: only VRAM is
	 * coarse-grained, and only VRAM is hidden from the CPU. */
	m.ui32.NonPaged = !(flags & KMT_MEM_PAGED);
	m.ui32.HostAccess = !!(flags & KMT_MEM_HOST_ACCESS) || !vram;
	m.ui32.ExecuteAccess = !!(flags & KMT_MEM_EXECUTABLE);
	m.ui32.Uncached = !!(flags & KMT_MEM_UNCACHED);
	m.ui32.CoarseGrain = vram;
	m.ui32.ReadOnly = !!(flags & KMT_MEM_READ_ONLY);
	m.ui32.AQLQueueMemory = !!(flags & KMT_MEM_AQL_QUEUE);
	if (vram) {
		if (!info.gpu_id)
			return HSAKMT_STATUS_INVALID_NODE_UNIT;
	} else if (info.gpu_id) {
		/* System memory for a GPU: owned by a CPU node. */
		alloc_node = 0;
	}
	/* A system-memory BO belongs to the first GPU, as AMD's makes it. */
	st = mem_alloc(ctx, alloc_node, vram ? node : UINT32_MAX, size, align, m, addr);
	if (st != HSAKMT_STATUS_SUCCESS || (flags & KMT_MEM_NO_GPU_MAP))
		return st;

	pthread_mutex_lock(&fmm->lock);
	obj = kmt_fmm_find(fmm, (uintptr_t)*addr, 0, KMT_FIND_START);
	if (!obj) {
		st = HSAKMT_STATUS_ERROR;
	} else if (obj->kind == KMT_OBJ_HOST_CPU) {
		/* APU system memory: the GPU reaches it without a mapping. */
		st = HSAKMT_STATUS_SUCCESS;
	} else if (flags & KMT_MEM_MAP_ALL_GPUS || !info.gpu_id) {
		st = kmt_obj_map(ctx, obj, fmm->all_ids, fmm->n_all_ids);
	} else {
		st = kmt_obj_map(ctx, obj, &info.gpu_id, 1);
	}
	if (obj && st != HSAKMT_STATUS_SUCCESS)
		kmt_obj_release(ctx, obj, false);
	pthread_mutex_unlock(&fmm->lock);
	if (st != HSAKMT_STATUS_SUCCESS)
		*addr = NULL;
	return st;
}
