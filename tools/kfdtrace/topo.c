/* SPDX-License-Identifier: MIT */
/*
 * Summarizing a captured KFD sysfs topology tree.
 *
 * The files are those of /sys/devices/virtual/kfd/kfd/topology/nodes/N/:
 * gpu_id ("%u\n"), name ("%s\n"), properties and mem_banks/M/properties
 * ("key value" lines). The paths may carry any prefix (the tracer records
 * the path the process opened), so matching starts at "/nodes/".
 */
#include <stdlib.h>
#include <string.h>

#include "topo.h"

/* Parse "N/" at *p; advances past the slash. Return: N, or -1. */
static long
parse_index(const char **p)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -1;
	v = strtol(*p, &end, 10);
	if (*end != '/' || v < 0 || v >= 1L << 20)
		return -1;
	*p = end + 1;
	return v;
}

/* Copy a file's bytes into a NUL-terminated buffer (bounded). */
static void
copy_text(char *dst, size_t size, const uint8_t *data, uint32_t len)
{
	size_t n = len < size - 1 ? len : size - 1;

	if (data)
		memcpy(dst, data, n);
	else
		n = 0;
	dst[n] = '\0';
}

/* The value of "key value" line @key in @text, or 0. */
static uint64_t
prop_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static void
link_file(struct topo_summary *s, const char *text, int p2p)
{
	struct topo_link *l;

	if (s->nlinks >= TOPO_MAX_LINKS)
		return;
	l = &s->links[s->nlinks++];
	l->node_from = (uint32_t)prop_value(text, "node_from");
	l->node_to = (uint32_t)prop_value(text, "node_to");
	l->type = (uint32_t)prop_value(text, "type");
	l->weight = (uint32_t)prop_value(text, "weight");
	l->max_bandwidth = (uint32_t)prop_value(text, "max_bandwidth");
	l->p2p = p2p;
}

static void
node_file(struct topo_summary *s, struct topo_node *n, const char *rest,
	  const struct kt_topo_file *f)
{
	char text[4096];

	copy_text(text, sizeof(text), f->data, f->len);
	if (strcmp(rest, "gpu_id") == 0) {
		n->gpu_id = (uint32_t)strtoul(text, NULL, 10);
	} else if (strcmp(rest, "name") == 0) {
		size_t l = strcspn(text, "\n");

		if (l >= sizeof(n->name))
			l = sizeof(n->name) - 1;
		memcpy(n->name, text, l);
		n->name[l] = '\0';
	} else if (strcmp(rest, "properties") == 0) {
		n->gfx_target_version =
			(uint32_t)prop_value(text, "gfx_target_version");
		n->simd_count = (uint32_t)prop_value(text, "simd_count");
		n->simd_per_cu = (uint32_t)prop_value(text, "simd_per_cu");
		n->cpu_cores = (uint32_t)prop_value(text, "cpu_cores_count");
		n->drm_render_minor =
			(uint32_t)prop_value(text, "drm_render_minor");
	} else if (strncmp(rest, "io_links/", 9) == 0 ||
		   strncmp(rest, "p2p_links/", 10) == 0) {
		const char *q = strchr(rest, '/') + 1;

		if (parse_index(&q) >= 0 && strcmp(q, "properties") == 0)
			link_file(s, text, rest[0] == 'p');
	} else if (strncmp(rest, "mem_banks/", 10) == 0) {
		const char *q = rest + 10;

		if (parse_index(&q) < 0 || strcmp(q, "properties") != 0)
			return;
		if (prop_value(text, "heap_type") == 0)
			n->sys_bytes += prop_value(text, "size_in_bytes");
		else
			n->vram_bytes += prop_value(text, "size_in_bytes");
	}
}

void
topo_summarize(const struct kt_topology_rec *t, struct topo_summary *s)
{
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->files = t->nfiles;
	for (i = 0; t->files && i < t->nfiles; i++) {
		const struct kt_topo_file *f = &t->files[i];
		const char *p;
		long idx;

		s->bytes += f->len;
		if (!f->path)
			continue;
		p = strstr(f->path, "/nodes/");
		if (!p)
			continue;
		p += 7;
		idx = parse_index(&p);
		if (idx < 0 || idx >= TOPO_MAX_NODES)
			continue;
		s->nodes[idx].present = 1;
		if ((unsigned int)idx + 1 > s->nnodes)
			s->nnodes = (unsigned int)idx + 1;
		node_file(s, &s->nodes[idx], p, f);
	}
	for (i = 0; i < s->nnodes; i++)
		if (s->nodes[i].present && s->nodes[i].gpu_id)
			s->ngpus++;
}
