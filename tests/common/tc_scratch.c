/* SPDX-License-Identifier: MIT */
/*
 * Scratch directories of tests (tc_scratch.h).
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#include "tc_scratch.h"

#define TC_PATHS 8

char *
tc_scratch_path(const char *dir, const char *name)
{
	static char buf[TC_PATHS][512];
	static unsigned int i;

	i = (i + 1) % TC_PATHS;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

int
tc_scratch_remove(const char *dir, const char *keep_env)
{
	if (keep_env && getenv(keep_env)) {
		fprintf(stderr, "files kept in %s (%s is set)\n", dir, keep_env);
		return 0;
	}
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}
