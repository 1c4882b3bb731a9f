/* SPDX-License-Identifier: MIT */
/*
 * The processes that test reduce's candidates (reduce_proc.h).
 *
 * Each test is the leader of a process group of its own: a predicate may
 * start work in the background, and a replay starts children; killing the
 * group ends them all. The leader is never reaped before its group is
 * killed: while it is a zombie its pid, the group's id, cannot be reused,
 * so the kill cannot reach an unrelated process.
 *
 * The wait polls a pidfd per process (readable when it ends) and the stop
 * fd together, with the time to the deadline as the timeout. Where the
 * kernel has no pidfds, the processes are polled every few milliseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

#include "reduce_proc.h"

extern char **environ;

/* Between SIGTERM and SIGKILL at a deadline or a stop. */
#define RP_PROC_GRACE_NS 1000000000ull

/* How often processes without a pidfd are looked at, in ms. */
#define RP_PROC_TICK_MS 10

/* The most processes waited for at once, with the stop fd. */
#define RP_PROC_MAX 32

static int
pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	/* Close-on-exec always: the later tests do not inherit it. */
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

int
rp_proc_start(struct rp_proc *p, char *const *argv)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, term;
	int r;

	p->pid = -1;
	p->pidfd = -1;
	p->status = -1;
	sigemptyset(&none);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	posix_spawn_file_actions_init(&fa);
	/* In a group of its own it is not the terminal's foreground: a read
	 * of the terminal would stop it until the deadline. */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	/* setpgid(0, 0) in the child, before it runs anything. */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &term);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	r = posix_spawn(&p->pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (r) {
		p->pid = -1;
		return -r;
	}
	p->pidfd = pidfd_of(p->pid);
	return 0;
}

/* @p's leader ended (it is a zombie): kill what is left, reap it. */
static void
end_group(struct rp_proc *p, int killed)
{
	int st;

	kill(-p->pid, SIGKILL);
	while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
		;
	p->status = !killed && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = -1;
	p->pid = -1;
}

/* Reap the processes of @p[0, @n) whose leader ended. Return: how many
 * are still running. */
static unsigned int
reap_ended(struct rp_proc *p, unsigned int n, int killed)
{
	unsigned int left = 0;

	for (unsigned int k = 0; k < n; k++) {
		siginfo_t si;

		if (p[k].pid < 0)
			continue;
		si.si_pid = 0;
		if (!waitid(P_PID, (id_t)p[k].pid, &si,
			    WEXITED | WNOHANG | WNOWAIT) && si.si_pid == p[k].pid)
			end_group(&p[k], killed);
		else
			left++;
	}
	return left;
}

/*
 * Sleep until one of @p[0, @n) ends, @stop_fd (> 0) is readable or @until
 * (0: never) comes.
 */
static void
sleep_on(const struct rp_proc *p, unsigned int n, int stop_fd, uint64_t until)
{
	struct pollfd fds[RP_PROC_MAX + 1];
	unsigned int nf = 0;
	int timeout = -1;

	if (stop_fd > 0)
		fds[nf++] = (struct pollfd){ .fd = stop_fd, .events = POLLIN };
	for (unsigned int k = 0; k < n; k++) {
		if (p[k].pid < 0)
			continue;
		if (p[k].pidfd < 0 || nf > RP_PROC_MAX)
			timeout = RP_PROC_TICK_MS;
		else
			fds[nf++] = (struct pollfd){ .fd = p[k].pidfd,
						     .events = POLLIN };
	}
	if (until) {
		uint64_t now = kfd_dispatch_now(), ms;

		ms = until > now ? (until - now + 999999) / 1000000 : 0;
		if (timeout < 0 || ms < (uint64_t)timeout)
			timeout = ms > 60000 ? 60000 : (int)ms;
	}
	poll(fds, nf, timeout);
}

int
rp_proc_stop_asked(int stop_fd)
{
	struct pollfd pf = { .fd = stop_fd, .events = POLLIN };

	return stop_fd > 0 && poll(&pf, 1, 0) > 0;
}

int
rp_proc_wait(struct rp_proc *p, unsigned int n, uint64_t deadline,
	     int stop_fd)
{
	enum rp_proc_end why;
	uint64_t grace;

	for (;;) {
		if (!reap_ended(p, n, 0))
			return RP_PROC_DONE;
		if (rp_proc_stop_asked(stop_fd)) {
			why = RP_PROC_STOPPED;
			break;
		}
		if (deadline && kfd_dispatch_now() >= deadline) {
			why = RP_PROC_DEADLINE;
			break;
		}
		sleep_on(p, n, stop_fd, deadline);
	}
	for (unsigned int k = 0; k < n; k++)
		if (p[k].pid > 0)
			kill(-p[k].pid, SIGTERM);
	grace = kfd_dispatch_now() + RP_PROC_GRACE_NS;
	while (reap_ended(p, n, 1) && kfd_dispatch_now() < grace)
		sleep_on(p, n, 0, grace);
	for (unsigned int k = 0; k < n; k++)
		if (p[k].pid > 0)
			end_group(&p[k], 1);
	return why;
}
