/* SPDX-License-Identifier: MIT */
/*
 * Signals delivered to a thread blocked in hsaKmtWaitOnEvent().
 *
 * The kernel's WAIT_EVENTS sleeps interruptibly: a signal makes the ioctl
 * fail with EINTR before the wait completed (nothing consumed), and the
 * library must issue it again. kfdsim sleeps on a condition variable that
 * a signal handler does not break, so this program interposes ioctl()
 * (the executable's symbol comes before libkfdsim.so's) and, while
 * `interruptible` is on, sleeps in slices of 10 ms, answering EINTR at the
 * first slice boundary after a signal reached the waiting thread, as the
 * kernel would. Each test counts the WAIT_EVENTS attempts, the EINTRs
 * handed out and the signals handled: every EINTR must be followed by
 * exactly one retry, and the call must return what the wait really gave
 * (SUCCESS once set, WAIT_TIMEOUT no earlier than its timeout). With
 * `interruptible` off the signals hit kfdsim's sleep itself. Meanwhile a
 * background thread keeps creating, setting and destroying other events.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>

#include "stress_util.h"
#include "tc_run.h"

#define SLICE_MS	10

static atomic_bool interruptible;
static atomic_uint wait_attempts, eintrs, handled;
static __thread volatile sig_atomic_t signal_arrived;
/* Only the waiting thread's calls are counted and made interruptible. */
static __thread bool is_waiter;

static void
on_signal(int sig)
{
	(void)sig;
	signal_arrived = 1;
	atomic_fetch_add(&handled, 1);
}

static int (*next_ioctl)(int, unsigned long, ...);
static pthread_once_t next_once = PTHREAD_ONCE_INIT;

static void
find_next_ioctl(void)
{
	next_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
}

/* An interruptible WAIT_EVENTS on top of kfdsim's uninterruptible one. */
static int
wait_interruptible(int fd, unsigned long request, struct kfd_abi_wait_events_args *a)
{
	const uint32_t timeout = a->timeout;
	const bool infinite = timeout == HSA_EVENTTIMEOUT_INFINITE;
	const double deadline = tc_now() + timeout / 1000.0;
	int ret;

	for (;;) {
		double left = deadline - tc_now();

		if (signal_arrived) {
			signal_arrived = 0;
			atomic_fetch_add(&eintrs, 1);
			errno = EINTR;
			return -1;
		}
		a->timeout = infinite || left * 1000 > SLICE_MS ? SLICE_MS :
			     left > 0 ? (uint32_t)(left * 1000) : 0;
		ret = next_ioctl(fd, request, a);
		a->timeout = timeout;	/* the kernel leaves the caller's value */
		if (ret || a->wait_result != KFD_ABI_WAIT_RESULT_TIMEOUT)
			return ret;
		if (!infinite && tc_now() >= deadline)
			return ret;
	}
}

__attribute__((visibility("default"))) int ioctl(int fd, unsigned long request, ...);

__attribute__((visibility("default"))) int
ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	pthread_once(&next_once, find_next_ioctl);
	if (request != KFD_ABI_IOC_WAIT_EVENTS || !is_waiter)
		return next_ioctl(fd, request, arg);
	atomic_fetch_add(&wait_attempts, 1);
	if (!atomic_load(&interruptible) ||
	    ((struct kfd_abi_wait_events_args *)arg)->timeout == 0)
		return next_ioctl(fd, request, arg);
	return wait_interruptible(fd, request, arg);
}

/* The waiting thread. */
struct waiter {
	pthread_t thread;
	HsaEvent *events[2];
	unsigned int n;
	bool all;
	HSAuint32 ms;
	HSAKMT_STATUS st;
	double took;
};

static void *
waiter_main(void *arg)
{
	struct waiter *w = arg;
	double t0 = tc_now();

	is_waiter = true;
	if (w->n == 1)
		w->st = hsaKmtWaitOnEvent(w->events[0], w->ms);
	else
		w->st = hsaKmtWaitOnMultipleEvents(w->events, w->n, w->all, w->ms);
	w->took = tc_now() - t0;
	return NULL;
}

/* Other threads keep using events while the waiter is signalled. */
static atomic_bool bg_stop;
static unsigned long bg_cycles;

static void *
background(void *arg)
{
	(void)arg;
	while (!atomic_load(&bg_stop)) {
		HSAKMT_STATUS st = stress_event_cycle();

		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		bg_cycles++;
	}
	return NULL;
}

/*
 * Each test's start: the counters zeroed, its WAIT_EVENTS interruptible
 * or not (@intr), @w->n new events (manual-reset or auto-reset), and the
 * waiter started on them.
 */
static void
start_waiter(struct waiter *w, bool intr, bool manual_reset)
{
	atomic_store(&interruptible, intr);
	atomic_store(&wait_attempts, 0);
	atomic_store(&eintrs, 0);
	atomic_store(&handled, 0);
	for (unsigned int i = 0; i < w->n; i++)
		w->events[i] = stress_event_new(manual_reset);
	for (unsigned int i = 0; i < w->n; i++)
		assert_non_null(w->events[i]);
	assert_int_equal(pthread_create(&w->thread, NULL, waiter_main, w), 0);
}

/* Wait until the waiter is inside WAIT_EVENTS, then signal it @n times. */
static void
signal_waiter(struct waiter *w, unsigned int n)
{
	double t0 = tc_now();

	while (!atomic_load(&wait_attempts) && tc_now() - t0 < 30)
		usleep(1000);
	assert_true(atomic_load(&wait_attempts) > 0);
	/*
	 * One at a time: a signal sent while the same one is still pending is
	 * merged with it (ThreadSanitizer also defers handlers to its next
	 * safe point), and each should interrupt a wait of its own.
	 */
	for (unsigned int i = 0; i < n; i++) {
		assert_int_equal(pthread_kill(w->thread, SIGUSR1), 0);
		while (atomic_load(&handled) <= i && tc_now() - t0 < 30)
			usleep(1000);
		assert_int_equal(atomic_load(&handled), i + 1);
		usleep(2 * SLICE_MS * 1000);
	}
}

