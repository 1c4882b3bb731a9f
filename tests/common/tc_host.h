/* SPDX-License-Identifier: MIT */
/*
 * The host's own costs, printed beside every benchmark's figures: a
 * system call (each ioctl on a real /dev/kfd is one) and rdtsc (clocks
 * and timing read it). Absolute times differ several-fold between our
 * machines; these say which kind of machine a run was on. Header only,
 * so that programs built by other compilers (hipcc) use it too.
 */
#ifndef TC_HOST_H
#define TC_HOST_H

#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static inline double
tc_host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* tc_host_ns() - clock @id in ns. */
static inline uint64_t
tc_host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The least of @rounds timings of @iters calls of @fn, in ns a call. */
static inline double
tc_host_cost_ns(void (*fn)(unsigned long), unsigned long iters, int rounds)
{
	double best = 0;

	for (int i = 0; i < rounds; i++) {
		double t0 = tc_host_now(), ns;

		fn(iters);
		ns = (tc_host_now() - t0) * 1e9 / (double)iters;
		if (!i || ns < best)
			best = ns;
	}
	return best;
}

static inline void
tc_host_syscalls(unsigned long n)
{
	while (n--)
		syscall(SYS_getppid);
}

#if defined(__x86_64__) || defined(__i386__)
static volatile uint64_t tc_host_tsc_sink;

static inline void
tc_host_rdtscs(unsigned long n)
{
	uint64_t s = 0;

	while (n--)
		s += __rdtsc();
	tc_host_tsc_sink = s;
}
#endif

/* tc_host_costs() - print host_syscall_ns and host_rdtsc_ns lines. */
static inline void
tc_host_costs(void)
{
	printf("host_syscall_ns: %.1f (getppid, best of 5)\n",
	       tc_host_cost_ns(tc_host_syscalls, 200000, 5));
#if defined(__x86_64__) || defined(__i386__)
	printf("host_rdtsc_ns: %.1f (best of 5)\n",
	       tc_host_cost_ns(tc_host_rdtscs, 2000000, 5));
#else
	printf("host_rdtsc_ns: n/a (not x86)\n");
#endif
}

#endif
