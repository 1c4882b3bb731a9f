/* SPDX-License-Identifier: MIT */
/*
 * Reading structured values out of a fuzz input, for the targets that
 * build records or files from the bytes instead of parsing them whole.
 *
 * Values are taken from the front in order; once the input is used up
 * every value reads as zero, so any input decodes to something. Byte
 * ranges are handed out as heap copies of exactly the requested length,
 * so that a read past their end lands in AddressSanitizer's redzone the
 * way a read past a reader's buffer would. Copies live until fz_free().
 */
#ifndef KT_FUZZ_INPUT_H
#define KT_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define FZ_MAX_ALLOCS	256

struct fz {
	const uint8_t *p;
	size_t left;
	void *allocs[FZ_MAX_ALLOCS];
	unsigned int nallocs;
};

/* fz_init() - start reading @size bytes at @data. */
void fz_init(struct fz *f, const uint8_t *data, size_t size);

/* fz_free() - free every copy handed out. */
void fz_free(struct fz *f);

/* fz_left() - bytes not read yet. */
static inline size_t
fz_left(const struct fz *f)
{
	return f->left;
}

/* Little-endian integers (zero once the input is used up). */
uint8_t fz_u8(struct fz *f);
uint16_t fz_u16(struct fz *f);
uint32_t fz_u32(struct fz *f);
uint64_t fz_u64(struct fz *f);

/*
 * fz_bytes() - a copy of the next @n bytes, exactly @n long: what the
 * input lacks is zero-filled. NULL when @n is 0 or memory is short.
 */
uint8_t *fz_bytes(struct fz *f, size_t n);

/*
 * fz_str() - a NUL-terminated copy of the bytes up to the next NUL (which
 * is consumed), at most @max of them. Never NULL unless memory is short.
 */
char *fz_str(struct fz *f, size_t max);

/* fz_keep() - have fz_free() free @p too (returns @p). */
void *fz_keep(struct fz *f, void *p);

#endif /* KT_FUZZ_INPUT_H */
