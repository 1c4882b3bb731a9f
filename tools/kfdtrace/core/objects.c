/* SPDX-License-Identifier: MIT */
/*
 * The object tracker shared by stats, report and the Perfetto export.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/objects.h"
#include "kfdtrace/kfd_abi.h"

const char *const obj_heap_names[OBJ_HEAP_COUNT] = {
	"VRAM", "GTT", "userptr", "doorbell", "MMIO", "import", "other",
};

void
obj_tracker_init(struct obj_tracker *t)
{
	memset(t, 0, sizeof(*t));
	kc_u64map_init(&t->bos, sizeof(struct obj_val));
	kc_u64map_init(&t->queues, sizeof(struct obj_val));
	kc_u64map_init(&t->mem_of, sizeof(uint64_t));
	kc_u64map_init(&t->events, sizeof(struct obj_val));
	kc_u64map_init(&t->dmabuf_size, sizeof(struct obj_val));
	kc_u64map_init(&t->render_fds, sizeof(struct obj_val));
	t->alloc = kfd_schema_by_name("ALLOC_MEMORY_OF_GPU");
	t->free_mem = kfd_schema_by_name("FREE_MEMORY_OF_GPU");
	t->import = kfd_schema_by_name("IMPORT_DMABUF");
	t->dmabuf_info = kfd_schema_by_name("GET_DMABUF_INFO");
	t->create_queue = kfd_schema_by_name("CREATE_QUEUE");
	t->destroy_queue = kfd_schema_by_name("DESTROY_QUEUE");
	t->create_event = kfd_schema_by_name("CREATE_EVENT");
	t->destroy_event = kfd_schema_by_name("DESTROY_EVENT");
}

void
obj_tracker_release(struct obj_tracker *t)
{
	free(t->mem);
	t->mem = NULL;
	t->nmem = t->capmem = 0;
	kc_u64map_free(&t->mem_of);
	kc_u64map_free(&t->bos);
	kc_u64map_free(&t->queues);
	kc_u64map_free(&t->events);
	kc_u64map_free(&t->dmabuf_size);
	kc_u64map_free(&t->render_fds);
}

int
obj_arg_get(const struct kfd_ioctl_desc *desc, const char *name,
	    const uint8_t *img, uint32_t len, uint64_t *v)
{
	int i;

	if (!desc || !desc->args || !img)
		return -1;
	i = kfd_schema_field(desc, name);
	if (i < 0)
		return -1;
	return kfd_field_get(&desc->args->fields[i], img, len, v);
}

/* The totals of a GPU's heap: found by a map, however many GPUs. */
static struct obj_mem *
mem_for(struct obj_tracker *t, uint32_t gpu_id, enum obj_heap heap)
{
	struct obj_mem *p;
	size_t i;
	int rc = cli_index_for(&t->mem_of, heap, gpu_id, (void **)&t->mem,
			       &t->nmem, &t->capmem, sizeof(*t->mem), &i);

	if (rc < 0) {
		t->oom = 1;
		return NULL;
	}
	p = &t->mem[i];
	if (!rc) {
		p->gpu_id = gpu_id;
		p->heap = heap;
	}
	return p;
}

static enum obj_heap
heap_of(uint64_t flags)
{
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM)
		return OBJ_HEAP_VRAM;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_GTT)
		return OBJ_HEAP_GTT;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR)
		return OBJ_HEAP_USERPTR;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL)
		return OBJ_HEAP_DOORBELL;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP)
		return OBJ_HEAP_MMIO;
	return OBJ_HEAP_OTHER;
}

/* A BO left the live set: subtract it from its heap. */
static const struct obj_mem *
bo_gone(struct obj_tracker *t, const struct obj_val *old, int freed)
{
	struct obj_mem *m = mem_for(t, old->gpu_id, (enum obj_heap)old->kind);

	if (!m)
		return NULL;
	if (freed) {
		m->frees++;
		m->freed += old->size;
	}
	m->live -= old->size;
	return m;
}

