/* SPDX-License-Identifier: MIT */
/*
 * What each ioctl contributes to the object model. Only calls that
 * succeeded at capture create or end objects; every call (failed or not)
 * tells which GPUs the trace uses.
 */
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "replay_model.h"

/*
 * A gpu_id the trace uses. A failed call may name a GPU that never existed
 * (a probe, an error path): that only counts when the topology has it.
 */
static void
note_gpu(struct rp_model *m, uint32_t gpu_id, int failed)
{
	if (failed && m->have_topo && !kt_topo_gpu(&m->topo, gpu_id))
		return;
	rp_model_note_gpu(m, gpu_id);
}

/* The gpu_ids an ioctl names: GPU_ID fields, handles, and gpu id arrays. */
static void
note_gpus(struct rp_model *m, const struct rp_rows *r,
	  const struct kfd_ioctl_desc *d, const struct kt_ioctl_rec *io)
{
	const struct kfd_struct_desc *sd = d->args;
	const struct rp_req_plan *p = rp_req_plan(r, d);
	int failed = io->ret < 0;
	unsigned int i;
	uint16_t b;

	if (!sd || !io->arg_before)
		return;
	/* The plan lists the input fields that name GPUs. */
	for (i = 0; i < p->ngpu; i++) {
		const struct kfd_field *f = &sd->fields[p->gpu[i]];
		uint64_t v;

		if (!kfd_field_present(sd, f, io->arg_before, io->arg_size) ||
		    kfd_field_load(f, io->arg_before, io->arg_size, &v) < 0)
			continue;
		note_gpu(m, f->role == KFD_ROLE_HANDLE ? (uint32_t)(v >> 32) :
			 (uint32_t)v, failed);
	}
	for (b = 0; b < io->nbufs; b++) {
		const struct kt_buf_image *bi = &io->bufs[b];
		const struct kfd_indirect *ind;
		const struct kfd_struct_desc *el;
		uint32_t off;

		if (bi->index >= d->nbufs || !bi->before)
			continue;
		ind = &d->bufs[bi->index];
		el = ind->elem;
		if (!el || !el->size || !(ind->dir & KFD_DIR_IN))
			continue;
		for (i = 0; i < el->nfields; i++) {
			const struct kfd_field *f = &el->fields[i];

			if (f->role != KFD_ROLE_GPU_ID || !(f->dir & KFD_DIR_IN))
				continue;
			for (off = 0; off + el->size <= bi->len_before &&
			     off < 64 * el->size; off += el->size) {
				uint64_t v;

				if (kfd_field_get(f, bi->before + off, el->size, &v) == 0)
					note_gpu(m, (uint32_t)v, failed);
			}
		}
	}
}

static int32_t
scope_proc(struct rp_model *m, int32_t fd)
{
	int32_t i = rp_model_fd(m, fd);
	struct rp_m_fd *e;

	if (i < 0)
		return 0;
	e = RP_AT(&m->fds, struct rp_m_fd, i);
	if (e->ofd < 0)
		return 0;
	return RP_AT(&m->ofds, struct rp_m_ofd, e->ofd)->proc;
}

static int32_t
fd_ofd(struct rp_model *m, int32_t fd)
{
	int32_t i = rp_model_fd(m, fd);

	return i < 0 ? -1 : RP_AT(&m->fds, struct rp_m_fd, i)->ofd;
}

static int32_t
bo_find(struct rp_model *m, int32_t proc, uint64_t handle)
{
	uint64_t v;

	return rp_map_get(&m->idx, RP_K_BO, (unsigned int)proc, handle, &v) ?
		(int32_t)v : -1;
}

static struct rp_m_bo *
bo_new(struct rp_model *m, int32_t proc, uint64_t handle, uint64_t seq)
{
	struct rp_m_bo *b = rp_vec_push(&m->bos);

	if (!b) {
		m->overflow++;
		return NULL;
	}
	b->proc = proc;
	b->handle = handle;
	b->gpu_id = (uint32_t)(handle >> 32);
	b->alloc_seq = seq;
	b->free_seq = UINT64_MAX;
	b->dmabuf = -1;
	rp_map_put(&m->idx, RP_K_BO, (unsigned int)proc, handle, m->bos.n - 1);
	return b;
}

