/* SPDX-License-Identifier: MIT */
/*
 * Read-ahead (formats/trace/reader_ahead.c): with the helper thread the
 * reader must return exactly what it returns without it -- every record,
 * and the same error, offsets and message where a file is damaged or cut
 * short -- also across seeks, and after fork() in the child. White-box in
 * one respect: it checks that the helper really ran (reader_internal.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "kt_test_util.h"
#include "reader_internal.h"

#define NREC	40000

static uint8_t *image;
static size_t image_len;

/* A trace of NREC generated records in small frames: many frames to read ahead. */
static int
setup(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 4096 };
	const char *path = kt_test_path("ahead.kfdt");
	struct kt_test_rec *g = calloc(1, sizeof(*g));
	struct kt_header hdr;
	struct kt_writer *w;

	kt_test_header_init(&hdr, "test");
	if (!g || kt_writer_open(path, &hdr, &opts, &w))
		return -1;
	for (uint64_t i = 0; i < NREC; i++) {
		kt_test_gen(g, 0, i);
		g->rec.seq = kt_writer_next_seq(w);
		if (kt_writer_append(w, &g->rec))
			return -1;
	}
	if (kt_writer_close(w))
		return -1;
	free(g);
	image = kt_test_slurp(path, &image_len);
	(void)state;
	return 0;
}

static int
teardown(void **state)
{
	free(image);
	(void)state;
	return 0;
}

struct outcome {
	int ret;
	long records;
	bool helper_ran;
	struct kt_reader_status st;
};

/*
 * Read @data to the end, checking every record against the generator
 * (record n is kt_test_gen(0, n) with seq n). Fails the test on a record
 * that differs.
 */
static void
read_all(const uint8_t *data, size_t len, int ahead, struct outcome *o)
{
	struct kt_test_rec *g = calloc(1, sizeof(*g));
	struct kt_reader *r;
	struct kt_record rec;
	int ret;

	memset(o, 0, sizeof(*o));
	assert_non_null(g);
	o->ret = kt_reader_open_mem(data, len, &r);
	if (o->ret) {
		free(g);
		return;
	}
	kt_reader_set_readahead(r, ahead);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		const char *diff;

		if (r->ahead)
			o->helper_ran = true;
		if (rec.type == KT_REC_END)
			continue;
		kt_test_gen(g, 0, (uint64_t)o->records);
		g->rec.seq = (uint64_t)o->records;
		diff = kt_test_rec_diff(&g->rec, &rec, true);
		if (diff)
			fail_msg("record %ld (read-ahead %d): %s differs",
				 o->records, ahead, diff);
		o->records++;
	}
	o->ret = ret;
	kt_reader_get_status(r, &o->st);
	kt_reader_close(r);
	free(g);
}

static void
assert_same(const struct outcome *a, const struct outcome *b, const char *what)
{
	if (a->ret != b->ret || a->records != b->records ||
	    a->st.integrity != b->st.integrity ||
	    a->st.records != b->st.records ||
	    a->st.corrupt_offset != b->st.corrupt_offset ||
	    a->st.corrupt_raw_offset != b->st.corrupt_raw_offset ||
	    a->st.frames != b->st.frames ||
	    strcmp(a->st.message, b->st.message))
		fail_msg("%s: without read-ahead %d/%ld records/\"%s\", "
			 "with it %d/%ld records/\"%s\"", what, a->ret,
			 a->records, a->st.message, b->ret, b->records,
			 b->st.message);
}

static void
test_clean(void **state)
{
	struct outcome off, on;

	read_all(image, image_len, 0, &off);
	read_all(image, image_len, 1, &on);
	assert_int_equal(off.ret, 0);
	assert_int_equal(off.records, NREC);
	assert_int_equal(off.st.integrity, KT_INTEGRITY_OK);
	assert_false(off.helper_ran);
	assert_true(on.helper_ran);
	assert_same(&off, &on, "clean file");
	(void)state;
}

