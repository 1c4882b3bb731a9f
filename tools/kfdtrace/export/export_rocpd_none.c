/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export --rocpd in a build without libsqlite3 (meson found no
 * sqlite3): the option stays, and says what is missing.
 */
#include "core/cli.h"
#include "export/export.h"

int
kfdtrace_export_rocpd(char *const *traces, size_t ntraces, const char *dest,
		      const struct kfdtrace_export_opts *o)
{
	(void)traces;
	(void)ntraces;
	(void)o;
	cli_err("%s: --rocpd needs libsqlite3, which this build lacks "
		"(install libsqlite3-dev and rebuild)", dest);
	return KFDTRACE_EXIT_ERROR;
}