/* The dmabuf a captured fd refers to, creating an "external" one. */
static int32_t
dmabuf_for_fd(struct rp_model *m, int32_t fd, uint64_t seq)
{
	struct rp_m_dmabuf *d;
	uint64_t v;

	if (rp_map_get(&m->idx, RP_K_MDMABUF, 0, (uint32_t)fd, &v))
		return (int32_t)v;
	d = rp_vec_push(&m->dmabufs);
	if (!d) {
		m->overflow++;
		return -1;
	}
	d->fd = fd;
	d->origin = RP_DMABUF_EXTERNAL;
	d->source = -1;
	d->seq = seq;
	rp_map_put(&m->idx, RP_K_MDMABUF, 0, (uint32_t)fd, m->dmabufs.n - 1);
	return (int32_t)(m->dmabufs.n - 1);
}

static int32_t
dmabuf_new(struct rp_model *m, int32_t fd, uint8_t origin, int32_t source,
	   uint64_t seq)
{
	struct rp_m_dmabuf *d = rp_vec_push(&m->dmabufs);

	if (!d) {
		m->overflow++;
		return -1;
	}
	d->fd = fd;
	d->origin = origin;
	d->source = source;
	d->seq = seq;
	rp_map_put(&m->idx, RP_K_MDMABUF, 0, (uint32_t)fd, m->dmabufs.n - 1);
	return (int32_t)(m->dmabufs.n - 1);
}

/* A new fd an ioctl created (dma-buf, SMI): its number's old life ends. */
static void
ioctl_fd(struct rp_model *m, int32_t fd, uint8_t origin, uint64_t seq)
{
	struct rp_m_fd *e;
	int32_t i;

	if (fd < 0 || fd >= RP_MAX_FD)
		return;
	/* Closes of non-device fds are not traced: a reuse is a close. */
	rp_map_del(&m->idx, RP_K_MDMABUF, 0, (uint32_t)fd);
	i = rp_model_fd(m, fd);
	if (i >= 0) {
		e = RP_AT(&m->fds, struct rp_m_fd, i);
		e->close_seq = seq;
		m->fd_now[fd] = -1;
	}
	e = rp_vec_push(&m->fds);
	if (!e) {
		m->overflow++;
		return;
	}
	e->fd = fd;
	e->origin = origin;
	e->ofd = -1;
	e->open_seq = seq;
	e->close_seq = UINT64_MAX;
	if (fd < m->fd_now_len)
		m->fd_now[fd] = (int32_t)(m->fds.n - 1);
}

/*
 * Attribute @attr (enum kfd_attr) of the object row @d creates or ends,
 * from argument bytes @p; 0 when the row marks no such field. Objects are
 * modeled from the schema's columns, so a row that creates one is modeled
 * like the others of its kind.
 */
static uint64_t
attr_get(const struct kfd_ioctl_desc *d, unsigned int attr, const uint8_t *p,
	 size_t n)
{
	return rp_fget(kfd_schema_attr(d->args, attr), p, n);
}

static void
model_alloc(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	    const struct kt_ioctl_rec *io, uint64_t seq)
{
	const uint8_t *a = io->arg_after, *b = io->arg_before;
	size_t n = io->arg_size;
	struct rp_m_bo *bo;

	bo = bo_new(m, proc, attr_get(d, KFD_ATTR_OBJ, a, n), seq);
	if (!bo)
		return;
	bo->va = attr_get(d, KFD_ATTR_VA, b, n);
	bo->size = attr_get(d, KFD_ATTR_SIZE, b, n);
	bo->flags = (uint32_t)attr_get(d, KFD_ATTR_FLAGS, b, n);
	bo->gpu_id = (uint32_t)attr_get(d, KFD_ATTR_GPU, b, n);
	bo->mmap_offset = attr_get(d, KFD_ATTR_MMAP_OFFSET, a, n);
	if (bo->flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR) {
		bo->cpu_addr = attr_get(d, KFD_ATTR_MMAP_OFFSET, b, n);
		rp_model_add_range(m, bo->cpu_addr, bo->size, RP_RANGE_USERPTR);
	}
	if (bo->mmap_offset)
		rp_map_put(&m->idx, RP_K_MOFF, 0, bo->mmap_offset, m->bos.n - 1);
}

static void
model_map(struct rp_model *m, int32_t proc, const struct kfd_field *hf,
	  const struct kt_ioctl_rec *io, int map)
{
	int32_t i = bo_find(m, proc, rp_fget(hf, io->arg_before, io->arg_size));
	uint32_t n = 0;
	struct rp_m_bo *bo;
	uint16_t k;

	if (i < 0)
		return;
	bo = RP_AT(&m->bos, struct rp_m_bo, i);
	for (k = 0; k < io->nbufs; k++)
		if (io->bufs[k].before)
			n = io->bufs[k].len_before / 4;
	if (map) {
		bo->mapped += n;
		if (bo->mapped > bo->max_mapped)
			bo->max_mapped = bo->mapped;
	} else {
		bo->mapped = bo->mapped > n ? bo->mapped - n : 0;
	}
}

