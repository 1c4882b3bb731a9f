/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: `kfdtrace export --perfetto` of a trace of BENCH_IOCTLS
 * ioctls (default one million), as trace-event JSON and as Perfetto's
 * protobuf format: output bytes per ioctl and as a ratio to the trace
 * file's size, export time per ioctl and as a ratio to the host's system
 * call cost, and each run's peak memory. The trace is the benchmarks'
 * (tc_bench_trace.h): a program that allocates a BO, maps it, waits for
 * an event, unmaps and frees an older one, over and over on two threads,
 * keeping 64 BOs alive (lifetimes, counters and arguments as a real one
 * has).
 *
 * Usage: bench-perfetto PATH-TO-KFDTRACE [IOCTLS]
 * Exit status 1 when an export fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc_bench_trace.h"
#include "tc_host.h"
#include "tc_run.h"
#include "tc_scratch.h"

#define BENCH_IOCTLS 1000000

struct result {
	double wall, cpu;
	long rss_kib;
	long long bytes;
};

static int
export_one(const char *kfdtrace, const char *trace, const char *out,
	   struct result *res)
{
	char *argv[] = { (char *)kfdtrace, "export", "--perfetto", (char *)out,
			 (char *)trace, NULL };
	struct tc_timing t;
	struct stat st;

	if (tc_run_timed(argv, "/dev/null", &t) != 0 || stat(out, &st) != 0)
		return -1;
	res->wall = t.wall;
	res->cpu = t.cpu;
	res->rss_kib = t.max_rss_kib;
	res->bytes = (long long)st.st_size;
	return 0;
}

static void
print(const char *what, const struct result *r, unsigned long n,
      long long trace_bytes, double syscall_ns)
{
	double ns = r->wall * 1e9 / (double)n;

	printf("%s: %lld bytes, %.1f bytes/ioctl, %.2fx the trace; "
	       "%.2f s (%.0f ns/ioctl, %.1fx a syscall), peak %ld MiB\n",
	       what, r->bytes, (double)r->bytes / (double)n,
	       (double)r->bytes / (double)trace_bytes, r->wall, ns,
	       ns / syscall_ns, r->rss_kib / 1024);
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-XXXXXX";
	char path[256], json[256], proto[256];
	unsigned long n = BENCH_IOCTLS;
	struct result rj, rp;
	double syscall_ns;
	struct stat st;
	int rc = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE [IOCTLS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		n = strtoul(argv[2], NULL, 10);
	if (n < 5 || !mkdtemp(dir)) {
		fprintf(stderr, "bench-perfetto: bad count or no scratch dir\n");
		return 1;
	}
	tc_host_costs();
	syscall_ns = tc_host_cost_ns(tc_host_syscalls, 200000, 5);
	snprintf(path, sizeof(path), "%s/bench.kft", dir);
	snprintf(json, sizeof(json), "%s/bench.json", dir);
	snprintf(proto, sizeof(proto), "%s/bench.pftrace", dir);
	if (tc_bench_trace(path, n) != 0 || stat(path, &st) != 0) {
		fprintf(stderr, "bench-perfetto: writing the trace failed\n");
		goto out;
	}
	printf("trace: %lu ioctls, %lld bytes (%.1f bytes/ioctl)\n", n,
	       (long long)st.st_size, (double)st.st_size / (double)n);
	if (export_one(argv[1], path, proto, &rp) ||
	    export_one(argv[1], path, json, &rj)) {
		fprintf(stderr, "bench-perfetto: the export failed\n");
		goto out;
	}
	print("proto", &rp, n, (long long)st.st_size, syscall_ns);
	print("json", &rj, n, (long long)st.st_size, syscall_ns);
	printf("proto/json: %.3f of the bytes, %.2f of the time\n",
	       (double)rp.bytes / (double)rj.bytes, rp.wall / rj.wall);
	rc = 0;
out:
	/* KFDTRACE_BENCH_KEEP=1 keeps the files for profiling. */
	tc_scratch_remove(dir, "KFDTRACE_BENCH_KEEP");
	return rc;
}
