/* SPDX-License-Identifier: MIT */
/*
 * The dependencies between the records of a trace being reduced
 * (reduce_priv.h). A record depends on the earlier records of its process
 * that made what it uses:
 *
 *  - a memory handle, queue or event id by its schema role
 *    (rp_ioctl_ids()): the call that created it;
 *  - an fd an open or dup returned; the mapping a munmap undoes.
 *
 * And an object's end goes with it when a later object takes its place
 * (struct red_reuse): the creation of an id number an earlier object had
 * (the kernel hands out the lowest free id, an idr, so the later object
 * got the number because the earlier one was gone), or an allocation
 * whose GPU VA range overlaps an earlier one's (KFD maps a range once).
 * A candidate that keeps both objects but not the earlier one's end is
 * not what the capture did: the earlier object would still be there,
 * mapped, holding its memory and its range, when the later one is made
 * (a replay translates the number, but the program emit-c writes maps
 * the later buffer over the earlier one's range). Such a candidate loses
 * the earlier object instead, with what uses it. The rule is not a plain
 * dependency: with the earlier object gone too, nothing needs its end,
 * and the lives of a number the kernel reuses all the time stay
 * removable one by one.
 *
 * Records that are not device requests are pinned: never removed.
 */
#include <errno.h>
#include <stdlib.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/schema.h>

#include "reduce_priv.h"
#include "replay_model.h"

