/* SPDX-License-Identifier: MIT */
/*
 * Structural mutations of a trace, for the trace_reader target: what byte
 * flips almost never make, because every frame carries a checksum. They
 * keep each frame intact and change the file around them: a frame
 * deleted, repeated, moved or copied from elsewhere (a splice), an index
 * entry's ranges changed with its CRC made right again (an index that
 * lies), a frame's content size or a record length raised (a size bomb),
 * a frame's records moved to a time at the clock's limits (recompressed),
 * or a data frame's base records each given a thread of its own (many
 * distinct tids, recompressed under a valid content checksum).
 */
#include <stdint.h>
#include <string.h>
#include <zstd.h>

#include "trace_mutate.h"

#define KT_MUT_MAX_FRAMES	256

struct kt_mframe {
	size_t off, size;
	int data;
};

static uint32_t
le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The frames of @data; stops at the first that makes no sense. */
static int
walk(const uint8_t *data, size_t size, struct kt_mframe *fr)
{
	size_t off = 0;
	int n = 0;

	while (off + 8 <= size && n < KT_MUT_MAX_FRAMES) {
		uint32_t magic = le32(data + off);
		size_t len;

		if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
			len = 8 + (size_t)le32(data + off + 4);
			fr[n].data = 0;
		} else if (magic == 0xFD2FB528u) {
			len = ZSTD_findFrameCompressedSize(data + off, size - off);
			if (ZSTD_isError(len))
				break;
			fr[n].data = 1;
		} else {
			break;
		}
		if (len > size - off)
			break;
		fr[n].off = off;
		fr[n].size = len;
		off += len;
		n++;
	}
	return n;
}

/* A small CRC-32 (IEEE, reflected), as the format's. */
static uint32_t
crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

static uint32_t
next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Insert @len bytes of @src at @at if they fit in @max; the new size. */
static size_t
insert_copy(uint8_t *data, size_t size, size_t max, size_t at,
	    const uint8_t *src, size_t len)
{
	if (size + len > max)
		return size;
	memmove(data + at + len, data + at, size - at);
	memcpy(data + at, src, len);
	return size + len;
}

/* An unsigned LEB128 varint at @p (@n bytes); its length, 0 if none. */
static size_t
get_varint(const uint8_t *p, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n && i < 10; i++) {
		*v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80))
			return i + 1;
	}
	return 0;
}

