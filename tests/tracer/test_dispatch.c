/* SPDX-License-Identifier: MIT */
/*
 * The dispatch point: the no-hook path, EINTR/EAGAIN retry, hooks before
 * and after, completion (veto/injection), fault injection, registration
 * errors, and removal while threads are inside a hook or the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/faults.h>
#include <kfdtrace/kfd_abi.h>

static int
devnull(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* ---- no hooks ---- */

static void
test_no_hook_passthrough(void **state)
{
	struct kfd_abi_get_version_args v = { 0 };
	int p[2], avail = -1;

	assert_int_equal(kfd_dispatch_hook_count(), 0);
	/* A real success: errno must be left as it was. */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "abc", 3), 3);
	errno = 4242;
	assert_int_equal(kfd_dispatch(p[0], KFD_FILE_KFD, FIONREAD, &avail), 0);
	assert_int_equal(avail, 3);
	assert_int_equal(errno, 4242);
	/* A real failure: the kernel's errno. /dev/null knows no KFD ioctl. */
	int fd = devnull();

	assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION,
				      &v), -1);
	assert_int_equal(errno, ENOTTY);
	assert_int_equal(kfd_dispatch(-1, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION,
				      &v), -1);
	assert_int_equal(errno, EBADF);
	close(fd);
	close(p[0]);
	close(p[1]);
}

/* ---- a scripted hook: fails the first attempts with given errnos ---- */

struct script {
	int errs[8];		/* errno per attempt, 0 = let it through */
	unsigned int nerrs;
	unsigned int before, after;
	unsigned int attempts_seen[16];
	int rets[16], errs_seen[16];
	uint32_t flags_seen[16];
};

static int
script_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct script *s = ctx;
	unsigned int i = s->before++;

	*cookie = (void *)(uintptr_t)(i + 100);
	if (i < s->nerrs && s->errs[i]) {
		call->ret = -1;
		call->err = s->errs[i];
		return KFD_HOOK_COMPLETE;
	}
	return KFD_HOOK_CONTINUE;
}

static void
script_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct script *s = ctx;
	unsigned int i = s->after++;

	assert_int_equal((uintptr_t)cookie, i + 100);
	if (i < 16) {
		s->attempts_seen[i] = call->attempt;
		s->rets[i] = call->ret;
		s->errs_seen[i] = call->err;
		s->flags_seen[i] = call->flags;
	}
}

static const struct kfd_dispatch_hooks script_hooks = {
	.name = "script", .before = script_before, .after = script_after,
};

static void
test_retry_eintr_eagain(void **state)
{
	struct script s = { .errs = { EINTR, EAGAIN, EINTR }, .nerrs = 3 };
	int p[2], avail = -1;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "xy", 2), 2);
	assert_int_equal(kfd_dispatch_hook_add(&script_hooks, &s), 0);
	errno = 77;
	/* Three injected interruptions, then the real call succeeds. */
	assert_int_equal(kfd_dispatch(p[0], KFD_FILE_KFD, FIONREAD, &avail), 0);
	assert_int_equal(errno, 77);
	assert_int_equal(avail, 2);
	assert_int_equal(s.before, 4);
	assert_int_equal(s.after, 4);
	for (unsigned int i = 0; i < 4; i++)
		assert_int_equal(s.attempts_seen[i], i);
	assert_int_equal(s.errs_seen[0], EINTR);
	assert_int_equal(s.errs_seen[1], EAGAIN);
	assert_true(s.flags_seen[0] & KFD_CALL_INJECTED);
	assert_false(s.flags_seen[3] & KFD_CALL_INJECTED);
	assert_int_equal(s.rets[3], 0);

	/* Other errors are not retried. */
	memset(&s, 0, sizeof(s));
	s.errs[0] = ENOMEM;
	s.nerrs = 1;
	assert_int_equal(kfd_dispatch(p[0], KFD_FILE_KFD, FIONREAD, &avail), -1);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(s.before, 1);

	/* kfd_dispatch_once() shows the caller its EINTR. */
	memset(&s, 0, sizeof(s));
	s.errs[0] = EINTR;
	s.nerrs = 1;
	assert_int_equal(kfd_dispatch_once(p[0], KFD_FILE_KFD, FIONREAD, &avail), -1);
	assert_int_equal(errno, EINTR);
	assert_int_equal(s.before, 1);

	assert_int_equal(kfd_dispatch_hook_remove(&script_hooks, &s), 0);
	close(p[0]);
	close(p[1]);
}