static void
model_queue(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	    const struct kt_ioctl_rec *io, uint64_t seq)
{
	const uint8_t *b = io->arg_before, *a = io->arg_after;
	size_t n = io->arg_size;
	struct rp_m_queue *q = rp_vec_push(&m->queues);

	if (!q) {
		m->overflow++;
		return;
	}
	q->proc = proc;
	q->gpu_id = (uint32_t)attr_get(d, KFD_ATTR_GPU, b, n);
	q->qid = (uint32_t)attr_get(d, KFD_ATTR_OBJ, a, n);
	q->type = (uint32_t)attr_get(d, KFD_ATTR_TYPE, b, n);
	q->ring = attr_get(d, KFD_ATTR_RING, b, n);
	q->rptr = attr_get(d, KFD_ATTR_RPTR, b, n);
	q->wptr = attr_get(d, KFD_ATTR_WPTR, b, n);
	q->eop = attr_get(d, KFD_ATTR_EOP, b, n);
	q->ctx = attr_get(d, KFD_ATTR_CTX, b, n);
	q->ring_size = attr_get(d, KFD_ATTR_RING_SIZE, a, n);
	q->eop_size = attr_get(d, KFD_ATTR_EOP_SIZE, b, n);
	q->ctx_size = attr_get(d, KFD_ATTR_CTX_SIZE, b, n);
	q->doorbell_offset = attr_get(d, KFD_ATTR_DOORBELL, a, n);
	q->create_seq = seq;
	q->destroy_seq = UINT64_MAX;
	rp_map_put(&m->idx, RP_K_MQUEUE, (unsigned int)proc, q->qid,
		   m->queues.n - 1);
}

static void
model_event(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	    const struct kt_ioctl_rec *io, uint64_t seq)
{
	const uint8_t *b = io->arg_before, *a = io->arg_after;
	size_t n = io->arg_size;
	struct rp_m_event *e = rp_vec_push(&m->events);
	uint64_t page = attr_get(d, KFD_ATTR_EVENT_PAGE, b, n);

	if (!e) {
		m->overflow++;
		return;
	}
	e->proc = proc;
	e->id = (uint32_t)attr_get(d, KFD_ATTR_OBJ, a, n);
	e->type = (uint32_t)attr_get(d, KFD_ATTR_TYPE, b, n);
	e->slot = (uint32_t)attr_get(d, KFD_ATTR_SLOT, a, n);
	e->auto_reset = (uint32_t)attr_get(d, KFD_ATTR_AUTO_RESET, b, n);
	e->create_seq = seq;
	e->destroy_seq = UINT64_MAX;
	rp_map_put(&m->idx, RP_K_MEVENT, (unsigned int)proc, e->id,
		   m->events.n - 1);
	if (page && !m->events_page_handle) {
		m->events_page_handle = page;
		m->events_page_bo = bo_find(m, proc, page);
	}
}

static void
model_svm(struct rp_model *m, int32_t proc, const struct kt_ioctl_rec *io,
	  uint64_t seq)
{
	const struct rp_rows *r = rp_rows();
	struct rp_m_svm *s = rp_vec_push(&m->svms);

	if (!s) {
		m->overflow++;
		return;
	}
	s->proc = proc;
	s->start = rp_fget(r->svm_start, io->arg_before, io->arg_size);
	s->size = rp_fget(r->svm_size, io->arg_before, io->arg_size);
	s->op = (uint32_t)rp_fget(r->svm_op, io->arg_before, io->arg_size);
	s->nattr = (uint32_t)rp_fget(r->svm_nattr, io->arg_before, io->arg_size);
	s->seq = seq;
}

