/* SPDX-License-Identifier: MIT */
/*
 * Correspondence of values between two traces, by schema role.
 *
 * Two runs of the same program get different handles, gpu_ids, queue and
 * event ids, fds, mmap offsets and addresses from the kernel and from
 * ASLR. `kfdtrace diff` treats such values as equal when they correspond
 * consistently: the first time a value of a role is seen in trace A
 * opposite a value in trace B, the pair is bound (in both directions);
 * from then on A's value must meet B's value and no other. A released
 * object (FREE_MEMORY_OF_GPU, DESTROY_QUEUE, close, ...) unbinds its pair,
 * since the kernel may hand the value out again.
 *
 * The replayer (replay/) maps captured values to live ones while it
 * reissues calls; this module is the offline counterpart for two recorded
 * traces and needs no device.
 */
#ifndef KFDTRACE_DIFF_MAP_H
#define KFDTRACE_DIFF_MAP_H

#include <stdint.h>

#include "core/obj_val.h"
#include "kfdtrace/schema.h"

/*
 * Value spaces; a value is bound only within its space. They are the
 * schema's (enum kfd_space, kfd_role_space()), less KFD_SPACE_NONE.
 */
enum dmap_space {
	DMAP_HANDLE = KFD_SPACE_HANDLE - 1,
	DMAP_GPU = KFD_SPACE_GPU - 1,
	DMAP_QUEUE = KFD_SPACE_QUEUE - 1,
	DMAP_EVENT = KFD_SPACE_EVENT - 1,
	DMAP_SLOT = KFD_SPACE_SLOT - 1,
	DMAP_FD = KFD_SPACE_FD - 1,
	DMAP_OFFSET = KFD_SPACE_OFFSET - 1,	/* mmap and doorbell offsets */
	DMAP_ADDR = KFD_SPACE_ADDR - 1,		/* GPU virtual and kept CPU addresses */
	DMAP_GEM = KFD_SPACE_GEM - 1,
	DMAP_PID = KFD_SPACE_PID - 1,
	DMAP_SPACES = KFD_SPACE_COUNT - 1
};

/* How a field's value is compared. */
enum dmap_rule {
	DMAP_EXACT = -1,	/* equal bits */
	DMAP_IGNORE = -2,	/* differs by nature: clocks */
	DMAP_NULLNESS = -3,	/* only whether it is 0: user pointers */
};

/*
 * dmap_rule_of() - the space of a role (>= 0), or an enum dmap_rule, from
 * the schema's classification (kfd_role_space(), kfd_role_flags()).
 */
int dmap_rule_of(enum kfd_role role);

/* dmap_space_name() - "handle", "gpu_id", ... for summaries. */
const char *dmap_space_name(enum dmap_space s);

struct dmap {
	struct kc_u64map ab[DMAP_SPACES];	/* A value -> B value (val.size) */
	struct kc_u64map ba[DMAP_SPACES];	/* B value -> A value */
	uint64_t bound[DMAP_SPACES];	/* pairs ever bound */
	int oom;
};

/* dmap_init() - empty tables. */
void dmap_init(struct dmap *m);

/* dmap_release_all() - free the tables' memory. */
void dmap_release_all(struct dmap *m);

/*
 * dmap_match() - whether A's @a and B's @b correspond in @space; binds
 * them when neither is bound yet. Where 0 means "none" (handles, gpu_ids,
 * offsets, addresses, pids, GEM handles) it only corresponds to 0 and is
 * never bound; queue ids, event ids and slots, and fds bind 0 like any
 * other value.
 * @seq:	the A record, remembered with a new binding
 * @expect:	on a mismatch, B's value bound to @a (*expect_is_a = 0),
 *		or, when @a is unbound, the A value bound to @b
 *		(*expect_is_a = 1); *expect_is_a = -1 when no binding is
 *		involved (a 0 that means "none" against another value)
 *
 * Return: 1 when they correspond, 0 when not.
 */
int dmap_match(struct dmap *m, enum dmap_space space, uint64_t a, uint64_t b,
	       uint64_t seq, uint64_t *expect, int *expect_is_a);

/* dmap_unbind_a() - forget A's @a (and its partner) in @space. */
void dmap_unbind_a(struct dmap *m, enum dmap_space space, uint64_t a);

/* dmap_unbind_b() - forget B's @b (and its partner) in @space. */
void dmap_unbind_b(struct dmap *m, enum dmap_space space, uint64_t b);

#endif /* KFDTRACE_DIFF_MAP_H */
