/* SPDX-License-Identifier: MIT */
/*
 * Calls that ask about a path without opening it: access, readlink and
 * realpath. libdrm resolves /sys/dev/char/226:<m>/device with realpath()
 * (glibc's realpath reads links internally, past any readlink wrapper, so
 * it must be answered here) and reads .../device/subsystem with readlink().
 * readlink of /proc/self/fd/<n> names the device for our fds, and
 * "/dmabuf:" for the dma-bufs the model exported, as the kernel's would.
 */
/* We define the plain and the 64-bit names ourselves: no header renaming. */
#undef _FILE_OFFSET_BITS

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim.h"

static int
access_node(const struct ksim_vnode *node, int mode)
{
	mode_t perm = node->perm;

	if (node->type == KSIM_V_DIR)
		perm = 0755;
	if (((mode & R_OK) && !(perm & 0444)) || ((mode & W_OK) && !(perm & 0222)) ||
	    ((mode & X_OK) && !(perm & 0111)))
		return ksim_fail(-EACCES);
	return 0;
}

static int
shim_faccessat(int dirfd, const char *path, int mode, int flags)
{
	struct ksim_lookup res;
	int ret;

	ksim_real_init();
	if (!ksim_resolve_at(dirfd, path,
			     (flags & AT_SYMLINK_NOFOLLOW) ? KSIM_LOOKUP_NOFOLLOW : 0, &res))
		return ksim_real.faccessat(dirfd, path, mode, flags);
	if (res.error)
		return ksim_fail(res.error);
	if (res.redirect)
		return ksim_real.faccessat(AT_FDCWD, res.real, mode, flags);
	if (res.node->type == KSIM_V_DIR && !res.node->owned) {
		char real[4096];

		if (ksim_vfs_path(res.node, real, sizeof(real)) >= 0 &&
		    ksim_real.faccessat(AT_FDCWD, real, mode, flags) == 0)
			return 0;
	}
	ksim_in_shim++;
	ret = access_node(res.node, mode);
	ksim_in_shim--;
	return ret;
}

KSIM_EXPORT int
access(const char *path, int mode)
{
	return shim_faccessat(AT_FDCWD, path, mode, 0);
}

KSIM_EXPORT int
faccessat(int dirfd, const char *path, int mode, int flags)
{
	return shim_faccessat(dirfd, path, mode, flags);
}

KSIM_EXPORT int
euidaccess(const char *path, int mode)
{
	return shim_faccessat(AT_FDCWD, path, mode, AT_EACCESS);
}

KSIM_EXPORT int
eaccess(const char *path, int mode)
{
	return shim_faccessat(AT_FDCWD, path, mode, AT_EACCESS);
}

/* "/proc/self/fd/N" or "/proc/<our pid>/fd/N" -> N, else -1. */
static int
proc_fd_number(const char *path)
{
	const char *p;
	char *end;
	long pid, n;

	if (strncmp(path, "/proc/", 6) != 0)
		return -1;
	p = path + 6;
	if (strncmp(p, "self/", 5) == 0) {
		p += 5;
	} else {
		pid = strtol(p, &end, 10);
		if (end == p || *end != '/' || pid != (long)getpid())
			return -1;
		p = end + 1;
	}
	if (strncmp(p, "fd/", 3) != 0)
		return -1;
	p += 3;
	n = strtol(p, &end, 10);
	if (end == p || *end || n < 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

/* What the link of a BO's memfd (tools/kfdsim/model/memory.c) starts with. */
#define DMABUF_MEMFD	"/memfd:kfdsim-bo "

static ssize_t
copy_link(const char *target, char *buf, size_t size)
{
	size_t len = strlen(target);

	/* readlink truncates silently and does not terminate */
	if (len > size)
		len = size;
	memcpy(buf, target, len);
	return (ssize_t)len;
}

static ssize_t
shim_readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	struct ksim_lookup res;
	char target[4096];
	int fd;

	ksim_real_init();
	if (!ksim_in_shim && path && (fd = proc_fd_number(path)) >= 0 &&
	    ksim_fd_maybe_ours(fd)) {
		struct ksim_ofd *ofd;
		int n = -1;

		ksim_in_shim++;
		ofd = ksim_fd_get(fd);
		if (ofd)
			n = ksim_vfs_path(ofd->node, target, sizeof(target));
		ksim_ofd_put(ofd);
		ksim_in_shim--;
		if (n >= 0)
			return copy_link(target, buf, size);
	}
	if (!ksim_in_shim && path && (fd = proc_fd_number(path)) >= 0) {
		ssize_t n = ksim_real.readlinkat(dirfd, path, target,
						 sizeof(target) - 1);

		/* A dma-buf the model exported is a dup of a BO's memfd;
		 * the kernel names a dma-buf's file "/dmabuf:". */
		if (n >= 0) {
			target[n] = '\0';
			if (!strncmp(target, DMABUF_MEMFD, strlen(DMABUF_MEMFD)))
				return copy_link("/dmabuf:", buf, size);
			return copy_link(target, buf, size);
		}
	}
	if (!ksim_resolve_at(dirfd, path, KSIM_LOOKUP_NOFOLLOW, &res))
		return ksim_real.readlinkat(dirfd, path, buf, size);
	if (res.error)
		return ksim_fail(res.error);
	if (res.redirect)
		return ksim_real.readlinkat(AT_FDCWD, res.real, buf, size);
	if (res.node->type != KSIM_V_LINK)
		return ksim_fail(-EINVAL);
	return copy_link(res.node->target, buf, size);
}

KSIM_EXPORT ssize_t
readlink(const char *path, char *buf, size_t size)
{
	return shim_readlinkat(AT_FDCWD, path, buf, size);
}

KSIM_EXPORT ssize_t
readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	return shim_readlinkat(dirfd, path, buf, size);
}

KSIM_EXPORT ssize_t __readlink_chk(const char *path, char *buf, size_t size, size_t buflen);
KSIM_EXPORT ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t size,
				     size_t buflen);

/* The fortified forms: the caller's buffer size bounds the copy. */
KSIM_EXPORT ssize_t
__readlink_chk(const char *path, char *buf, size_t size, size_t buflen)
{
	return shim_readlinkat(AT_FDCWD, path, buf, size < buflen ? size : buflen);
}

KSIM_EXPORT ssize_t
__readlinkat_chk(int dirfd, const char *path, char *buf, size_t size, size_t buflen)
{
	return shim_readlinkat(dirfd, path, buf, size < buflen ? size : buflen);
}

static char *
shim_realpath(const char *path, char *resolved)
{
	struct ksim_lookup res;
	char buf[PATH_MAX];
	int n;

	ksim_real_init();
	if (!ksim_resolve_at(AT_FDCWD, path, 0, &res))
		return ksim_real.realpath(path, resolved);
	if (res.error) {
		errno = -res.error;
		return NULL;
	}
	if (res.redirect)
		return ksim_real.realpath(res.real, resolved);
	n = ksim_vfs_path(res.node, buf, sizeof(buf));
	if (n < 0) {
		errno = -n;
		return NULL;
	}
	if (!resolved)
		return strdup(buf);
	memcpy(resolved, buf, (size_t)n + 1);
	return resolved;
}

KSIM_EXPORT char *
realpath(const char *path, char *resolved)
{
	return shim_realpath(path, resolved);
}

KSIM_EXPORT char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);

KSIM_EXPORT char *
__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
	/* PATH_MAX is the most any answer needs; shorter buffers were a bug already */
	return shim_realpath(path, resolved);
}

KSIM_EXPORT char *
canonicalize_file_name(const char *path)
{
	return shim_realpath(path, NULL);
}
