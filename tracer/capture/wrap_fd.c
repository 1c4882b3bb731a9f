/* SPDX-License-Identifier: MIT */
/*
 * Wrappers that create and destroy file descriptors: the open family,
 * close, close_range, dup, dup2, dup3 and fcntl(F_DUPFD*).
 *
 * Every variant of open ends in the next open() or openat(): on 64-bit
 * Linux open64 and open are the same call, and the fortified __open_2
 * only adds a check the compiler already made. Calling the plain names
 * also means a simulator stacked after us needs to wrap only those.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

static void
record_open(const char *path, int flags, mode_t mode, enum kfd_file_kind kind,
	    uint64_t rdev, int fd, int err, uint64_t ts)
{
	struct kt_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_OPEN;
	rec.ts = ts;
	rec.u.open.path = path ? path : "";
	rec.u.open.flags = flags;
	rec.u.open.mode = (uint32_t)mode;
	rec.u.open.file_kind = (uint8_t)kind;
	rec.u.open.rdev = rdev;
	rec.u.open.ret = fd;
	rec.u.open.err = fd < 0 ? err : 0;
	kcap_session_append(&rec, 1);
}

static int
open_common(int dirfd, const char *path, int flags, mode_t mode, int at)
{
	enum kfd_file_kind hint, kind;
	uint64_t rdev = 0, ts;
	int fd, err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled())
		return at ? kcap_real.openat(dirfd, path, flags, mode) :
			    kcap_real.open(path, flags, mode);
	kcap_busy++;
	hint = kcap_path_kind(path);
	/* Begin the trace (header, topology) before the device opens. */
	if (hint)
		kcap_session_get();
	ts = kfd_dispatch_now();
	fd = at ? kcap_real.openat(dirfd, path, flags, mode) :
		  kcap_real.open(path, flags, mode);
	err = errno;
	kind = hint;
	if (fd >= 0) {
		kind = kcap_classify(fd, path, &rdev);
		kcap_fd_set(fd, kcap_kind_state(kind));
	}
	if (kind != KFD_FILE_UNKNOWN)
		record_open(path, flags, mode, kind, rdev, fd, err, ts);
	kcap_busy--;
	errno = err;
	return fd;
}

/* The mode argument is there only with O_CREAT or O_TMPFILE. */
#define OPEN_MODE(flags, mode)						\
	do {								\
		if ((flags) & (O_CREAT | __O_TMPFILE)) {		\
			va_list ap;					\
			va_start(ap, flags);				\
			mode = (mode_t)va_arg(ap, int);			\
			va_end(ap);					\
		}							\
	} while (0)

KCAP_EXPORT int
open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return open_common(AT_FDCWD, path, flags, mode, 0);
}

KCAP_EXPORT int
open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return open_common(AT_FDCWD, path, flags, mode, 0);
}

KCAP_EXPORT int
openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return open_common(dirfd, path, flags, mode, 1);
}

KCAP_EXPORT int
openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return open_common(dirfd, path, flags, mode, 1);
}

/* Fortified entry points (-D_FORTIFY_SOURCE); they never take a mode. */
KCAP_EXPORT int
__open_2(const char *path, int flags)
{
	return open_common(AT_FDCWD, path, flags, 0, 0);
}

KCAP_EXPORT int
__open64_2(const char *path, int flags)
{
	return open_common(AT_FDCWD, path, flags, 0, 0);
}

KCAP_EXPORT int
__openat_2(int dirfd, const char *path, int flags)
{
	return open_common(dirfd, path, flags, 0, 1);
}

KCAP_EXPORT int
__openat64_2(int dirfd, const char *path, int flags)
{
	return open_common(dirfd, path, flags, 0, 1);
}

static void
record_close(int fd, int ret, int err, uint64_t ts)
{
	struct kt_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_CLOSE;
	rec.ts = ts;
	rec.u.close.fd = fd;
	rec.u.close.ret = ret;
	rec.u.close.err = ret < 0 ? err : 0;
	kcap_session_append(&rec, 0);
}

