/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics: messages go to stderr when HSAKMT_DEBUG_LEVEL allows them.
 * The threshold is a plain int read without a lock: it is set once at the
 * first open, and a racing reader at worst drops or prints one message.
 */
#include <stdio.h>

#include "core/core.h"

int kmt_log_threshold;

static const char *const kmt_level_names[] = {
	[KMT_LOG_ERR] = "error",
	[KMT_LOG_WARNING] = "warning",
	[KMT_LOG_NOTICE] = "notice",
	[KMT_LOG_INFO] = "info",
	[KMT_LOG_DEBUG] = "debug",
};

void
kmt_log(int level, const char *fmt, ...)
{
	const char *name = "?";
	va_list ap;

	if (level >= KMT_LOG_ERR && level <= KMT_LOG_DEBUG)
		name = kmt_level_names[level];
	/* One fprintf per part keeps this simple; interleaving across
	 * threads is acceptable for a debug aid. */
	fprintf(stderr, "libhsakmt: %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