static void
model_dmabuf_info(struct rp_model *m, const struct kt_ioctl_rec *io,
		  uint64_t seq)
{
	const struct rp_rows *r = rp_rows();
	const uint8_t *a = io->arg_after;
	int32_t i = dmabuf_for_fd(m, (int32_t)rp_fget(r->info_fd, io->arg_before,
							io->arg_size), seq);
	struct rp_m_dmabuf *d;
	uint16_t k;

	if (i < 0)
		return;
	d = RP_AT(&m->dmabufs, struct rp_m_dmabuf, i);
	d->size = rp_fget(r->info_size, a, io->arg_size);
	d->gpu_id = (uint32_t)rp_fget(r->info_gpu, a, io->arg_size);
	d->flags = (uint32_t)rp_fget(r->info_flags, a, io->arg_size);
	for (k = 0; k < io->nbufs; k++) {
		const struct kt_buf_image *bi = &io->bufs[k];

		if (bi->after && bi->len_after) {
			uint32_t l = bi->len_after < sizeof(d->metadata) ?
				bi->len_after : (uint32_t)sizeof(d->metadata);

			memcpy(d->metadata, bi->after, l);
			d->metadata_size = l;
		}
	}
}

static void
gem_new(struct rp_model *m, int32_t ofd, uint32_t handle, uint64_t size,
	uint64_t domains, uint64_t seq)
{
	struct rp_m_gem *g = rp_vec_push(&m->gems);

	if (!g) {
		m->overflow++;
		return;
	}
	g->ofd = ofd;
	g->handle = handle;
	g->size = size;
	g->domains = domains;
	g->seq = seq;
	rp_map_put(&m->idx, RP_K_MGEM, (unsigned int)(ofd + 1), handle,
		   m->gems.n - 1);
}

/*
 * A successful call that ends an object (the schema's ends column): its
 * model object's life ends. GEM objects are not followed to their end.
 */
static void
model_end(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	  const struct kt_ioctl_rec *io, uint64_t seq)
{
	uint64_t id = attr_get(d, KFD_ATTR_OBJ, io->arg_before, io->arg_size);
	uint64_t v;
	int32_t i;

	switch (d->ends) {
	case KFD_OBJ_BUFFER:
		i = bo_find(m, proc, id);
		if (i >= 0) {
			struct rp_m_bo *bo = RP_AT(&m->bos, struct rp_m_bo, i);

			bo->free_seq = seq;
			rp_map_del(&m->idx, RP_K_BO, (unsigned int)proc, bo->handle);
			if (bo->mmap_offset)
				rp_map_del(&m->idx, RP_K_MOFF, 0, bo->mmap_offset);
		}
		break;
	case KFD_OBJ_QUEUE:
		if (rp_map_get(&m->idx, RP_K_MQUEUE, (unsigned int)proc,
			       (uint32_t)id, &v)) {
			RP_AT(&m->queues, struct rp_m_queue, v)->destroy_seq = seq;
			rp_map_del(&m->idx, RP_K_MQUEUE, (unsigned int)proc,
				   (uint32_t)id);
		}
		break;
	case KFD_OBJ_EVENT:
		if (rp_map_get(&m->idx, RP_K_MEVENT, (unsigned int)proc,
			       (uint32_t)id, &v)) {
			RP_AT(&m->events, struct rp_m_event, v)->destroy_seq = seq;
			rp_map_del(&m->idx, RP_K_MEVENT, (unsigned int)proc,
				   (uint32_t)id);
		}
		break;
	default:
		break;
	}
}

/* A buffer made from a dma-buf (IMPORT_DMABUF). */
static void
model_import(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	     const struct kt_ioctl_rec *io, uint64_t seq)
{
	const uint8_t *b = io->arg_before, *a = io->arg_after;
	size_t n = io->arg_size;
	struct rp_m_bo *bo = bo_new(m, proc, attr_get(d, KFD_ATTR_OBJ, a, n), seq);

	if (!bo)
		return;
	bo->imported = 1;
	bo->va = attr_get(d, KFD_ATTR_VA, b, n);
	bo->gpu_id = (uint32_t)attr_get(d, KFD_ATTR_GPU, b, n);
	bo->dmabuf = dmabuf_for_fd(m, (int32_t)attr_get(d, KFD_ATTR_SOURCE, b, n),
				   seq);
	if (bo->dmabuf >= 0) {
		struct rp_m_dmabuf *db = RP_AT(&m->dmabufs, struct rp_m_dmabuf,
					       bo->dmabuf);

		db->imports++;
		bo->size = db->size;
	}
}

