// SPDX-License-Identifier: MIT
/*
 * Benchmark (c): how fast a reader scans a trace (open, decompress and
 * decode every record), best of three.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kt_test_util.h"

#define NREC		4000000
#define NGEN		4096

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(void)
{
	struct kt_test_rec *g = calloc(NGEN, sizeof(*g));
	const char *path = kt_test_path("scan.kfdt");
	struct kt_writer_stats st;
	struct kt_header hdr;
	struct kt_writer *w;
	double best = 1e9;
	uint64_t sum = 0;

	for (int i = 0; i < NGEN; i++)
		kt_test_gen_rocm(&g[i], (uint64_t)i);
	kt_header_init(&hdr, "bench");
	if (kt_writer_open(path, &hdr, NULL, &w))
		return 1;
	for (uint64_t i = 0; i < NREC; i++) {
		struct kt_record *r = &g[i % NGEN].rec;

		r->seq = kt_writer_next_seq(w);
		if (i >= NGEN) {
			r->ts += 9000ull * NGEN;
			r->u.ioctl.t_exit += 9000ull * NGEN;
		}
		if (kt_writer_append(w, r))
			return 1;
	}
	kt_writer_get_stats(w, &st);
	if (kt_writer_close(w))
		return 1;
	for (int run = 0; run < 3; run++) {
		struct kt_reader *r;
		struct kt_record rec;
		uint64_t n = 0;
		double t0 = now_s(), dt;
		int ret;

		if (kt_reader_open(path, &r))
			return 1;
		while ((ret = kt_reader_next(r, &rec)) == 1) {
			sum += rec.seq;
			n++;
		}
		kt_reader_close(r);
		dt = now_s() - t0;
		if (ret || n != NREC + 1)
			return 1;
		if (dt < best)
			best = dt;
	}
	printf("reader_records: %d (checksum %llu)\n", NREC,
	       (unsigned long long)sum);
	printf("reader_scan_records_per_s: %.0f\n", NREC / best);
	printf("reader_scan_raw_mb_per_s: %.0f\n",
	       (double)st.raw_bytes / best / 1e6);
	free(g);
	return 0;
}
