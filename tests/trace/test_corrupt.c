/* SPDX-License-Identifier: MIT */
/*
 * Hostile input: every byte of a small trace flipped, and hand-made files
 * with absurd lengths. The reader must never crash, never return a record
 * that differs from what was written, name the offset of corruption, and
 * never allocate for a length the file cannot hold (checked by wrapping
 * malloc for the statically linked library, see meson.build).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <cmocka.h>

#include "kt_test_util.h"

/* ---- allocation watch ------------------------------------------------ */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

static size_t max_alloc;

void *
__wrap_malloc(size_t n)
{
	if (n > max_alloc)
		max_alloc = n;
	return __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t m)
{
	if (m && n > SIZE_MAX / m)
		max_alloc = SIZE_MAX;
	else if (n * m > max_alloc)
		max_alloc = n * m;
	return __real_calloc(n, m);
}

void *
__wrap_realloc(void *p, size_t n)
{
	if (n > max_alloc)
		max_alloc = n;
	return __real_realloc(p, n);
}

/* ---- flipped bytes --------------------------------------------------- */

#define NREC	60
#define MAXFR	128

/*
 * Read @data to the end. Return: the number of records returned that match
 * what was written (the END record included), or -1 on a record that does
 * not match; *@st gets the final status.
 */
static int
read_all(const uint8_t *data, size_t len, const struct kt_test_rec *gens,
	 int *ret_out, struct kt_reader_status *st)
{
	struct kt_reader *r;
	struct kt_record rec;
	int ret, n = 0, bad = 0;

	ret = kt_reader_open_mem(data, len, &r);
	if (ret) {
		*ret_out = ret;
		return 0;
	}
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		if (n < NREC) {
			if (kt_test_rec_diff(&gens[n].rec, &rec, true))
				bad = 1;
		} else if (rec.type != KT_REC_END || n > NREC) {
			bad = 1;
		}
		n++;
	}
	kt_reader_get_status(r, st);
	kt_reader_close(r);
	*ret_out = ret;
	return bad ? -1 : n;
}

