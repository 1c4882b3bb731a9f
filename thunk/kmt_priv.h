/* SPDX-License-Identifier: MIT */
/*
 * kmt_priv.h - what the parts of libhsakmt share.
 *
 * The library is split by area: open/close, contexts and fork handling
 * (ctx*.c, openclose.c, fork.c), topology (topo*.c), the GPU address
 * space and memory (fmm*.c, va*.c, mem*.c, render.c), and the areas built
 * on them: queues, events, SVM, clocks, debugger, counters, SPM
 * (queues*.c, events*.c, svm*.c, clock*.c, debug*.c, perf*.c, spm*.c).
 * This header is the contract between them: the context aggregate, the
 * ioctl helper, topology accessors, memory helpers, locking rules, status
 * mapping and logging. Area-private headers (fmm.h, topo.h, ...) are not
 * used across areas.
 *
 * API functions:
 *  - Every public function hsaKmtX has a twin hsaKmtXCtx(HsaKFDContext *ctx,
 *    ...) in the same file that holds the logic; hsaKmtX is one line:
 *	return hsaKmtXCtx(kmt_primary_ctx(), ...);
 *  - Both are marked KMT_API and listed in libhsakmt.ver.
 *  - A Ctx function starts with
 *	HSAKMT_STATUS st = kmt_ctx_check(ctx);
 *	if (st != HSAKMT_STATUS_SUCCESS)
 *		return st;
 *
 * Locking (outermost first; never take an earlier lock while holding a
 * later one):
 *  1. ctx->lock	open/close, fork cleanup, creation of sub-contexts.
 *  2. area locks	each sub-context's own lock (queues, events, ...).
 *  3. fmm lock		internal to fmm*.c/mem*.c; taken and released inside
 *			the kmt_mem_* helpers only.
 *  4. topology lock	internal to topo*.c (a rwlock); taken and released
 *			inside the kmt_topo_* accessors only.
 * So an area may call kmt_topo_*() and kmt_mem_*() while holding its own
 * lock, and the sub-context fini hooks run with ctx->lock held. No helper
 * in this header calls back into an area.
 */
#ifndef KMT_PRIV_H
#define KMT_PRIV_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

#include <kfdtrace/kfd_abi.h>

/* Marks a function exported from libhsakmt.so.1 (the rest is hidden). */
#define KMT_API __attribute__((visibility("default")))

/* ------------------------------------------------------------------ */
/* Logging                                                            */
/* ------------------------------------------------------------------ */

/* Levels of HSAKMT_DEBUG_LEVEL (syslog numbering). */
enum kmt_log_level {
	KMT_LOG_ERR = 3,
	KMT_LOG_WARNING = 4,
	KMT_LOG_NOTICE = 5,
	KMT_LOG_INFO = 6,
	KMT_LOG_DEBUG = 7,
};

/* The level in force; messages above it are dropped (default: none). */
extern int kmt_log_threshold;

/* kmt_log() - print one message to stderr with a "libhsakmt: " prefix. */
void kmt_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The level test is inline so a disabled message costs one compare. */
#define kmt_pr(level, ...)						\
	do {								\
		if ((level) <= kmt_log_threshold)			\
			kmt_log((level), __VA_ARGS__);			\
	} while (0)
#define kmt_err(...)	kmt_pr(KMT_LOG_ERR, __VA_ARGS__)
#define kmt_warn(...)	kmt_pr(KMT_LOG_WARNING, __VA_ARGS__)
#define kmt_info(...)	kmt_pr(KMT_LOG_INFO, __VA_ARGS__)
#define kmt_debug(...)	kmt_pr(KMT_LOG_DEBUG, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Environment knobs (read once per process, at the first open)       */
/* ------------------------------------------------------------------ */

