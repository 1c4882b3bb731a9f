/* SPDX-License-Identifier: MIT */
/*
 * ioctl_spy - records the KFD and DRM requests a test's process makes.
 *
 * Linking ioctl_spy.c defines ioctl() in the test executable (exported):
 * an executable's symbols come first in the lookup order, so the
 * library's calls and libdrm's land there, are recorded with their
 * result, and go on to the next ioctl() (the preloaded simulator's).
 */
#ifndef THUNK_TEST_IOCTL_SPY_H
#define THUNK_TEST_IOCTL_SPY_H

#define SPY_MAX_CALLS	64

/* One recorded call: the request, its result and its argument as sent. */
struct spy_call {
	unsigned long request;
	int fd, ret, err;		/* err: errno when ret != 0 */
	_Alignas(8) unsigned char in[128];	/* the argument's first bytes */
};

extern struct spy_call spy_calls[SPY_MAX_CALLS];
extern unsigned int spy_n;		/* calls recorded since spy_reset() */

/* spy_reset() - forget what was recorded. */
void spy_reset(void);

/*
 * spy_find() - the @skip'th recorded call of ioctl type @type ('K' for
 * KFD, 'd' for DRM) and number @nr, or NULL.
 */
const struct spy_call *spy_find(unsigned int type, unsigned int nr, unsigned int skip);

#endif /* THUNK_TEST_IOCTL_SPY_H */
