/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the replay planner (kfd_replay_open(), which reads a
 * whole trace and builds its object model, and kfd_replay_print_plan())
 * on a trace with a valid header and hostile records: the records are
 * built from the input (fuzz_record.h) and written with the trace writer,
 * so they pass the reader and reach the planner -- ioctls on fds never
 * opened, handles never allocated, mmaps of unknown offsets, closes of
 * unknown fds, sequence numbers out of order.
 *
 * Input: u8 header choices (bit 0: simulated, bits 1-5: KFD minor), u8
 * record count, then that many records in fuzz_record.h's layout; a
 * record whose selector byte is odd keeps its own sequence number, the
 * others are numbered in order. Then a string for kfd_replay_parse_gpu_map()
 * and one for kfd_replay_check_kinds().
 *
 * Run e.g.: ./replay_plan_fuzz -max_len=16384 new_corpus/ tests/fuzz/corpus/replay_plan/
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfdtrace/replay.h"
#include "kfdtrace/trace.h"

#include "fuzz_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS	64

static char path[256];
static FILE *devnull;

static void __attribute__((destructor))
drop_file(void)
{
	if (path[0])
		unlink(path);
}

static int
write_trace(struct fz *f)
{
	struct kt_writer_opts wo = { .frame_raw_size = 4096 };
	struct kt_writer *w;
	struct kt_header hdr;
	uint8_t h = fz_u8(f);
	unsigned int n = fz_u8(f) % (MAX_RECORDS + 1);
	uint64_t seq = 1, lo, hi;

	kt_header_init(&hdr, "kfdtrace-capture");
	hdr.kfd_major = 1;
	hdr.kfd_minor = (h >> 1) & 31;
	hdr.flags = h & 1 ? KT_HDR_SIMULATED : 0;
	kt_header_ts_range(&hdr, &lo, &hi);
	unlink(path);
	if (kt_writer_open(path, &hdr, &wo, &w))
		return -1;
	for (unsigned int i = 0; i < n && fz_left(f); i++) {
		struct kt_record rec;
		int keep = fz_left(f) && (*f->p & 1);

		fz_record(f, &rec);
		/* Into the header's clock range, or the read stops here. */
		rec.ts = lo + rec.ts % (hi - lo);
		if (!keep)
			rec.seq = seq++;
		kt_writer_append(w, &rec);
		fz_free(f);
	}
	/* A failed close still leaves a readable (maybe truncated) trace. */
	kt_writer_close(w);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kfd_replay_gpu_pair pairs[8];
	struct kfd_replay *r = NULL;
	char err[256], bad[64];
	struct fz f;
	char *s;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/kt-replay-fuzz-%d.kfdt", (int)getpid());
		devnull = fopen("/dev/null", "we");
		if (!devnull)
			return 0;
	}
	fz_init(&f, data, size);
	if (write_trace(&f) == 0 && kfd_replay_open(path, &r, err, sizeof(err)) == 0) {
		kfd_replay_print_plan(r, devnull);
		kfd_replay_close(r);
	}
	s = fz_str(&f, 256);
	if (s)
		kfd_replay_parse_gpu_map(s, pairs, 8);
	s = fz_str(&f, 256);
	if (s)
		kfd_replay_check_kinds(s, bad, sizeof(bad));
	fz_free(&f);
	return 0;
}