struct kmt_env {
	int debug_level;		/* HSAKMT_DEBUG_LEVEL, 0 = quiet */
	bool userptr_for_paged_mem;	/* HSA_USERPTR_FOR_PAGED_MEM (default 1) */
	bool disable_cache;		/* HSA_DISABLE_CACHE: coherent default policy */
	bool check_userptr;		/* HSA_CHECK_USERPTR: warn on overlapping registrations */
	bool reserve_svm;		/* HSA_RESERVE_SVM: always reserve a fixed SVM range */
	unsigned int svm_guard_pages;	/* HSA_SVM_GUARD_PAGES (default 1) */
	unsigned int max_va_align_order; /* HSA_MAX_VA_ALIGN, log2 pages (default 9) */
	bool svm_profile;		/* HSA_SVM_PROFILE: log SVM calls */
	bool zfb;			/* HSA_ZFB: frame buffer is system memory */
	bool gfx_override;		/* HSA_OVERRIDE_GFX_VERSION given and valid */
	uint8_t gfx_override_major, gfx_override_minor, gfx_override_step;
};

/* kmt_env() - the knobs (parsed on first use; never NULL). */
const struct kmt_env *kmt_env(void);

/* kmt_page_size() - the CPU page size. */
size_t kmt_page_size(void);

/*
 * kmt_getpid() - getpid(), cached in memory the kernel clears in any
 * child (MADV_WIPEONFORK), so it costs no system call after the first.
 */
pid_t kmt_getpid(void);

/* ------------------------------------------------------------------ */
/* Contexts                                                           */
/* ------------------------------------------------------------------ */

/* Area state owned by other files; each is created on first use. */
struct kmt_topology;		/* topo*.c */
struct kmt_fmm;			/* fmm*.c, mem*.c */
struct kmt_render;		/* render.c */
struct kmt_queue_ctx;		/* queues*.c */
struct kmt_event_ctx;		/* events*.c */
struct kmt_debug_ctx;		/* debug*.c */
struct kmt_perf_ctx;		/* perf*.c, spm*.c */
struct kmt_svm_ctx;		/* svm*.c */

/*
 * Releases an area's sub-context. @forked: the context is being cleaned
 * up in a forked child: the kernel objects belong to the parent, so issue
 * no ioctl and touch no GPU mapping; just forget and free user-space
 * state, and do not take the area's own lock (a thread of the parent may
 * have held it at fork time; it does not exist in the child).
 * Called with ctx->lock held; must set its pointer to NULL. Areas are
 * finished in the order debug, queues, events, svm, perf, before memory.
 */
typedef void kmt_fini_fn(HsaKFDContext *ctx, bool forked);

/*
 * The context aggregate. HsaKFDContext (hsakmttypes.h) is this struct.
 * The primary context is a static object (kmt_primary_ctx()); secondary
 * ones are calloc'd by hsaKmtOpenSecondaryKFDCtx().
 */
struct _HsaKFDContext {
	pthread_mutex_t lock;		/* see the locking rules above */
	int fd;				/* /dev/kfd, -1 when closed */
	bool primary;
	unsigned int open_count;	/* primary: hsaKmtOpenKFD references */
	pid_t pid;			/* process that opened fd */
	bool forked;			/* in a forked child: unusable until reopened */
	HsaVersionInfo version;		/* GET_VERSION at open */
	bool userptr_for_paged_mem;	/* env knob; always false on a secondary */
	bool is_dgpu;			/* some GPU node is discrete */

	struct kmt_topology *topo;	/* kept from open to close */
	bool topo_acquired;		/* the API snapshot is held */
	struct kmt_fmm *fmm;		/* apertures, VA, memory objects */
	struct kmt_render *render;	/* render-node fds and libdrm devices */

	/* Sub-contexts of the other areas and their fini hooks. */
	struct kmt_queue_ctx *queues;
	kmt_fini_fn *queues_fini;
	struct kmt_event_ctx *events;
	kmt_fini_fn *events_fini;
	struct kmt_debug_ctx *debug;
	kmt_fini_fn *debug_fini;
	struct kmt_perf_ctx *perf;
	kmt_fini_fn *perf_fini;
	struct kmt_svm_ctx *svm;
	kmt_fini_fn *svm_fini;

