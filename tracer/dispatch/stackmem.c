/* SPDX-License-Identifier: MIT */
/*
 * The calling thread's stack bounds, for kfd_stack_holds() (safecopy.h).
 *
 * glibc knows them: the block it allocated for a thread it created (or the
 * one the program handed it), and for the main thread the [stack] mapping
 * and the stack size limit it may grow to. Anything between the current
 * frame and the top of that range is mapped while those frames are live.
 * What stays unguarded: a program that unmaps or mprotects part of its own
 * live stack and then passes a pointer there gets a SIGSEGV where the kernel
 * would have said EFAULT.
 *
 * Asked once per thread, on its first copy: pthread_getattr_np() may
 * allocate and, for the main thread, reads /proc/self/maps. The answer
 * stays right across fork() (the child's stacks are at the same addresses).
 */
#include <pthread.h>

#include "safecopy.h"

__thread struct kfd_stack_range kfd_stack_me
	__attribute__((tls_model("initial-exec")));

void
kfd_stack_learn(void)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;

	kfd_stack_me.state = -1;
	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &addr, &size) && addr && size) {
		kfd_stack_me.lo = (uintptr_t)addr;
		kfd_stack_me.hi = (uintptr_t)addr + size;
		kfd_stack_me.state = 1;
	}
	pthread_attr_destroy(&attr);
}
