/* SPDX-License-Identifier: MIT */
/*
 * bench_thunk - the cost of the memory API with many live objects, for
 * whichever libhsakmt.so.1 the loader picks (ours with
 * LD_LIBRARY_PATH=build/thunk, else Debian's). Built against Debian's
 * 5.2.3 header so the same binary runs on both; bench_thunk.py runs it on
 * each and compares. Run on the simulator (kfdtrace sim).
 *
 * It measures, each as the best of REPEAT rounds:
 *  - alloc_loop_1k / alloc_loop_100k: ns per hsaKmtAllocMemory (64 KiB
 *    VRAM) + MapMemoryToGPU + UnmapMemoryToGPU + FreeMemory, with 1,000
 *    and then 100,000 other objects alive;
 *  - query_100k: ns per hsaKmtQueryPointerInfo of a random address inside
 *    one of the 100,000 live objects (each answer is checked).
 * The live objects are pages of one buffer registered one by one
 * (hsaKmtRegisterMemory): each is an object with its own GPU address in
 * both libraries. Run with HSA_SVM_GUARD_PAGES=0, or each object's VA
 * reservation is a mapping of its own and 100,000 of them exceed the
 * kernel's default vm.max_map_count.
 *
 * The simulator's own cost grows with the number of BOs it holds, so the
 * program also interposes ioctl(), mmap(), mmap64() and munmap(), the calls the
 * simulator answers (it is linked with exported symbols, so the library's
 * calls reach these definitions before the simulator's), and reports the
 * time spent outside them: alloc_lib_1k / alloc_lib_100k are the
 * library's own share of a round trip, which must not grow with the
 * number of live objects.
 *
 * Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so waiting
 * for a CPU on a busy machine does not count; the two clock reads around
 * each request count the same for both libraries, which send the same
 * requests.
 *
 * Output: "name value" lines; the first is "lib PATH". Exit 1 on failure.
 */
/* Both mmap and mmap64 are defined below; neither may be renamed. */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#include <hsakmt.h>
#include "tc_host.h"

#define PAGE		4096u
#define LIVE_FEW	1000u
#define LIVE_MANY	100000u
#define LOOP		1000u
#define QUERIES		20000u
#define REPEAT		12
#define ALLOC_SIZE	(64u << 10)

static HSAuint32 gpu_node;
/* Nanoseconds spent inside ioctl(), mmap() and munmap() so far. */
static uint64_t sys_ns;
static int (*real_ioctl)(int, unsigned long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static void *(*real_mmap64)(void *, size_t, int, int, int, off64_t);
static int (*real_munmap)(void *, size_t);
static char *live_buf;
static uint32_t n_live;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The next definition of @name (the simulator's, else libc's). */
static void *
next_sym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "bench_thunk: no %s after this program\n", name);
		abort();
	}
	return p;
}

/* The calls the simulator answers come here first: time its part. */
__attribute__((visibility("default"))) int
ioctl(int fd, unsigned long request, ...)
{
	uint64_t t0;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, ...))next_sym("ioctl");
	t0 = now_ns();
	ret = real_ioctl(fd, request, arg);
	sys_ns += now_ns() - t0;
	return ret;
}

__attribute__((visibility("default"))) void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	uint64_t t0;
	void *ret;

	if (!real_mmap)
		real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))next_sym("mmap");
	t0 = now_ns();
	ret = real_mmap(addr, len, prot, flags, fd, off);
	sys_ns += now_ns() - t0;
	return ret;
}

/* What a library built with 64-bit file offsets calls (ours is). */
__attribute__((visibility("default"))) void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	uint64_t t0;
	void *ret;

	if (!real_mmap64)
		real_mmap64 = (void *(*)(void *, size_t, int, int, int, off64_t))next_sym("mmap64");
	t0 = now_ns();
	ret = real_mmap64(addr, len, prot, flags, fd, off);
	sys_ns += now_ns() - t0;
	return ret;
}

__attribute__((visibility("default"))) int
munmap(void *addr, size_t len)
{
	uint64_t t0;
	int ret;

	if (!real_munmap)
		real_munmap = (int (*)(void *, size_t))next_sym("munmap");
	t0 = now_ns();
	ret = real_munmap(addr, len);
	sys_ns += now_ns() - t0;
	return ret;
}

static int
fail(const char *what, HSAKMT_STATUS st)
{
	fprintf(stderr, "bench_thunk: %s failed (status %d)\n", what, (int)st);
	return 1;
}

static int
find_lib(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libhsakmt.so")) {
		*(const char **)data = info->dlpi_name;
		return 1;
	}
	return 0;
}

/* Register pages of live_buf until @n objects are alive. */
static int
grow_live(uint32_t n)
{
	HSAKMT_STATUS st;

	for (; n_live < n; n_live++) {
		st = hsaKmtRegisterMemory(live_buf + (size_t)n_live * PAGE, PAGE);
		if (st != HSAKMT_STATUS_SUCCESS)
			return fail("hsaKmtRegisterMemory", st);
	}
	return 0;
}

