/* SPDX-License-Identifier: MIT */
#ifndef KT_FUZZ_TRACE_READER_ONE_H
#define KT_FUZZ_TRACE_READER_ONE_H

#include <stddef.h>
#include <stdint.h>

/*
 * kt_fuzz_trace_reader() - run one input through the reader: open it from
 * memory, read every record touching every byte it points to, seek, read
 * again. Shared by the libFuzzer target and the corpus regression driver.
 * Return: a digest of what was read (keeps the reads from being optimised
 * away); the interesting outcome is not crashing.
 */
uint64_t kt_fuzz_trace_reader(const uint8_t *data, size_t size);

#endif /* KT_FUZZ_TRACE_READER_ONE_H */
