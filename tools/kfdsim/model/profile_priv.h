/* SPDX-License-Identifier: MIT */
/* Helpers shared by the profile parser, writer and utilities. */
#ifndef KSIM_PROFILE_PRIV_H
#define KSIM_PROFILE_PRIV_H

#include <stdarg.h>

#include "ksim_profile.h"

/* Hard limits: a profile beyond them is rejected, never half-loaded. */
#define KSIM_MAX_NODES		64
#define KSIM_MAX_MEM_BANKS	64
#define KSIM_MAX_CACHES		8192
#define KSIM_MAX_LINKS		128

/* ksim_errf() - set *err (if err) to a malloc'd formatted message. */
void ksim_errf(char **err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A compiled-in profile (generated from tools/kfdsim/profiles/NAME.profile). */
struct ksim_builtin_profile {
	const char *name;
	const char *text;
};

extern const struct ksim_builtin_profile ksim_builtin_profiles[];
extern const unsigned int ksim_builtin_profile_count;

#endif /* KSIM_PROFILE_PRIV_H */