/* A byte flipped in frames all over the file: the same error either way. */
static void
test_corrupt(void **state)
{
	struct kt_test_frame fr[4096];
	uint8_t *copy = malloc(image_len);
	int nfr = kt_test_walk(image, image_len, fr, 4096), tried = 0;

	assert_non_null(copy);
	assert_true(nfr > 100);
	for (int f = 1; f < nfr; f += nfr / 23) {
		size_t at[] = { fr[f].off + 5, fr[f].off + fr[f].size / 2,
				fr[f].off + fr[f].size - 1 };

		for (unsigned int k = 0; k < 3; k++) {
			struct outcome off, on;
			char what[64];

			memcpy(copy, image, image_len);
			copy[at[k]] ^= 0x5a;
			read_all(copy, image_len, 0, &off);
			read_all(copy, image_len, 1, &on);
			snprintf(what, sizeof(what), "flip at %zu (frame %d)",
				 at[k], f);
			assert_same(&off, &on, what);
			tried++;
		}
	}
	assert_true(tried > 30);
	free(copy);
	(void)state;
}

/* Cut short anywhere: the same records and the same verdict. */
static void
test_truncated(void **state)
{
	for (size_t cut = image_len / 7; cut < image_len; cut += image_len / 7 + 13) {
		struct outcome off, on;
		char what[64];

		read_all(image, cut, 0, &off);
		read_all(image, cut, 1, &on);
		snprintf(what, sizeof(what), "cut at %zu", cut);
		assert_same(&off, &on, what);
		assert_int_equal(on.ret, -KT_ETRUNC);
	}
	(void)state;
}

/* The seq of each record after a seek, to the end. */
static long
seek_and_read(int ahead, uint64_t *first, uint64_t *sum)
{
	struct kt_reader *r;
	struct kt_record rec;
	long n = 0;

	assert_int_equal(kt_reader_open_mem(image, image_len, &r), 0);
	kt_reader_set_readahead(r, ahead);
	/* Far enough in for the helper to be running, then back and forth. */
	for (int i = 0; i < NREC / 2; i++)
		assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(ahead != 0, r->ahead != NULL);
	assert_int_equal(kt_reader_seek_seq(r, 1234), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.seq, 1234);
	assert_int_equal(kt_reader_seek_seq(r, NREC - 5000), 0);
	*sum = 0;
	while (kt_reader_next(r, &rec) == 1) {
		if (!n)
			*first = rec.seq;
		*sum += rec.seq;
		n++;
	}
	kt_reader_close(r);
	return n;
}

static void
test_seek(void **state)
{
	uint64_t f0 = 0, f1 = 0, s0, s1;
	long n0 = seek_and_read(0, &f0, &s0), n1 = seek_and_read(1, &f1, &s1);

	assert_int_equal(n0, 5001);	/* 5000 records and END */
	assert_int_equal(n0, n1);
	assert_int_equal(f0, NREC - 5000);
	assert_int_equal(f0, f1);
	assert_int_equal(s0, s1);
	(void)state;
}

/* After fork() the child reads on without the parent's helper thread. */
static void
test_fork(void **state)
{
	struct kt_reader *r;
	struct kt_record rec;
	long n = 0;
	int status;
	pid_t pid;

	assert_int_equal(kt_reader_open_mem(image, image_len, &r), 0);
	for (; n < NREC / 3; n++)
		assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_non_null(r->ahead);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		while (kt_reader_next(r, &rec) == 1)
			n++;
		kt_reader_close(r);
		_exit(n == NREC + 1 ? 0 : 1);
	}
	while (kt_reader_next(r, &rec) == 1)
		n++;
	kt_reader_close(r);
	assert_int_equal(n, NREC + 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	(void)state;
}

/* Small files get no thread; turning read-ahead off stops a running one. */
static void
test_small_and_off(void **state)
{
	struct kt_reader *r;
	struct kt_record rec;
	long n = 0;

	/* The first ~10 KiB hold the header and a few frames. */
	assert_int_equal(kt_reader_open_mem(image, 10000, &r), 0);
	while (kt_reader_next(r, &rec) == 1)
		assert_null(r->ahead);
	kt_reader_close(r);

	assert_int_equal(kt_reader_open_mem(image, image_len, &r), 0);
	for (; n < 1000; n++)
		assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_non_null(r->ahead);
	kt_reader_set_readahead(r, 0);
	assert_null(r->ahead);
	while (kt_reader_next(r, &rec) == 1)
		n++;
	assert_null(r->ahead);
	assert_int_equal(n, NREC + 1);
	kt_reader_close(r);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_seek),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_small_and_off),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
