/* SPDX-License-Identifier: MIT */
/*
 * Round trips: records of every kind from several threads come back field
 * by field and byte by byte, in per-thread order, with a complete set of
 * sequence numbers; the header round-trips; bounds are enforced; the file
 * is a standard zstd stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define NTHREADS	8
#define PER_THREAD	3000

struct worker {
	struct kt_writer *w;
	unsigned int t;
	unsigned int n;
	int failures;
	/* IOCTL records without buffers through kt_writer_append_ioctl(),
	 * whose numbers go to seqs[i] (the others' stay UINT64_MAX). */
	uint64_t *seqs;
};

static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct kt_test_rec *g = malloc(sizeof(*g));

	for (uint64_t i = 0; i < wk->n; i++) {
		kt_test_gen(g, wk->t, i);
		if (wk->seqs)
			wk->seqs[i] = UINT64_MAX;
		if (wk->seqs && g->rec.type == KT_REC_IOCTL &&
		    !g->rec.u.ioctl.nbufs) {
			struct kt_ioctl_fast f;

			kt_ioctl_fast_of(&f, &g->rec);
			if (kt_writer_append_ioctl(wk->w, &f, &wk->seqs[i]))
				wk->failures++;
			continue;
		}
		g->rec.seq = kt_writer_next_seq(wk->w);
		if (kt_writer_append(wk->w, &g->rec))
			wk->failures++;
	}
	free(g);
	return NULL;
}

/*
 * Read every record back, checking each against its generator by per-thread
 * position. Return: the END record's seq, with *@total set.
 */
static uint64_t
check_file(const char *path, unsigned int nthreads, unsigned int per_thread,
	   bool expect_end)
{
	uint64_t next_i[NTHREADS] = { 0 }, last_seq[NTHREADS];
	uint64_t total = (uint64_t)nthreads * per_thread, end_seq = 0;
	struct kt_test_rec *g = malloc(sizeof(*g));
	uint8_t *seen = calloc(total + 1, 1);
	struct kt_reader_status st;
	struct kt_reader *r;
	struct kt_record rec;
	uint64_t count = 0;
	bool got_end = false;
	int ret;

	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		unsigned int t;
		const char *diff;

		if (rec.type == KT_REC_END) {
			assert_false(got_end);
			got_end = true;
			end_seq = rec.seq;
			assert_int_equal(rec.u.end.records, total);
			assert_int_equal(rec.u.end.lost, 0);
			assert_int_equal(rec.u.end.flags, KT_END_CLEAN);
			continue;
		}
		assert_false(got_end);
		t = rec.tid - 1000;
		assert_true(t < nthreads);
		assert_true(next_i[t] < per_thread);
		kt_test_gen(g, t, next_i[t]);
		diff = kt_test_rec_diff(&g->rec, &rec, false);
		if (diff)
			fail_msg("thread %u record %llu: %s differs", t,
				 (unsigned long long)next_i[t], diff);
		/* Per-thread order: seq increases within a thread. */
		if (next_i[t])
			assert_true(rec.seq > last_seq[t]);
		last_seq[t] = rec.seq;
		next_i[t]++;
		assert_true(rec.seq < total);
		assert_int_equal(seen[rec.seq], 0);
		seen[rec.seq] = 1;
		count++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(count, total);
	assert_int_equal(got_end, expect_end);
	kt_reader_get_status(r, &st);
	assert_int_equal(st.integrity,
			 expect_end ? KT_INTEGRITY_OK : KT_INTEGRITY_NO_END);
	assert_int_equal(st.records, total + (expect_end ? 1 : 0));
	kt_reader_close(r);
	free(seen);
	free(g);
	return end_seq;
}

static void
test_roundtrip_threads(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 8192, .index_every = 4 };
	struct worker wk[NTHREADS];
	pthread_t th[NTHREADS];
	struct kt_writer_stats ws;
	const char *path = kt_test_path("threads.kfdt");
	struct kt_header hdr;
	struct kt_writer *w;
	struct stat sb;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (unsigned int t = 0; t < NTHREADS; t++) {
		wk[t] = (struct worker){ .w = w, .t = t, .n = PER_THREAD };
		assert_int_equal(pthread_create(&th[t], NULL, worker_main,
						&wk[t]), 0);
	}
	for (unsigned int t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], NULL);
		assert_int_equal(wk[t].failures, 0);
	}
	assert_int_equal(kt_writer_flush(w), 0);
	kt_writer_get_stats(w, &ws);
	assert_int_equal(ws.records, NTHREADS * PER_THREAD);
	assert_int_equal(ws.lost, 0);
	assert_true(ws.frames > 10);
	/* Flushed but still open: everything readable, no END yet. */
	check_file(path, NTHREADS, PER_THREAD, false);
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(check_file(path, NTHREADS, PER_THREAD, true),
			 NTHREADS * PER_THREAD);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	(void)state;
}

