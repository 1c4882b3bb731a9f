/* SPDX-License-Identifier: MIT */
/*
 * Process events: fork, vfork, clone, the exec family, _exit and thread
 * names.
 *
 * fork: the child side is handled by the session's pthread_atfork child
 * handler (which also covers fork() calls made inside libc); the wrapper
 * only adds the parent's FORK record, which needs the child's pid.
 *
 * clone: a child with memory of its own is a process like a forked one.
 * The session finds out at its first call (session.c: the mark page); the
 * wrapper adds the parent's FORK record, and ends the child with _exit()
 * when its function returns (libc's clone() ends it with the exit system
 * call, which would leave the child's trace unfinished and its writer
 * thread keeping it alive). A child that shares our memory (CLONE_VM
 * without CLONE_THREAD) cannot have a trace of its own: the parent's
 * trace gets an ANNOTATION saying so, and the child's ioctls are counted
 * as lost. Threads (CLONE_THREAD) go straight on.
 *
 * vfork: a wrapper function cannot return twice into a frame the child
 * shares with the parent, so vfork() is turned into fork(). The only
 * difference a correct vfork caller sees is that the parent no longer
 * waits for the child's exec or exit.
 *
 * exec: the trace is finished with an EXEC record before the new image
 * replaces this one; the new image, if it loads us again, carries on in a
 * file of its own (see session.c). When exec fails the process continues
 * and so does tracing, in a new file.
 */
#include "capture.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* The parent's FORK record of child @pid (errno kept). */
static void
record_fork(pid_t parent, pid_t pid)
{
	struct kt_record rec;
	int err = errno;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_FORK;
	rec.u.fork.parent_pid = parent;
	rec.u.fork.child_pid = pid;
	kcap_session_append(&rec, 0);
	errno = err;
}

KCAP_EXPORT pid_t
fork(void)
{
	pid_t parent, pid;

	kcap_real_init();
	if (!kcap_enabled())
		return kcap_real.fork();
	parent = getpid();
	pid = kcap_real.fork();
	if (pid > 0)
		record_fork(parent, pid);
	return pid;
}

/* What a clone() child with memory of its own runs. */
struct clone_start {
	int (*fn)(void *);
	void *arg;
};

static int
clone_start(void *p)
{
	/* The child's copy of the parent's frame: valid until we return. */
	struct clone_start st = *(struct clone_start *)p;

	kcap_session_child_start();
	_exit(st.fn(st.arg));
}

/* The parent's note that child @pid shares its memory and has no trace. */
static void
record_vm_child(pid_t pid)
{
	char text[160];
	struct kt_record rec;
	int err = errno;

	snprintf(text, sizeof(text), "clone: process %d shares this process's "
		 "memory (CLONE_VM without CLONE_THREAD); its ioctls are not "
		 "recorded and count as lost", (int)pid);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_ANNOTATION;
	rec.u.annotation.text = text;
	kcap_session_append(&rec, 0);
	errno = err;
}

KCAP_EXPORT int
clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	struct clone_start st = { fn, arg };
	pid_t *ptid, *ctid, parent;
	void *tls;
	va_list ap;
	int pid;

	/* Read whether given or not: libc's clone() uses them by @flags. */
	va_start(ap, arg);
	ptid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	ctid = va_arg(ap, pid_t *);
	va_end(ap);

	kcap_real_init();
	if ((flags & CLONE_THREAD) || !fn || kcap_busy || !kcap_enabled())
		return kcap_real.clone(fn, stack, flags, arg, ptid, tls, ctid);
	parent = getpid();
	if (flags & CLONE_VM) {
		kcap_session_share_vm();
		pid = kcap_real.clone(fn, stack, flags, arg, ptid, tls, ctid);
		if (pid > 0)
			record_vm_child(pid);
		return pid;
	}
	pid = kcap_real.clone(clone_start, stack, flags, &st, ptid, tls, ctid);
	if (pid > 0)
		record_fork(parent, pid);
	return pid;
}

KCAP_EXPORT pid_t
vfork(void)
{
	return fork();
}

/* The exec itself. @how: 0 execve(path), 1 execvpe(path searched in PATH),
 * 2 fexecve(fd). */
static int
exec_real(int how, int fd, const char *path, char *const argv[],
	  char *const envp[])
{
	if (how == 0)
		return kcap_real.execve(path, argv, envp);
	if (how == 1)
		return kcap_real.execvpe(path, argv, envp);
	return kcap_real.fexecve(fd, argv, envp);
}

