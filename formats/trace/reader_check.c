/* SPDX-License-Identifier: MIT */
/*
 * Whole-file checks of a read that started at the first frame
 * (docs/trace-format.md section 7.4). Every frame can be intact and the
 * file still not be what a writer wrote: a frame deleted, a frame copied
 * twice, the frames of another trace appended. The writer numbers records
 * without gaps and its END record counts them, so:
 *   - no sequence number may appear twice (a set of the numbers seen, kept
 *     as a bitmap over the window between the lowest number whose
 *     predecessors are all seen and the highest seen);
 *   - nothing may follow the END record;
 *   - the records read must be as many as END says were written.
 * A seek turns the checks off: the read no longer sees every frame.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_internal.h"

/* The bitmap holds at most this many numbers (8 MiB); past it, the oldest
 * part is given up and duplicates there go unnoticed (said in the status). */
#define KT_CHECK_MAX_WORDS	(1u << 20)

static bool
kt_check_grow(struct kt_rcheck *c, size_t words)
{
	size_t cap = c->cap ? c->cap : 256;
	uint64_t *nb;

	while (cap < words)
		cap *= 2;
	if (cap > KT_CHECK_MAX_WORDS)
		cap = KT_CHECK_MAX_WORDS;
	if (cap < words)
		return false;
	if (cap == c->cap)
		return true;
	nb = realloc(c->bits, cap * sizeof(*nb));
	if (!nb)
		return false;
	memset(nb + c->cap, 0, (cap - c->cap) * sizeof(*nb));
	c->bits = nb;
	c->cap = cap;
	return true;
}

/* Drop @n words at the bottom of the window. */
static void
kt_check_drop(struct kt_rcheck *c, size_t n)
{
	if (n > c->used)
		n = c->used;
	for (size_t i = 0; i < n; i++)
		if (c->bits[i] != ~0ull)
			c->lossy = true;	/* numbers there never seen */
	memmove(c->bits, c->bits + n, (c->used - n) * sizeof(*c->bits));
	memset(c->bits + c->used - n, 0, n * sizeof(*c->bits));
	c->used -= n;
	c->base += (uint64_t)n * 64;
	c->slid = true;
}

/* Slide past the full words at the bottom: their numbers were all seen. */
void
kt_check_slide_full(struct kt_rcheck *c)
{
	size_t n = 0;

	while (n < c->used && c->bits[n] == ~0ull)
		n++;
	if (n)
		kt_check_drop(c, n);
}

/*
 * Where the window starts, below the first number read: records are not
 * read in number order (each frame holds several threads' buffers), so
 * lower numbers may still come.
 */
#define KT_CHECK_LOOKBACK	65536u

/* Return: true when @seq was seen before. */
static bool
kt_check_seq(struct kt_rcheck *c, uint64_t seq)
{
	uint64_t word, bit;

	if (!c->bits) {
		if (!kt_check_grow(c, 256)) {
			c->off = true;
			return false;
		}
		c->base = seq & ~63ull;
		c->base = c->base > KT_CHECK_LOOKBACK ?
			  c->base - KT_CHECK_LOOKBACK : 0;
		c->init_base = c->base;
	}
	if (seq < c->base) {
		size_t shift;

		/* What a slide passed over was all seen, unless it had to
		 * give up numbers it had not seen. */
		if (c->slid)
			return seq >= c->init_base && !c->lossy;
		shift = (size_t)((c->base - (seq & ~63ull)) / 64);
		if (!kt_check_grow(c, c->used + shift)) {
			c->lossy = true;
			return false;
		}
		memmove(c->bits + shift, c->bits, c->used * sizeof(*c->bits));
		memset(c->bits, 0, shift * sizeof(*c->bits));
		c->used += shift;
		c->base -= (uint64_t)shift * 64;
		c->init_base = c->base;
	}
	word = (seq - c->base) / 64;
	if (word >= KT_CHECK_MAX_WORDS) {
		/* Keep the newest part of the window. */
		kt_check_drop(c, (size_t)(word - KT_CHECK_MAX_WORDS) + 1);
		if ((seq - c->base) / 64 >= KT_CHECK_MAX_WORDS) {
			c->base = seq & ~63ull;
			c->used = 0;
		}
		word = (seq - c->base) / 64;
	}
	if (word >= c->used) {
		if (!kt_check_grow(c, (size_t)word + 1)) {
			c->off = true;
			return false;
		}
		c->used = (size_t)word + 1;
	}
	bit = 1ull << ((seq - c->base) % 64);
	if (c->bits[word] & bit)
		return true;
	c->bits[word] |= bit;
	if (word == 0 && c->bits[0] == ~0ull)
		kt_check_slide_full(c);
	return false;
}