/* A dma-buf made from a buffer (EXPORT_DMABUF) or a GEM object (PRIME). */
static void
model_dmabuf(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	     const struct kt_ioctl_rec *io, uint64_t seq)
{
	size_t n = io->arg_size;
	uint64_t src = attr_get(d, KFD_ATTR_SOURCE, io->arg_before, n);
	int32_t fd = (int32_t)attr_get(d, KFD_ATTR_OBJ, io->arg_after, n);
	int32_t i = -1;
	uint64_t v;

	if (d->source == KFD_OBJ_BUFFER) {
		i = bo_find(m, proc, src);
		ioctl_fd(m, fd, RP_FD_EXPORT, seq);
		if (i >= 0)
			RP_AT(&m->bos, struct rp_m_bo, i)->exports++;
		dmabuf_new(m, fd, RP_DMABUF_EXPORT, i, seq);
	} else if (d->source == KFD_OBJ_GEM) {
		if (rp_map_get(&m->idx, RP_K_MGEM,
			       (unsigned int)(fd_ofd(m, io->fd) + 1),
			       (uint32_t)src, &v))
			i = (int32_t)v;
		ioctl_fd(m, fd, RP_FD_PRIME, seq);
		dmabuf_new(m, fd, RP_DMABUF_PRIME, i, seq);
	}
}

/* A GEM object, new (GEM_CREATE) or made from a dma-buf (PRIME). */
static void
model_gem(struct rp_model *m, const struct kfd_ioctl_desc *d,
	  const struct kt_ioctl_rec *io, uint64_t seq)
{
	const uint8_t *b = io->arg_before, *a = io->arg_after;
	size_t n = io->arg_size;
	int32_t ofd = fd_ofd(m, io->fd);
	uint32_t h = (uint32_t)attr_get(d, KFD_ATTR_OBJ, a, n);
	int32_t i;

	if (d->source == KFD_OBJ_NONE) {
		gem_new(m, ofd, h, attr_get(d, KFD_ATTR_SIZE, b, n),
			attr_get(d, KFD_ATTR_FLAGS, b, n), seq);
	} else if (d->source == KFD_OBJ_DMABUF) {
		i = dmabuf_for_fd(m, (int32_t)attr_get(d, KFD_ATTR_SOURCE, b, n),
				  seq);
		if (i >= 0)
			RP_AT(&m->dmabufs, struct rp_m_dmabuf, i)->imports++;
		gem_new(m, ofd, h, 0, 0, seq);
	}
}

/*
 * A successful call that creates an object (the schema's creates and
 * source columns), @io's after-image present. IPC imports and exports
 * are not modeled: the shared buffer is another process's.
 */
static void
model_create(struct rp_model *m, int32_t proc, const struct kfd_ioctl_desc *d,
	     const struct kt_ioctl_rec *io, uint64_t seq)
{
	switch (d->creates) {
	case KFD_OBJ_BUFFER:
		if (d->source == KFD_OBJ_NONE)
			model_alloc(m, proc, d, io, seq);
		else if (d->source == KFD_OBJ_DMABUF)
			model_import(m, proc, d, io, seq);
		break;
	case KFD_OBJ_DMABUF:
		model_dmabuf(m, proc, d, io, seq);
		break;
	case KFD_OBJ_GEM:
		model_gem(m, d, io, seq);
		break;
	case KFD_OBJ_QUEUE:
		model_queue(m, proc, d, io, seq);
		break;
	case KFD_OBJ_EVENT:
		model_event(m, proc, d, io, seq);
		break;
	case KFD_OBJ_FD:
		/* The one such file today is SMI's event stream. */
		ioctl_fd(m, (int32_t)attr_get(d, KFD_ATTR_OBJ, io->arg_after,
					       io->arg_size), RP_FD_SMI, seq);
		break;
	default:
		break;
	}
}

/*
 * The order checks' kind of a field of @role, or -1: the map kind the
 * replayer learns its values under (rp_role_kind()), for the kinds the
 * order checks follow (memory handles, queue and event ids).
 */
static int
dep_kind(unsigned int role)
{
	switch (rp_role_kind(role)) {
	case RP_K_HANDLE:
		return RP_DEP_HANDLE;
	case RP_K_QUEUE:
		return RP_DEP_QUEUE;
	case RP_K_EVENT:
		return RP_DEP_EVENT;
	default:
		return -1;
	}
}

