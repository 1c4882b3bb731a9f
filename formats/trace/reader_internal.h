/* SPDX-License-Identifier: MIT */
/* The reader's state, shared by reader.c, reader_frame.c and reader_seek.c. */
#ifndef KT_READER_INTERNAL_H
#define KT_READER_INTERNAL_H

#include <limits.h>

#include "trace_internal.h"

#include "kfdtrace/common/u64map.h"

/* A data frame as the seek table knows it. */
struct kt_frame_ent {
	uint64_t offset;
	uint64_t size;		/* compressed size of the frame */
	uint64_t max_seq;
	uint64_t max_ts;
	bool known;		/* ranges come from an index entry */
	bool end;		/* holds the END record */
};

enum kt_skip_mode {
	KT_SKIP_NONE,
	KT_SKIP_SEQ,
	KT_SKIP_TS,
};

/* The whole-file checks (reader_check.c). */
struct kt_rcheck {
	bool off;		/* a seek: the read no longer sees every frame */
	uint64_t counted;	/* records read, the END record aside */
	uint64_t *bits;		/* sequence numbers seen, from base */
	size_t used, cap;	/* words */
	uint64_t base, init_base;
	bool slid;		/* base moved up past seen numbers */
	bool lossy;		/* ... and past some never seen */
	uint64_t ndup, dup_seq, dup_frame;
	bool have_end;
	struct kt_end_rec end;
	int after_end;
	uint64_t after_end_frame;
};

struct kt_reader {
	const uint8_t *data;		/* the whole file */
	size_t size;
	void *map;			/* mmap()ed file, or NULL */
	uint8_t *copy;			/* read() file (pipes), or NULL */
	struct kt_header hdr;
	uint64_t ts_lo, ts_hi;		/* kt_header_ts_range() */
	size_t data_start;		/* first frame after the header */
	size_t pos;			/* next frame */
	bool complete;			/* a valid footer ends the file */
	uint64_t footer_index;
	bool seen_end;
	int err;			/* sticky error of kt_reader_next() */

	/* The current decompressed frame. */
	uint8_t *fbuf;
	size_t fcap;
	size_t flen;
	size_t rpos;
	size_t frame_off;
	void *dctx;			/* ZSTD_DCtx */
	struct kt_dec dec;

	struct kt_ahead *ahead;		/* read-ahead helper, or NULL */
	bool ahead_on;			/* may still start one */

	struct kt_reader_status st;

	/* Memory blobs by content hash (KT_MEM_REF), once seen. */
	struct kc_u64map blobs;		/* hash's first 8 bytes -> blob * */
	/* The bytes of the last memory record at each address (DELTA). */
	struct kc_u64map bases;		/* addr -> struct kt_mem_base */
	uint8_t *membuf;		/* a DELTA record's bytes */
	char store[PATH_MAX];		/* the run's blob store, or "" */
	bool blobs_scanned;		/* the whole file's blobs are kept */
	bool scanning;			/* the reader of that scan */

	struct kt_frame_ent *table;	/* seek table, built on first seek */
	size_t ntable;
	bool table_built;
	enum kt_skip_mode skip_mode;
	uint64_t skip_val;
	struct kt_rcheck chk;
	/* The seek table's entry of the frame being read (from an index),
	 * checked against what the frame holds once it is read. */
	const struct kt_frame_ent *cur_ent;
	uint64_t cur_max_seq;
	bool cur_any;
	bool index_lied;
	char index_msg[160];
};

