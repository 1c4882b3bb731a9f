/* SPDX-License-Identifier: MIT */
/*
 * Benchmark, on one trace of a million ioctls written by the real writer
 * (allocations, maps with a device list, waits with event data, frees,
 * unknown requests):
 *
 *  - `kfdtrace export --ctf` throughput, in records per second;
 *  - `kfdtrace dump TRACE` against `babeltrace2 CTF-DIR` printing the
 *    export of the same trace, both to /dev/null. Target: dump at least
 *    ten times faster.
 *
 * Times are the children's CPU time (user + system), which other load on
 * the machine disturbs less than wall time; wall times are printed too.
 *
 * Usage: bench-bt2 KFDTRACE GEN-BT2-TRACE BABELTRACE2 [RECORDS]
 * Exit status 1 when the target is missed or a step fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_host.h"

#define TARGET_RATIO 10.0

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-bt2-XXXXXX", trace[300], ctf[300];
	const char *n = argc > 4 ? argv[4] : "1000000";
	struct tc_timing gen, exp, dump, bt2;
	double records, ratio;
	int rc = 1;

	tc_host_costs();
	if (argc < 4) {
		fprintf(stderr, "usage: %s KFDTRACE GEN-BT2-TRACE BABELTRACE2 "
			"[RECORDS]\n", argv[0]);
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(trace, sizeof(trace), "%s/bench.kfdtrace", dir);
	snprintf(ctf, sizeof(ctf), "%s/ctf", dir);
	records = strtod(n, NULL) + 1;	/* the ioctls and the END record */
	{
		char *g[] = { argv[2], "bench", trace, (char *)n, NULL };
		char *e[] = { argv[1], "export", "--ctf", ctf, trace, NULL };
		char *d[] = { argv[1], "dump", trace, NULL };
		char *b[] = { argv[3], ctf, NULL };

		if (tc_run_timed(g, "/dev/null", &gen) != 0) {
			fprintf(stderr, "bench-bt2: writing the trace failed\n");
			goto out;
		}
		if (tc_run_timed(e, "/dev/null", &exp) != 0) {
			fprintf(stderr, "bench-bt2: kfdtrace export failed\n");
			goto out;
		}
		if (tc_run_timed(d, "/dev/null", &dump) != 0 ||
		    tc_run_timed(b, "/dev/null", &bt2) != 0) {
			fprintf(stderr, "bench-bt2: dump or babeltrace2 failed\n");
			goto out;
		}
	}
	ratio = bt2.cpu / (dump.cpu > 0 ? dump.cpu : 1e-9);
	printf("trace: %.0f records\n", records);
	printf("kfdtrace export --ctf: %.2f s cpu (%.2f s wall), %.0f records/s\n",
	       exp.cpu, exp.wall, records / exp.cpu);
	printf("kfdtrace dump:         %.2f s cpu (%.2f s wall), %.0f records/s\n",
	       dump.cpu, dump.wall, records / dump.cpu);
	printf("babeltrace2 (CTF):     %.2f s cpu (%.2f s wall), %.0f records/s\n",
	       bt2.cpu, bt2.wall, records / bt2.cpu);
	printf("dump is %.1fx faster than babeltrace2 (target %.0fx; wall %.1fx)\n",
	       ratio, TARGET_RATIO, bt2.wall / dump.wall);
	rc = ratio >= TARGET_RATIO ? 0 : 1;
	if (rc)
		fprintf(stderr, "bench-bt2: below the target\n");
out:
	tc_scratch_remove(dir, NULL);
	return rc;
}
