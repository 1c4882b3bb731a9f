/* SPDX-License-Identifier: MIT */
/*
 * The ioctl dispatch point.
 *
 * Every KFD (and amdgpu render-node) ioctl that kfdtrace's own code issues
 * goes through kfd_dispatch(): our thunk, the replayer and the capture
 * library. That gives one place where observers (the recorder, tests,
 * fault injection) can see each request before and after the kernel does.
 *
 * With no hook registered, kfd_dispatch() is one relaxed atomic load and a
 * branch in front of ioctl(). With hooks, each attempt of the call runs:
 *
 *	before hooks, in registration order
 *	the kernel call (unless a before hook completed the call itself)
 *	after hooks, in reverse order of the before hooks that ran
 *
 * so the first hook registered is the outermost: a recorder registered
 * before a fault injector sees the injected failure, which is what the
 * application saw.
 *
 * Hooks may be added and removed at any time from any thread. Removal
 * waits until no thread is still inside the removed hook's functions, so
 * its context may be freed as soon as kfd_dispatch_hook_remove() returns.
 * It does not wait for calls blocked in the kernel (a WAIT_EVENTS may take
 * minutes): a hook removed while a call it saw before is in the kernel
 * gets no after() for that call, and whatever its before() stored in the
 * cookie is dropped. A hook must never add or remove hooks itself.
 */
#ifndef KFDTRACE_DISPATCH_H
#define KFDTRACE_DISPATCH_H

#include <stdint.h>

#include <kfdtrace/schema.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of kfd_dispatch_call.flags. */
enum kfd_call_flags {
	/* A before hook supplied the result; the kernel was not called. */
	KFD_CALL_INJECTED = 1 << 0,
	/* The argument bytes could not be read (a bad user pointer). */
	KFD_CALL_ARG_UNREADABLE = 1 << 1,
};

/*
 * One attempt of one ioctl, as the hooks see it. Before hooks may change
 * the result fields (through a completion, see kfd_hook_verdict); after
 * hooks get it read-only.
 */
struct kfd_dispatch_call {
	int fd;
	enum kfd_file_kind kind;
	unsigned long request;
	void *arg;
	/* The schema row for (kind, request), or NULL for unknown requests. */
	const struct kfd_ioctl_desc *desc;
	/* _IOC_SIZE(request): how many argument bytes the kernel copies. */
	uint32_t arg_size;
	/*
	 * A copy of the arg_size argument bytes taken before the call (the
	 * live bytes at arg are the after-image once the call returned).
	 * NULL when arg_size is 0 or the bytes were unreadable.
	 */
	const void *arg_before;
	uint32_t tid;
	/* 0 for the first attempt; n for the n-th retry (EINTR/EAGAIN). */
	unsigned int attempt;
	/* CLOCK_MONOTONIC ns right before and right after the kernel call. */
	uint64_t t_enter;
	uint64_t t_exit;
	int ret;
	int err;		/* errno when ret == -1, else 0 */
	unsigned int flags;	/* enum kfd_call_flags */
};

/* What a before hook returns. */
enum kfd_hook_verdict {
	KFD_HOOK_CONTINUE = 0,	/* go on: later hooks, then the kernel */
	/*
	 * The hook set call->ret and call->err itself (e.g. -1 and ENOMEM,
	 * or 0 after writing outputs into call->arg). The kernel is not
	 * called and no later before hook runs; after hooks still do.
	 */
	KFD_HOOK_COMPLETE = 1,
};

/*
 * A set of hooks. Either function may be NULL. The struct must stay valid
 * while registered (use a static const).
 *
 * before():	sees the request. *cookie starts NULL; whatever the hook
 *		stores there is handed to its after() for the same attempt.
 *		Returns enum kfd_hook_verdict.
 * after():	sees the result, including ret/err/t_exit. Called for every
 *		attempt whose before() ran (or that had no before()).
 *
 * Hooks run on the thread that issued the ioctl, inside it: they must be
 * thread-safe and must not block for long.
 */
struct kfd_dispatch_hooks {
	const char *name;
	int (*before)(void *ctx, struct kfd_dispatch_call *call, void **cookie);
	void (*after)(void *ctx, const struct kfd_dispatch_call *call,
		      void *cookie);
	unsigned int flags;	/* enum kfd_hook_flags */
};