/* reader.c */
int kt_reader_fail(struct kt_reader *r, int err, int line, uint64_t off,
		   uint64_t raw_off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#define KT_CORRUPT(r, off, raw_off, ...) \
	kt_reader_fail((r), -KT_ECORRUPT, __LINE__, (off), (raw_off), __VA_ARGS__)
#define KT_NO_RAW	UINT64_MAX

/* reader_blob.c */

/* kt_reader_blobs_init() - no blobs yet, no store (a file's reader
 * names its run's store in r->store). */
void kt_reader_blobs_init(struct kt_reader *r);

/* kt_reader_blobs_seek() - forget the delta bases (a seek). */
void kt_reader_blobs_seek(struct kt_reader *r);

/* kt_reader_blobs_free() - release the blobs and bases. */
void kt_reader_blobs_free(struct kt_reader *r);

/*
 * kt_reader_memory() - resolve a memory record's bytes (REF, STORE,
 * DELTA) and note them as its address's base.
 * Return: 0 (unresolved: m->missing says why), -KT_ECORRUPT for a bad
 * delta, -ENOMEM.
 */
int kt_reader_memory(struct kt_reader *r, struct kt_record *rec);

/* reader_check.c */

/* kt_check_record() - account for a record just decoded (@known: of a
 * type this reader knows, so its fields are valid). */
void kt_check_record(struct kt_reader *r, const struct kt_record *rec,
		     bool known);

/* kt_check_slide_full() - move the window past its full low words. */
void kt_check_slide_full(struct kt_rcheck *c);

/*
 * kt_check_record_fast() - kt_check_record() for the common case, inline
 * on the reader's per-record path: a known record whose number falls in
 * the window and was not seen. Anything else goes to kt_check_record()
 * with nothing changed yet.
 */
static inline void
kt_check_record_fast(struct kt_reader *r, const struct kt_record *rec,
		     bool known)
{
	struct kt_rcheck *c = &r->chk;
	uint64_t d = rec->seq - c->base, *w, bit;

	if (c->off)
		return;
	if (KT_LIKELY(known && !c->have_end && c->bits && rec->seq >= c->base &&
		      d < (uint64_t)c->used * 64 && rec->type != KT_REC_END)) {
		w = &c->bits[d / 64];
		bit = 1ull << (d % 64);
		if (KT_LIKELY(!(*w & bit))) {
			*w |= bit;
			c->counted++;
			if (KT_UNLIKELY(d < 64 && *w == ~0ull))
				kt_check_slide_full(c);
			return;
		}
	}
	kt_check_record(r, rec, known);
}

/* kt_check_finish() - at the end of the file: the checks' verdict goes
 * into r->st (integrity, message, END's counts). */
void kt_check_finish(struct kt_reader *r);

/* kt_check_off() - stop checking (a seek). */
void kt_check_off(struct kt_reader *r);

/* kt_check_free() - release the checks' memory. */
void kt_check_free(struct kt_reader *r);

/* reader_seek.c */

/* kt_seek_entry() - the seek table's entry for the data frame at @off,
 * when the table is built and an index gave its ranges; else NULL. */
const struct kt_frame_ent *kt_seek_entry(const struct kt_reader *r,
					 uint64_t off);

/* kt_seek_check_frame() - the frame just read is done: compare what it
 * held with what the index said of it (a lying index is damage). */
void kt_seek_check_frame(struct kt_reader *r);

/* reader_frame.c */

/*
 * kt_reader_load_frame() - decompress the next data frame at r->pos,
 * skipping skippable frames.
 * Return: 1 with a frame loaded, 0 at the end of the file (status set),
 * or a negative error (status set).
 */
int kt_reader_load_frame(struct kt_reader *r);

/*
 * kt_frame_extent() - the size of the frame at @off of the @len bytes at
 * @data, without decompressing.
 * Return: 0 with *@size and *@is_data set, or -KT_ETRUNC (more bytes are
 * needed) / -KT_ECORRUPT with @why set.
 */
int kt_frame_extent(const uint8_t *data, size_t len, size_t off, size_t *size,
		    bool *is_data, const char **why);

/* reader_ahead.c: decompressing frames ahead on a helper thread. */

/*
 * kt_ahead_maybe_start() - start read-ahead after the data frame at @off
 * of @size bytes, if enough of the file follows it to be worth a thread.
 */
void kt_ahead_maybe_start(struct kt_reader *r, size_t off, size_t size);

/*
 * kt_ahead_take() - the data frame at @off of @size bytes, if it was read
 * ahead: it becomes r->fbuf, *@result is what ZSTD_decompressDCtx()
 * returned for it. May wait for the helper, or decompress a later frame
 * meanwhile. Return: 1 when taken, 0 when the caller decompresses it.
 */
int kt_ahead_take(struct kt_reader *r, size_t off, size_t size,
		  size_t *result);

/* kt_ahead_reset() - forget frames read ahead; the walk resumes at @pos. */
void kt_ahead_reset(struct kt_reader *r, size_t pos);

/* kt_ahead_stop() - stop the helper and free what it holds. */
void kt_ahead_stop(struct kt_reader *r);

#endif /* KT_READER_INTERNAL_H */
