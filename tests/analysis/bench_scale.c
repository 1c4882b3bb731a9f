/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: `kfdtrace diff` (a trace against itself) and `kfdtrace
 * report` on traces of 10,000 and 100,000 threads (`analysis-gen
 * threads`: two calls a thread, interleaved), and the report on 10^6:
 * time per thread, and the growth as a ratio, time at 10N / time at N /
 * 10, which is about 1 (or below, where start-up counts) for work linear
 * in the threads and about 10 for quadratic work. Each figure is the best
 * of three runs.
 *
 * Target: every ratio at most BENCH_MAX_RATIO.
 *
 * Usage: bench-scale PATH-TO-KFDTRACE PATH-TO-ANALYSIS-GEN
 * Exit status 1 when a command fails or the target is missed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_host.h"
#include "tc_run.h"
#include "tc_scratch.h"

#define BENCH_MAX_RATIO 2.0
#define BENCH_RUNS 3

static const char *kfdtrace, *gen;
static char dir[] = "/tmp/kfdtrace-bench-XXXXXX";

/* The best wall time of BENCH_RUNS runs of @argv; < 0 when one failed. */
static double
best_of(char *const argv[], int want_status)
{
	struct tc_timing t;
	double best = -1;
	int i;

	for (i = 0; i < BENCH_RUNS; i++) {
		if (tc_run_timed(argv, "/dev/null", &t) != want_status)
			return -1;
		if (best < 0 || t.wall < best)
			best = t.wall;
	}
	return best;
}

/* Time diff and (when @report) report on a trace of @n threads. */
static int
measure(unsigned long n, double *diff, double *report)
{
	char trace[256], html[256], count[32];
	char *g[] = { (char *)gen, "threads", trace, count, NULL };
	char *d[] = { (char *)kfdtrace, "diff", "-q", trace, trace, NULL };
	char *r[] = { (char *)kfdtrace, "report", "-f", trace, "-o", html,
		      NULL };
	struct tc_timing t;

	snprintf(trace, sizeof(trace), "%s/threads-%lu.kft", dir, n);
	snprintf(html, sizeof(html), "%s/threads-%lu.html", dir, n);
	snprintf(count, sizeof(count), "%lu", n);
	if (tc_run_timed(g, "/dev/null", &t) != 0)
		return -1;
	if (diff && (*diff = best_of(d, 0)) < 0)
		return -1;
	if ((*report = best_of(r, 0)) < 0)
		return -1;
	unlink(trace);
	unlink(html);
	return 0;
}

static void
print(const char *what, unsigned long n, double s, double syscall_ns)
{
	double ns = s * 1e9 / (double)n;

	printf("%s at %lu threads: %.3f s, %.0f ns/thread (%.1fx syscall)\n",
	       what, n, s, ns, ns / syscall_ns);
}

static double
ratio(const char *name, double small, double big)
{
	double r = big / small / 10;

	printf("ratio_%s: %.2f (time at 10x the threads / time / 10)\n", name,
	       r);
	return r;
}

int
main(int argc, char **argv)
{
	double d1, d2, r1, r2, r3, syscall_ns, worst = 0, v;
	int rc = 1;

	if (argc < 3) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE PATH-TO-ANALYSIS-GEN\n",
			argv[0]);
		return 2;
	}
	kfdtrace = argv[1];
	gen = argv[2];
	if (!mkdtemp(dir)) {
		fprintf(stderr, "bench-scale: no scratch dir\n");
		return 1;
	}
	tc_host_costs();
	syscall_ns = tc_host_cost_ns(tc_host_syscalls, 200000, 5);
	if (measure(10000, &d1, &r1) || measure(100000, &d2, &r2) ||
	    measure(1000000, NULL, &r3)) {
		fprintf(stderr, "bench-scale: a command failed\n");
		goto out;
	}
	print("diff", 10000, d1, syscall_ns);
	print("diff", 100000, d2, syscall_ns);
	print("report", 10000, r1, syscall_ns);
	print("report", 100000, r2, syscall_ns);
	print("report", 1000000, r3, syscall_ns);
	if ((v = ratio("diff", d1, d2)) > worst)
		worst = v;
	if ((v = ratio("report", r1, r2)) > worst)
		worst = v;
	if ((v = ratio("report_1m", r2, r3)) > worst)
		worst = v;
	rc = worst > BENCH_MAX_RATIO;
	printf("target: every ratio <= %.1f, linear in threads (%s)\n",
	       BENCH_MAX_RATIO, rc ? "not met" : "met");
out:
	/* KFDTRACE_BENCH_KEEP=1 keeps the files for profiling. */
	tc_scratch_remove(dir, "KFDTRACE_BENCH_KEEP");
	return rc;
}
