/* SPDX-License-Identifier: MIT */
/*
 * The next definitions of the functions we wrap.
 *
 * RTLD_NEXT finds the definition after ours in the lookup order. With
 * LD_PRELOAD="libkfdtrace-capture.so:libkfdsim.so" that is the simulator's
 * open/ioctl/mmap, so the capture stacks in front of the simulated device
 * exactly as it does in front of the kernel. Resolution is lazy: other
 * libraries' constructors may call open() before ours has run.
 */
#include "capture.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

struct kcap_real kcap_real;
static atomic_int real_done;

/* Used when this libc has no close_range() (before glibc 2.34). */
static int
real_close_range_syscall(unsigned int first, unsigned int last, int flags)
{
	return (int)syscall(SYS_close_range, first, last, flags);
}

#define REAL(field, name) \
	(*(void **)&kcap_real.field = dlsym(RTLD_NEXT, name))

void
kcap_real_init(void)
{
	if (atomic_load_explicit(&real_done, memory_order_acquire))
		return;
	/*
	 * Two threads may both get here; they store the same values, so
	 * the race is harmless and no lock (which could itself recurse
	 * through a wrapper) is needed.
	 */
	REAL(open, "open");
	REAL(openat, "openat");
	REAL(close, "close");
	REAL(close_range, "close_range");
	REAL(dup, "dup");
	REAL(dup2, "dup2");
	REAL(dup3, "dup3");
	REAL(fcntl, "fcntl");
	REAL(ioctl, "ioctl");
	REAL(mmap, "mmap");
	REAL(munmap, "munmap");
	REAL(fstat, "fstat");
	REAL(stat, "stat");
	REAL(fork, "fork");
	REAL(execve, "execve");
	REAL(execvpe, "execvpe");
	REAL(fexecve, "fexecve");
	REAL(exit_, "_exit");
	REAL(Exit_, "_Exit");
	REAL(pthread_setname_np, "pthread_setname_np");
	REAL(sigaction, "sigaction");
	REAL(signal, "signal");
	REAL(clone, "clone");
	REAL(sendmsg, "sendmsg");
	REAL(recvmsg, "recvmsg");
	REAL(sendmmsg, "sendmmsg");
	REAL(recvmmsg, "recvmmsg");
	if (!kcap_real.close_range)
		kcap_real.close_range = real_close_range_syscall;
	atomic_store_explicit(&real_done, 1, memory_order_release);
}