/* ---- what hooks see, and their nesting ---- */

struct observer {
	char tag;
	char *log;		/* shared order log */
	struct kfd_dispatch_call before, after;
	uint8_t arg_before_copy[64];
	int had_arg_before;
};

static int
obs_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct observer *o = ctx;
	size_t n = strlen(o->log);

	o->log[n] = o->tag;
	o->log[n + 1] = '\0';
	o->before = *call;
	return KFD_HOOK_CONTINUE;
}

static void
obs_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct observer *o = ctx;
	size_t n = strlen(o->log);

	o->log[n] = (char)(o->tag - 'A' + 'a');
	o->log[n + 1] = '\0';
	o->after = *call;
	if (call->arg_before && call->arg_size <= sizeof(o->arg_before_copy)) {
		memcpy(o->arg_before_copy, call->arg_before, call->arg_size);
		o->had_arg_before = 1;
	}
}

static const struct kfd_dispatch_hooks obs_hooks = {
	.name = "observer", .before = obs_before, .after = obs_after,
};

/* A kernel stand-in: GET_VERSION answers 1.19 after a short while. */
static int
fake_kernel(int fd, unsigned long request, void *arg)
{
	struct timespec ts = { 0, 200000 };

	nanosleep(&ts, NULL);
	if (request == KFD_ABI_IOC_GET_VERSION) {
		struct kfd_abi_get_version_args *v = arg;

		v->major_version = 1;
		v->minor_version = 19;
		return 0;
	}
	errno = ENOTTY;
	return -1;
}

static void
test_hooks_see_call(void **state)
{
	char log[32] = "";
	struct observer a = { .tag = 'A', .log = log };
	struct observer b = { .tag = 'B', .log = log };
	struct kfd_abi_get_version_args v = { 0xdead, 0xbeef };

	assert_int_equal(kfd_dispatch_hook_add(&obs_hooks, &a), 0);
	assert_int_equal(kfd_dispatch_hook_add(&obs_hooks, &b), 0);
	assert_int_equal(kfd_dispatch_hook_count(), 2);
	assert_int_equal(kfd_dispatch_via(fake_kernel, 5, KFD_FILE_KFD,
					  KFD_ABI_IOC_GET_VERSION, &v), 0);
	/* First registered is outermost. */
	assert_string_equal(log, "ABba");
	assert_int_equal(v.minor_version, 19);

	assert_int_equal(a.before.fd, 5);
	assert_int_equal(a.before.kind, KFD_FILE_KFD);
	assert_int_equal(a.before.request, KFD_ABI_IOC_GET_VERSION);
	assert_ptr_equal(a.before.arg, &v);
	assert_non_null(a.before.desc);
	assert_string_equal(a.before.desc->name, "GET_VERSION");
	assert_int_equal(a.before.arg_size, sizeof(v));
	assert_int_equal(a.before.tid, (uint32_t)gettid());
	assert_int_equal(a.after.ret, 0);
	assert_int_equal(a.after.err, 0);
	/* The kernel slept 200 us between the timestamps. */
	assert_true(a.after.t_exit >= a.after.t_enter + 150000);
	assert_true(a.had_arg_before);
	/* The before-copy holds what the caller passed in. */
	assert_int_equal(((struct kfd_abi_get_version_args *)a.arg_before_copy)->major_version,
			 0xdead);

	/* Unknown requests have no row but are still seen. */
	assert_int_equal(kfd_dispatch_via(fake_kernel, 5, KFD_FILE_KFD,
					  _IOWR('K', 0x7e, uint64_t), &v), -1);
	assert_int_equal(errno, ENOTTY);
	assert_null(b.before.desc);
	assert_int_equal(b.after.err, ENOTTY);

	assert_int_equal(kfd_dispatch_hook_remove(&obs_hooks, &a), 0);
	assert_int_equal(kfd_dispatch_hook_remove(&obs_hooks, &b), 0);
	assert_int_equal(kfd_dispatch_hook_count(), 0);
}

/* ---- completion: the kernel is not called ---- */

static int
complete_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct kfd_abi_get_version_args *v = call->arg;

	v->major_version = 7;
	v->minor_version = 8;
	call->ret = 0;
	return KFD_HOOK_COMPLETE;
}

static const struct kfd_dispatch_hooks complete_hooks = {
	.name = "complete", .before = complete_before,
};

