/* SPDX-License-Identifier: MIT */
/*
 * Guarded copies of user memory (see safecopy.h).
 *
 * The guarded path saves no signal mask (sigsetjmp(.., 0)): saving it is a
 * system call per copy, which is the very cost we avoid. After a fault the
 * handler's mask is still in force when we resume, so the recovery path
 * unblocks SIGSEGV and SIGBUS itself; they were unblocked before the copy,
 * or the fault would have killed the thread instead of reaching a handler.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "safecopy.h"

static atomic_int safe_copy_armed;

static __thread sigjmp_buf *safe_copy_jmp
	__attribute__((tls_model("initial-exec")));

void
kfd_safe_copy_arm(int armed)
{
	atomic_store_explicit(&safe_copy_armed, armed, memory_order_release);
}

void
kfd_safe_copy_fault(int sig)
{
	sigjmp_buf *jb = safe_copy_jmp;

	if (jb && (sig == SIGSEGV || sig == SIGBUS)) {
		safe_copy_jmp = NULL;
		siglongjmp(*jb, 1);
	}
}

/* Copy with the kernel doing the reading: a bad address is -EFAULT. */
static int
safe_copy_syscall(void *dst, const void *src, size_t len)
{
	size_t done = 0;

	while (done < len) {
		struct iovec local = { (char *)dst + done, len - done };
		struct iovec remote = { (char *)(uintptr_t)src + done, len - done };
		ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

		if (n < 0)
			return errno == EFAULT ? -EFAULT : -errno;
		if (n == 0)
			return -EFAULT;
		done += (size_t)n;
	}
	return 0;
}

/*
 * Kept out of line and free of locals that live across the jump, so that
 * nothing the compiler caches in registers is relied on after siglongjmp.
 */
static __attribute__((noinline)) int
safe_copy_guarded(void *dst, const void *src, size_t len)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 0)) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGSEGV);
		sigaddset(&set, SIGBUS);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		return -EFAULT;
	}
	safe_copy_jmp = &jb;
	/* The compiler must not turn this into something it may reorder
	 * past the guard: the barrier pins the copy between the two stores. */
	__asm__ __volatile__("" ::: "memory");
	memcpy(dst, src, len);
	__asm__ __volatile__("" ::: "memory");
	safe_copy_jmp = NULL;
	return 0;
}

int
kfd_safe_copy_slow(void *dst, const void *src, size_t len)
{
	if (len == 0)
		return 0;
	if (!src)
		return -EFAULT;
	/* A nested copy (from a signal handler) must not clobber the outer
	 * recovery point; it takes the slow path. */
	if (atomic_load_explicit(&safe_copy_armed, memory_order_acquire) &&
	    !safe_copy_jmp)
		return safe_copy_guarded(dst, src, len);
	return safe_copy_syscall(dst, src, len);
}
