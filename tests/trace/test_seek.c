/* SPDX-License-Identifier: MIT */
/*
 * Index frames and seeking: by seq and by time, with the footer's index
 * chain, without it (a cut file), with an unindexed emergency frame in the
 * middle; and the END record.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define NTH	3
#define PER	400
#define TOTAL	(NTH * PER)

struct seen {
	uint64_t seq;
	uint64_t ts;
	uint32_t tid;
};

struct worker {
	struct kt_writer *w;
	unsigned int t;
};

static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct kt_test_rec g;

	for (uint64_t i = 0; i < PER; i++) {
		kt_test_gen(&g, wk->t, i);
		g.rec.seq = kt_writer_next_seq(wk->w);
		kt_writer_append(wk->w, &g.rec);
		if (i % 50 == 0)
			sched_yield();
	}
	return NULL;
}

/* Every record of the file in file order. Return: how many. */
static int
read_order(const uint8_t *data, size_t len, struct seen *out, int max)
{
	struct kt_reader *r;
	struct kt_record rec;
	int n = 0, ret;

	assert_int_equal(kt_reader_open_mem(data, len, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		assert_true(n < max);
		out[n++] = (struct seen){ rec.seq, rec.ts, rec.tid };
	}
	kt_reader_close(r);
	return n;
}

/*
 * Seek to every @key value in a range and check: the first record is the
 * first in file order with key >= value, and every later record in file
 * order follows.
 */
static void
check_seeks(const uint8_t *data, size_t len, const struct seen *order, int n,
	    bool by_time)
{
	struct kt_reader *r;
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int i = 0; i < n; i++) {
		uint64_t k = by_time ? order[i].ts : order[i].seq;

		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	assert_int_equal(kt_reader_open_mem(data, len, &r), 0);
	for (uint64_t v = lo; v <= hi + 1; v += (hi - lo) / 97 + 1) {
		struct kt_record rec;
		int first = -1, k, ret;

		for (int i = 0; i < n; i++) {
			if ((by_time ? order[i].ts : order[i].seq) >= v) {
				first = i;
				break;
			}
		}
		assert_int_equal(by_time ? kt_reader_seek_time(r, v) :
			kt_reader_seek_seq(r, v), 0);
		k = first;
		while ((ret = kt_reader_next(r, &rec)) == 1) {
			assert_true(k >= 0 && k < n);
			assert_int_equal(rec.seq, order[k].seq);
			assert_int_equal(rec.tid, order[k].tid);
			k++;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(k, first < 0 ? -1 : n);
	}
	kt_reader_close(r);
}

static uint8_t *
make_trace(size_t *len, bool emergency_in_middle)
{
	struct kt_writer_opts opts = { .frame_raw_size = 2048, .index_every = 3 };
	const char *path = kt_test_path("seek.kfdt");
	struct worker wk[NTH];
	pthread_t th[NTH];
	struct kt_header hdr;
	struct kt_writer *w;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (unsigned int t = 0; t < NTH; t++) {
		wk[t] = (struct worker){ .w = w, .t = t };
		pthread_create(&th[t], NULL, worker_main, &wk[t]);
		if (emergency_in_middle && t == 1)
			assert_int_equal(kt_writer_emergency_flush(w), 0);
	}
	for (unsigned int t = 0; t < NTH; t++)
		pthread_join(th[t], NULL);
	assert_int_equal(kt_writer_close(w), 0);
	return kt_test_slurp(path, len);
}

static void
test_seek_indexed(void **state)
{
	struct seen *order = calloc(TOTAL + 1, sizeof(*order));
	struct kt_test_frame fr[512];
	size_t len, cut = 0;
	uint8_t *data;
	int n, nfr, nidx = 0;

	data = make_trace(&len, false);
	n = read_order(data, len, order, TOTAL + 1);
	assert_int_equal(n, TOTAL + 1);
	nfr = kt_test_walk(data, len, fr, 512);
	assert_true(nfr > 10);
	for (int i = 0; i < nfr; i++) {
		if (!fr[i].data && !memcmp(data + fr[i].off + 8, "KFDTINDX", 8))
			nidx++;
		if (fr[i].data)
			cut = fr[i].off + fr[i].size;
	}
	assert_true(nidx >= 3);
	assert_memory_equal(data + len - 20, "KFDTFOOT", 8);
	check_seeks(data, len, order, n, false);
	check_seeks(data, len, order, n, true);

	/* Without the final index and footer: walk the frames instead. */
	check_seeks(data, cut, order, n, false);
	check_seeks(data, cut, order, n, true);
	free(order);
	free(data);
	(void)state;
}

static void
test_seek_with_emergency_frame(void **state)
{
	struct seen *order = calloc(TOTAL + 1, sizeof(*order));
	size_t len;
	uint8_t *data;
	int n;

	data = make_trace(&len, true);
	n = read_order(data, len, order, TOTAL + 1);
	assert_int_equal(n, TOTAL + 1);
	check_seeks(data, len, order, n, false);
	free(order);
	free(data);
	(void)state;
}

static void
test_seek_edges(void **state)
{
	struct kt_reader_status st;
	struct kt_reader *r;
	struct kt_record rec;
	uint64_t first_seq, first_tid;
	uint8_t *data;
	size_t len;

	data = make_trace(&len, false);
	assert_int_equal(kt_reader_open_mem(data, len, &r), 0);
	/* Past everything: no records, but the END was seen. */
	assert_int_equal(kt_reader_seek_seq(r, UINT64_MAX), 0);
	assert_int_equal(kt_reader_next(r, &rec), 0);
	kt_reader_get_status(r, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_OK);
	/* The END record has the last seq. */
	assert_int_equal(kt_reader_seek_seq(r, TOTAL), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.type, KT_REC_END);
	assert_int_equal(rec.seq, TOTAL);
	assert_int_equal(rec.u.end.records, TOTAL);
	assert_int_equal(rec.u.end.lost, 0);
	assert_int_equal(rec.u.end.flags, KT_END_CLEAN);
	kt_reader_close(r);

	/*
	 * A seek clears a truncation error and reads again from the first
	 * record in file order (threads' frames interleave, so that need not
	 * be seq 0).
	 */
	assert_int_equal(kt_reader_open_mem(data, len - 200, &r), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	first_seq = rec.seq;
	first_tid = rec.tid;
	while (kt_reader_next(r, &rec) == 1)
		;
	assert_int_equal(kt_reader_next(r, &rec), -KT_ETRUNC);
	assert_int_equal(kt_reader_seek_seq(r, 0), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.seq, first_seq);
	assert_int_equal(rec.tid, first_tid);
	kt_reader_close(r);
	free(data);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seek_indexed),
		cmocka_unit_test(test_seek_with_emergency_frame),
		cmocka_unit_test(test_seek_edges),
	};

	return cmocka_run_group_tests_name("trace_seek", tests, NULL, NULL);
}
