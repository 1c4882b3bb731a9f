/* SPDX-License-Identifier: MIT */
/*
 * Writing traces with the real writer, for the kfdtrace command-line test
 * and benchmark: a record appender that keeps sequence numbers and times.
 * Running the binary is tests/common's (tc_run.h).
 */
#ifndef KFDTRACE_CLI_GEN_H
#define KFDTRACE_CLI_GEN_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "tc_rec.h"

/* A record appender that keeps the writer's sequence numbers. */
struct gen {
	struct kt_writer *w;
	uint64_t ts;			/* next record time */
	uint32_t tid;
};

/*
 * gen_open_hdr() - start a trace at @path with header @hdr and writer
 * options @opts (may be NULL); records start 1 us after the header's
 * clock reading. Return: 0 or a negative error.
 */
static inline int
gen_open_hdr(struct gen *g, const char *path, const struct kt_header *hdr,
	     const struct kt_writer_opts *opts)
{
	g->ts = hdr->start_monotonic + 1000;
	g->tid = 100;
	return kt_writer_open(path, hdr, opts, &g->w);
}

/* gen_open() - start a KFD ABI 1.14 trace at @path; 0 or a negative error. */
static inline int
gen_open(struct gen *g, const char *path, uint64_t start_ns)
{
	struct kt_header hdr;

	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = start_ns;
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	return gen_open_hdr(g, path, &hdr, NULL);
}

/* gen_put() - append with the next seq, tid and a time 1 us later. */
static inline int
gen_put(struct gen *g, struct kt_record *r)
{
	r->seq = kt_writer_next_seq(g->w);
	if (!r->tid)
		r->tid = g->tid;
	r->ts = g->ts;
	g->ts += 1000;
	return kt_writer_append(g->w, r);
}

/* gen_ioctl() - append an ioctl taking @lat_ns with before/after images. */
static inline int
gen_ioctl(struct gen *g, uint32_t request, const void *before,
	  const void *after, uint32_t size, int64_t ret, int32_t err,
	  uint64_t lat_ns, const struct kt_buf_image *bufs, uint16_t nbufs)
{
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD, request, before,
					  after, size, ret, err);

	r.u.ioctl.bufs = bufs;
	r.u.ioctl.nbufs = nbufs;
	r.seq = kt_writer_next_seq(g->w);
	r.tid = g->tid;
	r.ts = g->ts;
	r.u.ioctl.t_exit = g->ts + lat_ns;
	g->ts += 1000 + lat_ns;
	return kt_writer_append(g->w, &r);
}

#endif /* KFDTRACE_CLI_GEN_H */
