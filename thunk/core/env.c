/* SPDX-License-Identifier: MIT */
/*
 * Environment knobs users of AMD's libhsakmt rely on. They are read once
 * per process: a program changing its environment after the first open
 * does not change the library's behaviour, as with the reference.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

static struct kmt_env kmt_env_values;
static pthread_once_t kmt_env_once = PTHREAD_ONCE_INIT;
static size_t kmt_page_bytes;

/* An integer knob; @fallback when unset or not a number in [lo, hi]. */
static long
env_long(const char *name, long fallback, long lo, long hi)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return fallback;
	v = strtol(s, &end, 0);
	if (*end || v < lo || v > hi)
		return fallback;
	return v;
}

/*
 * HSA_OVERRIDE_GFX_VERSION is "major.minor.stepping" in decimal, e.g.
 * "10.3.0" or "9.0.10"; anything else is ignored with a warning.
 */
static void
parse_gfx_override(struct kmt_env *env)
{
	const char *s = getenv("HSA_OVERRIDE_GFX_VERSION");
	unsigned int major, minor, step;
	char tail;

	if (!s || !*s)
		return;
	if (sscanf(s, "%u.%u.%u%c", &major, &minor, &step, &tail) != 3 ||
	    major > 63 || minor > 255 || step > 255) {
		kmt_warn("ignoring malformed HSA_OVERRIDE_GFX_VERSION \"%s\"\n", s);
		return;
	}
	env->gfx_override = true;
	env->gfx_override_major = major;
	env->gfx_override_minor = minor;
	env->gfx_override_step = step;
}

static void
kmt_env_read(void)
{
	struct kmt_env *env = &kmt_env_values;
	long page = sysconf(_SC_PAGESIZE);

	kmt_page_bytes = page > 0 ? (size_t)page : 4096;

	env->debug_level = env_long("HSAKMT_DEBUG_LEVEL", 0, 0, KMT_LOG_DEBUG);
	kmt_log_threshold = env->debug_level;
	env->userptr_for_paged_mem = env_long("HSA_USERPTR_FOR_PAGED_MEM", 1, 0, 1);
	env->disable_cache = env_long("HSA_DISABLE_CACHE", 0, 0, 1);
	env->check_userptr = env_long("HSA_CHECK_USERPTR", 0, 0, 1);
	env->reserve_svm = env_long("HSA_RESERVE_SVM", 0, 0, 1);
	env->svm_guard_pages = env_long("HSA_SVM_GUARD_PAGES", 1, 0, 1 << 20);
	/* Alignment orders above 2^30 pages would overflow the VA math. */
	env->max_va_align_order = env_long("HSA_MAX_VA_ALIGN", 9, 0, 30);
	env->svm_profile = env_long("HSA_SVM_PROFILE", 0, 0, INT_MAX) != 0;
	env->zfb = env_long("HSA_ZFB", 0, 0, 1);
	parse_gfx_override(env);
}

const struct kmt_env *
kmt_env(void)
{
	pthread_once(&kmt_env_once, kmt_env_read);
	return &kmt_env_values;
}

size_t
kmt_page_size(void)
{
	pthread_once(&kmt_env_once, kmt_env_read);
	return kmt_page_bytes;
}
