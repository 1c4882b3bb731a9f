/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpus of the trace reader fuzz target into the
 * directory given: small valid traces (every record kind, several threads,
 * many distinct threads, index frames, emergency raw frames), a trace
 * without END, a truncated one, hand-made files with absurd lengths, and
 * traces with a record at each limit of the header's clock (0, 2^63 - 1,
 * 2^63, 2^64 - 1, the start +-1, the valid range's ends +-1). Records of the largest
 * sizes the format allows are tests/bounds' (a seed that decompresses to
 * MiBs made every fuzz input that much slower: 11,708 inputs in 60 s
 * instead of over 500,000). The files in
 * tests/fuzz/corpus/trace_reader/ were made with it:
 *   gen_trace_corpus tests/fuzz/corpus/trace_reader
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kt_test_util.h"

/* Threads of many_threads.kfdt: small, so each input stays fast. */
#define MANY_THREADS 512

static const char *dir;

static char *
in_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* The path of a file about to be written: any old one is removed. */
static char *
out_path(const char *name)
{
	char *path = in_path(name);

	unlink(path);
	return path;
}

static void
save(const char *name, const uint8_t *p, size_t n)
{
	FILE *f = fopen(out_path(name), "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(name);
		exit(1);
	}
}

/* Header start_monotonic of the corpus's traces (a time-limit trace's). */
static uint64_t corpus_start = 1000;

static struct kt_writer *
open_w(const char *name, size_t frame, unsigned int index_every)
{
	struct kt_writer_opts opts = { .frame_raw_size = frame,
				       .index_every = index_every };
	struct kt_header hdr;
	struct kt_writer *w;

	kt_header_init(&hdr, "corpus");
	/* Reproducible files: no host facts. */
	memset(hdr.host, 0, sizeof(hdr.host));
	strcpy(hdr.host, "corpus-host");
	strcpy(hdr.kernel_release, "6.1.0");
	strcpy(hdr.exe, "/usr/bin/rocminfo");
	memcpy(hdr.cmdline, "rocminfo", 9);
	hdr.cmdline_len = 9;
	hdr.pid = 4242;
	hdr.ppid = 1;
	hdr.start_monotonic = corpus_start;
	hdr.start_realtime = 2000;
	hdr.start_boottime = 3000;
	hdr.kfd_major = 1;
	hdr.kfd_minor = 17;
	if (kt_writer_open(out_path(name), &hdr, &opts, &w)) {
		perror(name);
		exit(1);
	}
	return w;
}

static void
append(struct kt_writer *w, unsigned int t, uint64_t i)
{
	struct kt_test_rec g;

	kt_test_gen(&g, t, i);
	g.rec.seq = kt_writer_next_seq(w);
	if (kt_writer_append(w, &g.rec))
		exit(1);
}

/* A thread's name (first round) or a close (second): a few bytes each. */
static void
append_small(struct kt_writer *w, uint32_t t, uint64_t i)
{
	struct kt_record r;
	char name[16];

	memset(&r, 0, sizeof(r));
	r.seq = kt_writer_next_seq(w);
	r.tid = 1000 + t;
	r.ts = 1000000 + i * 100;
	if (i < MANY_THREADS) {
		snprintf(name, sizeof(name), "w%u", t);
		r.type = KT_REC_THREAD_NAME;
		r.u.thread_name.name = name;
	} else {
		r.type = KT_REC_CLOSE;
		r.u.close.fd = (int32_t)(3 + t % 7);
	}
	if (kt_writer_append(w, &r))
		exit(1);
}

static void
crafted(void)
{
	struct kt_bb raw = { 0 }, t = { 0 };

	/* A record claiming 2^31 bytes. */
	kt_bb_u8(&raw, 1);
	kt_bb_varint(&raw, 1ull << 31);
	kt_bb_bytes(&raw, "0123456789abcdef", 16);
	kt_test_trace_with(&t, raw.p, raw.len);
	save("crafted_reclen.kfdt", t.p, t.len);
	kt_bb_free(&raw);
	kt_bb_free(&t);

	/* An ioctl with 65535 buffers (the record itself is consistent). */
	kt_bb_u8(&raw, 1);
	kt_bb_varint(&raw, 28);
	kt_bb_u8(&raw, 1);
	kt_bb_varint(&raw, 1);
	kt_bb_varint(&raw, 2);
	kt_bb_varint(&raw, 3);
	kt_bb_varint(&raw, 4);
	kt_bb_varint(&raw, 6);
	kt_bb_u8(&raw, 1);
	kt_bb_le32(&raw, 0xC0084B01);
	kt_bb_varint(&raw, 0);
	kt_bb_varint(&raw, 0);
	kt_bb_varint(&raw, 0);
	kt_bb_u8(&raw, 0);
	kt_bb_varint(&raw, 65535);
	kt_bb_bytes(&raw, "0123456789", 10);
	kt_test_trace_with(&t, raw.p, raw.len);
	save("crafted_nbufs.kfdt", t.p, t.len);
	kt_bb_free(&raw);
	kt_bb_free(&t);

	/* A frame claiming 2^60 bytes of content. */
	kt_test_header_frame(&t);
	kt_bb_le32(&t, 0xFD2FB528u);
	kt_bb_u8(&t, 0xE0);
	kt_bb_le64(&t, 1ull << 60);
	kt_bb_u8(&t, 1 | 10 << 3);
	kt_bb_u8(&t, 0);
	kt_bb_u8(&t, 0);
	kt_bb_bytes(&t, "0123456789", 10);
	save("crafted_content.kfdt", t.p, t.len);
	kt_bb_free(&t);
}

