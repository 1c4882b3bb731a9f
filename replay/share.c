/* SPDX-License-Identifier: MIT */
/*
 * ROCm IPC share handles. IPC_EXPORT_HANDLE returns 16 bytes the kernel
 * makes up (a random token on the ROCm kernel), and IPC_IMPORT_HANDLE
 * takes them back. A session that imports what it exported itself names
 * the captured token; the replay must hand the kernel the live one.
 * Sessions export few handles, so a linear table is enough. In a tree
 * replay, the processes share their tokens (tree.c).
 */
#include <string.h>

#include "replay_state.h"

void
rp_share_learn(struct rp_run *st, const uint8_t *cap, const uint8_t *live)
{
	struct rp_share *sh;
	size_t i;

	for (i = 0; i < st->shares.n; i++) {
		sh = RP_AT(&st->shares, struct rp_share, i);
		if (!memcmp(sh->cap, cap, sizeof(sh->cap))) {
			/* Exported again: the newest token wins. */
			memcpy(sh->live, live, sizeof(sh->live));
			return;
		}
	}
	if (st->r->tree)
		rp_tree_share_learn(st, cap, live);
	sh = rp_vec_push(&st->shares);
	if (!sh)
		return;	/* bound reached: the import then diverges, visibly */
	memcpy(sh->cap, cap, sizeof(sh->cap));
	memcpy(sh->live, live, sizeof(sh->live));
}

void
rp_share_xlate(struct rp_run *st, uint8_t *handle)
{
	size_t i;

	for (i = 0; i < st->shares.n; i++) {
		const struct rp_share *sh =
			RP_AT(&st->shares, struct rp_share, i);

		if (!memcmp(sh->cap, handle, sizeof(sh->cap))) {
			memcpy(handle, sh->live, sizeof(sh->live));
			return;
		}
	}
	/* Another process of the tree may have exported it. */
	if (st->r->tree)
		rp_tree_share_xlate(st, handle);
}
