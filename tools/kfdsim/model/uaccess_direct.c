/* SPDX-License-Identifier: MIT */
/*
 * When an application pointer may be touched directly. uaccess.c copies
 * user memory with process_vm_readv/writev so that a wild pointer gives
 * -EFAULT instead of SIGSEGV, but each such copy is a system call dearer
 * than the ioctl it simulates. Two kinds of memory cannot vanish under a
 * correct caller while it waits for its ioctl, and together they hold
 * nearly every argument block:
 *
 *   - the calling thread's stack above its current frame: those frames are
 *     live, so [sp, top of stack) is mapped read/write. The bounds come
 *     once per thread from glibc (pthread_getattr_np) for threads it made,
 *     and from /proc/self/maps ([stack]) for the main thread, whose stack
 *     grows (a frame below the known bottom triggers a bounded re-read);
 *   - the brk heap (glibc's main arena): the kernel keeps [start_brk, brk)
 *     mapped read/write, and glibc's sbrk(0) reads its copy of brk without
 *     a system call. start_brk comes from /proc/self/stat; the range is
 *     checked once with mincore(), which turns the tier off where the
 *     numbers do not describe this address space (valgrind).
 *
 * Anything else (mmap'd memory, other threads' arenas, static data) still
 * takes the checked path: glibc unmaps and re-protects such memory with
 * internal calls no wrapper sees, so no cache of it could be trusted.
 * What remains unguarded: a program that unmaps or mprotects part of its
 * own live stack or brk heap, or moves brk with a raw system call behind
 * glibc's back, and then passes a pointer there -- a SIGSEGV where the
 * kernel would say EFAULT.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"

/* Re-reads of /proc/self/maps a main thread may spend on a grown stack. */
#define STACK_RESCANS	8

struct stack_bounds {
	uintptr_t lo, hi;
	uintptr_t floor;	/* main thread: lowest address the stack may reach */
	int state;		/* 0 unknown, 1 known, -1 none */
	int is_main;
	int rescans;
};

/*
 * Initial-exec: read on every copy, and the general model's __tls_get_addr
 * call cost more than the check itself. libkfdsim.so is preloaded (loaded
 * at start-up), where static TLS is always available.
 */
static __thread struct stack_bounds tls_stack
	__attribute__((tls_model("initial-exec")));

/* Heap tier, process-wide (fork keeps it right: same address space). */
enum { HEAP_UNKNOWN, HEAP_UNVERIFIED, HEAP_VERIFIED, HEAP_OFF };
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t heap_lo;	/* start_brk, once known */
static int heap_state;

/* Read a small /proc file with raw calls (never the shim's wrappers). */
static ssize_t
read_proc(const char *path, char *buf, size_t size)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;

	if (fd < 0)
		return -1;
	while (n + 1 < size) {
		long r = syscall(SYS_read, fd, buf + n, size - 1 - n);

		if (r <= 0)
			break;
		n += (size_t)r;
	}
	syscall(SYS_close, fd);
	buf[n] = 0;
	return (ssize_t)n;
}

/*
 * The main thread's [stack] mapping from /proc/self/maps, read a chunk at a
 * time (the file can be long) so no allocation is needed.
 */
static int
main_stack(uintptr_t *lo, uintptr_t *hi)
{
	char buf[4096 + 1];
	size_t have = 0;
	int fd, found = 0;

	fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps",
			  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		long r = syscall(SYS_read, fd, buf + have, sizeof(buf) - 1 - have);
		char *line, *nl;

		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = 0;
		line = buf;
		while (!found && (nl = strchr(line, '\n'))) {
			*nl = 0;
			if (nl - line > 7 && !strcmp(nl - 7, "[stack]")) {
				char *end;

				*lo = strtoull(line, &end, 16);
				if (*end == '-') {
					*hi = strtoull(end + 1, NULL, 16);
					found = *hi > *lo;
				}
			}
			line = nl + 1;
		}
		if (found)
			break;
		/* keep the partial last line for the next read */
		have = strlen(line);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* a line that long is no [stack] line */
	}
	syscall(SYS_close, fd);
	return found ? 0 : -1;
}

