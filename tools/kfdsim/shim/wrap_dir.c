/* SPDX-License-Identifier: MIT */
/*
 * Directory streams: the thunk counts topology/nodes with opendir/readdir,
 * libdrm's drmGetDevices2 walks /dev/dri. glibc's scandir uses its own
 * internal opendir, so it is wrapped too.
 */
/* We define the plain and the 64-bit names ourselves: no header renaming. */
#undef _FILE_OFFSET_BITS

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"
#include "vdir.h"

_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64),
	       "readdir and readdir64 share one entry layout on LP64");

KSIM_EXPORT DIR *
opendir(const char *path)
{
	struct ksim_lookup res;
	DIR *d;

	ksim_real_init();
	if (!ksim_resolve_at(AT_FDCWD, path, 0, &res))
		return ksim_real.opendir(path);
	if (res.error) {
		errno = -res.error;
		return NULL;
	}
	if (res.redirect)
		return ksim_real.opendir(res.real);
	ksim_in_shim++;
	d = ksim_vdir_open(res.node, -1);
	ksim_in_shim--;
	return d;
}

KSIM_EXPORT DIR *
fdopendir(int fd)
{
	struct ksim_ofd *ofd;
	DIR *d;

	ksim_real_init();
	if (ksim_in_shim || !ksim_fd_maybe_ours(fd))
		return ksim_real.fdopendir(fd);
	ksim_in_shim++;
	ofd = ksim_fd_get(fd);
	if (!ofd) {
		ksim_in_shim--;
		return ksim_real.fdopendir(fd);
	}
	if (ofd->kind == KSIM_FD_VDIR) {
		d = ksim_vdir_open(ofd->node, fd);
	} else {
		errno = ENOTDIR;
		d = NULL;
	}
	ksim_ofd_put(ofd);
	ksim_in_shim--;
	return d;
}

KSIM_EXPORT struct dirent *
readdir(DIR *dir)
{
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		return ksim_real.readdir(dir);
	return (struct dirent *)ksim_vdir_read(d);
}

KSIM_EXPORT struct dirent64 *
readdir64(DIR *dir)
{
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		return ksim_real.readdir64(dir);
	return ksim_vdir_read(d);
}

static int
shim_readdir_r(DIR *dir, struct dirent *entry, struct dirent **result)
{
	struct dirent64 *e;
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		return ksim_real.readdir_r(dir, entry, result);
	e = ksim_vdir_read(d);
	if (!e) {
		*result = NULL;
		return 0;
	}
	memcpy(entry, e, sizeof(*entry));
	*result = entry;
	return 0;
}

/* Deprecated in glibc, still exported: old programs call it. */
KSIM_EXPORT int
readdir_r(DIR *dir, struct dirent *entry, struct dirent **result)
{
	return shim_readdir_r(dir, entry, result);
}

KSIM_EXPORT int
readdir64_r(DIR *dir, struct dirent64 *entry, struct dirent64 **result)
{
	return shim_readdir_r(dir, (struct dirent *)entry, (struct dirent **)result);
}

KSIM_EXPORT int
closedir(DIR *dir)
{
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		return ksim_real.closedir(dir);
	return ksim_vdir_close(d);
}

KSIM_EXPORT void
rewinddir(DIR *dir)
{
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		ksim_real.rewinddir(dir);
	else
		ksim_vdir_rewind(d);
}

KSIM_EXPORT long
telldir(DIR *dir)
{
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	return d ? ksim_vdir_tell(d) : ksim_real.telldir(dir);
}

KSIM_EXPORT void
seekdir(DIR *dir, long pos)
{
	struct ksim_dir *d;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		ksim_real.seekdir(dir, pos);
	else
		ksim_vdir_seek(d, pos);
}

KSIM_EXPORT int
dirfd(DIR *dir)
{
	struct ksim_dir *d;
	int fd;

	ksim_real_init();
	d = ksim_vdir_find(dir);
	if (!d)
		return ksim_real.dirfd(dir);
	ksim_in_shim++;
	fd = ksim_vdir_fd(d);
	ksim_in_shim--;
	return fd;
}

typedef int (*scandir_filter)(const struct dirent *);
typedef int (*scandir_compar)(const struct dirent **, const struct dirent **);

/* scandir over a virtual directory: same allocation contract as glibc's. */
static int
vdir_scandir(struct ksim_vnode *node, struct dirent ***list, scandir_filter filter,
	     scandir_compar compar)
{
	struct dirent **v = NULL, **nv, *copy;
	struct dirent64 *e;
	struct ksim_dir *d;
	size_t n = 0, cap = 0;
	DIR *dir;

	dir = ksim_vdir_open(node, -1);
	if (!dir)
		return -1;
	d = ksim_vdir_find(dir);
	while ((e = ksim_vdir_read(d)) != NULL) {
		if (filter && !filter((struct dirent *)e))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		copy = malloc(sizeof(*copy));
		if (!copy)
			goto nomem;
		memcpy(copy, e, sizeof(*copy));
		v[n++] = copy;
	}
	ksim_vdir_close(d);
	if (compar && n > 1)
		qsort(v, n, sizeof(*v), (int (*)(const void *, const void *))compar);
	*list = v;
	return (int)n;
nomem:
	while (n > 0)
		free(v[--n]);
	free(v);
	ksim_vdir_close(d);
	errno = ENOMEM;
	return -1;
}

static int
shim_scandir(const char *path, struct dirent ***list, scandir_filter filter,
	     scandir_compar compar)
{
	struct ksim_lookup res;

	ksim_real_init();
	if (!ksim_resolve_at(AT_FDCWD, path, 0, &res))
		return ksim_real.scandir(path, list, filter, compar);
	if (res.error)
		return ksim_fail(res.error);
	if (res.redirect)
		return ksim_real.scandir(res.real, list, filter, compar);
	/*
	 * No re-entrancy guard here: filter and compar are the caller's code
	 * and may well look at virtual files themselves.
	 */
	return vdir_scandir(res.node, list, filter, compar);
}

KSIM_EXPORT int
scandir(const char *path, struct dirent ***list, scandir_filter filter,
	scandir_compar compar)
{
	return shim_scandir(path, list, filter, compar);
}

KSIM_EXPORT int
scandir64(const char *path, struct dirent64 ***list,
	  int (*filter)(const struct dirent64 *),
	  int (*compar)(const struct dirent64 **, const struct dirent64 **))
{
	return shim_scandir(path, (struct dirent ***)list, (scandir_filter)filter,
			    (scandir_compar)compar);
}
