/* SPDX-License-Identifier: MIT */
/*
 * Structural mutations of a trace, for the trace_reader target: what byte
 * flips almost never make, because every frame carries a checksum. They
 * keep each frame intact and change the file around them: a frame
 * deleted, repeated, moved or copied from elsewhere (a splice), an index
 * entry's ranges changed with its CRC made right again (an index that
 * lies), a frame's content size or a record length raised (a size bomb),
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

/* Read a varint at @p (at most @n bytes): its width, or 0 when bad. */
static size_t
varint(const uint8_t *p, size_t n, uint64_t *v)
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

		w = varint(raw + off + 1, n - off - 1, &v);
		if (!w || v < 1 || v > n - off - 1 - w)
			break;
		at = off + 1 + w;		/* rflags */
		end = at + v;
		if (raw[at] & 1 && (w = varint(raw + at + 1, end - at - 1, &v)) &&
		    at + 1 + w < end) {
			uint8_t *p = raw + at + 1 + w;	/* the tid */
			size_t tw = varint(p, end - (size_t)(p - raw), &v);
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
	if (ZSTD_isError(cl) || size - f->size + cl > max)
		return size;
	memmove(data + f->off + cl, data + f->off + f->size,
		size - f->off - f->size);
	memcpy(data + f->off, out, cl);
	return size - f->size + cl;
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
	switch (next(&s) % 7) {
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
	case 5:		/* a thread of its own for each base record */
		if (!fr[i].data)
			return size;
		return spread_tids(data, size, max, &fr[i], &s);
	default: {	/* cut the file after a frame boundary */
		return fr[i].off + (next(&s) & 1 ? 0 : fr[i].size);
	}
	}
}