static void
test_flips(void **state)
{
	static const uint8_t patterns[] = { 0x01, 0x10, 0x80, 0xff };
	struct kt_writer_opts opts = { .frame_raw_size = 512, .index_every = 2 };
	const char *path = kt_test_path("flip.kfdt");
	struct kt_test_rec *gens = calloc(NREC, sizeof(*gens));
	struct kt_test_frame fr[MAXFR];
	long per_frame[MAXFR];
	struct kt_header hdr;
	struct kt_writer *w;
	uint8_t *data, *copy;
	size_t len;
	int nfr, benign = 0, trials = 0, corrupt = 0;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (uint64_t i = 0; i < NREC; i++) {
		kt_test_gen(&gens[i], 0, i);
		gens[i].rec.seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &gens[i].rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	data = kt_test_slurp(path, &len);
	copy = malloc(len);
	nfr = kt_test_walk(data, len, fr, MAXFR);
	assert_true(nfr > 8);
	kt_test_index_records(data, fr, nfr, per_frame);

	for (int f = 0; f < nfr; f++) {
		long before = 0;

		for (int k = 0; k < f; k++)
			if (fr[k].data)
				before += per_frame[k];
		for (size_t p = fr[f].off; p < fr[f].off + fr[f].size; p++) {
			for (size_t pi = 0; pi < sizeof(patterns); pi++) {
				struct kt_reader_status st;
				int ret, n;

				memcpy(copy, data, len);
				copy[p] ^= patterns[pi];
				trials++;
				n = read_all(copy, len, gens, &ret, &st);
				if (n < 0)
					fail_msg("flip %#x at %zu: a changed record "
						 "was returned", patterns[pi], p);
				if (f == 0) {
					/* The header: the open must fail. */
					if (ret >= 0)
						fail_msg("header flip at %zu accepted",
							 p);
					continue;
				}
				if (ret == 0 && n == NREC + 1) {
					benign++;	/* e.g. an unused bit */
					continue;
				}
				if (!fr[f].data) {
					/*
					 * Index or footer: reading stops there
					 * (a damaged footer may look cut off).
					 */
					assert_int_equal(n, before);
					assert_true(ret == -KT_ECORRUPT ||
						    ret == -KT_ETRUNC);
					if (ret == -KT_ECORRUPT)
						assert_int_equal(st.corrupt_offset,
								 fr[f].off);
					continue;
				}
				/* A data frame of a file with a footer. */
				if (ret != -KT_ECORRUPT)
					fail_msg("flip %#x at %zu (frame at %zu): %s",
						 patterns[pi], p, fr[f].off,
						 kt_strerror(ret));
				corrupt++;
				assert_int_equal(st.integrity, KT_INTEGRITY_CORRUPT);
				assert_true(st.corrupt_offset >= fr[f].off);
				assert_true(st.corrupt_offset <
					    fr[f].off + fr[f].size);
				assert_int_equal(n, before);
				assert_true(strlen(st.message) > 10);
			}
		}
	}
	print_message("%d flips: %d corrupt data frames, %d benign\n", trials,
		      corrupt, benign);
	/* Benign flips exist (unused header bits) but are rare. */
	assert_true(benign * 50 < trials);
	assert_true(corrupt > trials / 2);
	free(copy);
	free(data);
	free(gens);
	(void)state;
}

/* ---- hand-made files ------------------------------------------------- */

/* A record: type, length, then @body. */
static void
put_rec(struct kt_bb *out, uint8_t type, const struct kt_bb *body)
{
	kt_bb_u8(out, type);
	kt_bb_varint(out, body->len);
	kt_bb_bytes(out, body->p, body->len);
}

static void
base_hdr(struct kt_bb *b, uint64_t seq)
{
	kt_bb_u8(b, 1);			/* BASE */
	kt_bb_varint(b, seq);
	kt_bb_varint(b, 77);		/* tid */
	kt_bb_varint(b, 123456);	/* ts */
}

/* A valid ioctl body after its common header. */
static void
ioctl_body(struct kt_bb *b, uint64_t nbufs)
{
	kt_bb_varint(b, 20);		/* dexit */
	kt_bb_varint(b, 6);		/* fd 3 */
	kt_bb_u8(b, 1);			/* kfd */
	kt_bb_le32(b, 0xC0084B01);
	kt_bb_varint(b, 0);		/* ret */
	kt_bb_varint(b, 0);		/* err */
	kt_bb_varint(b, 8);		/* arg size */
	kt_bb_u8(b, 1);			/* before only */
	kt_bb_le64(b, 0x1122334455667788ull);
	kt_bb_varint(b, nbufs);
}

/* Open @t, read to the end. Return: the final result; fills *@st. */
static int
read_crafted(const struct kt_bb *t, int *nrec, struct kt_reader_status *st)
{
	struct kt_reader *r;
	struct kt_record rec;
	int ret;

	*nrec = 0;
	max_alloc = 0;
	ret = kt_reader_open_mem(t->p, t->len, &r);
	if (ret)
		return ret;
	while ((ret = kt_reader_next(r, &rec)) == 1)
		(*nrec)++;
	kt_reader_get_status(r, st);
	kt_reader_close(r);
	return ret;
}

/* One frame of @raw after a valid header; expect corruption inside it. */
static void
expect_record_corrupt(const struct kt_bb *raw, const char *what, int good)
{
	struct kt_reader_status st;
	struct kt_bb t = { 0 }, hdr = { 0 };
	int n, ret;

	kt_test_header_frame(&hdr);
	kt_test_trace_with(&t, raw->p, raw->len);
	ret = read_crafted(&t, &n, &st);
	if (ret != -KT_ECORRUPT)
		fail_msg("%s: %s", what, kt_strerror(ret));
	assert_int_equal(n, good);
	assert_int_equal(st.integrity, KT_INTEGRITY_CORRUPT);
	assert_int_equal(st.corrupt_offset, hdr.len);
	assert_true(st.corrupt_raw_offset < raw->len);
	if (!strstr(st.message, what))
		fail_msg("message \"%s\" lacks \"%s\"", st.message, what);
	/* No allocation beyond the frame buffer and fixed state. */
	assert_true(max_alloc < 256 * 1024);
	kt_bb_free(&t);
	kt_bb_free(&hdr);
}

static void
test_valid_crafted(void **state)
{
	struct kt_reader_status st;
	struct kt_bb raw = { 0 }, body = { 0 }, t = { 0 };
	struct kt_reader *r;
	struct kt_record rec;
	int n;

	/* A valid ioctl, an unknown type, a record with a future field. */
	base_hdr(&body, 5);
	ioctl_body(&body, 0);
	put_rec(&raw, 1, &body);
	kt_bb_free(&body);
	kt_bb_u8(&body, 0);		/* delta */
	kt_bb_varint(&body, 2);		/* dseq +1 */
	kt_bb_varint(&body, 10);	/* dts +5 */
	kt_bb_bytes(&body, "future", 6);
	put_rec(&raw, 200, &body);
	kt_bb_free(&body);
	kt_bb_u8(&body, 0);
	kt_bb_varint(&body, 2);
	kt_bb_varint(&body, 10);
	ioctl_body(&body, 0);
	kt_bb_bytes(&body, "more fields", 11);
	put_rec(&raw, 1, &body);
	kt_test_trace_with(&t, raw.p, raw.len);

	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.seq, 5);
	assert_int_equal(rec.tid, 77);
	assert_int_equal(rec.u.ioctl.request, 0xC0084B01);
	assert_int_equal(rec.u.ioctl.fd, 3);
	assert_int_equal(rec.u.ioctl.t_exit, 123456 + 10);
	assert_null(rec.u.ioctl.arg_after);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	/* The unknown record was skipped; its deltas still counted. */
	assert_int_equal(rec.seq, 7);
	assert_int_equal(rec.ts, 123456 + 10);
	assert_int_equal(kt_reader_next(r, &rec), 0);
	kt_reader_get_status(r, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_NO_END);
	kt_reader_close(r);
	n = 0;
	assert_int_equal(read_crafted(&t, &n, &st), 0);
	assert_int_equal(n, 2);
	kt_bb_free(&raw);
	kt_bb_free(&body);
	kt_bb_free(&t);
	(void)state;
}

