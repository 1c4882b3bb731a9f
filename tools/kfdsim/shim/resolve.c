/* SPDX-License-Identifier: MIT */
/*
 * Path arguments: absolute paths that can be virtual, and paths relative to
 * a virtual directory fd (openat(dirfd, "refcnt") after open() of a
 * virtual directory, as libkmod does). Every other path is left to libc
 * before the device is even set up.
 */
#include <fcntl.h>

#include "shim.h"

bool
ksim_resolve_at(int dirfd, const char *path, int lflags, struct ksim_lookup *res)
{
	struct ksim_vnode *base = NULL;
	struct ksim_vfs *vfs;

	if (ksim_in_shim || !path)
		return false;
	if (path[0] == '/') {
		if (!ksim_path_candidate(path))
			return false;
	} else {
		struct ksim_ofd *ofd;

		if (dirfd == AT_FDCWD || !ksim_fd_maybe_ours(dirfd))
			return false;
		ofd = ksim_fd_get(dirfd);
		if (!ofd)
			return false;
		if (ofd->kind == KSIM_FD_VDIR)
			base = ofd->node;
		ksim_ofd_put(ofd);
		if (!base) {
			/* A device or file fd as dirfd: the kernel says ENOTDIR. */
			res->node = NULL;
			res->redirect = false;
			res->error = -ENOTDIR;
			return true;
		}
	}
	vfs = ksim_state_vfs();
	if (!vfs)
		return false;
	return ksim_vfs_lookup(vfs, base, path, lflags, res);
}
