/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: replay of a synthetic 1-million-ioctl trace on kfdsim with
 * --verify=strict. The trace is written first by rp_gen on the simulator
 * (not timed); rp_gen then issues the same calls again without recording,
 * which prints the simulator's own rate for them (the ceiling of any
 * replay on it); then `kfdtrace replay` runs and its summary gives the
 * rate of the replay proper (wall and CPU time), and the wall clock here
 * the rate including the planning pass and start-up. CPU figures are
 * printed too: they suffer less from other load on the machine.
 *
 * Environment: KFDTRACE, RP_GEN; BENCH_IOCTLS overrides the count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rp_summary.h"
#include "tc_run.h"
#include "tc_host.h"

/* The times of the last command run. */
static struct tc_timing last;

/* Run argv with stdout into @out (NULL: inherit); return the exit status. */
static int
run(char *const *argv, const char *out)
{
	return tc_run_timed(argv, out, &last);
}

int
main(void)
{
	const char *kfdtrace = getenv("KFDTRACE"), *gen = getenv("RP_GEN");
	const char *count = getenv("BENCH_IOCTLS");
	char dir[] = "/tmp/kfdtrace-bench-XXXXXX", trace[64], report[64];
	double t0, wall, secs = 0, rate = 0, sim_cpu = 0, pass_cpu = 0;
	unsigned long long ioctls = 0;
	struct rp_summary sm;
	int st, ret = 1;

	tc_host_costs();
	if (!kfdtrace || !gen || !mkdtemp(dir)) {
		fprintf(stderr, "bench_replay: KFDTRACE and RP_GEN must be set\n");
		return 1;
	}
	if (!count)
		count = "1000000";
	snprintf(trace, sizeof(trace), "%s/synthetic.kft", dir);
	snprintf(report, sizeof(report), "%s/report.txt", dir);

	st = run((char *const[]){ (char *)kfdtrace, "sim", "--", (char *)gen,
				  trace, (char *)count, NULL }, NULL);
	if (st != 0) {
		fprintf(stderr, "bench_replay: generating the trace failed\n");
		goto out;
	}
	/* The same calls without replaying anything: the simulator's ceiling. */
	run((char *const[]){ (char *)kfdtrace, "sim", "--", (char *)gen, "-",
			     (char *)count, NULL }, NULL);
	sim_cpu = last.cpu;
	t0 = tc_now();
	st = run((char *const[]){ (char *)kfdtrace, "replay", "--sim",
				  "--verify=strict", trace, NULL }, report);
	wall = tc_now() - t0;
	rp_summary_read(report, &sm);
	ioctls = sm.ioctls;
	secs = sm.secs;
	rate = sm.rate;
	pass_cpu = sm.cpu;
	if (sm.result[0])
		printf("bench_replay: %s", sm.result);
	if (st != 0 || !ioctls) {
		fprintf(stderr, "bench_replay: the replay did not match (status %d)\n",
			st);
		goto out;
	}
	printf("replay_ioctls: %llu\n", ioctls);
	printf("replay_strict_ioctls_per_s: %.0f (replay pass, %.3f s)\n", rate,
	       secs);
	printf("replay_total_ioctls_per_s: %.0f (with planning and start-up, "
	       "%.3f s)\n", (double)ioctls / wall, wall);
	/*
	 * CPU time is less at the mercy of other load on the machine than
	 * wall time: the same figures per CPU second.
	 */
	printf("sim_alone_cpu_ioctls_per_s: %.0f (%.3f CPU s)\n",
	       sim_cpu > 0 ? (double)ioctls / sim_cpu : 0, sim_cpu);
	printf("replay_strict_cpu_ioctls_per_s: %.0f (%.3f CPU s, with planning)\n",
	       last.cpu > 0 ? (double)ioctls / last.cpu : 0, last.cpu);
	printf("replay_pass_cpu_ioctls_per_s: %.0f (%.3f CPU s, the replay pass "
	       "alone)\n", pass_cpu > 0 ? (double)ioctls / pass_cpu : 0, pass_cpu);
	/* Within one run, so that the machine's load cancels out. */
	if (sim_cpu > 0 && pass_cpu > 0)
		printf("replay_pass_cpu_vs_sim_alone: %.2f (CPU time of the replay "
		       "pass / of the same calls without a replayer)\n",
		       pass_cpu / sim_cpu);
	printf("target_ioctls_per_s: 1000000 (%s)\n",
	       rate >= 1e6 ? "met" : "not met");
	ret = 0;
out:
	unlink(trace);
	unlink(report);
	rmdir(dir);
	return ret;
}
