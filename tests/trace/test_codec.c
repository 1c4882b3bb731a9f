/* SPDX-License-Identifier: MIT */
/*
 * The record codec's internal helpers used on the crash path: walking
 * common headers (kt_rec_skim) and giving a delta record a base header
 * (kt_rec_rebase), checked by decoding the result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace_internal.h"
#include "kt_test_util.h"

static void
test_skim_and_rebase(void **state)
{
	struct kt_delta enc = { .valid = false }, walk = { .valid = false };
	static uint8_t buf[1 << 16], out[1 << 16];
	struct kt_test_rec g[8];
	size_t off[9] = { 0 }, bound, hl, consumed;
	struct kt_dec dec = { .delta = { .valid = false } };
	struct kt_record rec;
	bool known;
	const char *why;
	long n;

	for (int i = 0; i < 8; i++) {
		kt_test_gen(&g[i], 2, (uint64_t)i);
		g[i].rec.seq = 1000 + (uint64_t)i * 3;
		assert_int_equal(kt_rec_bound(&g[i].rec, &bound), 0);
		off[i + 1] = off[i] + kt_rec_encode(buf + off[i], &g[i].rec,
						    &enc, bound);
	}
	for (int i = 0; i < 8; i++) {
		size_t hdr;

		assert_int_equal(kt_rec_skim(buf + off[i], buf + off[8],
					     &walk, &hdr),
				 off[i + 1] - off[i]);
		assert_int_equal(walk.seq, g[i].rec.seq);
		assert_int_equal(walk.ts, g[i].rec.ts);
		assert_int_equal(walk.tid, g[i].rec.tid);
		assert_true(hdr > 3 && hdr < off[i + 1] - off[i]);
	}

	/* Rebase record 5 on the state after record 4, then decode alone. */
	walk.valid = false;
	for (int i = 0; i < 5; i++)
		kt_rec_skim(buf + off[i], buf + off[8], &walk, NULL);
	hl = kt_rec_rebase(buf + off[5], buf + off[8], &walk, out, &consumed);
	assert_true(hl > 0 && hl <= KT_REBASE_MAX);
	/* It was a delta record: the base header is longer. */
	assert_true(hl > consumed);
	memcpy(out + hl, buf + off[5] + consumed, off[8] - off[5] - consumed);
	n = kt_rec_decode(out, hl + off[8] - off[5] - consumed, &dec, &rec,
			  &known, &why);
	assert_true(n > 0);
	assert_true(known);
	assert_null(kt_test_rec_diff(&g[5].rec, &rec, true));
	/* The following records still decode against it. */
	for (int i = 6; i < 8; i++) {
		size_t at = (size_t)n;

		n = kt_rec_decode(out + at, hl + off[8] - off[5] - consumed - at,
				  &dec, &rec, &known, &why);
		assert_true(n > 0);
		assert_null(kt_test_rec_diff(&g[i].rec, &rec, true));
		n += (long)at;
	}
	/* A base record needs no rebasing. */
	assert_int_equal(kt_rec_rebase(buf, buf + off[8], &walk, out,
				       &consumed), 0);
	assert_int_equal(consumed, 0);
	free(dec.files);
	(void)state;
}

static void
test_varints(void **state)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 16383, 16384,
					 (1ull << 35) + 5, UINT64_MAX };
	uint8_t b[16];

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		const uint8_t *q = b;
		uint8_t *e = kt_put_varint(b, vals[i]);
		uint64_t v;

		assert_int_equal((size_t)(e - b), kt_varint_len(vals[i]));
		assert_true(kt_get_varint(&q, e, &v));
		assert_int_equal(v, vals[i]);
		assert_ptr_equal(q, e);
		/* Cut short: refused. */
		q = b;
		assert_false(kt_get_varint(&q, e - 1, &v));
		assert_int_equal(kt_unzigzag(kt_zigzag((int64_t)vals[i])),
				 (int64_t)vals[i]);
	}
	/* Padded (non-minimal) lengths decode. */
	{
		const uint8_t *q = b;
		uint8_t *e = kt_put_varint_width(b, 5, 3);
		uint64_t v;

		assert_int_equal(e - b, 3);
		assert_true(kt_get_varint(&q, e, &v));
		assert_int_equal(v, 5);
	}
	assert_int_equal(kt_crc32("123456789", 9), 0xCBF43926u);
	assert_int_equal(kt_crc32("123456789", 9), kt_test_crc32("123456789", 9));
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skim_and_rebase),
		cmocka_unit_test(test_varints),
	};

	return cmocka_run_group_tests_name("trace_codec", tests, NULL, NULL);
}
