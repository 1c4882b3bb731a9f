/* SPDX-License-Identifier: MIT */
/*
 * The ioctl dispatch point (see kfdtrace/dispatch.h).
 *
 * Registered hooks live in an immutable array that add/remove replace as a
 * whole. The fast path loads the array pointer once with relaxed order and
 * calls the kernel when it is NULL. The slow path enters a reader gate
 * before loading the pointer again, so that removal can wait out every
 * thread still running the old array before freeing it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

#include "clock.h"
#include "gate.h"
#include "safecopy.h"

struct hook_entry {
	const struct kfd_dispatch_hooks *h;
	void *ctx;
};

struct hook_set {
	unsigned int n;
	/* Tells sets apart even when a new one reuses a freed one's address. */
	uint64_t gen;
	struct hook_entry e[KFD_DISPATCH_MAX_HOOKS];
};

static _Atomic(struct hook_set *) dispatch_hooks;
static struct kfd_gate dispatch_gate;
static pthread_mutex_t dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t dispatch_gen;		/* under dispatch_lock */

/* Argument structs up to this size are copied on the stack. */
#define DISPATCH_STACK_ARG 512

static __thread uint32_t dispatch_tid_cache
	__attribute__((tls_model("initial-exec")));

uint32_t
kfd_dispatch_tid(void)
{
	if (__builtin_expect(dispatch_tid_cache == 0, 0))
		dispatch_tid_cache = (uint32_t)gettid();
	return dispatch_tid_cache;
}

uint64_t
kfd_dispatch_now(void)
{
	return kfd_clock_ns();
}

static int
sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

/*
 * The schema row of the thread's last request: a program issues the same
 * few requests over and over, so one cached row per thread spares most
 * lookups.
 */
static __thread struct {
	unsigned long request;
	enum kfd_file_kind kind;
	const struct kfd_ioctl_desc *desc;
} dispatch_last __attribute__((tls_model("initial-exec")));

static inline const struct kfd_ioctl_desc *
dispatch_desc(enum kfd_file_kind kind, unsigned long request)
{
	if (__builtin_expect(dispatch_last.request != request ||
			     dispatch_last.kind != kind, 0)) {
		dispatch_last.desc = kfd_schema_lookup(kind, request);
		dispatch_last.request = request;
		dispatch_last.kind = kind;
	}
	return dispatch_last.desc;
}

/* Whether @set still holds the registration @e. */
static int
dispatch_still_has(const struct hook_set *set, const struct hook_entry *e)
{
	for (unsigned int i = 0; set && i < set->n; i++)
		if (set->e[i].h == e->h && set->e[i].ctx == e->ctx)
			return 1;
	return 0;
}

/*
 * memcpy() for the argument structs of the hot path (8 to a few hundred
 * bytes): 8-byte moves and one overlapping move for the tail, no call.
 */
static inline void
dispatch_copy(unsigned char *dst, const unsigned char *src, size_t n)
{
	uint64_t x;
	size_t i;

	if (n < 8 || n > 256) {
		memcpy(dst, src, n);
		return;
	}
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, src + i, 8);
		memcpy(dst + i, &x, 8);
	}
	if (i < n) {
		memcpy(&x, src + n - 8, 8);
		memcpy(dst + n - 8, &x, 8);
	}
}

/* The before-image of the argument; NULL when it cannot be read. */
static __attribute__((noinline)) void *
dispatch_copy_slow(unsigned char *stack_arg, const void *arg, uint32_t size)
{
	void *before = size <= DISPATCH_STACK_ARG ? stack_arg : malloc(size);

	if (before && kfd_safe_copy(before, arg, size) == 0)
		return before;
	if (before != stack_arg)
		free(before);
	return NULL;
}

/*
 * One attempt with hooks. Return protocol: the call's result, with errno
 * set from call.err when it is -1; the caller restores errno on success.
 *
 * The gate covers the hooks but not the kernel call: a thread blocked in
 * WAIT_EVENTS for minutes must not hold up a hook's removal (a recorder
 * closing at exit). After the call, after() runs only for the hooks that
 * are still registered; one removed meanwhile never sees this call again.
 *
 * Inline in each entry point: on a traced ioctl the call itself would be
 * a measurable share of the cost.
 */