/*
 * kt_writer_append_ioctl() mixed with kt_writer_append() on several
 * threads, with frames small enough that appends often find no room or no
 * buffer (its general path): records come back as generated, numbered as
 * the call said, gapless.
 */
static void
test_append_ioctl(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 4096 };
	struct worker wk[NTHREADS];
	pthread_t th[NTHREADS];
	const char *path = kt_test_path("fast.kfdt");
	uint64_t next_i[NTHREADS] = { 0 }, fast = 0;
	struct kt_test_rec *g = malloc(sizeof(*g));
	uint8_t big[KT_MAX_ARG_SIZE];
	struct kt_ioctl_fast f;
	struct kt_header hdr;
	struct kt_record rec;
	struct kt_reader *r;
	struct kt_writer *w;
	uint64_t big_seq;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (unsigned int t = 0; t < NTHREADS; t++) {
		wk[t] = (struct worker){ .w = w, .t = t, .n = PER_THREAD,
					 .seqs = calloc(PER_THREAD, 8) };
		assert_non_null(wk[t].seqs);
		assert_int_equal(pthread_create(&th[t], NULL, worker_main,
						&wk[t]), 0);
	}
	for (unsigned int t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], NULL);
		assert_int_equal(wk[t].failures, 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	check_file(path, NTHREADS, PER_THREAD, true);

	assert_int_equal(kt_reader_open(path, &r), 0);
	while (kt_reader_next(r, &rec) == 1) {
		unsigned int t = rec.tid - 1000;

		if (rec.type == KT_REC_END)
			continue;
		if (wk[t].seqs[next_i[t]] != UINT64_MAX) {
			assert_int_equal(rec.seq, wk[t].seqs[next_i[t]]);
			fast++;
		}
		next_i[t]++;
	}
	kt_reader_close(r);
	/* About 1 record in 48 is an IOCTL without buffers. */
	assert_true(fast > NTHREADS * PER_THREAD / 100);

	/* An argument too big for a raw entry takes the general path. */
	path = kt_test_path("fast-big.kfdt");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	kt_test_gen(g, 0, 0);
	assert_int_equal(g->rec.type, KT_REC_IOCTL);
	g->rec.u.ioctl.nbufs = 0;
	g->rec.u.ioctl.bufs = NULL;
	g->rec.u.ioctl.arg_before = big;
	g->rec.u.ioctl.arg_after = big + 1;
	/* A small one first: the thread then has state and a buffer. */
	for (unsigned int k = 0; k < 2; k++) {
		g->rec.u.ioctl.arg_size = k ? sizeof(big) - 1 : 24;
		kt_ioctl_fast_of(&f, &g->rec);
		assert_int_equal(kt_writer_append_ioctl(w, &f, &big_seq), 0);
		assert_int_equal(big_seq, k);
	}
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	for (unsigned int k = 0; k < 2; k++) {
		g->rec.u.ioctl.arg_size = k ? sizeof(big) - 1 : 24;
		g->rec.seq = k;
		assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_null(kt_test_rec_diff(&g->rec, &rec, true));
	}
	kt_reader_close(r);
	for (unsigned int t = 0; t < NTHREADS; t++)
		free(wk[t].seqs);
	free(g);
	(void)state;
}

/*
 * Memory blobs stored once (format 1.4): a record with the bytes and their
 * hash, then references by hash alone; the reader hands the bytes out
 * again. A reference to bytes never stored keeps none.
 */
