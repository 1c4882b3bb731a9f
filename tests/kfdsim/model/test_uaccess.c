/* SPDX-License-Identifier: MIT */
/*
 * User-memory access: arguments on the caller's stack and in the brk heap
 * are copied directly (the fast path), everything else is checked, and in
 * every case a pointer the kernel would refuse gives -EFAULT, never a
 * fault -- including pointers just past the fast path's ranges.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktest.h"

/* Model-internal (uaccess_direct.c): whether a range takes the fast path. */
int ksim_uaccess_direct(uint64_t uaddr, uint64_t len);

#define PAGE 4096UL

static int
get_version(struct kt *t, void *where)
{
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, where);
}

/* Which memory takes which path. */
static void
test_direct_ranges(void **state)
{
	struct kfd_abi_get_version_args on_stack;
	char *small = malloc(64);
	void *page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(ksim_uaccess_direct((uintptr_t)&on_stack, sizeof(on_stack)));
	/* main-thread malloc: glibc's brk heap */
	assert_non_null(small);
	assert_true(ksim_uaccess_direct((uintptr_t)small, 64));
	/* a mapping of its own: always checked */
	assert_true(page != MAP_FAILED);
	assert_false(ksim_uaccess_direct((uintptr_t)page, 8));
	/* a range that runs past the end of the heap */
	assert_false(ksim_uaccess_direct((uintptr_t)sbrk(0) - 4, 8));
	assert_false(ksim_uaccess_direct(0, 8));
	assert_false(ksim_uaccess_direct(UINT64_MAX - 2, 8));
	munmap(page, PAGE);
	free(small);
}

/* Correct arguments work wherever they live. */
static void
test_args_anywhere(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_get_version_args *heap = calloc(1, sizeof(*heap));
	struct kfd_abi_get_version_args *mapped = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
						       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kfd_abi_get_version_args local = { 0 };

	assert_int_equal(get_version(t, &local), 0);
	assert_int_equal(local.major_version, 1);
	assert_int_equal(get_version(t, heap), 0);
	assert_int_equal(heap->major_version, 1);
	assert_true(mapped != MAP_FAILED);
	assert_int_equal(get_version(t, mapped), 0);
	assert_int_equal(mapped->major_version, 1);
	munmap(mapped, PAGE);
	free(heap);
}

/* Pointers at the edges of the fast path's ranges still give EFAULT. */
static void
test_edges_fault(void **state)
{
	struct kt *t = *state;
	unsigned char vec;
	char *top, *ro;

	/* the end of the brk heap: the page after it is unmapped */
	top = (char *)(((uintptr_t)sbrk(0) + PAGE - 1) & ~(PAGE - 1));
	if (mincore(top, PAGE, &vec) && errno == ENOMEM)
		assert_int_equal(get_version(t, top - 4), -EFAULT);
	/* a read-only page: copy_to_user fails, copy_from_user works */
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(ro != MAP_FAILED);
	assert_int_equal(get_version(t, ro), -EFAULT);
	{
		struct kfd_abi_destroy_event_args *d = (void *)ro;

		/* _IOW: read only; event 0 does not exist */
		assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DESTROY_EVENT, d), -EINVAL);
	}
	munmap(ro, PAGE);
	/* the heap itself made read-only by the program is its own fault:
	 * not tested (documented as outside the guarantee) */
}

struct thread_arg {
	struct kt *t;
	int stack_direct, stack_ok, heap_ok, gone_fault;
};

static void *
thread_main(void *p)
{
	struct thread_arg *a = p;
	struct kfd_abi_get_version_args v = { 0 };
	struct kfd_abi_get_version_args *h = malloc(sizeof(*h));
	char *gone;

	a->stack_direct = ksim_uaccess_direct((uintptr_t)&v, sizeof(v));
	a->stack_ok = get_version(a->t, &v) == 0 && v.major_version == 1;
	/* a thread's malloc comes from an mmap'd arena: the checked path */
	a->heap_ok = h && get_version(a->t, h) == 0 && h->major_version == 1;
	free(h);
	gone = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, PAGE);
	a->gone_fault = get_version(a->t, gone) == -EFAULT;
	return NULL;
}

/* Other threads: their own stacks are direct, everything still correct. */
static void
test_threads(void **state)
{
	struct thread_arg a = { .t = *state };
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, thread_main, &a), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(a.stack_direct);
	assert_true(a.stack_ok);
	assert_true(a.heap_ok);
	assert_true(a.gone_fault);
}

static struct kt *alt_t;
static volatile int alt_direct = -1, alt_ok = -1;

static void
on_signal(int sig)
{
	struct kfd_abi_get_version_args v = { 0 };

	(void)sig;
	/* the frame is on the alternate stack, outside the thread's stack */
	alt_direct = ksim_uaccess_direct((uintptr_t)&v, sizeof(v));
	alt_ok = get_version(alt_t, &v) == 0 && v.major_version == 1;
}

/* A handler on sigaltstack: its locals take the checked path, and work. */
static void
test_sigaltstack(void **state)
{
	stack_t ss = { 0 }, old;
	struct sigaction sa, olds;

	alt_t = *state;
	ss.ss_size = 64 * 1024;
	ss.ss_sp = mmap(NULL, ss.ss_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(ss.ss_sp != MAP_FAILED);
	assert_int_equal(sigaltstack(&ss, &old), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK;
	assert_int_equal(sigaction(SIGUSR1, &sa, &olds), 0);
	raise(SIGUSR1);
	assert_int_equal(sigaction(SIGUSR1, &olds, NULL), 0);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	munmap(ss.ss_sp, ss.ss_size);
	assert_int_equal(alt_direct, 0);
	assert_int_equal(alt_ok, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_ranges),
		cmocka_unit_test_setup_teardown(test_args_anywhere, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_edges_fault, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_threads, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_sigaltstack, kt_setup_mi210, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
