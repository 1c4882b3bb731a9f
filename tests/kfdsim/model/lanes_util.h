/* SPDX-License-Identifier: MIT */
/*
 * Shared by the interpreter's path-equivalence tests (test_lanes.c,
 * test_lanes_mem.c): a seeded generator, one wave on a bare interpreter
 * context, and the SH_OP_* a family's table row runs as.
 */
#ifndef LANES_UTIL_H
#define LANES_UTIL_H

#include <stdint.h>

#include "shader_priv.h"

/* xorshift64*: the same states from the same seed on every host. */
static inline uint64_t
lt_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/*
 * lt_ctx_new() - an interpreter context with one wave of @lanes lanes of
 * @family, its VGPRs allocated; @lanewise: the per-lane paths only.
 * lt_ctx_free() - free it.
 */
struct sh_ctx *lt_ctx_new(enum kfd_isa_family family, unsigned int lanes, int lanewise);
void lt_ctx_free(struct sh_ctx *c);

/*
 * lt_op_of() - the SH_OP_* the interpreter runs row @row of @family as
 * (shader.c binds them the same way, by name). Return: SH_OP_NONE when
 * the interpreter has none.
 */
unsigned int lt_op_of(enum kfd_isa_family family, const struct kfd_isa_row *row);
/* The mnemonic of SH_OP_* @id. */
const char *lt_op_name(unsigned int id);

#endif