static void
test_memory_refs(void **state)
{
	const char *path = kt_test_path("refs.kfdt");
	struct kt_record rec, want;
	struct kt_header hdr;
	struct kt_reader *r;
	struct kt_writer *w;
	uint8_t bytes[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i * 13);
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	memset(&want, 0, sizeof(want));
	want.type = KT_REC_MEMORY;
	want.u.memory.kind = KT_MEM_KERNARG;
	want.u.memory.full_len = sizeof(bytes);
	want.u.memory.hash_len = KT_MEM_HASH_LEN;
	memset(want.u.memory.hash, 0xa5, KT_MEM_HASH_LEN);
	for (unsigned int k = 0; k < 4; k++) {
		rec = want;
		rec.u.memory.addr = 0x1000 * (k + 1);
		if (k == 0) {
			rec.u.memory.data = bytes;
			rec.u.memory.len = sizeof(bytes);
		} else {
			rec.u.memory.flags = KT_MEM_REF;
		}
		if (k == 3)	/* a hash the trace never stored */
			rec.u.memory.hash[31] ^= 1;
		assert_int_equal(kt_writer_append(w, &rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	for (unsigned int k = 0; k < 4; k++) {
		assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_int_equal(rec.type, KT_REC_MEMORY);
		assert_int_equal(rec.u.memory.addr, 0x1000 * (k + 1));
		assert_int_equal(rec.u.memory.hash_len, KT_MEM_HASH_LEN);
		assert_int_equal(!!(rec.u.memory.flags & KT_MEM_REF), k > 0);
		if (k == 3) {
			assert_int_equal(rec.u.memory.len, 0);
			continue;
		}
		assert_int_equal(rec.u.memory.len, sizeof(bytes));
		assert_memory_equal(rec.u.memory.data, bytes, sizeof(bytes));
	}
	kt_reader_close(r);
}

static void
test_header_roundtrip(void **state)
{
	const char *path = kt_test_path("header.kfdt");
	const struct kt_header *h2;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;

	kt_header_init(&hdr, "kfdtrace-capture");
	assert_string_equal(hdr.producer, "kfdtrace-capture");
	assert_int_equal(hdr.pid, getpid());
	assert_int_equal(hdr.ppid, getppid());
	assert_true(hdr.exe[0] == '/');
	assert_true(hdr.cmdline_len > 0);
	assert_true(hdr.host[0] && hdr.kernel_release[0]);
	assert_true(hdr.start_monotonic && hdr.start_realtime &&
		    hdr.start_boottime);
	hdr.kfd_major = 1;
	hdr.kfd_minor = 17;
	hdr.flags = KT_HDR_SIMULATED | KT_HDR_NO_BUFFERS;
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	h2 = kt_reader_header(r);
	assert_int_equal(h2->format_major, KT_FORMAT_MAJOR);
	assert_int_equal(h2->format_minor, KT_FORMAT_MINOR);
	assert_string_equal(h2->producer, hdr.producer);
	assert_string_equal(h2->producer_version, hdr.producer_version);
	assert_string_equal(h2->host, hdr.host);
	assert_string_equal(h2->kernel_release, hdr.kernel_release);
	assert_string_equal(h2->exe, hdr.exe);
	assert_int_equal(h2->cmdline_len, hdr.cmdline_len);
	assert_memory_equal(h2->cmdline, hdr.cmdline, hdr.cmdline_len);
	assert_int_equal(h2->kfd_major, 1);
	assert_int_equal(h2->kfd_minor, 17);
	assert_int_equal(h2->pid, hdr.pid);
	assert_int_equal(h2->ppid, hdr.ppid);
	assert_int_equal(h2->start_monotonic, hdr.start_monotonic);
	assert_int_equal(h2->start_realtime, hdr.start_realtime);
	assert_int_equal(h2->start_boottime, hdr.start_boottime);
	assert_int_equal(h2->flags, hdr.flags);
	kt_reader_close(r);
	(void)state;
}

/* The run's command and start travel from the environment to a reader,
 * an argument with '%' and spaces intact. */
static void
test_header_run(void **state)
{
	static char *const argv[] = { "sh", "-c", "app 50%; app", NULL };
	static const char want[] = "sh\0-c\0app 50%; app";
	const char *path = kt_test_path("header-run.kfdt");
	const struct kt_header *h2;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;
	char env[256];

	assert_int_equal(kt_run_cmdline_encode(env, sizeof(env), argv), 0);
	assert_string_equal(env, "sh%00-c%00app 50%25; app%00");
	assert_int_equal(kt_run_cmdline_encode(env, 8, argv), -1);
	assert_int_equal(kt_run_cmdline_encode(env, sizeof(env), argv), 0);
	setenv(KT_ENV_RUN_CMDLINE, env, 1);
	setenv(KT_ENV_RUN_START, "123456789", 1);
	kt_header_init(&hdr, "test");
	unsetenv(KT_ENV_RUN_CMDLINE);
	unsetenv(KT_ENV_RUN_START);
	assert_int_equal(hdr.run_cmdline_len, sizeof(want));
	assert_memory_equal(hdr.run_cmdline, want, sizeof(want));
	assert_int_equal(hdr.run_start, 123456789);
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	h2 = kt_reader_header(r);
	assert_int_equal(h2->run_cmdline_len, sizeof(want));
	assert_memory_equal(h2->run_cmdline, want, sizeof(want));
	assert_int_equal(h2->run_start, 123456789);
	kt_reader_close(r);
	/* Outside a recording: none. */
	kt_header_init(&hdr, "test");
	assert_int_equal(hdr.run_cmdline_len, 0);
	assert_int_equal(hdr.run_start, 0);
	(void)state;
}

static void
test_open_flags(void **state)
{
	const char *path = kt_test_path("exists.kfdt");
	char link[256];
	struct kt_header hdr;
	struct kt_writer *w;
	int fd;

	kt_test_header_init(&hdr, "test");
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), -EEXIST);
	assert_null(w);
	snprintf(link, sizeof(link), "%s", kt_test_path("link.kfdt"));
	assert_int_equal(symlink(kt_test_path("nowhere.kfdt"), link), 0);
	/* O_EXCL|O_NOFOLLOW: a dangling symlink is not followed. */
	assert_int_equal(kt_writer_open(link, &hdr, NULL, &w), -EEXIST);
	(void)state;
}

static void
test_bounds_and_invalid(void **state)
{
	const char *path = kt_test_path("bounds.kfdt");
	struct kt_record rec = { .type = KT_REC_ANNOTATION };
	struct kt_buf_image bi = { .flags = KT_BUF_BEFORE, .len_before = 4 };
	struct kt_writer_stats ws;
	struct kt_header hdr;
	struct kt_writer *w;
	char *big = malloc(KT_MAX_TEXT + 2);

	memset(big, 'x', KT_MAX_TEXT + 1);
	big[KT_MAX_TEXT + 1] = '\0';
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	rec.u.annotation.text = big;
	assert_int_equal(kt_writer_append(w, &rec), -KT_ETOOBIG);
	big[KT_MAX_TEXT] = '\0';
	assert_int_equal(kt_writer_append(w, &rec), 0);
	rec.type = 0;
	assert_int_equal(kt_writer_append(w, &rec), -EINVAL);
	rec.type = KT_REC_TYPE_MAX;
	assert_int_equal(kt_writer_append(w, &rec), -EINVAL);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_IOCTL;
	rec.u.ioctl.arg_size = KT_MAX_ARG_SIZE + 1;
	assert_int_equal(kt_writer_append(w, &rec), -KT_ETOOBIG);
	rec.u.ioctl.arg_size = 0;
	rec.u.ioctl.nbufs = KT_MAX_BUFS + 1;
	rec.u.ioctl.bufs = &bi;
	assert_int_equal(kt_writer_append(w, &rec), -KT_ETOOBIG);
	rec.u.ioctl.nbufs = 1;
	/* BEFORE with a length and no data */
	assert_int_equal(kt_writer_append(w, &rec), -EINVAL);
	kt_writer_get_stats(w, &ws);
	assert_int_equal(ws.lost, 6);
	assert_int_equal(ws.records, 1);
	/* Lost records make the END record say INCOMPLETE. */
	assert_int_equal(kt_writer_close(w), 0);
	{
		struct kt_reader *r;
		struct kt_record out;

		assert_int_equal(kt_reader_open(path, &r), 0);
		assert_int_equal(kt_reader_next(r, &out), 1);
		assert_int_equal(out.type, KT_REC_ANNOTATION);
		assert_int_equal(strlen(out.u.annotation.text), KT_MAX_TEXT);
		assert_int_equal(kt_reader_next(r, &out), 1);
		assert_int_equal(out.type, KT_REC_END);
		assert_int_equal(out.u.end.flags, KT_END_INCOMPLETE);
		assert_int_equal(out.u.end.records, 1);
		assert_int_equal(out.u.end.lost, 6);
		assert_int_equal(kt_reader_next(r, &out), 0);
		kt_reader_close(r);
	}
	free(big);
	(void)state;
}

/* Any zstd decoder reads the records: skippable frames are skipped. */
static void
test_standard_zstd(void **state)
{
	const char *path = kt_test_path("std.kfdt");
	struct kt_writer_opts opts = { .frame_raw_size = 4096, .index_every = 2 };
	struct kt_test_rec g;
	struct kt_writer_stats ws;
	struct kt_header hdr;
	struct kt_writer *w;
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	uint8_t *data, out[65536];
	size_t len, total = 0, ret = 0;
	ZSTD_inBuffer in;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (uint64_t i = 0; i < 2000; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &g.rec), 0);
	}
	assert_int_equal(kt_writer_flush(w), 0);
	kt_writer_get_stats(w, &ws);
	assert_int_equal(kt_writer_close(w), 0);
	data = kt_test_slurp(path, &len);
	in = (ZSTD_inBuffer){ data, len, 0 };
	while (in.pos < in.size) {
		ZSTD_outBuffer ob = { out, sizeof(out), 0 };

		ret = ZSTD_decompressStream(dc, &ob, &in);
		assert_false(ZSTD_isError(ret));
		total += ob.pos;
	}
	assert_int_equal(ret, 0);
	/* The records, plus the END record's frame. */
	assert_true(total > ws.raw_bytes);
	assert_true(total < ws.raw_bytes + 64);
	ZSTD_freeDCtx(dc);
	free(data);
	(void)state;
}

