/* SPDX-License-Identifier: MIT */
/*
 * Walking and decompressing frames. Every size read from the file is
 * checked against what the file can hold before anything is allocated for
 * it; where the file simply stops, the result is "truncated", anywhere else
 * it is "corrupt" (docs/trace-format.md section 7).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "reader_internal.h"

/* Could @n (< 4) bytes at @p be the start of a frame's magic number? */
static bool
kt_magic_prefix(const uint8_t *p, size_t n)
{
	static const uint8_t zstd[4] = { 0x28, 0xB5, 0x2F, 0xFD };
	static const uint8_t skip[4] = { 0x50, 0x2A, 0x4D, 0x18 };

	if (!memcmp(p, zstd, n))
		return true;
	if (n && (p[0] & 0xF0) != 0x50)
		return false;
	return n < 2 || !memcmp(p + 1, skip + 1, n - 1);
}

int
kt_frame_extent(const uint8_t *data, size_t len, size_t off, size_t *size,
		bool *is_data, const char **why)
{
	const uint8_t *p = data + off;
	size_t rem = len - off, cs;
	uint32_t magic;

	if (rem < 4) {
		if (kt_magic_prefix(p, rem)) {
			*why = "the file ends inside a frame's magic number";
			return -KT_ETRUNC;
		}
		*why = "trailing bytes that are not a frame";
		return -KT_ECORRUPT;
	}
	magic = kt_get_le32(p);
	if ((magic & KT_SKIP_MAGIC_MASK) == KT_SKIP_MAGIC_BASE) {
		uint32_t psize;

		if (rem < 8) {
			*why = "the file ends inside a skippable frame's header";
			return -KT_ETRUNC;
		}
		psize = kt_get_le32(p + 4);
		if (psize > rem - 8) {
			*why = "the file ends inside a skippable frame";
			return -KT_ETRUNC;
		}
		*size = 8 + (size_t)psize;
		*is_data = false;
		return 0;
	}
	if (magic != KT_ZSTD_MAGIC) {
		*why = "not a zstd or skippable frame";
		return -KT_ECORRUPT;
	}
	cs = ZSTD_findFrameCompressedSize(p, rem);
	if (ZSTD_isError(cs)) {
		*why = ZSTD_getErrorName(cs);
		if (ZSTD_getErrorCode(cs) == ZSTD_error_srcSize_wrong) {
			*why = "the file ends inside a zstd frame";
			return -KT_ETRUNC;
		}
		return -KT_ECORRUPT;
	}
	*size = cs;
	*is_data = true;
	return 0;
}

/* Our skippable frames are checked even when skipped: bad bytes are bad. */
static int
kt_reader_skippable(struct kt_reader *r, size_t off, size_t size)
{
	const uint8_t *payload = r->data + off + 8;
	size_t psize = size - 8;
	uint32_t count, esize;
	uint64_t prev;

	if (kt_get_le32(r->data + off) != KT_SKIP_MAGIC)
		return 0;
	if (!kt_skip_check(payload, psize))
		return KT_CORRUPT(r, off, KT_NO_RAW,
				  "kfdtrace frame at offset %zu: bad CRC or size",
				  off);
	if (!memcmp(payload, KT_TAG_HEADER, KT_TAG_LEN))
		return KT_CORRUPT(r, off, KT_NO_RAW,
				  "second header frame at offset %zu", off);
	if (!memcmp(payload, KT_TAG_INDEX, KT_TAG_LEN) &&
	    !kt_index_parse(payload, psize, &count, &esize, &prev))
		return KT_CORRUPT(r, off, KT_NO_RAW,
				  "index frame at offset %zu: bad layout", off);
	if (!memcmp(payload, KT_TAG_FOOTER, KT_TAG_LEN) &&
	    psize != KT_FOOTER_PAYLOAD)
		return KT_CORRUPT(r, off, KT_NO_RAW,
				  "footer frame at offset %zu: bad size", off);
	return 0;
}