static unsigned int
bo_created(struct obj_tracker *t, uint64_t handle, uint32_t gpu_id,
	   enum obj_heap heap, uint64_t size, uint64_t seq,
	   struct obj_change *ch)
{
	struct obj_val v = { .seq = seq, .size = size, .gpu_id = gpu_id,
				.kind = heap };
	struct obj_mem *m;
	unsigned int n = 0;

	/* A handle seen again without a FREE: the old BO is gone for good. */
	if (kc_u64map_del(&t->bos, 0, handle, &ch[n].val)) {
		ch[n].kind = OBJ_BO_GONE;
		ch[n].key = handle;
		ch[n].mem = bo_gone(t, &ch[n].val, 0);
		n++;
	}
	if (kc_u64map_put(&t->bos, 0, handle, &v))
		t->oom = 1;
	m = mem_for(t, gpu_id, heap);
	if (!m)
		return n;
	m->allocs++;
	m->allocated += size;
	m->live += size;
	if (m->live > m->high_water)
		m->high_water = m->live;
	/* Earlier pointers into t->mem may have moved with the realloc. */
	if (n)
		ch[0].mem = mem_for(t, ch[0].val.gpu_id,
				    (enum obj_heap)ch[0].val.kind);
	ch[n].kind = OBJ_BO_NEW;
	ch[n].key = handle;
	ch[n].val = v;
	ch[n].mem = m;
	return n + 1;
}

/* Insert a queue or event; an id seen again replaces the old object. */
static unsigned int
put_object(struct obj_tracker *t, struct kc_u64map *map, uint64_t key,
	   const struct obj_val *v, enum obj_change_kind made,
	   enum obj_change_kind gone, struct obj_change *ch)
{
	unsigned int n = 0;

	if (kc_u64map_del(map, 0, key, &ch[0].val)) {
		ch[0].kind = gone;
		ch[0].key = key;
		ch[0].mem = NULL;
		n = 1;
	}
	if (kc_u64map_put(map, 0, key, v))
		t->oom = 1;
	ch[n].kind = made;
	ch[n].key = key;
	ch[n].val = *v;
	ch[n].mem = NULL;
	return n + 1;
}

static unsigned int
drop_object(struct kc_u64map *map, uint64_t key, enum obj_change_kind gone,
	    struct obj_change *ch)
{
	if (!kc_u64map_del(map, 0, key, &ch[0].val))
		return 0;
	ch[0].kind = gone;
	ch[0].key = key;
	ch[0].mem = NULL;
	return 1;
}