static void
test_age_flush(void **state)
{
	const char *path = kt_test_path("age.kfdt");
	struct kt_writer_opts opts = { .flush_ms = 20 };
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;
	struct kt_record rec;
	int n = 0, ret;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	for (uint64_t i = 0; i < 10; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &g.rec), 0);
	}
	/* No flush: the writer thread takes the buffer once it is old enough. */
	for (int tries = 0; tries < 100 && n < 10; tries++) {
		usleep(10000);
		assert_int_equal(kt_reader_open(path, &r), 0);
		n = 0;
		while ((ret = kt_reader_next(r, &rec)) == 1)
			n++;
		assert_int_equal(ret, 0);
		kt_reader_close(r);
	}
	assert_int_equal(n, 10);
	assert_int_equal(kt_writer_close(w), 0);
	(void)state;
}

/*
 * Several threads leave a few records each; one flush takes all their
 * partial buffers and packs them into one frame, chunk after chunk.
 */
struct few {
	struct kt_writer *w;
	unsigned int t;
	pthread_barrier_t *bar;
};

static void *
few_main(void *arg)
{
	struct few *f = arg;
	struct kt_test_rec g;

	for (uint64_t i = 0; i < 5; i++) {
		kt_test_gen(&g, f->t, i);
		g.rec.seq = kt_writer_next_seq(f->w);
		kt_writer_append(f->w, &g.rec);
	}
	/* Stay alive until the flush, as traced threads usually do. */
	pthread_barrier_wait(f->bar);
	pthread_barrier_wait(f->bar);
	return NULL;
}