KCAP_EXPORT int
close(int fd)
{
	uint64_t ts;
	int state, ret, err;

	kcap_real_init();
	/* The trace file is ours: the application cannot have opened it. */
	if (!kcap_busy && kcap_fd_protected(fd)) {
		errno = EBADF;
		return -1;
	}
	if (kcap_busy || !kcap_enabled())
		return kcap_real.close(fd);
	state = kcap_fd_state(fd);
	if (state == KCAP_FD_UNCHECKED)
		return kcap_real.close(fd);
	/* Forget the fd before it can be reused by another thread's open. */
	kcap_fd_set(fd, KCAP_FD_UNCHECKED);
	if (state == KCAP_FD_OTHER)
		return kcap_real.close(fd);
	kcap_busy++;
	ts = kfd_dispatch_now();
	ret = kcap_real.close(fd);
	err = errno;
	record_close(fd, ret, err, ts);
	kcap_busy--;
	errno = err;
	return ret;
}

/* close_range() over [first, last] without our fds; records device closes. */
static int
close_range_around(unsigned int first, unsigned int last, int flags)
{
	int skip[8], nskip, ret = 0, err = 0;
	unsigned int from = first;

	if (!(flags & CLOSE_RANGE_CLOEXEC)) {
		for (int fd = kcap_fd_next_device(first, last); fd >= 0;
		     fd = kcap_fd_next_device((unsigned int)fd + 1, last)) {
			kcap_fd_set(fd, KCAP_FD_UNCHECKED);
			record_close(fd, 0, 0, kfd_dispatch_now());
			if ((unsigned int)fd == last)
				break;
		}
	}
	nskip = kcap_fd_protected_in(first, last, skip, 8);
	for (int i = 0; i <= nskip; i++) {
		unsigned int to = i < nskip ? (unsigned int)skip[i] - 1 : last;

		if (i < nskip && (unsigned int)skip[i] == from) {
			from = (unsigned int)skip[i] + 1;
			continue;
		}
		if (from <= to && kcap_real.close_range(from, to, flags) < 0 && !ret) {
			ret = -1;
			err = errno;
		}
		if (i < nskip) {
			if ((unsigned int)skip[i] == ~0u)
				break;
			from = (unsigned int)skip[i] + 1;
		}
	}
	if (ret)
		errno = err;
	return ret;
}

/*
 * glibc's closefrom() makes the close_range system call itself, which no
 * wrapper of close_range() sees: it must be interposed on its own.
 */
KCAP_EXPORT void
closefrom(int lowfd)
{
	int max;

	kcap_real_init();
	if (lowfd < 0)
		lowfd = 0;
	if (!kcap_enabled()) {
		syscall(SYS_close_range, (unsigned int)lowfd, ~0u, 0u);
		return;
	}
	kcap_busy++;
	if (close_range_around((unsigned int)lowfd, ~0u, 0) == 0 ||
	    errno != ENOSYS) {
		kcap_busy--;
		return;
	}
	kcap_busy--;
	/* A kernel without close_range (< 5.9): one close() at a time. */
	max = getdtablesize();
	for (int fd = lowfd; fd < max; fd++)
		close(fd);
}

KCAP_EXPORT int
close_range(unsigned int first, unsigned int last, int flags)
{
	int ret;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled() || first > last)
		return kcap_real.close_range(first, last, flags);
	kcap_busy++;
	ret = close_range_around(first, last, flags);
	kcap_busy--;
	return ret;
}

static void
record_dup(int kind, int oldfd, int newfd, int flags, int ret, int err,
	   uint64_t ts)
{
	struct kt_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_DUP;
	rec.ts = ts;
	rec.u.dup.kind = (uint8_t)kind;
	rec.u.dup.oldfd = oldfd;
	rec.u.dup.newfd = newfd;
	rec.u.dup.flags = flags;
	rec.u.dup.ret = ret;
	rec.u.dup.err = ret < 0 ? err : 0;
	kcap_session_append(&rec, 1);
}

