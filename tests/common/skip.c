/* SPDX-License-Identifier: MIT */
/*
 * skip - stands in for a test that cannot run here, so that the test is
 * still registered and says why (tests/common/meson.build: test_skip_exe).
 *
 *	skip WHY		a dependency is missing: tc_skip() (skipped,
 *				a failure when CI=true)
 *	skip --configured WHY	the build was configured without what the
 *				test needs (an option, a sanitizer): skipped
 *				under CI as well
 */
#include <stdio.h>
#include <string.h>

#include "tc_skip.h"

int
main(int argc, char **argv)
{
	int configured = argc > 1 && !strcmp(argv[1], "--configured");
	const char *why = argc > 1 + configured ? argv[1 + configured] : "";

	/* Every test names what is missing; no reason is a bug of its own. */
	if (!*why) {
		fprintf(stderr, "skip: no reason given\n");
		return 1;
	}
	if (!configured)
		tc_skip("%s", why);
	printf("skipped: %s\n", why);
	return 77;
}