/*
 * A trace whose fourth of eight records is at @ts;
 * the others 1 us apart from the start, 20 s after boot, so that 0 is
 * before the valid range (docs/trace-format.md section 5.1).
 */
static void
time_limit(const char *name, uint64_t ts)
{
	struct kt_writer *w;
	struct kt_test_rec g;

	corpus_start = 20000000000ull;
	w = open_w(name, 128, 2);
	for (uint64_t i = 0; i < 8; i++) {
		kt_test_gen(&g, 0, i);
		g.rec.seq = kt_writer_next_seq(w);
		g.rec.ts = i == 3 ? ts : corpus_start + i * 1000;
		if (kt_writer_append(w, &g.rec))
			exit(1);
	}
	if (kt_writer_close(w))
		exit(1);
	corpus_start = 1000;
}

static void
time_limits(void)
{
	const uint64_t start = 20000000000ull;

	time_limit("ts_zero.kfdt", 0);
	time_limit("ts_i64max.kfdt", INT64_MAX);
	time_limit("ts_2e63.kfdt", 1ull << 63);
	time_limit("ts_u64max.kfdt", UINT64_MAX);
	time_limit("ts_start_m1.kfdt", start - 1);
	time_limit("ts_start_p1.kfdt", start + 1);
	time_limit("ts_early.kfdt", start - KT_TS_EARLY - 1);
	time_limit("ts_late.kfdt", start + KT_TS_SPAN + 1);
}

static void *
thread_main(void *arg)
{
	struct kt_writer *w = arg;
	static _Atomic unsigned int next;
	unsigned int t = ++next;

	for (uint64_t i = 0; i < 8; i++)
		append(w, t, i);
	return NULL;
}

int
main(int argc, char **argv)
{
	struct kt_writer *w;
	pthread_t th[3];
	uint8_t *data;
	size_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];

	/* Every kind, small frames, index frames every two frames. */
	w = open_w("all_kinds.kfdt", 256, 2);
	for (uint64_t i = 0; i < 12; i++)
		append(w, 0, i);
	if (kt_writer_close(w))
		return 1;

	w = open_w("threads.kfdt", 512, 3);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, thread_main, w);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	if (kt_writer_close(w))
		return 1;

	/*
	 * Many threads of two records each, in two rounds: every record a
	 * base record of a tid of its own, for the tools' per-thread state
	 * and trace_mutate.c's tid spreading.
	 */
	w = open_w("many_threads.kfdt", 2048, 4);
	for (uint64_t i = 0; i < 2 * MANY_THREADS; i++)
		append_small(w, (uint32_t)(i % MANY_THREADS), i);
	if (kt_writer_close(w))
		return 1;

	/* Raw-block frames from an emergency flush between normal ones. */
	w = open_w("emergency.kfdt", 1024, 2);
	for (uint64_t i = 0; i < 6; i++)
		append(w, 0, i);
	if (kt_writer_emergency_flush(w))
		return 1;
	for (uint64_t i = 6; i < 12; i++)
		append(w, 0, i);
	if (kt_writer_close(w))
		return 1;

	/* Flushed, then copied before the close: no END. */
	w = open_w("tmp.kfdt", 256, 4);
	for (uint64_t i = 0; i < 10; i++)
		append(w, 0, i + 3);
	if (kt_writer_flush(w))
		return 1;
	data = kt_test_slurp(in_path("tmp.kfdt"), &len);
	save("no_end.kfdt", data, len);
	/* Cut seven bytes short: the last frame is incomplete. */
	save("truncated.kfdt", data, len - 7);
	free(data);
	kt_writer_close(w);
	unlink(in_path("tmp.kfdt"));

	crafted();
	time_limits();
	return 0;
}
