/* SPDX-License-Identifier: MIT */
/*
 * The GPU address space of a context ("flat memory manager"): apertures,
 * the memory objects living in them, and the KFD ioctls that create, map
 * and free buffer objects. Private to memory/.
 *
 * Apertures (see docs/thunk.md for how each is set up):
 *  - SVM: the address range shared by the CPU and every GPU with a 47/48
 *    bit GPUVM ("canonical"). On GPUs with a full 47-bit VM the CPU's own
 *    mmap() picks addresses (mmap-backed aperture; default and coherent
 *    are the same). Otherwise a fixed range below 1 TiB is reserved with
 *    PROT_NONE mappings and split: the first quarter is the coherent
 *    ("alternate") aperture, the rest the default one.
 *  - GPUVM: per GPU, for GPUs whose VM lies outside the CPU's range.
 *  - mem_handle: a non-canonical range that is never mapped; buffers
 *    imported without a GPU address get a unique handle address there.
 *  - cpuvm: system memory of APU systems, which the GPU reaches without
 *    GPUVM mappings.
 *  - scratch backing: per GPU, a range carved from the SVM aperture by a
 *    Scratch allocation; VRAM is allocated into it at map time.
 *  LDS, scratch and MMIO apertures only hold addresses reported to the
 *  topology (and the one MMIO remap page).
 *
 * Locking: one mutex per fmm (fmm->lock) guards every aperture and
 * object. It is never held across a call into another area.
 */
#ifndef KMT_FMM_H
#define KMT_FMM_H

#include "core/core.h"
#include "memory/memory.h"
#include "memory/rbtree.h"
#include "memory/va.h"
#include "topology/topology.h"

/* What an object is; decides QueryPointerInfo's Type and how it is freed. */
enum kmt_obj_kind {
	KMT_OBJ_ALLOC,		/* hsaKmtAllocMemory / kmt_mem_alloc */
	KMT_OBJ_USERPTR,	/* registered user memory */
	KMT_OBJ_GRAPHICS,	/* imported dma-buf */
	KMT_OBJ_SHARED,		/* IPC import */
	KMT_OBJ_VA_ONLY,	/* address reservation without a BO */
	KMT_OBJ_SCRATCH,	/* VRAM behind part of a scratch backing range */
	KMT_OBJ_DOORBELL,	/* doorbell slice BO */
	KMT_OBJ_MMIO,		/* MMIO remap page */
	KMT_OBJ_HOST_CPU,	/* APU system memory, no BO */
};

/* How the CPU view of an object is undone when it is freed. */
enum kmt_cpu_map {
	KMT_CPU_NONE,		/* no CPU mapping of ours */
	KMT_CPU_IN_APERTURE,	/* mapped over the aperture's VA: the VA
				 * release takes care of it */
	KMT_CPU_OWN,		/* an mmap of its own: munmap */
};

struct kmt_aperture;

/*
 * A memory object. Lookups walk the two trees with every node a cache
 * miss once there are many objects, so what one tree's descent reads sits
 * in one 64-byte line (objects are allocated 64-byte aligned): the user
 * tree's node, bound and range in the first line, the VA tree's node,
 * address and size in the second.
 */
struct kmt_obj {
	/* line 0: the user-range tree */
	struct kmt_rb_node unode;	/* ape->uobjs, by userptr (USERPTR only) */
	uint64_t umax_end;		/* max userptr end in unode's subtree */
	/* Registered user memory: the caller's range. */
	uint64_t userptr;
	uint64_t userptr_size;
	/* line 1: the VA tree */
	_Alignas(64) struct kmt_rb_node node;	/* ape->objs, by va */
	uint64_t va;			/* GPU address of the first byte */
	uint64_t size;			/* bytes of VA the object owns */
	/* the rest */
	struct kmt_aperture *ape;
	enum kmt_obj_kind kind;
	uint64_t handle;		/* KFD handle; 0: none */
	uint32_t gpu_id;		/* GPU owning the BO (0: none) */
	uint32_t node_id;		/* user node reported to QueryPointerInfo */
	uint32_t kfd_flags;
	HsaMemFlags mflags;
	enum kmt_cpu_map cpu_map;
	void *cpu;			/* CPU address of the first byte (or NULL) */
	uint64_t cpu_size;		/* bytes mapped at cpu */
	uint32_t reg_count;		/* registrations of the user range */
	/* GPUs (gpu_ids) it is registered for (none: all) and mapped on. */
	uint32_t *reg_ids;
	uint32_t n_reg;
	uint32_t *map_ids;
	uint32_t n_map;
	uint32_t map_count;		/* userptr map references */
	/* The same as user node ids, built on demand for QueryPointerInfo. */
	uint32_t *reg_nodes;
	uint32_t *map_nodes;
	void *metadata;			/* imported graphics buffers */
	uint32_t metadata_size;
	void *user_data;
};

