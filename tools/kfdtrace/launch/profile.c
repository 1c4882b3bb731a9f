/* SPDX-License-Identifier: MIT */
/*
 * One check of a simulated machine's profile for sim, record and replay
 * (profile.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "ksim_profile.h"
#include "launch/profile.h"

/* "mi210, mi100, ..." into @buf. */
static void
profile_names(char *buf, size_t size, const char *const *names,
	      unsigned int n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "", names[i]);
}

int
kfdtrace_profile_check(const char *opt, const char *profile)
{
	const char *const *names;
	struct ksim_profile *p;
	char *err = NULL, list[512];
	const char *near;
	unsigned int n;

	p = ksim_profile_load(profile, &err);
	if (p) {
		ksim_profile_free(p);
		return 0;
	}
	/*
	 * Neither a builtin nor a file, and no path: the user meant a builtin
	 * name. A path that names nothing keeps the loader's message.
	 */
	if (!strchr(profile, '/') && access(profile, F_OK) != 0 &&
	    errno == ENOENT) {
		names = ksim_profile_builtin_names(&n);
		profile_names(list, sizeof(list), names, n);
		near = cli_nearest(profile, strlen(profile), names, n);
		if (near)
			cli_err("%s %s: no such profile; did you mean '%s'? "
				"The builtin profiles: %s (or give a profile "
				"file)", opt, profile, near, list);
		else
			cli_err("%s %s: no such profile. The builtin "
				"profiles: %s (or give a profile file)", opt,
				profile, list);
	} else {
		cli_err("%s %s: %s", opt, profile, err ? err : "out of memory");
	}
	free(err);
	return -1;
}