unsigned int
obj_tracker_ioctl(struct obj_tracker *t, const struct kt_record *rec,
		  const struct kfd_ioctl_desc *desc, struct obj_change *ch)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const uint8_t *in = io->arg_before, *out = io->arg_after;
	uint32_t len = io->arg_size;
	uint64_t a = 0, b = 0, c = 0, h = 0;
	struct obj_val v;

	if (rec->type != KT_REC_IOCTL || !desc || io->ret < 0)
		return 0;
	memset(&v, 0, sizeof(v));
	v.seq = rec->seq;
	if (desc == t->alloc) {
		if (obj_arg_get(desc, "size", in, len, &a) ||
		    obj_arg_get(desc, "gpu_id", in, len, &b) ||
		    obj_arg_get(desc, "flags", in, len, &c) ||
		    obj_arg_get(desc, "handle", out, len, &h))
			return 0;
		return bo_created(t, h, (uint32_t)b, heap_of(c), a, rec->seq,
				  ch);
	}
	if (desc == t->free_mem) {
		if (obj_arg_get(desc, "handle", in, len, &h))
			return 0;
		if (!kc_u64map_del(&t->bos, 0, h, &ch[0].val)) {
			t->unmatched_frees++;
			return 0;
		}
		ch[0].kind = OBJ_BO_GONE;
		ch[0].key = h;
		ch[0].mem = bo_gone(t, &ch[0].val, 1);
		return 1;
	}
	if (desc == t->dmabuf_info) {
		if (obj_arg_get(desc, "dmabuf_fd", in, len, &a) ||
		    obj_arg_get(desc, "size", out, len, &b))
			return 0;
		v.size = b;
		if (kc_u64map_put(&t->dmabuf_size, 0, a, &v))
			t->oom = 1;
		return 0;
	}
	if (desc == t->import) {
		struct obj_val *sz;

		if (obj_arg_get(desc, "gpu_id", in, len, &b) ||
		    obj_arg_get(desc, "dmabuf_fd", in, len, &a) ||
		    obj_arg_get(desc, "handle", out, len, &h))
			return 0;
		sz = kc_u64map_get(&t->dmabuf_size, 0, a);
		return bo_created(t, h, (uint32_t)b, OBJ_HEAP_IMPORT,
				  sz ? sz->size : 0, rec->seq, ch);
	}
	if (desc == t->create_queue) {
		if (obj_arg_get(desc, "queue_id", out, len, &a))
			return 0;
		if (!obj_arg_get(desc, "gpu_id", in, len, &b))
			v.gpu_id = (uint32_t)b;
		if (!obj_arg_get(desc, "queue_type", in, len, &c))
			v.kind = (uint32_t)c;
		return put_object(t, &t->queues, a, &v, OBJ_QUEUE_NEW,
				  OBJ_QUEUE_GONE, ch);
	}
	if (desc == t->destroy_queue) {
		if (obj_arg_get(desc, "queue_id", in, len, &a))
			return 0;
		return drop_object(&t->queues, a, OBJ_QUEUE_GONE, ch);
	}
	if (desc == t->create_event) {
		if (obj_arg_get(desc, "event_id", out, len, &a))
			return 0;
		if (!obj_arg_get(desc, "event_type", in, len, &b))
			v.kind = (uint32_t)b;
		return put_object(t, &t->events, a, &v, OBJ_EVENT_NEW,
				  OBJ_EVENT_GONE, ch);
	}
	if (desc == t->destroy_event) {
		if (obj_arg_get(desc, "event_id", in, len, &a))
			return 0;
		return drop_object(&t->events, a, OBJ_EVENT_GONE, ch);
	}
	return 0;
}

static int
cmp_mem(const void *a, const void *b)
{
	const struct obj_mem *x = a, *y = b;

	if (x->gpu_id != y->gpu_id)
		return x->gpu_id < y->gpu_id ? -1 : 1;
	return (int)x->heap - (int)y->heap;
}

void
obj_tracker_sort_mem(struct obj_tracker *t)
{
	size_t i;

	if (t->nmem < 2)
		return;
	qsort(t->mem, t->nmem, sizeof(*t->mem), cmp_mem);
	/* The map follows the totals to their new places. */
	for (i = 0; i < t->nmem; i++)
		if (kc_u64map_put64(&t->mem_of, t->mem[i].heap,
				    t->mem[i].gpu_id, i))
			t->oom = 1;
}

/* The first in-image field of @role; 0 with *v set, or -1. */
static int
first_of_role(const struct kfd_ioctl_desc *desc, const struct kt_ioctl_rec *io,
	      enum kfd_role role, uint64_t *v)
{
	const struct kfd_struct_desc *sd = desc->args;
	unsigned int i;

	if (!sd || !io->arg_before)
		return -1;
	for (i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		if (f->role != role || !(f->dir & KFD_DIR_IN))
			continue;
		if (!kfd_field_present(sd, f, io->arg_before, io->arg_size))
			continue;
		if (kfd_field_get(f, io->arg_before, io->arg_size, v) == 0)
			return 0;
	}
	return -1;
}

