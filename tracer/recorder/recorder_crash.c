/* SPDX-License-Identifier: MIT */
/*
 * Fatal-signal handlers: save what is buffered, then let the signal do
 * what it would have done without us.
 *
 * The handler first gives a guarded argument copy the chance to recover
 * (a bad user pointer is not a crash), then calls the writer's
 * async-signal-safe emergency flush, then hands the signal on: to the
 * handler that was installed before ours, or to the default action. For
 * the default action the disposition is reset and the signal re-raised
 * when it was sent (kill, abort); a fault from an instruction simply
 * happens again when the handler returns, now with the default action.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "recorder_priv.h"
#include "safecopy.h"

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
#define CRASH_NSIG (sizeof(crash_signals) / sizeof(crash_signals[0]))

static struct sigaction crash_old[CRASH_NSIG];
static int crash_ours[CRASH_NSIG];	/* our handler is installed */
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

static int
crash_index(int sig)
{
	for (unsigned int i = 0; i < CRASH_NSIG; i++)
		if (crash_signals[i] == sig)
			return (int)i;
	return -1;
}

static void
crash_handler(int sig, siginfo_t *info, void *uc)
{
	int saved_errno = errno;
	struct kt_writer *w;
	int i;

	kfd_safe_copy_fault(sig);

	w = atomic_load_explicit(&crash_writer, memory_order_acquire);
	if (w)
		kt_writer_emergency_flush(w);

	i = crash_index(sig);
	if (i < 0) {
		errno = saved_errno;
		return;
	}
	if (crash_old[i].sa_handler != SIG_DFL && crash_old[i].sa_handler != SIG_IGN) {
		struct sigaction next = crash_old[i];

		/* A one-shot handler (SA_RESETHAND) falls back to the default. */
		if (next.sa_flags & SA_RESETHAND) {
			crash_old[i].sa_handler = SIG_DFL;
			crash_old[i].sa_flags = 0;
		}
		if (next.sa_flags & SA_SIGINFO)
			next.sa_sigaction(sig, info, uc);
		else
			next.sa_handler(sig);
		errno = saved_errno;
		return;
	}
	/* Default (or ignored): put the old disposition back for good. */
	crash_ours[i] = 0;
	crash_sigaction(sig, &crash_old[i], NULL);
	if (!info || info->si_code <= 0 || sig == SIGABRT)
		raise(sig);	/* pending until we return: then it acts */
	errno = saved_errno;
}

int
kfd_rec_crash_install(struct kt_writer *w)
{
	struct sigaction sa, cur;
	int ret = 0;

	pthread_mutex_lock(&crash_lock);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < CRASH_NSIG; i++) {
		if (crash_sigaction(crash_signals[i], NULL, &cur)) {
			ret = -errno;
			continue;
		}
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == crash_handler) {
			crash_ours[i] = 1;
			continue;
		}
		/* Set the chain target before the handler can run. */
		crash_old[i] = cur;
		if (crash_sigaction(crash_signals[i], &sa, NULL))
			ret = -errno;
		else
			crash_ours[i] = 1;
	}
	if (ret == 0)
		kfd_safe_copy_arm(1);
	atomic_store_explicit(&crash_writer, w, memory_order_release);
	pthread_mutex_unlock(&crash_lock);
	return ret;
}

int
kfd_recorder_crash_chain(int sig, const struct sigaction *act,
			 struct sigaction *old)
{
	int i = crash_index(sig), ret = 0;

	if (i < 0)
		return 0;
	pthread_mutex_lock(&crash_lock);
	if (crash_ours[i]) {
		if (old)
			*old = crash_old[i];
		if (act)
			crash_old[i] = *act;
		ret = 1;
	}
	pthread_mutex_unlock(&crash_lock);
	return ret;
}

void
kfd_rec_crash_forget(struct kt_writer *w)
{
	struct kt_writer *expected = w;

	atomic_compare_exchange_strong(&crash_writer, &expected, NULL);
}