void
kt_check_record(struct kt_reader *r, const struct kt_record *rec, bool known)
{
	struct kt_rcheck *c = &r->chk;

	if (c->off)
		return;
	c->counted++;
	if (c->after_end == 0 && c->have_end) {
		c->after_end = 1;
		c->after_end_frame = r->frame_off;
	}
	if (known && kt_check_seq(c, rec->seq) && !c->ndup++) {
		c->dup_seq = rec->seq;
		c->dup_frame = r->frame_off;
	}
	if (known && rec->type == KT_REC_END) {
		c->have_end = true;
		c->end = rec->u.end;
		/* END does not count itself. */
		c->counted--;
	}
}

void
kt_check_off(struct kt_reader *r)
{
	r->chk.off = true;
}

void
kt_check_free(struct kt_reader *r)
{
	free(r->chk.bits);
	memset(&r->chk, 0, sizeof(r->chk));
}

/*
 * At the end of the file: what the checks found, as the final integrity.
 * The first finding is the one named.
 */
void
kt_check_finish(struct kt_reader *r)
{
	struct kt_rcheck *c = &r->chk;
	struct kt_reader_status *st = &r->st;

	if (c->have_end) {
		st->end_records = c->end.records;
		st->lost = c->end.lost;
		st->end_flags = c->end.flags;
		st->left_out = c->end.left_out;
	}
	if (c->off || !r->seen_end)
		return;
	if (c->after_end) {
		st->integrity = KT_INTEGRITY_DAMAGED;
		snprintf(st->message, sizeof(st->message),
			 "records follow the END record (from the frame at "
			 "offset %llu): frames of another trace were appended?",
			 (unsigned long long)c->after_end_frame);
	} else if (c->ndup) {
		st->integrity = KT_INTEGRITY_DAMAGED;
		snprintf(st->message, sizeof(st->message),
			 "%llu records appear twice (first: seq %llu, again in "
			 "the frame at offset %llu): a frame was repeated",
			 (unsigned long long)c->ndup,
			 (unsigned long long)c->dup_seq,
			 (unsigned long long)c->dup_frame);
	} else if (c->counted != c->end.records) {
		st->integrity = KT_INTEGRITY_DAMAGED;
		snprintf(st->message, sizeof(st->message),
			 "the END record says %llu records were written, the "
			 "file holds %llu: %s",
			 (unsigned long long)c->end.records,
			 (unsigned long long)c->counted,
			 c->counted < c->end.records ?
			 "frames are missing" : "records were added");
	} else if (c->end.lost || (c->end.flags & KT_END_INCOMPLETE)) {
		st->integrity = KT_INTEGRITY_INCOMPLETE;
		snprintf(st->message, sizeof(st->message),
			 "the writer lost %llu records (out of memory, or a "
			 "write failed: disk full?); %llu were written",
			 (unsigned long long)c->end.lost,
			 (unsigned long long)c->end.records);
	}
	if (c->lossy && st->integrity == KT_INTEGRITY_OK)
		snprintf(st->message, sizeof(st->message),
			 "complete trace (sequence numbers spread too far "
			 "apart to check them all for repeats)");
}