struct kmt_aperture {
	uint64_t base;
	uint64_t limit;			/* inclusive; base > limit: not set up */
	uint64_t align;			/* minimum VA alignment */
	uint32_t guard_pages;		/* free pages after each object */
	bool mmap_backed;		/* VA comes from the CPU's mmap() */
	bool cpu_reserved;		/* VA range is held by PROT_NONE mappings */
	struct kmt_va va;		/* unless mmap_backed */
	struct kmt_rb_tree objs;
	struct kmt_rb_tree uobjs;
};

/* Per GPU. */
struct kmt_gpu_mem {
	uint32_t gpu_id;
	uint32_t node;			/* user node id */
	uint32_t device_id;
	struct kmt_gfx_version gfx;
	bool svm_needed;		/* dGPU or gfx9+: SVM apertures, MMIO page */
	bool large_bar;			/* a FB_PUBLIC bank */
	int render_fd;
	uint64_t lds_base, lds_limit;
	uint64_t scratch_base, scratch_limit;
	uint64_t mmio_va;		/* the MMIO remap page, 0 if none */
	struct kmt_aperture gpuvm;	/* non-canonical GPUVM, if any */
	struct kmt_aperture scratch;	/* scratch backing, once allocated */
};

struct kmt_fmm {
	pthread_mutex_t lock;
	struct kmt_aperture svm[2];	/* [0] default, [1] coherent (reserved mode) */
	struct kmt_aperture *dgpu;	/* default SVM */
	struct kmt_aperture *dgpu_alt;	/* coherent SVM (== dgpu when mmap-backed) */
	struct kmt_aperture mem_handle;
	struct kmt_aperture cpuvm;
	uint64_t svm_resv_base;		/* CPU reservation to drop at close */
	uint64_t svm_resv_size;
	uint32_t n_gpus;
	struct kmt_gpu_mem *gpus;	/* in node order */
	uint32_t *all_ids;		/* gpu_ids of every GPU, for default maps */
	uint32_t n_all_ids;
	bool is_dgpu;
	bool disable_cache;
	bool userptr_paged;
	bool check_userptr;
	uint32_t align_order;		/* HSA_MAX_VA_ALIGN */
	uint32_t guard_pages;
};

/* ---- fmm_obj.c: apertures and objects ---- */

/* kmt_ape_setup() - an empty aperture over [@base, @limit]. Return 0 or -errno. */
int kmt_ape_setup(struct kmt_aperture *ape, uint64_t base, uint64_t limit, uint64_t align,
		  uint32_t guard_pages, bool mmap_backed, bool cpu_reserved);

/* kmt_ape_valid() - has the aperture been set up? */
static inline bool
kmt_ape_valid(const struct kmt_aperture *ape)
{
	return ape && ape->base && ape->limit > ape->base;
}

static inline bool
kmt_ape_contains(const struct kmt_aperture *ape, uint64_t addr)
{
	return kmt_ape_valid(ape) && addr >= ape->base && addr <= ape->limit;
}

/* kmt_ape_teardown() - forget the objects (freeing their structs) and VA. */
void kmt_ape_teardown(struct kmt_aperture *ape);

