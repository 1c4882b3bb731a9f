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
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TARGET_RATIO 10.0

extern char **environ;

struct timing {
	double wall;
	double cpu;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run @argv with stdout on /dev/null. Return: its exit status, or -1. */
static int
timed(char *const argv[], struct timing *t)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	double t0;
	pid_t pid;
	int st;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = now();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	t->wall = now() - t0;
	t->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-bt2-XXXXXX", trace[300], ctf[300];
	const char *n = argc > 4 ? argv[4] : "1000000";
	struct timing gen, exp, dump, bt2;
	double records, ratio;
	int rc = 1;

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

		if (timed(g, &gen) != 0) {
			fprintf(stderr, "bench-bt2: writing the trace failed\n");
			goto out;
		}
		if (timed(e, &exp) != 0) {
			fprintf(stderr, "bench-bt2: kfdtrace export failed\n");
			goto out;
		}
		if (timed(d, &dump) != 0 || timed(b, &bt2) != 0) {
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
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}
