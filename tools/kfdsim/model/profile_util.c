/* SPDX-License-Identifier: MIT */
/* Profile lifetime, validation, comparison, lookups and the builtins. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/file.h>

#include "profile_keys.h"
#include "profile_priv.h"

void
ksim_errf(char **err, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;

	if (!err)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	free(*err);
	*err = msg;
}

static void
free_node(struct ksim_node *n)
{
	free(n->mem_banks);
	free(n->caches);
	free(n->io_links);
	free(n->p2p_links);
	free(n->gpu);
	free(n->drm);
}

void
ksim_profile_free(struct ksim_profile *prof)
{
	if (!prof)
		return;
	for (unsigned int i = 0; i < prof->n_nodes; i++)
		free_node(&prof->nodes[i]);
	free(prof->nodes);
	free(prof);
}

static void *
dup_mem(const void *src, size_t size, int *fail)
{
	void *p;

	if (!src || !size)
		return NULL;
	p = malloc(size);
	if (!p) {
		*fail = 1;
		return NULL;
	}
	memcpy(p, src, size);
	return p;
}

struct ksim_profile *
ksim_profile_dup(const struct ksim_profile *prof)
{
	struct ksim_profile *d;
	int fail = 0;

	if (!prof)
		return NULL;
	d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d = *prof;
	d->nodes = calloc(prof->n_nodes ? prof->n_nodes : 1, sizeof(*d->nodes));
	if (!d->nodes) {
		free(d);
		return NULL;
	}
	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *s = &prof->nodes[i];
		struct ksim_node *n = &d->nodes[i];

		*n = *s;
		n->mem_banks = dup_mem(s->mem_banks,
				       s->n_mem_banks * sizeof(*s->mem_banks), &fail);
		n->caches = dup_mem(s->caches, s->n_caches * sizeof(*s->caches),
				    &fail);
		n->io_links = dup_mem(s->io_links,
				      s->n_io_links * sizeof(*s->io_links), &fail);
		n->p2p_links = dup_mem(s->p2p_links,
				       s->n_p2p_links * sizeof(*s->p2p_links), &fail);
		n->gpu = dup_mem(s->gpu, s->gpu ? sizeof(*s->gpu) : 0, &fail);
		n->drm = dup_mem(s->drm, s->drm ? sizeof(*s->drm) : 0, &fail);
	}
	if (fail) {
		ksim_profile_free(d);
		return NULL;
	}
	return d;
}

static int
keys_equal(const struct ksim_key_table *t, const void *a, const void *b)
{
	for (unsigned int i = 0; i < t->count; i++) {
		const struct ksim_key *k = &t->keys[i];
		size_t size = k->kind == KSIM_KEY_U32 ? 4 :
			      k->kind == KSIM_KEY_U64 ? 8 :
			      k->kind == KSIM_KEY_STR ? 0 : k->size * 4u;
		const char *pa = (const char *)a + k->offset;
		const char *pb = (const char *)b + k->offset;

		if (k->kind == KSIM_KEY_STR) {
			if (strncmp(pa, pb, k->size))
				return 0;
		} else if (memcmp(pa, pb, size)) {
			return 0;
		}
	}
	return 1;
}

static int
cache_equal(const struct ksim_cache *a, const struct ksim_cache *b)
{
	return keys_equal(&ksim_keys_cache, a, b) &&
	       a->sibling_count == b->sibling_count &&
	       !memcmp(a->sibling_map, b->sibling_map, a->sibling_count);
}

static int
link_equal(const struct ksim_io_link *a, const struct ksim_io_link *b)
{
	if (!keys_equal(&ksim_keys_io_link, a, b))
		return 0;
	if (a->has_sdma_engine_id_mask != b->has_sdma_engine_id_mask)
		return 0;
	return !a->has_sdma_engine_id_mask ||
	       a->recommended_sdma_engine_id_mask ==
	       b->recommended_sdma_engine_id_mask;
}

static int
node_equal(const struct ksim_node *a, const struct ksim_node *b)
{
	if (a->gpu_id != b->gpu_id || strcmp(a->name, b->name) ||
	    memcmp(a->props, b->props, sizeof(a->props)) ||
	    a->props_present != b->props_present ||
	    a->n_mem_banks != b->n_mem_banks || a->n_caches != b->n_caches ||
	    a->n_io_links != b->n_io_links || a->n_p2p_links != b->n_p2p_links)
		return 0;
	for (unsigned int i = 0; i < a->n_mem_banks; i++)
		if (!keys_equal(&ksim_keys_mem_bank, &a->mem_banks[i],
				&b->mem_banks[i]))
			return 0;
	for (unsigned int i = 0; i < a->n_caches; i++)
		if (!cache_equal(&a->caches[i], &b->caches[i]))
			return 0;
	for (unsigned int i = 0; i < a->n_io_links; i++)
		if (!link_equal(&a->io_links[i], &b->io_links[i]))
			return 0;
	for (unsigned int i = 0; i < a->n_p2p_links; i++)
		if (!link_equal(&a->p2p_links[i], &b->p2p_links[i]))
			return 0;
	if (!a->gpu != !b->gpu || !a->drm != !b->drm)
		return 0;
	if (a->gpu && !keys_equal(&ksim_keys_gpu, a->gpu, b->gpu))
		return 0;
	if (a->drm && !keys_equal(&ksim_keys_drm, a->drm, b->drm))
		return 0;
	return 1;
}

/* The CPU sides describe the same CPUs (derived or written out). */
static int
cpu_equal(const struct ksim_cpu *a, const struct ksim_cpu *b)
{
	if (!keys_equal(&ksim_keys_cpu, a, b) || a->n_caches != b->n_caches)
		return 0;
	for (unsigned int i = 0; i < a->n_caches; i++)
		if (!keys_equal(&ksim_keys_cpu_cache, &a->caches[i], &b->caches[i]))
			return 0;
	return 1;
}