/*
 * kmt_ape_alloc_va() - reserve @size bytes of VA (plus guard pages).
 * @fixed: the wanted address, 0 for any.
 * @align: wanted alignment (0: the aperture's); big buffers are aligned
 *	further, up to PAGE_SIZE << HSA_MAX_VA_ALIGN, for large GPU pages.
 * Return: 0 and *@va; -ENOMEM; -EBUSY if @fixed is taken.
 */
int kmt_ape_alloc_va(struct kmt_fmm *fmm, struct kmt_aperture *ape, uint64_t fixed,
		     uint64_t size, uint64_t align, uint64_t *va);

/* kmt_ape_release_va() - give back what kmt_ape_alloc_va() gave. */
void kmt_ape_release_va(struct kmt_fmm *fmm, struct kmt_aperture *ape, uint64_t va,
			uint64_t size);

/* kmt_obj_new() - a zeroed object at [@va, @va + @size) in @ape. */
struct kmt_obj *kmt_obj_new(struct kmt_aperture *ape, enum kmt_obj_kind kind, uint64_t va,
			    uint64_t size);

/* kmt_obj_userptr_link() - index a USERPTR object by its user range. */
void kmt_obj_userptr_link(struct kmt_obj *obj, uint64_t userptr, uint64_t size);

/* kmt_obj_del() - unlink and free (no ioctl, no munmap). */
void kmt_obj_del(struct kmt_obj *obj);

/* kmt_obj_clear_nodes() - drop the cached node arrays after a change. */
void kmt_obj_clear_nodes(struct kmt_obj *obj);

/* Lookups inside one aperture. */
struct kmt_obj *kmt_obj_at(struct kmt_aperture *ape, uint64_t va);
struct kmt_obj *kmt_obj_containing(struct kmt_aperture *ape, uint64_t addr);
struct kmt_obj *kmt_obj_user_exact(struct kmt_aperture *ape, uint64_t userptr, uint64_t size);
struct kmt_obj *kmt_obj_user_containing(struct kmt_aperture *ape, uint64_t addr);

/* How kmt_fmm_find() matches. */
enum kmt_find {
	KMT_FIND_START,		/* @addr is the start (userptr: the registered start) */
	KMT_FIND_INSIDE,	/* @addr anywhere inside */
};

/*
 * kmt_fmm_find() - the object at/containing @addr, in whatever aperture
 * holds it (GPUVM, SVM default/coherent, mem_handle, scratch backing,
 * userptr ranges, cpuvm). @size: for KMT_FIND_START, 0 or the exact
 * registered size. Called with fmm->lock held.
 */
struct kmt_obj *kmt_fmm_find(struct kmt_fmm *fmm, uint64_t addr, uint64_t size,
			     enum kmt_find how);

/* ---- fmm_aperture.c ---- */

/* kmt_fmm_gpu() - the per-GPU state of @gpu_id (NULL if unknown). */
struct kmt_gpu_mem *kmt_fmm_gpu(struct kmt_fmm *fmm, uint32_t gpu_id);
struct kmt_gpu_mem *kmt_fmm_gpu_of_node(struct kmt_fmm *fmm, uint32_t node);

/* The apertures the topology reports as memory banks. */
enum kmt_ape_kind {
	KMT_APE_LDS,
	KMT_APE_SCRATCH,
	KMT_APE_GPUVM,
	KMT_APE_SVM,
	KMT_APE_MMIO,
};

/*
 * kmt_fmm_aperture_range() - base and limit of an aperture of @gpu_id.
 * Return: SUCCESS; INVALID_PARAMETER for an unknown GPU; ERROR if the
 * aperture does not exist.
 */
HSAKMT_STATUS kmt_fmm_aperture_range(HsaKFDContext *ctx, uint32_t gpu_id, enum kmt_ape_kind kind,
				     uint64_t *base, uint64_t *limit);

/* ---- mem_alloc.c / mem_map.c: building blocks ---- */

/* The KFD allocation flags for @mflags (writable, executable, AQL). */
uint32_t kmt_kfd_flags_from_mem(HsaMemFlags mflags);

/* What an imported buffer's KFD flags say in HsaMemFlags terms. */
HsaMemFlags kmt_mem_flags_from_kfd(uint32_t kfd_flags);

