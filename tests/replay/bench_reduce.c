/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace reduce on a capture of about 11,000 ioctls (rp_oom with 100
 * rounds of noise between 4 GiB allocations, on AMD's libhsakmt): its
 * time, the candidates it tried, and its time as a ratio of one replay of
 * the whole capture, with the host's system call and rdtsc cost beside
 * them. Target: within 60 s on kfdsim. Exit 1 when missed or
 * when the result keeps more than 30 ioctls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_host.h"
#include "tc_run.h"

static unsigned long
after(const char *out, const char *key, int second)
{
	const char *p = strstr(out, key);
	char *end;
	unsigned long v;

	if (!p)
		return 0;
	v = strtoul(p + strlen(key), &end, 10);
	return second ? strtoul(strstr(end, ", ") + 2, NULL, 10) : v;
}

int
main(void)
{
	const char *kfdtrace = getenv("KFDTRACE"), *oom = getenv("RP_OOM");
	char dir[] = "/tmp/kfdtrace-bench-reduce-XXXXXX", in[96], red[96];
	struct tc_run res;
	double t0, t_replay, t_reduce;
	int ret = 0;

	if (!kfdtrace || !oom || !mkdtemp(dir)) {
		fprintf(stderr, "bench_reduce: KFDTRACE and RP_OOM must be set\n");
		return 1;
	}
	snprintf(in, sizeof(in), "%s/in.kft", dir);
	snprintf(red, sizeof(red), "%s/red.kft", dir);
	tc_host_costs();
	if (tc_run((char *const[]){ (char *)kfdtrace, "record", "-o", in, "--sim",
				   "--", (char *)oom, "0", "100", NULL }, &res) ||
	    res.status) {
		fprintf(stderr, "bench_reduce: the capture failed:\n%s%s", res.out,
			res.err);
		return 1;
	}
	tc_run_free(&res);
	t0 = tc_host_now();
	tc_run((char *const[]){ (char *)kfdtrace, "replay", "--sim",
			       "--verify=results", in, NULL }, &res);
	t_replay = tc_host_now() - t0;
	tc_run_free(&res);
	t0 = tc_host_now();
	if (tc_run((char *const[]){ (char *)kfdtrace, "reduce", in, "-o", red,
				   NULL }, &res) || res.status) {
		fprintf(stderr, "bench_reduce: reduce failed:\n%s%s", res.out,
			res.err);
		return 1;
	}
	t_reduce = tc_host_now() - t0;
	printf("ioctls_before: %lu\n", after(res.out, "before:  ", 1));
	printf("ioctls_after: %lu\n", after(res.out, "after:   ", 1));
	printf("candidates: %lu\n", after(res.out, "tests:   ", 0));
	printf("reduce_s: %.2f\n", t_reduce);
	printf("replay_whole_s: %.3f\n", t_replay);
	printf("ratio_reduce_vs_one_replay: %.1f\n", t_reduce / t_replay);
	if (t_reduce > 60 || after(res.out, "after:   ", 1) > 30)
		ret = 1;
	printf("target: reduce within 60 s, at most 30 ioctls left (%s)\n",
	       ret ? "not met" : "met");
	tc_run_free(&res);
	unlink(in);
	unlink(red);
	rmdir(dir);
	return ret;
}
