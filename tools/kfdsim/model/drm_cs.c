/* SPDX-License-Identifier: MIT */
/*
 * Command submission on the render node (amdgpu_bo_list.c, amdgpu_cs.c):
 * BO lists, CS and WAIT_CS.
 *
 * A submission is checked as amdgpu_cs_ioctl() checks it, in its order
 * and with its errnos, then runs at once: its IBs execute against the
 * render file's VM (drm_cs_exec.c) and its fence is signaled before the
 * ioctl returns. So WAIT_CS always finds the work done. Each context
 * entity (IP type, ring) numbers its submissions from 1, and keeps the
 * last AMDGPU_SCHED_JOBS fences; older ones count as signaled long ago.
 * Device lock held throughout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_priv.h"

/* amdgpu's default amdgpu_sched_jobs: the fences a context entity keeps. */
#define CS_SCHED_JOBS		32u
/* AMDGPU_BO_LIST_MAX_PRIORITY */
#define BO_LIST_MAX_PRIORITY	32u
/* AMDGPU_HW_IP_NUM */
#define HW_IP_NUM		10u
/* AMDGPU_CS_GANG_SIZE: entities one submission may reach. */
#define CS_GANG_SIZE		4u
/* Chunks a submission may carry before the copy fails for memory. */
#define CS_MAX_CHUNKS		4096u

/* amdgpu_ctx_num_entities[]: the rings of each IP a context may name. */
static const uint8_t ctx_num_entities[HW_IP_NUM] = {
	[KFD_DRM_AMDGPU_HW_IP_GFX] = 1,
	[KFD_DRM_AMDGPU_HW_IP_COMPUTE] = 4,
	[KFD_DRM_AMDGPU_HW_IP_DMA] = 2,
	[KFD_DRM_AMDGPU_HW_IP_UVD] = 1,
	[KFD_DRM_AMDGPU_HW_IP_VCE] = 1,
	[KFD_DRM_AMDGPU_HW_IP_UVD_ENC] = 1,
	[KFD_DRM_AMDGPU_HW_IP_VCN_DEC] = 1,
	[KFD_DRM_AMDGPU_HW_IP_VCN_ENC] = 1,
	[KFD_DRM_AMDGPU_HW_IP_VCN_JPEG] = 1,
	[KFD_DRM_AMDGPU_HW_IP_VPE] = 1,
};

/* One context entity: an (IP type, ring) the context submitted to. */
struct ksim_cs_entity {
	uint32_t ip, ring;
	uint64_t sequence;			/* the next submission's number */
	int32_t error[CS_SCHED_JOBS];		/* fence errors, by seq % jobs */
};

/* A context's entities, made on first use (ctx->cs). */
struct ksim_cs_ctx {
	unsigned int n;
	struct ksim_cs_entity ents[HW_IP_NUM * 4];
};

/* A BO list (amdgpu_bo_list): references on its BOs. */
struct ksim_bo_list {
	uint32_t n;
	struct ksim_bo *bos[];
};

static struct ksim_drm_ctx *
ctx_get(struct ksim_file *f, uint32_t id)
{
	if (!id || id >= f->ctxs_cap || !f->ctxs[id].used)
		return NULL;
	return &f->ctxs[id];
}

/*
 * amdgpu_ctx_get_entity(), then amdgpu_cs_job_idx()'s run-queue check:
 * an IP the GPU lacks has no scheduler, so no run queue (EINVAL).
 */
static int
entity_get(struct ksim_file *f, struct ksim_drm_ctx *c, uint32_t ip,
	   uint32_t instance, uint32_t ring, struct ksim_cs_entity **out)
{
	struct ksim_cs_ctx *cs;
	struct ksim_cs_entity *e;

	if (ip >= HW_IP_NUM || instance || ring >= ctx_num_entities[ip])
		return -EINVAL;
	if (!ksim_drm_ip_rings(&f->dev->gpus[f->gpu], ip))
		return -EINVAL;
	if (!c->cs) {
		c->cs = calloc(1, sizeof(*c->cs));
		if (!c->cs)
			return -ENOMEM;
	}
	cs = c->cs;
	for (unsigned int i = 0; i < cs->n; i++) {
		if (cs->ents[i].ip == ip && cs->ents[i].ring == ring) {
			*out = &cs->ents[i];
			return 0;
		}
	}
	e = &cs->ents[cs->n++];
	e->ip = ip;
	e->ring = ring;
	e->sequence = 1;
	*out = e;
	return 0;
}

