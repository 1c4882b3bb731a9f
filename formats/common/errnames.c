/* SPDX-License-Identifier: MIT */
/* errno names, both ways (kfdtrace/common/errnames.h). */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include <kfdtrace/common/errnames.h>
#include <kfdtrace/common/parse.h>

/*
 * Kernel-internal errno values (include/linux/errno.h). They must never
 * reach user space, but drivers leak some of them (amdkfd returns ENOTSUPP
 * for a bad queue type). 520 is unassigned.
 */
#define KC_KERNEL_FIRST 512
static const char *const kernel_errnos[] = {
	"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
	"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
	NULL, "EBADHANDLE", "ENOTSYNC", "EBADCOOKIE", "ENOTSUPP", "ETOOSMALL",
	"ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED",
	"ERECALLCONFLICT",
};
#define KC_KERNEL_N (sizeof(kernel_errnos) / sizeof(kernel_errnos[0]))

/* The largest user errno libc may name (EHWPOISON is 133 on Linux). */
#define KC_USER_MAX 255

/* Second names of user errnos, which libc's table gives under the first. */
static const struct {
	const char *name;
	int err;
} aliases[] = {
	{ "EWOULDBLOCK", EWOULDBLOCK }, { "ENOTSUP", ENOTSUP },
	{ "EDEADLOCK", EDEADLOCK },
};

const char *
kc_errno_name(int err)
{
	if (err <= 0)
		return NULL;
	if (err < KC_KERNEL_FIRST)
		return strerrorname_np(err);
	if ((unsigned int)(err - KC_KERNEL_FIRST) < KC_KERNEL_N)
		return kernel_errnos[err - KC_KERNEL_FIRST];
	return NULL;
}

const char *
kc_errno_desc(int err)
{
	if (err <= 0)
		return NULL;
	if (err < KC_KERNEL_FIRST)
		return strerrordesc_np(err);
	if (!kc_errno_name(err))
		return NULL;
	return err == 524 ? "Operation is not supported" : "Kernel-internal error";
}

int
kc_errno_parse(const char *s, size_t len)
{
	uint64_t v;
	size_t i;

	if (!s || !len)
		return -1;
	if (s[0] >= '0' && s[0] <= '9')
		return kc_parse_u64(s, len, &v) && v && v <= 4095 ? (int)v : -1;
	for (int err = 1; err <= KC_USER_MAX; err++) {
		const char *n = strerrorname_np(err);

		if (n && strlen(n) == len && !strncasecmp(n, s, len))
			return err;
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strlen(aliases[i].name) == len &&
		    !strncasecmp(aliases[i].name, s, len))
			return aliases[i].err;
	for (i = 0; i < KC_KERNEL_N; i++) {
		const char *n = kernel_errnos[i];

		if (n && strlen(n) == len && !strncasecmp(n, s, len))
			return KC_KERNEL_FIRST + (int)i;
	}
	return -1;
}
