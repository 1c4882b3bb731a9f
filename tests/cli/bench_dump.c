/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: `kfdtrace dump` text lines per second (target: at least one
 * million). Writes the benchmarks' trace of BENCH_RECORDS ioctl records
 * (tc_bench_trace.h: allocations, maps with a device list, event waits
 * with event data, frees, failed calls and unknown requests), then times
 * the built binary dumping it to /dev/null, as text and as JSON.
 *
 * Usage: bench-dump PATH-TO-KFDTRACE [RECORDS]
 * Exit status 1 when text dumping is below the target.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc_bench_trace.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_host.h"

#define BENCH_RECORDS 1000000
#define TARGET_LINES_PER_S 1000000.0

/* Run kfdtrace with stdout on /dev/null; return seconds, or -1. */
static double
time_run(char *const argv[])
{
	struct tc_timing t;

	return tc_run_timed(argv, "/dev/null", &t) == 0 ? t.wall : -1;
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-XXXXXX";
	char path[256];
	unsigned long n = BENCH_RECORDS;
	double gen_s, text_s, json_s, t;
	struct stat st;
	int rc = 1;

	tc_host_costs();
	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE [RECORDS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		n = strtoul(argv[2], NULL, 10);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/bench.kft", dir);

	t = tc_now();
	if (tc_bench_trace(path, n) != 0 || stat(path, &st) != 0) {
		fprintf(stderr, "bench-dump: writing the trace failed\n");
		goto out;
	}
	gen_s = tc_now() - t;
	{
		char *text[] = { argv[1], "dump", path, NULL };
		char *json[] = { argv[1], "dump", "--json", path, NULL };

		text_s = time_run(text);
		json_s = time_run(json);
	}
	if (text_s <= 0 || json_s <= 0) {
		fprintf(stderr, "bench-dump: kfdtrace dump failed\n");
		goto out;
	}
	/* The writer must have kept every record, or the figure means little. */
	{
		char *end[] = { argv[1], "dump", "--filter", "end", path, NULL };
		char want[64];
		struct tc_run res;

		snprintf(want, sizeof(want), "records=%lu, lost=0)", n);
		if (tc_run(end, &res) || res.status != 0 ||
		    !strstr(res.out, want)) {
			fprintf(stderr, "bench-dump: trace incomplete: %s",
				res.out ? res.out : "?\n");
			tc_run_free(&res);
			goto out;
		}
		tc_run_free(&res);
	}
	/* n ioctl records plus the writer's END record. */
	printf("trace: %lu records, %lld bytes, written in %.2f s\n", n + 1,
	       (long long)st.st_size, gen_s);
	printf("dump text: %.2f s, %.0f lines/s\n", text_s,
	       (double)(n + 1) / text_s);
	printf("dump json: %.2f s, %.0f lines/s\n", json_s,
	       (double)(n + 1) / json_s);
	rc = (double)(n + 1) / text_s >= TARGET_LINES_PER_S ? 0 : 1;
	if (rc)
		printf("below the target of %.0f text lines/s\n",
		       TARGET_LINES_PER_S);
out:
	/* KFDTRACE_BENCH_KEEP=1 keeps the trace for profiling. */
	tc_scratch_remove(dir, "KFDTRACE_BENCH_KEEP");
	return rc;
}