static void
test_grouped_partial_buffers(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 1 << 20,
				       .flush_ms = 60000 };
	const char *path = kt_test_path("grouped.kfdt");
	struct kt_writer_stats ws;
	pthread_barrier_t bar;
	struct few f[6];
	pthread_t th[6];
	struct kt_header hdr;
	struct kt_writer *w;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	pthread_barrier_init(&bar, NULL, 7);
	for (unsigned int t = 0; t < 6; t++) {
		f[t] = (struct few){ .w = w, .t = t, .bar = &bar };
		pthread_create(&th[t], NULL, few_main, &f[t]);
	}
	pthread_barrier_wait(&bar);
	assert_int_equal(kt_writer_flush(w), 0);
	kt_writer_get_stats(w, &ws);
	/* One frame for all six threads. */
	assert_int_equal(ws.frames, 1);
	assert_int_equal(ws.records, 30);
	pthread_barrier_wait(&bar);
	for (unsigned int t = 0; t < 6; t++)
		pthread_join(th[t], NULL);
	assert_int_equal(kt_writer_close(w), 0);
	pthread_barrier_destroy(&bar);
	check_file(path, 6, 5, true);
	(void)state;
}

/* Records bigger than a frame get a buffer and a frame of their own. */
static void
test_big_records(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 4096 };
	const char *path = kt_test_path("big.kfdt");
	size_t nfiles = 40, flen = 20000;
	struct kt_topo_file *files = calloc(nfiles, sizeof(*files));
	uint8_t *data = malloc(flen);
	struct kt_record rec = { .type = KT_REC_TOPOLOGY, .tid = 9 };
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;
	struct kt_record out;

	for (size_t i = 0; i < flen; i++)
		data[i] = (uint8_t)(i * 7 + i / 255);
	for (size_t i = 0; i < nfiles; i++) {
		files[i].path = "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties";
		files[i].data = data + i;
		files[i].len = (uint32_t)(flen - i);
	}
	rec.u.topology.nfiles = (uint32_t)nfiles;
	rec.u.topology.files = files;
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, &opts, &w), 0);
	kt_test_gen(&g, 0, 0);
	assert_int_equal(kt_writer_append(w, &g.rec), 0);
	rec.seq = 1;
	assert_int_equal(kt_writer_append(w, &rec), 0);
	kt_test_gen(&g, 0, 1);
	g.rec.seq = 2;
	assert_int_equal(kt_writer_append(w, &g.rec), 0);
	assert_int_equal(kt_writer_close(w), 0);

	assert_int_equal(kt_reader_open(path, &r), 0);
	assert_int_equal(kt_reader_next(r, &out), 1);
	assert_int_equal(out.seq, 0);
	assert_int_equal(kt_reader_next(r, &out), 1);
	assert_null(kt_test_rec_diff(&rec, &out, true));
	assert_int_equal(kt_reader_next(r, &out), 1);
	kt_test_gen(&g, 0, 1);
	g.rec.seq = 2;
	assert_null(kt_test_rec_diff(&g.rec, &out, true));
	assert_int_equal(kt_reader_next(r, &out), 1);
	assert_int_equal(out.type, KT_REC_END);
	kt_reader_close(r);
	free(files);
	free(data);
	(void)state;
}

