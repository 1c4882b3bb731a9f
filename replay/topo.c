/* SPDX-License-Identifier: MIT */
/*
 * The KFD topology as the replayer sees it: the files of a captured
 * TOPOLOGY record, or the live sysfs tree read through libc (so that a
 * simulated device serves it exactly as it serves any program). Both go
 * through the same parser.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay_priv.h"

/* Parse a decimal number at *p; advance. Return: 0, or -1 if none. */
static int
parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int any = 0;

	while (s < end && *s >= '0' && *s <= '9') {
		uint64_t d = (uint64_t)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		s++;
		any = 1;
	}
	if (!any)
		return -1;
	*p = s;
	*out = v;
	return 0;
}

/* Calls @fn for every "key value" line of a properties file. */
static void
each_prop(const uint8_t *data, uint32_t len,
	  void (*fn)(void *ctx, const char *key, size_t klen, uint64_t v),
	  void *ctx)
{
	const char *p = (const char *)data, *end = p + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end;
		const char *k = p, *sp;
		uint64_t v;

		sp = memchr(k, ' ', (size_t)(line_end - k));
		if (sp && sp > k) {
			const char *vp = sp + 1;

			while (vp < line_end && *vp == ' ')
				vp++;
			if (parse_u64(&vp, line_end, &v) == 0)
				fn(ctx, k, (size_t)(sp - k), v);
		}
		p = eol ? eol + 1 : end;
	}
}

static int
key_is(const char *k, size_t klen, const char *name)
{
	return strlen(name) == klen && memcmp(k, name, klen) == 0;
}

static void
node_prop(void *ctx, const char *k, size_t klen, uint64_t v)
{
	struct rp_topo_node *n = ctx;

	if (key_is(k, klen, "device_id"))
		n->device_id = v;
	else if (key_is(k, klen, "vendor_id"))
		n->vendor_id = v;
	else if (key_is(k, klen, "gfx_target_version"))
		n->gfx_target_version = v;
	else if (key_is(k, klen, "simd_count"))
		n->simd_count = v;
	else if (key_is(k, klen, "simd_per_cu"))
		n->simd_per_cu = v;
	else if (key_is(k, klen, "drm_render_minor"))
		n->drm_render_minor = v;
	else if (key_is(k, klen, "location_id"))
		n->location_id = v;
	else if (key_is(k, klen, "domain"))
		n->domain = v;
	else if (key_is(k, klen, "cpu_cores_count"))
		n->cpu_cores = v;
	else if (key_is(k, klen, "num_xcc"))
		n->num_xcc = v;
}

struct bank {
	uint64_t heap_type;
	uint64_t size;
};

static void
bank_prop(void *ctx, const char *k, size_t klen, uint64_t v)
{
	struct bank *b = ctx;

	if (key_is(k, klen, "heap_type"))
		b->heap_type = v;
	else if (key_is(k, klen, "size_in_bytes"))
		b->size = v;
}

static void
link_prop(void *ctx, const char *k, size_t klen, uint64_t v)
{
	struct rp_topo_link *l = ctx;

	if (key_is(k, klen, "node_to"))
		l->to = (uint32_t)v;
	else if (key_is(k, klen, "type"))
		l->type = (uint32_t)v;
	else if (key_is(k, klen, "weight"))
		l->weight = (uint32_t)v;
}

static void
parse_file(struct rp_topo *t, const char *path, const uint8_t *data,
	   uint32_t len)
{
	const char *p = strstr(path, "/nodes/"), *end;
	struct rp_topo_node *n;
	uint64_t idx;

	if (!p || !data)
		return;
	p += 7;
	end = p + strlen(p);
	if (parse_u64(&p, end, &idx) < 0 || idx >= RP_MAX_NODES || *p != '/')
		return;
	p++;
	n = &t->nodes[idx];
	if (!n->present) {
		n->present = 1;
		if (idx + 1 > t->nnodes)
			t->nnodes = (unsigned int)idx + 1;
	}
	if (strcmp(p, "gpu_id") == 0) {
		const char *s = (const char *)data;
		uint64_t v;

		if (parse_u64(&s, s + len, &v) == 0 && v <= UINT32_MAX)
			n->gpu_id = (uint32_t)v;
	} else if (strcmp(p, "name") == 0) {
		size_t l = len < sizeof(n->name) - 1 ? len : sizeof(n->name) - 1;

		memcpy(n->name, data, l);
		n->name[l] = '\0';
		while (l && (n->name[l - 1] == '\n' || n->name[l - 1] == ' '))
			n->name[--l] = '\0';
	} else if (strcmp(p, "properties") == 0) {
		each_prop(data, len, node_prop, n);
	} else if (strncmp(p, "mem_banks/", 10) == 0 &&
		   strstr(p, "/properties")) {
		struct bank b = { 0, 0 };

		each_prop(data, len, bank_prop, &b);
		if (b.heap_type == 0)
			n->sysmem += b.size;
		else
			n->vram += b.size;
	} else if (strncmp(p, "io_links/", 9) == 0 &&
		   strstr(p, "/properties")) {
		struct rp_topo_link l = { 0, 0, 0 };

		each_prop(data, len, link_prop, &l);
		if (n->nlinks < RP_MAX_LINKS)
			n->links[n->nlinks++] = l;
	}
}

void
rp_topo_parse(struct rp_topo *t, const struct kt_topo_file *files,
	      uint32_t nfiles)
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nfiles; i++)
		if (files[i].path)
			parse_file(t, files[i].path, files[i].data, files[i].len);
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].present && t->nodes[i].gpu_id)
			t->ngpus++;
}

const struct rp_topo_node *
rp_topo_gpu(const struct rp_topo *t, uint32_t gpu_id)
{
	unsigned int i;

	if (!gpu_id)
		return NULL;
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].present && t->nodes[i].gpu_id == gpu_id)
			return &t->nodes[i];
	return NULL;
}

const char *
rp_gfx_name(uint64_t v, char *buf, size_t len)
{
	unsigned int major = (unsigned int)(v / 10000);
	unsigned int minor = (unsigned int)(v / 100 % 100);
	unsigned int step = (unsigned int)(v % 100);

	if (!v)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "gfx%u%x%x", major, minor, step);
	return buf;
}

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
rp_topo_read_live(struct rp_topo *t, const char *root)
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
	rp_topo_parse(t, lf.f, lf.n);
	for (i = 0; i < lf.n; i++) {
		free((void *)lf.f[i].path);
		free((void *)lf.f[i].data);
	}
	free(lf.f);
	return 0;
}
