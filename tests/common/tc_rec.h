/* SPDX-License-Identifier: MIT */
/*
 * Trace records built from their parts, for the programs and tests that
 * write traces with the real writer. Each returns a record with only those
 * parts set; the caller adds sequence number, thread, times and buffer
 * images.
 */
#ifndef KFDTRACE_TC_REC_H
#define KFDTRACE_TC_REC_H

#include <stdint.h>

#include "kfdtrace/trace.h"

/*
 * tc_rec_ioctl() - an IOCTL record.
 * @before, @after:	the argument images (@size bytes each; may be NULL)
 */
struct kt_record tc_rec_ioctl(int fd, uint8_t file_kind, uint32_t request,
			      const void *before, const void *after,
			      uint32_t size, int64_t ret, int32_t err);

/* tc_rec_open() - an OPEN record: @path opened O_RDWR | O_CLOEXEC as @fd. */
struct kt_record tc_rec_open(const char *path, uint8_t file_kind, int fd);

#endif /* KFDTRACE_TC_REC_H */