/*
 * amdgpu_ctx_get_fence(): ~0 is the latest; a number not yet handed out
 * is EINVAL; one older than the kept fences is long signaled (0 here,
 * as is a kept one without error). Return: 0, the fence's error, or
 * -EINVAL.
 */
static int
fence_get(const struct ksim_cs_entity *e, uint64_t seq, int *error)
{
	if (seq == ~0ULL)
		seq = e->sequence - 1;
	if (seq >= e->sequence)
		return -EINVAL;
	*error = 0;
	if (seq + CS_SCHED_JOBS >= e->sequence && seq)
		*error = e->error[seq % CS_SCHED_JOBS];
	return 0;
}

void
ksim_drm_cs_ctx_fini(struct ksim_drm_ctx *c)
{
	free(c->cs);
	c->cs = NULL;
}

static void
bo_list_free(struct ksim_device *dev, struct ksim_bo_list *l)
{
	if (!l)
		return;
	for (uint32_t i = 0; i < l->n; i++)
		ksim_bo_put(dev, l->bos[i]);
	free(l);
}

/*
 * amdgpu_bo_create_list_entry_array(): bo_number entries of bo_info_size
 * bytes, each read at the kernel's size (shorter ones zero-extended).
 */
static int
list_entries(const struct kfd_drm_amdgpu_bo_list_in *in,
	     struct kfd_drm_amdgpu_bo_list_entry **out)
{
	const uint32_t esz = sizeof(struct kfd_drm_amdgpu_bo_list_entry);
	struct kfd_drm_amdgpu_bo_list_entry *info;
	uint32_t bytes = in->bo_info_size < esz ? in->bo_info_size : esz;

	info = calloc(in->bo_number ? in->bo_number : 1, esz);
	if (!info)
		return -ENOMEM;
	for (uint32_t i = 0; i < in->bo_number; i++) {
		if (ksim_copy_from_user(&info[i], in->bo_info_ptr +
					(uint64_t)i * in->bo_info_size, bytes)) {
			free(info);
			return -EFAULT;
		}
	}
	*out = info;
	return 0;
}

/* amdgpu_bo_list_create(): a reference on each BO; an unknown handle is ENOENT. */
static int
list_create(struct ksim_file *f, const struct kfd_drm_amdgpu_bo_list_entry *info,
	    uint32_t n, struct ksim_bo_list **out)
{
	struct ksim_bo_list *l = calloc(1, sizeof(*l) + (size_t)n * sizeof(l->bos[0]));

	if (!l)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct ksim_bo *bo = ksim_drm_handle_bo(f, info[i].bo_handle);

		if (!bo) {
			bo_list_free(f->dev, l);
			return -ENOENT;
		}
		ksim_bo_get(bo);
		l->bos[l->n++] = bo;
	}
	*out = l;
	return 0;
}

/* idr_alloc(&bo_list_handles, list, 1, 0): the lowest free id from 1. */
static int
list_insert(struct ksim_file *f, struct ksim_bo_list *l, uint32_t *id)
{
	unsigned int i;

	for (i = 1; i < f->bo_lists_cap; i++)
		if (!f->bo_lists[i])
			break;
	if (i >= f->bo_lists_cap) {
		unsigned int cap = f->bo_lists_cap ? f->bo_lists_cap * 2 : 16;
		struct ksim_bo_list **n = realloc(f->bo_lists, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + f->bo_lists_cap, 0, (cap - f->bo_lists_cap) * sizeof(*n));
		f->bo_lists = n;
		f->bo_lists_cap = cap;
		if (!i)
			i = 1;
	}
	f->bo_lists[i] = l;
	*id = i;
	return 0;
}

