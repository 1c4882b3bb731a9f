/* SPDX-License-Identifier: MIT */
/*
 * Helper threads kept quiet across fork() (kfdtrace/fork_quiet.h): a
 * child is never made while a registered helper is busy, a helper born
 * busy holds a fork back until it goes idle, and a child starts with
 * none of its parent's helpers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kfdtrace/fork_quiet.h"

static struct kt_quiet q;
static atomic_int in_work, stop, forked;

/* Busy, in work for a few microseconds, idle, again. */
static void *
helper(void *arg)
{
	(void)arg;
	kt_quiet_idle(&q);	/* born busy */
	while (!atomic_load(&stop)) {
		kt_quiet_busy(&q);
		atomic_store(&in_work, 1);
		for (volatile int i = 0; i < 2000; i++)
			;
		atomic_store(&in_work, 0);
		kt_quiet_idle(&q);
	}
	kt_quiet_busy(&q);
	return NULL;
}

/* Fork @n times; every child reports whether the helper was in work. */
static int
forks_in_work(int n)
{
	int k, status, bad = 0;
	pid_t pid;

	for (k = 0; k < n; k++) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(atomic_load(&in_work) ? 3 : 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		bad += WEXITSTATUS(status) == 3;
	}
	return bad;
}

static void
test_never_busy_in_child(void **state)
{
	pthread_t th;

	(void)state;
	atomic_store(&stop, 0);
	kt_quiet_register(&q);
	assert_int_equal(pthread_create(&th, NULL, helper, NULL), 0);
	assert_int_equal(forks_in_work(300), 0);
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	kt_quiet_unregister(&q);
}

/*
 * Without registration the same helper is caught in work: the check
 * above can see what it guards against.
 */
static void
test_unregistered_is_caught(void **state)
{
	pthread_t th;
	int bad = 0, round;

	(void)state;
	atomic_store(&stop, 0);
	assert_int_equal(pthread_create(&th, NULL, helper, NULL), 0);
	for (round = 0; round < 20 && !bad; round++)
		bad = forks_in_work(100);
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	assert_true(bad > 0);
}

static void *
forker(void *arg)
{
	pid_t pid;

	(void)arg;
	pid = fork();
	if (pid == 0)
		_exit(0);
	atomic_store(&forked, 1);
	waitpid(pid, NULL, 0);
	return NULL;
}

/* A helper registered (born busy) holds fork() until it goes idle. */
static void
test_born_busy_holds_fork(void **state)
{
	struct timespec ms50 = { 0, 50000000 };
	pthread_t th;

	(void)state;
	atomic_store(&forked, 0);
	kt_quiet_register(&q);
	assert_int_equal(pthread_create(&th, NULL, forker, NULL), 0);
	nanosleep(&ms50, NULL);
	assert_int_equal(atomic_load(&forked), 0);
	kt_quiet_idle(&q);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&forked), 1);
	kt_quiet_unregister(&q);
}

/*
 * The child has none of the parent's helpers: one registered and busy
 * in the parent does not hold the child's own fork, and unregistering
 * it there does nothing.
 */
static void
test_child_starts_empty(void **state)
{
	struct kt_quiet mine;
	int status;
	pid_t pid;

	(void)state;
	kt_quiet_register(&q);
	kt_quiet_idle(&q);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pid_t g;

		kt_quiet_busy(&q);	/* the parent's, now nobody's */
		kt_quiet_unregister(&q);
		kt_quiet_register(&mine);
		kt_quiet_idle(&mine);
		g = fork();
		if (g == 0)
			_exit(0);
		_exit(g > 0 && waitpid(g, &status, 0) == g &&
		      WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1);
	}
	alarm(20);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	alarm(0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	kt_quiet_unregister(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_busy_in_child),
		cmocka_unit_test(test_unregistered_is_caught),
		cmocka_unit_test(test_born_busy_holds_fork),
		cmocka_unit_test(test_child_starts_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
