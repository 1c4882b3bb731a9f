/* SPDX-License-Identifier: MIT */
/*
 * Truncation at every byte boundary of a small multi-frame trace. Each
 * prefix reads exactly the records of the data frames it holds completely
 * (counted from the index frames, parsed here from the spec's layout) and
 * then reports TRUNCATED when it ends inside a frame, NO_END or OK when it
 * ends between frames. Never CORRUPT, never a crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define NREC	100
#define MAXFR	256

static uint8_t *trace;
static size_t trace_len;
static struct kt_test_rec *gens;	/* what was written, in order */

static int
setup(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 600, .index_every = 3 };
	const char *path = kt_test_path("trunc.kfdt");
	struct kt_header hdr;
	struct kt_writer *w;

	gens = calloc(NREC, sizeof(*gens));
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (uint64_t i = 0; i < NREC; i++) {
		kt_test_gen(&gens[i], 0, i);
		gens[i].rec.seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &gens[i].rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	trace = kt_test_slurp(path, &trace_len);
	(void)state;
	return 0;
}

static int
teardown(void **state)
{
	free(trace);
	free(gens);
	(void)state;
	return 0;
}

static void
test_every_prefix(void **state)
{
	struct kt_test_frame fr[MAXFR];
	long per_frame[MAXFR];
	size_t header_end;
	int nfr, ndata = 0;

	nfr = kt_test_walk(trace, trace_len, fr, MAXFR);
	assert_true(nfr > 0);
	kt_test_index_records(trace, fr, nfr, per_frame);
	for (int i = 0; i < nfr; i++) {
		if (!fr[i].data)
			continue;
		ndata++;
		/* Every data frame is indexed (clean close). */
		assert_true(per_frame[i] > 0);
	}
	assert_true(ndata >= 5);
	assert_false(fr[0].data);
	header_end = fr[0].size;

	for (size_t len = 0; len <= trace_len; len++) {
		struct kt_reader_status st;
		struct kt_reader *r;
		struct kt_record rec;
		long expect = 0;
		bool boundary = false, end_in = false;
		int ret, n = 0;

		for (int i = 0; i < nfr; i++) {
			if (fr[i].off + fr[i].size > len)
				break;
			if (fr[i].off + fr[i].size == len)
				boundary = true;
			if (fr[i].data) {
				expect += per_frame[i];
				if (expect == NREC + 1)
					end_in = true;
			}
		}
		ret = kt_reader_open_mem(trace, len, &r);
		if (len < header_end) {
			assert_int_equal(ret, -KT_ETRUNC);
			continue;
		}
		assert_int_equal(ret, 0);
		while ((ret = kt_reader_next(r, &rec)) == 1) {
			const char *d;

			assert_true(n <= NREC);
			if (n == NREC) {
				assert_int_equal(rec.type, KT_REC_END);
				assert_int_equal(rec.u.end.records, NREC);
			} else {
				d = kt_test_rec_diff(&gens[n].rec, &rec, true);
				if (d)
					fail_msg("prefix %zu record %d: %s",
						 len, n, d);
			}
			n++;
		}
		kt_reader_get_status(r, &st);
		if (n != expect)
			fail_msg("prefix %zu: %d records, expected %ld", len, n,
				 expect);
		assert_int_equal(st.records, n);
		if (boundary) {
			assert_int_equal(ret, 0);
			assert_int_equal(st.integrity, end_in ? KT_INTEGRITY_OK :
					 KT_INTEGRITY_NO_END);
		} else {
			if (ret != -KT_ETRUNC)
				fail_msg("prefix %zu: %s (%s)", len,
					 kt_strerror(ret), st.message);
			assert_int_equal(st.integrity, KT_INTEGRITY_TRUNCATED);
			/* The error is sticky. */
			assert_int_equal(kt_reader_next(r, &rec), -KT_ETRUNC);
		}
		kt_reader_close(r);
	}
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_prefix),
	};

	return cmocka_run_group_tests_name("trace_truncate", tests, setup,
					   teardown);
}