static void
test_completion_skips_kernel(void **state)
{
	char log[32] = "";
	struct observer outer = { .tag = 'A', .log = log };
	struct observer inner = { .tag = 'C', .log = log };
	struct kfd_abi_get_version_args v = { 0 };

	assert_int_equal(kfd_dispatch_hook_add(&obs_hooks, &outer), 0);
	assert_int_equal(kfd_dispatch_hook_add(&complete_hooks, NULL), 0);
	assert_int_equal(kfd_dispatch_hook_add(&obs_hooks, &inner), 0);
	/* fd -1: the kernel would say EBADF. */
	assert_int_equal(kfd_dispatch(-1, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION,
				      &v), 0);
	assert_int_equal(v.major_version, 7);
	assert_int_equal(v.minor_version, 8);
	/* The hook after the completing one never ran; the outer saw it all. */
	assert_string_equal(log, "Aa");
	assert_true(outer.after.flags & KFD_CALL_INJECTED);
	assert_int_equal(outer.after.ret, 0);
	assert_int_equal(kfd_dispatch_hook_remove(&obs_hooks, &inner), 0);
	assert_int_equal(kfd_dispatch_hook_remove(&complete_hooks, NULL), 0);
	assert_int_equal(kfd_dispatch_hook_remove(&obs_hooks, &outer), 0);
}

/* ---- fault injection ---- */

static void
test_faults_nth_alloc(void **state)
{
	struct kfd_faults *f = kfd_faults_new();
	struct kfd_abi_alloc_memory_of_gpu_args a = { 0 };
	struct kfd_abi_get_version_args v = { 0 };
	int fd = devnull();

	assert_non_null(f);
	assert_int_equal(kfd_faults_parse(f, "ALLOC_MEMORY_OF_GPU:3:ENOMEM"), 0);
	assert_int_equal(kfd_faults_attach(f), 0);
	for (int i = 1; i <= 5; i++) {
		/* GET_VERSION in between must not count. */
		assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD,
					      KFD_ABI_IOC_GET_VERSION, &v), -1);
		assert_int_equal(errno, ENOTTY);
		assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD,
					      KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), -1);
		/* /dev/null answers ENOTTY; only the 3rd is ours. */
		assert_int_equal(errno, i == 3 ? ENOMEM : ENOTTY);
	}
	assert_int_equal(kfd_faults_injected(f), 1);
	assert_int_equal(kfd_faults_seen(f, 0), 5);
	/* The same request code on a render node is not that ioctl. */
	assert_int_equal(kfd_dispatch(fd, KFD_FILE_RENDER,
				      KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), -1);
	assert_int_equal(errno, ENOTTY);
	assert_int_equal(kfd_faults_seen(f, 0), 5);
	kfd_faults_free(f);

	/* From the 2nd on, two of them, by event name and errno number. */
	f = kfd_faults_new();
	assert_int_equal(kfd_faults_parse(f, "alloc_memory_of_gpu:2+2:12"), 0);
	assert_int_equal(kfd_faults_attach(f), 0);
	int errs[5];

	for (int i = 0; i < 5; i++) {
		kfd_dispatch(fd, KFD_FILE_KFD, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a);
		errs[i] = errno;
	}
	assert_int_equal(errs[0], ENOTTY);
	assert_int_equal(errs[1], ENOMEM);
	assert_int_equal(errs[2], ENOMEM);
	assert_int_equal(errs[3], ENOTTY);
	assert_int_equal(errs[4], ENOTTY);
	kfd_faults_free(f);

	/* Every call from the 1st: "+*". */
	f = kfd_faults_new();
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION:1+*:EIO"), 0);
	assert_int_equal(kfd_faults_attach(f), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD,
					      KFD_ABI_IOC_GET_VERSION, &v), -1);
		assert_int_equal(errno, EIO);
	}
	kfd_faults_free(f);
	assert_int_equal(kfd_dispatch_hook_count(), 0);

	/* Bad specs. */
	f = kfd_faults_new();
	assert_int_equal(kfd_faults_parse(f, "NO_SUCH_IOCTL:1:ENOMEM"), -ENOENT);
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION:0:ENOMEM"), -EINVAL);
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION:1:ENOTANERRNO"), -EINVAL);
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION"), -EINVAL);
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION:x:EIO"), -EINVAL);
	kfd_faults_free(f);
	close(fd);
}

/*
 * The common grammar as the tracer takes it (kfd_faults_parse_msg()):
 * ';' separates too, WHICH "*" is every call, one trailing ',' is
 * allowed; delays and NAME "*" are kfdsim's and refused with a message.
 */
