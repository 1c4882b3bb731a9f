/* SPDX-License-Identifier: MIT */
/*
 * The topology snapshot: every regular file under the KFD sysfs topology,
 * as this process sees it.
 *
 * It goes through opendir/readdir/open/read, never through raw system
 * calls, so that an LD_PRELOAD simulator that serves the tree to the
 * traced process serves it to us too. Entries are sorted by name so that
 * two snapshots of the same tree are byte-identical.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder_priv.h"

#define TOPO_MAX_DEPTH 8

struct topo_snap {
	struct kt_topo_file *files;
	unsigned int n, cap;
	size_t bytes;
	int err;
};

static int
topo_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read a whole file, up to KFD_RECORDER_TOPO_MAX_FILE bytes. */
static int
topo_read_file(const char *path, uint8_t **data, uint32_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			uint8_t *nb;

			if (cap >= KFD_RECORDER_TOPO_MAX_FILE)
				break;
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			/* Some sysfs attributes refuse reads; keep the name. */
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	*data = buf;
	*len = (uint32_t)n;
	return 0;
}

static void
topo_add(struct topo_snap *s, const char *path)
{
	struct kt_topo_file *f;
	uint8_t *data = NULL;
	uint32_t len = 0;

	if (s->n >= KFD_RECORDER_TOPO_MAX_FILES || s->err ||
	    s->bytes >= KFD_RECORDER_TOPO_MAX_BYTES)
		return;
	if (topo_read_file(path, &data, &len) != 0)
		return;
	if (len > KFD_RECORDER_TOPO_MAX_BYTES - s->bytes)
		len = (uint32_t)(KFD_RECORDER_TOPO_MAX_BYTES - s->bytes);
	s->bytes += len;
	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 64;
		struct kt_topo_file *nf = realloc(s->files, cap * sizeof(*nf));

		if (!nf) {
			free(data);
			s->err = -ENOMEM;
			return;
		}
		s->files = nf;
		s->cap = cap;
	}
	f = &s->files[s->n];
	f->path = strdup(path);
	if (!f->path) {
		free(data);
		s->err = -ENOMEM;
		return;
	}
	f->data = data;
	f->len = len;
	s->n++;
}

static void
topo_walk(struct topo_snap *s, const char *dir, int depth)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	if (depth > TOPO_MAX_DEPTH)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char **nn;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			break;
		n++;
	}
	closedir(d);
	/* An empty directory leaves names NULL, which qsort() must not get. */
	if (n > 1)
		qsort(names, n, sizeof(*names), topo_cmp);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];
		DIR *sub;

		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     names[i]) >= sizeof(path))
			continue;
		/*
		 * d_type may be DT_UNKNOWN (and a simulator may not fill it):
		 * whatever opens as a directory is one.
		 */
		sub = opendir(path);
		if (sub) {
			closedir(sub);
			topo_walk(s, path, depth + 1);
		} else {
			topo_add(s, path);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
kfd_recorder_topology(struct kfd_recorder *r, const char *root)
{
	struct topo_snap s = { 0 };
	struct kt_record rec;
	int ret;

	if (!r)
		return -EINVAL;
	if (!root)
		root = r->topology_root ? r->topology_root : KFD_RECORDER_TOPOLOGY;
	topo_walk(&s, root, 0);

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_TOPOLOGY;
	rec.u.topology.nfiles = s.n;
	rec.u.topology.files = s.files;
	ret = s.err ? s.err : kfd_rec_append_raw(r, &rec);

	for (unsigned int i = 0; i < s.n; i++) {
		free((void *)s.files[i].path);
		free((void *)s.files[i].data);
	}
	free(s.files);
	return ret;
}
