/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks' generated trace (dump throughput, Perfetto export): one
 * mix of calls, written with the real writer, so that their figures
 * describe the same records.
 */
#ifndef KFDTRACE_TC_BENCH_TRACE_H
#define KFDTRACE_TC_BENCH_TRACE_H

/* Buffer objects the mix keeps alive at once. */
#define TC_BENCH_LIVE_BOS 64

/*
 * tc_bench_trace() - write @n ioctls to @path: cycles of six calls on two
 * threads taking turns, as a program that streams buffers does: allocate
 * BO k, map it on two GPUs (a device list), wait for an event (with its
 * event data), unmap and free the BO allocated TC_BENCH_LIVE_BOS cycles
 * ago (the first such frees fail, EINVAL: nothing to free yet), and an
 * unknown request (ENOTTY). Timestamps start three days after boot, as
 * long as a real trace's.
 *
 * Return: 0, or the writer's negative error.
 */
int tc_bench_trace(const char *path, unsigned long n);

#endif /* KFDTRACE_TC_BENCH_TRACE_H */
