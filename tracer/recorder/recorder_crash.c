/* SPDX-License-Identifier: MIT */
/*
 * Signal handlers that save what is buffered, then let the signal do what
 * it would have done without us.
 *
 * Crash signals (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE): the handler
 * first gives a guarded argument copy the chance to recover (a bad user
 * pointer is not a crash), then calls the writer's async-signal-safe
 * emergency flush, then hands the signal on: to the handler that was
 * installed before ours (ours stays in front of the program's), or to the
 * default action. For the default action the disposition is reset and the
 * signal re-raised when it was sent (kill, abort); a fault from an
 * instruction simply happens again when the handler returns, now with the
 * default action.
 *
 * Ending signals (KFD_REC_END_ON_SIGNAL: every other signal whose default
 * action ends the process): ours is installed only where the disposition
 * is the default, and stands for it. The handler finishes the trace (the
 * END record, flagged KT_END_SIGNAL), puts the default back and re-raises,
 * so the process dies of the same signal. A program that installs a
 * handler of its own, or ignores the signal, gets exactly that (ours steps
 * aside); one that sets the default again gets ours back.
 *
 * The handler takes no lock and allocates nothing. It reads the program's
 * disposition from sig_view[], which kfd_recorder_crash_chain() updates
 * with the signal blocked.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder_priv.h"
#include "safecopy.h"

enum sig_kind {
	SIG_KIND_NONE = 0,
	SIG_KIND_CRASH,		/* ours in front, chaining */
	SIG_KIND_END,		/* ours only for the default action */
};

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };

/* Default action: terminate, or dump core. The realtime ones are added. */
static const int end_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTRAP, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
	SIGTERM,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
	SIGSYS,
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Per signal number: what the program set (the handler ours chains to, or
 * the default ours stands for), whether ours is installed, and its kind.
 */
static struct sigaction sig_view[NSIG];
static unsigned char sig_ours[NSIG];
static unsigned char sig_kind[NSIG];
static int sig_end_armed;		/* ending signals were taken once */
static _Atomic(struct kt_writer *) crash_writer;
static pthread_mutex_t crash_lock = PTHREAD_MUTEX_INITIALIZER;

/* How we change dispositions: an interposer hands us the real one. */
static int (*crash_sigaction)(int, const struct sigaction *,
			      struct sigaction *) = sigaction;

void
kfd_recorder_set_sigaction(int (*fn)(int sig, const struct sigaction *act,
				     struct sigaction *old))
{
	crash_sigaction = fn ? fn : sigaction;
}

/* Runs first for SIGSEGV (kfd_recorder_set_fault_hook()). */
static int (*_Atomic crash_fault_hook)(int, siginfo_t *, void *);

void
kfd_recorder_set_fault_hook(int (*fn)(int sig, siginfo_t *info, void *uc))
{
	atomic_store(&crash_fault_hook, fn);
}

/* Run before an ending signal's END record (kfd_recorder_set_end_hook()). */
static void (*_Atomic crash_end_hook)(void);

void
kfd_recorder_set_end_hook(void (*fn)(void))
{
	atomic_store(&crash_end_hook, fn);
}

/*
 * Take crash_lock with every signal blocked on this thread: sigaction() is
 * async-signal-safe, so a program's handler may call it (through the
 * interposer) on a thread that holds the lock. Faults still come through.
 */
static void
crash_lock_take(sigset_t *saved)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, saved);
	pthread_mutex_lock(&crash_lock);
}