/* Decompress the data frame at @off into r->fbuf, without read-ahead. */
static int
kt_reader_decompress(struct kt_reader *r, size_t off, size_t size,
		     size_t content, size_t *result)
{
	if (content + 1 > r->fcap) {
		/* Drop the old buffer first: no peak of both. */
		free(r->fbuf);
		r->fcap = 0;
		r->fbuf = malloc(content + 1);
		if (!r->fbuf)
			return kt_reader_fail(r, -ENOMEM, __LINE__, off,
					      KT_NO_RAW,
					      "out of memory for a %zu-byte frame",
					      content);
		r->fcap = content + 1;
	}
	*result = ZSTD_decompressDCtx(r->dctx, r->fbuf, content, r->data + off,
				      size);
	return 0;
}

static int
kt_reader_extent_fail(struct kt_reader *r, int err, size_t off,
		      const char *why)
{
	if (err == -KT_ETRUNC && !r->complete)
		return kt_reader_fail(r, -KT_ETRUNC, __LINE__, off, KT_NO_RAW,
				      "%s at offset %zu; %llu records recovered",
				      why, off,
				      (unsigned long long)r->st.records);
	if (err == -KT_ETRUNC)
		return KT_CORRUPT(r, off, KT_NO_RAW,
				  "frame at offset %zu runs past the end of a "
				  "file with a footer (%s)", off, why);
	return KT_CORRUPT(r, off, KT_NO_RAW, "frame at offset %zu: %s", off,
			  why);
}

int
kt_reader_load_frame(struct kt_reader *r)
{
	if (r->cur_ent)
		kt_seek_check_frame(r);
	for (;;) {
		size_t off = r->pos, size, d;
		unsigned long long content;
		const char *why;
		bool is_data;
		int err;

		if (off >= r->size) {
			r->st.integrity = r->seen_end ? KT_INTEGRITY_OK :
							KT_INTEGRITY_NO_END;
			snprintf(r->st.message, sizeof(r->st.message), "%s",
				 r->seen_end ? "complete trace" :
				 "all frames complete, no END record");
			kt_check_finish(r);
			if (r->index_lied) {
				r->st.integrity = KT_INTEGRITY_DAMAGED;
				snprintf(r->st.message, sizeof(r->st.message),
					 "%s", r->index_msg);
			}
			r->flen = r->rpos = 0;
			return 0;
		}
		err = kt_frame_extent(r->data, r->size, off, &size, &is_data,
				      &why);
		if (err)
			return kt_reader_extent_fail(r, err, off, why);
		if (!is_data) {
			err = kt_reader_skippable(r, off, size);
			if (err)
				return err;
			r->pos = off + size;
			continue;
		}
		content = ZSTD_getFrameContentSize(r->data + off, size);
		if (content == ZSTD_CONTENTSIZE_UNKNOWN)
			return KT_CORRUPT(r, off, KT_NO_RAW,
					  "frame at offset %zu has no content size",
					  off);
		if (content == ZSTD_CONTENTSIZE_ERROR)
			return KT_CORRUPT(r, off, KT_NO_RAW,
					  "frame at offset %zu: bad frame header",
					  off);
		if (content > KT_MAX_FRAME_SIZE ||
		    content > (unsigned long long)size * KT_MAX_EXPANSION)
			return KT_CORRUPT(r, off, KT_NO_RAW,
					  "frame at offset %zu claims %llu bytes, "
					  "beyond the format's bounds", off,
					  content);
		r->flen = r->rpos = 0;
		if (!kt_ahead_take(r, off, size, &d)) {
			kt_ahead_maybe_start(r, off, size);
			err = kt_reader_decompress(r, off, size, (size_t)content,
						   &d);
			if (err)
				return err;
		}
		if (ZSTD_isError(d))
			return KT_CORRUPT(r, off, KT_NO_RAW,
					  "frame at offset %zu: %s", off,
					  ZSTD_getErrorName(d));
		if (d != content)
			return KT_CORRUPT(r, off, KT_NO_RAW,
					  "frame at offset %zu: %zu bytes, "
					  "header said %llu", off, d, content);
		r->frame_off = off;
		r->pos = off + size;
		r->flen = d;
		r->cur_ent = kt_seek_entry(r, off);
		r->cur_any = false;
		r->dec.delta.valid = false;
		r->st.frames++;
		if (d)
			return 1;
	}
}
