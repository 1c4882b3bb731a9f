/* SPDX-License-Identifier: MIT */
/*
 * AMDGPU_CTX on the render node (amdgpu_ctx.c): submission contexts, ids
 * from 1 per file (an idr below AMDGPU_VM_MAX_NUM_CTX), their reset state
 * and the GPU's stable pstate.
 *
 * No simulated GPU is ever reset and none loses VRAM or counts RAS
 * errors, so QUERY_STATE always answers NO_RESET and QUERY_STATE2 no
 * flag; hangs is 0 on every kernel. The stable pstate is the GPU's
 * forced performance level: one context at a time may hold it
 * (pm.stable_pstate_ctx), and each context puts back, when it goes, the
 * level it found when it was made. Device lock held.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/capability.h>

#include "ksim_priv.h"

/* amdgpu's AMDGPU_VM_MAX_NUM_CTX: ids are 1 .. 4095. */
#define CTX_ID_END	4096u

static struct ksim_drm_ctx *
ctx_lookup(struct ksim_file *f, uint32_t id)
{
	if (!id || id >= f->ctxs_cap || !f->ctxs[id].used)
		return NULL;
	return &f->ctxs[id];
}

/* amdgpu_ctx_priority_is_valid(): UNSET and unnamed values are not. */
static int
priority_valid(int32_t prio)
{
	switch (prio) {
	case KFD_DRM_AMDGPU_CTX_PRIORITY_VERY_LOW:
	case KFD_DRM_AMDGPU_CTX_PRIORITY_LOW:
	case KFD_DRM_AMDGPU_CTX_PRIORITY_NORMAL:
	case KFD_DRM_AMDGPU_CTX_PRIORITY_HIGH:
	case KFD_DRM_AMDGPU_CTX_PRIORITY_VERY_HIGH:
		return 1;
	default:
		return 0;
	}
}

/*
 * amdgpu_ctx_set_stable_pstate(): another context holding the level makes
 * it EBUSY; the level the GPU has already is kept (and its holder too).
 */
static int
set_pstate(struct ksim_file *f, uint32_t id, uint32_t level)
{
	struct ksim_gpu_dev *g = &f->dev->gpus[f->gpu];

	if (g->pstate_file && (g->pstate_file != f || g->pstate_ctx != id))
		return -EBUSY;
	if (level == g->stable_pstate)
		return 0;
	g->stable_pstate = level;
	g->pstate_file = level == KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_NONE ? NULL : f;
	g->pstate_ctx = id;
	return 0;
}

/*
 * amdgpu_ctx_alloc(): the lowest free id. *@id is written only once one
 * was taken: 0 when the context then fails (a priority it may not have).
 */
static int
ctx_alloc(struct ksim_file *f, int32_t prio, uint32_t *id)
{
	struct ksim_gpu_dev *g = &f->dev->gpus[f->gpu];
	struct ksim_drm_ctx *c;
	unsigned int i;

	for (i = 1; i < f->ctxs_cap; i++)
		if (!f->ctxs[i].used)
			break;
	if (i >= CTX_ID_END)
		return -ENOSPC;
	if (i >= f->ctxs_cap) {
		unsigned int cap = f->ctxs_cap ? f->ctxs_cap * 2 : 16;
		struct ksim_drm_ctx *n;

		if (cap > CTX_ID_END)
			cap = CTX_ID_END;
		n = realloc(f->ctxs, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + f->ctxs_cap, 0, (cap - f->ctxs_cap) * sizeof(*n));
		f->ctxs = n;
		f->ctxs_cap = cap;
	}
	*id = i;
	/* amdgpu_ctx_priority_permit(): a render client is never DRM
	 * master, so above NORMAL takes CAP_SYS_NICE. */
	if (prio > KFD_DRM_AMDGPU_CTX_PRIORITY_NORMAL && !ksim_capable(CAP_SYS_NICE)) {
		*id = 0;
		return -EACCES;
	}
	c = &f->ctxs[i];
	memset(c, 0, sizeof(*c));
	c->used = 1;
	c->priority = prio;
	c->stable_pstate = g->pstate_file ?
			   g->pstate_file->ctxs[g->pstate_ctx].stable_pstate :
			   g->stable_pstate;
	return 0;
}

/* amdgpu_ctx_free(), then amdgpu_ctx_fini()'s pstate restore. */
static int
ctx_free(struct ksim_file *f, uint32_t id)
{
	struct ksim_drm_ctx *c = ctx_lookup(f, id);

	if (!c)
		return -EINVAL;
	set_pstate(f, id, c->stable_pstate);	/* EBUSY is ignored there */
	ksim_drm_cs_ctx_fini(c);
	c->used = 0;
	return 0;
}

int
ksim_drm_ctx(struct ksim_file *f, void *data)
{
	union kfd_drm_amdgpu_ctx *args = data;
	struct ksim_gpu_dev *g = &f->dev->gpus[f->gpu];
	uint32_t op = args->in.op, id = args->in.ctx_id, flags = args->in.flags;
	uint32_t level;
	int32_t prio = args->in.priority;
	int r;

	/* Garbage priorities are accepted as NORMAL, for old clients. */
	if (!priority_valid(prio))
		prio = KFD_DRM_AMDGPU_CTX_PRIORITY_NORMAL;
	/* The output overlays the input: everything is read first. */
	switch (op) {
	case KFD_DRM_AMDGPU_CTX_OP_ALLOC_CTX:
		if (flags)
			return -EINVAL;
		r = ctx_alloc(f, prio, &id);
		args->out.alloc.ctx_id = id;
		return r;
	case KFD_DRM_AMDGPU_CTX_OP_FREE_CTX:
		if (flags)
			return -EINVAL;
		return ctx_free(f, id);
	case KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE:
	case KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE2:
		if (flags)
			return -EINVAL;
		if (!ctx_lookup(f, id))
			return -EINVAL;
		/* QUERY_STATE writes all three; QUERY_STATE2 leaves the
		 * reset status as it found it (in.ctx_id's bytes). */
		args->out.state.flags = 0;
		args->out.state.hangs = 0;
		if (op == KFD_DRM_AMDGPU_CTX_OP_QUERY_STATE)
			args->out.state.reset_status = KFD_DRM_AMDGPU_CTX_NO_RESET;
		return 0;
	case KFD_DRM_AMDGPU_CTX_OP_GET_STABLE_PSTATE:
		if (flags)
			return -EINVAL;
		if (!ctx_lookup(f, id))
			return -EINVAL;
		args->out.pstate.flags = g->stable_pstate;
		return 0;
	case KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE:
		if (flags & ~KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_FLAGS_MASK)
			return -EINVAL;
		level = flags & KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_FLAGS_MASK;
		if (level > KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_PEAK)
			return -EINVAL;
		if (!ctx_lookup(f, id))
			return -EINVAL;
		return set_pstate(f, id, level);
	default:
		return -EINVAL;
	}
}

void
ksim_drm_ctx_release(struct ksim_file *f)
{
	struct ksim_gpu_dev *g = &f->dev->gpus[f->gpu];

	for (uint32_t id = 1; id < f->ctxs_cap; id++)
		if (f->ctxs[id].used)
			ctx_free(f, id);
	/* A level put back other than NONE stays, held by no context. */
	if (g->pstate_file == f)
		g->pstate_file = NULL;
	free(f->ctxs);
	f->ctxs = NULL;
	f->ctxs_cap = 0;
}
