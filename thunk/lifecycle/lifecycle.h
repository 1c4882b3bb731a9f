/* SPDX-License-Identifier: MIT */
/*
 * lifecycle/lifecycle.h - what ctx.c, openclose.c and fork.c share: the
 * open and close sequences of a context, the list of live contexts and
 * fork handling. The sequences compose topology/ and memory/ (and finish
 * the other groups' sub-contexts through their fini hooks), so this group
 * sits above them; nothing includes this header from another group.
 */
#ifndef KMT_LIFECYCLE_H
#define KMT_LIFECYCLE_H

#include "core/core.h"

/*
 * kmt_ctx_open() - bring a closed context up: open /dev/kfd, check the
 * interface version, (secondary) CREATE_PROCESS, topology, render nodes,
 * apertures. On failure everything done so far is undone.
 * Called with ctx->lock held.
 */
HSAKMT_STATUS kmt_ctx_open(HsaKFDContext *ctx);

/*
 * kmt_ctx_close() - release everything of an open context (areas, memory,
 * render nodes, the file). @forked: in a forked child (no ioctls).
 * Called with ctx->lock held.
 */
void kmt_ctx_close(HsaKFDContext *ctx, bool forked);

/* The list of live contexts, for marking them after fork. */
void kmt_ctx_list_add(HsaKFDContext *ctx);
void kmt_ctx_list_del(HsaKFDContext *ctx);

/* The atfork handlers' work on the contexts (see ctx.c). */
void kmt_ctx_fork_prepare(void);
void kmt_ctx_fork_parent(void);
void kmt_ctx_fork_child(void);

/*
 * kmt_fork_setup() - install the pthread_atfork handlers (once). Called
 * after the first successful open, so that the handlers of libraries the
 * open reached while holding ctx->lock (kfdsim, the capture library, which
 * register theirs on their first use) are installed before ours: prepare
 * handlers run in reverse order, so ours take ctx->lock first, the same
 * order as an open, and a fork racing an open cannot deadlock.
 */
void kmt_fork_setup(void);

/*
 * kmt_fork_cleanup() - in a forked child, drop what @ctx inherited so it
 * can be opened afresh. Called with ctx->lock held.
 */
void kmt_fork_cleanup(HsaKFDContext *ctx);

#endif /* KMT_LIFECYCLE_H */