	HsaKFDContext *next;		/* list of live contexts (fork marking) */
};

/* kmt_primary_ctx() - the primary context (never NULL, maybe not open). */
HsaKFDContext *kmt_primary_ctx(void);

/*
 * kmt_ctx_check() - may @ctx be used now?
 * Return: SUCCESS; INVALID_PARAMETER for NULL; KERNEL_IO_CHANNEL_NOT_OPENED
 * when it is closed or inherited across fork (also detected by pid).
 */
HSAKMT_STATUS kmt_ctx_check(HsaKFDContext *ctx);

/* kmt_ctx_is_primary() - debugger calls refuse secondary contexts. */
static inline bool
kmt_ctx_is_primary(const HsaKFDContext *ctx)
{
	return ctx->primary;
}

/* kmt_kfd_minor_at_least() - does the kernel speak KFD 1.@minor or later? */
static inline bool
kmt_kfd_minor_at_least(const HsaKFDContext *ctx, uint32_t minor)
{
	return ctx->version.KernelInterfaceMinorVersion >= minor;
}

/* ------------------------------------------------------------------ */
/* ioctls and status                                                  */
/* ------------------------------------------------------------------ */

/*
 * kmt_ioctl() - issue a KFD ioctl on @ctx's /dev/kfd through the kfdtrace
 * dispatch point (kfd_dispatch(), which retries EINTR and EAGAIN).
 * An EBADF result means the file belongs to another process (we were
 * forked or cloned): @ctx is marked forked.
 *
 * Return: the ioctl result (-1 with errno set on failure; DBG_TRAP may
 * return a positive count).
 */
int kmt_ioctl(HsaKFDContext *ctx, unsigned long request, void *arg);

/*
 * kmt_status_from_errno() - the finest status for a kernel errno:
 * ENOMEM/ENOSPC -> NO_MEMORY, EINVAL -> INVALID_PARAMETER, EBUSY/EEXIST ->
 * UNAVAILABLE, EPERM/EACCES/ENOTTY/EOPNOTSUPP -> NOT_SUPPORTED, EFAULT ->
 * INVALID_PARAMETER, EBADF -> KERNEL_IO_CHANNEL_NOT_OPENED, ETIME ->
 * WAIT_TIMEOUT, anything else -> ERROR. Where AMD's library collapses
 * an errno to ERROR, callers return ERROR themselves to stay compatible.
 */
HSAKMT_STATUS kmt_status_from_errno(int err);

/* ------------------------------------------------------------------ */
/* Topology accessors                                                 */
/* ------------------------------------------------------------------ */

/* GFX IP version of a node (0.0.0 for CPU nodes). */
struct kmt_gfx_version {
	uint8_t major;
	uint8_t minor;
	uint8_t stepping;
};

/* Encodes a gfx version for comparisons: KMT_GFX(9, 0, 10) for gfx90a. */
#define KMT_GFX(major, minor, step)	(((major) << 16) | ((minor) << 8) | (step))
static inline uint32_t
kmt_gfx_value(struct kmt_gfx_version v)
{
	return KMT_GFX((uint32_t)v.major, (uint32_t)v.minor, (uint32_t)v.stepping);
}

/*
 * What the areas need to know about a node, copied out of the topology
 * under its lock (a snapshot: later topology changes do not touch it).
 */
