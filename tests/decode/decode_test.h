/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the decoder's golden tests: records built from the ABI
 * structs, images that end at a guard page (so any read past a stated
 * length faults instead of passing silently), and decoding to strings.
 */
#ifndef KFDTRACE_DECODE_TEST_H
#define KFDTRACE_DECODE_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "tc_rec.h"

/* The trace's start; records sit 1.234567 s later. */
#define T0 1000000000ULL
#define TS (T0 + 1234567000ULL)
#define PFX "[4242] +1.234567 "

/* Mappings made by tail_copy(), released by tail_reset(). */
struct tail_map {
	void *base;
	size_t span;
};

static struct tail_map *tail_maps;
static size_t tail_nmaps, tail_capmaps;

/* tail_reset() - unmap every tail_copy() made so far. */
static inline void
tail_reset(void)
{
	while (tail_nmaps) {
		tail_nmaps--;
		munmap(tail_maps[tail_nmaps].base, tail_maps[tail_nmaps].span);
	}
}

/*
 * tail_copy() - a copy of @n bytes that ends exactly at an unmapped page,
 * so that reading one byte too far faults.
 */
static inline void *
tail_copy(const void *src, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t span = ((n + (size_t)page - 1) / (size_t)page + 1) * (size_t)page;
	uint8_t *base = mmap(NULL, span, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *p;

	assert_true(base != MAP_FAILED);
	if (tail_nmaps == tail_capmaps) {
		tail_capmaps = tail_capmaps ? tail_capmaps * 2 : 64;
		tail_maps = realloc(tail_maps, tail_capmaps * sizeof(*tail_maps));
		assert_non_null(tail_maps);
	}
	tail_maps[tail_nmaps].base = base;
	tail_maps[tail_nmaps++].span = span;
	assert_int_equal(mprotect(base + span - (size_t)page, (size_t)page,
				  PROT_NONE), 0);
	p = base + span - (size_t)page - n;
	if (n)
		memcpy(p, src, n);
	return p;
}

/* An ioctl record on /dev/kfd with guarded copies of the images. */
static inline struct kt_record
mk_ioctl(uint32_t request, const void *before, const void *after,
	 size_t size, int64_t ret, int32_t err)
{
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD, request,
					  before ? tail_copy(before, size) : NULL,
					  after ? tail_copy(after, size) : NULL,
					  (uint32_t)size, ret, err);

	r.seq = 7;
	r.tid = 4242;
	r.ts = TS;
	r.u.ioctl.t_exit = TS + 15000;
	return r;
}

/* The same on a render node (fd 5). */
static inline struct kt_record
mk_render(uint32_t request, const void *before, const void *after,
	  size_t size, int64_t ret, int32_t err)
{
	struct kt_record r = mk_ioctl(request, before, after, size, ret, err);

	r.u.ioctl.fd = 5;
	r.u.ioctl.file_kind = KFD_FILE_RENDER;
	return r;
}

/* A buffer image with guarded copies. */
static inline struct kt_buf_image
mk_buf(uint16_t index, uint64_t addr, const void *before, size_t lb,
       const void *after, size_t la)
{
	struct kt_buf_image b;

	memset(&b, 0, sizeof(b));
	b.index = index;
	b.addr = addr;
	if (before) {
		b.flags |= KT_BUF_BEFORE;
		b.before = tail_copy(before, lb);
		b.len_before = (uint32_t)lb;
	}
	if (after) {
		b.flags |= KT_BUF_AFTER;
		b.after = tail_copy(after, la);
		b.len_after = (uint32_t)la;
	}
	return b;
}

static inline const char *
decode_text_opts(const struct kt_record *r, const struct kfd_decode_opts *o)
{
	static struct kt_strbuf sb;

	kt_strbuf_clear(&sb);
	assert_int_equal(kfd_decode_text(&sb, r, o), 0);
	assert_non_null(sb.data);
	return sb.data;
}

static inline const char *
decode_text(const struct kt_record *r)
{
	struct kfd_decode_opts o = { .start_ns = T0 };

	return decode_text_opts(r, &o);
}

static inline const char *
decode_json(const struct kt_record *r)
{
	static struct kt_strbuf sb;
	struct kfd_decode_opts o = { .start_ns = T0 };

	kt_strbuf_clear(&sb);
	assert_int_equal(kfd_decode_json(&sb, r, &o), 0);
	assert_non_null(sb.data);
	return sb.data;
}

/*
 * Which schema rows got a golden line, for golden_cover.c: each golden
 * program, run with KT_GOLDEN_ROWS=FILE, appends at exit the names of the
 * rows whose decoding it compared with an exact line (assert_text(), or
 * golden_covered() after another exact comparison).
 */
#define GOLDEN_MAX_ROWS 256
static unsigned char golden_rows_seen[GOLDEN_MAX_ROWS];

static inline void
golden_rows_write(void)
{
	const char *path = getenv("KT_GOLDEN_ROWS");
	const struct kfd_ioctl_desc *rows;
	unsigned int n, i;
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	rows = kfd_schema_rows(&n);
	for (i = 0; i < n && i < GOLDEN_MAX_ROWS; i++)
		if (golden_rows_seen[i])
			fprintf(f, "%s %s\n", kfd_file_kind_name(rows[i].file_kind),
				rows[i].name);
	fclose(f);
}

/* golden_covered() - note that @r's row has had its golden line checked. */
static inline void
golden_covered(const struct kt_record *r)
{
	static int registered;
	const struct kfd_ioctl_desc *d, *rows;
	unsigned int n;

	if (r->type != KT_REC_IOCTL)
		return;
	d = kt_ioctl_row(&r->u.ioctl);
	if (!d)
		return;
	rows = kfd_schema_rows(&n);
	assert_true((unsigned int)(d - rows) < GOLDEN_MAX_ROWS);
	golden_rows_seen[d - rows] = 1;
	if (!registered) {
		registered = 1;
		atexit(golden_rows_write);
	}
}

/* Compare a record's text line with PFX followed by @expected. */
#define assert_text(rec, expected) do {					\
		assert_string_equal(decode_text(rec), PFX expected);	\
		golden_covered(rec);					\
	} while (0)

#endif /* KFDTRACE_DECODE_TEST_H */
