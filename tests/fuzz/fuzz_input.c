/* SPDX-License-Identifier: MIT */
/* Structured values from a fuzz input (fuzz_input.h). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

void
fz_init(struct fz *f, const uint8_t *data, size_t size)
{
	f->p = data;
	f->left = data ? size : 0;
	f->nallocs = 0;
}

void
fz_free(struct fz *f)
{
	for (unsigned int i = 0; i < f->nallocs; i++)
		free(f->allocs[i]);
	f->nallocs = 0;
}

void *
fz_keep(struct fz *f, void *p)
{
	if (!p)
		return NULL;
	if (f->nallocs == FZ_MAX_ALLOCS) {
		/* Out of slots: the caller gets nothing rather than a leak. */
		free(p);
		return NULL;
	}
	f->allocs[f->nallocs++] = p;
	return p;
}

static uint64_t
take(struct fz *f, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n && f->left; i++) {
		v |= (uint64_t)*f->p++ << (8 * i);
		f->left--;
	}
	return v;
}

uint8_t
fz_u8(struct fz *f)
{
	return (uint8_t)take(f, 1);
}

uint16_t
fz_u16(struct fz *f)
{
	return (uint16_t)take(f, 2);
}

uint32_t
fz_u32(struct fz *f)
{
	return (uint32_t)take(f, 4);
}

uint64_t
fz_u64(struct fz *f)
{
	return take(f, 8);
}

uint8_t *
fz_bytes(struct fz *f, size_t n)
{
	size_t have = n < f->left ? n : f->left;
	uint8_t *b;

	if (!n)
		return NULL;
	b = fz_keep(f, malloc(n));
	if (!b)
		return NULL;
	memcpy(b, f->p, have);
	memset(b + have, 0, n - have);
	f->p += have;
	f->left -= have;
	return b;
}

char *
fz_str(struct fz *f, size_t max)
{
	size_t n = 0;
	char *s;

	while (n < max && n < f->left && f->p[n])
		n++;
	s = fz_keep(f, malloc(n + 1));
	if (!s)
		return NULL;
	memcpy(s, f->p, n);
	s[n] = '\0';
	/* Consume the terminator too when there is one. */
	if (n < f->left && !f->p[n])
		n++;
	f->p += n;
	f->left -= n;
	return s;
}