enum kfd_hook_flags {
	/*
	 * Call before() only for requests whose schema row has indirect
	 * buffers (a recorder reads their before-images there; for every
	 * other request its before() would do nothing). Spares most traced
	 * ioctls an indirect call. after() still runs for every call, with
	 * a NULL cookie where before() did not run.
	 */
	KFD_HOOK_BEFORE_BUFFERS_ONLY = 1u << 0,
};

/* How many hook registrations may exist at once. */
#define KFD_DISPATCH_MAX_HOOKS 8

/*
 * kfd_dispatch() - issue an ioctl through the dispatch point.
 * @fd:		the device file
 * @kind:	what @fd is (KFD_FILE_KFD, KFD_FILE_RENDER)
 * @request:	the full request code
 * @arg:	the argument pointer handed to the kernel
 *
 * Retries while the call fails with EINTR or EAGAIN, as libhsakmt's ioctl
 * wrapper does (a timed WAIT_EVENTS restarts with its whole timeout); each
 * attempt passes through the hooks on its own.
 *
 * Return: the result of the last attempt. errno is that attempt's errno
 * when the result is -1, and is left as it was on entry otherwise.
 */
int kfd_dispatch(int fd, enum kfd_file_kind kind, unsigned long request,
		 void *arg);

/*
 * kfd_dispatch_once() - one attempt, no retry (for callers that retry, or
 * that must show an application its EINTR).
 *
 * Return: as kfd_dispatch().
 */
int kfd_dispatch_once(int fd, enum kfd_file_kind kind, unsigned long request,
		      void *arg);

/*
 * kfd_dispatch_via() - one attempt whose kernel call is @sys instead of
 * libc's ioctl(). The capture library passes the next ioctl in the symbol
 * lookup order here, since calling ioctl() from inside its own ioctl()
 * would recurse.
 *
 * Return: as kfd_dispatch().
 */
int kfd_dispatch_via(int (*sys)(int fd, unsigned long request, void *arg),
		     int fd, enum kfd_file_kind kind, unsigned long request,
		     void *arg);

/*
 * kfd_dispatch_hook_add() - register a hook set with its context.
 *
 * The same (hooks, ctx) pair may not be registered twice.
 *
 * Return: 0; -EEXIST if already registered; -ENOSPC when
 * KFD_DISPATCH_MAX_HOOKS are registered; -EINVAL for a NULL @h; -ENOMEM.
 */
int kfd_dispatch_hook_add(const struct kfd_dispatch_hooks *h, void *ctx);

/*
 * kfd_dispatch_hook_remove() - unregister a hook set and wait until no
 * thread is still running it. Must not be called from inside a hook.
 *
 * Return: 0, or -ENOENT if the pair was not registered.
 */
int kfd_dispatch_hook_remove(const struct kfd_dispatch_hooks *h, void *ctx);

/*
 * kfd_dispatch_hook_count() - how many hook sets are registered.
 */
unsigned int kfd_dispatch_hook_count(void);

/*
 * kfd_dispatch_atfork_child() - forget every hook in a forked child.
 *
 * Hooks stay registered across fork() by default (a fault injector keeps
 * working in a child). A hook owner whose state does not survive fork (the
 * recorder: its writer thread is gone) calls this from its pthread_atfork()
 * child handler. The contexts are not freed; they belong to their owners.
 * The dispatch point's own fork handling (thread ids, the reader counts of
 * threads that no longer exist) is automatic.
 */
void kfd_dispatch_atfork_child(void);

/*
 * kfd_dispatch_new_process() - the dispatch point's own fork handling, in a
 * child made without fork() (a clone system call that copies the memory
 * but runs no pthread_atfork() handlers). Call it on the child's only
 * thread, before the child's first ioctl through the dispatch point.
 */
void kfd_dispatch_new_process(void);

/*
 * kfd_dispatch_tid() - the calling thread's kernel thread id, cached
 * per thread (gettid() is a system call).
 */
uint32_t kfd_dispatch_tid(void);

/*
 * kfd_dispatch_now() - CLOCK_MONOTONIC in nanoseconds, as the hooks' and
 * the recorder's timestamps take it: extrapolated from the TSC between
 * clock_gettime() anchors where the kernel itself keeps time with the TSC
 * (within a few ns of clock_gettime(); half the cost), else
 * clock_gettime(). Never goes backwards on a thread.
 */
uint64_t kfd_dispatch_now(void);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_DISPATCH_H */