static struct ksim_bo_list *
list_lookup(struct ksim_file *f, uint32_t id)
{
	return id && id < f->bo_lists_cap ? f->bo_lists[id] : NULL;
}

int
ksim_drm_bo_list(struct ksim_file *f, void *data)
{
	union kfd_drm_amdgpu_bo_list *args = data;
	struct kfd_drm_amdgpu_bo_list_entry *info = NULL;
	uint32_t handle = args->in.list_handle;
	struct ksim_bo_list *l = NULL;
	int r;

	r = list_entries(&args->in, &info);
	if (r)
		return r;
	switch (args->in.operation) {
	case KFD_DRM_AMDGPU_BO_LIST_OP_CREATE:
		r = list_create(f, info, args->in.bo_number, &l);
		if (!r)
			r = list_insert(f, l, &handle);
		break;
	case KFD_DRM_AMDGPU_BO_LIST_OP_DESTROY:
		/* amdgpu_bo_list_destroy(): an unknown handle is no error. */
		if (list_lookup(f, handle)) {
			bo_list_free(f->dev, f->bo_lists[handle]);
			f->bo_lists[handle] = NULL;
		}
		handle = 0;
		break;
	case KFD_DRM_AMDGPU_BO_LIST_OP_UPDATE:
		r = list_create(f, info, args->in.bo_number, &l);
		if (r)
			break;
		/* idr_replace() of an id never handed out: ENOENT. */
		if (!list_lookup(f, handle)) {
			r = -ENOENT;
			break;
		}
		bo_list_free(f->dev, f->bo_lists[handle]);
		f->bo_lists[handle] = l;
		l = NULL;
		break;
	default:
		r = -EINVAL;
		break;
	}
	free(info);
	if (r) {
		bo_list_free(f->dev, l);
		return r;
	}
	memset(args, 0, sizeof(*args));
	args->out.list_handle = handle;
	return 0;
}

void
ksim_drm_cs_release(struct ksim_file *f)
{
	for (unsigned int i = 1; i < f->bo_lists_cap; i++)
		bo_list_free(f->dev, f->bo_lists[i]);
	free(f->bo_lists);
	f->bo_lists = NULL;
	f->bo_lists_cap = 0;
}

/* One chunk as amdgpu_cs_pass1() copied it in. */
struct cs_chunk {
	uint32_t id, length_dw;
	void *kdata;
};

/* What pass 1 learned: the chunks, the IBs, the user fence, the BO list. */
struct cs_parser {
	struct ksim_file *f;
	struct ksim_drm_ctx *ctx;
	struct cs_chunk *chunks;
	uint32_t nchunks;
	struct ksim_cs_entity *ents[CS_GANG_SIZE];
	unsigned int gang;
	unsigned int leader;			/* the last IB's job */
	struct ksim_bo *uf_bo;			/* the FENCE chunk's page */
	uint32_t uf_offset;
	struct ksim_bo_list *chunk_list;	/* a BO_HANDLES chunk's list */
};

static void
parser_fini(struct cs_parser *p)
{
	for (uint32_t i = 0; i < p->nchunks; i++)
		free(p->chunks[i].kdata);
	free(p->chunks);
	bo_list_free(p->f->dev, p->chunk_list);
}

/* amdgpu_cs_job_idx(): the entity joins the gang (at most four). */
static int
job_idx(struct cs_parser *p, const struct kfd_drm_amdgpu_cs_chunk_ib *ib)
{
	struct ksim_cs_entity *e;
	unsigned int i;
	int r = entity_get(p->f, p->ctx, ib->ip_type, ib->ip_instance, ib->ring, &e);

	if (r)
		return r;
	for (i = 0; i < p->gang; i++)
		if (p->ents[i] == e)
			return (int)i;
	if (i == CS_GANG_SIZE)
		return -EINVAL;
	p->ents[p->gang++] = e;
	return (int)i;
}

