/* SPDX-License-Identifier: MIT */
/*
 * Seeking (docs/trace-format.md section 6.2). A table of data frames is
 * built on the first seek: from the footer's chain of index frames when the
 * file was closed cleanly, else by walking frame headers (no
 * decompression) and taking ranges from whatever index frames the walk
 * meets. The index is advisory and checked: it must name data frames inside
 * the file, in order, with nothing but skippable frames between them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "reader_internal.h"

struct kt_table {
	struct kt_frame_ent *e;
	size_t n, cap;
};

static bool
kt_table_push(struct kt_table *t, const struct kt_frame_ent *e)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct kt_frame_ent *ne = realloc(t->e, cap * sizeof(*ne));

		if (!ne)
			return false;
		t->e = ne;
		t->cap = cap;
	}
	t->e[t->n++] = *e;
	return true;
}

static void
kt_ent_from_index(struct kt_frame_ent *f, const struct kt_index_entry *ie)
{
	f->offset = ie->frame_offset;
	f->size = ie->frame_size;
	f->max_seq = ie->max_seq;
	f->max_ts = ie->max_ts;
	f->known = true;
	f->end = ie->flags & KT_IDX_F_END;
}

/* The index payload at @off, or NULL when it is not a valid index frame. */
static const uint8_t *
kt_index_at(const struct kt_reader *r, uint64_t off, uint32_t *count,
	    uint32_t *esize, uint64_t *prev)
{
	const uint8_t *p;
	uint32_t psize;

	if (off < r->data_start || off > r->size || r->size - off < 8 + 12)
		return NULL;
	p = r->data + off;
	psize = kt_get_le32(p + 4);
	if (kt_get_le32(p) != KT_SKIP_MAGIC || psize > r->size - off - 8 ||
	    memcmp(p + 8, KT_TAG_INDEX, KT_TAG_LEN) ||
	    !kt_skip_check(p + 8, psize) ||
	    !kt_index_parse(p + 8, psize, count, esize, prev))
		return NULL;
	return p + 8;
}

