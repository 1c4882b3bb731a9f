/* SPDX-License-Identifier: MIT */
/*
 * The profile text parser. Format: see ksim_profile.h. Every error names
 * the line; nothing in the input can make the parser read out of bounds or
 * allocate without limit (sizes are capped by profile_priv.h's limits).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_keys.h"
#include "profile_priv.h"

enum sect_kind {
	SECT_NONE,
	SECT_MACHINE,
	SECT_NODE,
	SECT_MEM_BANK,
	SECT_CACHE,
	SECT_IO_LINK,
	SECT_P2P_LINK,
	SECT_GPU,
	SECT_DRM,
	SECT_CPU,
	SECT_CPU_CACHE,
};

/* Parse state for one input. */
struct parser {
	const char *origin;
	unsigned int line;
	char **err;
	struct ksim_profile *prof;
	unsigned int cap_nodes;
	enum sect_kind sect;
	struct ksim_node *node;		/* node of the current section */
	unsigned int node_line[KSIM_MAX_NODES];
	uint64_t count_given[KSIM_MAX_NODES];	/* bit per *_count key seen */
	/* the current section's keys seen so far (duplicate detection) */
	char seen[64][40];
	unsigned int nseen;
	/* pending cache section (expanded when the section ends) */
	struct ksim_cache cache;
	uint64_t repeat;
	uint64_t step;
	int cache_pending;
	/* where keys were given, so a CPU-side contradiction names its line */
	unsigned int prop_line[KSIM_MAX_NODES][KSIM_NP_COUNT];
	unsigned int cpu_line;			/* the [cpu] header */
	unsigned int cpu_key_line[16];		/* by ksim_keys_cpu index */
	unsigned int cpu_cache_line[KSIM_CPU_MAX_CACHES][8];	/* [0]: header */
	int have_cpu;
};

static int
perr(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
perr(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksim_errf(p->err, "%s:%u: %s", p->origin, p->line, msg);
	return -1;
}

/* Parse an unsigned decimal or 0x-hex number filling the whole token. */
static int
parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static int
parse_num(struct parser *p, const char *key, const char *val, uint64_t max,
	  uint64_t *out)
{
	if (parse_u64(val, out))
		return perr(p, "%s: '%s' is not an unsigned number", key, val);
	if (*out > max)
		return perr(p, "%s: %s is out of range", key, val);
	return 0;
}

/* A string value: the rest of the line, optionally double-quoted. */
static int
parse_str(struct parser *p, const char *key, const char *val, char *dst,
	  size_t size)
{
	size_t n = strlen(val);

	if (n && val[0] == '"') {
		if (n < 2 || val[n - 1] != '"')
			return perr(p, "%s: unterminated quoted string", key);
		val++;
		n -= 2;
	}
	/*
	 * No string may hold a quote, quoted or not: ksim_profile_save()
	 * writes every string quoted, and the format has no escape.
	 */
	if (memchr(val, '"', n))
		return perr(p, "%s: stray quote in string", key);
	if (n >= size)
		return perr(p, "%s: string longer than %zu bytes", key, size - 1);
	memcpy(dst, val, n);
	dst[n] = 0;
	return 0;
}

/* Comma separated numbers, at most @max of them, each ≤ @lim. */
static int
parse_list(struct parser *p, const char *key, const char *val, uint64_t lim,
	   unsigned int max, uint32_t *out32, uint8_t *out8, unsigned int *n)
{
	char tok[32];
	unsigned int count = 0;
	const char *s = val;

	if (!*s)
		return perr(p, "%s: empty list", key);
	for (;;) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		uint64_t v;

		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		while (len && isspace((unsigned char)*s)) {
			s++;
			len--;
		}
		if (!len || len >= sizeof(tok))
			return perr(p, "%s: bad list element %u", key, count);
		memcpy(tok, s, len);
		tok[len] = 0;
		if (count >= max)
			return perr(p, "%s: more than %u elements", key, max);
		if (parse_u64(tok, &v) || v > lim)
			return perr(p, "%s: bad list element '%s'", key, tok);
		if (out32)
			out32[count] = (uint32_t)v;
		else
			out8[count] = (uint8_t)v;
		count++;
		if (!e)
			break;
		s = e + 1;
	}
	*n = count;
	return 0;
}

