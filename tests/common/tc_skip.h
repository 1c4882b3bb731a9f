/* SPDX-License-Identifier: MIT */
/*
 * The skip policy of the tests: a test whose dependency (a program, a
 * library, a file named by a documented variable) is missing says why and
 * is "skipped" (meson's exit status 77), except under CI=true, where every
 * dependency is installed and a missing one is a failure.
 */
#ifndef KFDTRACE_TC_SKIP_H
#define KFDTRACE_TC_SKIP_H

#include <stdbool.h>

/* tc_skip_is_ci() - whether CI=true is set (a missing dependency fails). */
bool tc_skip_is_ci(void);

/*
 * tc_skip() - end the test for a missing dependency: print "skipped: WHY"
 * and exit 77, or under CI=true "FAIL: WHY" and exit 1.
 * @fmt:	printf() format of why, without a trailing newline
 */
__attribute__((noreturn, format(printf, 1, 2)))
void tc_skip(const char *fmt, ...);

#endif
