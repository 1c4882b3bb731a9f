/* SPDX-License-Identifier: MIT */
/*
 * The replayer's bounds and small containers (private to replay/, the
 * base part): the growable vector and the (kind, scope, key) map.
 */
#ifndef RP_BASE_H
#define RP_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/common/u64map.h>
#include <kfdtrace/reorder.h>
#include <kfdtrace/replay.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/topology.h>
#include <kfdtrace/trace.h>

#define RP_PAGE			4096ull
#define RP_PAGE_ALIGN_DOWN(x)	((x) & ~(RP_PAGE - 1))
#define RP_PAGE_ALIGN_UP(x)	(((x) + RP_PAGE - 1) & ~(RP_PAGE - 1))

/* Bounds that keep a hostile trace from exhausting memory. */
#define RP_MAX_OBJS		(1u << 22)	/* per object kind */
#define RP_MAX_FD		(1 << 20)	/* captured fd numbers */
#define RP_MAX_GPUS		64
#define RP_BUF_CAP		(64u << 20)	/* one rebuilt indirect buffer */
#define RP_MAX_RESERVATIONS	8192		/* pre-reserved CPU ranges */
#define RP_USER_MIN		0x10000ull	/* lowest mappable address */
#define RP_USER_MAX		0x7ffffffff000ull /* 47-bit user space */
/*
 * Records held to restore sequence order. A thread's buffer reaches the
 * file when it fills (64 KiB of records) or after 100 ms, so a quiet
 * thread's records can come after those of busy ones written in the
 * meantime: hundreds of thousands at capture rates. The byte bound is the
 * one that matters; the count only caps the heap of pointers.
 */
#define RP_REORDER_WINDOW	(1u << 21)
#define RP_MAX_PENDING_WAITS	256	/* completed waits held (wait.c) */
#define RP_AGES_MAX		64	/* event ages translated per wait (ages.c) */
#define RP_REORDER_BYTES	((size_t)256 << 20)	/* and their bytes */
#define RP_MAX_SWAP_HELD	64	/* creations held for an id's end */
#define RP_MAX_PENDING_MEM	1024	/* memory records before a submit */
#define RP_MAX_CMP_BOS		256	/* VRAM buffers packets wrote */
#define RP_CMP_SYNC		4	/* ... ranges of one since */

/* ------------------------------------------------------------------ */
/* Small containers                                                     */

/* A growable array of fixed-size elements, bounded by RP_MAX_OBJS. */
struct rp_vec {
	void *data;
	size_t n;
	size_t cap;
	size_t esz;
};

void rp_vec_init(struct rp_vec *v, size_t esz);
void rp_vec_free(struct rp_vec *v);
/* A new zeroed element at the end, or NULL (bound reached, no memory). */
void *rp_vec_push(struct rp_vec *v);
#define RP_AT(v, type, i) (&((type *)(v)->data)[i])

/*
 * The replayer's maps from (kind, scope, key) to a 64-bit value are the
 * common u64 map (kfdtrace/common/u64map.h; a zeroed one holds uint64_t
 * values) with the tag kind << 24 | scope. Kinds say what a key is (a
 * handle, a queue id, ...); scopes separate KFD processes and DRM files,
 * whose ids are independent.
 */
enum rp_kind {
	RP_K_HANDLE = 1,
	RP_K_QUEUE,
	RP_K_EVENT,
	RP_K_SLOT,
	RP_K_GEM,
	RP_K_OFFSET,		/* render-node (GEM) mmap offsets */
	RP_K_BO,		/* model: (proc, handle) -> bo index */
	RP_K_MQUEUE,		/* model: (proc, queue id) -> queue index */
	RP_K_MEVENT,		/* model: (proc, event id) -> event index */
	RP_K_MOFF,		/* model: GEM offset -> bo index */
	RP_K_MDMABUF,		/* model: fd -> dmabuf index */
	RP_K_MGEM,		/* model: (ofd, gem handle) -> gem index */
	RP_K_AGE,		/* (event life, age) -> age (ages.c) */
	RP_K_AGE_SETS,		/* event life -> sets replayed, all */
	RP_K_AGE_GPU,		/* ... of them, in the GPU's stead */
	RP_K_MTHREAD,		/* model: tid -> thread span index */
	RP_K_MSUBMIT,		/* model: submit seq -> its KFD process + 1 */
};

