/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the trace reader over arbitrary bytes. Built only with
 * -Dfuzz=true and clang. Run e.g.:
 *   ./trace_reader_fuzz -max_len=65536 new_corpus/ tests/fuzz/corpus/trace_reader/
 */
#include <stddef.h>
#include <stdint.h>

#include "trace_reader_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kt_fuzz_trace_reader(data, size);
	return 0;
}
