/* SPDX-License-Identifier: MIT */
/*
 * Containers of the replayer: bounded growable arrays, an open-addressing
 * hash map keyed by (kind, scope, value), and deep copies of records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay_priv.h"

void
rp_vec_init(struct rp_vec *v, size_t esz)
{
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
	v->esz = esz;
}

void
rp_vec_free(struct rp_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
}

void *
rp_vec_push(struct rp_vec *v)
{
	void *slot;

	if (v->n >= RP_MAX_OBJS)
		return NULL;
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 16;
		void *nd;

		if (ncap > RP_MAX_OBJS)
			ncap = RP_MAX_OBJS;
		nd = realloc(v->data, ncap * v->esz);
		if (!nd)
			return NULL;
		v->data = nd;
		v->cap = ncap;
	}
	slot = (char *)v->data + v->n * v->esz;
	memset(slot, 0, v->esz);
	v->n++;
	return slot;
}

/* ------------------------------------------------------------------ */

static inline uint64_t
map_hash(uint32_t ks, uint64_t key)
{
	uint64_t h = key ^ ((uint64_t)ks << 32 | ks);

	/* splitmix64 finaliser: handles and offsets differ in high bits. */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h;
}

static inline uint32_t
map_ks(unsigned int kind, unsigned int scope)
{
	return (uint32_t)kind << 24 | (scope & 0xffffff);
}

void
rp_map_free(struct rp_map *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = 0;
	m->used = 0;
	m->n = 0;
}

/*
 * Linear probing; deletion shifts the following entries back instead of
 * leaving tombstones, so a map that sees millions of create/destroy pairs
 * keeps short probe chains.
 */
static struct rp_map_slot *
map_find(const struct rp_map *m, uint32_t ks, uint64_t key)
{
	size_t mask, i;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = map_hash(ks, key) & mask;; i = (i + 1) & mask) {
		struct rp_map_slot *s = &m->s[i];

		if (!s->state)
			return NULL;
		if (s->ks == ks && s->key == key)
			return s;
	}
}

static int
map_grow(struct rp_map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 256;
	struct rp_map_slot *old = m->s, *ns;
	size_t ocap = m->cap, i;

	if (ncap > ((size_t)1 << 30))
		return -ENOMEM;
	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	m->s = ns;
	m->cap = ncap;
	for (i = 0; i < ocap; i++) {
		if (old[i].state) {
			size_t mask = ncap - 1, j;

			for (j = map_hash(old[i].ks, old[i].key) & mask;
			     ns[j].state; j = (j + 1) & mask)
				;
			ns[j] = old[i];
		}
	}
	free(old);
	return 0;
}

int
rp_map_put(struct rp_map *m, unsigned int kind, unsigned int scope,
	   uint64_t key, uint64_t val)
{
	uint32_t ks = map_ks(kind, scope);
	struct rp_map_slot *s = map_find(m, ks, key);
	size_t mask, i;

	if (s) {
		s->val = val;
		return 0;
	}
	if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0)
		return -ENOMEM;
	mask = m->cap - 1;
	for (i = map_hash(ks, key) & mask; m->s[i].state; i = (i + 1) & mask)
		;
	m->s[i].state = 1;
	m->s[i].ks = ks;
	m->s[i].key = key;
	m->s[i].val = val;
	m->n++;
	m->used = m->n;
	return 0;
}

int
rp_map_get(const struct rp_map *m, unsigned int kind, unsigned int scope,
	   uint64_t key, uint64_t *val)
{
	struct rp_map_slot *s = map_find(m, map_ks(kind, scope), key);

	if (!s)
		return 0;
	if (val)
		*val = s->val;
	return 1;
}

int
rp_map_del(struct rp_map *m, unsigned int kind, unsigned int scope,
	   uint64_t key)
{
	struct rp_map_slot *s = map_find(m, map_ks(kind, scope), key);
	size_t mask, i, j;

	if (!s)
		return 0;
	mask = m->cap - 1;
	i = (size_t)(s - m->s);
	/* Move back every entry whose home lies at or before the hole. */
	for (j = (i + 1) & mask; m->s[j].state; j = (j + 1) & mask) {
		size_t home = map_hash(m->s[j].ks, m->s[j].key) & mask;

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->s[i] = m->s[j];
			i = j;
		}
	}
	m->s[i].state = 0;
	m->n--;
	m->used = m->n;
	return 1;
}

