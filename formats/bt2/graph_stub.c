/* SPDX-License-Identifier: MIT */
/*
 * kt_ctf_export() when babeltrace2 was not found at build time: a clear
 * refusal instead of a missing command.
 */
#include <stdio.h>

#include "kt_ctf_export.h"

int
kt_ctf_export(const char *trace, const char *outdir,
	      const struct kt_ctf_export_opts *opts, char *msg,
	      size_t msg_size)
{
	if (msg && msg_size)
		snprintf(msg, msg_size, "this kfdtrace was built without "
			 "babeltrace2 (install libbabeltrace2-dev and rebuild)");
	return KT_CTF_UNSUPPORTED;
}
