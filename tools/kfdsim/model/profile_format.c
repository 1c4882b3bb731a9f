/* SPDX-License-Identifier: MIT */
/* sysfs text of a profile, byte for byte what kfd_topology.c prints. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "profile_keys.h"
#include "profile_priv.h"

/* snprintf-style accumulation: counts the full length, writes what fits. */
struct out {
	char *buf;
	size_t len;
	size_t pos;
};

static void
outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
outf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->pos < o->len ? o->buf + o->pos : NULL,
		      o->pos < o->len ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

static int
out_done(struct out *o)
{
	if (o->len && o->pos >= o->len)
		o->buf[o->len - 1] = 0;
	return o->pos > INT32_MAX ? -EOVERFLOW : (int)o->pos;
}

int
ksim_format_system_properties(const struct ksim_profile *prof, char *buf,
			      size_t len)
{
	struct out o = { buf, len, 0 };

	if (!prof)
		return -EINVAL;
	if (len)
		buf[0] = 0;
	outf(&o, "platform_oem %" PRIu64 "\n", prof->platform_oem);
	outf(&o, "platform_id %" PRIu64 "\n", prof->platform_id);
	outf(&o, "platform_rev %" PRIu64 "\n", prof->platform_rev);
	return out_done(&o);
}

int
ksim_format_node_properties(const struct ksim_profile *prof, unsigned int node,
			    unsigned int abi_minor, char *buf, size_t len)
{
	const struct ksim_node_prop_desc *pt = ksim_node_prop_table();
	struct out o = { buf, len, 0 };
	const struct ksim_node *n;

	(void)abi_minor;
	if (!prof || node >= prof->n_nodes)
		return -EINVAL;
	if (len)
		buf[0] = 0;
	n = &prof->nodes[node];
	for (int p = 0; p < KSIM_NP_COUNT; p++) {
		if ((pt[p].flags & KSIM_NPF_GPU_ONLY) && !ksim_node_is_gpu(n))
			continue;
		if ((pt[p].flags & KSIM_NPF_OPTIONAL) &&
		    !(n->props_present & KSIM_NP_BIT(p)))
			continue;
		outf(&o, "%s %" PRIu64 "\n", pt[p].name, n->props[p]);
	}
	return out_done(&o);
}

int
ksim_format_mem_bank(const struct ksim_profile *prof, unsigned int node,
		     unsigned int bank, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	const struct ksim_mem_bank *b;

	if (!prof || node >= prof->n_nodes ||
	    bank >= prof->nodes[node].n_mem_banks)
		return -EINVAL;
	if (len)
		buf[0] = 0;
	b = &prof->nodes[node].mem_banks[bank];
	outf(&o, "heap_type %" PRIu32 "\n", b->heap_type);
	outf(&o, "size_in_bytes %" PRIu64 "\n", b->size_in_bytes);
	outf(&o, "flags %" PRIu32 "\n", b->flags);
	outf(&o, "width %" PRIu32 "\n", b->width);
	outf(&o, "mem_clk_max %" PRIu32 "\n", b->mem_clk_max);
	return out_done(&o);
}

int
ksim_format_cache(const struct ksim_profile *prof, unsigned int node,
		  unsigned int cache, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	const struct ksim_cache *c;

	if (!prof || node >= prof->n_nodes ||
	    cache >= prof->nodes[node].n_caches)
		return -EINVAL;
	if (len)
		buf[0] = 0;
	c = &prof->nodes[node].caches[cache];
	outf(&o, "processor_id_low %" PRIu32 "\n", c->processor_id_low);
	outf(&o, "level %" PRIu32 "\n", c->level);
	outf(&o, "size %" PRIu32 "\n", c->size);
	outf(&o, "cache_line_size %" PRIu32 "\n", c->cache_line_size);
	outf(&o, "cache_lines_per_tag %" PRIu32 "\n", c->cache_lines_per_tag);
	outf(&o, "association %" PRIu32 "\n", c->association);
	outf(&o, "latency %" PRIu32 "\n", c->latency);
	outf(&o, "type %" PRIu32 "\n", c->type);
	/* The kernel prints every bit followed by ',' and turns the last
	 * ',' into the newline. */
	outf(&o, "sibling_map ");
	for (unsigned int i = 0; i < c->sibling_count; i++)
		outf(&o, "%u%s", c->sibling_map[i],
		     i + 1 < c->sibling_count ? "," : "");
	outf(&o, "\n");
	return out_done(&o);
}

int
ksim_format_io_link(const struct ksim_profile *prof, unsigned int node,
		    unsigned int link, int p2p, unsigned int abi_minor,
		    char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	const struct ksim_node *n;
	const struct ksim_io_link *l;

	if (!prof || node >= prof->n_nodes)
		return -EINVAL;
	n = &prof->nodes[node];
	if (link >= (p2p ? n->n_p2p_links : n->n_io_links))
		return -EINVAL;
	if (len)
		buf[0] = 0;
	l = p2p ? &n->p2p_links[link] : &n->io_links[link];
	outf(&o, "type %" PRIu32 "\n", l->type);
	outf(&o, "version_major %" PRIu32 "\n", l->version_major);
	outf(&o, "version_minor %" PRIu32 "\n", l->version_minor);
	outf(&o, "node_from %" PRIu32 "\n", l->node_from);
	outf(&o, "node_to %" PRIu32 "\n", l->node_to);
	outf(&o, "weight %" PRIu32 "\n", l->weight);
	outf(&o, "min_latency %" PRIu32 "\n", l->min_latency);
	outf(&o, "max_latency %" PRIu32 "\n", l->max_latency);
	outf(&o, "min_bandwidth %" PRIu32 "\n", l->min_bandwidth);
	outf(&o, "max_bandwidth %" PRIu32 "\n", l->max_bandwidth);
	outf(&o, "recommended_transfer_size %" PRIu32 "\n",
	     l->recommended_transfer_size);
	/* The key arrived with SDMA_BY_ENG_ID in 1.17. */
	if (l->has_sdma_engine_id_mask && (abi_minor == 0 || abi_minor >= 17))
		outf(&o, "recommended_sdma_engine_id_mask %" PRIu32 "\n",
		     l->recommended_sdma_engine_id_mask);
	outf(&o, "flags %" PRIu32 "\n", l->flags);
	return out_done(&o);
}