static void
crash_lock_drop(const sigset_t *saved)
{
	pthread_mutex_unlock(&crash_lock);
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* The kind of @sig; the ending ones only once armed. Not in a handler. */
static enum sig_kind
sig_kind_of(int sig, int end)
{
	for (unsigned int i = 0; i < ARRAY_LEN(crash_signals); i++)
		if (crash_signals[i] == sig)
			return SIG_KIND_CRASH;
	if (!end)
		return SIG_KIND_NONE;
	for (unsigned int i = 0; i < ARRAY_LEN(end_signals); i++)
		if (end_signals[i] == sig)
			return SIG_KIND_END;
	/* Realtime signals: SIGRTMIN leaves out the ones libc keeps. */
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return SIG_KIND_END;
	return SIG_KIND_NONE;
}

static int
is_default(const struct sigaction *sa)
{
	return sa->sa_handler == SIG_DFL;
}

static int
is_handler(const struct sigaction *sa)
{
	return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

static void crash_handler(int sig, siginfo_t *info, void *uc);

static int
is_ours(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == crash_handler;
}

/*
 * Send @sig to this thread again. Not raise(): in a child made by a raw
 * clone system call libc's idea of our thread id is the parent's.
 */
static void
reraise(int sig)
{
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
}

static void
crash_handler(int sig, siginfo_t *info, void *uc)
{
	int saved_errno = errno;
	struct kt_writer *w;
	struct sigaction next;
	int fault, dies;

	kfd_safe_copy_fault(sig);
	/*
	 * A fault its owner resolves (a trapped doorbell store) is no
	 * crash: nothing is flushed and nobody else sees it.
	 */
	if (sig == SIGSEGV) {
		int (*hook)(int, siginfo_t *, void *) =
			atomic_load_explicit(&crash_fault_hook, memory_order_acquire);

		if (hook && hook(sig, info, uc)) {
			errno = saved_errno;
			return;
		}
	}
	if (sig <= 0 || sig >= NSIG)
		return;
	next = sig_view[sig];
	/* An instruction's fault happens again when we return. */
	fault = sig_kind[sig] == SIG_KIND_CRASH && info && info->si_code > 0 &&
		sig != SIGABRT;
	/* Re-raised with the default action: nothing of ours runs after. */
	dies = sig_kind[sig] == SIG_KIND_END && is_default(&next);

	w = atomic_load_explicit(&crash_writer, memory_order_acquire);
	if (w) {
		if (dies) {
			void (*hook)(void) = atomic_load(&crash_end_hook);

			if (hook)
				hook();
			kt_writer_emergency_end_signal(w);
		} else
			kt_writer_emergency_flush(w);
	}

	if (is_handler(&next)) {
		/* A one-shot handler (SA_RESETHAND) falls back to the default. */
		if (next.sa_flags & SA_RESETHAND) {
			sig_view[sig].sa_handler = SIG_DFL;
			sig_view[sig].sa_flags = 0;
		}
		if (next.sa_flags & SA_SIGINFO)
			next.sa_sigaction(sig, info, uc);
		else
			next.sa_handler(sig);
		errno = saved_errno;
		return;
	}
	/* Default (or ignored): put the program's disposition back for good. */
	sig_ours[sig] = 0;
	crash_sigaction(sig, &next, NULL);
	if (!fault)
		reraise(sig);	/* pending until we return: then it acts */
	errno = saved_errno;
}

/* Put ours in for @sig, standing for @view. Locked. */
static int
sig_take(int sig, const struct sigaction *view, enum sig_kind kind)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (kind == SIG_KIND_END) {
		/*
		 * Another ending signal must not cut the flush short; the
		 * synchronous ones stay open (blocked, they would kill).
		 */
		sigfillset(&sa.sa_mask);
		sigdelset(&sa.sa_mask, SIGSEGV);
		sigdelset(&sa.sa_mask, SIGBUS);
		sigdelset(&sa.sa_mask, SIGILL);
		sigdelset(&sa.sa_mask, SIGFPE);
		sigdelset(&sa.sa_mask, SIGTRAP);
		sigdelset(&sa.sa_mask, SIGSYS);
	}
	/* Set the chain target before the handler can run. */
	sig_view[sig] = *view;
	sig_kind[sig] = (unsigned char)kind;
	if (crash_sigaction(sig, &sa, NULL))
		return -errno;
	sig_ours[sig] = 1;
	return 0;
}

/* Install ours for @sig if it belongs there. Locked. */
static int
sig_install_one(int sig, enum sig_kind kind)
{
	struct sigaction cur;

	if (crash_sigaction(sig, NULL, &cur))
		return -errno;
	if (is_ours(&cur)) {
		sig_kind[sig] = (unsigned char)kind;
		sig_ours[sig] = 1;
		return 0;
	}
	sig_ours[sig] = 0;
	/* An ending signal the program handles or ignores is its own. */
	if (kind == SIG_KIND_END && !is_default(&cur))
		return 0;
	return sig_take(sig, &cur, kind);
}

int
kfd_rec_crash_install(struct kt_writer *w, int end_signals_too)
{
	int ret = 0, err;
	sigset_t saved;

	crash_lock_take(&saved);
	for (unsigned int i = 0; i < ARRAY_LEN(crash_signals); i++) {
		err = sig_install_one(crash_signals[i], SIG_KIND_CRASH);
		if (err)
			ret = err;
	}
	if (ret == 0)
		kfd_safe_copy_arm(1);
	if (end_signals_too) {
		sig_end_armed = 1;
		for (int sig = 1; sig < NSIG; sig++)
			if (sig_kind_of(sig, 1) == SIG_KIND_END)
				sig_install_one(sig, SIG_KIND_END);
	}
	atomic_store_explicit(&crash_writer, w, memory_order_release);
	crash_lock_drop(&saved);
	return ret;
}

/*
 * Whether ours is still what the kernel has for @sig: a program can
 * change it where no interposer sees (sigset(), the system call).
 */
static int
sig_still_ours(int sig)
{
	struct sigaction cur;

	if (!sig_ours[sig])
		return 0;
	if (crash_sigaction(sig, NULL, &cur) == 0 && !is_ours(&cur))
		sig_ours[sig] = 0;
	return sig_ours[sig];
}

/* The program's sigaction() on an ending signal. Locked. */
static int
sig_chain_end(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction cur;

	if (!sig_still_ours(sig)) {
		/* Only the default brings ours back; the rest is real. */
		if (!act || !is_default(act))
			return 0;
		if (crash_sigaction(sig, NULL, &cur))
			return 0;
		if (sig_take(sig, act, SIG_KIND_END))
			return 0;
		if (old)
			*old = cur;
		return 1;
	}
	if (old)
		*old = sig_view[sig];
	if (act && is_default(act)) {
		sig_view[sig] = *act;
	} else if (act) {
		/* The program's own handler, or SIG_IGN: ours steps aside. */
		if (crash_sigaction(sig, act, NULL))
			return -1;
		sig_ours[sig] = 0;
	}
	return 1;
}

int
kfd_recorder_crash_chain(int sig, const struct sigaction *act,
			 struct sigaction *old)
{
	enum sig_kind kind;
	sigset_t saved;
	int ret = 0;

	if (sig <= 0 || sig >= NSIG)
		return 0;
	/* Blocked: our handler on this thread never sees sig_view[] half
	 * written. */
	crash_lock_take(&saved);
	kind = sig_kind_of(sig, sig_end_armed);
	if (kind == SIG_KIND_END) {
		ret = sig_chain_end(sig, act, old);
	} else if (kind == SIG_KIND_CRASH && sig_ours[sig]) {
		if (old)
			*old = sig_view[sig];
		if (act)
			sig_view[sig] = *act;
		ret = 1;
	}
	crash_lock_drop(&saved);
	return ret;
}

int
kfd_recorder_fault_live(void)
{
	sigset_t saved;
	int live;

	crash_lock_take(&saved);
	live = sig_kind[SIGSEGV] == SIG_KIND_CRASH && sig_still_ours(SIGSEGV);
	crash_lock_drop(&saved);
	return live;
}

void
kfd_rec_crash_forget(struct kt_writer *w)
{
	struct kt_writer *expected = w;

	atomic_compare_exchange_strong(&crash_writer, &expected, NULL);
}