/*
 * kmt_bo_create() - ALLOC_MEMORY_OF_GPU at @va (@va_arg is what the ioctl
 * gets: the VA, or an aperture offset) and record the object.
 * @userptr: the CPU address for USERPTR BOs (else 0).
 * Return: the object or NULL with *@st set. fmm->lock held.
 */
struct kmt_obj *kmt_bo_create(HsaKFDContext *ctx, struct kmt_aperture *ape,
			      enum kmt_obj_kind kind, uint32_t gpu_id, uint64_t va,
			      uint64_t va_arg, uint64_t size, uint32_t kfd_flags,
			      uint64_t userptr, uint64_t *mmap_offset, HSAKMT_STATUS *st);

/* kmt_bo_free_ioctl() - FREE_MEMORY_OF_GPU. Return 0 or -errno. */
int kmt_bo_free_ioctl(HsaKFDContext *ctx, uint64_t handle);

/*
 * kmt_obj_map() - MAP_MEMORY_TO_GPU on @ids (@n of them; NULL: the
 * registered GPUs, else all). Updates the mapped list with the GPUs that
 * succeeded. fmm->lock held. Return: SUCCESS or ERROR.
 */
HSAKMT_STATUS kmt_obj_map(HsaKFDContext *ctx, struct kmt_obj *obj, const uint32_t *ids, uint32_t n);

/* kmt_obj_unmap() - UNMAP from @ids (NULL: every mapped GPU). fmm->lock held. */
HSAKMT_STATUS kmt_obj_unmap(HsaKFDContext *ctx, struct kmt_obj *obj, const uint32_t *ids, uint32_t n);

/*
 * kmt_obj_release() - unmap everywhere, free the BO, undo the CPU mapping,
 * give back the VA and free the object. fmm->lock held.
 * @forked: bookkeeping only (no ioctl; CPU mappings are the child's to drop).
 * Return: 0 or -errno of FREE (the object then stays).
 */
int kmt_obj_release(HsaKFDContext *ctx, struct kmt_obj *obj, bool forked);

/*
 * kmt_ids_from_nodes() - translate user node ids to gpu_ids (malloc'd).
 * Return: INVALID_PARAMETER for an empty list, INVALID_NODE_UNIT for a
 * node that is not a GPU, NO_MEMORY.
 */
HSAKMT_STATUS kmt_ids_from_nodes(HsaKFDContext *ctx, uint64_t n, const uint32_t *nodes,
				 uint32_t **ids);

/*
 * kmt_fmm_bo_range() - the BO holding [@addr, @addr + @size) and @addr's
 * byte offset inside it (registered memory counts from its first page).
 * Takes fmm->lock.
 * Return: false if no object with a BO holds the whole range.
 */
bool kmt_fmm_bo_range(struct kmt_fmm *fmm, uint64_t addr, uint64_t size, uint64_t *handle,
		      uint64_t *offset);

/* ---- scratch (mem_scratch.c) ---- */

/* Reserve a GPU's scratch backing range (SET_SCRATCH_BACKING_VA). */
HSAKMT_STATUS kmt_scratch_alloc(HsaKFDContext *ctx, struct kmt_gpu_mem *gpu, uint64_t fixed,
				uint64_t size, void **addr);
/* Map / unmap VRAM behind a part of it. fmm->lock held. */
HSAKMT_STATUS kmt_scratch_map(HsaKFDContext *ctx, struct kmt_gpu_mem *gpu, uint64_t addr,
			      uint64_t size);
HSAKMT_STATUS kmt_scratch_unmap(HsaKFDContext *ctx, struct kmt_gpu_mem *gpu, uint64_t addr);
/* Release the whole range. fmm->lock held. */
void kmt_scratch_release(HsaKFDContext *ctx, struct kmt_gpu_mem *gpu, bool forked);
/* The GPU whose scratch backing range holds @addr, or NULL. */
struct kmt_gpu_mem *kmt_scratch_gpu_of(struct kmt_fmm *fmm, uint64_t addr);

#endif /* KMT_FMM_H */