int
ksim_profile_equal(const struct ksim_profile *a, const struct ksim_profile *b)
{
	if (!a || !b)
		return a == b;
	if (!keys_equal(&ksim_keys_machine, a, b) || a->n_nodes != b->n_nodes ||
	    !cpu_equal(&a->cpu, &b->cpu))
		return 0;
	for (unsigned int i = 0; i < a->n_nodes; i++)
		if (!node_equal(&a->nodes[i], &b->nodes[i]))
			return 0;
	return 1;
}

static int
check_links(const struct ksim_profile *prof, unsigned int ni,
	    const struct ksim_io_link *l, unsigned int n, const char *what,
	    char **err)
{
	for (unsigned int i = 0; i < n; i++) {
		if (l[i].node_from != ni) {
			ksim_errf(err, "node %u %s %u: node_from is %u", ni, what,
				  i, l[i].node_from);
			return -EINVAL;
		}
		if (l[i].node_to >= prof->n_nodes || l[i].node_to == ni) {
			ksim_errf(err, "node %u %s %u: bad node_to %u", ni, what,
				  i, l[i].node_to);
			return -EINVAL;
		}
	}
	return 0;
}

int
ksim_profile_validate(const struct ksim_profile *prof, char **err)
{
	int seen_gpu = 0;

	if (!prof || !prof->n_nodes || prof->n_nodes > KSIM_MAX_NODES) {
		ksim_errf(err, "a profile needs 1..%d nodes", KSIM_MAX_NODES);
		return -EINVAL;
	}
	if (!memchr(prof->kernel, 0, sizeof(prof->kernel)) ||
	    (prof->kernel[0] && strcmp(prof->kernel, "upstream") &&
	     strcmp(prof->kernel, "rocm"))) {
		ksim_errf(err, "machine kernel '%.16s': expected upstream or rocm",
			  prof->kernel);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *n = &prof->nodes[i];
		const uint64_t *pr = n->props;

		if (pr[KSIM_NP_MEM_BANKS_COUNT] != n->n_mem_banks ||
		    pr[KSIM_NP_CACHES_COUNT] != n->n_caches ||
		    pr[KSIM_NP_IO_LINKS_COUNT] != n->n_io_links ||
		    pr[KSIM_NP_P2P_LINKS_COUNT] != n->n_p2p_links) {
			ksim_errf(err, "node %u: counts do not match its "
				  "sections", i);
			return -EINVAL;
		}
		if (check_links(prof, i, n->io_links, n->n_io_links, "io_link",
				err) ||
		    check_links(prof, i, n->p2p_links, n->n_p2p_links,
				"p2p_link", err))
			return -EINVAL;
		if (!ksim_node_is_gpu(n)) {
			if (seen_gpu) {
				ksim_errf(err, "node %u: CPU nodes must come "
					  "before GPU nodes", i);
				return -EINVAL;
			}
			if (n->gpu || n->drm) {
				ksim_errf(err, "node %u: a CPU node (gpu_id 0) "
					  "has gpu/drm sections", i);
				return -EINVAL;
			}
			continue;
		}
		seen_gpu = 1;
		if (n->gpu_id > 0xffff) {
			ksim_errf(err, "node %u: gpu_id %u exceeds 16 bits", i,
				  n->gpu_id);
			return -EINVAL;
		}
		for (unsigned int j = 0; j < i; j++) {
			if (prof->nodes[j].gpu_id == n->gpu_id) {
				ksim_errf(err, "node %u: gpu_id %u already used "
					  "by node %u", i, n->gpu_id, j);
				return -EINVAL;
			}
			if (prof->nodes[j].gpu_id &&
			    prof->nodes[j].props[KSIM_NP_DRM_RENDER_MINOR] ==
			    pr[KSIM_NP_DRM_RENDER_MINOR]) {
				ksim_errf(err, "node %u: render minor already "
					  "used by node %u", i, j);
				return -EINVAL;
			}
		}
		if (!n->gpu || !n->drm) {
			ksim_errf(err, "node %u: a GPU node needs [node %u gpu] "
				  "and [node %u drm] sections", i, i, i);
			return -EINVAL;
		}
		if (pr[KSIM_NP_DRM_RENDER_MINOR] < 128 ||
		    pr[KSIM_NP_DRM_RENDER_MINOR] > 255 ||
		    n->drm->render_minor != pr[KSIM_NP_DRM_RENDER_MINOR]) {
			ksim_errf(err, "node %u: drm_render_minor must be "
				  "128..255 and equal drm render_minor", i);
			return -EINVAL;
		}
		if (!pr[KSIM_NP_SIMD_COUNT] || !pr[KSIM_NP_SIMD_PER_CU] ||
		    !pr[KSIM_NP_NUM_XCC] || !pr[KSIM_NP_SIMD_ARRAYS_PER_ENGINE]) {
			ksim_errf(err, "node %u: a GPU node needs non-zero "
				  "simd_count, simd_per_cu, "
				  "simd_arrays_per_engine and num_xcc", i);
			return -EINVAL;
		}
		if ((n->gpu->doorbell_size != 4 && n->gpu->doorbell_size != 8) ||
		    !n->gpu->doorbell_slice || n->gpu->doorbell_slice % 4096 ||
		    n->gpu->doorbell_slice < n->gpu->doorbell_size * 1024u) {
			ksim_errf(err, "node %u: doorbell_size must be 4 or 8 "
				  "and doorbell_slice a page multiple holding "
				  "1024 doorbells", i);
			return -EINVAL;
		}
		if (n->gpu->max_queues == 0 || n->gpu->max_queues > 1024) {
			ksim_errf(err, "node %u: max_queues must be 1..1024", i);
			return -EINVAL;
		}
	}
	return ksim_cpu_validate(prof, NULL, NULL, NULL, err);
}

