/* SPDX-License-Identifier: MIT */
/* The skip policy of the tests (tc_skip.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_skip.h"

bool
tc_skip_is_ci(void)
{
	const char *ci = getenv("CI");

	return ci && !strcmp(ci, "true");
}

void
tc_skip(const char *fmt, ...)
{
	bool ci = tc_skip_is_ci();
	va_list ap;

	fputs(ci ? "FAIL: " : "skipped: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	puts(ci ? " (CI=true: a missing dependency is a failure)" : "");
	fflush(stdout);
	exit(ci ? 1 : 77);
}
