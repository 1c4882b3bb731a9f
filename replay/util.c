/* SPDX-License-Identifier: MIT */
/*
 * Containers of the replayer: bounded growable arrays. (Its maps are the
 * common u64 map, kfdtrace/common/u64map.h, behind replay_base.h.)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay_priv.h"

void
rp_vec_init(struct rp_vec *v, size_t esz)
{
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
	v->esz = esz;
}

void
rp_vec_free(struct rp_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
}

void *
rp_vec_push(struct rp_vec *v)
{
	void *slot;

	if (v->n >= RP_MAX_OBJS)
		return NULL;
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 16;
		void *nd;

		if (ncap > RP_MAX_OBJS)
			ncap = RP_MAX_OBJS;
		nd = realloc(v->data, ncap * v->esz);
		if (!nd)
			return NULL;
		v->data = nd;
		v->cap = ncap;
	}
	slot = (char *)v->data + v->n * v->esz;
	memset(slot, 0, v->esz);
	v->n++;
	return slot;
}
