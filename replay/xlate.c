/* SPDX-License-Identifier: MIT */
/*
 * Translating captured values into live ones, by the role the schema gives
 * each field:
 *
 *   GPU_ID		the GPU pairing (kfd_replay_match())
 *   HANDLE		learned from ALLOC/IMPORT results; else gpu_id << 32
 *			is translated and the idr kept
 *   QUEUE_ID, EVENT_ID, EVENT_SLOT, GEM_HANDLE
 *			learned from the calls that created them
 *   FD			the fd table (opens, dups, fds ioctls return)
 *   MMAP_OFFSET, DOORBELL_OFFSET
 *			/dev/kfd offsets carry a type and gpu_id bits, which
 *			are translated; render-node offsets are learned
 *   CPU_ADDR		the address-space plan (relocations)
 *   PID		the captured process becomes the replayer
 *
 * Everything else (GPU VAs included: the thunk chose them and KFD accepts
 * any free VA) is kept as captured.
 */
#include <kfdtrace/kfd_abi.h>

#include "replay_state.h"

uint32_t
rp_gpu_xlate(const struct rp_run *st, uint32_t gpu_id)
{
	const struct rp_match *mt = &st->r->match;
	unsigned int i;

	if (mt->identity || !gpu_id || gpu_id == KFD_ABI_INVALID_GPUID)
		return gpu_id;
	for (i = 0; i < mt->npairs; i++)
		if (mt->pairs[i].captured == gpu_id)
			return mt->pairs[i].live;
	return gpu_id;
}

uint64_t
rp_handle_xlate(const struct rp_run *st, int scope, uint64_t h)
{
	uint64_t v;

	if (!h)
		return 0;
	if (rp_map_get(&st->fwd, RP_K_HANDLE, (unsigned int)scope, h, &v))
		return v;
	return (uint64_t)rp_gpu_xlate(st, (uint32_t)(h >> 32)) << 32 |
	       (h & 0xffffffffull);
}

uint64_t
rp_kfd_offset_xlate(const struct rp_run *st, uint64_t off)
{
	const struct rp_match *mt = &st->r->match;
	uint64_t bits = KFD_ABI_MMAP_GET_GPU_ID(off);
	unsigned int i;

	if (!bits || mt->identity)
		return off;
	for (i = 0; i < mt->npairs; i++) {
		if ((mt->pairs[i].captured & 0xffff) == bits)
			return (off & ~KFD_ABI_MMAP_GPU_ID_MASK) |
			       KFD_ABI_MMAP_GPU_ID(mt->pairs[i].live & 0xffff);
	}
	return off;
}

/* A render-node offset has no bits above the gpu_id field. */
static int
is_kfd_offset(uint64_t off)
{
	return (off >> KFD_ABI_MMAP_GPU_ID_SHIFT) != 0;
}

uint64_t
rp_offset_xlate(const struct rp_run *st, uint64_t off)
{
	uint64_t v;

	if (!off)
		return 0;
	if (is_kfd_offset(off))
		return rp_kfd_offset_xlate(st, off);
	if (rp_map_get(&st->fwd, RP_K_OFFSET, 0, off, &v))
		return v;
	return off;
}

static uint64_t
id_xlate(const struct rp_run *st, unsigned int kind, int scope, uint64_t v)
{
	uint64_t l;

	if (rp_map_get(&st->fwd, kind, (unsigned int)scope, v, &l))
		return l;
	return v;
}

uint64_t
rp_value_xlate(struct rp_run *st, const struct kfd_field *f, int scope,
	       int gem_scope, uint64_t v)
{
	switch (f->role) {
	case KFD_ROLE_GPU_ID:
		return rp_gpu_xlate(st, (uint32_t)v);
	case KFD_ROLE_HANDLE:
		return rp_handle_xlate(st, scope, v);
	case KFD_ROLE_QUEUE_ID: {
		uint32_t q = (uint32_t)v, sb = kfd_role_status_bits(f->role);

		if (q == KFD_ABI_INVALID_QUEUEID)
			return v;
		return id_xlate(st, RP_K_QUEUE, scope, q & ~sb) | (q & sb);
	}
	case KFD_ROLE_EVENT_ID:
		return id_xlate(st, RP_K_EVENT, scope, v);
	case KFD_ROLE_EVENT_SLOT:
		return id_xlate(st, RP_K_SLOT, scope, v);
	case KFD_ROLE_GEM_HANDLE:
		return id_xlate(st, RP_K_GEM, gem_scope, v);
	case KFD_ROLE_FD: {
		int32_t fd = (int32_t)(uint32_t)v;

		/*
		 * A dma-buf from outside the process has its stand-in bound
		 * by now: the run makes it before it translates the call's
		 * inputs (rp_dmabuf_stand_in()).
		 */
		if (fd < 0)
			return v;
		return (uint32_t)rp_fd_live(st, fd);
	}
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
		return rp_offset_xlate(st, v);
	case KFD_ROLE_CPU_ADDR:
		return v ? rp_as_xlate(&st->as, v) : 0;
	case KFD_ROLE_PID: {
		int32_t live;

		if ((int32_t)v == st->cap_pid)
			return (uint32_t)st->live_pid;
		/* Another process of the run: its replay's pid. */
		live = rp_tree_pid_live(st, (int32_t)v);
		return live > 0 ? (uint32_t)live : v;
	}
	default:
		return v;
	}
}
