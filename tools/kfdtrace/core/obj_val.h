/* SPDX-License-Identifier: MIT */
/*
 * What the CLI remembers about one live object (a BO, queue, event, fd)
 * while it reads a trace: the value of its u64 maps
 * (kfdtrace/common/u64map.h, made with vsize sizeof(struct obj_val)).
 */
#ifndef KFDTRACE_OBJ_VAL_H
#define KFDTRACE_OBJ_VAL_H

#include <stdint.h>

#include <kfdtrace/common/u64map.h>

struct obj_val {
	uint64_t seq;		/* record that created it */
	uint64_t size;		/* bytes (BOs) */
	uint32_t gpu_id;
	uint32_t kind;		/* heap index (BOs), event type (events) */
};

/* obj_val_of() - the value of a slot of such a map. */
static inline const struct obj_val *
obj_val_of(const struct kc_u64map_slot *s)
{
	return (const struct obj_val *)(const void *)s->val;
}

#endif /* KFDTRACE_OBJ_VAL_H */
