/* SPDX-License-Identifier: MIT */
/*
 * The calling process's id without a system call per API call.
 *
 * Every API call checks that the context was opened by this process (a
 * child made without our atfork handler, e.g. by a raw clone(), must not
 * use its parent's KFD file). getpid() is a system call, a noticeable part
 * of a cheap call like hsaKmtQueryPointerInfo. So the pid is cached in a
 * page marked MADV_WIPEONFORK: the kernel hands any child a zeroed copy,
 * however it was created, so a cached value is always this process's.
 * Without MADV_WIPEONFORK (Linux < 4.14) every call asks the kernel.
 * Children sharing our memory (vfork, CLONE_VM) would see the parent's
 * pid; they may not call the library anyway.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/core.h"

static pthread_once_t kmt_pid_once = PTHREAD_ONCE_INIT;
static pid_t *kmt_pid_cache;	/* in the wipe-on-fork page; NULL: none */

static void
pid_cache_setup(void)
{
	size_t len = kmt_page_size();
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	if (madvise(p, len, MADV_WIPEONFORK)) {
		munmap(p, len);
		return;
	}
	kmt_pid_cache = p;
}

pid_t
kmt_getpid(void)
{
	pid_t pid;

	pthread_once(&kmt_pid_once, pid_cache_setup);
	if (kmt_pid_cache) {
		pid = __atomic_load_n(kmt_pid_cache, __ATOMIC_RELAXED);
		if (pid)
			return pid;
	}
	pid = getpid();
	if (kmt_pid_cache)
		__atomic_store_n(kmt_pid_cache, pid, __ATOMIC_RELAXED);
	return pid;
}
