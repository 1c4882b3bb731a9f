/* SPDX-License-Identifier: MIT */
/*
 * A program whose device calls go on to the very end: at exit(), an
 * atexit() handler and the destructor of a library it links use the
 * device, and a second thread keeps issuing GET_VERSIONs until the
 * process is gone.
 *
 *   kt_teardown main		main() returns
 *   kt_teardown thread-exit	the second thread calls exit() while the
 *				main thread issues GET_VERSIONs
 *   kt_teardown blocked	a third thread waits for an event that
 *				nobody sets (infinite WAIT_EVENTS) while
 *				main() returns
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "kt_teardown.h"

static atomic_long loop_calls;
static atomic_int waiting;	/* the blocked thread's tid */

/* Whether thread @tid sleeps (in its WAIT_EVENTS, once it is there). */
static int
sleeping(int tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}
static int kt_td_fd;

static void
get_version(void)
{
	struct kfd_abi_get_version_args v = { 0 };

	ioctl(kt_td_fd, KFD_ABI_IOC_GET_VERSION, &v);
}

static void
at_exit(void)
{
	struct kfd_abi_get_clock_counters_args c = { 0 };

	for (int i = 0; i < KT_TD_ATEXIT_CALLS; i++)
		ioctl(kt_td_fd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c);
}

/* GET_VERSIONs for as long as the process lives. */
static void *
loop_thread(void *unused)
{
	(void)unused;
	for (;;) {
		get_version();
		atomic_fetch_add(&loop_calls, 1);
	}
	return NULL;
}

static void *
exit_thread(void *unused)
{
	(void)unused;
	while (atomic_load(&loop_calls) < 100)
		sched_yield();
	exit(0);
}

/* WAIT_EVENTS on an event nobody sets, with no timeout. */
static void *
blocked_thread(void *unused)
{
	struct kfd_abi_create_event_args ce = { 0 };
	struct kfd_abi_event_data ed = { 0 };
	struct kfd_abi_wait_events_args we = { 0 };

	(void)unused;
	ce.event_type = KFD_ABI_EVENT_SIGNAL;
	if (ioctl(kt_td_fd, KFD_ABI_IOC_CREATE_EVENT, &ce)) {
		perror("CREATE_EVENT");
		exit(2);
	}
	ed.event_id = ce.event_id;
	we.events_ptr = (uint64_t)(uintptr_t)&ed;
	we.num_events = 1;
	we.wait_for_all = 1;
	we.timeout = 0xffffffffu;
	atomic_store(&waiting, (int)syscall(SYS_gettid));
	ioctl(kt_td_fd, KFD_ABI_IOC_WAIT_EVENTS, &we);
	return NULL;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";
	pthread_t t;

	kt_td_fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (kt_td_fd < 0) {
		perror("/dev/kfd");
		return 2;
	}
	kt_td_use_fd(kt_td_fd);
	for (int i = 0; i < KT_TD_MAIN_CALLS; i++)
		get_version();
	atexit(at_exit);
	if (!strcmp(mode, "blocked")) {
		pthread_create(&t, NULL, blocked_thread, NULL);
		/* Return only once it waits in the device. */
		while (!atomic_load(&waiting) || !sleeping(atomic_load(&waiting)))
			sched_yield();
	}
	if (!strcmp(mode, "thread-exit")) {
		pthread_create(&t, NULL, exit_thread, NULL);
		loop_thread(NULL);
	}
	pthread_create(&t, NULL, loop_thread, NULL);
	while (atomic_load(&loop_calls) < 100)
		sched_yield();
	return 0;
}
