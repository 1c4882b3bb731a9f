/* SPDX-License-Identifier: MIT */
/* ioctl_spy: see ioctl_spy.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>

#include <kfdtrace/drm_abi.h>
#include <kfdtrace/kfd_abi.h>

#include "ioctl_spy.h"

static pthread_mutex_t spy_lock = PTHREAD_MUTEX_INITIALIZER;
struct spy_call spy_calls[SPY_MAX_CALLS];
unsigned int spy_n;

/* Exported, so it wins over libc's for the library and libdrm. */
__attribute__((visibility("default"))) int ioctl(int fd, unsigned long request, ...);

__attribute__((visibility("default"))) int
ioctl(int fd, unsigned long request, ...)
{
	static int (*next)(int, unsigned long, ...);
	unsigned int type = KFD_ABI_IOC_TYPE(request);
	struct spy_call c = { .request = request, .fd = fd };
	size_t n = KFD_ABI_IOC_SIZE(request);
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!next)
		next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	/* The argument as sent: the kernel may overwrite it. */
	if (arg && n)
		memcpy(c.in, arg, n < sizeof(c.in) ? n : sizeof(c.in));
	c.ret = next(fd, request, arg);
	c.err = c.ret ? errno : 0;
	if (type == KFD_ABI_IOCTL_BASE || type == KFD_DRM_IOCTL_BASE) {
		pthread_mutex_lock(&spy_lock);
		if (spy_n < SPY_MAX_CALLS)
			spy_calls[spy_n++] = c;
		pthread_mutex_unlock(&spy_lock);
	}
	errno = c.err;
	return c.ret;
}

void
spy_reset(void)
{
	pthread_mutex_lock(&spy_lock);
	spy_n = 0;
	pthread_mutex_unlock(&spy_lock);
}

const struct spy_call *
spy_find(unsigned int type, unsigned int nr, unsigned int skip)
{
	for (unsigned int i = 0; i < spy_n; i++)
		if (KFD_ABI_IOC_TYPE(spy_calls[i].request) == type &&
		    KFD_ABI_IOC_NR(spy_calls[i].request) == nr && skip-- == 0)
			return &spy_calls[i];
	return NULL;
}