/* A trace read from a pipe (not mappable) reads the same. */
static void
test_reader_pipe(void **state)
{
	const char *path = kt_test_path("pipe.kfdt");
	char fifo[256];
	struct kt_reader_status st;
	struct kt_test_rec g;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;
	struct kt_record rec;
	uint8_t *data;
	size_t len;
	pid_t pid;
	int n = 0;

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	for (uint64_t i = 0; i < 3000; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = i;
		assert_int_equal(kt_writer_append(w, &g.rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	data = kt_test_slurp(path, &len);
	snprintf(fifo, sizeof(fifo), "%s", kt_test_path("fifo"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(fifo, O_WRONLY);
		size_t off = 0;

		while (fd >= 0 && off < len) {
			ssize_t k = write(fd, data + off, len - off);

			if (k <= 0)
				_exit(1);
			off += (size_t)k;
		}
		_exit(0);
	}
	assert_int_equal(kt_reader_open(fifo, &r), 0);
	while (kt_reader_next(r, &rec) == 1) {
		if (rec.type != KT_REC_END) {
			kt_test_gen(&g, 0, (uint64_t)n);
			g.rec.seq = (uint64_t)n;
			assert_null(kt_test_rec_diff(&g.rec, &rec, true));
		}
		n++;
	}
	kt_reader_get_status(r, &st);
	assert_int_equal(st.integrity, KT_INTEGRITY_OK);
	assert_int_equal(st.file_size, len);
	assert_int_equal(n, 3001);
	kt_reader_close(r);
	waitpid(pid, NULL, 0);
	free(data);
	(void)state;
}

static void
test_names(void **state)
{
	assert_string_equal(kt_rec_type_name(KT_REC_IOCTL), "ioctl");
	assert_string_equal(kt_rec_type_name(KT_REC_END), "end");
	assert_null(kt_rec_type_name(0));
	assert_null(kt_rec_type_name(KT_REC_TYPE_MAX));
	assert_non_null(strstr(kt_strerror(-KT_ETRUNC), "truncated"));
	assert_non_null(strstr(kt_strerror(-KT_ECORRUPT), "corrupt"));
	assert_string_equal(kt_strerror(-ENOSPC), "No space left on device");
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_threads),
		cmocka_unit_test(test_append_ioctl),
		cmocka_unit_test(test_header_roundtrip),
		cmocka_unit_test(test_header_run),
		cmocka_unit_test(test_memory_refs),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_bounds_and_invalid),
		cmocka_unit_test(test_standard_zstd),
		cmocka_unit_test(test_age_flush),
		cmocka_unit_test(test_grouped_partial_buffers),
		cmocka_unit_test(test_big_records),
		cmocka_unit_test(test_reader_pipe),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("trace_roundtrip", tests, NULL, NULL);
}
