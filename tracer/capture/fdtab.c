/* SPDX-License-Identifier: MIT */
/*
 * What each file descriptor is.
 *
 * Two levels of 1024 bytes cover the first million fds; pages are
 * allocated on first use and never freed, so a lookup is two loads and no
 * lock. An fd is classified when it is opened through our wrappers, or on
 * its first ioctl/mmap when it came from elsewhere (inherited across exec,
 * opened by a libc-internal path): by its path when it names /dev/kfd or
 * a render node, else by fstat's st_rdev.
 */
#include "capture.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define FDTAB_PAGE KCAP_FDTAB_PAGE
#define FDTAB_PAGES KCAP_FDTAB_PAGES
#define FD_STATE_MASK KCAP_FD_STATE_MASK
#define FD_PROTECTED 0x80

/* DRM character devices; render nodes use minors 128 and up. */
#define DRM_MAJOR 226
#define DRM_RENDER_MINOR_BASE 128

_Atomic(_Atomic uint8_t *) kcap_fdtab[FDTAB_PAGES];

static _Atomic uint8_t *
fdtab_slot(int fd, int create)
{
	_Atomic uint8_t *page, *fresh;
	unsigned int p;

	if (fd < 0 || fd >= FDTAB_PAGE * FDTAB_PAGES)
		return NULL;
	p = (unsigned int)fd / FDTAB_PAGE;
	page = atomic_load_explicit(&kcap_fdtab[p], memory_order_acquire);
	if (!page && create) {
		fresh = calloc(FDTAB_PAGE, 1);
		if (!fresh)
			return NULL;
		page = NULL;
		if (atomic_compare_exchange_strong(&kcap_fdtab[p], &page, fresh))
			page = fresh;
		else
			free(fresh);
	}
	return page ? &page[fd % FDTAB_PAGE] : NULL;
}

int
kcap_fd_state(int fd)
{
	_Atomic uint8_t *s = fdtab_slot(fd, 0);

	return s ? atomic_load_explicit(s, memory_order_relaxed) & FD_STATE_MASK :
		   KCAP_FD_UNCHECKED;
}

void
kcap_fd_set(int fd, int state)
{
	_Atomic uint8_t *s = fdtab_slot(fd, state != KCAP_FD_UNCHECKED);
	uint8_t old, new;

	if (!s)
		return;
	old = atomic_load_explicit(s, memory_order_relaxed);
	do
		new = (uint8_t)((old & ~FD_STATE_MASK) | (state & FD_STATE_MASK));
	while (!atomic_compare_exchange_weak(s, &old, new));
}

/*
 * The protected fds are also kept in a short list, for close_range(),
 * which must step around them without scanning the table.
 */
#define PROTECTED_MAX 8
static _Atomic int protected_fds[PROTECTED_MAX] = { -1, -1, -1, -1, -1, -1, -1, -1 };

void
kcap_fd_protect(int fd)
{
	_Atomic uint8_t *s = fdtab_slot(fd, 1);

	if (!s)
		return;
	atomic_fetch_or(s, FD_PROTECTED);
	for (int i = 0; i < PROTECTED_MAX; i++) {
		int expected = -1;

		if (atomic_compare_exchange_strong(&protected_fds[i], &expected, fd))
			break;
	}
}

void
kcap_fd_unprotect(int fd)
{
	_Atomic uint8_t *s = fdtab_slot(fd, 0);

	if (s)
		atomic_fetch_and(s, (uint8_t)~FD_PROTECTED);
	for (int i = 0; i < PROTECTED_MAX; i++) {
		int expected = fd;

		if (atomic_compare_exchange_strong(&protected_fds[i], &expected, -1))
			break;
	}
}

