/* SPDX-License-Identifier: MIT */
/*
 * Setting up a context's GPU address space at open:
 *  1. per-GPU state from the topology, and GET_PROCESS_APERTURES_NEW
 *     (GET_PROCESS_APERTURES on kernels without it) for LDS, scratch and
 *     GPUVM ranges;
 *  2. ACQUIRE_VM on each GPU with the context's render-node file;
 *  3. the SVM aperture shared by every GPU whose VM fits the CPU's
 *     47-bit user space, and SET_MEMORY_POLICY on those GPUs so the
 *     coherent part of it is mapped uncached;
 *  4. the mem_handle aperture, a non-canonical range clear of every
 *     GPU aperture;
 *  5. the MMIO remap (HDP flush) page of each GPU that has one.
 * Teardown at close frees every buffer left (the kernel process outlives
 * the file, so leftovers would collide with the next open).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/fmm.h"

#define KMT_HUGE_PAGE		(2ULL << 20)
#define KMT_CANONICAL_LIMIT	(1ULL << 47)
/* A reserved SVM range: below 1 TiB (what old GPUs reach), at least 4 GiB. */
#define KMT_SVM_RESERVE_LIMIT	((1ULL << 40) - 1)
#define KMT_SVM_MIN_SIZE	(4ULL << 30)
/* The non-canonical windows mem_handle may use. */
#define KMT_NONCANON_START	(1ULL << 47)
#define KMT_NONCANON_END	(~0ULL - (1ULL << 47))

struct kmt_gpu_mem *
kmt_fmm_gpu(struct kmt_fmm *fmm, uint32_t gpu_id)
{
	uint32_t i;

	for (i = 0; fmm && i < fmm->n_gpus; i++)
		if (fmm->gpus[i].gpu_id == gpu_id)
			return &fmm->gpus[i];
	return NULL;
}

struct kmt_gpu_mem *
kmt_fmm_gpu_of_node(struct kmt_fmm *fmm, uint32_t node)
{
	uint32_t i;

	for (i = 0; fmm && i < fmm->n_gpus; i++)
		if (fmm->gpus[i].node == node)
			return &fmm->gpus[i];
	return NULL;
}

/* Tonga and Carrizo want 32 KiB-aligned VA; everyone else a page. */
static uint64_t
vm_alignment(uint32_t device_id)
{
	if ((device_id >= 0x6920 && device_id <= 0x6939) ||
	    (device_id >= 0x9870 && device_id <= 0x9877))
		return 0x8000 > kmt_page_size() ? 0x8000 : kmt_page_size();
	return kmt_page_size();
}

