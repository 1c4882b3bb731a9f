/* SPDX-License-Identifier: MIT */
/*
 * The record codec's internal helpers used on the crash path: walking
 * common headers (kt_rec_skim) and giving a delta record a base header
 * (kt_rec_rebase), checked by decoding the result; the decoder's varint
 * paths for every length, padded or not, near the end of a record or not;
 * the CRC-32 table; END's left_out count (format 1.5), and an END of
 * format 1.4, which ends before it.
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

/*
 * Build a munmap record by hand: every varint field @w bytes long (padded
 * when @v needs fewer), @tail bytes of later fields after it (ignored by
 * this reader), so that the fields lie near the end of the record or not.
 */
static size_t
mk_munmap(uint8_t *out, uint64_t v, unsigned int w, size_t tail)
{
	uint8_t body[128], *q = body;
	size_t n;

	*q++ = KT_RF_BASE;
	q = kt_put_varint_width(q, v, w);		/* seq */
	q = kt_put_varint_width(q, 7, w);		/* tid */
	q = kt_put_varint_width(q, v, w);		/* ts */
	q = kt_put_varint_width(q, v, w);		/* addr */
	q = kt_put_varint_width(q, v, w);		/* len */
	q = kt_put_varint_width(q, kt_zigzag(-1), w);	/* ret */
	q = kt_put_varint_width(q, kt_zigzag(22), w);	/* err */
	memset(q, 0, tail);
	q += tail;
	n = (size_t)(q - body);
	out[0] = KT_REC_MUNMAP;
	out[1] = (uint8_t)n;
	memcpy(out + 2, body, n);
	return n + 2;
}

static void
test_dec_varint_lengths(void **state)
{
	for (unsigned int w = 1; w <= KT_VARINT_MAX; w++) {
		/* The largest value of w bytes (minimal), and a padded 5. */
		uint64_t big = w == KT_VARINT_MAX ? UINT64_MAX :
			       (1ull << (7 * w)) - 1;
		uint64_t vals[2] = { big, 5 };

		for (int k = 0; k < 2; k++) {
			for (size_t tail = 0; tail <= 16; tail += 16) {
				struct kt_dec dec = { .delta = { .valid = false } };
				static uint8_t buf[256];
				struct kt_record rec;
				const char *why = NULL;
				bool known;
				size_t n;
				long got;

				n = mk_munmap(buf, vals[k], w, tail);
				got = kt_rec_decode(buf, n, &dec, &rec, &known,
						    &why);
				assert_int_equal(got, (long)n);
				assert_true(known);
				assert_int_equal(rec.seq, vals[k]);
				assert_int_equal(rec.tid, 7);
				assert_int_equal(rec.ts, vals[k]);
				assert_int_equal(rec.u.munmap.addr, vals[k]);
				assert_int_equal(rec.u.munmap.len, vals[k]);
				assert_int_equal(rec.u.munmap.ret, -1);
				assert_int_equal(rec.u.munmap.err, 22);
				/* One byte short: a field runs past the record. */
				if (!tail) {
					buf[1]--;
					got = kt_rec_decode(buf, n - 1, &dec,
							    &rec, &known, &why);
					assert_int_equal(got, -KT_ECORRUPT);
				}
			}
		}
	}
	/* Eleven bytes, and ten that overflow 64 bits: corrupt. */
	for (int k = 0; k < 2; k++) {
		struct kt_dec dec = { .delta = { .valid = false } };
		uint8_t buf[64] = { KT_REC_MUNMAP, 40, KT_RF_BASE, 1, 1, 1 };
		struct kt_record rec;
		const char *why = NULL;
		bool known;

		memset(buf + 6, 0x80, 10);
		buf[15] = k ? 0x02 : 0x80;	/* 10th byte of addr */
		buf[16] = 0x00;			/* an 11th for k == 0 */
		assert_int_equal(kt_rec_decode(buf, 42, &dec, &rec, &known,
					       &why), -KT_ECORRUPT);
		assert_non_null(why);
	}
	(void)state;
}

/* Encode @end, decode it back (@cut bytes off its end). */
static void
end_roundtrip(const struct kt_record *end, size_t cut, struct kt_record *out)
{
	struct kt_delta enc = { .valid = false };
	struct kt_dec dec = { .delta = { .valid = false } };
	static uint8_t buf[256];
	const char *why = NULL;
	size_t bound, n;
	bool known;

	assert_int_equal(kt_rec_bound(end, &bound), 0);
	assert_true(bound <= sizeof(buf));
	n = kt_rec_encode(buf, end, &enc, bound);
	/* One length byte: the body is short. */
	assert_true(buf[1] < 0x80 && buf[1] > cut);
	buf[1] = (uint8_t)(buf[1] - cut);
	assert_int_equal(kt_rec_decode(buf, n - cut, &dec, out, &known, &why),
			 (long)(n - cut));
	assert_true(known);
	assert_int_equal(out->type, KT_REC_END);
}

static void
test_end_left_out(void **state)
{
	struct kt_record end, out;

	memset(&end, 0, sizeof(end));
	end.type = KT_REC_END;
	end.seq = 40;
	end.tid = 3;
	end.ts = 1000;
	end.u.end.records = 40;
	end.u.end.lost = 2;
	end.u.end.flags = KT_END_INCOMPLETE;
	end.u.end.left_out = 300;
	end_roundtrip(&end, 0, &out);
	assert_int_equal(out.u.end.records, 40);
	assert_int_equal(out.u.end.lost, 2);
	assert_int_equal(out.u.end.left_out, 300);

	/* Format 1.4 has no left_out (0 is one byte): it reads as 0. */
	end.u.end.left_out = 0;
	end_roundtrip(&end, 1, &out);
	assert_int_equal(out.u.end.records, 40);
	assert_int_equal(out.u.end.lost, 2);
	assert_int_equal(out.u.end.flags, KT_END_INCOMPLETE);
	assert_int_equal(out.u.end.left_out, 0);
	(void)state;
}

static void
test_crc_table(void **state)
{
	static uint8_t buf[4096];
	uint64_t x = 88172645463325252ull;

	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	for (size_t n = 0; n <= sizeof(buf); n += 97)
		assert_int_equal(kt_crc32(buf, n), kt_test_crc32(buf, n));
	assert_int_equal(kt_crc32("", 0), 0);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skim_and_rebase),
		cmocka_unit_test(test_varints),
		cmocka_unit_test(test_dec_varint_lengths),
		cmocka_unit_test(test_end_left_out),
		cmocka_unit_test(test_crc_table),
	};

	return cmocka_run_group_tests_name("trace_codec", tests, NULL, NULL);
}