uint64_t
ksim_profile_ram(const struct ksim_profile *prof)
{
	uint64_t ram = 0;

	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *n = &prof->nodes[i];

		if (ksim_node_is_gpu(n))
			continue;
		for (unsigned int b = 0; b < n->n_mem_banks; b++)
			if (n->mem_banks[b].heap_type == KSIM_HEAP_SYSTEM)
				ram += n->mem_banks[b].size_in_bytes;
	}
	return ram;
}

int
ksim_profile_gpu_node(const struct ksim_profile *prof, uint32_t gpu_id)
{
	if (!gpu_id)
		return -1;
	for (unsigned int i = 0; i < prof->n_nodes; i++)
		if (prof->nodes[i].gpu_id == gpu_id)
			return (int)i;
	return -1;
}

int
ksim_profile_render_node(const struct ksim_profile *prof,
			 unsigned int render_minor)
{
	for (unsigned int i = 0; i < prof->n_nodes; i++)
		if (prof->nodes[i].gpu_id &&
		    prof->nodes[i].props[KSIM_NP_DRM_RENDER_MINOR] == render_minor)
			return (int)i;
	return -1;
}

const char *const *
ksim_profile_builtin_names(unsigned int *count)
{
	static const char *names[16];
	unsigned int n = ksim_builtin_profile_count;

	if (n > 16)
		n = 16;
	for (unsigned int i = 0; i < n; i++)
		names[i] = ksim_builtin_profiles[i].name;
	if (count)
		*count = n;
	return names;
}

const char *
ksim_profile_builtin_text(const char *name)
{
	if (!name || !*name)
		name = ksim_builtin_profiles[0].name;
	for (unsigned int i = 0; i < ksim_builtin_profile_count; i++)
		if (!strcmp(ksim_builtin_profiles[i].name, name))
			return ksim_builtin_profiles[i].text;
	return NULL;
}

struct ksim_profile *
ksim_profile_builtin(const char *name)
{
	const char *text = ksim_profile_builtin_text(name);
	char origin[96];

	if (!text)
		return NULL;
	snprintf(origin, sizeof(origin), "<builtin %s>",
		 name && *name ? name : ksim_builtin_profiles[0].name);
	return ksim_profile_parse(text, strlen(text), origin, NULL);
}

/* Profiles are small; anything past this is not a profile. */
#define KSIM_PROFILE_MAX_BYTES (16u << 20)

struct ksim_profile *
ksim_profile_load(const char *path, char **err)
{
	struct ksim_profile *prof;
	char why[160], *buf;
	size_t n;
	int r;

	if (err)
		*err = NULL;
	if (!path) {
		ksim_errf(err, "no profile path");
		return NULL;
	}
	r = kc_read_regular(path, KSIM_PROFILE_MAX_BYTES, &buf, &n, why, sizeof(why));
	if (r == -ENOENT && ksim_profile_builtin_text(path))
		return ksim_profile_builtin(path);
	if (r) {
		ksim_errf(err, "%s: %s", path, why);
		return NULL;
	}
	prof = ksim_profile_parse(buf, n, path, err);
	free(buf);
	return prof;
}