/* Set one key of a table-described struct. */
static int
set_table_key(struct parser *p, const struct ksim_key *k, void *base,
	      const char *val)
{
	char *dst = (char *)base + k->offset;
	uint64_t v;
	unsigned int n;

	switch (k->kind) {
	case KSIM_KEY_U32:
		if (parse_num(p, k->name, val, UINT32_MAX, &v))
			return -1;
		*(uint32_t *)dst = (uint32_t)v;
		return 0;
	case KSIM_KEY_U64:
		if (parse_num(p, k->name, val, UINT64_MAX, &v))
			return -1;
		*(uint64_t *)dst = v;
		return 0;
	case KSIM_KEY_STR:
		return parse_str(p, k->name, val, dst, k->size);
	case KSIM_KEY_U32_LIST:
		memset(dst, 0, k->size * sizeof(uint32_t));
		return parse_list(p, k->name, val, UINT32_MAX, k->size,
				  (uint32_t *)dst, NULL, &n);
	}
	return perr(p, "internal: bad key kind");
}

static void *
grow(void *arr, unsigned int n, size_t elem)
{
	/* Doubling from 4; n is bounded by the KSIM_MAX_* limits. */
	if (n && (n & (n - 1)))
		return arr;
	if (n && n < 4)
		return arr;
	return realloc(arr, (n ? n * 2 : 4) * elem);
}

static int
flush_cache(struct parser *p)
{
	struct ksim_node *n = p->node;

	if (!p->cache_pending)
		return 0;
	p->cache_pending = 0;
	if (p->repeat == 0)
		return perr(p, "cache: repeat must be at least 1");
	if (n->n_caches + p->repeat > KSIM_MAX_CACHES)
		return perr(p, "node has more than %u caches", KSIM_MAX_CACHES);
	for (uint64_t i = 0; i < p->repeat; i++) {
		struct ksim_cache *arr = grow(n->caches, n->n_caches,
					      sizeof(*arr));

		if (!arr)
			return perr(p, "out of memory");
		n->caches = arr;
		arr[n->n_caches] = p->cache;
		arr[n->n_caches].processor_id_low =
			(uint32_t)(p->cache.processor_id_low + i * p->step);
		n->n_caches++;
	}
	return 0;
}

/* [cpu] and [cpu cache C]. */
static int
open_cpu_section(struct parser *p, int nw, char w[][32])
{
	struct ksim_cpu *cpu = &p->prof->cpu;
	uint64_t idx;

	if (nw == 1) {
		if (p->have_cpu)
			return perr(p, "duplicate [cpu]");
		p->have_cpu = 1;
		p->cpu_line = p->line;
		/* Keys left out: one socket, no SMT, one NUMA node. */
		cpu->sockets = 1;
		cpu->threads_per_core = 1;
		cpu->numa_per_socket = 1;
		cpu->cpuid_level = 16;
		p->sect = SECT_CPU;
		return 0;
	}
	if (nw != 3 || strcmp(w[1], "cache") || parse_u64(w[2], &idx))
		return perr(p, "malformed section header");
	if (!p->have_cpu)
		return perr(p, "[cpu cache %s] before [cpu]", w[2]);
	if (idx != cpu->n_caches || idx >= KSIM_CPU_MAX_CACHES)
		return perr(p, "expected cpu cache %u (at most %u), found %s",
			    cpu->n_caches, KSIM_CPU_MAX_CACHES, w[2]);
	memset(&cpu->caches[idx], 0, sizeof(cpu->caches[idx]));
	cpu->caches[idx].partitions = 1;
	cpu->caches[idx].cores = 1;
	p->cpu_cache_line[idx][0] = p->line;
	cpu->n_caches++;
	p->sect = SECT_CPU_CACHE;
	return 0;
}

