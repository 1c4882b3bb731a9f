/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the trace writer and reader: on-disk constants, the
 * little-endian and varint primitives, the header, index and record codecs.
 * docs/trace-format.md is the specification these implement.
 */
#ifndef KT_TRACE_INTERNAL_H
#define KT_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kfdtrace/trace.h"

#define KT_LIKELY(x)	__builtin_expect(!!(x), 1)
#define KT_UNLIKELY(x)	__builtin_expect(!!(x), 0)

/* Frames (section 2). */
#define KT_ZSTD_MAGIC		0xFD2FB528u
#define KT_SKIP_MAGIC		0x184D2A5Bu	/* our skippable frames */
#define KT_SKIP_MAGIC_MASK	0xFFFFFFF0u
#define KT_SKIP_MAGIC_BASE	0x184D2A50u
#define KT_TAG_LEN		8
#define KT_TAG_HEADER		"KFDTRACE"
#define KT_TAG_INDEX		"KFDTINDX"
#define KT_TAG_FOOTER		"KFDTFOOT"
#define KT_SKIP_MIN_PAYLOAD	(KT_TAG_LEN + 4)	/* tag + CRC */

#define KT_HDR_FIXED_SIZE	56	/* tag through start_boottime */
#define KT_HDR_REQUIRED_MASK	0xFFFF0000u	/* no required bits in 1.0 */

#define KT_INDEX_HDR_SIZE	24	/* tag, entry_size, count, prev */
#define KT_INDEX_ENTRY_SIZE	56
#define KT_FOOTER_PAYLOAD	20
#define KT_FOOTER_SIZE		(8 + KT_FOOTER_PAYLOAD)

/* Frame content bound from compressed size: a 4-byte RLE block gives 128 KiB. */
#define KT_MAX_EXPANSION	32768u
#define KT_ZSTD_BLOCK_MAX	(128u << 10)

/* Record framing (section 5.1). */
#define KT_RF_BASE		0x01u
#define KT_RF_REQUIRED		0xF0u
#define KT_AF_BEFORE		0x01u
#define KT_AF_AFTER		0x02u
#define KT_AF_XOR		0x04u
#define KT_AF_REQUIRED		0xF8u
#define KT_IDX_F_END		0x01u

/* ------------------------------------------------------------------ */
/* Little-endian fixed-width fields                                     */