static inline __attribute__((always_inline)) int
dispatch_hooked(int (*sys)(int, unsigned long, void *), int fd,
		enum kfd_file_kind kind, unsigned long request, void *arg,
		unsigned int attempt)
{
	/* The fields not named here start zeroed. */
	struct kfd_dispatch_call call = {
		.fd = fd,
		.kind = kind,
		.request = request,
		.arg = arg,
		.desc = dispatch_desc(kind, request),
		.arg_size = (uint32_t)_IOC_SIZE(request),
		.tid = kfd_dispatch_tid(),
		.attempt = attempt,
	};
	unsigned char stack_arg[DISPATCH_STACK_ARG];
	const void *before = NULL;	/* ours to free if not stack_arg */
	struct hook_entry ran[KFD_DISPATCH_MAX_HOOKS];
	void *cookie[KFD_DISPATCH_MAX_HOOKS];
	unsigned int token, nran = 0, i, skip;
	const struct hook_set *set;
	int completed = 0;
	uint64_t gen;

	if (call.arg_size) {
		/* Arguments on the caller's stack: a plain copy (safecopy.h). */
		if (__builtin_expect(call.arg_size <= DISPATCH_STACK_ARG &&
				     kfd_stack_holds(arg, call.arg_size), 1)) {
			dispatch_copy(stack_arg, arg, call.arg_size);
			before = stack_arg;
		} else {
			before = dispatch_copy_slow(stack_arg, arg,
						    call.arg_size);
			if (!before)
				call.flags |= KFD_CALL_ARG_UNREADABLE;
		}
		call.arg_before = before;
	}

	/* Which hooks' before() wants this request (enum kfd_hook_flags). */
	skip = call.desc && call.desc->nbufs ? 0 : KFD_HOOK_BEFORE_BUFFERS_ONLY;
	token = kfd_gate_enter(&dispatch_gate);
	set = atomic_load_explicit(&dispatch_hooks, memory_order_seq_cst);
	gen = set ? __atomic_load_n(&set->gen, __ATOMIC_RELAXED) : 0;
	/* Usually one hook (the recorder): keep this loop lean. */
	for (i = 0; set && i < set->n; i++) {
		const struct kfd_dispatch_hooks *h =
			__atomic_load_n(&set->e[i].h, __ATOMIC_RELAXED);

		ran[i].h = h;
		ran[i].ctx = set->e[i].ctx;
		cookie[i] = NULL;
		nran = i + 1;
		if (h->before && !(h->flags & skip) &&
		    h->before(ran[i].ctx, &call, &cookie[i]) == KFD_HOOK_COMPLETE) {
			completed = 1;
			break;
		}
	}
	kfd_gate_leave(&dispatch_gate, token);

	if (completed) {
		call.flags |= KFD_CALL_INJECTED;
		call.t_enter = call.t_exit = kfd_dispatch_now();
		if (call.ret != -1)
			call.err = 0;
	} else {
		call.t_enter = kfd_clock_ns();
		call.ret = sys(fd, request, arg);
		call.err = call.ret == -1 ? errno : 0;
		call.t_exit = kfd_clock_ns();
	}

	if (nran) {
		const struct hook_set *now;
		int same;

		token = kfd_gate_enter(&dispatch_gate);
		now = atomic_load_explicit(&dispatch_hooks, memory_order_seq_cst);
		/* The usual case: no hook came or went during the call. */
		same = now == set &&
		       __atomic_load_n(&now->gen, __ATOMIC_RELAXED) == gen;
		while (nran-- > 0) {
			if (ran[nran].h->after &&
			    (same || dispatch_still_has(now, &ran[nran])))
				ran[nran].h->after(ran[nran].ctx, &call,
						   cookie[nran]);
		}
		kfd_gate_leave(&dispatch_gate, token);
	}

	if (before && before != stack_arg)
		free((void *)before);
	if (call.ret == -1)
		errno = call.err;
	return call.ret;
}

int
kfd_dispatch_via(int (*sys)(int fd, unsigned long request, void *arg),
		 int fd, enum kfd_file_kind kind, unsigned long request,
		 void *arg)
{
	int saved, ret;

	if (__builtin_expect(!atomic_load_explicit(&dispatch_hooks,
						   memory_order_relaxed), 1))
		return sys(fd, request, arg);
	saved = errno;
	ret = dispatch_hooked(sys, fd, kind, request, arg, 0);
	if (ret != -1)
		errno = saved;
	return ret;
}

int
kfd_dispatch_once(int fd, enum kfd_file_kind kind, unsigned long request,
		  void *arg)
{
	int saved, ret;

	if (__builtin_expect(!atomic_load_explicit(&dispatch_hooks,
						   memory_order_relaxed), 1))
		return ioctl(fd, request, arg);
	saved = errno;
	ret = dispatch_hooked(sys_ioctl, fd, kind, request, arg, 0);
	if (ret != -1)
		errno = saved;
	return ret;
}

