/* SPDX-License-Identifier: MIT */
/*
 * Context life cycle, shared by ctx.c, openclose.c and fork.c, and the
 * set-up/tear-down entry points of the areas a context is built from.
 */
#ifndef KMT_CTX_H
#define KMT_CTX_H

#include "kmt_priv.h"

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

/* Set-up and tear-down of the areas (topology.c, render.c, fmm_aperture.c). */
HSAKMT_STATUS kmt_topo_open(HsaKFDContext *ctx);
void kmt_topo_close(HsaKFDContext *ctx);
HSAKMT_STATUS kmt_render_open(HsaKFDContext *ctx);
void kmt_render_close(HsaKFDContext *ctx, bool forked);
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

#endif /* KMT_CTX_H */
