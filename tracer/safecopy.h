/* SPDX-License-Identifier: MIT */
/*
 * Copying user memory that may not be mapped.
 *
 * The tracer reads argument structs and the buffers they point at on the
 * application's behalf. A bad pointer must give "unreadable", as it gives
 * EFAULT from the kernel, never a crash. process_vm_readv() on our own pid
 * is always safe but costs a system call (about 0.8 us here), so when the
 * recorder's fatal-signal handler is installed a copy runs under a
 * per-thread recovery point instead: a fault inside it jumps back out of
 * the handler and the copy reports failure.
 */
#ifndef KFD_SAFECOPY_H
#define KFD_SAFECOPY_H

#include <signal.h>
#include <stddef.h>

/*
 * kfd_safe_copy() - copy @len bytes from user address @src.
 *
 * Return: 0 when all bytes were copied; -EFAULT when some were unreadable
 * (the contents of @dst are then unspecified); another -errno when the
 * memory could not be examined at all.
 */
int kfd_safe_copy(void *dst, const void *src, size_t len);

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
