/* SPDX-License-Identifier: MIT */
/*
 * fork() while other threads are inside kfdtrace's libhsakmt, on kfdsim.
 *
 * Twelve threads run the random operation mix of the hammer test; the main
 * thread forks repeatedly at random moments. Each child must find the
 * inherited library unusable (KERNEL_IO_CHANNEL_NOT_OPENED, as the kernel
 * refuses a KFD file from another process), reopen it without deadlocking
 * on a lock a parent thread held at the fork, and then allocate, map,
 * free, run an event and a queue cycle and close like a fresh process.
 * The parent's threads go on undisturbed, and its books balance at the end
 * (as in the hammer test). A watchdog fails the test on a hang.
 *
 * Under AddressSanitizer the workers pause between two operations while
 * each fork is made. GCC 12's ASan runtime does not hold its allocator's
 * locks across fork(): a child forked while a worker refills an allocator
 * cache inherits that lock taken and hangs in its first malloc() or free()
 * (seen: 3 of 302 runs under load, the child in
 * SizeClassAllocator64::GetFromAllocator under libdrm's free()), whatever
 * the program. There the test checks the child's reopen and work for
 * memory errors; the forks while workers are inside the library are the
 * plain and ThreadSanitizer builds' (docs/reliability.md).
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "stress_util.h"
#include "tc_run.h"

#define FORK_THREADS	12
#define FORKS		8
#define CHILD_SECONDS	20

#if defined(__SANITIZE_ADDRESS__)
#define FORK_PAUSE	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FORK_PAUSE	1
#endif
#endif
#ifndef FORK_PAUSE
#define FORK_PAUSE	0
#endif

static struct stress_machine mach;
static atomic_bool stop;
static atomic_int in_call;
/* FORK_PAUSE: the main thread asks (pause) and counts the paused workers. */
static atomic_bool pause_req;
static atomic_int paused;

/* What a child checks, in order; its exit status names the first failure. */
enum child_step {
	CHILD_OK = 0,
	CHILD_INHERITED = 10,	/* calls before the reopen must be refused */
	CHILD_OPEN,
	CHILD_TOPOLOGY,
	CHILD_ALLOC,
	CHILD_MAP,
	CHILD_FREE,
	CHILD_EVENT,
	CHILD_QUEUE,
	CHILD_AVAIL,
	CHILD_CLOSE,
};

static int
child_main(void)
{
	struct stress_machine m;
	HsaMemFlags f = { 0 };
	HSAuint64 before, after, gva;
	void *p = NULL;

	f.ui32.NonPaged = 1;
	f.ui32.CoarseGrain = 1;
	if (hsaKmtAllocMemory(mach.gpus[0], 4096, f, &p) !=
	    HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
		return CHILD_INHERITED;
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return CHILD_OPEN;
	if (stress_machine_get(&m) || m.n_gpus != mach.n_gpus)
		return CHILD_TOPOLOGY;
	if (hsaKmtAvailableMemory(m.gpus[0], &before) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAllocMemory(m.gpus[0], 64 << 10, f, &p) != HSAKMT_STATUS_SUCCESS)
		return CHILD_ALLOC;
	if (hsaKmtMapMemoryToGPU(p, 64 << 10, &gva) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtUnmapMemoryToGPU(p) != HSAKMT_STATUS_SUCCESS)
		return CHILD_MAP;
	if (hsaKmtFreeMemory(p, 64 << 10) != HSAKMT_STATUS_SUCCESS)
		return CHILD_FREE;
	if (stress_event_cycle() != HSAKMT_STATUS_SUCCESS)
		return CHILD_EVENT;
	if (stress_queue_cycle(m.gpus[0]) != HSAKMT_STATUS_SUCCESS)
		return CHILD_QUEUE;
	if (hsaKmtAvailableMemory(m.gpus[0], &after) != HSAKMT_STATUS_SUCCESS || after != before)
		return CHILD_AVAIL;
	if (hsaKmtReleaseSystemProperties() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtCloseKFD() != HSAKMT_STATUS_SUCCESS)
		return CHILD_CLOSE;
	return CHILD_OK;
}

/*
 * cmocka catches SIGSEGV and friends to fail the running test; a child
 * inherits that and would report a crash as cmocka's exit status 1. The
 * default action makes it die by the signal instead (reported as 128 +
 * signal, with a core dump where enabled).
 */
static void
child_signals_default(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

	for (unsigned int i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}

/* FORK_PAUSE: hold every worker between two operations. */
static void
workers_pause(void)
{
	atomic_store(&pause_req, true);
	while (atomic_load(&paused) < FORK_THREADS)
		usleep(100);
}

/* The child's exit status, or -1 if it did not finish in time. */
static int
reap(pid_t pid)
{
	double t0 = tc_now();
	int status;

	while (tc_now() - t0 < CHILD_SECONDS) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		usleep(2000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static void
test_fork_while_busy(void **state)
{
	static struct stress_worker workers[FORK_THREADS];
	struct stress_books before, after;
	pthread_t th[FORK_THREADS];
	struct stress_counts sum = { 0 };
	unsigned int busy_forks = 0;

	(void)state;
	stress_watchdog(200);
	assert_int_equal(stress_open_warm(&mach), 0);
	assert_int_equal(stress_books_get(&mach, &before), 0);

	for (unsigned int i = 0; i < FORK_THREADS; i++) {
		stress_worker_init(&workers[i], i, STRESS_OP_ALL, &mach, &stop, &in_call);
		workers[i].pause_req = &pause_req;
		workers[i].paused = &paused;
		assert_int_equal(pthread_create(&th[i], NULL, stress_worker_main, &workers[i]), 0);
	}
	for (unsigned int k = 0; k < FORKS; k++) {
		int status;
		pid_t pid;

		usleep(20000 + 10000 * (k % 5));
		if (FORK_PAUSE)
			workers_pause();
		busy_forks += atomic_load(&in_call) > 0;
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			child_signals_default();
			_exit(child_main());
		}
		atomic_store(&pause_req, false);
		status = reap(pid);
		if (status)
			fprintf(stderr, "stress-fork: child %u: status %d (enum child_step; "
				"128 + N: killed by signal N; -1: hung)\n", k, status);
		assert_int_equal(status, 0);
	}
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < FORK_THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	for (unsigned int i = 0; i < FORK_THREADS; i++)
		stress_counts_add(&sum, &workers[i].n);

	printf("stress-fork: %u forks (%u with other threads inside the library%s), every child "
	       "reopened and worked; parent: %lu allocs, %lu frees, %lu event cycles, "
	       "%lu queue cycles, %lu failures\n", FORKS, busy_forks,
	       FORK_PAUSE ? "; ASan: workers paused at each fork" : "", sum.allocs, sum.frees,
	       sum.events, sum.queues, stress_failures());
	assert_int_equal(stress_failures(), 0);
	if (FORK_PAUSE)
		assert_int_equal(busy_forks, 0);
	else
		assert_true(busy_forks > 0);
	assert_int_equal(sum.allocs, sum.frees);
	assert_int_equal(sum.maps, sum.unmaps);
	assert_int_equal(stress_books_get(&mach, &after), 0);
	for (unsigned int g = 0; g < mach.n_gpus; g++)
		assert_int_equal(after.avail[g], before.avail[g]);
	assert_int_equal(after.fds, before.fds);
	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	stress_watchdog(0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_while_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