int
kfd_dispatch(int fd, enum kfd_file_kind kind, unsigned long request,
	     void *arg)
{
	unsigned int attempt = 0;
	int saved, ret;

	/*
	 * libhsakmt loops while the call fails with EINTR or EAGAIN; the
	 * kernel restarts nothing itself for KFD, so neither do we.
	 */
	if (__builtin_expect(!atomic_load_explicit(&dispatch_hooks,
						   memory_order_relaxed), 1)) {
		do
			ret = ioctl(fd, request, arg);
		while (ret == -1 && (errno == EINTR || errno == EAGAIN));
		return ret;
	}
	saved = errno;
	do
		ret = dispatch_hooked(sys_ioctl, fd, kind, request, arg,
				      attempt++);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	if (ret != -1)
		errno = saved;
	return ret;
}

/* Publish @next, wait out readers of the old set, free it. Locked. */
static void
dispatch_publish(struct hook_set *next)
{
	struct hook_set *old;

	if (next)
		next->gen = ++dispatch_gen;
	old = atomic_exchange_explicit(&dispatch_hooks, next,
				       memory_order_seq_cst);
	kfd_gate_drain(&dispatch_gate);
	free(old);
}

int
kfd_dispatch_hook_add(const struct kfd_dispatch_hooks *h, void *ctx)
{
	struct hook_set *cur, *next;
	int ret = 0;

	if (!h)
		return -EINVAL;
	pthread_mutex_lock(&dispatch_lock);
	cur = atomic_load_explicit(&dispatch_hooks, memory_order_relaxed);
	if (cur) {
		for (unsigned int i = 0; i < cur->n; i++) {
			if (cur->e[i].h == h && cur->e[i].ctx == ctx) {
				ret = -EEXIST;
				goto out;
			}
		}
		if (cur->n == KFD_DISPATCH_MAX_HOOKS) {
			ret = -ENOSPC;
			goto out;
		}
	}
	next = calloc(1, sizeof(*next));
	if (!next) {
		ret = -ENOMEM;
		goto out;
	}
	if (cur)
		*next = *cur;
	next->e[next->n].h = h;
	next->e[next->n].ctx = ctx;
	next->n++;
	dispatch_publish(next);
out:
	pthread_mutex_unlock(&dispatch_lock);
	return ret;
}

int
kfd_dispatch_hook_remove(const struct kfd_dispatch_hooks *h, void *ctx)
{
	struct hook_set *cur, *next = NULL;
	unsigned int i, j;
	int ret = -ENOENT;

	pthread_mutex_lock(&dispatch_lock);
	cur = atomic_load_explicit(&dispatch_hooks, memory_order_relaxed);
	for (i = 0; cur && i < cur->n; i++)
		if (cur->e[i].h == h && cur->e[i].ctx == ctx)
			break;
	if (!cur || i == cur->n)
		goto out;
	if (cur->n > 1) {
		next = calloc(1, sizeof(*next));
		if (!next) {
			/*
			 * Cannot build the smaller set: leave a set whose
			 * entry does nothing rather than fail removal, which
			 * callers cannot sensibly handle.
			 */
			static const struct kfd_dispatch_hooks noop = { "removed", NULL, NULL };

			/* ctx stays: a reader that loaded the old h uses it
			 * until the drain below sees it leave. */
			__atomic_store_n(&cur->e[i].h, &noop, __ATOMIC_SEQ_CST);
			/* The set changed in place: calls in flight must look
			 * their hooks up again. */
			__atomic_store_n(&cur->gen, ++dispatch_gen,
					 __ATOMIC_SEQ_CST);
			kfd_gate_drain(&dispatch_gate);
			ret = 0;
			goto out;
		}
		for (j = 0; j < cur->n; j++)
			if (j != i)
				next->e[next->n++] = cur->e[j];
	}
	dispatch_publish(next);
	ret = 0;
out:
	pthread_mutex_unlock(&dispatch_lock);
	return ret;
}

unsigned int
kfd_dispatch_hook_count(void)
{
	const struct hook_set *cur;
	unsigned int n;

	pthread_mutex_lock(&dispatch_lock);
	cur = atomic_load_explicit(&dispatch_hooks, memory_order_relaxed);
	n = cur ? cur->n : 0;
	pthread_mutex_unlock(&dispatch_lock);
	return n;
}

void
kfd_dispatch_atfork_child(void)
{
	/* Nobody can be using the old set in the child; leaking it is
	 * simplest and bounded (one set per fork). */
	atomic_store_explicit(&dispatch_hooks, NULL, memory_order_relaxed);
}

/*
 * Whatever the hooks' owners decide for the child, the forking thread has a
 * new tid, parent threads counted in the gate are gone, and the lock may
 * have been held by one of them.
 */
static void
dispatch_child(void)
{
	kfd_gate_reset(&dispatch_gate);
	pthread_mutex_init(&dispatch_lock, NULL);
	dispatch_tid_cache = 0;
}

void
kfd_dispatch_new_process(void)
{
	dispatch_child();
}

static void __attribute__((constructor))
dispatch_init(void)
{
	pthread_atfork(NULL, NULL, dispatch_child);
}
