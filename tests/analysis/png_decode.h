/* SPDX-License-Identifier: MIT */
/*
 * A minimal PNG decoder for checking browser screenshots: 8-bit RGB or
 * RGBA, not interlaced (what Chromium writes). Returns RGBA pixels.
 */
#ifndef KFDTRACE_PNG_DECODE_H
#define KFDTRACE_PNG_DECODE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct png_image {
	uint32_t w, h;
	uint8_t *rgba;		/* w * h * 4 bytes */
};

static inline uint32_t
png_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline int
png_paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	if (pa <= pb && pa <= pc)
		return a;
	return pb <= pc ? b : c;
}

/* png_decode() - decode @len bytes. Return: 0, or -1 for anything else. */
static inline int
png_decode(const uint8_t *d, size_t len, struct png_image *img)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
					'\n' };
	uint8_t *idat = NULL, *raw = NULL, *prev, *cur;
	size_t nidat = 0, pos = 8, stride = 0;
	uLongf rawlen;
	unsigned int bpp = 0, x, y;

	memset(img, 0, sizeof(*img));
	if (len < 8 || memcmp(d, sig, 8))
		return -1;
	while (pos + 12 <= len) {
		uint32_t n = png_be32(d + pos);
		const uint8_t *type = d + pos + 4, *body = d + pos + 8;

		if (n > len - pos - 12)
			goto bad;
		if (!memcmp(type, "IHDR", 4) && n >= 13) {
			img->w = png_be32(body);
			img->h = png_be32(body + 4);
			if (body[8] != 8 || body[12] != 0 ||
			    (body[9] != 2 && body[9] != 6))
				goto bad;
			bpp = body[9] == 6 ? 4 : 3;
			if (!img->w || !img->h || img->w > 16384 ||
			    img->h > 16384)
				goto bad;
		} else if (!memcmp(type, "IDAT", 4)) {
			uint8_t *p = realloc(idat, nidat + n + 1);

			if (!p)
				goto bad;
			idat = p;
			memcpy(idat + nidat, body, n);
			nidat += n;
		}
		pos += 12 + n;
	}
	if (!bpp || !idat)
		goto bad;
	stride = (size_t)img->w * bpp;
	rawlen = (uLongf)((stride + 1) * img->h);
	raw = malloc(rawlen);
	img->rgba = malloc((size_t)img->w * img->h * 4);
	if (!raw || !img->rgba ||
	    uncompress(raw, &rawlen, idat, (uLong)nidat) != Z_OK ||
	    rawlen != (stride + 1) * img->h)
		goto bad;
	prev = NULL;
	for (y = 0; y < img->h; y++) {
		uint8_t f = raw[y * (stride + 1)];

		cur = raw + y * (stride + 1) + 1;
		for (x = 0; x < stride; x++) {
			int a = x >= bpp ? cur[x - bpp] : 0;
			int b = prev ? prev[x] : 0;
			int c = prev && x >= bpp ? prev[x - bpp] : 0;

			switch (f) {
			case 0: break;
			case 1: cur[x] = (uint8_t)(cur[x] + a); break;
			case 2: cur[x] = (uint8_t)(cur[x] + b); break;
			case 3: cur[x] = (uint8_t)(cur[x] + (a + b) / 2); break;
			case 4: cur[x] = (uint8_t)(cur[x] + png_paeth(a, b, c));
				break;
			default: goto bad;
			}
		}
		for (x = 0; x < img->w; x++) {
			uint8_t *o = img->rgba + ((size_t)y * img->w + x) * 4;

			memcpy(o, cur + x * bpp, 3);
			o[3] = bpp == 4 ? cur[x * bpp + 3] : 255;
		}
		prev = cur;
	}
	free(idat);
	free(raw);
	return 0;
bad:
	free(idat);
	free(raw);
	free(img->rgba);
	img->rgba = NULL;
	return -1;
}

#endif /* KFDTRACE_PNG_DECODE_H */
