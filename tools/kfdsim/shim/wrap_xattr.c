/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes of virtual files: there are none. ls -l asks for
 * security labels (libselinux's lgetfilecon) of everything it lists; an
 * ENOENT from the real file system would make it report a file it just
 * showed as missing.
 */
/* We define the plain and the 64-bit names ourselves: no header renaming. */
#undef _FILE_OFFSET_BITS

#include <fcntl.h>
#include <sys/xattr.h>

#include "shim.h"

/* -ENODATA / 0 for virtual paths, 1 when the path is not ours. */
static int
xattr_virtual(const char *path, bool nofollow, struct ksim_lookup *res)
{
	ksim_real_init();
	if (!ksim_resolve_at(AT_FDCWD, path, nofollow ? KSIM_LOOKUP_NOFOLLOW : 0, res))
		return 1;
	if (res->error)
		return res->error;
	if (res->redirect)
		return 1;
	return 0;
}

static ssize_t
shim_getxattr(const char *path, const char *name, void *value, size_t size, bool nofollow)
{
	struct ksim_lookup res;
	int ret = xattr_virtual(path, nofollow, &res);

	if (ret == 1) {
		const char *p = res.redirect ? res.real : path;

		return nofollow ? ksim_real.lgetxattr(p, name, value, size)
				: ksim_real.getxattr(p, name, value, size);
	}
	return ksim_fail(ret < 0 ? ret : -ENODATA);
}

static ssize_t
shim_listxattr(const char *path, char *list, size_t size, bool nofollow)
{
	struct ksim_lookup res;
	int ret = xattr_virtual(path, nofollow, &res);

	if (ret == 1) {
		const char *p = res.redirect ? res.real : path;

		return nofollow ? ksim_real.llistxattr(p, list, size)
				: ksim_real.listxattr(p, list, size);
	}
	return ret < 0 ? ksim_fail(ret) : 0;
}

KSIM_EXPORT ssize_t
getxattr(const char *path, const char *name, void *value, size_t size)
{
	return shim_getxattr(path, name, value, size, false);
}

KSIM_EXPORT ssize_t
lgetxattr(const char *path, const char *name, void *value, size_t size)
{
	return shim_getxattr(path, name, value, size, true);
}

KSIM_EXPORT ssize_t
listxattr(const char *path, char *list, size_t size)
{
	return shim_listxattr(path, list, size, false);
}

KSIM_EXPORT ssize_t
llistxattr(const char *path, char *list, size_t size)
{
	return shim_listxattr(path, list, size, true);
}
