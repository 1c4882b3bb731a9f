/* SPDX-License-Identifier: MIT */
/*
 * Reading the kernel's topology files. The formats are the kernel's:
 * properties files hold "name value\n" lines with unsigned decimal values,
 * gpu_id and generation_id one decimal number (the lines are parsed by
 * the common kc_sysfs_next()). Anything else is malformed and yields an
 * error status, never a crash: a parse stops at the first line that does
 * not fit.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfdtrace/common/sysfs_props.h"
#include "topology/topo.h"

long
kmt_sysfs_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd;

	if (size == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (long)len;
}

/*
 * The lines are kc_sysfs_next()'s (kfdtrace/common/sysfs_props.h); the
 * thunk's policy is to stop at the first bad line, as the sibling_map
 * line that ends a cache's properties is one (topo_node.c reads it from
 * @rest).
 */
unsigned int
kmt_sysfs_parse_props(const char *buf, kmt_prop_fn *fn, void *arg, const char **rest)
{
	char name[KC_SYSFS_NAME_MAX + 1];
	struct kc_sysfs_iter it;
	struct kc_sysfs_prop prop;
	unsigned int count = 0;

	kc_sysfs_iter_init(&it, buf, strlen(buf));
	while (kc_sysfs_next(&it, &prop) == KC_SYSFS_PROP) {
		memcpy(name, prop.name, prop.name_len);
		name[prop.name_len] = '\0';
		fn(arg, name, prop.value);
		count++;
	}
	if (rest)
		*rest = prop.line;
	return count;
}

HSAKMT_STATUS
kmt_sysfs_read_props(const char *path, kmt_prop_fn *fn, void *arg)
{
	char buf[KMT_TOPO_MAX_FILE + 1];
	long len = kmt_sysfs_read_file(path, buf, sizeof(buf));

	if (len == -EPERM || len == -EACCES)
		return HSAKMT_STATUS_NOT_SUPPORTED;
	if (len <= 0) {
		kmt_err("cannot read %s\n", path);
		return HSAKMT_STATUS_ERROR;
	}
	if (kmt_sysfs_parse_props(buf, fn, arg, NULL) == 0) {
		kmt_err("%s: no properties\n", path);
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS
kmt_sysfs_read_u32(const char *path, uint32_t *value)
{
	char buf[64];
	long len = kmt_sysfs_read_file(path, buf, sizeof(buf));
	unsigned long long v = 0;
	const char *p = buf;

	if (len == -EPERM || len == -EACCES)
		return HSAKMT_STATUS_NOT_SUPPORTED;
	if (len <= 0)
		return HSAKMT_STATUS_ERROR;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return HSAKMT_STATUS_ERROR;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned int)(*p++ - '0');
		if (v > UINT32_MAX)
			return HSAKMT_STATUS_ERROR;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p)
		return HSAKMT_STATUS_ERROR;
	*value = (uint32_t)v;
	return HSAKMT_STATUS_SUCCESS;
}

int
kmt_sysfs_count_entries(const char *path, const char *prefix)
{
	size_t plen = strlen(prefix);
	struct dirent *de;
	int count = 0;
	DIR *dir;

	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (plen && strncmp(de->d_name, prefix, plen))
			continue;
		count++;
	}
	closedir(dir);
	return count;
}
