/* SPDX-License-Identifier: MIT */
/*
 * core/core.h - the bottom of libhsakmt: what every group of thunk/ uses.
 *
 * thunk/ is split into groups, one directory each, whose includes form a
 * DAG: docs/thunk.md has the table of which group includes which, and
 * tests/thunk/check_groups.py holds the tree to it. core includes none.
 *
 * A group offers other groups one header, named after it (this one,
 * topology/topology.h, memory/memory.h, queues/queues.h); everything else
 * in a group's directory is private to it. Include them by their path
 * under thunk/ ("memory/memory.h"), never by "../".
 *
 * This header holds the context aggregate, the ioctl helper, status
 * mapping, environment knobs and logging. It names the other groups'
 * sub-context structs only as opaque pointers, and calls none of them.
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
 *  3. fmm lock		internal to memory/; taken and released inside
 *			the kmt_mem_* helpers only.
 *  4. topology lock	internal to topology/ (a rwlock); taken and released
 *			inside the kmt_topo_* accessors only.
 * So an area may call kmt_topo_*() and kmt_mem_*() while holding its own
 * lock, and the sub-context fini hooks run with ctx->lock held. No helper
 * of a lower group calls back into a higher one.
 */
#ifndef KMT_CORE_H
#define KMT_CORE_H

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

/* State owned by the groups above core; each is opaque here. */
struct kmt_topology;		/* topology/ */
struct kmt_fmm;			/* memory/ */
struct kmt_render;		/* topology/render.c */
struct kmt_queue_ctx;		/* queues/ */
struct kmt_event_ctx;		/* events/ */
struct kmt_debug_ctx;		/* debug/ */
struct kmt_perf_ctx;		/* perf/ */
struct kmt_svm_ctx;		/* memory/svm.c */

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
 * kmt_drm_ioctl() - issue a DRM ioctl on a render-node file through the
 * dispatch point (EINTR and EAGAIN retried, as drmIoctl() does).
 * Return: the ioctl result (-1 with errno set on failure).
 */
int kmt_drm_ioctl(int fd, unsigned long request, void *arg);

/*
 * kmt_status_from_errno() - the finest status for a kernel errno:
 * ENOMEM/ENOSPC -> NO_MEMORY, EINVAL -> INVALID_PARAMETER, EBUSY/EEXIST ->
 * UNAVAILABLE, EPERM/EACCES/ENOTTY/EOPNOTSUPP -> NOT_SUPPORTED, EFAULT ->
 * INVALID_PARAMETER, EBADF -> KERNEL_IO_CHANNEL_NOT_OPENED, ETIME ->
 * WAIT_TIMEOUT, anything else -> ERROR. Where AMD's library collapses
 * an errno to ERROR, callers return ERROR themselves to stay compatible.
 */
HSAKMT_STATUS kmt_status_from_errno(int err);

#endif /* KMT_CORE_H */