/* ------------------------------------------------------------------ */

/* Bytes a clone needs beyond the record struct (each piece 8-aligned). */
#define A8(x) (((x) + 7) & ~(size_t)7)

static size_t
str_need(const char *s)
{
	return s ? A8(strlen(s) + 1) : 0;
}

static char *
str_put(char **p, const char *s)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = *p;
	memcpy(d, s, n);
	*p += A8(n);
	return d;
}

static void *
bytes_put(char **p, const void *src, size_t n)
{
	void *d;

	if (!src)
		return NULL;
	d = *p;
	if (n)
		memcpy(d, src, n);
	*p += A8(n);
	return d;
}

struct kt_record *
rp_rec_clone(const struct kt_record *rec)
{
	size_t need = A8(sizeof(*rec));
	struct kt_record *c;
	char *p;
	uint32_t i;

	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;

		need += 2 * A8(io->arg_size);
		need += A8((size_t)io->nbufs * sizeof(struct kt_buf_image));
		/* Only images that are there: an absent one may state any length. */
		for (i = 0; i < io->nbufs; i++)
			need += (io->bufs[i].before ? A8(io->bufs[i].len_before) : 0) +
				(io->bufs[i].after ? A8(io->bufs[i].len_after) : 0);
		break;
	}
	case KT_REC_OPEN:
		need += str_need(rec->u.open.path);
		break;
	case KT_REC_EXEC:
		need += str_need(rec->u.exec.path) + A8(rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		need += str_need(rec->u.thread_name.name);
		break;
	case KT_REC_ANNOTATION:
		need += str_need(rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		need += str_need(rec->u.api.name) + str_need(rec->u.api.args);
		break;
	case KT_REC_TOPOLOGY:
		need += A8((size_t)rec->u.topology.nfiles *
			   sizeof(struct kt_topo_file));
		for (i = 0; i < rec->u.topology.nfiles; i++)
			need += str_need(rec->u.topology.files[i].path) +
				A8(rec->u.topology.files[i].len);
		break;
	default:
		break;
	}
	c = malloc(need);
	if (!c)
		return NULL;
	*c = *rec;
	p = (char *)c + A8(sizeof(*rec));
	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;
		struct kt_buf_image *bi;

		c->u.ioctl.arg_before = bytes_put(&p, io->arg_before, io->arg_size);
		c->u.ioctl.arg_after = bytes_put(&p, io->arg_after, io->arg_size);
		bi = (struct kt_buf_image *)p;
		p += A8((size_t)io->nbufs * sizeof(*bi));
		for (i = 0; i < io->nbufs; i++) {
			bi[i] = io->bufs[i];
			bi[i].before = bytes_put(&p, io->bufs[i].before,
						 io->bufs[i].len_before);
			bi[i].after = bytes_put(&p, io->bufs[i].after,
						io->bufs[i].len_after);
		}
		c->u.ioctl.bufs = io->nbufs ? bi : NULL;
		break;
	}
	case KT_REC_OPEN:
		c->u.open.path = str_put(&p, rec->u.open.path);
		break;
	case KT_REC_EXEC:
		c->u.exec.path = str_put(&p, rec->u.exec.path);
		c->u.exec.argv = bytes_put(&p, rec->u.exec.argv,
					   rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		c->u.thread_name.name = str_put(&p, rec->u.thread_name.name);
		break;
	case KT_REC_ANNOTATION:
		c->u.annotation.text = str_put(&p, rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		c->u.api.name = str_put(&p, rec->u.api.name);
		c->u.api.args = str_put(&p, rec->u.api.args);
		break;
	case KT_REC_TOPOLOGY: {
		struct kt_topo_file *tf = (struct kt_topo_file *)p;

		p += A8((size_t)rec->u.topology.nfiles * sizeof(*tf));
		for (i = 0; i < rec->u.topology.nfiles; i++) {
			tf[i].path = str_put(&p, rec->u.topology.files[i].path);
			tf[i].len = rec->u.topology.files[i].len;
			tf[i].data = bytes_put(&p, rec->u.topology.files[i].data,
					       tf[i].len);
		}
		c->u.topology.files = rec->u.topology.nfiles ? tf : NULL;
		break;
	}
	default:
		break;
	}
	return c;
}
