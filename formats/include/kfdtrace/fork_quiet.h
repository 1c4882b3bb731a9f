/* SPDX-License-Identifier: MIT */
/*
 * Helper threads kept quiet across fork().
 *
 * POSIX lets the child of a multi-threaded process call only what is
 * async-signal-safe until it execs. glibc's malloc goes beyond that (it
 * takes its arenas' locks around fork), but not every allocator does:
 * GCC 12's AddressSanitizer, for one, forks with its allocator's lock
 * held by whichever thread was refilling a cache at that moment, and the
 * child then hangs in its first malloc(). Our helper threads (the trace
 * writer's, the reader's read-ahead, the replay's workers) allocate at
 * any time, and they run inside other people's programs.
 *
 * A helper is busy while it works and idle while it sleeps; a fork()
 * anywhere in the process first waits until every registered helper is
 * idle and keeps them so until it has returned in the parent, so that no
 * helper is inside the allocator, or holds a lock the child might want,
 * when the child is made. A helper is born busy (a starting thread
 * allocates its own state), and stays busy as it ends, until the thread
 * that joins it unregisters it. Its work between two sleeps must be
 * short and must not wait for the thread that forks.
 */
#ifndef KFDTRACE_FORK_QUIET_H
#define KFDTRACE_FORK_QUIET_H

struct kt_quiet {
	int busy;
	struct kt_quiet *next;
};

/*
 * kt_quiet_register() - keep @q's helper quiet across fork() from now
 * on, busy: call it before the helper's thread is created. The first
 * call installs the process's fork handlers.
 */
void kt_quiet_register(struct kt_quiet *q);

/*
 * kt_quiet_unregister() - stop it: after the helper's thread was joined,
 * or when it could not be created. In a forked child, where none of the
 * parent's helpers exist or are registered, it does nothing.
 */
void kt_quiet_unregister(struct kt_quiet *q);

/*
 * kt_quiet_busy() - the helper starts working (it waits while a fork()
 * is being made).
 */
void kt_quiet_busy(struct kt_quiet *q);

/* kt_quiet_idle() - the helper is about to sleep: a fork() may go on. */
void kt_quiet_idle(struct kt_quiet *q);

/*
 * kt_quiet_new_process() - what the fork handlers do in a child, for a
 * child made without fork() (a clone system call, which runs no
 * pthread_atfork() handlers): none of the parent's helpers exist there.
 */
void kt_quiet_new_process(void);

#endif
