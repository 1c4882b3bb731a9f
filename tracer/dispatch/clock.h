/* SPDX-License-Identifier: MIT */
/*
 * CLOCK_MONOTONIC, cheaper. Every recorded ioctl takes two timestamps, and
 * clock_gettime() costs 40-60 ns on the virtual machines we run on, where
 * the time stamp counter itself costs 20. Where the kernel keeps time with
 * an invariant TSC, this extrapolates CLOCK_MONOTONIC from the TSC between
 * anchors taken with clock_gettime() every few milliseconds, so it follows
 * the kernel's own rate, NTP slewing included. Elsewhere it is
 * clock_gettime(). Per thread, it never goes backwards.
 *
 * The extrapolation is inline: it is a handful of instructions around the
 * TSC read, fewer than a call would add. Everything else is in clock.c.
 */
#ifndef KFD_CLOCK_H
#define KFD_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/*
 * The anchor and the rate (ns per tick as 32.32 fixed point), under a
 * sequence lock: seq is odd while clock.c changes them. period is the
 * anchor's lifetime in ticks, 0 while there is no rate (or no TSC path).
 */
struct kfd_clock_state {
	atomic_uint seq;
	_Atomic uint64_t base_tsc;
	_Atomic uint64_t base_ns;
	_Atomic uint64_t mult;
	_Atomic uint64_t period;
};

extern struct kfd_clock_state kfd_clk;
/* The thread's last reading: readings never go backwards on a thread. */
extern __thread uint64_t kfd_clk_last __attribute__((tls_model("initial-exec")));

/* Everything but a plain extrapolation: setup, re-anchoring, no TSC. */
uint64_t kfd_clock_slow(void);

/* kfd_clock_ns() - CLOCK_MONOTONIC in ns (within a few ns of it). */
static inline uint64_t
kfd_clock_ns(void)
{
	uint64_t ns;
#if defined(__x86_64__)
	uint64_t tsc = __rdtsc(), base_tsc, base_ns, mult, period;
	unsigned int s;

	s = atomic_load_explicit(&kfd_clk.seq, memory_order_acquire);
	base_tsc = atomic_load_explicit(&kfd_clk.base_tsc, memory_order_relaxed);
	base_ns = atomic_load_explicit(&kfd_clk.base_ns, memory_order_relaxed);
	mult = atomic_load_explicit(&kfd_clk.mult, memory_order_relaxed);
	period = atomic_load_explicit(&kfd_clk.period, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	/*
	 * One comparison sends every case that is not a plain extrapolation
	 * to the slow path: period is 0 until there is a rate, and the
	 * unsigned difference is huge for a reading before the anchor
	 * (another CPU's reading raced an update).
	 */
	if (__builtin_expect(!(s & 1) && tsc - base_tsc < period &&
			     atomic_load_explicit(&kfd_clk.seq,
						  memory_order_relaxed) == s, 1))
		ns = base_ns + (((tsc - base_tsc) * mult) >> 32);
	else
		ns = kfd_clock_slow();
#else
	ns = kfd_clock_slow();
#endif
	/* Anchors and extrapolations may disagree by a few ns. */
	if (ns < kfd_clk_last)
		ns = kfd_clk_last;
	kfd_clk_last = ns;
	return ns;
}

/* kfd_clock_uses_tsc() - 1 when the TSC path is in use (for tests). */
int kfd_clock_uses_tsc(void);

#endif /* KFD_CLOCK_H */