/* Best ns per alloc + map + unmap + free round trip, and its library share. */
static int
alloc_loop(double *best, double *best_lib)
{
	HsaMemFlags f = { 0 };
	HSAKMT_STATUS st;
	HSAuint64 va;
	void *p;

	f.ui32.NonPaged = 1;
	f.ui32.CoarseGrain = 1;
	f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
	*best = *best_lib = 1e30;
	for (int r = 0; r < REPEAT; r++) {
		uint64_t t0 = now_ns(), in_sys = sys_ns;

		for (uint32_t i = 0; i < LOOP; i++) {
			st = hsaKmtAllocMemory(gpu_node, ALLOC_SIZE, f, &p);
			if (st != HSAKMT_STATUS_SUCCESS)
				return fail("hsaKmtAllocMemory", st);
			st = hsaKmtMapMemoryToGPU(p, ALLOC_SIZE, &va);
			if (st != HSAKMT_STATUS_SUCCESS)
				return fail("hsaKmtMapMemoryToGPU", st);
			st = hsaKmtUnmapMemoryToGPU(p);
			if (st != HSAKMT_STATUS_SUCCESS)
				return fail("hsaKmtUnmapMemoryToGPU", st);
			st = hsaKmtFreeMemory(p, ALLOC_SIZE);
			if (st != HSAKMT_STATUS_SUCCESS)
				return fail("hsaKmtFreeMemory", st);
		}
		uint64_t total = now_ns() - t0;
		double ns = (double)total / LOOP;
		double lib = (double)(total - (sys_ns - in_sys)) / LOOP;

		if (ns < *best)
			*best = ns;
		if (lib < *best_lib)
			*best_lib = lib;
	}
	return 0;
}

/* Best ns per QueryPointerInfo of a random address inside a live object. */
static int
query_loop(double *best)
{
	uint64_t x = 88172645463325252ull;
	HsaPointerInfo pi;
	HSAKMT_STATUS st;

	*best = 1e30;
	for (int r = 0; r < REPEAT; r++) {
		uint64_t t0 = now_ns();

		for (uint32_t i = 0; i < QUERIES; i++) {
			char *page, *addr;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			page = live_buf + (size_t)(x % n_live) * PAGE;
			addr = page + (x >> 40) % PAGE;
			st = hsaKmtQueryPointerInfo(addr, &pi);
			if (st != HSAKMT_STATUS_SUCCESS)
				return fail("hsaKmtQueryPointerInfo", st);
			if (pi.Type != HSA_POINTER_REGISTERED_USER || pi.CPUAddress != page) {
				fprintf(stderr, "bench_thunk: %p: type %d at %p, expected user memory "
					"at %p\n", (void *)addr, pi.Type, pi.CPUAddress, (void *)page);
				return 1;
			}
		}
		double ns = (double)(now_ns() - t0) / QUERIES;
		if (ns < *best)
			*best = ns;
	}
	return 0;
}

int
main(void)
{
	const char *lib = NULL;
	HsaSystemProperties sp;
	HsaNodeProperties np;
	double few, many, few_lib, many_lib, query;
	HSAKMT_STATUS st;
	uint32_t i;

	tc_host_costs();
	dl_iterate_phdr(find_lib, &lib);
	printf("lib %s\n", lib ? lib : "?");
	st = hsaKmtOpenKFD();
	if (st != HSAKMT_STATUS_SUCCESS)
		return fail("hsaKmtOpenKFD", st);
	st = hsaKmtAcquireSystemProperties(&sp);
	if (st != HSAKMT_STATUS_SUCCESS)
		return fail("hsaKmtAcquireSystemProperties", st);
	for (gpu_node = 0; gpu_node < sp.NumNodes; gpu_node++)
		if (hsaKmtGetNodeProperties(gpu_node, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			break;
	if (gpu_node == sp.NumNodes)
		return fail("finding a GPU node", HSAKMT_STATUS_ERROR);
	if (posix_memalign((void **)&live_buf, PAGE, (size_t)LIVE_MANY * PAGE))
		return fail("posix_memalign", HSAKMT_STATUS_NO_MEMORY);
	memset(live_buf, 0, (size_t)LIVE_MANY * PAGE);

	if (grow_live(LIVE_FEW) || alloc_loop(&few, &few_lib))
		return 1;
	printf("alloc_loop_1k %.1f\nalloc_lib_1k %.1f\n", few, few_lib);
	if (grow_live(LIVE_MANY) || alloc_loop(&many, &many_lib))
		return 1;
	printf("alloc_loop_100k %.1f\nalloc_lib_100k %.1f\n", many, many_lib);
	if (query_loop(&query))
		return 1;
	printf("query_100k %.1f\n", query);

	for (i = 0; i < n_live; i++) {
		st = hsaKmtDeregisterMemory(live_buf + (size_t)i * PAGE);
		if (st != HSAKMT_STATUS_SUCCESS)
			return fail("hsaKmtDeregisterMemory", st);
	}
	st = hsaKmtCloseKFD();
	if (st != HSAKMT_STATUS_SUCCESS)
		return fail("hsaKmtCloseKFD", st);
	free(live_buf);
	return 0;
}
