/* SPDX-License-Identifier: MIT */
/*
 * open() and fopen() in all their glibc spellings. A virtual file becomes a
 * sealed memfd holding its rendered text, so read, pread, fgets, getline,
 * fscanf, lseek and mmap work on it unchanged; a device node becomes the
 * model's fd; a virtual directory becomes an fd that *at() calls and
 * fdopendir() understand.
 */
/* We define the plain and the 64-bit names ourselves: no header renaming. */
#undef _FILE_OFFSET_BITS

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ksim.h"
#include "shim.h"

/*
 * Set @mode from the variadic argument after @flags: the caller passes one
 * only when the flags create a file (O_CREAT or O_TMPFILE).
 */
#define MODE_ARG(mode, flags)						\
	do {								\
		if (((flags) & O_CREAT) ||				\
		    ((flags) & O_TMPFILE) == O_TMPFILE) {		\
			va_list ap;					\
									\
			va_start(ap, flags);				\
			(mode) = va_arg(ap, mode_t);			\
			va_end(ap);					\
		}							\
	} while (0)

static int
open_vdir(struct ksim_vnode *node, int flags)
{
	char path[4096];
	int fd, ret;

	if ((flags & O_ACCMODE) != O_RDONLY)
		return ksim_fail(-EISDIR);
	/* A directory standing for a real one opens the real one if it exists. */
	if (!node->owned && ksim_vfs_path(node, path, sizeof(path)) >= 0) {
		fd = ksim_real.open(path, flags);
		if (fd >= 0 || errno != ENOENT)
			return fd;
	}
	fd = memfd_create("kfdsim-vdir", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
	if (fd < 0)
		return -1;
	ret = ksim_fd_register(fd, KSIM_FD_VDIR, node, NULL);
	if (ret < 0) {
		ksim_real.close(fd);
		return ksim_fail(ret);
	}
	return fd;
}

static int
open_vfile(struct ksim_vnode *node, int flags)
{
	int fd, ret;

	if (flags & O_DIRECTORY)
		return ksim_fail(-ENOTDIR);
	if ((flags & O_ACCMODE) != O_RDONLY && !(node->perm & 0222))
		return ksim_fail(-EACCES);
	fd = ksim_vfs_materialize(node, flags);
	if (fd < 0)
		return ksim_fail(fd);
	ret = ksim_fd_register(fd, KSIM_FD_VFILE, node, NULL);
	if (ret < 0) {
		ksim_real.close(fd);
		return ksim_fail(ret);
	}
	return fd;
}

static int
open_device(struct ksim_vnode *node, int flags)
{
	struct ksim_file *f;
	int err, fd, ret;

	if (flags & O_DIRECTORY)
		return ksim_fail(-ENOTDIR);
	f = ksim_state_open_device(node, flags, &err);
	if (!f)
		return ksim_fail(err);
	fd = ksim_file_fd(f);
	ret = ksim_fd_register(fd, KSIM_FD_DEVICE, node, f);
	if (ret < 0) {
		ksim_state_close_device(f);
		ksim_real.close(fd);
		return ksim_fail(ret);
	}
	ksim_dbg("open %s -> fd %d\n", node->name, fd);
	return fd;
}

static int
open_node(struct ksim_vnode *node, int flags)
{
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return ksim_fail(-EEXIST);
	switch (node->type) {
	case KSIM_V_DIR:
		return open_vdir(node, flags);
	case KSIM_V_FILE:
		return open_vfile(node, flags);
	case KSIM_V_CHR:
		return open_device(node, flags);
	case KSIM_V_LINK:
		/* only reached with O_NOFOLLOW */
		return ksim_fail(-ELOOP);
	}
	return ksim_fail(-ENOENT);
}

/*
 * A real file opened: its number was free, so an entry of ours at it is
 * left over from a close we did not see (fdtab.c).
 */
static int
fresh(int fd)
{
	if (fd >= 0 && !ksim_in_shim)
		ksim_fd_fresh(fd);
	return fd;
}

static FILE *
fresh_fp(FILE *fp)
{
	if (fp && !ksim_in_shim)
		ksim_fd_fresh(fileno(fp));
	return fp;
}

static int
shim_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	struct ksim_lookup res;
	int ret;

	ksim_real_init();
	if (!ksim_resolve_at(dirfd, path, (flags & O_NOFOLLOW) ? KSIM_LOOKUP_NOFOLLOW : 0,
			     &res))
		return fresh(ksim_real.openat(dirfd, path, flags, mode));
	if (res.error)
		return ksim_fail(res.error);
	if (res.redirect)
		return fresh(ksim_real.openat(AT_FDCWD, res.real, flags, mode));
	ksim_in_shim++;
	ret = open_node(res.node, flags);
	ksim_in_shim--;
	return ret;
}