struct kmt_node_info {
	uint32_t node_id;		/* user node id */
	uint32_t sysfs_id;		/* the kernel's node number */
	uint32_t gpu_id;		/* 0 for CPU nodes */
	bool is_gpu;			/* has SIMDs */
	bool is_dgpu;			/* GPU without CPU cores */
	struct kmt_gfx_version gfx;
	uint32_t drm_render_minor;	/* 128.. for GPUs */
	uint32_t num_xcc;		/* sysfs num_xcc, 1 if absent */
	/* Queue sizing, from sysfs where the kernel exports it (else 0). */
	uint32_t cwsr_size;
	uint32_t ctl_stack_size;
	uint32_t eop_buffer_size;
	/* Doorbells: bytes per doorbell (4 before gfx9, else 8) and the
	 * length of the process's doorbell slice to mmap (1024 doorbells,
	 * rounded up to the page size). */
	uint32_t doorbell_size;
	uint32_t doorbell_slice_size;
	uint64_t capability2;		/* sysfs capability2, 0 if absent */
	bool large_bar;			/* has a CPU-visible VRAM bank */
	uint64_t vram_size;		/* sum of the VRAM banks */
	HsaNodeProperties props;	/* as hsaKmtGetNodeProperties() reports */
};

/* kmt_topo_num_nodes() - user nodes of @ctx's topology (0 if closed). */
uint32_t kmt_topo_num_nodes(HsaKFDContext *ctx);

/*
 * kmt_topo_node_info() - facts of user node @node.
 * Return: INVALID_NODE_UNIT for an unknown node.
 */
HSAKMT_STATUS kmt_topo_node_info(HsaKFDContext *ctx, uint32_t node, struct kmt_node_info *out);

/*
 * kmt_topo_gpu_id() - gpu_id of user node @node.
 * Return: INVALID_NODE_UNIT for an unknown node or a CPU-only node.
 */
HSAKMT_STATUS kmt_topo_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id);

/*
 * kmt_topo_node_of_gpu() - user node id of @gpu_id.
 * Return: INVALID_NODE_UNIT for an unknown gpu_id.
 */
HSAKMT_STATUS kmt_topo_node_of_gpu(HsaKFDContext *ctx, uint32_t gpu_id, uint32_t *node);

/*
 * kmt_topo_gpu_ids() - gpu_ids of every GPU node, in node order.
 * Return: the number of GPUs (may exceed @max; only @max are stored).
 */
uint32_t kmt_topo_gpu_ids(HsaKFDContext *ctx, uint32_t *ids, uint32_t max);

/* ------------------------------------------------------------------ */
/* Memory helpers for the other areas                                 */
/* ------------------------------------------------------------------ */

/* Flags of kmt_mem_alloc(). */
enum kmt_mem_flags {
	KMT_MEM_VRAM		= 1u << 0,	/* device memory of @node (else system) */
	KMT_MEM_HOST_ACCESS	= 1u << 1,	/* CPU-mapped; VRAM needs a large BAR */
	KMT_MEM_EXECUTABLE	= 1u << 2,	/* GPU may execute it */
	KMT_MEM_UNCACHED	= 1u << 3,	/* fine-grained: coherent, uncached */
	KMT_MEM_READ_ONLY	= 1u << 4,	/* GPU read-only */
	KMT_MEM_AQL_QUEUE	= 1u << 5,	/* ring double-mapped for AQL */
	KMT_MEM_MAP_ALL_GPUS	= 1u << 6,	/* map on every GPU, not only @node */
	KMT_MEM_NO_GPU_MAP	= 1u << 7,	/* allocate only, no GPU mapping */
};

/*
 * kmt_mem_alloc() - allocate memory for a kernel-visible structure (queue
 * rings, EOP buffers, context save areas, the events page) and map it
 * on @node's GPU (or all GPUs).
 * @node: user node of the GPU that uses it (the owner for VRAM; for
 *	system memory it picks the GPU the BO belongs to).
 * @size: bytes, rounded up to the page size.
 * @align: VA alignment, a power of two (0 = page).
 * @flags: enum kmt_mem_flags.
 * @addr: out, the address (CPU and GPU see the same one).
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
 * kmt_render_fd() - the render-node fd @ctx acquired @node's GPU VM with
 * (-1 for CPU nodes or before open). Owned by the context: never close it.
 */
int kmt_render_fd(HsaKFDContext *ctx, uint32_t node);

#endif /* KMT_PRIV_H */
