/* SPDX-License-Identifier: MIT */
/*
 * Damage that leaves every frame intact (docs/trace-format.md section 7):
 * a data frame deleted, one copied twice, the frames of another trace
 * appended, two records with one sequence number. Each reads as DAMAGED,
 * with the reason and the frame named, never as OK. A writer that lost
 * records (its file grew past RLIMIT_FSIZE, as on a full disk) leaves a
 * trace that reads as INCOMPLETE, with END's counts.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define NREC	200
#define MAXFR	512

/* A finished trace of @n records in small frames; caller frees. */
static uint8_t *
sample(const char *name, unsigned int n, size_t *len)
{
	struct kt_writer_opts opts = { .frame_raw_size = 600, .index_every = 3 };
	const char *path = kt_test_path(name);
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_writer *w;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (uint64_t i = 0; i < n; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &g.rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	return kt_test_slurp(path, len);
}

/* Read @data to the end; the final status. */
static void
read_all(const uint8_t *data, size_t len, struct kt_reader_status *st)
{
	struct kt_reader *r;
	struct kt_record rec;
	int ret;

	assert_int_equal(kt_reader_open_mem(data, len, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1)
		;
	kt_reader_get_status(r, st);
	kt_reader_close(r);
	assert_int_equal(ret, 0);
}

/* The index in @fr of the @nth data frame. */
static int
data_frame(const struct kt_test_frame *fr, int n, int nth)
{
	for (int i = 0; i < n; i++)
		if (fr[i].data && nth-- == 0)
			return i;
	fail_msg("no data frame %d", nth);
	return -1;
}

static void
test_intact(void **state)
{
	struct kt_reader_status st;
	size_t len;
	uint8_t *t = sample("intact.kft", NREC, &len);

	read_all(t, len, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_OK);
	assert_int_equal(st.end_records, NREC);
	assert_int_equal(st.lost, 0);
	free(t);
	(void)state;
}

/* One data frame cut out: END counts more records than the file holds. */
static void
test_frame_deleted(void **state)
{
	struct kt_test_frame fr[MAXFR];
	struct kt_reader_status st;
	size_t len;
	uint8_t *t = sample("del.kft", NREC, &len);
	int n = kt_test_walk(t, len, fr, MAXFR), i;

	assert_true(n > 8);
	i = data_frame(fr, n, 3);
	memmove(t + fr[i].off, t + fr[i].off + fr[i].size,
		len - fr[i].off - fr[i].size);
	len -= fr[i].size;
	read_all(t, len, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_DAMAGED);
	assert_non_null(strstr(st.message, "frames are missing"));
	assert_non_null(strstr(st.message, "says 200 records"));
	free(t);
	(void)state;
}

/* One data frame copied right after itself: its records appear twice. */
static void
test_frame_repeated(void **state)
{
	struct kt_test_frame fr[MAXFR];
	struct kt_reader_status st;
	char where[64];
	size_t len;
	uint8_t *t = sample("dup.kft", NREC, &len), *u;
	int n = kt_test_walk(t, len, fr, MAXFR), i;

	i = data_frame(fr, n, 2);
	u = malloc(len + fr[i].size);
	assert_non_null(u);
	memcpy(u, t, fr[i].off + fr[i].size);
	memcpy(u + fr[i].off + fr[i].size, t + fr[i].off, len - fr[i].off);
	read_all(u, len + fr[i].size, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_DAMAGED);
	assert_non_null(strstr(st.message, "appear twice"));
	/* The copy is the frame named. */
	snprintf(where, sizeof(where), "frame at offset %zu",
		 fr[i].off + fr[i].size);
	assert_non_null(strstr(st.message, where));
	free(u);
	free(t);
	(void)state;
}

/* The frames of a second trace (without its header) after the first. */
static void
test_spliced(void **state)
{
	struct kt_test_frame fr[MAXFR];
	struct kt_reader_status st;
	size_t la, lb;
	uint8_t *a = sample("a.kft", NREC, &la);
	uint8_t *b = sample("b.kft", 50, &lb), *u;
	int n = kt_test_walk(b, lb, fr, MAXFR);

	assert_true(n > 2);
	u = malloc(la + lb);
	assert_non_null(u);
	memcpy(u, a, la);
	memcpy(u + la, b + fr[1].off, lb - fr[1].off);
	read_all(u, la + lb - fr[1].off, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_DAMAGED);
	assert_non_null(strstr(st.message, "follow the END record"));
	free(u);
	free(a);
	free(b);
	(void)state;
}

/* A writer given the same sequence number twice. */
static void
test_duplicate_seq(void **state)
{
	const char *path = kt_test_path("seq.kft");
	struct kt_reader_status st;
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_writer *w;
	uint8_t *t;
	size_t len;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	for (uint64_t i = 0; i < 20; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = i == 11 ? 5 : i;
		assert_int_equal(kt_writer_append(w, &g.rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	t = kt_test_slurp(path, &len);
	read_all(t, len, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_DAMAGED);
	assert_non_null(strstr(st.message, "seq 5"));
	free(t);
	(void)state;
}

/*
 * The file may not grow past 16 KiB (SIGXFSZ ignored: writes fail with
 * EFBIG, as they fail with ENOSPC on a full disk). The writer cuts off the
 * frame that failed, and its END record still fits: it says how many
 * records were lost.
 */
static void
test_writer_lost(void **state)
{
	const char *path = kt_test_path("full.kft");
	struct kt_reader_status st;
	uint8_t *t;
	size_t len;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 16384, 16384 };
		struct kt_writer_opts opts = { .frame_raw_size = 4096 };
		struct kt_test_rec g;
		struct kt_header hdr;
		struct kt_writer *w;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(3);
		kt_test_header_init(&hdr, "test");
		if (kt_writer_open(path, &hdr, &opts, &w))
			_exit(4);
		for (uint64_t i = 0; i < 2000; i++) {
			kt_test_gen(&g, 0, i);
			g.rec.seq = kt_writer_next_seq(w);
			kt_writer_append(w, &g.rec);
		}
		/* The error is what close reports. */
		_exit(kt_writer_close(w) == -EFBIG ? 0 : 5);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	t = kt_test_slurp(path, &len);
	assert_true(len <= 16384);
	read_all(t, len, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_INCOMPLETE);
	assert_true(st.lost > 0);
	assert_int_equal(st.end_records + st.lost, 2000);
	assert_non_null(strstr(st.message, "lost"));
	free(t);
	(void)state;
}

/* After a seek the read no longer covers the file: no verdict on counts. */
static void
test_seek_no_false_alarm(void **state)
{
	struct kt_reader_status st;
	struct kt_record rec;
	struct kt_reader *r;
	size_t len;
	uint8_t *t = sample("seek.kft", NREC, &len);

	assert_int_equal(kt_reader_open_mem(t, len, &r), 0);
	assert_int_equal(kt_reader_seek_seq(r, 150), 0);
	while (kt_reader_next(r, &rec) == 1)
		;
	kt_reader_get_status(r, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_OK);
	kt_reader_close(r);
	free(t);
	(void)state;
}

static void
put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * An index whose CRCs are right but whose ranges lie: every data frame
 * claims to end at seq 0, so a seek to seq 150 passes over the frames that
 * hold it. The read says so instead of returning fewer records silently.
 */
static void
test_index_lies(void **state)
{
	struct kt_test_frame fr[MAXFR];
	struct kt_reader_status st;
	struct kt_record rec;
	struct kt_reader *r;
	size_t len;
	uint8_t *t = sample("lie.kft", NREC, &len);
	int n = kt_test_walk(t, len, fr, MAXFR), lies = 0;

	for (int i = 0; i < n; i++) {
		uint8_t *pl = t + fr[i].off + 8;
		uint32_t psize = (uint32_t)(fr[i].size - 8), esize, count, crc;

		if (fr[i].data || memcmp(pl, "KFDTINDX", 8))
			continue;
		esize = pl[8] | pl[9] << 8 | pl[10] << 16 | (uint32_t)pl[11] << 24;
		count = pl[12] | pl[13] << 8 | pl[14] << 16 | (uint32_t)pl[15] << 24;
		for (uint32_t k = 0; k < count; k++) {
			uint8_t *e = pl + 24 + (size_t)k * esize;

			if (!(e[52] & 1)) {	/* not END's frame */
				put_le64(e + 24, 0);
				lies++;
			}
		}
		crc = kt_test_crc32(pl, psize - 4);
		for (int b = 0; b < 4; b++)
			pl[psize - 4 + b] = (uint8_t)(crc >> (8 * b));
	}
	assert_true(lies > 4);
	assert_int_equal(kt_reader_open_mem(t, len, &r), 0);
	assert_int_equal(kt_reader_seek_seq(r, 150), 0);
	while (kt_reader_next(r, &rec) == 1)
		;
	kt_reader_get_status(r, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_DAMAGED);
	assert_non_null(strstr(st.message, "the index says the frame at offset"));
	kt_reader_close(r);
	free(t);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intact),
		cmocka_unit_test(test_frame_deleted),
		cmocka_unit_test(test_frame_repeated),
		cmocka_unit_test(test_spliced),
		cmocka_unit_test(test_duplicate_seq),
		cmocka_unit_test(test_writer_lost),
		cmocka_unit_test(test_seek_no_false_alarm),
		cmocka_unit_test(test_index_lies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
