/* SPDX-License-Identifier: MIT */
/*
 * Copying user memory that may not be mapped.
 *
 * The tracer reads argument structs and the buffers they point at on the
 * application's behalf. A bad pointer must give "unreadable", as it gives
 * EFAULT from the kernel, never a crash. In order of cost:
 *
 *   - memory on the calling thread's own stack, between the current frame
 *     and the top of the stack, is mapped: those frames are live. Most
 *     ioctl arguments are locals of the caller, so this plain memcpy() is
 *     the common case (stackmem.c);
 *   - when the recorder's fatal-signal handler is installed, a memcpy()
 *     under a per-thread recovery point: a fault inside it jumps back out
 *     of the handler and the copy reports failure;
 *   - otherwise process_vm_readv() on our own pid, always safe but a system
 *     call (about 0.8 us here).
 */
#ifndef KFD_SAFECOPY_H
#define KFD_SAFECOPY_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* stackmem.c: the calling thread's stack, [lo, hi); hi 0 until known. */
struct kfd_stack_range {
	uintptr_t lo;
	uintptr_t hi;
	int state;		/* 0 unknown, 1 known, -1 not available */
};

extern __thread struct kfd_stack_range kfd_stack_me
	__attribute__((tls_model("initial-exec")));

/* Look the calling thread's stack up (once per thread). */
void kfd_stack_learn(void);

/*
 * kfd_stack_holds() - whether [@p, @p + @len) lies on the calling thread's
 * stack above the caller's frame, where it cannot be unmapped. Memory on a
 * signal stack or a coroutine's stack is not recognised (the answer is
 * then "no", never a wrong "yes").
 */
static inline __attribute__((always_inline)) int
kfd_stack_holds(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p, sp = (uintptr_t)__builtin_frame_address(0);

	if (__builtin_expect(kfd_stack_me.state == 0, 0))
		kfd_stack_learn();
	return sp >= kfd_stack_me.lo && a >= sp && a < kfd_stack_me.hi &&
	       len <= kfd_stack_me.hi - a;
}

/* kfd_safe_copy_slow() - kfd_safe_copy() without the stack shortcut. */
int kfd_safe_copy_slow(void *dst, const void *src, size_t len);

/*
 * kfd_safe_copy() - copy @len bytes from user address @src.
 *
 * Return: 0 when all bytes were copied; -EFAULT when some were unreadable
 * (the contents of @dst are then unspecified); another -errno when the
 * memory could not be examined at all.
 */
static inline __attribute__((always_inline)) int
kfd_safe_copy(void *dst, const void *src, size_t len)
{
	if (kfd_stack_holds(src, len)) {
		memcpy(dst, src, len);
		return 0;
	}
	return kfd_safe_copy_slow(dst, src, len);
}

/*
 * kfd_safe_copy_arm() - tell kfd_safe_copy() whether a SIGSEGV/SIGBUS
 * handler that calls kfd_safe_copy_fault() is installed (1) or not (0).
 */
void kfd_safe_copy_arm(int armed);

/*
 * kfd_safe_copy_fault() - call first thing from a SIGSEGV/SIGBUS handler.
 * If the fault happened inside a guarded copy on this thread, it does not
 * return (it resumes the copy's caller with a failure); otherwise it
 * returns and the handler goes on. Async-signal-safe.
 */
void kfd_safe_copy_fault(int sig);

#endif /* KFD_SAFECOPY_H */