static void
test_absurd_records(void **state)
{
	struct kt_bb raw = { 0 }, body = { 0 };

	/* Record length 2^31 in a tiny frame. */
	kt_bb_u8(&raw, 1);
	kt_bb_varint(&raw, 1ull << 31);
	kt_bb_bytes(&raw, "xxxxxxxxxxxxxxxx", 16);
	expect_record_corrupt(&raw, "length runs past", 0);
	kt_bb_free(&raw);

	/* 65535 buffers. */
	base_hdr(&body, 1);
	ioctl_body(&body, 65535);
	kt_bb_bytes(&body, "yyyyyyyy", 8);
	put_rec(&raw, 1, &body);
	expect_record_corrupt(&raw, "buffer count", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);

	/* 65536 topology files claimed in a few bytes. */
	base_hdr(&body, 1);
	kt_bb_varint(&body, 65536);
	kt_bb_bytes(&body, "zzzzzzzzzz", 10);
	put_rec(&raw, KT_REC_TOPOLOGY, &body);
	expect_record_corrupt(&raw, "topology file count", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);

	/* A buffer image of 2^32-1 bytes. */
	base_hdr(&body, 1);
	ioctl_body(&body, 1);
	kt_bb_varint(&body, 0);		/* index */
	kt_bb_varint(&body, KT_BUF_BEFORE);
	kt_bb_varint(&body, 0x1000);
	kt_bb_varint(&body, UINT32_MAX);
	kt_bb_varint(&body, 0);
	kt_bb_bytes(&body, "abcd", 4);
	put_rec(&raw, 1, &body);
	expect_record_corrupt(&raw, "buffer before-image", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);

	/* A string without its NUL, an 11-byte varint, a delta first. */
	base_hdr(&body, 1);
	kt_bb_varint(&body, 3);
	kt_bb_bytes(&body, "abcd", 4);
	put_rec(&raw, KT_REC_ANNOTATION, &body);
	expect_record_corrupt(&raw, "annotation text", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);
	base_hdr(&body, 1);
	for (int i = 0; i < 10; i++)
		kt_bb_u8(&body, 0x80);
	kt_bb_u8(&body, 0);
	put_rec(&raw, KT_REC_CLOSE, &body);
	expect_record_corrupt(&raw, "close fd", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);
	kt_bb_u8(&body, 0);
	kt_bb_varint(&body, 2);
	kt_bb_varint(&body, 2);
	put_rec(&raw, KT_REC_CLOSE, &body);
	expect_record_corrupt(&raw, "without a base", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);

	/* Required flag bits, type 0; a good record first this time. */
	base_hdr(&body, 1);
	ioctl_body(&body, 0);
	put_rec(&raw, 1, &body);
	kt_bb_free(&body);
	kt_bb_u8(&body, 0x80 | 1);
	kt_bb_varint(&body, 2);
	kt_bb_varint(&body, 3);
	kt_bb_varint(&body, 4);
	put_rec(&raw, 1, &body);
	expect_record_corrupt(&raw, "required flags", 1);
	kt_bb_free(&raw);
	kt_bb_free(&body);
	base_hdr(&body, 1);
	put_rec(&raw, 0, &body);
	expect_record_corrupt(&raw, "type 0", 0);
	kt_bb_free(&raw);
	kt_bb_free(&body);
	(void)state;
}

