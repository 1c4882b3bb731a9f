/* SPDX-License-Identifier: MIT */
/*
 * memory/memory.h - what memory/ offers the other groups: memory for
 * kernel-visible structures (queue rings, EOP buffers, save areas, the
 * events page), a description of the object holding an address, doorbell
 * slices, and the set-up, tear-down and fork hooks of a context's GPU
 * address space that lifecycle/ calls. Apertures, objects and the VA
 * allocator are memory/fmm.h's.
 */
#ifndef KMT_MEMORY_H
#define KMT_MEMORY_H

#include "core/core.h"


/* Flags of kmt_mem_alloc(). */
enum kmt_mem_flags {
	KMT_MEM_VRAM		= 1u << 0,	/* device memory of @node (else system) */
	KMT_MEM_HOST_ACCESS	= 1u << 1,	/* CPU-mapped; VRAM needs a large BAR */
	KMT_MEM_EXECUTABLE	= 1u << 2,	/* GPU may execute it */
	KMT_MEM_UNCACHED	= 1u << 3,	/* uncached (system memory is always
						 * fine-grained: coherent) */
	KMT_MEM_READ_ONLY	= 1u << 4,	/* GPU read-only */
	KMT_MEM_AQL_QUEUE	= 1u << 5,	/* ring double-mapped for AQL */
	KMT_MEM_MAP_ALL_GPUS	= 1u << 6,	/* map on every GPU, not only @node */
	KMT_MEM_NO_GPU_MAP	= 1u << 7,	/* allocate only, no GPU mapping */
	KMT_MEM_PAGED		= 1u << 8,	/* paged system memory: see below */
};

/*
 * kmt_mem_alloc() - allocate memory for a kernel-visible structure (queue
 * rings, EOP buffers, context save areas, the events page) and map it
 * on @node's GPU (or all GPUs).
 * @node: user node of the GPU that uses it (the owner of VRAM).
 * @size: bytes, rounded up to the page size.
 * @align: VA alignment, a power of two (0 = page).
 * @flags: enum kmt_mem_flags.
 * @addr: out, the address (CPU and GPU see the same one).
 *
 * The requests are those of AMD's library for the same buffer. VRAM is a
 * coarse-grained VRAM BO of @node. System memory is fine-grained
 * (COHERENT): a GTT BO, or with KMT_MEM_PAGED anonymous pages in a
 * USERPTR BO (GTT when HSA_USERPTR_FOR_PAGED_MEM=0). Its BO belongs to
 * the first GPU, whatever @node. On APU systems paged system memory is
 * plain anonymous memory: no BO, and no mapping, since the GPU reaches it
 * as it is.
 *
 * The memory is zero-filled when the CPU can reach it. It appears to
 * hsaKmtQueryPointerInfo() like an hsaKmtAllocMemory() allocation.
 * Return: INVALID_NODE_UNIT, INVALID_PARAMETER, NO_MEMORY, ERROR.
 */
HSAKMT_STATUS kmt_mem_alloc(HsaKFDContext *ctx, uint32_t node, uint64_t size, uint64_t align,
			    unsigned int flags, void **addr);

/*
 * kmt_mem_free() - unmap from every GPU and free memory of kmt_mem_alloc()
 * (or of hsaKmtAllocMemory()). @addr must be the start.
 */
HSAKMT_STATUS kmt_mem_free(HsaKFDContext *ctx, void *addr);

/*
 * kmt_mem_forget() - drop memory the kernel will never give back (the
 * events page once CREATE_EVENT took it) from the bookkeeping, without
 * unmapping or freeing it: its address range stays taken, so no later
 * allocation can land on the kernel's mapping. For sub-context teardown.
 */
void kmt_mem_forget(HsaKFDContext *ctx, void *addr);

/* What kmt_mem_describe() reports about the object holding an address. */
struct kmt_mem_desc {
	uint64_t gpu_va;		/* start of the object, GPU view */
	void *cpu_addr;			/* start, CPU view (NULL if none) */
	uint64_t size;			/* bytes */
	uint64_t handle;		/* KFD BO handle (0 for VA-only objects) */
	uint32_t gpu_id;		/* GPU the BO belongs to (0: none) */
	uint32_t node;			/* its user node */
	uint32_t kfd_flags;		/* KFD_ABI_ALLOC_MEM_FLAGS_* */
	uint32_t mapped_gpus;		/* number of GPUs it is mapped on */
};

/*
 * kmt_mem_describe() - find the memory object containing @addr (any
 * address inside it) and describe it. No ioctl.
 * Return: INVALID_PARAMETER (MEMORY_NOT_REGISTERED semantics) if none.
 */
HSAKMT_STATUS kmt_mem_describe(HsaKFDContext *ctx, const void *addr, struct kmt_mem_desc *out);

/*
 * kmt_mem_map_doorbell() - make @node's doorbell slice reachable by the
 * CPU (and, on a dGPU, the GPU). On a dGPU the slice becomes a DOORBELL
 * BO in the coherent aperture, mapped on every GPU and mmapped from
 * /dev/kfd at that address; on an APU it is a plain mmap of /dev/kfd.
 * @mmap_offset: the doorbell base offset (CREATE_QUEUE's doorbell_offset
 *	with the in-slice part cleared).
 * @addr: out, the CPU address of the slice.
 */
HSAKMT_STATUS kmt_mem_map_doorbell(HsaKFDContext *ctx, uint32_t node, uint64_t mmap_offset,
				   void **addr);

/* kmt_mem_unmap_doorbell() - undo kmt_mem_map_doorbell(); @forked: CPU unmap only. */
void kmt_mem_unmap_doorbell(HsaKFDContext *ctx, uint32_t node, void *addr, bool forked);


/*
 * kmt_fmm_open() / kmt_fmm_close() - set up @ctx's address space at open
 * (after the topology and the render nodes) and release it at close.
 * @forked: in a forked child (bookkeeping only, no ioctl).
 */
HSAKMT_STATUS kmt_fmm_open(HsaKFDContext *ctx);
void kmt_fmm_close(HsaKFDContext *ctx, bool forked);

/*
 * kmt_fmm_fork_child() - in the child of a fork(), re-create @ctx's memory
 * lock, which the prepare handler took (the child's cleanup takes it).
 */
void kmt_fmm_fork_child(HsaKFDContext *ctx);

/*
 * kmt_fmm_fork_prepare() / kmt_fmm_fork_parent() - around a fork(), hold
 * @ctx's memory lock, so that no other thread is half-way through the
 * memory bookkeeping (an rb-tree rotation) the child then tears down.
 * Safe since our handlers are installed after the first open, so they run
 * before those of kfdsim and of the capture library: a holder inside an
 * ioctl they serve finishes it before their locks are taken.
 */
void kmt_fmm_fork_prepare(HsaKFDContext *ctx);
void kmt_fmm_fork_parent(HsaKFDContext *ctx);

#endif /* KMT_MEMORY_H */