/* amdgpu_cs_p1_user_fence(): a GEM BO of one page, not a userptr. */
static int
p1_user_fence(struct cs_parser *p, const struct kfd_drm_amdgpu_cs_chunk_fence *d)
{
	struct ksim_bo *bo = ksim_drm_handle_bo(p->f, d->handle);

	if (!bo)
		return -EINVAL;
	if (bo->size != KSIM_PAGE_SIZE || d->offset > bo->size - 8 ||
	    bo->domain == KSIM_DOM_USERPTR)
		return -EINVAL;
	p->uf_bo = bo;
	p->uf_offset = d->offset;
	return 0;
}

/* amdgpu_cs_pass1(): copy the chunks in and check each. */
static int
pass1(struct cs_parser *p, const struct kfd_drm_amdgpu_cs_in *in)
{
	uint64_t *addrs;
	int r = 0;

	if (in->num_chunks > CS_MAX_CHUNKS)
		return -ENOMEM;
	addrs = calloc(in->num_chunks, sizeof(*addrs));
	p->chunks = calloc(in->num_chunks, sizeof(*p->chunks));
	if (!addrs || !p->chunks) {
		free(addrs);
		return -ENOMEM;
	}
	if (ksim_copy_from_user(addrs, in->chunks, in->num_chunks * sizeof(*addrs))) {
		free(addrs);
		return -EFAULT;
	}
	for (uint32_t i = 0; i < in->num_chunks && !r; i++) {
		struct kfd_drm_amdgpu_cs_chunk uc;
		struct cs_chunk *c = &p->chunks[i];
		uint64_t size;

		if (ksim_copy_from_user(&uc, addrs[i], sizeof(uc))) {
			r = -EFAULT;
			break;
		}
		size = (uint64_t)uc.length_dw * 4;
		c->id = uc.chunk_id;
		c->length_dw = uc.length_dw;
		c->kdata = malloc(size ? size : 1);
		if (!c->kdata) {
			r = -ENOMEM;
			break;
		}
		p->nchunks = i + 1;
		if (ksim_copy_from_user(c->kdata, uc.chunk_data, size)) {
			r = -EFAULT;
			break;
		}
		r = -EINVAL;
		switch (c->id) {
		case KFD_DRM_AMDGPU_CHUNK_ID_IB:
			if (size < sizeof(struct kfd_drm_amdgpu_cs_chunk_ib))
				break;
			r = job_idx(p, c->kdata);
			if (r >= 0) {
				p->leader = (unsigned int)r;
				r = 0;
			}
			break;
		case KFD_DRM_AMDGPU_CHUNK_ID_FENCE:
			if (size < sizeof(struct kfd_drm_amdgpu_cs_chunk_fence))
				break;
			r = p1_user_fence(p, c->kdata);
			break;
		case KFD_DRM_AMDGPU_CHUNK_ID_BO_HANDLES: {
			struct kfd_drm_amdgpu_bo_list_entry *info;

			if (size < sizeof(struct kfd_drm_amdgpu_bo_list_in) || p->chunk_list)
				break;
			r = list_entries(c->kdata, &info);
			if (r)
				break;
			r = list_create(p->f, info,
					((struct kfd_drm_amdgpu_bo_list_in *)c->kdata)->bo_number,
					&p->chunk_list);
			free(info);
			break;
		}
		case KFD_DRM_AMDGPU_CHUNK_ID_DEPENDENCIES:
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_IN:
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_OUT:
		case KFD_DRM_AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES:
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT:
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL:
		case KFD_DRM_AMDGPU_CHUNK_ID_CP_GFX_SHADOW:
			r = 0;
			break;
		}
	}
	free(addrs);
	if (!r && !p->gang)
		r = -EINVAL;
	return r;
}

/*
 * amdgpu_cs_pass2(): the dependencies must name submissions that exist.
 * kfdsim has no syncobjs, so any handle a syncobj chunk names is unknown
 * (drm_syncobj_find_fence(): ENOENT; drm_syncobj_find() for an out
 * syncobj: EINVAL).
 */
