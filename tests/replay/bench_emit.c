/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace emit-c on a synthetic capture of 100,000 ioctls (rp_gen on
 * kfdsim): its time (best of 3) against the target (issue 17: within 5 s),
 * and as a ratio of one `kfdtrace dump` of the same trace; then the
 * program of a 10,000-ioctl capture, built with gcc -O0 (its build time),
 * and its run on kfdsim as a ratio of `kfdtrace replay` of that capture.
 * The host's system call and rdtsc cost are printed beside them. Exit 1
 * when the target is missed or a program does not exit 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_host.h"
#include "tc_run.h"

static const char *kfdtrace, *gen, *gcc;
static char dir[] = "/tmp/kfdtrace-bench-emit-XXXXXX";

/* Run @argv; its seconds, or -1 when it did not exit 0. */
static double
timed(char *const argv[], int quiet)
{
	struct tc_run res;
	double t0 = tc_host_now(), t;
	int bad;

	bad = tc_run(argv, &res) || res.status;
	t = tc_host_now() - t0;
	if (bad && !quiet)
		fprintf(stderr, "bench_emit: %s failed:\n%s%s", argv[0], res.out,
			res.err);
	tc_run_free(&res);
	return bad ? -1 : t;
}

static int
capture(const char *path, const char *n)
{
	return timed((char *const[]){ (char *)kfdtrace, "sim", "--", (char *)gen,
				      (char *)path, (char *)n, NULL }, 0) < 0;
}

int
main(void)
{
	char big[96], small[96], bigc[96], smallc[96], bin[96];
	double best = 0, t, dump, build, run, replay;
	int i, ret = 0;

	kfdtrace = getenv("KFDTRACE");
	gen = getenv("RP_GEN");
	gcc = getenv("EMIT_GCC");
	if (!kfdtrace || !gen || !gcc || !*gcc || !mkdtemp(dir)) {
		fprintf(stderr, "bench_emit: KFDTRACE, RP_GEN and EMIT_GCC must be set\n");
		return 1;
	}
	snprintf(big, sizeof(big), "%s/big.kft", dir);
	snprintf(bigc, sizeof(bigc), "%s/big.c", dir);
	snprintf(small, sizeof(small), "%s/small.kft", dir);
	snprintf(smallc, sizeof(smallc), "%s/small.c", dir);
	snprintf(bin, sizeof(bin), "%s/small", dir);
	tc_host_costs();
	if (capture(big, "100000") || capture(small, "10000"))
		return 1;
	for (i = 0; i < 3; i++) {
		t = timed((char *const[]){ (char *)kfdtrace, "emit-c", "-f", big, "-o",
					   bigc, NULL }, 0);
		if (t < 0)
			return 1;
		if (!i || t < best)
			best = t;
	}
	dump = timed((char *const[]){ (char *)kfdtrace, "dump", big, NULL }, 1);
	printf("emit_100k_s: %.3f\n", best);
	if (dump > 0)
		printf("ratio_emit_vs_dump: %.1f\n", best / dump);
	if (best > 5)
		ret = 1;
	printf("target: emit-c of 100k ioctls within 5 s (%s)\n",
	       ret ? "not met" : "met");

	if (timed((char *const[]){ (char *)kfdtrace, "emit-c", small, "-o", smallc,
				   NULL }, 0) < 0)
		return 1;
	build = timed((char *const[]){ (char *)gcc, "-pthread", "-O0", "-o", bin,
				       smallc, NULL }, 0);
	run = timed((char *const[]){ (char *)kfdtrace, "sim", "--", bin, NULL }, 0);
	replay = timed((char *const[]){ (char *)kfdtrace, "replay", "--sim", small,
					NULL }, 0);
	if (build < 0 || run < 0 || replay < 0)
		return 1;
	printf("build_10k_gcc_O0_s: %.2f\n", build);
	printf("program_10k_s: %.3f\n", run);
	printf("replay_10k_s: %.3f\n", replay);
	printf("ratio_program_vs_replay: %.2f\n", run / replay);
	unlink(big);
	unlink(bigc);
	unlink(small);
	unlink(smallc);
	unlink(bin);
	rmdir(dir);
	return ret;
}