int
kcap_fd_protected_in(unsigned int first, unsigned int last, int *out, int max)
{
	int n = 0;

	for (int i = 0; i < PROTECTED_MAX && n < max; i++) {
		int fd = atomic_load(&protected_fds[i]);

		if (fd >= 0 && (unsigned int)fd >= first && (unsigned int)fd <= last)
			out[n++] = fd;
	}
	/* Few entries: insertion sort. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

int
kcap_fd_next_device(unsigned int from, unsigned int last)
{
	for (unsigned int fd = from; fd <= last && fd < FDTAB_PAGE * FDTAB_PAGES;) {
		_Atomic uint8_t *page =
			atomic_load_explicit(&kcap_fdtab[fd / FDTAB_PAGE],
					     memory_order_acquire);

		if (!page) {
			fd = (fd / FDTAB_PAGE + 1) * FDTAB_PAGE;
			continue;
		}
		int st = atomic_load_explicit(&page[fd % FDTAB_PAGE],
					      memory_order_relaxed) & FD_STATE_MASK;
		if (st == KCAP_FD_KFD || st == KCAP_FD_RENDER)
			return (int)fd;
		fd++;
	}
	return -1;
}

int
kcap_fd_protected(int fd)
{
	_Atomic uint8_t *s = fdtab_slot(fd, 0);

	return s && (atomic_load_explicit(s, memory_order_relaxed) & FD_PROTECTED);
}

static enum kfd_file_kind
state_kind(int state)
{
	switch (state) {
	case KCAP_FD_KFD:
		return KFD_FILE_KFD;
	case KCAP_FD_RENDER:
		return KFD_FILE_RENDER;
	default:
		return KFD_FILE_UNKNOWN;
	}
}

enum kfd_file_kind
kcap_path_kind(const char *path)
{
	if (!path)
		return KFD_FILE_UNKNOWN;
	if (!strcmp(path, "/dev/kfd"))
		return KFD_FILE_KFD;
	if (!strncmp(path, "/dev/dri/renderD", 16))
		return KFD_FILE_RENDER;
	return KFD_FILE_UNKNOWN;
}

/* st_rdev of /dev/kfd as this process sees it; 0 if it has none. */
static uint64_t
kfd_rdev(void)
{
	static _Atomic uint64_t cached;
	static atomic_int done;
	struct stat st;

	if (atomic_load_explicit(&done, memory_order_acquire))
		return atomic_load_explicit(&cached, memory_order_relaxed);
	if (kcap_real.stat && kcap_real.stat("/dev/kfd", &st) == 0 &&
	    S_ISCHR(st.st_mode))
		atomic_store_explicit(&cached, st.st_rdev, memory_order_relaxed);
	atomic_store_explicit(&done, 1, memory_order_release);
	return atomic_load_explicit(&cached, memory_order_relaxed);
}

enum kfd_file_kind
kcap_classify(int fd, const char *path, uint64_t *rdev)
{
	enum kfd_file_kind kind = kcap_path_kind(path);
	struct stat st;
	int saved = errno;

	*rdev = 0;
	if (kcap_real.fstat && kcap_real.fstat(fd, &st) == 0 &&
	    S_ISCHR(st.st_mode)) {
		*rdev = st.st_rdev;
		if (kind == KFD_FILE_UNKNOWN) {
			if (major(st.st_rdev) == DRM_MAJOR &&
			    minor(st.st_rdev) >= DRM_RENDER_MINOR_BASE)
				kind = KFD_FILE_RENDER;
			else if (kfd_rdev() && st.st_rdev == kfd_rdev())
				kind = KFD_FILE_KFD;
		}
	}
	errno = saved;
	return kind;
}

enum kfd_file_kind
kcap_fd_kind_slow(int fd)
{
	int state = kcap_fd_state(fd);
	enum kfd_file_kind kind;
	uint64_t rdev;

	if (state != KCAP_FD_UNCHECKED)
		return state_kind(state);
	if (fd < 0 || fd >= FDTAB_PAGE * FDTAB_PAGES)
		return KFD_FILE_UNKNOWN;
	kind = kcap_classify(fd, NULL, &rdev);
	kcap_fd_set(fd, kind == KFD_FILE_KFD ? KCAP_FD_KFD :
			kind == KFD_FILE_RENDER ? KCAP_FD_RENDER : KCAP_FD_OTHER);
	return kind;
}