/* Blocked forever until set: every EINTR is retried, then SUCCESS. */
static void
test_infinite_wait(void **state)
{
	struct waiter w = { .n = 1, .ms = HSA_EVENTTIMEOUT_INFINITE };

	(void)state;
	start_waiter(&w, true, false);
	signal_waiter(&w, 10);
	assert_int_equal(hsaKmtSetEvent(w.events[0]), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pthread_join(w.thread, NULL), 0);
	assert_int_equal(w.st, HSAKMT_STATUS_SUCCESS);
	assert_true(atomic_load(&eintrs) >= 1);
	/* One retry per EINTR, no more, no fewer. */
	assert_int_equal(atomic_load(&wait_attempts), atomic_load(&eintrs) + 1);
	/* The one set was consumed exactly once. */
	assert_int_equal(hsaKmtWaitOnEvent(w.events[0], 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEvent(w.events[0]), HSAKMT_STATUS_SUCCESS);
	printf("stress-signals: infinite wait: %u signals, %u EINTR, %u WAIT_EVENTS attempts, "
	       "SUCCESS\n", atomic_load(&handled), atomic_load(&eintrs),
	       atomic_load(&wait_attempts));
}

/*
 * Nobody sets: WAIT_TIMEOUT, and not before the timeout elapsed. Each
 * EINTR restarts the whole timeout (as AMD's library does), so only the
 * first signal must come within it: 1.5 s leaves room on a loaded machine.
 */
static void
test_timed_wait(void **state)
{
	struct waiter w = { .n = 1, .ms = 1500 };

	(void)state;
	start_waiter(&w, true, false);
	signal_waiter(&w, 5);
	assert_int_equal(pthread_join(w.thread, NULL), 0);
	assert_int_equal(w.st, HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_true(w.took >= 1.5);
	assert_true(w.took < 30);
	assert_true(atomic_load(&eintrs) >= 1);
	assert_int_equal(atomic_load(&wait_attempts), atomic_load(&eintrs) + 1);
	assert_int_equal(hsaKmtDestroyEvent(w.events[0]), HSAKMT_STATUS_SUCCESS);
	printf("stress-signals: timed wait: %u signals, %u EINTR, WAIT_TIMEOUT after %.2f s "
	       "(timeout 1.50 s)\n", atomic_load(&handled), atomic_load(&eintrs), w.took);
}

/*
 * Wait for all of two events, set one before and one after the signals.
 * Manual-reset events: the kernel consumes an auto-reset event's signal
 * when a wait starts, so an interrupted wait-all on auto-reset events
 * loses it (as on the kernel); manual-reset ones stay set across retries.
 */
static void
test_wait_all(void **state)
{
	struct waiter w = { .n = 2, .all = true, .ms = 20000 };

	(void)state;
	start_waiter(&w, true, true);
	assert_int_equal(hsaKmtSetEvent(w.events[0]), HSAKMT_STATUS_SUCCESS);
	signal_waiter(&w, 5);
	assert_int_equal(hsaKmtSetEvent(w.events[1]), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pthread_join(w.thread, NULL), 0);
	assert_int_equal(w.st, HSAKMT_STATUS_SUCCESS);
	assert_int_equal(atomic_load(&wait_attempts), atomic_load(&eintrs) + 1);
	for (unsigned int i = 0; i < 2; i++)
		assert_int_equal(hsaKmtDestroyEvent(w.events[i]), HSAKMT_STATUS_SUCCESS);
	printf("stress-signals: wait-all: %u signals, %u EINTR, SUCCESS\n",
	       atomic_load(&handled), atomic_load(&eintrs));
}

/* The simulator's own sleep, signalled: the handler runs, the wait goes on. */
static void
test_uninterrupted_sleep(void **state)
{
	struct waiter w = { .n = 1, .ms = 20000 };

	(void)state;
	start_waiter(&w, false, false);
	signal_waiter(&w, 10);
	assert_int_equal(hsaKmtSetEvent(w.events[0]), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pthread_join(w.thread, NULL), 0);
	assert_int_equal(w.st, HSAKMT_STATUS_SUCCESS);
	assert_int_equal(atomic_load(&eintrs), 0);
	assert_int_equal(atomic_load(&wait_attempts), 1);
	assert_int_equal(hsaKmtDestroyEvent(w.events[0]), HSAKMT_STATUS_SUCCESS);
	printf("stress-signals: simulator sleep: %u signals handled, one WAIT_EVENTS, SUCCESS\n",
	       atomic_load(&handled));
}

static pthread_t bg_thread;

static int
setup(void **state)
{
	struct sigaction sa;

	(void)state;
	stress_watchdog(200);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: system calls see EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return -1;
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return -1;
	return pthread_create(&bg_thread, NULL, background, NULL) ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	atomic_store(&bg_stop, true);
	pthread_join(bg_thread, NULL);
	printf("stress-signals: %lu background event cycles, %lu failures\n", bg_cycles,
	       stress_failures());
	if (stress_failures() || !bg_cycles)
		return -1;
	stress_watchdog(0);
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_infinite_wait),
		cmocka_unit_test(test_timed_wait),
		cmocka_unit_test(test_wait_all),
		cmocka_unit_test(test_uninterrupted_sleep),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