void
rp_ioctl_ids(const struct kt_record *rec, const struct kfd_ioctl_desc *d,
	     rp_id_fn fn, void *ctx)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_struct_desc *sd = d->args;
	const uint8_t *b = io->arg_before, *a = io->arg_after;
	size_t n = io->arg_size;
	unsigned int i;

	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		/* The schema says which call ends which object, in which field. */
		int ends = d->ends != KFD_OBJ_NONE && f->attr == KFD_ATTR_OBJ;
		int k = dep_kind(f->role);
		unsigned int kind;
		uint64_t v;

		if (k < 0)
			continue;
		kind = (unsigned int)k;
		if (f->dir == KFD_DIR_OUT) {
			/* A zero handle is none; queue and event ids start at 0. */
			if (a && kfd_field_present(sd, f, a, n) &&
			    kfd_field_get(f, a, n, &v) == 0 &&
			    (v || kind != RP_DEP_HANDLE))
				fn(ctx, kind, v & ~(uint64_t)kfd_role_status_bits(f->role),
				   RP_ID_MAKE);
		} else if ((f->dir & KFD_DIR_IN) && kfd_field_present(sd, f, b, n) &&
			   kfd_field_get(f, b, n, &v) == 0 &&
			   (v || kind != RP_DEP_HANDLE)) {
			fn(ctx, kind, v & ~(uint64_t)kfd_role_status_bits(f->role),
			   ends ? RP_ID_END : RP_ID_USE);
		}
	}
}

struct model_order_ctx {
	struct rp_model *m;
	int32_t proc;
	const struct kt_record *rec;
	const char *name;
};

static void
model_order_id(void *ctx, unsigned int kind, uint64_t v, int how)
{
	struct model_order_ctx *c = ctx;

	if (how == RP_ID_MAKE)
		rp_order_make(c->m, kind, c->proc, v, c->rec, c->name);
	else
		rp_order_use(c->m, kind, c->proc, v, c->rec, c->name,
			     how == RP_ID_END);
}

/* What the order checks need of a call (order.c). */
static void
model_order(struct rp_model *m, int32_t proc, const struct kt_record *rec,
	    const struct kfd_ioctl_desc *d)
{
	struct model_order_ctx c = { m, proc, rec, d->name };

	rp_ioctl_ids(rec, d, model_order_id, &c);
}

void
rp_model_ioctl(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct rp_rows *r = rp_rows();
	const struct kfd_ioctl_desc *d;
	const uint8_t *b = io->arg_before, *a = io->arg_after;
	size_t n = io->arg_size;
	int32_t proc;

	d = kt_ioctl_row(io);
	if (!d) {
		m->nunknown++;
		return;
	}
	if (io->ret < 0)
		m->nioctl_failed++;
	note_gpus(m, r, d, io);
	rp_model_varies(m, rec, d);
	if (io->ret < 0)
		return;
	proc = scope_proc(m, io->fd);
	if (d->creates == KFD_OBJ_PROCESS) {
		/* _IO: no argument bytes at all. */
		int32_t ofd = fd_ofd(m, io->fd);

		if (ofd >= 0)
			RP_AT(&m->ofds, struct rp_m_ofd, ofd)->proc =
				rp_model_proc_new(m, io->fd, rec->seq, 1);
		return;
	}
	if (!b)
		return;
	model_order(m, proc, rec, d);

	if (d == r->get_version && a) {
		m->abi_major = 1;
		m->abi_minor = (uint32_t)rp_fget(r->ver_minor, a, n);
	} else if (d == r->acquire_vm) {
		if (proc >= 0 && (size_t)proc < m->procs.n)
			RP_AT(&m->procs, struct rp_m_proc, proc)->vm_gpus++;
	} else if (d->ends) {
		model_end(m, proc, d, io, rec->seq);
	} else if (d->creates && a) {
		model_create(m, proc, d, io, rec->seq);
	} else if (d == r->map_mem) {
		model_map(m, proc, r->map_handle, io, 1);
	} else if (d == r->unmap_mem) {
		model_map(m, proc, r->unmap_handle, io, 0);
	} else if (d == r->get_dmabuf_info && a) {
		model_dmabuf_info(m, io, rec->seq);
	} else if (d == r->wait_events && rp_wait_completed(r, d, io)) {
		rp_age_note_wait(m, rec);
	} else if (d == r->set_event && b && rp_fhas(r->se_id, n)) {
		struct rp_m_set *e = rp_vec_push(&m->sets);

		if (e) {
			e->ts = rec->ts;
			e->exit = rp_rec_exit(rec);
			e->seq = rec->seq;
			e->tid = rec->tid;
			e->id = (uint32_t)rp_fget(r->se_id, b, n);
		}
	} else if (d == r->svm) {
		model_svm(m, proc, io, rec->seq);
		rp_model_add_range(m, rp_fget(r->svm_start, b, n),
				   rp_fget(r->svm_size, b, n), RP_RANGE_SVM);
	}
}