/*
 * Run one exec: finish the trace, hand the new image our state, and if
 * the exec comes back (it failed), resume. @how: as exec_real().
 */
static int
exec_common(int how, int fd, const char *path, char *const argv[],
	    char *const envp[])
{
	char **env;
	int ret, err;

	kcap_real_init();
	/* A process sharing our memory must leave our trace (and the TLS
	 * of the thread that made it) alone. */
	if (!kcap_enabled() && kcap_session_foreign())
		return exec_real(how, fd, path, argv, envp);
	env = kcap_session_exec_env(envp);
	kcap_session_close_for_exec(path, argv);
	kcap_busy++;
	ret = exec_real(how, fd, path, argv, env ? env : envp);
	err = errno;
	kcap_busy--;
	kcap_session_exec_failed();
	if (env) {
		free(env[0]);
		free(env);
	}
	errno = err;
	return ret;
}

KCAP_EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_common(0, -1, path, argv, envp);
}

KCAP_EXPORT int
execv(const char *path, char *const argv[])
{
	return exec_common(0, -1, path, argv, environ);
}

KCAP_EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_common(1, -1, file, argv, envp);
}

KCAP_EXPORT int
execvp(const char *file, char *const argv[])
{
	return exec_common(1, -1, file, argv, environ);
}

KCAP_EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	/* The EXEC record names the binary: the file the fd was opened on. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 0)
		path[n] = '\0';
	else
		snprintf(path, sizeof(path), "%s", link);
	return exec_common(2, fd, path, argv, envp);
}

/*
 * The execl family: collect the arguments into an array. @with_env: the
 * environment follows the NULL that ends the arguments (execle).
 */
static int
execl_common(int how, const char *path, const char *arg, va_list ap,
	     int with_env)
{
	size_t n = 1, cap = 16;
	char **argv = malloc(cap * sizeof(*argv));
	char *const *envp = environ;
	const char *a;
	int ret;

	if (!argv) {
		errno = ENOMEM;
		return -1;
	}
	argv[0] = (char *)arg;
	if (arg) {
		do {
			a = va_arg(ap, const char *);
			if (n + 1 >= cap) {
				char **nv = realloc(argv, 2 * cap * sizeof(*argv));

				if (!nv) {
					free(argv);
					errno = ENOMEM;
					return -1;
				}
				argv = nv;
				cap *= 2;
			}
			argv[n++] = (char *)a;
		} while (a);
	} else {
		n = 1;
	}
	if (with_env)
		envp = va_arg(ap, char *const *);
	ret = exec_common(how, -1, path, argv, envp);
	free(argv);
	return ret;
}

KCAP_EXPORT int
execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = execl_common(0, path, arg, ap, 0);
	va_end(ap);
	return ret;
}

KCAP_EXPORT int
execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = execl_common(1, file, arg, ap, 0);
	va_end(ap);
	return ret;
}

KCAP_EXPORT int
execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = execl_common(0, path, arg, ap, 1);
	va_end(ap);
	return ret;
}

/*
 * _exit skips destructors, and forked children use it all the time. It is
 * also what signal handlers call, possibly interrupting malloc or one of
 * our locks, so closing the trace properly here could deadlock. Finish it
 * with the writer's async-signal-safe path instead: what is buffered, then
 * the END record, in uncompressed frames (no index: readers scan).
 */
KCAP_EXPORT void
_exit(int status)
{
	kcap_real_init();
	kcap_session_emergency_end();
	kcap_real.exit_(status);
	__builtin_unreachable();
}

KCAP_EXPORT void
_Exit(int status)
{
	kcap_real_init();
	kcap_session_emergency_end();
	kcap_real.Exit_(status);
	__builtin_unreachable();
}

KCAP_EXPORT int
pthread_setname_np(pthread_t thread, const char *name)
{
	int ret;

	kcap_real_init();
	ret = kcap_real.pthread_setname_np(thread, name);
	if (ret == 0 && !kcap_busy && kcap_enabled() &&
	    pthread_equal(thread, pthread_self())) {
		/* Only a thread naming itself: we cannot learn another
		 * thread's tid here; its name is taken at its first record. */
		kcap_session_thread_name(name);
	}
	return ret;
}