/*
 * The map kind of a value learned for a field of @role, by the schema's
 * space (RP_K_OFFSET for the roles whose value is no id).
 */
static inline unsigned int
rp_role_kind(unsigned int role)
{
	switch (kfd_role_space((enum kfd_role)role)) {
	case KFD_SPACE_HANDLE:
		return RP_K_HANDLE;
	case KFD_SPACE_QUEUE:
		return RP_K_QUEUE;
	case KFD_SPACE_EVENT:
		return RP_K_EVENT;
	case KFD_SPACE_SLOT:
		return RP_K_SLOT;
	case KFD_SPACE_GEM:
		return RP_K_GEM;
	default:
		return RP_K_OFFSET;
	}
}

/*
 * The scope a value learned for @role is kept under: the DRM file's for a
 * GEM handle, none for the offsets (one space per device), else the KFD
 * process's.
 */
static inline int
rp_learn_scope(unsigned int role, int scope, int gem_scope)
{
	if (role == KFD_ROLE_GEM_HANDLE)
		return gem_scope;
	return rp_role_kind(role) == RP_K_OFFSET ? 0 : scope;
}

/*
 * Whether every end of a value of map kind @kind is in a trace (a FREE, a
 * DESTROY, a GEM_CLOSE): then a learned binding stands until that end,
 * and a value bound again to something else is a difference. The other
 * kinds (event slots, offsets) are bound again. Replay's verification and
 * the programs emit-c writes follow this one rule.
 */
static inline int
rp_kind_strict(unsigned int kind)
{
	return kind == RP_K_HANDLE || kind == RP_K_QUEUE || kind == RP_K_EVENT ||
	       kind == RP_K_GEM;
}

static inline uint32_t
rp_map_tag(unsigned int kind, unsigned int scope)
{
	return (uint32_t)kind << 24 | (scope & 0xffffff);
}

/* The kind of a map entry's tag (rp_map_tag()'s inverse). */
#define RP_MAP_TAG_KIND(tag)	((tag) >> 24)

static inline void
rp_map_free(struct kc_u64map *m)
{
	kc_u64map_free(m);
}

/* Return: 0, or -ENOMEM. */
static inline int
rp_map_put(struct kc_u64map *m, unsigned int kind, unsigned int scope,
	   uint64_t key, uint64_t val)
{
	return kc_u64map_put64(m, rp_map_tag(kind, scope), key, val);
}

/* Return: 1 if present (the value in *@val when not NULL), else 0. */
static inline int
rp_map_get(const struct kc_u64map *m, unsigned int kind, unsigned int scope,
	   uint64_t key, uint64_t *val)
{
	return kc_u64map_get64(m, rp_map_tag(kind, scope), key, val);
}

/* Return: 1 if it was present, else 0. */
static inline int
rp_map_del(struct kc_u64map *m, unsigned int kind, unsigned int scope,
	   uint64_t key)
{
	return kc_u64map_del(m, rp_map_tag(kind, scope), key, NULL);
}

/* ------------------------------------------------------------------ */
/* Records (util.c)                                                     */

/* Whether the replay acts on records of @type (ioctls, files, memory). */
int rp_actionable(unsigned int type);
/* The name of @rec for messages: its ioctl's, or its type's. */
const char *rp_rec_name(const struct kt_record *rec);
/* Sleep @ns nanoseconds (signals do not cut it short). */
void rp_sleep_ns(uint64_t ns);

/* The capture time a record returned at (entered, for a non-ioctl). */
static inline uint64_t
rp_rec_exit(const struct kt_record *rec)
{
	return (rec->type == KT_REC_IOCTL || rec->type == KT_REC_FD_TRANSFER) ?
	       kt_record_end(rec) : rec->ts;
}

#endif /* RP_BASE_H */
