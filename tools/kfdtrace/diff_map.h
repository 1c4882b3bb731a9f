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

#include "obj_val.h"
#include "kfdtrace/schema.h"

/* Value spaces; a value is bound only within its space. */
enum dmap_space {
	DMAP_HANDLE,
	DMAP_GPU,
	DMAP_QUEUE,
	DMAP_EVENT,
	DMAP_SLOT,
	DMAP_FD,
	DMAP_OFFSET,		/* mmap and doorbell offsets */
	DMAP_ADDR,		/* GPU virtual and kept CPU addresses */
	DMAP_GEM,
	DMAP_PID,
	DMAP_SPACES
};

/* How a field's value is compared. */
enum dmap_rule {
	DMAP_EXACT = -1,	/* equal bits */
	DMAP_IGNORE = -2,	/* differs by nature: clocks */
	DMAP_NULLNESS = -3,	/* only whether it is 0: user pointers */
};

/*
 * dmap_rule_of() - the space of a role (>= 0), or an enum dmap_rule.
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
