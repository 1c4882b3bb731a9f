/* SPDX-License-Identifier: MIT */
/*
 * The reader's memory records (docs/trace-format.md 5.4.15): it hands out
 * the bytes of a reference (REF: stored earlier in the file; STORE: in
 * the run's blob store) and of a delta (the previous record at the same
 * address, changed), and says why when it cannot (enum kt_mem_missing).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "kfdtrace/blob.h"
#include "reader_internal.h"

/* A memory blob the reader keeps: its hash, then its bytes. */
struct kt_blob {
	uint8_t hash[KT_MEM_HASH_LEN];
	uint32_t len;
	uint8_t data[];
};

/* The bytes of a thread's last memory record at an address (a delta's
 * base). */
struct kt_mem_base {
	uint32_t len;
	uint8_t data[KT_MEM_DELTA_MAX];
};

void
kt_reader_blobs_init(struct kt_reader *r)
{
	kc_u64map_init(&r->blobs, sizeof(struct kt_blob *));
	kc_u64map_init(&r->bases, sizeof(struct kt_mem_base));
	r->store[0] = '\0';
}

void
kt_reader_blobs_seek(struct kt_reader *r)
{
	/* A base is the record before, in reading order: none after a seek. */
	kc_u64map_free(&r->bases);
}

void
kt_reader_blobs_free(struct kt_reader *r)
{
	size_t pos = 0;
	struct kc_u64map_slot *sl;

	while ((sl = kc_u64map_next(&r->blobs, &pos)))
		free(*(void **)sl->val);
	kc_u64map_free(&r->blobs);
	kc_u64map_free(&r->bases);
	free(r->membuf);
}

static struct kt_blob *
blob_find(struct kt_reader *r, const uint8_t *hash)
{
	struct kt_blob **slot;
	uint64_t key;

	memcpy(&key, hash, sizeof(key));
	slot = kc_u64map_get(&r->blobs, 0, key);
	if (slot && !memcmp((*slot)->hash, hash, KT_MEM_HASH_LEN))
		return *slot;
	return NULL;
}

/* Keep @len bytes of @hash. Out of memory: not kept (NULL). */
static struct kt_blob *
blob_keep(struct kt_reader *r, const uint8_t *hash, const uint8_t *data,
	  uint32_t len)
{
	struct kt_blob *b;
	uint64_t key;

	memcpy(&key, hash, sizeof(key));
	if (kc_u64map_get(&r->blobs, 0, key))
		return NULL;	/* a 64-bit clash: the first stays */
	b = malloc(sizeof(*b) + len);
	if (!b)
		return NULL;
	memcpy(b->hash, hash, KT_MEM_HASH_LEN);
	b->len = len;
	memcpy(b->data, data, len);
	if (kc_u64map_put(&r->blobs, 0, key, &b) < 0) {
		free(b);
		return NULL;
	}
	return b;
}

/* STORE: the blob from the run's store, kept for the next reference. */
static void
blob_from_store(struct kt_reader *r, struct kt_memory_rec *m)
{
	struct kt_blob *b = blob_find(r, m->hash);
	uint8_t *data;
	size_t len;
	int err;

	if (!b) {
		err = r->store[0] ? kt_blob_get(r->store, m->hash, KT_MAX_SUBMIT,
						&data, &len) : -ENOENT;
		if (err) {
			m->missing = err == -ENOENT || err == -ENOTDIR ?
				     KT_MEM_NOT_IN_STORE : KT_MEM_BAD_IN_STORE;
			return;
		}
		b = blob_keep(r, m->hash, data, (uint32_t)len);
		free(data);
		if (!b) {
			m->missing = KT_MEM_BAD_IN_STORE;
			return;
		}
	}
	m->data = b->data;
	m->len = b->len;
}

/* DELTA: the base's bytes, changed, in the reader's buffer. */
static int
mem_delta(struct kt_reader *r, struct kt_memory_rec *m, uint32_t tid)
{
	struct kt_mem_base *base = kc_u64map_get(&r->bases, tid, m->addr);

	if (!base || base->len != m->full_len) {
		m->missing = KT_MEM_NO_BASE;
		return 0;
	}
	if (!r->membuf) {
		r->membuf = malloc(KT_MEM_DELTA_MAX);
		if (!r->membuf)
			return -ENOMEM;
	}
	memcpy(r->membuf, base->data, base->len);
	if (kt_mem_delta_apply(r->membuf, base->len, m->delta, m->delta_len))
		return -KT_ECORRUPT;
	m->data = r->membuf;
	m->len = base->len;
	return 0;
}

/*
 * A reference to bytes not read yet: the reader sought past them, or
 * another thread's record holds them later in the file (only one
 * thread's records keep their order, docs/trace-format.md 4.1). Keep
 * every blob the file holds, read once by a second reader over the same
 * bytes. Its errors are the main reader's to find.
 */
static void
blobs_scan(struct kt_reader *r)
{
	struct kt_reader *s;
	struct kt_record rec;

	r->blobs_scanned = true;
	if (kt_reader_open_mem(r->data, r->size, &s))
		return;
	s->scanning = true;
	while (kt_reader_next(s, &rec) == 1) {
		const struct kt_memory_rec *m = &rec.u.memory;

		if (rec.type == KT_REC_MEMORY && m->hash_len && m->len &&
		    !(m->flags & (KT_MEM_REF | KT_MEM_STORE | KT_MEM_DELTA)) &&
		    !blob_find(r, m->hash))
			blob_keep(r, m->hash, m->data, m->len);
	}
	kt_reader_close(s);
}

int
kt_reader_memory(struct kt_reader *r, struct kt_record *rec)
{
	struct kt_memory_rec *m = &rec->u.memory;
	uint32_t tid = (uint32_t)rec->tid;
	int err = 0;

	m->missing = KT_MEM_HAVE;
	/* blobs_scan()'s reader: the records as they are in the file. */
	if (r->scanning)
		return 0;
	if (m->flags & KT_MEM_DELTA) {
		err = mem_delta(r, m, tid);
	} else if (m->hash_len && (m->flags & KT_MEM_REF)) {
		struct kt_blob *b = blob_find(r, m->hash);

		if (!b && !r->blobs_scanned) {
			blobs_scan(r);
			b = blob_find(r, m->hash);
		}
		if (b) {
			m->data = b->data;
			m->len = b->len;
		} else {
			m->missing = KT_MEM_NOT_READ;
		}
	} else if (m->hash_len && (m->flags & KT_MEM_STORE)) {
		blob_from_store(r, m);
	} else if (m->hash_len && m->len && !blob_find(r, m->hash)) {
		blob_keep(r, m->hash, m->data, m->len);
	}
	if (err)
		return err;
	/*
	 * The next delta of this thread at this address changes these bytes
	 * (or has none). Per thread: only a thread's records keep their
	 * order in the file (docs/trace-format.md 4.1).
	 */
	if (m->len && m->len <= KT_MEM_DELTA_MAX) {
		struct kt_mem_base base;

		base.len = m->len;
		memcpy(base.data, m->data, m->len);
		if (kc_u64map_put(&r->bases, tid, m->addr, &base) < 0)
			kc_u64map_del(&r->bases, tid, m->addr, NULL);
	} else {
		kc_u64map_del(&r->bases, tid, m->addr, NULL);
	}
	return 0;
}
