/* SPDX-License-Identifier: MIT */
/*
 * What the end-to-end replay tests test_replay.c and test_replay_diverge.c
 * share, over rp_test.h (whose state each program has once): the paths,
 * recording a workload or rocminfo once per program, a profile made from
 * a builtin one, and record numbers found with dump.
 */
#ifndef RP_E2E_H
#define RP_E2E_H

#include <cmocka.h>

#include "rp_test.h"

/*
 * $KFDTRACE, $RP_WORKLOAD, $RP_ALTER; $ROCMINFO (the rocminfo meson found,
 * "" without one) and whether it can be run.
 */
static const char *kfdtrace, *workload, *alter, *rocminfo;
static int have_rocminfo;

/*
 * A copy of a builtin profile with some lines replaced: @subst holds pairs
 * of a whole line and its replacement, then NULL.
 */
static inline void
make_profile(const char *name, const char *base, const char *const *subst)
{
	char *p, *line;
	FILE *f;

	assert_int_equal(RUN(kfdtrace, "sim", "--dump-profile", base), 0);
	f = fopen(tmp(name), "w");
	assert_non_null(f);
	for (line = out; *line; line = p) {
		size_t n;
		int i, done = 0;

		p = strchr(line, '\n');
		p = p ? p + 1 : line + strlen(line);
		n = (size_t)(p - line);
		for (i = 0; subst[i] && !done; i += 2) {
			size_t l = strlen(subst[i]);

			if (n == l + 1 && !strncmp(line, subst[i], l)) {
				fprintf(f, "%s\n", subst[i + 1]);
				done = 1;
			}
		}
		if (!done)
			fwrite(line, 1, n, f);
	}
	fclose(f);
}

/* Record "kfdtrace record -o FILE --sim[=P] -- ARGS" once. */
static inline void
record(const char *file, const char *profile, const char *const *cmd)
{
	const char *argv[16];
	char sim[200];
	int n = 0, i;

	if (access(tmp(file), F_OK) == 0)
		return;
	if (profile)
		snprintf(sim, sizeof(sim), "--sim=%s", profile);
	argv[n++] = kfdtrace;
	argv[n++] = "record";
	argv[n++] = "-o";
	argv[n++] = tmp(file);
	argv[n++] = profile ? sim : "--sim";
	argv[n++] = "--";
	for (i = 0; cmd[i] && n < 15; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	assert_int_equal(run(argv), 0);
}

static inline void
workload_trace(void)
{
	record("full.kft", NULL, (const char *const[]){ workload, "full", NULL });
}

static inline void
rocminfo_trace(void)
{
	record("rocminfo.kft", NULL, (const char *const[]){ rocminfo, NULL });
}

/*
 * The sequence number of the @nth (from 1) record a dump filter selects
 * whose line holds @also (NULL: any).
 */
static inline unsigned long
nth_seq(const char *file, const char *filter, const char *also,
	unsigned int nth)
{
	const char *p;

	assert_int_equal(RUN(kfdtrace, "dump", "--seq", "--filter", filter,
			     tmp(file)), 0);
	for (p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eol = strchr(p, '\n');

		if (p[0] == '#' && (!also || (strstr(p, also) &&
					       (!eol || strstr(p, also) < eol))) &&
		    !--nth)
			return strtoul(p + 1, NULL, 10);
	}
	fail_msg("no %s record in %s", filter, file);
	return 0;
}

/* The sequence number of the first record a dump filter selects. */
static inline unsigned long
first_seq(const char *file, const char *filter, const char *also)
{
	return nth_seq(file, filter, also, 1);
}

/*
 * rp_e2e_setup() - a group setup: the paths from the environment and the
 * scratch directory /tmp/kfdtrace-@name-XXXXXX (each program its own, so
 * that neither reads the other's traces). Return: 0, or -1.
 */
static inline int
rp_e2e_setup(const char *name)
{
	kfdtrace = getenv("KFDTRACE");
	workload = getenv("RP_WORKLOAD");
	alter = getenv("RP_ALTER");
	if (!kfdtrace || !workload || !alter) {
		fprintf(stderr, "KFDTRACE, RP_WORKLOAD and RP_ALTER must be set\n");
		return -1;
	}
	if (rp_make_dir(name))
		return -1;
	rocminfo = getenv("ROCMINFO");
	have_rocminfo = rocminfo && *rocminfo && access(rocminfo, X_OK) == 0;
	return 0;
}

#endif /* RP_E2E_H */
