/* SPDX-License-Identifier: MIT */
/*
 * The tracer's clock (see clock.h).
 *
 * State: an anchor (a TSC reading, the CLOCK_MONOTONIC time at it) and the
 * rate (ns per tick, as a 32.32 fixed-point number), published under a
 * sequence lock. A reading more than CLOCK_PERIOD_NS past the anchor moves
 * the anchor: the thread that wins the update takes clock_gettime(), and
 * the rate becomes the one measured over the interval just ended. Readers
 * never wait: while the state is being changed they use clock_gettime().
 *
 * The TSC path is used only where the kernel's own clocksource is "tsc"
 * (the kernel has then checked that the counters are synchronized across
 * CPUs) and the CPU says the TSC is invariant.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "clock.h"

/* How long an anchor lasts, and how long the first rate is measured. */
#define CLOCK_PERIOD_NS 4000000ull
#define CLOCK_CALIB_NS 2000000ull

struct kfd_clock_state kfd_clk __attribute__((aligned(64)));
__thread uint64_t kfd_clk_last __attribute__((tls_model("initial-exec")));
static atomic_int clk_writing;
static int clk_tsc;		/* set once by clock_setup() */
static pthread_once_t clk_once = PTHREAD_ONCE_INIT;

static uint64_t
libc_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static int clock_pair(uint64_t *tsc, uint64_t *ns);

/* Raw system calls: this may run inside an LD_PRELOAD wrapper. */
static int
clocksource_is_tsc(void)
{
	char buf[32] = "";
	long fd = syscall(SYS_openat, AT_FDCWD,
			  "/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  O_RDONLY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return 0;
	n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, fd);
	return n >= 3 && !strncmp(buf, "tsc", 3) && (buf[3] == '\n' || !buf[3]);
}

static void
clock_setup(void)
{
	unsigned int a, b, c, d;

	/* CPUID 0x80000007 EDX bit 8: invariant TSC. */
	uint64_t tsc, ns;

	if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)) &&
	    clocksource_is_tsc() && clock_pair(&tsc, &ns)) {
		atomic_store(&kfd_clk.base_tsc, tsc);
		atomic_store(&kfd_clk.base_ns, ns);
		clk_tsc = 1;
	}
}

/* Publish a new anchor and rate. The caller holds clk_writing. */
static void
clock_publish(uint64_t tsc, uint64_t ns, uint64_t mult)
{
	unsigned int s = atomic_load_explicit(&kfd_clk.seq, memory_order_relaxed);

	atomic_store_explicit(&kfd_clk.seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&kfd_clk.base_tsc, tsc, memory_order_relaxed);
	atomic_store_explicit(&kfd_clk.base_ns, ns, memory_order_relaxed);
	atomic_store_explicit(&kfd_clk.mult, mult, memory_order_relaxed);
	/* Ticks per period, so readers compare without dividing. */
	atomic_store_explicit(&kfd_clk.period, (CLOCK_PERIOD_NS << 32) / mult,
			      memory_order_relaxed);
	atomic_store_explicit(&kfd_clk.seq, s + 2, memory_order_release);
}

/*
 * Read the TSC and CLOCK_MONOTONIC as one pair: the TSC on both sides of
 * clock_gettime(), keeping the midpoint. A pair whose sides lie far apart
 * (the thread was preempted in between) is no good as an anchor: it would
 * shift every later reading by the delay. Return: 1 for a good pair.
 */
static int
clock_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 4; i++) {
		uint64_t t1 = __rdtsc();
		uint64_t n = libc_ns();
		uint64_t t2 = __rdtsc();

		if (t2 >= t1 && t2 - t1 < best) {
			best = t2 - t1;
			*tsc = t1 + (t2 - t1) / 2;
			*ns = n;
		}
	}
	/* 3000 ticks: about a microsecond on current CPUs, against the
	 * ~100 ns a clean reading takes. */
	return best < 3000;
}

/*
 * The anchor is stale (or there is no rate yet): take the real time, and
 * move the anchor if no other thread is doing it.
 */
static uint64_t
clock_reanchor(uint64_t base_tsc, uint64_t base_ns)
{
	uint64_t tsc, ns;
	int expected = 0;

	if (!clock_pair(&tsc, &ns))
		return libc_ns();
	if (ns - base_ns < CLOCK_CALIB_NS || tsc <= base_tsc)
		return ns;
	if (!atomic_compare_exchange_strong(&clk_writing, &expected, 1))
		return ns;
	/* Still the anchor we measured from? Another thread may have
	 * moved it between our reading and the lock. */
	if (atomic_load(&kfd_clk.base_tsc) == base_tsc) {
		/* 128 bits: after a long idle spell ns - base_ns is large. */
		uint64_t mult = (uint64_t)(((unsigned __int128)(ns - base_ns) << 32) /
					   (tsc - base_tsc));

		if (mult)
			clock_publish(tsc, ns, mult);
	}
	atomic_store(&clk_writing, 0);
	return ns;
}

/*
 * Everything but the extrapolation itself, out of the hot path: no rate
 * yet, a stale anchor, an update in progress.
 */
static __attribute__((noinline)) uint64_t
clock_tsc_slow(void)
{
	uint64_t base_tsc, base_ns;
	unsigned int s;

	s = atomic_load_explicit(&kfd_clk.seq, memory_order_acquire);
	if (s & 1)
		return libc_ns();
	base_tsc = atomic_load_explicit(&kfd_clk.base_tsc, memory_order_relaxed);
	base_ns = atomic_load_explicit(&kfd_clk.base_ns, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&kfd_clk.seq, memory_order_relaxed) != s)
		return libc_ns();
	return clock_reanchor(base_tsc, base_ns);
}
#else
static void
clock_setup(void)
{
}
#endif

static void
clock_setup_once(void)
{
	clock_setup();
}

uint64_t
kfd_clock_slow(void)
{
	pthread_once(&clk_once, clock_setup_once);
#if defined(__x86_64__)
	if (clk_tsc)
		return clock_tsc_slow();
#endif
	return libc_ns();
}

int
kfd_clock_uses_tsc(void)
{
	pthread_once(&clk_once, clock_setup_once);
	return clk_tsc;
}
