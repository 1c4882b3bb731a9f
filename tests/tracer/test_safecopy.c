/* SPDX-License-Identifier: MIT */
/*
 * The tracer's copies of user memory (tracer/safecopy.h): the shortcut for
 * memory on the caller's own stack must say yes only where the memory is
 * certainly mapped (this thread's stack, above the current frame), and
 * everything else must still be copied safely or reported unreadable.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "safecopy.h"

/* Asks from a frame below the caller's, as the tracer does. */
static __attribute__((noinline)) int
holds(const void *p, size_t len)
{
	return kfd_stack_holds(p, len);
}

static __attribute__((noinline)) int
copy(void *dst, const void *src, size_t len)
{
	return kfd_safe_copy(dst, src, len);
}

static void
check_this_thread(void)
{
	char local[64] = "on the stack";
	char out[64];
	char *heap = malloc(64);

	/* The caller's locals: yes, and copied. */
	assert_true(holds(local, sizeof(local)));
	assert_int_equal(copy(out, local, sizeof(local)), 0);
	assert_string_equal(out, "on the stack");
	/* Past the top of the stack, or running over it: no. */
	assert_true(kfd_stack_me.state == 1);
	assert_false(holds((void *)kfd_stack_me.hi, 8));
	assert_false(holds((void *)(kfd_stack_me.hi - 8), 16));
	/* Below the current frame (a dead frame's place): no. */
	assert_false(holds((char *)__builtin_frame_address(0) - 4096, 8));
	/* The heap: no, yet copied all the same. */
	assert_non_null(heap);
	strcpy(heap, "on the heap");
	assert_false(holds(heap, 64));
	assert_int_equal(copy(out, heap, 64), 0);
	assert_string_equal(out, "on the heap");
	free(heap);
}

static void
test_main_thread(void **state)
{
	check_this_thread();
	(void)state;
}

static void *
thread_main(void *arg)
{
	check_this_thread();
	return arg;
}

/* A thread glibc made, and one on a stack the program handed it. */
static void
test_other_threads(void **state)
{
	size_t size = 256 * 1024;
	void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_attr_t attr;
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, thread_main, NULL), 0);
	assert_int_equal(pthread_join(t, NULL), 0);

	assert_true(stack != MAP_FAILED);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstack(&attr, stack, size), 0);
	assert_int_equal(pthread_create(&t, &attr, thread_main, NULL), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	pthread_attr_destroy(&attr);
	munmap(stack, size);
	(void)state;
}

/* On a signal stack nothing is taken for the thread's stack. */
static volatile int altstack_held = -1, altstack_copied = -1;

static void
on_signal(int sig)
{
	char local[16] = "handler";
	char out[16];

	altstack_held = holds(local, sizeof(local));
	altstack_copied = copy(out, local, sizeof(local)) == 0 &&
			  !strcmp(out, "handler");
	(void)sig;
}

static void
test_signal_stack(void **state)
{
	stack_t ss = { .ss_size = 64 * 1024 };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_ONSTACK };

	ss.ss_sp = malloc(ss.ss_size);
	assert_non_null(ss.ss_sp);
	assert_int_equal(sigaltstack(&ss, NULL), 0);
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	raise(SIGUSR1);
	assert_int_equal(altstack_held, 0);
	assert_int_equal(altstack_copied, 1);
	ss.ss_flags = SS_DISABLE;
	assert_int_equal(sigaltstack(&ss, NULL), 0);
	free(ss.ss_sp);
	(void)state;
}

/* Unmapped memory: reported, never a crash (the system-call path). */
static void
test_unreadable(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char out[64];

	assert_true(p != MAP_FAILED);
	assert_int_equal(mprotect(p + page, (size_t)page, PROT_NONE), 0);
	assert_false(holds(p + page, 8));
	assert_int_equal(copy(out, p + page, 8), -EFAULT);
	/* Straddling into the bad page. */
	assert_int_equal(copy(out, p + page - 8, 16), -EFAULT);
	assert_int_equal(copy(out, p + page - 8, 8), 0);
	assert_int_equal(copy(out, NULL, 8), -EFAULT);
	munmap(p, (size_t)page * 2);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_main_thread),
		cmocka_unit_test(test_other_threads),
		cmocka_unit_test(test_signal_stack),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
