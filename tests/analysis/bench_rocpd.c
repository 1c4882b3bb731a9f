/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: `kfdtrace export --rocpd` of a trace of BENCH_IOCTLS ioctls
 * (default one million; the benchmarks' trace, tc_bench_trace.h) against
 * `export --perfetto --format proto` of the same trace: time, peak memory
 * and output bytes of each, and the ratio of the times. The target is a
 * ratio of at most 3 with memory that does not grow with the trace: the
 * rocpd export holds one process's threads, GPUs, queues and live BOs,
 * and SQLite's page cache, never the rows it wrote.
 *
 * Usage: bench-rocpd PATH-TO-KFDTRACE [IOCTLS]
 * Exit status 1 when an export fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tc_bench_trace.h"
#include "tc_run.h"
#include "tc_scratch.h"

#define BENCH_IOCTLS 1000000

struct result {
	double wall, cpu;
	long rss_kib;
	long long bytes;
};

static int
export_one(const char *kfdtrace, const char *trace, const char *opt,
	   const char *out, struct result *res)
{
	char *argv[] = { (char *)kfdtrace, "export", (char *)opt, (char *)out,
			 "--format", "proto", (char *)trace, NULL };
	struct tc_timing t;
	struct stat st;

	/* --format is a --perfetto option only. */
	if (opt[2] == 'r') {
		argv[4] = (char *)trace;
		argv[5] = NULL;
	}
	if (tc_run_timed(argv, "/dev/null", &t) != 0 || stat(out, &st) != 0)
		return -1;
	res->wall = t.wall;
	res->cpu = t.cpu;
	res->rss_kib = t.max_rss_kib;
	res->bytes = (long long)st.st_size;
	return 0;
}

static void
print(const char *what, const struct result *r, unsigned long n)
{
	printf("%s: %.2f s (%.0f ns/ioctl), %.2f s of CPU, peak %ld MiB, "
	       "%lld bytes (%.1f bytes/ioctl)\n", what, r->wall,
	       r->wall * 1e9 / (double)n, r->cpu, r->rss_kib / 1024, r->bytes,
	       (double)r->bytes / (double)n);
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-XXXXXX";
	char path[256], db[256], proto[256];
	unsigned long n = BENCH_IOCTLS;
	struct result rr, rp, rh;
	int rc = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE [IOCTLS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		n = strtoul(argv[2], NULL, 10);
	if (n < 10 || !mkdtemp(dir)) {
		fprintf(stderr, "bench-rocpd: bad count or no scratch dir\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/bench.kft", dir);
	snprintf(db, sizeof(db), "%s/bench.db", dir);
	snprintf(proto, sizeof(proto), "%s/bench.pftrace", dir);
	if (tc_bench_trace(path, n) != 0) {
		fprintf(stderr, "bench-rocpd: writing the trace failed\n");
		goto out;
	}
	if (export_one(argv[1], path, "--perfetto", proto, &rp) ||
	    export_one(argv[1], path, "--rocpd", db, &rr)) {
		fprintf(stderr, "bench-rocpd: an export failed\n");
		goto out;
	}
	print("perfetto proto", &rp, n);
	print("rocpd", &rr, n);
	/* CPU time as well: on a shared host the wall clock is noisy. */
	printf("rocpd/proto: %.2fx the time, %.2fx the CPU time (target <= 3)\n",
	       rr.wall / rp.wall, rr.cpu / (rp.cpu > 0 ? rp.cpu : 1e-9));
	/* Bounded memory: a tenth of the calls needs about as much. */
	snprintf(path, sizeof(path), "%s/small.kft", dir);
	snprintf(db, sizeof(db), "%s/small.db", dir);
	if (tc_bench_trace(path, n / 10) != 0 ||
	    export_one(argv[1], path, "--rocpd", db, &rh)) {
		fprintf(stderr, "bench-rocpd: the small export failed\n");
		goto out;
	}
	printf("rocpd peak memory: %ld MiB for %lu ioctls, %ld MiB for %lu\n",
	       rh.rss_kib / 1024, n / 10, rr.rss_kib / 1024, n);
	rc = 0;
out:
	/* KFDTRACE_BENCH_KEEP=1 keeps the files for profiling. */
	tc_scratch_remove(dir, "KFDTRACE_BENCH_KEEP");
	return rc;
}