/* A zstd frame header claiming @content bytes, then one raw block. */
static void
frame_claiming(struct kt_bb *t, uint64_t content)
{
	kt_test_header_frame(t);
	kt_bb_le32(t, 0xFD2FB528u);
	kt_bb_u8(t, 0xE0);		/* 8-byte content size, single segment */
	kt_bb_le64(t, content);
	kt_bb_u8(t, 1 | 10 << 3);	/* last raw block of 10 bytes */
	kt_bb_u8(t, 0);
	kt_bb_u8(t, 0);
	kt_bb_bytes(t, "0123456789", 10);
}

static void
test_absurd_frames(void **state)
{
	struct kt_reader_status st;
	struct kt_bb t = { 0 }, pl = { 0 };
	int n;

	frame_claiming(&t, 1ull << 60);
	assert_int_equal(read_crafted(&t, &n, &st), -KT_ECORRUPT);
	assert_true(max_alloc < 256 * 1024);
	kt_bb_free(&t);

	frame_claiming(&t, 16u << 20);
	assert_int_equal(read_crafted(&t, &n, &st), -KT_ECORRUPT);
	assert_non_null(strstr(st.message, "beyond the format"));
	assert_true(max_alloc < 256 * 1024);
	kt_bb_free(&t);

	/* Claims 11 bytes, holds 10. */
	frame_claiming(&t, 11);
	assert_int_equal(read_crafted(&t, &n, &st), -KT_ECORRUPT);
	kt_bb_free(&t);

	/* An index frame with 2^31 entries (valid CRC). */
	kt_test_header_frame(&t);
	kt_bb_bytes(&pl, "KFDTINDX", 8);
	kt_bb_le32(&pl, 56);
	kt_bb_le32(&pl, 1u << 31);
	kt_bb_le64(&pl, 0);
	kt_bb_le32(&pl, kt_test_crc32(pl.p, pl.len));
	kt_bb_le32(&t, 0x184D2A5Bu);
	kt_bb_le32(&t, (uint32_t)pl.len);
	kt_bb_bytes(&t, pl.p, pl.len);
	assert_int_equal(read_crafted(&t, &n, &st), -KT_ECORRUPT);
	assert_non_null(strstr(st.message, "index"));
	kt_bb_free(&t);
	kt_bb_free(&pl);

	/* A skippable frame of 2^32-1 bytes in a small file: truncated. */
	kt_test_header_frame(&t);
	kt_bb_le32(&t, 0x184D2A50u);
	kt_bb_le32(&t, UINT32_MAX);
	kt_bb_bytes(&t, "abc", 3);
	assert_int_equal(read_crafted(&t, &n, &st), -KT_ETRUNC);
	assert_true(max_alloc < 256 * 1024);
	kt_bb_free(&t);

	/* Garbage after the header. */
	kt_test_header_frame(&t);
	kt_bb_bytes(&t, "garbage!", 8);
	assert_int_equal(read_crafted(&t, &n, &st), -KT_ECORRUPT);
	kt_bb_free(&t);
	(void)state;
}