static void
test_faults_common_grammar(void **state)
{
	struct kfd_faults *f = kfd_faults_new();
	struct kfd_abi_get_version_args v = { 0 };
	struct kfd_abi_alloc_memory_of_gpu_args a = { 0 };
	char msg[200];
	int fd = devnull();

	(void)state;
	assert_non_null(f);
	assert_int_equal(kfd_faults_parse_msg(f, "GET_VERSION:*:EIO;ALLOC_MEMORY_OF_GPU:2:ENOSPC,",
					      msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_int_equal(kfd_faults_attach(f), 0);
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v), -1);
		assert_int_equal(errno, EIO);
		assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD,
					      KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), -1);
		assert_int_equal(errno, i == 2 ? ENOSPC : ENOTTY);
	}
	assert_int_equal(kfd_faults_injected(f), 4);
	kfd_faults_free(f);

	f = kfd_faults_new();
	assert_int_equal(kfd_faults_parse_msg(f, "GET_VERSION:1:delay=1ms", msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "rule 1, column 15: 'delay=1ms': delays are kfdsim's only "
			    "(KFDSIM_FAULTS); the tracer fails calls");
	assert_int_equal(kfd_faults_parse_msg(f, "GET_VERSION:1:EIO:delay=1ms", msg,
					      sizeof(msg)), -EINVAL);
	assert_int_equal(kfd_faults_parse_msg(f, "*:1:EIO", msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "rule 1, column 1: '*': every-ioctl rules are kfdsim's only; "
			    "name the ioctl");
	assert_int_equal(kfd_faults_parse_msg(f, "GET_VERSION:1:EIO,NO_SUCH:1:EIO", msg,
					      sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "rule 2, column 19: 'NO_SUCH': unknown ioctl");
	assert_int_equal(kfd_faults_parse_msg(f, "GET_VERSION:1:EIO:", msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "rule 1, column 19: '': expected an errno name or number, "
			    "or delay=T, at most one of each");
	/* Only one trailing ',': a lone one or two are empty rules. */
	assert_int_equal(kfd_faults_parse(f, ","), -EINVAL);
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION:1:EIO,,"), -EINVAL);
	assert_int_equal(kfd_faults_parse(f, "GET_VERSION:1:EIO;"), -EINVAL);
	assert_int_equal(kfd_faults_parse(f, ""), 0);
	assert_int_equal(kfd_faults_parse(f, NULL), -EINVAL);
	assert_int_equal(kfd_faults_parse(NULL, "GET_VERSION:1:EIO"), -EINVAL);
	/*
	 * Rules before the bad one stay: GET_VERSION:1:EIO three times
	 * above, each failing one call, so three calls fail and the 4th not.
	 */
	assert_int_equal(kfd_faults_attach(f), 0);
	for (int i = 1; i <= 4; i++) {
		assert_int_equal(kfd_dispatch(fd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v), -1);
		assert_int_equal(errno, i <= 3 ? EIO : ENOTTY);
	}
	assert_int_equal(kfd_faults_injected(f), 3);
	assert_int_equal(kfd_faults_seen(f, 0), 4);
	assert_int_equal(kfd_faults_seen(f, 2), 2);
	kfd_faults_free(f);
	close(fd);
}

/* ---- registration errors ---- */

static void
test_registration_errors(void **state)
{
	struct observer o[KFD_DISPATCH_MAX_HOOKS + 1];
	char log[64] = "";

	for (unsigned int i = 0; i <= KFD_DISPATCH_MAX_HOOKS; i++) {
		o[i].tag = 'A';
		o[i].log = log;
	}
	assert_int_equal(kfd_dispatch_hook_add(NULL, NULL), -EINVAL);
	for (unsigned int i = 0; i < KFD_DISPATCH_MAX_HOOKS; i++)
		assert_int_equal(kfd_dispatch_hook_add(&obs_hooks, &o[i]), 0);
	assert_int_equal(kfd_dispatch_hook_add(&obs_hooks, &o[0]), -EEXIST);
	assert_int_equal(kfd_dispatch_hook_add(&obs_hooks,
					       &o[KFD_DISPATCH_MAX_HOOKS]), -ENOSPC);
	assert_int_equal(kfd_dispatch_hook_remove(&obs_hooks,
						  &o[KFD_DISPATCH_MAX_HOOKS]), -ENOENT);
	for (unsigned int i = 0; i < KFD_DISPATCH_MAX_HOOKS; i++)
		assert_int_equal(kfd_dispatch_hook_remove(&obs_hooks, &o[i]), 0);
	assert_int_equal(kfd_dispatch_hook_count(), 0);
}

/* ---- removal waits for a thread inside a hook, not for the kernel ---- */

struct slow_hook {
	atomic_int inside, left, after_calls;
	int sleep_ms;
};

static int
slow_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct slow_hook *s = ctx;
	struct timespec ts = { 0, (long)s->sleep_ms * 1000000 };

	atomic_store(&s->inside, 1);
	nanosleep(&ts, NULL);
	atomic_store(&s->left, 1);
	return KFD_HOOK_CONTINUE;
}

static void
slow_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct slow_hook *s = ctx;

	atomic_fetch_add(&s->after_calls, 1);
}

static const struct kfd_dispatch_hooks slow_hooks = {
	.name = "slow", .before = slow_before, .after = slow_after,
};

static int
blocking_kernel(int fd, unsigned long request, void *arg)
{
	/* Long enough that a removal waiting for it could not be missed
	 * even on a loaded machine. */
	struct timespec ts = { 1, 500 * 1000000L };

	nanosleep(&ts, NULL);
	return 0;
}

struct caller_arg {
	int (*sys)(int, unsigned long, void *);
};

static void *
caller_thread(void *p)
{
	struct caller_arg *c = p;
	struct kfd_abi_get_version_args v;

	kfd_dispatch_via(c->sys, 3, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v);
	return NULL;
}

static uint64_t
now_ms(void)
{
	return kfd_dispatch_now() / 1000000u;
}

static void
test_remove_waits_for_hook_not_kernel(void **state)
{
	struct slow_hook s = { .sleep_ms = 300 };
	struct caller_arg c = { fake_kernel };
	pthread_t t;
	uint64_t t0;

	/* A thread inside before(): removal waits until it has left. */
	assert_int_equal(kfd_dispatch_hook_add(&slow_hooks, &s), 0);
	assert_int_equal(pthread_create(&t, NULL, caller_thread, &c), 0);
	while (!atomic_load(&s.inside))
		usleep(1000);
	assert_int_equal(kfd_dispatch_hook_remove(&slow_hooks, &s), 0);
	assert_int_equal(atomic_load(&s.left), 1);
	pthread_join(t, NULL);

	/* A thread blocked in the kernel: removal does not wait for it,
	 * and the removed hook's after() is not called for that call. */
	memset(&s, 0, sizeof(s));
	s.sleep_ms = 0;
	c.sys = blocking_kernel;
	assert_int_equal(kfd_dispatch_hook_add(&slow_hooks, &s), 0);
	assert_int_equal(pthread_create(&t, NULL, caller_thread, &c), 0);
	while (!atomic_load(&s.left))
		usleep(1000);
	t0 = now_ms();
	assert_int_equal(kfd_dispatch_hook_remove(&slow_hooks, &s), 0);
	assert_true(now_ms() - t0 < 1000);
	pthread_join(t, NULL);
	assert_int_equal(atomic_load(&s.after_calls), 0);
}

/* ---- many threads while hooks come and go ---- */

struct counter_hook {
	atomic_ulong before, after;
};

static int
count_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct counter_hook *c = ctx;

	atomic_fetch_add(&c->before, 1);
	*cookie = c;
	return KFD_HOOK_CONTINUE;
}