static int
kt_ent_cmp(const void *a, const void *b)
{
	const struct kt_frame_ent *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * Is there a data frame in [@from, @to)? The gaps between indexed frames
 * may hold only skippable frames (the index frames themselves); a data
 * frame there (an emergency frame, say) means the index is incomplete.
 */
static bool
kt_gap_clean(const struct kt_reader *r, size_t from, size_t to)
{
	while (from < to) {
		const char *why;
		size_t size;
		bool is_data;

		if (kt_frame_extent(r->data, r->size, from, &size, &is_data,
				    &why) || is_data)
			return false;
		from += size;
	}
	return from == to;
}

/* Return: 0 with the table built, 1 when the index cannot be used. */
static int
kt_table_from_index(const struct kt_reader *r, struct kt_table *t)
{
	uint64_t off = r->footer_index, prev;
	uint32_t count, esize;
	const uint8_t *payload;
	size_t end;

	while (off) {
		payload = kt_index_at(r, off, &count, &esize, &prev);
		if (!payload)
			return 1;
		for (uint32_t i = 0; i < count; i++) {
			struct kt_index_entry ie;
			struct kt_frame_ent fe;

			kt_index_entry_get(payload, esize, i, &ie);
			kt_ent_from_index(&fe, &ie);
			if (!kt_table_push(t, &fe))
				return -ENOMEM;
		}
		/* The chain runs backwards; this also ends any loop. */
		if (prev >= off)
			return 1;
		off = prev;
	}
	qsort(t->e, t->n, sizeof(*t->e), kt_ent_cmp);
	end = r->data_start;
	for (size_t i = 0; i < t->n; i++) {
		const struct kt_frame_ent *e = &t->e[i];

		/* An entry past the end must not wrap the size check. */
		if (e->offset < end || e->offset > r->size ||
		    e->size > r->size - e->offset || e->size < 4 ||
		    kt_get_le32(r->data + e->offset) != KT_ZSTD_MAGIC ||
		    !kt_gap_clean(r, end, e->offset))
			return 1;
		end = e->offset + e->size;
	}
	return kt_gap_clean(r, end, r->size) ? 0 : 1;
}

/* The entry of @n (sorted by offset) for the frame at @off, or NULL. */
static struct kt_frame_ent *
kt_ent_search(struct kt_frame_ent *e, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && e[lo].offset == off ? &e[lo] : NULL;
}

const struct kt_frame_ent *
kt_seek_entry(const struct kt_reader *r, uint64_t off)
{
	const struct kt_frame_ent *e;

	if (!r->table_built || r->index_lied)
		return NULL;
	e = kt_ent_search(r->table, r->ntable, off);
	return e && e->known ? e : NULL;
}

void
kt_seek_check_frame(struct kt_reader *r)
{
	const struct kt_frame_ent *e = r->cur_ent;

	r->cur_ent = NULL;
	if (!e || !r->cur_any || e->max_seq == r->cur_max_seq || r->index_lied)
		return;
	r->index_lied = true;
	snprintf(r->index_msg, sizeof(r->index_msg),
		 "the index says the frame at offset %llu ends at seq %llu, "
		 "it holds seq %llu: a seek may have skipped records",
		 (unsigned long long)e->offset, (unsigned long long)e->max_seq,
		 (unsigned long long)r->cur_max_seq);
}

static struct kt_frame_ent *
kt_table_find(struct kt_table *t, uint64_t off)
{
	return kt_ent_search(t->e, t->n, off);
}

/* Walk frame headers; stop quietly where the file stops making sense. */
static int
kt_table_walk(const struct kt_reader *r, struct kt_table *t)
{
	size_t pos = r->data_start;

	while (pos < r->size) {
		struct kt_frame_ent fe = { .offset = pos };
		uint32_t count, esize;
		const uint8_t *payload;
		const char *why;
		uint64_t prev;
		size_t size;
		bool is_data;

		if (kt_frame_extent(r->data, r->size, pos, &size, &is_data,
				    &why))
			break;
		if (is_data) {
			fe.size = size;
			if (!kt_table_push(t, &fe))
				return -ENOMEM;
		} else if ((payload = kt_index_at(r, pos, &count, &esize,
						  &prev))) {
			for (uint32_t i = 0; i < count; i++) {
				struct kt_index_entry ie;
				struct kt_frame_ent *f;

				kt_index_entry_get(payload, esize, i, &ie);
				f = kt_table_find(t, ie.frame_offset);
				if (f && f->size == ie.frame_size)
					kt_ent_from_index(f, &ie);
			}
		}
		pos += size;
	}
	return 0;
}

static int
kt_reader_build_table(struct kt_reader *r)
{
	struct kt_table t = { 0 };
	int err = 1;

	if (r->complete)
		err = kt_table_from_index(r, &t);
	if (err == 1) {
		t.n = 0;
		err = kt_table_walk(r, &t);
	}
	if (err) {
		free(t.e);
		return err;
	}
	r->table = t.e;
	r->ntable = t.n;
	r->table_built = true;
	return 0;
}

static int
kt_reader_seek(struct kt_reader *r, enum kt_skip_mode mode, uint64_t val)
{
	size_t i;
	int err;

	if (!r->table_built) {
		err = kt_reader_build_table(r);
		if (err)
			return err;
	}
	r->seen_end = false;
	for (i = 0; i < r->ntable; i++) {
		const struct kt_frame_ent *e = &r->table[i];

		if (!e->known ||
		    (mode == KT_SKIP_SEQ ? e->max_seq : e->max_ts) >= val)
			break;
		if (e->end)
			r->seen_end = true;
	}
	/*
	 * Start a frame early: records below the target are skipped anyway,
	 * and reading that frame checks the index entry that let the seek
	 * pass over it (kt_seek_check_frame()).
	 */
	if (i > 0 && i < r->ntable && r->table[i - 1].known)
		i--;
	if (i < r->ntable)
		r->pos = r->table[i].offset;
	else if (r->ntable)
		r->pos = r->table[i - 1].offset + r->table[i - 1].size;
	else
		r->pos = r->data_start;
	/* Frames are decoded once (XOR images are restored in place). */
	r->flen = r->rpos = 0;
	kt_reader_blobs_seek(r);
	kt_ahead_reset(r, r->pos);
	r->err = 0;
	r->st.integrity = KT_INTEGRITY_NO_END;
	r->st.corrupt_offset = 0;
	r->st.corrupt_raw_offset = KT_NO_RAW;
	r->st.message[0] = '\0';
	r->skip_mode = mode;
	r->skip_val = val;
	kt_check_off(r);
	return 0;
}

int
kt_reader_seek_seq(struct kt_reader *r, uint64_t seq)
{
	return kt_reader_seek(r, KT_SKIP_SEQ, seq);
}

int
kt_reader_seek_time(struct kt_reader *r, uint64_t ts)
{
	return kt_reader_seek(r, KT_SKIP_TS, ts);
}
