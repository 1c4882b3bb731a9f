/* SPDX-License-Identifier: MIT */
/*
 * Reading a KFD sysfs topology tree into the files a TOPOLOGY record holds
 * (kfdtrace/topology.h): the recorder's snapshot of every file, and the
 * replayer's read of the live tree (only what kt_topo_parse() reads).
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfdtrace/topology.h"

#define SNAP_MAX_DEPTH 8

struct snap {
	struct kt_topo_snap *out;
	unsigned int cap;
	size_t root_len;	/* of the root's path, to find a relative one */
	unsigned int flags;
	int err;
};

/* What a KT_TOPO_SNAP_PARSED walk wants of a path under the root. */
enum want { WANT_NONE, WANT_DIR, WANT_FILE, WANT_ANY };

static bool
skip_index(const char **p)
{
	const char *s = *p;

	while (**p >= '0' && **p <= '9')
		(*p)++;
	return *p != s;
}

/*
 * The files kt_topo_parse() understands, relative to the topology root:
 * nodes/N/{gpu_id,name,properties} and nodes/N/{mem_banks,io_links,
 * p2p_links}/M/properties, N and M decimal; and the directories on the way.
 */
static enum want
parsed_wants(const char *rel)
{
	static const char *const subs[] = { "mem_banks", "io_links", "p2p_links" };
	const char *p;
	size_t i;

	if (strcmp(rel, "nodes") == 0)
		return WANT_DIR;
	if (strncmp(rel, "nodes/", 6))
		return WANT_NONE;
	p = rel + 6;
	if (!skip_index(&p))
		return WANT_NONE;
	if (!*p)
		return WANT_DIR;
	if (*p++ != '/')
		return WANT_NONE;
	if (!strcmp(p, "gpu_id") || !strcmp(p, "name") || !strcmp(p, "properties"))
		return WANT_FILE;
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		size_t l = strlen(subs[i]);

		if (strncmp(p, subs[i], l) || (p[l] && p[l] != '/'))
			continue;
		p += l;
		if (!*p)
			return WANT_DIR;
		p++;
		if (!skip_index(&p))
			return WANT_NONE;
		if (!*p)
			return WANT_DIR;
		return strcmp(p, "/properties") == 0 ? WANT_FILE : WANT_NONE;
	}
	return WANT_NONE;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read a whole file, up to KT_TOPO_SNAP_MAX_FILE bytes. */
static int
read_file(const char *path, uint8_t **data, uint32_t *len)
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

			if (cap >= KT_TOPO_SNAP_MAX_FILE)
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
add_file(struct snap *s, const char *path)
{
	struct kt_topo_snap *o = s->out;
	struct kt_topo_file *f;
	uint8_t *data = NULL;
	uint32_t len = 0;
	int ret;

	if (o->nfiles >= KT_TOPO_SNAP_MAX_FILES || s->err ||
	    o->bytes >= KT_TOPO_SNAP_MAX_BYTES)
		return;
	/* A file that cannot be read (or copied) is left out. */
	ret = read_file(path, &data, &len);
	if (ret)
		return;
	if (len > KT_TOPO_SNAP_MAX_BYTES - o->bytes)
		len = (uint32_t)(KT_TOPO_SNAP_MAX_BYTES - o->bytes);
	o->bytes += len;
	if (o->nfiles == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 64;
		struct kt_topo_file *nf = realloc(o->files, cap * sizeof(*nf));

		if (!nf) {
			free(data);
			s->err = -ENOMEM;
			return;
		}
		o->files = nf;
		s->cap = cap;
	}
	f = &o->files[o->nfiles];
	f->path = strdup(path);
	if (!f->path) {
		free(data);
		s->err = -ENOMEM;
		return;
	}
	f->data = data;
	f->len = len;
	o->nfiles++;
}

/* The sorted names of @dir's entries (not "." or ".."); *@n of them. */
static char **
list_dir(DIR *d, size_t *n)
{
	char **names = NULL;
	size_t cap = 0;
	struct dirent *de;

	*n = 0;
	while ((de = readdir(d))) {
		char **nn;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[*n] = strdup(de->d_name);
		if (!names[*n])
			break;
		(*n)++;
	}
	/* An empty directory leaves names NULL, which qsort() must not get. */
	if (*n > 1)
		qsort(names, *n, sizeof(*names), name_cmp);
	return names;
}

static void
walk(struct snap *s, const char *dir, DIR *d, int depth)
{
	size_t n, i;
	char **names = list_dir(d, &n);

	closedir(d);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX];
		enum want w = WANT_ANY;
		DIR *sub = NULL;

		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     names[i]) >= sizeof(path))
			continue;
		if (s->flags & KT_TOPO_SNAP_PARSED)
			w = parsed_wants(path + s->root_len + 1);
		if (w == WANT_NONE)
			continue;
		/*
		 * d_type may be DT_UNKNOWN (and a simulator may not fill it):
		 * whatever opens as a directory is one. The parsed files' kind
		 * follows from their names.
		 */
		if (w != WANT_FILE)
			sub = opendir(path);
		if (sub) {
			if (depth < SNAP_MAX_DEPTH)
				walk(s, path, sub, depth + 1);
			else
				closedir(sub);
		} else if (w != WANT_DIR) {
			add_file(s, path);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
kt_topo_snapshot(const char *root, unsigned int flags, struct kt_topo_snap *out)
{
	struct snap s = { .out = out, .flags = flags };
	DIR *d;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!root)
		return -EINVAL;
	d = opendir(root);
	if (!d)
		return -errno;
	s.root_len = strlen(root);
	walk(&s, root, d, 0);
	if (s.err) {
		kt_topo_snap_free(out);
		return s.err;
	}
	return 0;
}

void
kt_topo_snap_free(struct kt_topo_snap *snap)
{
	uint32_t i;

	if (!snap)
		return;
	for (i = 0; i < snap->nfiles; i++) {
		free((void *)snap->files[i].path);
		free((void *)snap->files[i].data);
	}
	free(snap->files);
	memset(snap, 0, sizeof(*snap));
}

int
kt_topo_read_live(const char *root, struct kt_topo *out)
{
	struct kt_topo_snap snap;
	char nodes[PATH_MAX];
	DIR *d;
	int ret;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!root)
		return -EINVAL;
	/* A tree without nodes is no topology (the snapshot would be empty). */
	if ((size_t)snprintf(nodes, sizeof(nodes), "%s/nodes", root) >= sizeof(nodes))
		return -ENAMETOOLONG;
	d = opendir(nodes);
	if (!d)
		return -errno;
	closedir(d);
	ret = kt_topo_snapshot(root, KT_TOPO_SNAP_PARSED, &snap);
	if (ret < 0)
		return ret;
	kt_topo_parse(snap.files, snap.nfiles, out);
	kt_topo_snap_free(&snap);
	return 0;
}