static inline void
kt_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void
kt_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void
kt_put_le64(uint8_t *p, uint64_t v)
{
	kt_put_le32(p, (uint32_t)v);
	kt_put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t
kt_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
kt_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t
kt_get_le64(const uint8_t *p)
{
	return (uint64_t)kt_get_le32(p) | (uint64_t)kt_get_le32(p + 4) << 32;
}

/* ------------------------------------------------------------------ */
/* Varints (LEB128) and zigzag                                          */

#define KT_VARINT_MAX	10

static inline uint8_t *
kt_put_varint(uint8_t *p, uint64_t v)
{
	/* Most fields of a record take one or two bytes: no loop for them. */
	if (KT_LIKELY(v < 0x80)) {
		*p = (uint8_t)v;
		return p + 1;
	}
	if (v < 0x4000) {
		p[0] = (uint8_t)v | 0x80;
		p[1] = (uint8_t)(v >> 7);
		return p + 2;
	}
	while (v >= 0x80) {
		*p++ = (uint8_t)v | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline uint64_t
kt_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t
kt_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint8_t *
kt_put_svarint(uint8_t *p, int64_t v)
{
	return kt_put_varint(p, kt_zigzag(v));
}

static inline unsigned int
kt_varint_len(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * Write @v in exactly @width bytes (a non-minimal LEB128 when @v is small):
 * the record length is reserved before the body is encoded. @v must fit.
 */
static inline uint8_t *
kt_put_varint_width(uint8_t *p, uint64_t v, unsigned int width)
{
	for (unsigned int i = 0; i + 1 < width; i++) {
		*p++ = (uint8_t)(v & 0x7f) | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/*
 * kt_get_varint() - decode a varint at *@pp, not reading at or past @end.
 * Return: true and advance *@pp, or false for a varint that runs past @end
 * or is longer than 10 bytes or overflows 64 bits.
 */
static inline __attribute__((always_inline)) bool
kt_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0, stop;

	if (KT_LIKELY(p < end && *p < 0x80)) {
		*v = *p;
		*pp = p + 1;
		return true;
	}
	/*
	 * Time deltas take two or three bytes: unrolled, with one bounds
	 * check, when the buffer has room for any varint.
	 */
	if (KT_LIKELY(end - p >= KT_VARINT_MAX)) {
		r = (uint64_t)(p[0] & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7;
		if (p[1] < 0x80) {
			*v = r;
			*pp = p + 2;
			return true;
		}
		r |= (uint64_t)(p[2] & 0x7f) << 14;
		if (p[2] < 0x80) {
			*v = r;
			*pp = p + 3;
			return true;
		}
		/*
		 * Four to eight bytes (buffer addresses take seven): one
		 * 8-byte load, the first byte with bit 7 clear found with
		 * ctz, the 7-bit groups gathered by three shift-and-mask
		 * steps, where the loop below takes a compare and a branch
		 * per byte. Nine or ten bytes go to the loop.
		 */
		r = kt_get_le64(p);
		stop = ~r & 0x8080808080808080ull;
		if (KT_LIKELY(stop)) {
			/* Keep the bytes up to the last, without bit 7. */
			r &= (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7full;
			r = (r & 0x007f007f007f007full) |
			    ((r & 0x7f007f007f007f00ull) >> 1);
			r = (r & 0x00003fff00003fffull) |
			    ((r & 0x3fff00003fff0000ull) >> 2);
			r = (r & 0x000000000fffffffull) |
			    ((r & 0x0fffffff00000000ull) >> 4);
			*v = r;
			*pp = p + __builtin_ctzll(stop) / 8 + 1;
			return true;
		}
		r = 0;
	}
	for (unsigned int shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (p >= end)
			return false;
		b = *p++;
		if (shift == 63 && b > 1)
			return false;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			*pp = p;
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* CRC-32 of kfdtrace skippable frames (crc32.c)                        */

uint32_t kt_crc32(const void *data, size_t len);

/* ------------------------------------------------------------------ */
/* Header frame (header.c)                                              */

/*
 * kt_header_encode() - serialize @hdr as a complete header frame.
 * Return: the frame size; 0 if @cap is too small (never with
 * KT_HDR_FRAME_MAX bytes).
 */
#define KT_HDR_FRAME_MAX	(8 + KT_HDR_FIXED_SIZE + 6 * 2 + 32 + 32 + \
				 64 + 64 + 256 + 1024 + 2 + 1024 + 8 + 4)
size_t kt_header_encode(const struct kt_header *hdr, uint8_t *out, size_t cap);

/*
 * kt_header_decode() - parse the header frame at the start of a file image.
 * @data_start:	set to the offset of the first frame after the header
 * Return: 0 or -KT_ETRUNC, -KT_ENOTTRACE, -KT_ECORRUPT, -KT_EVERSION, with
 * @why set to a static description for errors.
 */
int kt_header_decode(const uint8_t *data, size_t size, struct kt_header *hdr,
		     size_t *data_start, const char **why);

/* ------------------------------------------------------------------ */
/* Index frames (index.c)                                               */

struct kt_index_entry {
	uint64_t frame_offset;
	uint32_t frame_size;
	uint32_t raw_size;
	uint64_t min_seq;
	uint64_t max_seq;
	uint64_t min_ts;
	uint64_t max_ts;
	uint32_t records;
	uint32_t flags;		/* KT_IDX_F_* */
};

/* Bytes of an index frame holding @count entries. */
static inline size_t
kt_index_frame_size(size_t count)
{
	return 8 + KT_INDEX_HDR_SIZE + count * KT_INDEX_ENTRY_SIZE + 4;
}

void kt_index_encode(uint8_t *out, const struct kt_index_entry *ent,
		     size_t count, uint64_t prev_index);
void kt_footer_encode(uint8_t *out, uint64_t last_index);

/*
 * kt_skip_check() - validate the CRC and minimum size of one of our
 * skippable frames whose payload is @payload[0, @size).
 */
bool kt_skip_check(const uint8_t *payload, size_t size);

/*
 * kt_index_parse() - check the layout of an index payload (CRC already
 * checked) and return its entry count, entry size and previous index.
 * Return: false when the layout is inconsistent.
 */
bool kt_index_parse(const uint8_t *payload, size_t size, uint32_t *count,
		    uint32_t *entry_size, uint64_t *prev_index);
void kt_index_entry_get(const uint8_t *payload, uint32_t entry_size,
			uint32_t i, struct kt_index_entry *e);

/* ------------------------------------------------------------------ */
/* Records (record_enc.c, record_dec.c)                                 */

/* The delta base: the last record before the cursor in a frame or buffer. */
struct kt_delta {
	uint64_t seq;
	uint64_t ts;
	uint32_t tid;
	bool valid;
};

/* Make the record numbered @seq, stamped @ts, of thread @tid the base. */
static inline void
kt_delta_set(struct kt_delta *d, uint64_t seq, uint64_t ts, uint32_t tid)
{
	d->seq = seq;
	d->ts = ts;
	d->tid = tid;
	d->valid = true;
}

/*
 * kt_rec_bound() - validate @rec and give an upper bound of its encoding.
 * Return: 0, -EINVAL for a malformed record (bad type, NULL data with a
 * length), -KT_ETOOBIG beyond a bound of section 5.2.
 */
int kt_rec_bound(const struct kt_record *rec, size_t *bound);

/* type, len (< 2^28), rflags, seq, tid, ts */
#define KT_COMMON_BOUND		(1 + 4 + 1 + 3 * KT_VARINT_MAX)
/* an ioctl's fields but its images and buffers */
#define KT_IOCTL_FIXED_BOUND	(5 + 1 + 4 + KT_VARINT_MAX + 5 + KT_VARINT_MAX + \
				 3 + 1 + 2)

/* kt_rec_bound() for the common record, an ioctl without buffers, inline. */
static inline int
kt_rec_bound_fast(const struct kt_record *rec, size_t *bound)
{
	if (KT_LIKELY(rec->type == KT_REC_IOCTL && !rec->u.ioctl.nbufs &&
		      rec->u.ioctl.arg_size <= KT_MAX_ARG_SIZE)) {
		*bound = KT_COMMON_BOUND + KT_IOCTL_FIXED_BOUND +
			 2 * (size_t)rec->u.ioctl.arg_size;
		return 0;
	}
	return kt_rec_bound(rec, bound);
}

/*
 * kt_rec_encode() - encode @rec (validated by kt_rec_bound()) at @dst, which
 * has room for @bound bytes, and advance @d. Return: bytes written.
 */
size_t kt_rec_encode(uint8_t *dst, const struct kt_record *rec,
		     struct kt_delta *d, size_t bound);

/*
 * kt_rec_skim() - read only the type, length and common header of the
 * record at @p (bytes this process's writer produced, in [@p, @end)),
 * advancing @d. Async-signal-safe.
 * @hdr_len:	bytes from @p to the end of the common header, or NULL
 * Return: the record's total size, 0 if it does not parse.
 */
size_t kt_rec_skim(const uint8_t *p, const uint8_t *end, struct kt_delta *d,
		   size_t *hdr_len);

/*
 * kt_rec_rebase() - give the record at @p, whose delta base is @d, a base
 * common header: the new start of the record goes to @out (at most
 * KT_REBASE_MAX bytes), the rest of it is @p + *@consumed onwards.
 * Async-signal-safe.
 * Return: bytes in @out; 0 (and *@consumed 0) when the record already is a
 * base record and can be used as it is.
 */
#define KT_REBASE_MAX	(1 + 5 + 1 + 3 * KT_VARINT_MAX)
size_t kt_rec_rebase(const uint8_t *p, const uint8_t *end,
		     const struct kt_delta *d, uint8_t *out, size_t *consumed);

/* Decoder state and scratch, owned by a reader. */
struct kt_dec {
	struct kt_delta delta;
	bool bad_field;			/* the last error names a field */
	struct kt_buf_image bufs[KT_MAX_BUFS];
	struct kt_xfer_fd xfer_fds[KT_MAX_XFER_FDS];
	struct kt_topo_file *files;
	size_t files_cap;
};

/*
 * kt_rec_decode() - decode the record at @p, of the @avail bytes left in a
 * decompressed frame, in place. Pointers in @rec point into @p (which the
 * XOR after-images are restored in) or into @dec's scratch.
 * @known:	false for a record type this reader skips (rec->type is set)
 * Return: the record's size, or -KT_ECORRUPT with @why set, or -ENOMEM.
 */
long kt_rec_decode(uint8_t *p, size_t avail, struct kt_dec *dec,
		   struct kt_record *rec, bool *known, const char **why);

#endif /* KT_TRACE_INTERNAL_H */
