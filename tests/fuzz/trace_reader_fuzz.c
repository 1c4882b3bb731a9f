/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the trace reader over arbitrary bytes. Built only with
 * -Dfuzz=true and clang. Run e.g.:
 *   ./trace_reader_fuzz -max_len=65536 new_corpus/ tests/fuzz/corpus/trace_reader/
 *
 * A third of the mutations are structural (trace_mutate.c): frames stay
 * intact and the file around them changes, which byte flips behind
 * checksums almost never reach. The regression driver runs 32 of them on
 * every seed too (kt_fuzz_regress_extra()).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace_mutate.h"
#include "trace_reader_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);
/* libFuzzer's own mutator; absent from the regression driver's build. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
	__attribute__((weak));
int kt_fuzz_regress_extra(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kt_fuzz_trace_reader(data, size);
	return 0;
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			unsigned int seed)
{
	if (seed % 3 == 0 || !LLVMFuzzerMutate)
		return kt_fuzz_trace_mutate(data, size, max_size, seed);
	return LLVMFuzzerMutate(data, size, max_size);
}

int
kt_fuzz_regress_extra(const uint8_t *data, size_t size)
{
	size_t max = size * 2 + 64;
	uint8_t *buf = malloc(max);

	if (!buf)
		return -1;
	for (uint32_t seed = 1; seed <= 32; seed++) {
		size_t n;

		memcpy(buf, data, size);
		n = kt_fuzz_trace_mutate(buf, size, max, seed * 2654435761u);
		kt_fuzz_trace_reader(buf, n);
	}
	free(buf);
	return 0;
}