static size_t
put_varint(uint8_t *p, uint64_t v)
{
	size_t i = 0;

	while (v >= 0x80) {
		p[i++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[i++] = (uint8_t)v;
	return i;
}

/* Frame @f's bytes replaced by the @n at @z, if the file stays in @max. */
static size_t
replace_frame(uint8_t *data, size_t size, size_t max, const struct kt_mframe *f,
	      const uint8_t *z, size_t n)
{
	if (size - f->size + n > max)
		return size;
	memmove(data + f->off + n, data + f->off + f->size,
		size - f->off - f->size);
	memcpy(data + f->off, z, n);
	return size - f->size + n;
}

/*
 * The times at the limits of a trace's clock (docs/trace-format.md
 * section 5.1): 0, 2^63 - 1, 2^63, 2^64 - 1 and the header's start +-1.
 */
static uint64_t
limit_time(const uint8_t *data, uint32_t pick)
{
	uint64_t start = 0;

	for (int k = 7; k >= 0; k--)
		start = start << 8 | data[40 + k];	/* start_monotonic */
	switch (pick % 6) {
	case 0: return 0;
	case 1: return INT64_MAX;
	case 2: return 1ull << 63;
	case 3: return UINT64_MAX;
	case 4: return start - 1;
	default: return start + 1;
	}
}

/*
 * The base time of data frame @f's first record set to a clock limit: the
 * frame is decompressed, its first record's header re-encoded and the
 * frame compressed again (with its content size, as the format wants).
 * The other records follow by their deltas.
 */
static size_t
retime(uint8_t *data, size_t size, size_t max, const struct kt_mframe *f,
       uint32_t pick)
{
	static uint8_t raw[1 << 18], out[(1 << 18) + 32], z[1 << 19];
	size_t n = ZSTD_decompress(raw, sizeof(raw), data + f->off, f->size);
	size_t hl, p, l, o = 0, zn, tl;
	uint64_t len, v;
	uint8_t tv[10];

	if (ZSTD_isError(n) || n < 3)
		return size;
	/* type, len, rflags with BASE, seq, tid, then the time. */
	l = get_varint(raw + 1, n - 1, &len);
	hl = 1 + l;
	if (!l || hl >= n || !(raw[hl] & 1) || len > n - hl)
		return size;
	p = hl + 1;
	for (int k = 0; k < 3; k++) {
		l = get_varint(raw + p, n - p, &v);
		if (!l)
			return size;
		if (k < 2)
			p += l;
	}
	/* The record again with the new time; the rest as it was. */
	tl = put_varint(tv, limit_time(data, pick));
	out[o++] = raw[0];
	o += put_varint(out + o, len - l + tl);
	memcpy(out + o, raw + hl, p - hl);
	o += p - hl;
	memcpy(out + o, tv, tl);
	o += tl;
	if (o + (n - p - l) > sizeof(out))
		return size;
	memcpy(out + o, raw + p + l, n - p - l);
	o += n - p - l;
	zn = ZSTD_compress(z, sizeof(z), out, o, 1);
	if (ZSTD_isError(zn))
		return size;
	return replace_frame(data, size, max, f, z, zn);
}

/*
 * Give each base record of data frame @f a tid of its own, written in
 * the width the old one had (varints may be non-minimal), and recompress
 * the frame with its content checksum. Return: the new file size.
 */
static size_t
spread_tids(uint8_t *data, size_t size, size_t max, const struct kt_mframe *f,
	    uint32_t *s)
{
	static uint8_t raw[1 << 20], out[(1 << 20) + 4096];
	size_t n = ZSTD_decompress(raw, sizeof(raw), data + f->off, f->size);
	size_t off = 0, w, cl;
	uint32_t tid = next(s), step = next(s) | 1;
	ZSTD_CCtx *c;
	uint64_t v;

	if (ZSTD_isError(n))
		return size;
	while (off + 2 < n) {
		size_t end, at;

		w = get_varint(raw + off + 1, n - off - 1, &v);
		if (!w || v < 1 || v > n - off - 1 - w)
			break;
		at = off + 1 + w;		/* rflags */
		end = at + v;
		if (raw[at] & 1 && (w = get_varint(raw + at + 1, end - at - 1, &v)) &&
		    at + 1 + w < end) {
			uint8_t *p = raw + at + 1 + w;	/* the tid */
			size_t tw = get_varint(p, end - (size_t)(p - raw), &v);
			uint64_t t = tw * 7 >= 32 ? tid : tid & ((1u << (tw * 7)) - 1);

			for (size_t b = 0; b < tw; b++)
				p[b] = (uint8_t)((t >> (7 * b) & 0x7f) |
						 (b + 1 < tw ? 0x80 : 0));
			tid += step;
		}
		off = end;
	}
	c = ZSTD_createCCtx();
	if (!c)
		return size;
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	cl = ZSTD_compress2(c, out, sizeof(out), raw, n);
	ZSTD_freeCCtx(c);
	if (ZSTD_isError(cl))
		return size;
	return replace_frame(data, size, max, f, out, cl);
}


size_t
kt_fuzz_trace_mutate(uint8_t *data, size_t size, size_t max, uint32_t seed)
{
	struct kt_mframe fr[KT_MUT_MAX_FRAMES];
	static uint8_t tmp[1 << 20];
	int n = walk(data, size, fr), i, j;
	uint32_t s = seed | 1;

	if (n < 2)
		return size;
	/* Frame 0 is the header: mutate the frames after it. */
	i = 1 + (int)(next(&s) % (uint32_t)(n - 1));
	j = 1 + (int)(next(&s) % (uint32_t)(n - 1));
	switch (next(&s) % 8) {
	case 0:	/* delete */
		memmove(data + fr[i].off, data + fr[i].off + fr[i].size,
			size - fr[i].off - fr[i].size);
		return size - fr[i].size;
	case 1:	/* repeat right after itself, or elsewhere (a splice) */
		if (fr[i].size > sizeof(tmp))
			return size;
		memcpy(tmp, data + fr[i].off, fr[i].size);
		return insert_copy(data, size, max,
				   next(&s) & 1 ? fr[i].off + fr[i].size :
				   fr[j].off, tmp, fr[i].size);
	case 2:	/* swap two frames */
		if (i > j) {
			int t = i;

			i = j;
			j = t;
		}
		if (i == j || fr[j].off + fr[j].size - fr[i].off > sizeof(tmp))
			return size;
		{
			size_t a = fr[i].off, la = fr[i].size, lb = fr[j].size;
			size_t mid = fr[j].off - (a + la);

			memcpy(tmp, data + fr[j].off, lb);
			memcpy(tmp + lb, data + a + la, mid);
			memcpy(tmp + lb + mid, data + a, la);
			memcpy(data + a, tmp, lb + mid + la);
		}
		return size;
	case 3: {	/* an index that lies, with a valid CRC */
		uint8_t *pl = data + fr[i].off + 8;
		size_t psize = fr[i].size - 8;
		uint32_t esize, count;

		if (fr[i].data || psize < 28 || memcmp(pl, "KFDTINDX", 8))
			return size;
		esize = le32(pl + 8);
		count = le32(pl + 12);
		if (!count || esize < 56 || 24 + (size_t)esize * count + 4 > psize)
			return size;
		{
			uint8_t *e = pl + 24 + (size_t)(next(&s) % count) * esize;
			unsigned int field = 8 + 4 * (next(&s) % 11);

			put_le32(e + field, le32(e + field) ^ (next(&s) | 1));
		}
		put_le32(pl + psize - 4, crc32(pl, psize - 4));
		return size;
	}
	case 4: {	/* a data frame claiming a huge content size */
		uint8_t *p = data + fr[i].off;

		if (!fr[i].data || fr[i].size < 9 || p[4] != 0xA0)
			return size;
		put_le32(p + 5, 0xFFFFFF00u | next(&s));
		return size;
	}
	case 5:	/* a time at the clock's limits */
		if (!fr[i].data || size < 48)
			return size;
		return retime(data, size, max, &fr[i], next(&s));
	case 6:		/* a thread of its own for each base record */
		if (!fr[i].data)
			return size;
		return spread_tids(data, size, max, &fr[i], &s);
	default: {	/* cut the file after a frame boundary */
		return fr[i].off + (next(&s) & 1 ? 0 : fr[i].size);
	}
	}
}