/* Parse "[...]" (already stripped of brackets) and open that section. */
static int
open_section(struct parser *p, char *hdr)
{
	char w[4][32];
	int nw = 0;
	char *save = NULL;
	uint64_t idx, sub = 0;
	struct ksim_profile *prof = p->prof;
	struct ksim_node *n;

	if (flush_cache(p))
		return -1;
	p->nseen = 0;
	for (char *t = strtok_r(hdr, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (nw == 4 || strlen(t) >= sizeof(w[0]))
			return perr(p, "malformed section header");
		strcpy(w[nw++], t);
	}
	if (nw == 1 && !strcmp(w[0], "machine")) {
		p->sect = SECT_MACHINE;
		return 0;
	}
	if (!strcmp(w[0], "cpu"))
		return open_cpu_section(p, nw, w);
	if (nw < 2 || strcmp(w[0], "node"))
		return perr(p, "unknown section '%s'", nw ? w[0] : "");
	if (parse_u64(w[1], &idx) || idx >= KSIM_MAX_NODES)
		return perr(p, "bad node index '%s'", w[1]);
	if (nw == 2) {
		if (idx != prof->n_nodes)
			return perr(p, "expected [node %u], found [node %s]",
				    prof->n_nodes, w[1]);
		if (prof->n_nodes == p->cap_nodes) {
			unsigned int cap = p->cap_nodes ? p->cap_nodes * 2 : 4;
			void *arr = realloc(prof->nodes,
					    cap * sizeof(*prof->nodes));

			if (!arr)
				return perr(p, "out of memory");
			prof->nodes = arr;
			p->cap_nodes = cap;
		}
		n = &prof->nodes[prof->n_nodes];
		memset(n, 0, sizeof(*n));
		p->node_line[prof->n_nodes] = p->line;
		p->count_given[prof->n_nodes] = 0;
		prof->n_nodes++;
		p->node = n;
		p->sect = SECT_NODE;
		return 0;
	}
	if (idx >= prof->n_nodes)
		return perr(p, "[node %s ...] before [node %s]", w[1], w[1]);
	n = p->node = &prof->nodes[idx];
	if (nw == 3 && (!strcmp(w[2], "gpu") || !strcmp(w[2], "drm"))) {
		int gpu = !strcmp(w[2], "gpu");
		void **slot = gpu ? (void **)&n->gpu : (void **)&n->drm;

		if (*slot)
			return perr(p, "duplicate [node %s %s]", w[1], w[2]);
		*slot = calloc(1, gpu ? sizeof(struct ksim_gpu) :
				  sizeof(struct ksim_drm));
		if (!*slot)
			return perr(p, "out of memory");
		p->sect = gpu ? SECT_GPU : SECT_DRM;
		return 0;
	}
	if (nw != 4 || parse_u64(w[3], &sub))
		return perr(p, "malformed section header");
	if (!strcmp(w[2], "mem_bank")) {
		struct ksim_mem_bank *arr;

		if (sub != n->n_mem_banks || sub >= KSIM_MAX_MEM_BANKS)
			return perr(p, "expected mem_bank %u, found %s",
				    n->n_mem_banks, w[3]);
		arr = grow(n->mem_banks, n->n_mem_banks, sizeof(*arr));
		if (!arr)
			return perr(p, "out of memory");
		n->mem_banks = arr;
		memset(&arr[n->n_mem_banks++], 0, sizeof(*arr));
		p->sect = SECT_MEM_BANK;
		return 0;
	}
	if (!strcmp(w[2], "cache")) {
		if (sub != n->n_caches)
			return perr(p, "expected cache %u, found %s",
				    n->n_caches, w[3]);
		memset(&p->cache, 0, sizeof(p->cache));
		p->repeat = 1;
		p->step = 1;
		p->cache_pending = 1;
		p->sect = SECT_CACHE;
		return 0;
	}
	if (!strcmp(w[2], "io_link") || !strcmp(w[2], "p2p_link")) {
		int p2p = w[2][0] == 'p';
		unsigned int *cnt = p2p ? &n->n_p2p_links : &n->n_io_links;
		struct ksim_io_link **arrp = p2p ? &n->p2p_links : &n->io_links;
		struct ksim_io_link *arr;

		if (sub != *cnt || sub >= KSIM_MAX_LINKS)
			return perr(p, "expected %s %u, found %s", w[2], *cnt,
				    w[3]);
		arr = grow(*arrp, *cnt, sizeof(*arr));
		if (!arr)
			return perr(p, "out of memory");
		*arrp = arr;
		memset(&arr[*cnt], 0, sizeof(*arr));
		(*cnt)++;
		p->sect = p2p ? SECT_P2P_LINK : SECT_IO_LINK;
		return 0;
	}
	return perr(p, "unknown section kind '%s'", w[2]);
}

static int
set_node_key(struct parser *p, const char *key, const char *val)
{
	struct ksim_node *n = p->node;
	unsigned int ni = (unsigned int)(n - p->prof->nodes);
	uint64_t v;
	int idx;

	if (!strcmp(key, "gpu_id")) {
		if (parse_num(p, key, val, UINT32_MAX, &v))
			return -1;
		n->gpu_id = (uint32_t)v;
		return 0;
	}
	if (!strcmp(key, "name"))
		return parse_str(p, key, val, n->name, sizeof(n->name));
	idx = ksim_node_prop_find(key);
	if (idx < 0)
		return perr(p, "unknown node property '%s'", key);
	if (parse_num(p, key, val, UINT64_MAX, &v))
		return -1;
	n->props[idx] = v;
	p->prop_line[ni][idx] = p->line;
	if (ksim_node_prop_table()[idx].flags & KSIM_NPF_OPTIONAL)
		n->props_present |= KSIM_NP_BIT(idx);
	if (idx >= KSIM_NP_MEM_BANKS_COUNT && idx <= KSIM_NP_P2P_LINKS_COUNT)
		p->count_given[ni] |= KSIM_NP_BIT(idx);
	return 0;
}

static int
set_key(struct parser *p, const char *key, const char *val)
{
	struct ksim_node *n = p->node;
	const struct ksim_key *k;
	uint64_t v;

	for (unsigned int i = 0; i < p->nseen; i++)
		if (!strcmp(p->seen[i], key))
			return perr(p, "duplicate key '%s'", key);
	if (p->nseen < 64 && strlen(key) < sizeof(p->seen[0]))
		strcpy(p->seen[p->nseen++], key);

	switch (p->sect) {
	case SECT_NONE:
		return perr(p, "key '%s' outside any section", key);
	case SECT_MACHINE:
		k = ksim_key_find(&ksim_keys_machine, key);
		if (!k)
			return perr(p, "unknown machine key '%s'", key);
		return set_table_key(p, k, p->prof, val);
	case SECT_NODE:
		return set_node_key(p, key, val);
	case SECT_MEM_BANK:
		k = ksim_key_find(&ksim_keys_mem_bank, key);
		if (!k)
			return perr(p, "unknown mem_bank key '%s'", key);
		return set_table_key(p, k, &n->mem_banks[n->n_mem_banks - 1],
				     val);
	case SECT_CACHE: {
		unsigned int cnt;

		if (!strcmp(key, "repeat"))
			return parse_num(p, key, val, KSIM_MAX_CACHES,
					 &p->repeat);
		if (!strcmp(key, "processor_id_step"))
			return parse_num(p, key, val, UINT32_MAX, &p->step);
		if (!strcmp(key, "sibling_map")) {
			memset(p->cache.sibling_map, 0,
			       sizeof(p->cache.sibling_map));
			if (parse_list(p, key, val, 1, KSIM_SIBLING_MAX, NULL,
				       p->cache.sibling_map, &cnt))
				return -1;
			p->cache.sibling_count = (uint16_t)cnt;
			return 0;
		}
		k = ksim_key_find(&ksim_keys_cache, key);
		if (!k)
			return perr(p, "unknown cache key '%s'", key);
		return set_table_key(p, k, &p->cache, val);
	}
	case SECT_IO_LINK:
	case SECT_P2P_LINK: {
		struct ksim_io_link *l = p->sect == SECT_IO_LINK ?
			&n->io_links[n->n_io_links - 1] :
			&n->p2p_links[n->n_p2p_links - 1];

		if (!strcmp(key, "recommended_sdma_engine_id_mask")) {
			if (parse_num(p, key, val, UINT32_MAX, &v))
				return -1;
			l->recommended_sdma_engine_id_mask = (uint32_t)v;
			l->has_sdma_engine_id_mask = 1;
			return 0;
		}
		k = ksim_key_find(&ksim_keys_io_link, key);
		if (!k)
			return perr(p, "unknown link key '%s'", key);
		return set_table_key(p, k, l, val);
	}
	case SECT_GPU:
		k = ksim_key_find(&ksim_keys_gpu, key);
		if (!k)
			return perr(p, "unknown gpu key '%s'", key);
		return set_table_key(p, k, n->gpu, val);
	case SECT_DRM:
		k = ksim_key_find(&ksim_keys_drm, key);
		if (!k)
			return perr(p, "unknown drm key '%s'", key);
		return set_table_key(p, k, n->drm, val);
	case SECT_CPU:
		k = ksim_key_find(&ksim_keys_cpu, key);
		if (!k)
			return perr(p, "unknown cpu key '%s'", key);
		if (k - ksim_keys_cpu.keys < 16)
			p->cpu_key_line[k - ksim_keys_cpu.keys] = p->line;
		return set_table_key(p, k, &p->prof->cpu, val);
	case SECT_CPU_CACHE: {
		unsigned int c = p->prof->cpu.n_caches - 1;

		k = ksim_key_find(&ksim_keys_cpu_cache, key);
		if (!k)
			return perr(p, "unknown cpu cache key '%s'", key);
		if (k - ksim_keys_cpu_cache.keys < 7)
			p->cpu_cache_line[c][1 + (k - ksim_keys_cpu_cache.keys)] =
				p->line;
		return set_table_key(p, k, &p->prof->cpu.caches[c], val);
	}
	}
	return perr(p, "internal: bad section");
}

/* Strip a '#' comment that is outside double quotes, then trailing blanks. */
static void
strip_line(char *s)
{
	int quoted = 0;
	size_t n;

	for (char *c = s; *c; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (*c == '#' && !quoted) {
			*c = 0;
			break;
		}
	}
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

static int
parse_line(struct parser *p, char *s)
{
	char *key, *val;

	strip_line(s);
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	if (*s == '[') {
		size_t n = strlen(s);

		if (s[n - 1] != ']')
			return perr(p, "section header without ']'");
		s[n - 1] = 0;
		return open_section(p, s + 1);
	}
	key = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = 0;
	while (isspace((unsigned char)*s))
		s++;
	val = s;
	if (!*val && strcmp(key, "name") && strcmp(key, "description"))
		return perr(p, "key '%s' has no value", key);
	return set_key(p, key, val);
}

/* Derive or check the *_count node properties against the sections. */
static int
finish_counts(struct parser *p)
{
	for (unsigned int i = 0; i < p->prof->n_nodes; i++) {
		struct ksim_node *n = &p->prof->nodes[i];
		const struct {
			int prop;
			unsigned int actual;
		} c[] = {
			{ KSIM_NP_MEM_BANKS_COUNT, n->n_mem_banks },
			{ KSIM_NP_CACHES_COUNT, n->n_caches },
			{ KSIM_NP_IO_LINKS_COUNT, n->n_io_links },
			{ KSIM_NP_P2P_LINKS_COUNT, n->n_p2p_links },
		};

		for (unsigned int j = 0; j < 4; j++) {
			if ((p->count_given[i] & KSIM_NP_BIT(c[j].prop)) &&
			    n->props[c[j].prop] != c[j].actual) {
				p->line = p->node_line[i];
				return perr(p, "node %u: %s is %llu but %u "
					    "sections follow", i,
					    ksim_node_prop_table()[c[j].prop].name,
					    (unsigned long long)n->props[c[j].prop],
					    c[j].actual);
			}
			n->props[c[j].prop] = c[j].actual;
		}
	}
	return 0;
}

/* The line a key was given on, else its section's header line. */
static unsigned int
key_line(const struct parser *p, int node, const char *key, int cache)
{
	const struct ksim_key_table *t = cache >= 0 ? &ksim_keys_cpu_cache :
					 &ksim_keys_cpu;
	const struct ksim_key *k;
	int prop;

	if (node >= 0) {
		prop = key ? ksim_node_prop_find(key) : -1;
		if (prop >= 0 && p->prop_line[node][prop])
			return p->prop_line[node][prop];
		return p->node_line[node];
	}
	k = key ? ksim_key_find(t, key) : NULL;
	if (cache >= 0) {
		if (k && p->cpu_cache_line[cache][1 + (k - t->keys)])
			return p->cpu_cache_line[cache][1 + (k - t->keys)];
		return p->cpu_cache_line[cache][0];
	}
	if (k && p->cpu_key_line[k - t->keys])
		return p->cpu_key_line[k - t->keys];
	return p->cpu_line;
}

/* Derive the CPU side, or check the [cpu] sections against the nodes. */
static int
finish_cpu(struct parser *p)
{
	const char *key = NULL;
	int node = -1, cache = -1;
	char *msg = NULL;

	if (!p->have_cpu) {
		ksim_cpu_derive(p->prof);
		return 0;
	}
	if (!ksim_cpu_validate(p->prof, &node, &key, &cache, &msg))
		return 0;
	p->line = key_line(p, node, key, cache);
	if (key)
		perr(p, "%s: %s", key, msg ? msg : "out of memory");
	else
		perr(p, "%s", msg ? msg : "out of memory");
	free(msg);
	return -1;
}

struct ksim_profile *
ksim_profile_parse(const char *text, size_t len, const char *origin,
		   char **err)
{
	struct parser *p;
	struct ksim_profile *prof;
	char *line = NULL;
	size_t pos = 0;
	int rc = 0;

	if (err)
		*err = NULL;
	if (!text || !origin) {
		ksim_errf(err, "%s: no profile text", origin ? origin : "?");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	prof = calloc(1, sizeof(*prof));
	line = malloc(len + 1);
	if (!p || !prof || !line) {
		ksim_errf(err, "%s: out of memory", origin);
		free(p);
		free(prof);
		free(line);
		return NULL;
	}
	p->origin = origin;
	p->err = err;
	p->prof = prof;
	while (pos < len && !rc) {
		size_t end = pos;

		while (end < len && text[end] != '\n')
			end++;
		p->line++;
		memcpy(line, text + pos, end - pos);
		line[end - pos] = 0;
		if (strlen(line) != end - pos)
			rc = perr(p, "NUL byte in profile");
		else
			rc = parse_line(p, line);
		pos = end + 1;
	}
	if (!rc)
		rc = flush_cache(p);
	if (!rc && prof->n_nodes == 0) {
		p->line = p->line ? p->line : 1;
		rc = perr(p, "no [node 0] section");
	}
	if (!rc)
		rc = finish_counts(p);
	if (!rc)
		rc = finish_cpu(p);
	if (!rc) {
		char *verr = NULL;

		if (ksim_profile_validate(prof, &verr)) {
			ksim_errf(err, "%s: %s", origin,
				  verr ? verr : "invalid profile");
			free(verr);
			rc = -1;
		}
	}
	free(line);
	free(p);
	if (rc) {
		ksim_profile_free(prof);
		return NULL;
	}
	return prof;
}