/* A header frame with a chosen payload; the CRC made valid. */
static void
header_flags(struct kt_bb *t, uint32_t size_field, uint16_t producer_len,
	     uint16_t major, uint32_t flags)
{
	struct kt_bb pl = { 0 };

	kt_bb_bytes(&pl, "KFDTRACE", 8);
	kt_bb_u8(&pl, (uint8_t)major);
	kt_bb_u8(&pl, (uint8_t)(major >> 8));
	kt_bb_u8(&pl, 0);
	kt_bb_u8(&pl, 0);
	kt_bb_le32(&pl, flags);
	for (int i = 0; i < 10; i++)
		kt_bb_le32(&pl, 0);
	kt_bb_u8(&pl, (uint8_t)producer_len);
	kt_bb_u8(&pl, (uint8_t)(producer_len >> 8));
	kt_bb_bytes(&pl, "abc", 3);
	for (int i = 0; i < 5; i++) {
		kt_bb_u8(&pl, 0);
		kt_bb_u8(&pl, 0);
	}
	kt_bb_le32(&pl, kt_test_crc32(pl.p, pl.len));
	kt_bb_le32(t, 0x184D2A5Bu);
	kt_bb_le32(t, size_field ? size_field : (uint32_t)pl.len);
	kt_bb_bytes(t, pl.p, pl.len);
	kt_bb_free(&pl);
}

static void
header_with(struct kt_bb *t, uint32_t size_field, uint16_t producer_len,
	    uint16_t major)
{
	header_flags(t, size_field, producer_len, major, 0);
}

static void
test_absurd_headers(void **state)
{
	struct kt_reader *r = NULL;
	struct kt_bb t = { 0 };

	header_with(&t, 0, 3, 1);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), 0);
	assert_string_equal(kt_reader_header(r)->producer, "abc");
	kt_reader_close(r);
	kt_bb_free(&t);

	max_alloc = 0;
	header_with(&t, 0, 0xFFFF, 1);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), -KT_ECORRUPT);
	kt_bb_free(&t);
	header_with(&t, 1u << 31, 3, 1);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), -KT_ECORRUPT);
	kt_bb_free(&t);
	header_with(&t, 4000, 3, 1);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), -KT_ETRUNC);
	kt_bb_free(&t);
	header_with(&t, 0, 3, 2);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), -KT_EVERSION);
	kt_bb_free(&t);
	header_with(&t, 0, 3, 0);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), -KT_ECORRUPT);
	kt_bb_free(&t);
	/* A required flag this reader does not know; unknown optional ones pass. */
	header_flags(&t, 0, 3, 1, 1u << 16);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), -KT_EVERSION);
	kt_bb_free(&t);
	header_flags(&t, 0, 3, 1, 1u << 15);
	assert_int_equal(kt_reader_open_mem(t.p, t.len, &r), 0);
	assert_int_equal(kt_reader_header(r)->flags, 1u << 15);
	kt_reader_close(r);
	kt_bb_free(&t);
	assert_true(max_alloc < 256 * 1024);

	assert_int_equal(kt_reader_open_mem("", 0, &r), -KT_ETRUNC);
	assert_int_equal(kt_reader_open_mem("\x5b\x2a", 2, &r), -KT_ETRUNC);
	assert_int_equal(kt_reader_open_mem("\x28\xb5\x2f\xfd", 4, &r),
			 -KT_ENOTTRACE);
	assert_int_equal(kt_reader_open_mem("\x5b\x2a\x4d\x18\x10\0\0\0KFDX",
					    12, &r), -KT_ENOTTRACE);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_crafted),
		cmocka_unit_test(test_absurd_records),
		cmocka_unit_test(test_absurd_frames),
		cmocka_unit_test(test_absurd_headers),
		cmocka_unit_test(test_flips),
	};

	return cmocka_run_group_tests_name("trace_corrupt", tests, NULL, NULL);
}
