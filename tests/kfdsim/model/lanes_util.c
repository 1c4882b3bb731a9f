/* SPDX-License-Identifier: MIT */
/* The bare interpreter context and row binding of lanes_util.h. */
#include <stdlib.h>
#include <string.h>

#include "lanes_util.h"

static const char *const op_names[SH_OP_COUNT] = {
#define SH_NAME(id, name) [SH_OP_##id] = name,
	SH_OPS(SH_NAME)
#undef SH_NAME
};

struct sh_ctx *
lt_ctx_new(enum kfd_isa_family family, unsigned int lanes, int lanewise)
{
	struct sh_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->vgprs = calloc(SH_VGPRS, sizeof(*c->vgprs));
	if (!c->vgprs) {
		free(c);
		return NULL;
	}
	c->family = family;
	c->lanewise = lanewise;
	c->nwaves = 1;
	c->waves[0].v = c->vgprs;
	c->waves[0].lanes = lanes;
	c->waves[0].state = SH_RUN;
	return c;
}

void
lt_ctx_free(struct sh_ctx *c)
{
	if (!c)
		return;
	free(c->vgprs);
	free(c);
}

unsigned int
lt_op_of(enum kfd_isa_family family, const struct kfd_isa_row *row)
{
	char buf[64];
	const char *name = sh_family_name(family, row->mnemonic, buf, sizeof(buf));

	if (!name)
		return SH_OP_NONE;
	for (unsigned int k = 1; k < SH_OP_COUNT; k++)
		if (!strcmp(op_names[k], name))
			return k;
	return SH_OP_NONE;
}

const char *
lt_op_name(unsigned int id)
{
	return id < SH_OP_COUNT && op_names[id] ? op_names[id] : "?";
}
