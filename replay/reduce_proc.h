/* SPDX-License-Identifier: MIT */
/*
 * The processes that test reduce's candidates (reduce_proc.c): each the
 * leader of a process group of its own, so that what it starts (a
 * predicate's background jobs, a replay's children) ends with it, at a
 * deadline, or when reduce itself is asked to stop. Private to replay/.
 */
#ifndef RP_REDUCE_PROC_H
#define RP_REDUCE_PROC_H

#include <stdint.h>
#include <sys/types.h>

/* One test's process. */
struct rp_proc {
	pid_t pid;	/* its pid and group id; -1: not running */
	int pidfd;	/* readable when it ends; -1: none (it is polled) */
	int status;	/* its exit code once it ended, else -1 (a signal
			 * ended it, it was stopped or it never started) */
};

/* How rp_proc_wait() ended. */
enum rp_proc_end {
	RP_PROC_DONE,		/* every process ended by itself */
	RP_PROC_DEADLINE,	/* the deadline came first */
	RP_PROC_STOPPED,	/* the stop fd became readable first */
};

/*
 * rp_proc_start() - start @argv (argv[0] a path) as the leader of a new
 * process group, its stdin, stdout and stderr on /dev/null and SIGTERM at
 * its default action.
 *
 * Return: 0, or a negative errno (@p is then not running).
 */
int rp_proc_start(struct rp_proc *p, char *const *argv);

/*
 * rp_proc_wait() - wait for the running processes of @p[0, @n) to end.
 * When one's leader ends, what is left of its group is killed (SIGKILL)
 * and the leader reaped. At @deadline (kfd_dispatch_now() nanoseconds:
 * CLOCK_MONOTONIC; 0: none), or once @stop_fd (> 0; 0: none) is readable, the groups still
 * running get SIGTERM, then SIGKILL after a grace of a second, and are
 * reaped: no process of any group is left when it returns.
 *
 * Return: enum rp_proc_end.
 */
int rp_proc_wait(struct rp_proc *p, unsigned int n, uint64_t deadline,
		 int stop_fd);

/* rp_proc_stop_asked() - is @stop_fd (> 0; 0: none) readable? */
int rp_proc_stop_asked(int stop_fd);

#endif
