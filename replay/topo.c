/* SPDX-License-Identifier: MIT */
/*
 * The live KFD topology, read through libc (so that a simulated device
 * serves it exactly as it serves any program) into the files a captured
 * TOPOLOGY record holds, and parsed by the same kt_topo_parse().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay_priv.h"

/* ------------------------------------------------------------------ */
/* The live tree                                                        */

#define LIVE_MAX_FILES 4096
#define LIVE_MAX_FILE (64 * 1024)

struct live_files {
	struct kt_topo_file *f;
	unsigned int n;
};

static void
read_one(struct live_files *lf, const char *path)
{
	uint8_t *buf;
	ssize_t got, total = 0;
	int fd;

	if (lf->n >= LIVE_MAX_FILES)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	buf = malloc(LIVE_MAX_FILE);
	if (!buf) {
		close(fd);
		return;
	}
	while (total < LIVE_MAX_FILE &&
	       (got = read(fd, buf + total, (size_t)(LIVE_MAX_FILE - total))) > 0)
		total += got;
	close(fd);
	lf->f[lf->n].path = strdup(path);
	lf->f[lf->n].data = buf;
	lf->f[lf->n].len = (uint32_t)total;
	if (!lf->f[lf->n].path) {
		free(buf);
		return;
	}
	lf->n++;
}

/* Reads dir/<i>/properties for every numeric entry of dir. */
static void
read_sub(struct live_files *lf, const char *dir)
{
	char path[1024];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/properties", dir, de->d_name);
		read_one(lf, path);
	}
	closedir(d);
}

int
rp_topo_read_live(struct kt_topo *t, const char *root)
{
	struct live_files lf = { NULL, 0 };
	char nodes[512], path[1024];
	struct dirent *de;
	unsigned int i;
	DIR *d;

	memset(t, 0, sizeof(*t));
	snprintf(nodes, sizeof(nodes), "%s/nodes", root);
	d = opendir(nodes);
	if (!d)
		return -errno;
	lf.f = calloc(LIVE_MAX_FILES, sizeof(*lf.f));
	if (!lf.f) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/gpu_id", nodes, de->d_name);
		read_one(&lf, path);
		snprintf(path, sizeof(path), "%s/%s/name", nodes, de->d_name);
		read_one(&lf, path);
		snprintf(path, sizeof(path), "%s/%s/properties", nodes, de->d_name);
		read_one(&lf, path);
		snprintf(path, sizeof(path), "%s/%s/mem_banks", nodes, de->d_name);
		read_sub(&lf, path);
		snprintf(path, sizeof(path), "%s/%s/io_links", nodes, de->d_name);
		read_sub(&lf, path);
	}
	closedir(d);
	kt_topo_parse(lf.f, lf.n, t);
	for (i = 0; i < lf.n; i++) {
		free((void *)lf.f[i].path);
		free((void *)lf.f[i].data);
	}
	free(lf.f);
	return 0;
}
