/* SPDX-License-Identifier: MIT */
#ifndef KT_TRACE_MUTATE_H
#define KT_TRACE_MUTATE_H

#include <stddef.h>
#include <stdint.h>

/*
 * kt_fuzz_trace_mutate() - one structural mutation of the trace in @data
 * (@size bytes, room for @max), chosen by @seed: a frame deleted, repeated,
 * moved or spliced in, an index entry changed under a valid CRC, a huge
 * content size, a cut at a frame boundary, a data frame's base records
 * given distinct tids (recompressed). Frames stay intact.
 *
 * Return: the new size (the old one when the mutation did not apply).
 */
size_t kt_fuzz_trace_mutate(uint8_t *data, size_t size, size_t max,
			    uint32_t seed);

#endif
