/* SPDX-License-Identifier: MIT */
/*
 * The benchmark's yardstick: a plain lttng-ust event with ten integers of
 * kfd:alloc_memory_of_gpu (60 bytes), its arguments passed by value as
 * lttng-ust's documentation shows. The event's request, mmap_offset_in
 * and flags_names are left out: lttng-ust takes at most ten arguments.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER kfdbench
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "bench_tp.h"

#if !defined(BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(kfdbench, alloc,
	LTTNG_UST_TP_ARGS(int, fd, uint64_t, va_addr, uint64_t, size,
			  uint64_t, handle, uint64_t, mmap_offset,
			  uint32_t, gpu_id, uint32_t, flags, int, ret, int, err,
			  uint64_t, dur_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, fd, fd)
		lttng_ust_field_integer_hex(uint64_t, va_addr, va_addr)
		lttng_ust_field_integer(uint64_t, size, size)
		lttng_ust_field_integer_hex(uint64_t, handle, handle)
		lttng_ust_field_integer_hex(uint64_t, mmap_offset, mmap_offset)
		lttng_ust_field_integer(uint32_t, gpu_id, gpu_id)
		lttng_ust_field_integer_hex(uint32_t, flags, flags)
		lttng_ust_field_integer(int, ret, ret)
		lttng_ust_field_integer(int, err, err)
		lttng_ust_field_integer(uint64_t, dur_ns, dur_ns)))

#endif /* BENCH_TP_H */

#include <lttng/tracepoint-event.h>