static int
pass2(struct cs_parser *p)
{
	for (uint32_t i = 0; i < p->nchunks; i++) {
		const struct cs_chunk *c = &p->chunks[i];
		uint32_t bytes = c->length_dw * 4;

		switch (c->id) {
		case KFD_DRM_AMDGPU_CHUNK_ID_DEPENDENCIES:
		case KFD_DRM_AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES: {
			const struct kfd_drm_amdgpu_cs_chunk_dep *d = c->kdata;
			uint32_t n = bytes / sizeof(*d);

			for (uint32_t k = 0; k < n; k++) {
				struct ksim_drm_ctx *dc = ctx_get(p->f, d[k].ctx_id);
				struct ksim_cs_entity *e;
				int err, r;

				if (!dc)
					return -EINVAL;
				r = entity_get(p->f, dc, d[k].ip_type, d[k].ip_instance,
					       d[k].ring, &e);
				if (!r)
					r = fence_get(e, d[k].handle, &err);
				if (r)
					return r;
			}
			break;
		}
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_IN:
			if (bytes >= 4)
				return -ENOENT;
			break;
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT:
			if (bytes >= 16)
				return -ENOENT;
			break;
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_OUT:
			if (bytes >= 4)
				return -EINVAL;
			break;
		case KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL:
			if (bytes >= 16)
				return -EINVAL;
			break;
		}
	}
	return 0;
}

int
ksim_drm_cs(struct ksim_file *f, void *data)
{
	union kfd_drm_amdgpu_cs *args = data;
	struct cs_parser p;
	uint64_t seq = 0;
	int r, err = 0;

	if (!args->in.num_chunks)
		return -EINVAL;
	memset(&p, 0, sizeof(p));
	p.f = f;
	p.ctx = ctx_get(f, args->in.ctx_id);
	if (!p.ctx)
		return -EINVAL;
	r = pass1(&p, &args->in);
	if (!r)
		r = pass2(&p);
	/* amdgpu_cs_parser_bos(): a list by handle or by chunk, not both. */
	if (!r && args->in.bo_list_handle) {
		if (p.chunk_list)
			r = -EINVAL;
		else if (!list_lookup(f, args->in.bo_list_handle))
			r = -ENOENT;
	}
	if (r) {
		parser_fini(&p);
		return r;
	}
	/* The gang runs now: its IBs in chunk order, each on its ring. */
	for (uint32_t i = 0; i < p.nchunks && !err; i++) {
		const struct kfd_drm_amdgpu_cs_chunk_ib *ib = p.chunks[i].kdata;

		if (p.chunks[i].id == KFD_DRM_AMDGPU_CHUNK_ID_IB)
			err = ksim_drm_cs_exec(f, ib->ip_type, ib->va_start, ib->ib_bytes / 4);
	}
	/* Every job of the gang gets a number on its entity; the leader's
	 * (the last IB's job) is the submission's. */
	for (unsigned int g = 0; g < p.gang; g++) {
		struct ksim_cs_entity *e = p.ents[g];
		uint64_t s = e->sequence++;

		e->error[s % CS_SCHED_JOBS] = err;
		if (g == p.leader)
			seq = s;
	}
	if (p.uf_bo)
		ksim_drm_bo_write(f->dev, p.uf_bo, p.uf_offset, &seq, sizeof(seq));
	parser_fini(&p);
	memset(args, 0, sizeof(*args));
	args->out.handle = seq;
	return 0;
}

int
ksim_drm_wait_cs(struct ksim_file *f, void *data)
{
	union kfd_drm_amdgpu_wait_cs *w = data;
	struct ksim_drm_ctx *c = ctx_get(f, w->in.ctx_id);
	struct ksim_cs_entity *e;
	int r, err;

	if (!c)
		return -EINVAL;
	r = entity_get(f, c, w->in.ip_type, w->in.ip_instance, w->in.ring, &e);
	if (!r)
		r = fence_get(e, w->in.handle, &err);
	if (r)
		return r;
	/* dma_fence_wait_timeout(): the fence's error once it signaled. */
	if (err)
		return err;
	memset(w, 0, sizeof(*w));
	w->out.status = 0;		/* done: every submission ran at once */
	return 0;
}