static void
stack_init(struct stack_bounds *s)
{
	pthread_attr_t a;
	void *addr;
	size_t size;

	s->state = -1;
	s->is_main = syscall(SYS_gettid) == syscall(SYS_getpid);
	if (s->is_main) {
		struct rlimit rl;

		if (main_stack(&s->lo, &s->hi))
			return;
		s->state = 1;
		/* The stack grows down to RLIMIT_STACK below its top. */
		if (!syscall(SYS_getrlimit, RLIMIT_STACK, &rl) &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < s->hi)
			s->floor = s->hi - rl.rlim_cur;
		return;
	}
	/* glibc knows the stacks it made (no file access for those) */
	if (pthread_getattr_np(pthread_self(), &a))
		return;
	if (!pthread_attr_getstack(&a, &addr, &size) && size) {
		s->lo = (uintptr_t)addr;
		s->hi = (uintptr_t)addr + size;
		s->state = 1;
	}
	pthread_attr_destroy(&a);
}

static int
on_stack(uintptr_t sp, uint64_t uaddr, uint64_t end)
{
	struct stack_bounds *s = &tls_stack;

	if (!s->state)
		stack_init(s);
	if (s->state < 0 || sp > uaddr || end > s->hi)
		return 0;
	if (sp >= s->lo)
		return 1;
	/* Below the known bottom: the main stack grew, or this frame is on
	 * another stack (sigaltstack, a coroutine). Look again, a few times. */
	if (!s->is_main || sp < s->floor || s->rescans >= STACK_RESCANS)
		return 0;
	s->rescans++;
	if (main_stack(&s->lo, &s->hi))
		return 0;
	return sp >= s->lo && end <= s->hi;
}

/* start_brk: field 47 of /proc/self/stat (after the parenthesised comm). */
static uintptr_t
start_brk(void)
{
	char buf[1024], *p;
	int field = 2;

	if (read_proc("/proc/self/stat", buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	while (*p && field < 47) {
		if (*p++ == ' ')
			field++;
	}
	return field == 47 ? (uintptr_t)strtoull(p, NULL, 10) : 0;
}

/* Whether all of [lo, hi) is mapped (mincore fails on holes). */
static int
range_mapped(uintptr_t lo, uintptr_t hi)
{
	unsigned char vec[64];
	const uintptr_t chunk = sizeof(vec) * KSIM_PAGE_SIZE;

	for (uintptr_t a = lo; a < hi; a += chunk)
		if (syscall(SYS_mincore, (void *)a, hi - a < chunk ? hi - a : chunk, vec))
			return 0;
	return 1;
}

/* Decide once whether the heap tier describes this address space. */
static void
heap_settle(uintptr_t cur)
{
	pthread_mutex_lock(&heap_lock);
	int state = heap_state;

	if (state == HEAP_UNKNOWN) {
		heap_lo = start_brk();
		state = heap_lo && heap_lo <= cur &&
			!(heap_lo & (KSIM_PAGE_SIZE - 1)) ?
			HEAP_UNVERIFIED : HEAP_OFF;
	}
	/* An empty heap is checked once it has pages. */
	if (state == HEAP_UNVERIFIED && cur > heap_lo)
		state = range_mapped(heap_lo, KSIM_PAGE_ALIGN(cur)) ?
			HEAP_VERIFIED : HEAP_OFF;
	/* heap_lo is published by this store */
	__atomic_store_n(&heap_state, state, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&heap_lock);
}

static int
in_heap(uint64_t uaddr, uint64_t end)
{
	void *brk_now;
	uintptr_t cur;
	int state = __atomic_load_n(&heap_state, __ATOMIC_ACQUIRE);

	if (state == HEAP_OFF)
		return 0;
	brk_now = sbrk(0);
	if (brk_now == (void *)-1)
		return 0;
	cur = (uintptr_t)brk_now;
	if (state != HEAP_VERIFIED) {
		if (state == HEAP_UNVERIFIED && cur <= heap_lo)
			return 0;
		heap_settle(cur);
		if (__atomic_load_n(&heap_state, __ATOMIC_ACQUIRE) != HEAP_VERIFIED)
			return 0;
	}
	return uaddr >= heap_lo && end <= cur;
}

int
ksim_uaccess_direct(uint64_t uaddr, uint64_t len)
{
	volatile char here;
	uint64_t end = uaddr + len;

	if (!len || end < uaddr)
		return 0;
	return on_stack((uintptr_t)&here, uaddr, end) || in_heap(uaddr, end);
}
