/* SPDX-License-Identifier: MIT */
/* The profile writer: the inverse of profile_parse.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile_keys.h"
#include "profile_priv.h"

static void
put_keys(FILE *out, const struct ksim_key_table *t, const void *base)
{
	for (unsigned int i = 0; i < t->count; i++) {
		const struct ksim_key *k = &t->keys[i];
		const char *p = (const char *)base + k->offset;

		switch (k->kind) {
		case KSIM_KEY_U32:
			fprintf(out, "%s %" PRIu32 "\n", k->name,
				*(const uint32_t *)p);
			break;
		case KSIM_KEY_U64:
			fprintf(out, "%s %" PRIu64 "\n", k->name,
				*(const uint64_t *)p);
			break;
		case KSIM_KEY_STR:
			fprintf(out, "%s \"%.*s\"\n", k->name, (int)k->size, p);
			break;
		case KSIM_KEY_U32_LIST: {
			const uint32_t *v = (const uint32_t *)p;

			fprintf(out, "%s ", k->name);
			for (unsigned int j = 0; j < k->size; j++)
				fprintf(out, "%s0x%" PRIx32, j ? "," : "", v[j]);
			fputc('\n', out);
			break;
		}
		}
	}
}

/* Caches a and b differ only in processor_id_low. */
static int
cache_same_but_id(const struct ksim_cache *a, const struct ksim_cache *b)
{
	struct ksim_cache x = *b;

	x.processor_id_low = a->processor_id_low;
	return !memcmp(a, &x, offsetof(struct ksim_cache, sibling_map)) &&
	       !memcmp(a->sibling_map, x.sibling_map, a->sibling_count);
}

static void
put_caches(FILE *out, unsigned int ni, const struct ksim_node *n)
{
	unsigned int i = 0;

	while (i < n->n_caches) {
		const struct ksim_cache *c = &n->caches[i];
		uint32_t step = 1;
		unsigned int run = 1;

		if (i + 1 < n->n_caches && cache_same_but_id(c, c + 1))
			step = c[1].processor_id_low - c->processor_id_low;
		while (i + run < n->n_caches &&
		       cache_same_but_id(c, &c[run]) &&
		       c[run].processor_id_low ==
		       (uint32_t)(c->processor_id_low + run * step))
			run++;
		fprintf(out, "\n[node %u cache %u]\n", ni, i);
		if (run > 1)
			fprintf(out, "repeat %u\nprocessor_id_step %" PRIu32 "\n",
				run, step);
		put_keys(out, &ksim_keys_cache, c);
		if (c->sibling_count) {
			fputs("sibling_map ", out);
			for (unsigned int j = 0; j < c->sibling_count; j++)
				fprintf(out, "%s%u", j ? "," : "",
					c->sibling_map[j]);
			fputc('\n', out);
		}
		i += run;
	}
}

static void
put_links(FILE *out, unsigned int ni, const struct ksim_io_link *l,
	  unsigned int n, const char *what)
{
	for (unsigned int i = 0; i < n; i++) {
		fprintf(out, "\n[node %u %s %u]\n", ni, what, i);
		put_keys(out, &ksim_keys_io_link, &l[i]);
		if (l[i].has_sdma_engine_id_mask)
			fprintf(out, "recommended_sdma_engine_id_mask %" PRIu32
				"\n", l[i].recommended_sdma_engine_id_mask);
	}
}

int
ksim_profile_save(const struct ksim_profile *prof, FILE *out)
{
	const struct ksim_node_prop_desc *pt = ksim_node_prop_table();

	if (!prof || !out)
		return -EINVAL;
	fprintf(out, "# kfdsim device profile (format: tools/kfdsim/include/"
		"ksim_profile.h)\n[machine]\n");
	put_keys(out, &ksim_keys_machine, prof);
	if (!prof->cpu.derived) {
		fputs("\n[cpu]\n", out);
		put_keys(out, &ksim_keys_cpu, &prof->cpu);
		for (unsigned int c = 0; c < prof->cpu.n_caches; c++) {
			fprintf(out, "\n[cpu cache %u]\n", c);
			put_keys(out, &ksim_keys_cpu_cache, &prof->cpu.caches[c]);
		}
	}
	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *n = &prof->nodes[i];
		int gpu = ksim_node_is_gpu(n);

		fprintf(out, "\n[node %u]\ngpu_id %" PRIu32 "\nname \"%s\"\n",
			i, n->gpu_id, n->name);
		for (int p = 0; p < KSIM_NP_COUNT; p++) {
			int named = !!(n->props_present & KSIM_NP_BIT(p));

			if ((pt[p].flags & KSIM_NPF_OPTIONAL) && !named)
				continue;
			/* An optional key the profile names stays, even as 0. */
			if ((pt[p].flags & KSIM_NPF_GPU_ONLY) && !gpu &&
			    !n->props[p] && !named)
				continue;
			fprintf(out, "%s %" PRIu64 "\n", pt[p].name, n->props[p]);
		}
		for (unsigned int b = 0; b < n->n_mem_banks; b++) {
			fprintf(out, "\n[node %u mem_bank %u]\n", i, b);
			put_keys(out, &ksim_keys_mem_bank, &n->mem_banks[b]);
		}
		put_caches(out, i, n);
		put_links(out, i, n->io_links, n->n_io_links, "io_link");
		put_links(out, i, n->p2p_links, n->n_p2p_links, "p2p_link");
		if (n->gpu) {
			fprintf(out, "\n[node %u gpu]\n", i);
			put_keys(out, &ksim_keys_gpu, n->gpu);
		}
		if (n->drm) {
			fprintf(out, "\n[node %u drm]\n", i);
			put_keys(out, &ksim_keys_drm, n->drm);
		}
	}
	fflush(out);
	return ferror(out) ? -EIO : 0;
}
