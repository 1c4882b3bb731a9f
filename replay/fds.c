/* SPDX-License-Identifier: MIT */
/*
 * The fd table: which live fd stands for each captured fd number, what
 * kind of file it is and which open file description (the scope of KFD
 * ids and GEM handles) it shares. The records that make fds (run_sys.c:
 * opens, dups; verify.c: fds an ioctl returns; dmabuf.c: stand-ins;
 * xfer.c: fds another process passed) bind them here; translation
 * (xlate.c) only reads it.
 */
#include <stdlib.h>
#include <unistd.h>

#include "replay_state.h"

int32_t
rp_ofd_new(struct rp_run *st, uint8_t kind, int32_t minor)
{
	struct rp_ofd *o = rp_vec_push(&st->ofds);

	if (!o)
		return -1;
	o->kind = kind;
	o->minor = minor;
	/* Every plain open of /dev/kfd reaches the one primary process. */
	o->proc = 0;
	return (int32_t)(st->ofds.n - 1);
}

struct rp_fdent *
rp_fd_get(struct rp_run *st, int32_t fd)
{
	if (fd < 0 || fd >= st->nfds)
		return NULL;
	return st->fds[fd].live >= 0 ? &st->fds[fd] : NULL;
}

int
rp_fd_live(struct rp_run *st, int32_t fd)
{
	struct rp_fdent *e = rp_fd_get(st, fd);

	return e ? e->live : -1;
}

static int
fd_grow(struct rp_run *st, int32_t fd)
{
	struct rp_fdent *n;
	int len;

	if (fd < 0 || fd >= RP_MAX_FD)
		return -1;
	if (fd < st->nfds)
		return 0;
	len = st->nfds ? st->nfds : 64;
	while (len <= fd)
		len *= 2;
	n = realloc(st->fds, (size_t)len * sizeof(*n));
	if (!n)
		return -1;
	for (int i = st->nfds; i < len; i++) {
		n[i].live = -1;
		n[i].ofd = -1;
		n[i].kind = 0;
		n[i].from_ioctl = 0;
	}
	st->fds = n;
	st->nfds = len;
	return 0;
}

void
rp_fd_unbind(struct rp_run *st, int32_t fd)
{
	struct rp_fdent *e = rp_fd_get(st, fd);

	if (!e)
		return;
	if (e->ofd >= 0) {
		struct rp_ofd *o = RP_AT(&st->ofds, struct rp_ofd, e->ofd);

		if (o->refs)
			o->refs--;
	}
	e->live = -1;
	e->ofd = -1;
	e->kind = 0;
	e->from_ioctl = 0;
}

void
rp_fd_bind(struct rp_run *st, int32_t fd, int live, uint8_t kind, int32_t ofd,
	   int from_ioctl)
{
	struct rp_fdent *e;

	if (fd_grow(st, fd) < 0)
		return;
	e = &st->fds[fd];
	if (e->live >= 0) {
		/*
		 * Closes of non-device fds are not traced: a number coming
		 * back means the captured process closed it. Ours goes too.
		 */
		if (e->from_ioctl && e->live != live)
			close(e->live);
		rp_fd_unbind(st, fd);
	}
	e->live = live;
	e->kind = kind;
	e->ofd = ofd;
	e->from_ioctl = (uint8_t)from_ioctl;
	if (ofd >= 0)
		RP_AT(&st->ofds, struct rp_ofd, ofd)->refs++;
	st->sum.mapped_fds++;
}
