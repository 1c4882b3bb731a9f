/* SPDX-License-Identifier: MIT */
/*
 * copy_from_user / copy_to_user for a model that lives in the same address
 * space as its "user": an access to an application pointer goes through
 * process_vm_readv/writev on our own pid, so an unmapped or read-only
 * address yields -EFAULT instead of SIGSEGV -- unless the pointer is in
 * memory that cannot fault (the caller's stack, the brk heap; see
 * uaccess_direct.c), which is copied directly. Where those calls are not
 * permitted (seccomp), a pipe does the same job: the kernel validates the
 * user buffer of write()/read() and answers EFAULT.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ksim_priv.h"

static int use_pipe = -1;	/* -1 unknown, 0 process_vm_*, 1 pipe */
static int xfer_pipe[2] = { -1, -1 };
static pthread_mutex_t pipe_lock = PTHREAD_MUTEX_INITIALIZER;

static int
pipe_xfer(void *dst, const void *src, size_t len)
{
	int r = 0;

	pthread_mutex_lock(&pipe_lock);
	if (xfer_pipe[0] < 0) {
		int p[2];

		if (syscall(SYS_pipe2, p, O_CLOEXEC | O_NONBLOCK)) {
			pthread_mutex_unlock(&pipe_lock);
			return -EFAULT;
		}
		xfer_pipe[0] = ksim_internal_fd(p[0]);
		xfer_pipe[1] = ksim_internal_fd(p[1]);
	}
	while (len && !r) {
		size_t n = len > 4096 ? 4096 : len;
		long w = syscall(SYS_write, xfer_pipe[1], src, n);

		if (w <= 0) {
			r = -EFAULT;
			break;
		}
		if (syscall(SYS_read, xfer_pipe[0], dst, (size_t)w) != w) {
			char sink[4096];

			/* Drain what the failed read left behind. */
			while (syscall(SYS_read, xfer_pipe[0], sink, sizeof(sink)) > 0)
				;
			r = -EFAULT;
			break;
		}
		dst = (char *)dst + w;
		src = (const char *)src + w;
		len -= (size_t)w;
	}
	pthread_mutex_unlock(&pipe_lock);
	return r;
}

static int
vm_xfer(void *local, uint64_t uaddr, size_t len, int write)
{
	struct iovec l = { local, len };
	struct iovec r = { (void *)(uintptr_t)uaddr, len };
	long n;

	n = syscall(write ? SYS_process_vm_writev : SYS_process_vm_readv,
		    ksim_self_pid(), &l, 1, &r, 1, 0);
	if (n == (long)len)
		return 0;
	if (n < 0 && (errno == ENOSYS || errno == EPERM) && use_pipe < 0)
		return 1;
	return -EFAULT;
}

static int
xfer(void *local, uint64_t uaddr, size_t len, int write)
{
	int r;

	if (!len)
		return 0;
	if (uaddr + len < uaddr)
		return -EFAULT;
	/* The caller's stack or the brk heap: cannot fault (uaccess_direct.c). */
	if (ksim_uaccess_direct(uaddr, len)) {
		if (write)
			memcpy((void *)(uintptr_t)uaddr, local, len);
		else
			memcpy(local, (const void *)(uintptr_t)uaddr, len);
		return 0;
	}
	if (use_pipe != 1) {
		r = vm_xfer(local, uaddr, len, write);
		if (r <= 0) {
			if (use_pipe < 0 && r == 0)
				use_pipe = 0;
			return r;
		}
		use_pipe = 1;
	}
	if (write)
		return pipe_xfer((void *)(uintptr_t)uaddr, local, len);
	return pipe_xfer(local, (const void *)(uintptr_t)uaddr, len);
}

int
ksim_copy_from_user(void *dst, uint64_t uaddr, size_t len)
{
	return xfer(dst, uaddr, len, 0);
}

int
ksim_copy_to_user(uint64_t uaddr, const void *src, size_t len)
{
	return xfer((void *)src, uaddr, len, 1);
}

/* access_ok(): only a range check, as in the kernel. */
int
ksim_access_ok(uint64_t uaddr, uint64_t len)
{
	return uaddr + len >= uaddr && uaddr + len <= KSIM_TASK_SIZE;
}

/*
 * Whether every page of [uaddr, uaddr+len) is covered by a CPU mapping
 * (mincore answers ENOMEM for holes without touching memory).
 */
int
ksim_user_range_mapped(uint64_t uaddr, uint64_t len)
{
	unsigned char vec[4096];
	uint64_t start = uaddr & ~(KSIM_PAGE_SIZE - 1);
	uint64_t end;

	if (!len || uaddr + len < uaddr)
		return 0;
	end = KSIM_PAGE_ALIGN(uaddr + len);
	if (end > KSIM_TASK_SIZE || end < start)
		return 0;
	while (start < end) {
		uint64_t n = end - start;

		if (n > sizeof(vec) * KSIM_PAGE_SIZE)
			n = sizeof(vec) * KSIM_PAGE_SIZE;
		if (syscall(SYS_mincore, (void *)(uintptr_t)start, (size_t)n, vec))
			return 0;
		start += n;
	}
	return 1;
}