static void
count_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct counter_hook *c = ctx;

	assert_ptr_equal(cookie, c);
	atomic_fetch_add(&c->after, 1);
}

static const struct kfd_dispatch_hooks count_hooks = {
	.name = "count", .before = count_before, .after = count_after,
};

/* Its cookie is NULL where its before() was not called. */
static void
bufs_only_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct counter_hook *c = ctx;

	assert_ptr_equal(cookie, call->desc && call->desc->nbufs ? c : NULL);
	atomic_fetch_add(&c->after, 1);
}

static const struct kfd_dispatch_hooks bufs_only_hooks = {
	.name = "bufs-only", .before = count_before, .after = bufs_only_after,
	.flags = KFD_HOOK_BEFORE_BUFFERS_ONLY,
};

static atomic_int stress_stop;

static int
quick_kernel(int fd, unsigned long request, void *arg)
{
	return 0;
}

static void *
stress_thread(void *p)
{
	struct kfd_abi_get_version_args v;
	unsigned long *n = p;

	while (!atomic_load(&stress_stop)) {
		assert_int_equal(kfd_dispatch_via(quick_kernel, 3, KFD_FILE_KFD,
						  KFD_ABI_IOC_GET_VERSION, &v), 0);
		(*n)++;
	}
	return NULL;
}

