/* SPDX-License-Identifier: MIT */
/*
 * Following the objects a traced process creates through KFD: buffer
 * objects (with their GPU, heap and size), queues and events, and the bytes
 * live per GPU and heap. stats, report and the Perfetto export all read a
 * trace through this tracker, so they agree on what was allocated, freed
 * and leaked.
 *
 * Everything is taken from the requests themselves, by schema field name:
 * ALLOC_MEMORY_OF_GPU's size, gpu_id and domain flags keyed by the returned
 * handle; FREE_MEMORY_OF_GPU by handle; IMPORT_DMABUF with the size the
 * latest GET_DMABUF_INFO reported for its fd; CREATE/DESTROY_QUEUE by
 * queue_id; CREATE/DESTROY_EVENT by event_id. Failed calls change nothing.
 * Feed records in sequence order (cli_reorder) so that an id freed by one
 * thread and reused by another is attributed correctly.
 */
#ifndef KFDTRACE_OBJECTS_H
#define KFDTRACE_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "kfdtrace/topology.h"
#include "core/obj_val.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/* The heap a BO counts under, from its allocation flags (first match). */
enum obj_heap {
	OBJ_HEAP_VRAM,
	OBJ_HEAP_GTT,
	OBJ_HEAP_USERPTR,
	OBJ_HEAP_DOORBELL,
	OBJ_HEAP_MMIO,
	OBJ_HEAP_IMPORT,
	OBJ_HEAP_OTHER,
	OBJ_HEAP_COUNT
};

/* "VRAM", "GTT", "userptr", "doorbell", "MMIO", "import", "other". */
extern const char *const obj_heap_names[OBJ_HEAP_COUNT];

/* Byte accounting of one GPU and heap. */
struct obj_mem {
	uint32_t gpu_id;
	enum obj_heap heap;
	uint64_t allocs, frees;
	uint64_t allocated, freed;	/* bytes */
	uint64_t live, high_water;
};

enum obj_change_kind {
	OBJ_BO_NEW,
	OBJ_BO_GONE,		/* freed, or its handle came back again */
	OBJ_QUEUE_NEW,
	OBJ_QUEUE_GONE,
	OBJ_EVENT_NEW,
	OBJ_EVENT_GONE,
};

/*
 * What one record did to the set of live objects. val is the object as
 * stored: the seq of the record that created it, its size (BOs), gpu_id
 * (BOs, queues) and kind (heap for BOs, queue type for queues, event type
 * for events).
 */
struct obj_change {
	enum obj_change_kind kind;
	uint64_t key;			/* handle, queue_id or event_id */
	struct obj_val val;
	const struct obj_mem *mem;	/* BOs: totals after the change; valid
					 * until the next tracker call */
};

/* The most changes one record can cause (a handle reused without FREE). */
#define OBJ_MAX_CHANGES 2

struct obj_tracker {
	struct obj_mem *mem;
	size_t nmem, capmem;
	struct kc_u64map mem_of;	/* (heap, gpu_id) -> index in mem */
	struct kc_u64map bos;		/* handle -> gpu, heap, size */
	struct kc_u64map queues;	/* queue_id -> gpu, type */
	struct kc_u64map events;	/* event_id -> type */
	struct kc_u64map dmabuf_size;	/* fd -> size from GET_DMABUF_INFO */
	struct kc_u64map render_fds;	/* render-node fd -> minor (val.kind) */
	uint32_t minor_gpu[KT_TOPO_MAX_NODES][2];	/* render minor, gpu_id */
	unsigned int nminors;
	uint64_t unmatched_frees;	/* frees of handles never allocated */
	int oom;			/* memory ran out; results incomplete */

	/* Rows the tracker reads. */
	const struct kfd_ioctl_desc *alloc, *free_mem, *import, *dmabuf_info;
	const struct kfd_ioctl_desc *create_queue, *destroy_queue;
	const struct kfd_ioctl_desc *create_event, *destroy_event;
};

/* obj_tracker_init() - an empty tracker. */
void obj_tracker_init(struct obj_tracker *t);

/* obj_tracker_release() - free the tracker's memory. */
void obj_tracker_release(struct obj_tracker *t);

/*
 * obj_tracker_ioctl() - account one ioctl record.
 * @desc:	its schema row (kt_ioctl_row()), or NULL
 * @ch:		room for OBJ_MAX_CHANGES changes
 *
 * Return: the number of changes written to @ch (0 for most ioctls). On
 * allocation failure t->oom is set.
 */
unsigned int obj_tracker_ioctl(struct obj_tracker *t,
			       const struct kt_record *rec,
			       const struct kfd_ioctl_desc *desc,
			       struct obj_change *ch);

/*
 * obj_tracker_record() - follow the render-node fds of open, dup and close
 * records, so that amdgpu ioctls can be attributed to a GPU. Other record
 * types are ignored.
 */
void obj_tracker_record(struct obj_tracker *t, const struct kt_record *rec);

/*
 * obj_tracker_topology() - learn which render minor belongs to which GPU
 * from a topology summary (the nodes' drm_render_minor).
 */
void obj_tracker_topology(struct obj_tracker *t, const struct kt_topo *s);

/*
 * obj_tracker_sort_mem() - sort t->mem by gpu_id, then heap. Pointers
 * into it from earlier changes become stale.
 */
void obj_tracker_sort_mem(struct obj_tracker *t);

/*
 * obj_ioctl_gpu() - the GPU an ioctl addresses: its first GPU_ID field
 * (in-image), else the gpu_id half of its first HANDLE field, else the GPU
 * of the queue its QUEUE_ID field names, else (render-node ioctls) the GPU
 * whose render node the fd was opened on.
 *
 * Return: the gpu_id, or 0 when the ioctl names no GPU.
 */
uint32_t obj_ioctl_gpu(struct obj_tracker *t, const struct kt_record *rec,
		       const struct kfd_ioctl_desc *desc);

/*
 * obj_arg_get() - a named field of a row's argument image.
 *
 * Return: 0 with *v set, or -1 when the row, field or bytes are missing.
 */
int obj_arg_get(const struct kfd_ioctl_desc *desc, const char *name,
		const uint8_t *img, uint32_t len, uint64_t *v);

/* obj_event_type_name() - "SIGNAL", ... from CREATE_EVENT's names, or NULL. */
const char *obj_event_type_name(const struct obj_tracker *t, uint32_t type);

/* obj_queue_type_name() - "COMPUTE_AQL", ... from CREATE_QUEUE, or NULL. */
const char *obj_queue_type_name(const struct obj_tracker *t, uint32_t type);

#endif /* KFDTRACE_OBJECTS_H */
