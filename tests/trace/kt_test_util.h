/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the trace tests: deterministic records of every kind, record
 * comparison, temporary files, and an independent walk of a trace's frames
 * written from the specification (not from the library's code).
 */
#ifndef KT_TEST_UTIL_H
#define KT_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "kfdtrace/trace.h"

/* A generated record and the storage its pointers point into. */
struct kt_test_rec {
	struct kt_record rec;
	uint8_t arg_before[256];
	uint8_t arg_after[256];
	struct kt_buf_image bufs[4];
	uint8_t bufdata[4][2][300];
	char s1[320];
	char s2[700];
	uint8_t argv[200];
	struct kt_topo_file files[5];
	char paths[5][80];
	uint8_t fdata[5][128];
	uint8_t packets[256];
	struct kt_xfer_fd xfds[8];
};

/*
 * kt_test_header_init() - kt_header_init() with start_monotonic at 1 s,
 * where the generators' record times begin: a real start (the machine's
 * uptime) would put them before the header's start, which a reader
 * refuses (docs/trace-format.md section 5.1).
 */
void kt_test_header_init(struct kt_header *hdr, const char *producer);

/*
 * kt_test_gen() - record number @i of generator thread @t. Everything but
 * seq is a function of (@t, @i); tid is 1000 + @t. Types cycle through
 * ioctl..api_call and submit (never END).
 */
void kt_test_gen(struct kt_test_rec *g, unsigned int t, uint64_t i);

/* An ioctl with @arg_size argument bytes, KFD-like contents (benchmarks). */
void kt_test_gen_ioctl(struct kt_test_rec *g, uint64_t i, uint32_t arg_size);

/*
 * kt_test_gen_rocm() - ioctl number @i of a synthetic rocminfo-like
 * stream: mostly ALLOC_MEMORY_OF_GPU and MAP_MEMORY_TO_GPU with realistic
 * argument contents, some clock counters, events and small queries, a few
 * microseconds apart. Deterministic in @i.
 */
void kt_test_gen_rocm(struct kt_test_rec *g, uint64_t i);

/*
 * kt_test_rec_diff() - compare two records field by field and byte by byte.
 * @cmp_seq: also compare seq
 * Return: NULL when equal, else the name of the first differing field.
 */
const char *kt_test_rec_diff(const struct kt_record *a,
			     const struct kt_record *b, bool cmp_seq);

/* A fresh path in a private temporary directory (removed at exit). */
const char *kt_test_path(const char *name);

/* The time of @clock in seconds (benchmarks). */
double kt_test_now_s(clockid_t clock);

/* Read a whole file; abort()s the test on failure. Caller frees. */
uint8_t *kt_test_slurp(const char *path, size_t *len);

/* A frame of a trace, found by walking the bytes per the spec. */
struct kt_test_frame {
	size_t off;
	size_t size;
	bool data;		/* zstd data frame */
	uint32_t tag;		/* first 4 bytes of a skippable payload */
};

/*
 * kt_test_walk() - list the frames of a complete trace image (header
 * first). Return: the number of frames, or -1 if the image is malformed.
 */
int kt_test_walk(const uint8_t *data, size_t len, struct kt_test_frame *out,
		 int max);

/*
 * kt_test_index_records() - for each data frame in @frames, the record
 * count its index entry gives (parsed here from the spec's layout), or -1.
 */
void kt_test_index_records(const uint8_t *data,
			   const struct kt_test_frame *frames, int nframes,
			   long *records);

/* Byte builder for hand-made frames. */
struct kt_bb {
	uint8_t *p;
	size_t len, cap;
};

void kt_bb_u8(struct kt_bb *b, uint8_t v);
void kt_bb_le32(struct kt_bb *b, uint32_t v);
void kt_bb_le64(struct kt_bb *b, uint64_t v);
void kt_bb_varint(struct kt_bb *b, uint64_t v);
void kt_bb_bytes(struct kt_bb *b, const void *p, size_t n);
void kt_bb_free(struct kt_bb *b);

/* CRC-32 written for the tests (bitwise), to check the library's. */
uint32_t kt_test_crc32(const void *p, size_t n);

/*
 * kt_test_trace_with() - a trace: the given header bytes (NULL: a valid
 * default header) followed by one zstd frame whose content is @raw.
 */
void kt_test_trace_with(struct kt_bb *out, const uint8_t *raw, size_t rawlen);

/* A valid header frame for a default header. */
void kt_test_header_frame(struct kt_bb *out);

#endif /* KT_TEST_UTIL_H */
