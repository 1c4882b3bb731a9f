/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: is the replay of a rocminfo trace no slower than the original
 * run of its ioctls?
 *
 * rocminfo (Debian's, on AMD's libhsakmt and ROCr) is recorded on kfdsim
 * with `kfdtrace record --sim` CAPTURES times. Each capture is replayed
 * REPLAYS times with `kfdtrace replay --sim --record R`, so that the replay
 * is recorded by the same recorder hook on the same dispatch point as the
 * capture: the times of both sides are taken the same way. Then, per
 * capture (medians over its replays):
 *
 *   original  = sum over its ioctl records of (t_exit - enter), capture
 *   replayed  = the same sum over the replay's recorded ioctls
 *   ratio     = replayed / original                 (verdict: <= 1.0)
 *   pass      = the replay's span, from its first record's enter to its
 *               last record's end: the replayer's own work between calls
 *               (translation, verification, opens, mmaps) included
 *   span      = the capture's span over the same ioctls (rocminfo's own
 *               work between them included), and pass / span
 *   pass/orig = pass / original: the whole replay against the time the
 *               capture spent inside those ioctls (the strictest reading)
 *
 * The verdict is "met" when the median ratio of the captures is at most
 * 1.0. Every figure is printed so that a reader can judge the others.
 *
 * Environment: KFDTRACE; ROCMINFO, the rocminfo meson found ("" without
 * one); BENCH_CAPTURES, BENCH_REPLAYS override 3 and 7. Without rocminfo
 * the benchmark says so and passes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/trace.h>

#include "tc_run.h"
#include "tc_host.h"

#define MAX_RUNS 64

/* What one trace says about its ioctls. */
struct ioctl_times {
	uint64_t n;		/* ioctl records */
	double inside;		/* seconds inside them: sum of exit - enter */
	double span;		/* first enter to last end, seconds */
};

/* Read @path's ioctl records. Return: 0, or -1 (unreadable). */
static int
times_of(const char *path, struct ioctl_times *t)
{
	struct kt_reader *rd;
	struct kt_record rec;
	uint64_t first = UINT64_MAX, last = 0;
	int r;

	memset(t, 0, sizeof(*t));
	if (kt_reader_open(path, &rd) < 0)
		return -1;
	while ((r = kt_reader_next(rd, &rec)) > 0) {
		const struct kt_ioctl_rec *io = &rec.u.ioctl;

		if (rec.type != KT_REC_IOCTL || io->t_exit < rec.ts)
			continue;
		t->n++;
		t->inside += (double)(io->t_exit - rec.ts) / 1e9;
		if (rec.ts < first)
			first = rec.ts;
		if (io->t_exit > last)
			last = io->t_exit;
	}
	kt_reader_close(rd);
	if (r < 0 || !t->n)
		return -1;
	t->span = (double)(last - first) / 1e9;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static unsigned int
env_count(const char *name, unsigned int def)
{
	const char *s = getenv(name);
	unsigned long v = s ? strtoul(s, NULL, 10) : 0;

	return v && v <= MAX_RUNS ? (unsigned int)v : def;
}

int
main(void)
{
	const char *kfdtrace = getenv("KFDTRACE");
	const char *rocminfo = getenv("ROCMINFO");
	unsigned int ncap = env_count("BENCH_CAPTURES", 3);
	unsigned int nrep = env_count("BENCH_REPLAYS", 7);
	char dir[] = "/tmp/kfdtrace-bench-roc-XXXXXX", cap[96], rep[96];
	double ratios[MAX_RUNS], passes[MAX_RUNS], strict[MAX_RUNS];
	struct tc_timing tm;
	unsigned int c, i;
	int ret = 1;

	tc_host_costs();
	if (!kfdtrace || !mkdtemp(dir)) {
		fprintf(stderr, "bench_rocminfo: KFDTRACE must be set\n");
		return 1;
	}
	if (!rocminfo || !*rocminfo || access(rocminfo, X_OK) != 0) {
		printf("bench_rocminfo: no rocminfo here: nothing to measure\n");
		rmdir(dir);
		return 0;
	}
	snprintf(cap, sizeof(cap), "%s/rocminfo.kft", dir);
	snprintf(rep, sizeof(rep), "%s/replay.kft", dir);
	printf("bench_rocminfo: %u captures of rocminfo on kfdsim, %u replays "
	       "of each (medians)\n", ncap, nrep);
	for (c = 0; c < ncap; c++) {
		double in[MAX_RUNS], span[MAX_RUNS];
		struct ioctl_times orig, t;

		unlink(cap);
		if (tc_run_timed((char *const[]){ (char *)kfdtrace, "record", "--sim",
						  "-o", cap, "--", (char *)rocminfo, NULL },
				 "/dev/null", &tm) != 0 || times_of(cap, &orig) < 0) {
			fprintf(stderr, "bench_rocminfo: recording rocminfo failed\n");
			goto out;
		}
		for (i = 0; i < nrep; i++) {
			unlink(rep);
			if (tc_run_timed((char *const[]){ (char *)kfdtrace, "replay",
							  "--sim", "--verify=strict",
							  "--record", rep, cap,
							  NULL },
					 "/dev/null", &tm) != 0 ||
			    times_of(rep, &t) < 0) {
				fprintf(stderr, "bench_rocminfo: the replay did not "
					"match\n");
				goto out;
			}
			if (t.n != orig.n) {
				fprintf(stderr, "bench_rocminfo: %llu ioctls replayed "
					"of %llu\n", (unsigned long long)t.n,
					(unsigned long long)orig.n);
				goto out;
			}
			in[i] = t.inside;
			span[i] = t.span;
		}
		t.inside = median(in, nrep);
		t.span = median(span, nrep);
		ratios[c] = t.inside / orig.inside;
		passes[c] = t.span / orig.span;
		strict[c] = t.span / orig.inside;
		printf("capture %u: %llu ioctls; inside them: original %.1f us, "
		       "replayed %.1f us, ratio %.2f; span: capture %.1f us, "
		       "replay %.1f us, ratio %.2f; replay span / original "
		       "inside %.2f\n", c + 1, (unsigned long long)orig.n,
		       orig.inside * 1e6, t.inside * 1e6, ratios[c],
		       orig.span * 1e6, t.span * 1e6, passes[c], strict[c]);
	}
	{
		double r = median(ratios, ncap), p = median(passes, ncap);
		double s = median(strict, ncap);

		printf("rocminfo_replay_ioctl_time_ratio: %.2f (replayed / "
		       "original time inside the ioctls)\n", r);
		printf("rocminfo_replay_span_ratio: %.2f (replay pass / capture, "
		       "first to last ioctl)\n", p);
		printf("rocminfo_replay_span_vs_original_ioctls: %.2f\n", s);
		printf("target: replay no slower than the original run of its "
		       "ioctls (%s)\n", r <= 1.0 ? "met" : "not met");
	}
	ret = 0;
out:
	unlink(cap);
	unlink(rep);
	rmdir(dir);
	return ret;
}
