/* SPDX-License-Identifier: MIT */
/*
 * The stat family. Device nodes are character devices (226:minor for
 * render nodes, which libdrm checks with major()/minor() and S_ISCHR);
 * sysfs attributes are 4 KiB read-only files; fds we handed out report the
 * node they were opened from. Also the pre-2.33 __xstat entry points for
 * binaries linked against older glibc.
 */
/* We define the plain and the 64-bit names ourselves: no header renaming. */
#undef _FILE_OFFSET_BITS

#include <fcntl.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "shim.h"

/* A directory that stands for a real one reports the real one if it exists. */
static int
stat_node(const struct ksim_vnode *node, struct stat *st)
{
	char path[4096];

	if (node->type == KSIM_V_DIR && !node->owned &&
	    ksim_vfs_path(node, path, sizeof(path)) >= 0 && ksim_real.stat(path, st) == 0)
		return 0;
	ksim_vfs_stat(node, st);
	return 0;
}

static int
shim_fstat(int fd, struct stat *st)
{
	struct ksim_ofd *ofd;

	ksim_real_init();
	if (ksim_in_shim || !ksim_fd_maybe_ours(fd))
		return ksim_real.fstat(fd, st);
	ksim_in_shim++;
	ofd = ksim_fd_get(fd);
	if (ofd)
		ksim_vfs_stat(ofd->node, st);
	ksim_ofd_put(ofd);
	ksim_in_shim--;
	return ofd ? 0 : ksim_real.fstat(fd, st);
}

static int
shim_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	struct ksim_lookup res;
	int ret;

	ksim_real_init();
	if (!ksim_in_shim && path && !*path && (flags & AT_EMPTY_PATH) && dirfd != AT_FDCWD)
		return shim_fstat(dirfd, st);
	if (!ksim_resolve_at(dirfd, path,
			     (flags & AT_SYMLINK_NOFOLLOW) ? KSIM_LOOKUP_NOFOLLOW : 0, &res))
		return ksim_real.fstatat(dirfd, path, st, flags);
	if (res.error)
		return ksim_fail(res.error);
	if (res.redirect)
		return ksim_real.fstatat(AT_FDCWD, res.real, st, flags);
	ksim_in_shim++;
	ret = stat_node(res.node, st);
	ksim_in_shim--;
	return ret;
}

KSIM_EXPORT int
stat(const char *path, struct stat *st)
{
	return shim_fstatat(AT_FDCWD, path, st, 0);
}

KSIM_EXPORT int
stat64(const char *path, struct stat64 *st)
{
	return shim_fstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

KSIM_EXPORT int
lstat(const char *path, struct stat *st)
{
	return shim_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

KSIM_EXPORT int
lstat64(const char *path, struct stat64 *st)
{
	return shim_fstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

KSIM_EXPORT int
fstat(int fd, struct stat *st)
{
	return shim_fstat(fd, st);
}

KSIM_EXPORT int
fstat64(int fd, struct stat64 *st)
{
	return shim_fstat(fd, (struct stat *)st);
}

KSIM_EXPORT int
fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return shim_fstatat(dirfd, path, st, flags);
}

KSIM_EXPORT int
fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return shim_fstatat(dirfd, path, (struct stat *)st, flags);
}

/* x86-64 has one struct stat layout: the version argument changes nothing. */
KSIM_EXPORT int __xstat(int ver, const char *path, struct stat *st);
KSIM_EXPORT int __xstat64(int ver, const char *path, struct stat64 *st);
KSIM_EXPORT int __lxstat(int ver, const char *path, struct stat *st);
KSIM_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st);
KSIM_EXPORT int __fxstat(int ver, int fd, struct stat *st);
KSIM_EXPORT int __fxstat64(int ver, int fd, struct stat64 *st);
KSIM_EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
KSIM_EXPORT int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st,
			     int flags);

KSIM_EXPORT int
__xstat(int ver, const char *path, struct stat *st)
{
	return shim_fstatat(AT_FDCWD, path, st, 0);
}

KSIM_EXPORT int
__xstat64(int ver, const char *path, struct stat64 *st)
{
	return shim_fstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

KSIM_EXPORT int
__lxstat(int ver, const char *path, struct stat *st)
{
	return shim_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

KSIM_EXPORT int
__lxstat64(int ver, const char *path, struct stat64 *st)
{
	return shim_fstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

KSIM_EXPORT int
__fxstat(int ver, int fd, struct stat *st)
{
	return shim_fstat(fd, st);
}

KSIM_EXPORT int
__fxstat64(int ver, int fd, struct stat64 *st)
{
	return shim_fstat(fd, (struct stat *)st);
}

KSIM_EXPORT int
__fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
	return shim_fstatat(dirfd, path, st, flags);
}

KSIM_EXPORT int
__fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags)
{
	return shim_fstatat(dirfd, path, (struct stat *)st, flags);
}

static void
stat_to_statx(const struct stat *st, struct statx *sx)
{
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_BASIC_STATS;
	sx->stx_blksize = (uint32_t)st->st_blksize;
	sx->stx_nlink = (uint32_t)st->st_nlink;
	sx->stx_uid = st->st_uid;
	sx->stx_gid = st->st_gid;
	sx->stx_mode = (uint16_t)st->st_mode;
	sx->stx_ino = st->st_ino;
	sx->stx_size = (uint64_t)st->st_size;
	sx->stx_blocks = (uint64_t)st->st_blocks;
	sx->stx_atime.tv_sec = st->st_atim.tv_sec;
	sx->stx_atime.tv_nsec = (uint32_t)st->st_atim.tv_nsec;
	sx->stx_mtime.tv_sec = st->st_mtim.tv_sec;
	sx->stx_mtime.tv_nsec = (uint32_t)st->st_mtim.tv_nsec;
	sx->stx_ctime.tv_sec = st->st_ctim.tv_sec;
	sx->stx_ctime.tv_nsec = (uint32_t)st->st_ctim.tv_nsec;
	sx->stx_rdev_major = major(st->st_rdev);
	sx->stx_rdev_minor = minor(st->st_rdev);
	sx->stx_dev_major = major(st->st_dev);
	sx->stx_dev_minor = minor(st->st_dev);
}

/* Not inlined into statx(), whose path glibc declares non-null. */
static bool
path_is_empty(const char *path)
{
	return path && !*path;
}

KSIM_EXPORT int
statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *sx)
{
	struct stat st;
	bool ours = false;

	ksim_real_init();
	if (!ksim_real.statx)
		return ksim_fail(-ENOSYS);
	if (ksim_in_shim)
		return ksim_real.statx(dirfd, path, flags, mask, sx);
	if (path_is_empty(path) && (flags & AT_EMPTY_PATH)) {
		ours = ksim_fd_maybe_ours(dirfd);
	} else {
		struct ksim_lookup res;

		if (ksim_resolve_at(dirfd, path,
				    (flags & AT_SYMLINK_NOFOLLOW) ? KSIM_LOOKUP_NOFOLLOW : 0,
				    &res)) {
			if (res.error)
				return ksim_fail(res.error);
			if (res.redirect)
				return ksim_real.statx(AT_FDCWD, res.real, flags, mask, sx);
			ours = true;
		}
	}
	if (!ours)
		return ksim_real.statx(dirfd, path, flags, mask, sx);
	if (shim_fstatat(dirfd, path, &st, flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) < 0)
		return -1;
	stat_to_statx(&st, sx);
	return 0;
}