static int
is_device(int state)
{
	return state == KCAP_FD_KFD || state == KCAP_FD_RENDER;
}

/*
 * The common tail of every dup: the new fd takes the old one's state, and
 * the call is recorded when either side is a device fd.
 * @target: the fd a dup2/dup3 replaces, or -1.
 */
static int
dup_done(int kind, int oldfd, int newfd_arg, int target, int flags,
	 int old_state, int target_state, int ret, int err, uint64_t ts)
{
	if (ret >= 0 && ret != oldfd)
		kcap_fd_set(ret, old_state);
	if (is_device(old_state) || (target >= 0 && target != oldfd &&
				     is_device(target_state)))
		record_dup(kind, oldfd, newfd_arg, flags, ret, err, ts);
	errno = err;
	return ret;
}

KCAP_EXPORT int
dup(int oldfd)
{
	uint64_t ts;
	int st, ret, err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled())
		return kcap_real.dup(oldfd);
	kcap_busy++;
	st = kcap_fd_state(oldfd);
	ts = kfd_dispatch_now();
	ret = kcap_real.dup(oldfd);
	err = errno;
	ret = dup_done(KT_DUP, oldfd, -1, -1, 0, st, 0, ret, err, ts);
	kcap_busy--;
	return ret;
}

static int
dup23(int kind, int oldfd, int newfd, int flags)
{
	uint64_t ts;
	int st, nst, ret, err;

	if (!kcap_busy && newfd != oldfd && kcap_fd_protected(newfd)) {
		/* Replacing the trace file would close it under the writer. */
		errno = EBADF;
		return -1;
	}
	if (kcap_busy || !kcap_enabled())
		return kind == KT_DUP2 ? kcap_real.dup2(oldfd, newfd) :
			kcap_real.dup3(oldfd, newfd, flags);
	kcap_busy++;
	st = kcap_fd_state(oldfd);
	nst = kcap_fd_state(newfd);
	ts = kfd_dispatch_now();
	ret = kind == KT_DUP2 ? kcap_real.dup2(oldfd, newfd) :
		kcap_real.dup3(oldfd, newfd, flags);
	err = errno;
	ret = dup_done(kind, oldfd, newfd, newfd, flags, st, nst, ret, err, ts);
	kcap_busy--;
	return ret;
}

KCAP_EXPORT int
dup2(int oldfd, int newfd)
{
	kcap_real_init();
	return dup23(KT_DUP2, oldfd, newfd, 0);
}

KCAP_EXPORT int
dup3(int oldfd, int newfd, int flags)
{
	kcap_real_init();
	return dup23(KT_DUP3, oldfd, newfd, flags);
}

static int
fcntl_common(int fd, int cmd, unsigned long arg)
{
	uint64_t ts;
	int st, ret, err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled() ||
	    (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC))
		return kcap_real.fcntl(fd, cmd, arg);
	kcap_busy++;
	st = kcap_fd_state(fd);
	ts = kfd_dispatch_now();
	ret = kcap_real.fcntl(fd, cmd, arg);
	err = errno;
	ret = dup_done(cmd == F_DUPFD ? KT_FCNTL_DUPFD : KT_FCNTL_DUPFD_CLOEXEC,
		       fd, (int)arg, -1, 0, st, 0, ret, err, ts);
	kcap_busy--;
	return ret;
}

/*
 * The third argument is an int, a long or a pointer depending on cmd; all
 * travel in one integer register, so forwarding it as unsigned long is
 * exact for every cmd (and harmless garbage for those that take none).
 */
KCAP_EXPORT int
fcntl(int fd, int cmd, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	return fcntl_common(fd, cmd, arg);
}

KCAP_EXPORT int
fcntl64(int fd, int cmd, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	return fcntl_common(fd, cmd, arg);
}