KSIM_EXPORT int
open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(mode, flags);
	return shim_openat(AT_FDCWD, path, flags, mode);
}

KSIM_EXPORT int
open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(mode, flags);
	return shim_openat(AT_FDCWD, path, flags, mode);
}

KSIM_EXPORT int
openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(mode, flags);
	return shim_openat(dirfd, path, flags, mode);
}

KSIM_EXPORT int
openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(mode, flags);
	return shim_openat(dirfd, path, flags, mode);
}

/* The _FORTIFY_SOURCE entry points: no mode argument. */
KSIM_EXPORT int __open_2(const char *path, int flags);
KSIM_EXPORT int __open64_2(const char *path, int flags);
KSIM_EXPORT int __openat_2(int dirfd, const char *path, int flags);
KSIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags);

KSIM_EXPORT int
__open_2(const char *path, int flags)
{
	return shim_openat(AT_FDCWD, path, flags, 0);
}

KSIM_EXPORT int
__open64_2(const char *path, int flags)
{
	return shim_openat(AT_FDCWD, path, flags, 0);
}

KSIM_EXPORT int
__openat_2(int dirfd, const char *path, int flags)
{
	return shim_openat(dirfd, path, flags, 0);
}

KSIM_EXPORT int
__openat64_2(int dirfd, const char *path, int flags)
{
	return shim_openat(dirfd, path, flags, 0);
}

KSIM_EXPORT int
creat(const char *path, mode_t mode)
{
	return shim_openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

KSIM_EXPORT int
creat64(const char *path, mode_t mode)
{
	return shim_openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/*
 * fopen mode -> open flags and the mode string fdopen accepts. Returns -1
 * for a malformed mode (fopen's EINVAL).
 */
static int
fopen_flags(const char *mode, char fdmode[4])
{
	int flags;

	switch (mode[0]) {
	case 'r': flags = O_RDONLY; break;
	case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; break;
	case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; break;
	default: return -1;
	}
	fdmode[0] = mode[0];
	fdmode[1] = '\0';
	for (const char *m = mode + 1; *m && *m != ','; m++) {
		switch (*m) {
		case '+':
			flags = (flags & ~O_ACCMODE) | O_RDWR;
			strcpy(fdmode + 1, "+");
			break;
		case 'e':
			flags |= O_CLOEXEC;
			break;
		case 'x':
			flags |= O_EXCL;
			break;
		default:
			break;
		}
	}
	return flags;
}

static FILE *
shim_fopen(const char *path, const char *mode)
{
	struct ksim_lookup res;
	char fdmode[4];
	FILE *fp;
	int flags, fd;

	ksim_real_init();
	if (!mode || !ksim_resolve_at(AT_FDCWD, path, 0, &res))
		return fresh_fp(ksim_real.fopen(path, mode));
	if (res.error) {
		errno = -res.error;
		return NULL;
	}
	if (res.redirect)
		return fresh_fp(ksim_real.fopen(res.real, mode));
	flags = fopen_flags(mode, fdmode);
	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	ksim_in_shim++;
	fd = open_node(res.node, flags);
	if (fd < 0) {
		ksim_in_shim--;
		return NULL;
	}
	fp = fdopen(fd, fdmode);
	if (!fp) {
		int saved = errno;

		ksim_fd_forget(fd);
		ksim_real.close(fd);
		errno = saved;
	}
	ksim_in_shim--;
	return fp;
}

KSIM_EXPORT FILE *
fopen(const char *path, const char *mode)
{
	return shim_fopen(path, mode);
}

KSIM_EXPORT FILE *
fopen64(const char *path, const char *mode)
{
	return shim_fopen(path, mode);
}

/*
 * glibc's fclose() closes the fd internally, past our close(): forget the
 * fd here so that a virtual file's entry does not outlive it.
 */
KSIM_EXPORT int
fclose(FILE *fp)
{
	ksim_real_init();
	if (fp && !ksim_in_shim) {
		int fd = fileno(fp);

		if (ksim_fd_maybe_ours(fd))
			ksim_fd_forget(fd);
	}
	return ksim_real.fclose(fp);
}
