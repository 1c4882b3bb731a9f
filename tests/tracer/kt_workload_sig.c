/* SPDX-License-Identifier: MIT */
/*
 * kt_workload's modes that end by a signal or make children with clone
 * (kt_workload.h; the usage is in kt_workload.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "kt_workload.h"

#define CHILD_STACK (256 << 10)

static int sig_number;

static void *
kill_thread(void *p)
{
	(void)p;
	kill(getpid(), sig_number);
	return NULL;
}

/* Tell the test we are ready for its kill(): "<pid>\n" in $KT_READY. */
static void
say_ready(void)
{
	const char *path = getenv("KT_READY");
	char tmp[4200], line[32];
	int fd, n;

	if (!path)
		die("KT_READY is not set");
	/* Whole or not at all: written aside, then renamed into place. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("KT_READY");
	n = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	if (write(fd, line, (size_t)n) != n)
		die("KT_READY write");
	close(fd);
	if (rename(tmp, path))
		die("KT_READY rename");
}

static void
own_exit_handler(int sig)
{
	static const char msg[] = "kt_workload: own handler ran\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	exit(43);
}

static void
reraise_handler(int sig)
{
	static const char msg[] = "kt_workload: re-raising with the default\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The program's view of @sig's disposition is @want. */
static int
view_is(int sig, sighandler_t want)
{
	struct sigaction cur;

	if (sigaction(sig, NULL, &cur))
		return 0;
	return cur.sa_handler == want;
}

int
mode_signal(int sig, long n, const char *how)
{
	int kfd = open_kfd();
	pthread_t th;

	sig_number = sig;
	for (long i = 0; i < n; i++)
		get_version(kfd);
	/* The trace is open now: what does the program see? */
	if (!view_is(sig, SIG_DFL)) {
		fprintf(stderr, "kt_workload: signal %d does not show SIG_DFL\n", sig);
		return 3;
	}
	if (!strcmp(how, "ownexit") || !strcmp(how, "reraise")) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = !strcmp(how, "ownexit") ? own_exit_handler :
			       reraise_handler;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig, &sa, NULL) || !view_is(sig, sa.sa_handler)) {
			fprintf(stderr, "kt_workload: own handler not shown\n");
			return 3;
		}
	} else if (!strcmp(how, "ignore")) {
		int p[2];

		if (signal(sig, SIG_IGN) == SIG_ERR || !view_is(sig, SIG_IGN)) {
			fprintf(stderr, "kt_workload: SIG_IGN not shown\n");
			return 3;
		}
		raise(sig);
		/* And a write to a pipe nobody reads: EPIPE, no signal. */
		if (pipe(p))
			die("pipe");
		close(p[0]);
		if (write(p[1], "x", 1) != -1 || errno != EPIPE)
			die("write to a closed pipe");
		close(p[1]);
		get_version(kfd);
		close(kfd);
		counts_write();
		return 0;
	}
	counts_write();
	if (!strcmp(how, "kill")) {
		kill(getpid(), sig);
	} else if (!strcmp(how, "thread")) {
		if (pthread_create(&th, NULL, kill_thread, NULL))
			die("pthread_create");
		pthread_join(th, NULL);
	} else if (!strcmp(how, "parent")) {
		say_ready();
		for (;;)
			pause();
	} else {
		raise(sig);
	}
	/* A signal sent to the process may take a moment to arrive. */
	for (int i = 0; i < 100; i++)
		usleep(100 * 1000);
	fprintf(stderr, "kt_workload: still alive after signal %d\n", sig);
	return 3;
}

struct clone_arg {
	long n;
	int kfd;		/* the parent's, for a child sharing memory */
};

/*
 * A child with memory of its own: it opens the device itself. The
 * argument is on the child's own stack, where the reply must land.
 */
static int
clone_child(void *p)
{
	const struct clone_arg *a = p;
	struct kfd_abi_get_version_args v;
	int kfd;

	counts_clear();
	kfd = open_kfd();
	for (long i = 0; i < a->n; i++) {
		memset(&v, 0, sizeof(v));
		kio(kfd, "GET_VERSION", KFD_ABI_IOC_GET_VERSION, &v, 0);
		if (v.major_version != 1)
			die("GET_VERSION major");
	}
	close(kfd);
	counts_write();
	return 0;
}

static long vm_calls;

/*
 * A child sharing the parent's memory: nothing of the parent's state may
 * be changed (its counts least of all), so raw ioctls, counted here.
 */
static int
clone_vm_child(void *p)
{
	const struct clone_arg *a = p;

	for (long i = 0; i < a->n; i++) {
		struct kfd_abi_get_version_args v = { 0 };

		if (ioctl(a->kfd, KFD_ABI_IOC_GET_VERSION, &v) == 0)
			vm_calls++;
	}
	return 0;
}

int
mode_clone(const char *how, long n)
{
	struct clone_arg a = { .n = n };
	int kfd = open_kfd(), status;
	char *stack = NULL;
	pid_t pid;

	get_version(kfd);
	a.kfd = kfd;
	fflush(NULL);
	if (!strcmp(how, "raw")) {
		pid = (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, NULL);
		if (pid == 0)
			_exit(clone_child(&a));
	} else {
		stack = malloc(CHILD_STACK);
		if (!stack)
			die("malloc");
		pid = clone(!strcmp(how, "vm") ? clone_vm_child : clone_child,
			    stack + CHILD_STACK,
			    (!strcmp(how, "vm") ? CLONE_VM : 0) | SIGCHLD, &a);
	}
	if (pid < 0)
		die("clone");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		die("clone child");
	free(stack);
	get_version(kfd);
	close(kfd);
	counts_write();
	printf("child %d\n", (int)pid);
	if (!strcmp(how, "vm"))
		printf("vm_calls %ld\n", vm_calls);
	return 0;
}