uint32_t
obj_ioctl_gpu(struct obj_tracker *t, const struct kt_record *rec,
	      const struct kfd_ioctl_desc *desc)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	uint64_t v;

	if (rec->type != KT_REC_IOCTL || !desc)
		return 0;
	if (!first_of_role(desc, io, KFD_ROLE_GPU_ID, &v) && v)
		return (uint32_t)v;
	if (!first_of_role(desc, io, KFD_ROLE_HANDLE, &v) && (v >> 32))
		return (uint32_t)(v >> 32);
	if (!first_of_role(desc, io, KFD_ROLE_QUEUE_ID, &v)) {
		struct obj_val *q = kc_u64map_get(&t->queues, 0, v);

		if (q)
			return q->gpu_id;
	}
	if (rec->u.ioctl.file_kind == KFD_FILE_RENDER) {
		struct obj_val *f = kc_u64map_get(&t->render_fds, 0,
						  (uint32_t)rec->u.ioctl.fd);
		unsigned int i;

		for (i = 0; f && i < t->nminors; i++)
			if (t->minor_gpu[i][0] == f->kind)
				return t->minor_gpu[i][1];
	}
	return 0;
}

/* The render minor of an open record: from st_rdev, else the path. */
static int
render_minor(const struct kt_open_rec *o, uint32_t *minor)
{
	const char *p;

	if (o->rdev) {
		/* glibc's encoding of minor(): bits 0-7 and 20-31. */
		*minor = (uint32_t)((o->rdev & 0xff) |
				    ((o->rdev >> 12) & 0xffffff00u));
		return 0;
	}
	p = o->path ? strstr(o->path, "renderD") : NULL;
	if (!p || p[7] < '0' || p[7] > '9')
		return -1;
	*minor = (uint32_t)strtoul(p + 7, NULL, 10);
	return 0;
}

void
obj_tracker_record(struct obj_tracker *t, const struct kt_record *rec)
{
	struct obj_val v, *old;
	uint32_t minor;

	memset(&v, 0, sizeof(v));
	v.seq = rec->seq;
	switch (rec->type) {
	case KT_REC_OPEN:
		if (rec->u.open.ret < 0)
			return;
		/* A reused fd number forgets what it was. */
		kc_u64map_del(&t->render_fds, 0, (uint64_t)rec->u.open.ret, NULL);
		if (rec->u.open.file_kind != KFD_FILE_RENDER ||
		    render_minor(&rec->u.open, &minor))
			return;
		v.kind = minor;
		if (kc_u64map_put(&t->render_fds, 0, (uint64_t)rec->u.open.ret, &v))
			t->oom = 1;
		return;
	case KT_REC_DUP:
		if (rec->u.dup.ret < 0)
			return;
		kc_u64map_del(&t->render_fds, 0, (uint64_t)rec->u.dup.ret, NULL);
		old = kc_u64map_get(&t->render_fds, 0, (uint32_t)rec->u.dup.oldfd);
		if (!old)
			return;
		v = *old;
		if (kc_u64map_put(&t->render_fds, 0, (uint64_t)rec->u.dup.ret, &v))
			t->oom = 1;
		return;
	case KT_REC_CLOSE:
		if (rec->u.close.ret == 0)
			kc_u64map_del(&t->render_fds, 0, (uint32_t)rec->u.close.fd,
				   NULL);
		return;
	default:
		return;
	}
}

void
obj_tracker_topology(struct obj_tracker *t, const struct kt_topo *s)
{
	unsigned int i;

	t->nminors = 0;
	for (i = 0; i < s->nnodes && i < KT_TOPO_MAX_NODES; i++) {
		const struct kt_topo_node *n = &s->nodes[i];

		if (!n->present || !n->gpu_id)
			continue;
		t->minor_gpu[t->nminors][0] = n->drm_render_minor;
		t->minor_gpu[t->nminors][1] = n->gpu_id;
		t->nminors++;
	}
}

static const char *
name_of(const struct kfd_ioctl_desc *desc, const char *field, uint32_t v)
{
	int i;

	if (!desc || !desc->args)
		return NULL;
	i = kfd_schema_field(desc, field);
	if (i < 0 || !desc->args->fields[i].names)
		return NULL;
	return kfd_name_lookup(desc->args->fields[i].names, v);
}

const char *
obj_event_type_name(const struct obj_tracker *t, uint32_t type)
{
	return name_of(t->create_event, "event_type", type);
}

const char *
obj_queue_type_name(const struct obj_tracker *t, uint32_t type)
{
	return name_of(t->create_queue, "queue_type", type);
}
