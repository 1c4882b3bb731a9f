/* SPDX-License-Identifier: MIT */
/*
 * Parsing the files of a KFD sysfs topology (kfdtrace/topology.h).
 *
 * The input may come from a damaged or hostile trace: data is read only
 * within its length, numbers are checked for overflow, and anything not
 * understood is skipped rather than guessed at.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kfdtrace/common/parse.h"
#include "kfdtrace/common/sysfs_props.h"
#include "kfdtrace/topology.h"

/* Parse the decimal number that starts at *p (before @end); advance. Return: 0 or -1. */
static int
parse_u64(const char **p, const char *end, uint64_t *out)
{
	size_t n = kc_digits(*p, (size_t)(end - *p));

	if (!kc_parse_u64(*p, n, out))
		return -1;
	*p += n;
	return 0;
}

static const char *const node_keys[] = {
	"device_id", "vendor_id", "gfx_target_version", "simd_count",
	"simd_per_cu", "cpu_cores_count", "drm_render_minor", "location_id",
	"domain", "num_xcc",
};
static const size_t node_offsets[] = {
	offsetof(struct kt_topo_node, device_id),
	offsetof(struct kt_topo_node, vendor_id),
	offsetof(struct kt_topo_node, gfx_target_version),
	offsetof(struct kt_topo_node, simd_count),
	offsetof(struct kt_topo_node, simd_per_cu),
	offsetof(struct kt_topo_node, cpu_cores),
	offsetof(struct kt_topo_node, drm_render_minor),
	offsetof(struct kt_topo_node, location_id),
	offsetof(struct kt_topo_node, domain),
	offsetof(struct kt_topo_node, num_xcc),
};
#define NODE_KEYS (sizeof(node_keys) / sizeof(node_keys[0]))

static const char *const bank_keys[] = { "heap_type", "size_in_bytes" };
static const char *const link_keys[] = {
	"node_from", "node_to", "type", "weight", "max_bandwidth",
};
#define LINK_KEYS (sizeof(link_keys) / sizeof(link_keys[0]))

/* Whether @rest is "<dir>/<decimal>/properties". */
static int
sub_props(const char *rest, const char *dir)
{
	size_t l = strlen(dir);
	const char *p = rest + l;
	uint64_t idx;

	return strncmp(rest, dir, l) == 0 &&
	       parse_u64(&p, p + strlen(p), &idx) == 0 &&
	       strcmp(p, "/properties") == 0;
}

static uint64_t
add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void
node_props(struct kt_topo_node *n, const struct kt_topo_file *f)
{
	uint64_t v[NODE_KEYS];
	unsigned int found = kc_sysfs_props_lookup(f->data, f->len, node_keys,
						   NODE_KEYS, v);
	unsigned int i;

	for (i = 0; i < NODE_KEYS; i++)
		if (found & (1u << i))
			*(uint64_t *)((char *)n + node_offsets[i]) = v[i];
}

static void
link_props(struct kt_topo *t, unsigned int idx, const struct kt_topo_file *f,
	   int p2p)
{
	uint64_t v[LINK_KEYS];
	unsigned int found = kc_sysfs_props_lookup(f->data, f->len, link_keys,
						   LINK_KEYS, v);
	uint32_t w[LINK_KEYS] = { (uint32_t)idx, 0, 0, 0, 0 };
	struct kt_topo_link *l;
	unsigned int i;

	if (t->nlinks >= KT_TOPO_MAX_LINKS)
		return;
	/* Values a u32 cannot hold are not the kernel's: leave the default. */
	for (i = 0; i < LINK_KEYS; i++)
		if ((found & (1u << i)) && v[i] <= UINT32_MAX)
			w[i] = (uint32_t)v[i];
	l = &t->links[t->nlinks++];
	l->from = w[0];
	l->to = w[1];
	l->type = w[2];
	l->weight = w[3];
	l->max_bandwidth = w[4];
	l->p2p = p2p;
}

/* A node's "name": its first line, trailing blanks dropped. */
static void
node_name(struct kt_topo_node *n, const struct kt_topo_file *f)
{
	size_t l = 0;

	while (f->data && l < f->len && l < sizeof(n->name) - 1 &&
	       f->data[l] != '\n' && f->data[l] != '\0')
		l++;
	if (l)
		memcpy(n->name, f->data, l);
	while (l && (n->name[l - 1] == ' ' || n->name[l - 1] == '\t'))
		l--;
	n->name[l] = '\0';
}

static void
parse_file(struct kt_topo *t, const struct kt_topo_file *f)
{
	const char *p = strstr(f->path, "/nodes/");
	struct kt_topo_node *n;
	uint64_t idx, v;

	if (!p)
		return;
	p += 7;
	if (parse_u64(&p, p + strlen(p), &idx) < 0 ||
	    idx >= KT_TOPO_MAX_NODES || *p != '/')
		return;
	p++;
	n = &t->nodes[idx];
	n->present = 1;
	if (idx + 1 > t->nnodes)
		t->nnodes = (unsigned int)idx + 1;
	if (strcmp(p, "gpu_id") == 0) {
		const char *s = (const char *)f->data;

		if (s && parse_u64(&s, s + f->len, &v) == 0 && v <= UINT32_MAX)
			n->gpu_id = (uint32_t)v;
	} else if (strcmp(p, "name") == 0) {
		node_name(n, f);
	} else if (strcmp(p, "properties") == 0) {
		node_props(n, f);
	} else if (sub_props(p, "mem_banks/")) {
		uint64_t b[2] = { 0, 0 };

		kc_sysfs_props_lookup(f->data, f->len, bank_keys, 2, b);
		if (b[0] == 0)
			n->sys_bytes = add_sat(n->sys_bytes, b[1]);
		else
			n->vram_bytes = add_sat(n->vram_bytes, b[1]);
	} else if (sub_props(p, "io_links/")) {
		link_props(t, (unsigned int)idx, f, 0);
	} else if (sub_props(p, "p2p_links/")) {
		link_props(t, (unsigned int)idx, f, 1);
	}
}

int
kt_topo_parse(const struct kt_topo_file *files, uint32_t n,
	      struct kt_topo *out)
{
	uint32_t i;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!files && n)
		return -EINVAL;
	out->files = n;
	for (i = 0; i < n; i++) {
		out->bytes += files[i].len;
		if (files[i].path)
			parse_file(out, &files[i]);
	}
	for (i = 0; i < out->nnodes; i++)
		if (out->nodes[i].present && out->nodes[i].gpu_id)
			out->ngpus++;
	return 0;
}

const struct kt_topo_node *
kt_topo_gpu(const struct kt_topo *t, uint32_t gpu_id)
{
	unsigned int i;

	for (i = 0; t && gpu_id && i < t->nnodes; i++)
		if (t->nodes[i].present && t->nodes[i].gpu_id == gpu_id)
			return &t->nodes[i];
	return NULL;
}