static HSAKMT_STATUS
fmm_collect_gpus(HsaKFDContext *ctx, struct kmt_fmm *fmm)
{
	uint32_t n = kmt_topo_num_nodes(ctx), i;

	fmm->gpus = calloc(n ? n : 1, sizeof(*fmm->gpus));
	fmm->all_ids = calloc(n ? n : 1, sizeof(*fmm->all_ids));
	if (!fmm->gpus || !fmm->all_ids)
		return HSAKMT_STATUS_NO_MEMORY;
	for (i = 0; i < n; i++) {
		struct kmt_node_info info;
		struct kmt_gpu_mem *g;

		if (kmt_topo_node_info(ctx, i, &info) != HSAKMT_STATUS_SUCCESS || !info.gpu_id)
			continue;
		g = &fmm->gpus[fmm->n_gpus++];
		g->gpu_id = info.gpu_id;
		g->node = i;
		g->device_id = info.props.DeviceId;
		g->gfx = info.gfx;
		g->svm_needed = ctx->is_dgpu || info.gfx.major >= 9;
		g->render_fd = kmt_render_fd(ctx, i);
		g->large_bar = info.large_bar;
	}
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
fmm_get_apertures(HsaKFDContext *ctx, struct kfd_abi_process_device_apertures *ap,
		  uint32_t *count)
{
	struct kfd_abi_get_process_apertures_new_args args = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap,
		.num_of_nodes = *count,
	};
	struct kfd_abi_get_process_apertures_args old;

	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &args) == 0) {
		*count = args.num_of_nodes < *count ? args.num_of_nodes : *count;
		return HSAKMT_STATUS_SUCCESS;
	}
	/* Kernels before the NEW ioctl report at most 7 GPUs this way. */
	memset(&old, 0, sizeof(old));
	if (kmt_ioctl(ctx, KFD_ABI_IOC_GET_PROCESS_APERTURES, &old)) {
		kmt_err("cannot read the process apertures: %s\n", strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	if (old.num_of_nodes < *count)
		*count = old.num_of_nodes;
	if (*count > KFD_ABI_NUM_OF_SUPPORTED_GPUS)
		*count = KFD_ABI_NUM_OF_SUPPORTED_GPUS;
	memcpy(ap, old.process_apertures, *count * sizeof(*ap));
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
fmm_acquire_vm(HsaKFDContext *ctx, struct kmt_gpu_mem *g)
{
	struct kfd_abi_acquire_vm_args args = {
		.drm_fd = (uint32_t)g->render_fd,
		.gpu_id = g->gpu_id,
	};

	if (g->render_fd < 0 || kmt_ioctl(ctx, KFD_ABI_IOC_ACQUIRE_VM, &args)) {
		kmt_err("ACQUIRE_VM for GPU %#x failed: %s\n", g->gpu_id, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

/*
 * With a full 47-bit GPU VM the CPU's mmap() hands out addresses every
 * GPU can use: no reservation is needed. Probe that it works.
 */
static bool
svm_try_mmap_backed(struct kmt_fmm *fmm, uint64_t base, uint64_t limit, uint64_t align)
{
	struct kmt_aperture *ape = &fmm->svm[0];
	uint64_t va;

	if (align > kmt_page_size())
		return false;
	if (kmt_ape_setup(ape, base, limit, align, fmm->guard_pages, true, false))
		return false;
	if (kmt_ape_alloc_va(fmm, ape, 0, kmt_page_size(), 0, &va)) {
		kmt_info("mmap-backed SVM unusable, reserving a range instead\n");
		return false;
	}
	kmt_ape_release_va(fmm, ape, va, kmt_page_size());
	fmm->dgpu = fmm->dgpu_alt = ape;
	return true;
}

/*
 * Reserve the largest PROT_NONE range we can get inside [base, limit]
 * (halving the size from the whole range down to 4 GiB), then split it:
 * the first quarter, 64 KiB aligned, is the coherent aperture.
 */
static HSAKMT_STATUS
svm_reserve(struct kmt_fmm *fmm, uint64_t base, uint64_t limit, uint64_t align)
{
	uint64_t page = kmt_page_size(), len, got = 0, size = 0;
	uint64_t alt_base, alt_size;

	if (limit > KMT_SVM_RESERVE_LIMIT)
		limit = KMT_SVM_RESERVE_LIMIT;
	if (base >= limit) {
		kmt_err("no SVM range fits every GPU\n");
		return HSAKMT_STATUS_ERROR;
	}
	for (len = limit - base + 1; !got && len >= KMT_SVM_MIN_SIZE; len = (len + 1) >> 1) {
		uint64_t addr;

		for (addr = base; addr + ((len + 1) >> 1) - 1 <= limit; addr += KMT_HUGE_PAGE) {
			uint64_t top = addr + len < limit + 1 ? addr + len : limit + 1;
			void *p;

			size = (top - addr) & ~(page - 1);
			if (size < KMT_SVM_MIN_SIZE)
				break;
			p = mmap((void *)addr, size, PROT_NONE,
				 MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE, -1, 0);
			if (p == MAP_FAILED)
				break;
			/* Keep it if at least half of it is GPU addressable. */
			if ((uint64_t)p + ((len + 1) >> 1) - 1 <= limit &&
			    (uint64_t)p + KMT_SVM_MIN_SIZE - 1 <= limit) {
				got = (uint64_t)p;
				break;
			}
			munmap(p, size);
		}
	}
	if (!got) {
		kmt_err("cannot reserve an SVM address range\n");
		return HSAKMT_STATUS_ERROR;
	}
	if (got + size - 1 > limit) {
		munmap((void *)(limit + 1), got + size - 1 - limit);
		size = limit + 1 - got;
	}
	fmm->svm_resv_base = got;
	fmm->svm_resv_size = size;

	alt_base = (got + 0xffff) & ~0xffffULL;
	alt_size = ((size >> 2) + 0xffff) & ~0xffffULL;
	if (kmt_ape_setup(&fmm->svm[1], alt_base, alt_base + alt_size - 1, align,
			  fmm->guard_pages, false, true) ||
	    kmt_ape_setup(&fmm->svm[0], alt_base + alt_size, got + size - 1, align,
			  fmm->guard_pages, false, true))
		return HSAKMT_STATUS_NO_MEMORY;
	fmm->dgpu = &fmm->svm[0];
	fmm->dgpu_alt = &fmm->svm[1];
	kmt_info("SVM coherent %#lx-%#lx, default %#lx-%#lx\n", (unsigned long)fmm->svm[1].base,
		 (unsigned long)fmm->svm[1].limit, (unsigned long)fmm->svm[0].base,
		 (unsigned long)fmm->svm[0].limit);
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
fmm_init_svm(struct kmt_fmm *fmm, uint64_t base, uint64_t limit, uint64_t align)
{
	/* Whole 2 MiB pages only. */
	base = (base + KMT_HUGE_PAGE - 1) & ~(KMT_HUGE_PAGE - 1);
	limit = ((limit + 1) & ~(KMT_HUGE_PAGE - 1)) - 1;
	if (limit >= KMT_CANONICAL_LIMIT - 1 && !kmt_env()->reserve_svm &&
	    svm_try_mmap_backed(fmm, base, limit, align))
		return HSAKMT_STATUS_SUCCESS;
	return svm_reserve(fmm, base, limit, align);
}

static HSAKMT_STATUS
fmm_set_policy(HsaKFDContext *ctx, struct kmt_fmm *fmm, uint32_t gpu_id)
{
	struct kfd_abi_set_memory_policy_args args = {
		.gpu_id = gpu_id,
		.default_policy = fmm->disable_cache ? KFD_ABI_CACHE_POLICY_COHERENT
						     : KFD_ABI_CACHE_POLICY_NONCOHERENT,
		.alternate_policy = KFD_ABI_CACHE_POLICY_COHERENT,
		.alternate_aperture_base = fmm->dgpu_alt->base,
		.alternate_aperture_size = fmm->dgpu_alt->limit - fmm->dgpu_alt->base + 1,
	};

	if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_MEMORY_POLICY, &args)) {
		kmt_err("SET_MEMORY_POLICY on GPU %#x failed: %s\n", gpu_id, strerror(errno));
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

static bool
ranges_overlap(uint64_t b1, uint64_t l1, uint64_t b2, uint64_t l2)
{
	return b1 <= l2 && b2 <= l1;
}

/* Slide a 2^47-byte window through the non-canonical space until it is clear. */
static void
fmm_init_mem_handle(struct kmt_fmm *fmm)
{
	uint64_t base = KMT_NONCANON_START, size = 1ULL << 47;
	uint32_t i;

	for (; base < KMT_NONCANON_END - 1; base += size) {
		uint64_t limit = base + size - 1;
		bool clear = true;

		for (i = 0; i < fmm->n_gpus && clear; i++) {
			struct kmt_gpu_mem *g = &fmm->gpus[i];

			if ((g->lds_base && ranges_overlap(g->lds_base, g->lds_limit, base, limit)) ||
			    (g->scratch_base &&
			     ranges_overlap(g->scratch_base, g->scratch_limit, base, limit)) ||
			    (kmt_ape_valid(&g->gpuvm) &&
			     ranges_overlap(g->gpuvm.base, g->gpuvm.limit, base, limit)))
				clear = false;
		}
		if (clear) {
			if (kmt_ape_setup(&fmm->mem_handle, base, limit, kmt_page_size(),
					  fmm->guard_pages, false, false))
				kmt_warn("no memory for the mem_handle aperture\n");
			return;
		}
	}
	kmt_warn("no room for the mem_handle aperture\n");
}

/* The HDP flush page: an MMIO_REMAP BO, CPU-mapped from /dev/kfd. */
static void
fmm_map_mmio(HsaKFDContext *ctx, struct kmt_fmm *fmm, struct kmt_gpu_mem *g)
{
	uint64_t page = kmt_page_size(), va, offset = 0;
	HSAKMT_STATUS st;
	struct kmt_obj *obj;
	void *p;

	if (kmt_ape_alloc_va(fmm, fmm->dgpu_alt, 0, page, 0, &va))
		return;
	obj = kmt_bo_create(ctx, fmm->dgpu_alt, KMT_OBJ_MMIO, g->gpu_id, va, va, page,
			    KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			    KFD_ABI_ALLOC_MEM_FLAGS_COHERENT,
			    0, &offset, &st);
	if (!obj) {
		kmt_ape_release_va(fmm, fmm->dgpu_alt, va, page);
		kmt_warn("GPU %#x: no MMIO remap page\n", g->gpu_id);
		return;
	}
	obj->node_id = g->node;
	obj->mflags.ui32.NonPaged = 1;
	obj->mflags.ui32.HostAccess = 1;
	p = mmap((void *)va, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, ctx->fd,
		 (off_t)offset);
	if (p == MAP_FAILED) {
		kmt_warn("GPU %#x: cannot mmap the MMIO page: %s\n", g->gpu_id, strerror(errno));
		kmt_obj_release(ctx, obj, false);
		return;
	}
	obj->cpu = p;
	obj->cpu_size = page;
	obj->cpu_map = KMT_CPU_IN_APERTURE;
	if (kmt_obj_map(ctx, obj, NULL, 0) != HSAKMT_STATUS_SUCCESS) {
		kmt_warn("GPU %#x: cannot map the MMIO page\n", g->gpu_id);
		kmt_obj_release(ctx, obj, false);
		return;
	}
	g->mmio_va = va;
}

HSAKMT_STATUS
kmt_fmm_open(HsaKFDContext *ctx)
{
	const struct kmt_env *env = kmt_env();
	struct kfd_abi_process_device_apertures *ap = NULL;
	uint64_t svm_base = 0, svm_limit = 0, svm_align = 0;
	uint32_t count, i;
	struct kmt_fmm *fmm;
	HSAKMT_STATUS st;

	fmm = calloc(1, sizeof(*fmm));
	if (!fmm)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_init(&fmm->lock, NULL);
	ctx->fmm = fmm;
	fmm->is_dgpu = ctx->is_dgpu;
	fmm->disable_cache = env->disable_cache;
	fmm->userptr_paged = ctx->userptr_for_paged_mem;
	fmm->check_userptr = env->check_userptr;
	fmm->align_order = env->max_va_align_order;
	fmm->guard_pages = env->svm_guard_pages;

	st = fmm_collect_gpus(ctx, fmm);
	if (st != HSAKMT_STATUS_SUCCESS)
		goto fail;

	/* The kernel reports one entry per device it knows, which may be
	 * more than the GPUs we may use: size the array by sysfs nodes. */
	count = kmt_topo_sysfs_nodes(ctx);
	if (count < fmm->n_gpus)
		count = fmm->n_gpus;
	ap = calloc(count ? count : 1, sizeof(*ap));
	if (!ap) {
		st = HSAKMT_STATUS_NO_MEMORY;
		goto fail;
	}
	if (fmm->n_gpus) {
		st = fmm_get_apertures(ctx, ap, &count);
		if (st != HSAKMT_STATUS_SUCCESS)
			goto fail;
	} else {
		count = 0;
	}

	for (i = 0; i < count; i++) {
		struct kmt_gpu_mem *g = kmt_fmm_gpu(fmm, ap[i].gpu_id);

		if (!g)
			continue;	/* a GPU hidden from us */
		g->lds_base = ap[i].lds_base;
		g->lds_limit = ap[i].lds_limit;
		g->scratch_base = ap[i].scratch_base;
		g->scratch_limit = ap[i].scratch_limit;
		fmm->all_ids[fmm->n_all_ids++] = g->gpu_id;
		if (ap[i].gpuvm_limit < KMT_CANONICAL_LIMIT) {
			uint64_t a = vm_alignment(g->device_id);

			/* Part of the shared SVM aperture: intersect. */
			if (ap[i].gpuvm_base > svm_base)
				svm_base = ap[i].gpuvm_base;
			if (!svm_limit || ap[i].gpuvm_limit < svm_limit)
				svm_limit = ap[i].gpuvm_limit;
			if (a > svm_align)
				svm_align = a;
		} else {
			uint64_t a = vm_alignment(g->device_id), va;

			if (kmt_ape_setup(&g->gpuvm, ap[i].gpuvm_base, ap[i].gpuvm_limit, a,
					  fmm->guard_pages, false, false)) {
				st = HSAKMT_STATUS_NO_MEMORY;
				goto fail;
			}
			/* Keep offset 0 unused: an aperture-relative address
			 * must never look like NULL. */
			kmt_ape_alloc_va(fmm, &g->gpuvm, ap[i].gpuvm_base, a, 0, &va);
		}
		st = fmm_acquire_vm(ctx, g);
		if (st != HSAKMT_STATUS_SUCCESS)
			goto fail;
	}

	if (svm_limit) {
		st = fmm_init_svm(fmm, svm_base, svm_limit, svm_align);
		if (st != HSAKMT_STATUS_SUCCESS)
			goto fail;
		for (i = 0; i < count; i++) {
			if (!kmt_fmm_gpu(fmm, ap[i].gpu_id) || ap[i].gpuvm_limit >= KMT_CANONICAL_LIMIT)
				continue;
			st = fmm_set_policy(ctx, fmm, ap[i].gpu_id);
			if (st != HSAKMT_STATUS_SUCCESS)
				goto fail;
		}
	}
	if (!fmm->is_dgpu &&
	    kmt_ape_setup(&fmm->cpuvm, kmt_page_size(), KMT_CANONICAL_LIMIT - 1, kmt_page_size(),
			  0, false, false)) {
		st = HSAKMT_STATUS_NO_MEMORY;
		goto fail;
	}
	fmm_init_mem_handle(fmm);

	if (fmm->dgpu) {
		pthread_mutex_lock(&fmm->lock);
		for (i = 0; i < fmm->n_gpus; i++)
			if (fmm->gpus[i].svm_needed)
				fmm_map_mmio(ctx, fmm, &fmm->gpus[i]);
		pthread_mutex_unlock(&fmm->lock);
	}
	free(ap);
	return HSAKMT_STATUS_SUCCESS;

fail:
	free(ap);
	kmt_fmm_close(ctx, false);
	return st;
}

/* Release every object of an aperture (in address order). */
static void
ape_release_all(HsaKFDContext *ctx, struct kmt_aperture *ape, bool forked)
{
	struct kmt_rb_node *n;

	if (!kmt_ape_valid(ape))
		return;
	while ((n = kmt_rb_first(&ape->objs))) {
		struct kmt_obj *obj = kmt_rb_entry(n, struct kmt_obj, node);

		if (kmt_obj_release(ctx, obj, forked))
			/*
			 * The kernel keeps it (the events page is never freed):
			 * forget it but leave its range taken, so a later open
			 * does not put memory on top of the kernel's mapping.
			 */
			kmt_obj_del(obj);
	}
}

void
kmt_fmm_fork_prepare(HsaKFDContext *ctx)
{
	if (ctx->fmm)
		pthread_mutex_lock(&ctx->fmm->lock);
}

void
kmt_fmm_fork_parent(HsaKFDContext *ctx)
{
	if (ctx->fmm)
		pthread_mutex_unlock(&ctx->fmm->lock);
}

/* Only the forking thread exists in the child: nobody else holds it. */
void
kmt_fmm_fork_child(HsaKFDContext *ctx)
{
	if (ctx->fmm)
		pthread_mutex_init(&ctx->fmm->lock, NULL);
}

void
kmt_fmm_close(HsaKFDContext *ctx, bool forked)
{
	struct kmt_fmm *fmm = ctx->fmm;
	uint32_t i;

	if (!fmm)
		return;
	pthread_mutex_lock(&fmm->lock);
	for (i = 0; i < fmm->n_gpus; i++) {
		kmt_scratch_release(ctx, &fmm->gpus[i], forked);
		ape_release_all(ctx, &fmm->gpus[i].gpuvm, forked);
	}
	ape_release_all(ctx, &fmm->svm[0], forked);
	ape_release_all(ctx, &fmm->svm[1], forked);
	ape_release_all(ctx, &fmm->mem_handle, forked);
	ape_release_all(ctx, &fmm->cpuvm, forked);
	for (i = 0; i < fmm->n_gpus; i++)
		if (kmt_ape_valid(&fmm->gpus[i].gpuvm))
			kmt_ape_teardown(&fmm->gpus[i].gpuvm);
	if (kmt_ape_valid(&fmm->svm[0]))
		kmt_ape_teardown(&fmm->svm[0]);
	if (kmt_ape_valid(&fmm->svm[1]))
		kmt_ape_teardown(&fmm->svm[1]);
	if (kmt_ape_valid(&fmm->mem_handle))
		kmt_ape_teardown(&fmm->mem_handle);
	if (kmt_ape_valid(&fmm->cpuvm))
		kmt_ape_teardown(&fmm->cpuvm);
	if (fmm->svm_resv_size)
		munmap((void *)fmm->svm_resv_base, fmm->svm_resv_size);
	pthread_mutex_unlock(&fmm->lock);
	pthread_mutex_destroy(&fmm->lock);
	free(fmm->gpus);
	free(fmm->all_ids);
	free(fmm);
	ctx->fmm = NULL;
}

HSAKMT_STATUS
kmt_fmm_aperture_range(HsaKFDContext *ctx, uint32_t gpu_id, enum kmt_ape_kind kind,
		       uint64_t *base, uint64_t *limit)
{
	struct kmt_fmm *fmm = ctx->fmm;
	struct kmt_gpu_mem *g;
	HSAKMT_STATUS st = HSAKMT_STATUS_ERROR;

	if (!fmm)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_mutex_lock(&fmm->lock);
	g = kmt_fmm_gpu(fmm, gpu_id);
	if (!g) {
		st = HSAKMT_STATUS_INVALID_PARAMETER;
		goto out;
	}
	switch (kind) {
	case KMT_APE_LDS:
		if (g->lds_base && g->lds_limit > g->lds_base) {
			*base = g->lds_base;
			*limit = g->lds_limit;
			st = HSAKMT_STATUS_SUCCESS;
		}
		break;
	case KMT_APE_SCRATCH:
		if (g->scratch_base && g->scratch_limit > g->scratch_base) {
			*base = g->scratch_base;
			*limit = g->scratch_limit;
			st = HSAKMT_STATUS_SUCCESS;
		}
		break;
	case KMT_APE_GPUVM:
		if (kmt_ape_valid(&g->gpuvm)) {
			*base = g->gpuvm.base;
			*limit = g->gpuvm.limit;
			st = HSAKMT_STATUS_SUCCESS;
		}
		break;
	case KMT_APE_SVM:
		/* One range from the coherent part's start to the default's end. */
		if (fmm->dgpu && fmm->dgpu_alt->base < fmm->dgpu->limit) {
			*base = fmm->dgpu_alt->base;
			*limit = fmm->dgpu->limit;
			st = HSAKMT_STATUS_SUCCESS;
		}
		break;
	case KMT_APE_MMIO:
		if (g->mmio_va) {
			*base = g->mmio_va;
			*limit = g->mmio_va + kmt_page_size() - 1;
			st = HSAKMT_STATUS_SUCCESS;
		}
		break;
	}
out:
	pthread_mutex_unlock(&fmm->lock);
	return st;
}