static int
add_dep(struct red *d, size_t i, uint64_t j)
{
	uint32_t *v;

	if (j >= i)
		return 0;
	for (uint32_t k = 0; k < d->ndep[i]; k++)
		if (d->dep[i][k] == j)
			return 0;
	v = realloc(d->dep[i], (d->ndep[i] + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[d->ndep[i]++] = (uint32_t)j;
	d->dep[i] = v;
	return 0;
}

/* A memory object's GPU VA range, while allocated or once freed. */
struct red_va {
	uint64_t handle;
	uint64_t start, end;
	size_t made, end_at;	/* its ALLOC, and its FREE once freed */
};

struct ids_ctx {
	struct red *d;
	struct kc_u64map made;	/* (kind, id) -> its creation */
	/* (kind, id) -> its last life's creation << 32 | its end */
	struct kc_u64map ended;
	struct rp_vec live, freed;	/* struct red_va */
	size_t i;
	int failed;		/* the call failed: it made and ended nothing */
	int err;
};

/* The later creation @c->i takes the place of the object made..end. */
static int
add_reuse(struct ids_ctx *c, uint64_t made, uint64_t end)
{
	struct red *d = c->d;
	struct red_reuse *v;

	if (d->nreuse && d->reuse[d->nreuse - 1].again == c->i &&
	    d->reuse[d->nreuse - 1].made == made &&
	    d->reuse[d->nreuse - 1].end == end)
		return 0;
	v = realloc(d->reuse, (d->nreuse + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[d->nreuse++] = (struct red_reuse){ (uint32_t)made, (uint32_t)end,
					     (uint32_t)c->i };
	d->reuse = v;
	return 0;
}

static void
on_id(void *ctx, unsigned int kind, uint64_t value, int how)
{
	struct ids_ctx *c = ctx;
	uint64_t j;
	int r = 0;

	if (c->failed && how == RP_ID_MAKE)
		return;
	if (how == RP_ID_MAKE) {
		if (rp_map_get(&c->ended, RP_K_HANDLE + kind, 0, value, &j))
			r = add_reuse(c, j >> 32, j & 0xffffffffu);
		if (!r)
			r = rp_map_put(&c->made, RP_K_HANDLE + kind, 0, value, c->i);
	} else if (rp_map_get(&c->made, RP_K_HANDLE + kind, 0, value, &j)) {
		r = add_dep(c->d, c->i, j);
		/* Its end: a later creation of the number takes its place. */
		if (!r && how == RP_ID_END && !c->failed)
			r = rp_map_put(&c->ended, RP_K_HANDLE + kind, 0, value,
				       j << 32 | c->i);
	}
	if (r < 0)
		c->err = -ENOMEM;
}

/*
 * An allocation's VA range takes the place of the earlier freed ranges it
 * overlaps. Those it covers whole leave the list: a later allocation that
 * overlaps them overlaps this one too, which takes their place while it
 * is kept.
 */
static int
va_alloc(struct ids_ctx *c, uint64_t handle, uint64_t va, uint64_t size)
{
	struct red_va *v = c->freed.data, *n;
	size_t k, w = 0;
	int r = 0;

	if (!size || va + size < va)
		return 0;
	for (k = 0; k < c->freed.n; k++) {
		if (v[k].start < va + size && va < v[k].end) {
			r = r ? r : add_reuse(c, v[k].made, v[k].end_at);
			if (va <= v[k].start && v[k].end <= va + size)
				continue;
		}
		v[w++] = v[k];
	}
	c->freed.n = w;
	n = rp_vec_push(&c->live);
	if (!n)
		return r ? r : -ENOMEM;
	*n = (struct red_va){ handle, va, va + size, c->i, 0 };
	return r;
}

/* A free: its range joins the freed ones, by the free. */
static int
va_free(struct ids_ctx *c, uint64_t handle)
{
	struct red_va *v = c->live.data, *n;

	for (size_t k = 0; k < c->live.n; k++) {
		if (v[k].handle != handle)
			continue;
		n = rp_vec_push(&c->freed);
		if (!n)
			return -ENOMEM;
		*n = v[k];
		n->end_at = c->i;
		v[k] = v[--c->live.n];
		return 0;
	}
	return 0;
}

/* The VA side of an ioctl (only calls that succeeded change it). */
static int
va_ioctl(struct ids_ctx *c, const struct kt_ioctl_rec *io,
	 const struct kfd_ioctl_desc *desc)
{
	const struct rp_rows *r = rp_rows();
	size_t n = io->arg_size;

	if (io->ret < 0 || !io->arg_before)
		return 0;
	if (desc == r->alloc && io->arg_after)
		return va_alloc(c, rp_fget(r->alloc_handle, io->arg_after, n),
				rp_fget(r->alloc_va, io->arg_before, n),
				rp_fget(r->alloc_size, io->arg_before, n));
	if (desc == r->free_mem)
		return va_free(c, rp_fget(r->free_handle, io->arg_before, n));
	return 0;
}

int
red_build_deps(struct red *d, const struct red_file *f)
{
	struct kc_u64map fds = { 0 }, maps = { 0 };
	struct ids_ctx c = { .d = d };
	uint64_t j;
	int r = 0;

	rp_vec_init(&c.live, sizeof(struct red_va));
	rp_vec_init(&c.freed, sizeof(struct red_va));
	for (size_t i = f->first; i < f->first + f->n && !r; i++) {
		const struct kt_record *rec = d->rec[i];
		int32_t fd = -1, made_fd = -1;

		c.i = i;
		switch (rec->type) {
		case KT_REC_IOCTL: {
			const struct kfd_ioctl_desc *desc =
				kt_ioctl_row(&rec->u.ioctl);

			fd = rec->u.ioctl.fd;
			c.failed = rec->u.ioctl.ret < 0;
			if (desc) {
				rp_ioctl_ids(rec, desc, on_id, &c);
				r = c.err ? c.err : va_ioctl(&c, &rec->u.ioctl, desc);
			}
			break;
		}
		case KT_REC_OPEN:
			made_fd = (int32_t)rec->u.open.ret;
			break;
		case KT_REC_CLOSE:
			fd = rec->u.close.fd;
			break;
		case KT_REC_DUP:
			fd = rec->u.dup.oldfd;
			made_fd = (int32_t)rec->u.dup.ret;
			break;
		case KT_REC_MMAP:
			fd = rec->u.mmap.fd;
			if (rp_map_put(&maps, RP_K_OFFSET, 0, rec->u.mmap.result, i) < 0)
				r = -ENOMEM;
			break;
		case KT_REC_MUNMAP:
			if (rp_map_get(&maps, RP_K_OFFSET, 0, rec->u.munmap.addr, &j))
				r = add_dep(d, i, j);
			break;
		default:
			d->pinned[i] = 1;
			break;
		}
		if (!r && fd >= 0 && rp_map_get(&fds, RP_K_SLOT, 0, (uint64_t)fd, &j))
			r = add_dep(d, i, j);
		if (!r && made_fd >= 0 &&
		    rp_map_put(&fds, RP_K_SLOT, 0, (uint64_t)made_fd, i) < 0)
			r = -ENOMEM;
	}
	rp_map_free(&c.made);
	rp_map_free(&c.ended);
	rp_vec_free(&c.live);
	rp_vec_free(&c.freed);
	rp_map_free(&fds);
	rp_map_free(&maps);
	return r;
}

int
red_close_keep(const struct red *d, uint8_t *keep)
{
	int changed;

	do {
		/* Dependencies come first: one pass up settles them. */
		for (size_t i = 0; i < d->n; i++) {
			if (!keep[i] || d->pinned[i])
				continue;
			for (uint32_t k = 0; k < d->ndep[i]; k++)
				if (!keep[d->dep[i][k]]) {
					keep[i] = 0;
					break;
				}
		}
		/* An object that lost its end, taken by a later one, goes;
		 * then what used it. Records only go: this ends. */
		changed = 0;
		for (size_t k = 0; k < d->nreuse; k++) {
			const struct red_reuse *u = &d->reuse[k];

			if (keep[u->again] && keep[u->made] && !keep[u->end] &&
			    !d->pinned[u->made]) {
				keep[u->made] = 0;
				changed = 1;
			}
		}
	} while (changed);
	return d->target == RED_NO_TARGET || keep[d->target] ? 0 : -1;
}
