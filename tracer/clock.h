/* SPDX-License-Identifier: MIT */
/*
 * CLOCK_MONOTONIC, cheaper. Every recorded ioctl takes two timestamps, and
 * clock_gettime() costs 40-60 ns on the virtual machines we run on, where
 * the time stamp counter itself costs 20. Where the kernel keeps time with
 * an invariant TSC, this extrapolates CLOCK_MONOTONIC from the TSC between
 * anchors taken with clock_gettime() every few milliseconds, so it follows
 * the kernel's own rate, NTP slewing included. Elsewhere it is
 * clock_gettime(). Per thread, it never goes backwards.
 */
#ifndef KFD_CLOCK_H
#define KFD_CLOCK_H

#include <stdint.h>

/* kfd_clock_ns() - CLOCK_MONOTONIC in ns (within a few ns of it). */
uint64_t kfd_clock_ns(void);

/* kfd_clock_uses_tsc() - 1 when the TSC path is in use (for tests). */
int kfd_clock_uses_tsc(void);

#endif /* KFD_CLOCK_H */