/*
 * KFD_HOOK_BEFORE_BUFFERS_ONLY: before() only for rows with indirect
 * buffers, after() always; a hook without the flag sees every before().
 */
static void
test_before_buffers_only(void **state)
{
	struct kfd_abi_get_process_apertures_new_args ap = { 0 };
	struct kfd_abi_get_version_args v;
	struct counter_hook only = { 0 }, all = { 0 };
	const struct kfd_ioctl_desc *d;

	d = kfd_schema_lookup(KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION);
	assert_non_null(d);
	assert_int_equal(d->nbufs, 0);
	d = kfd_schema_lookup(KFD_FILE_KFD,
			      KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW);
	assert_non_null(d);
	assert_true(d->nbufs > 0);

	assert_int_equal(kfd_dispatch_hook_add(&bufs_only_hooks, &only), 0);
	assert_int_equal(kfd_dispatch_hook_add(&count_hooks, &all), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(kfd_dispatch_via(quick_kernel, 3, KFD_FILE_KFD,
						  KFD_ABI_IOC_GET_VERSION, &v),
				 0);
	assert_int_equal(kfd_dispatch_via(quick_kernel, 3, KFD_FILE_KFD,
					  KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW,
					  &ap), 0);
	/* An unknown request has no row, so no buffers. */
	assert_int_equal(kfd_dispatch_via(quick_kernel, 3, KFD_FILE_KFD,
					  _IOWR('K', 0x7f, uint64_t), &v), 0);
	assert_int_equal(kfd_dispatch_hook_remove(&count_hooks, &all), 0);
	assert_int_equal(kfd_dispatch_hook_remove(&bufs_only_hooks, &only), 0);
	assert_int_equal(atomic_load(&only.before), 1);
	assert_int_equal(atomic_load(&only.after), 5);
	assert_int_equal(atomic_load(&all.before), 5);
	assert_int_equal(atomic_load(&all.after), 5);
	(void)state;
}

static void
test_hooks_churn_under_load(void **state)
{
	struct counter_hook c = { 0 };
	pthread_t t[4];
	unsigned long calls[4] = { 0 };

	atomic_store(&stress_stop, 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, stress_thread,
						&calls[i]), 0);
	for (int round = 0; round < 200; round++) {
		assert_int_equal(kfd_dispatch_hook_add(&count_hooks, &c), 0);
		usleep(200);
		assert_int_equal(kfd_dispatch_hook_remove(&count_hooks, &c), 0);
	}
	atomic_store(&stress_stop, 1);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	/* No after() without its before(); removal may drop some after()s. */
	assert_true(atomic_load(&c.after) <= atomic_load(&c.before));
	assert_true(atomic_load(&c.before) > 0);
	assert_int_equal(kfd_dispatch_hook_count(), 0);
}

/* ---- the clock ---- */

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * kfd_dispatch_now() is CLOCK_MONOTONIC: bracketed by clock_gettime()
 * within a small tolerance (it may extrapolate from the TSC), never going
 * backwards, across the first calibration and many anchor periods.
 */
static void
test_clock_is_monotonic(void **state)
{
	uint64_t prev = 0, worst = 0, end = mono_ns() + 60 * 1000000ull;
	unsigned long n = 0;

	while (mono_ns() < end) {
		uint64_t a = mono_ns();
		uint64_t t = kfd_dispatch_now();
		uint64_t b = mono_ns();

		assert_true(t >= prev);
		prev = t;
		/* 2 us: extrapolation error is tens of ns; the rest is the
		 * reading being preempted on a loaded machine. */
		if (t + 2000 < a || t > b + 2000)
			worst++;
		n++;
		if ((n & 1023) == 0) {
			struct timespec ts = { 0, 300000 };

			nanosleep(&ts, NULL);
		}
	}
	/* A rare preemption between the readings is not an error. */
	assert_true(worst * 1000 < n);
	assert_true(n > 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_is_monotonic),
		cmocka_unit_test(test_no_hook_passthrough),
		cmocka_unit_test(test_retry_eintr_eagain),
		cmocka_unit_test(test_hooks_see_call),
		cmocka_unit_test(test_completion_skips_kernel),
		cmocka_unit_test(test_faults_nth_alloc),
		cmocka_unit_test(test_faults_common_grammar),
		cmocka_unit_test(test_registration_errors),
		cmocka_unit_test(test_remove_waits_for_hook_not_kernel),
		cmocka_unit_test(test_before_buffers_only),
		cmocka_unit_test(test_hooks_churn_under_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
