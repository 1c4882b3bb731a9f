/* SPDX-License-Identifier: MIT */
/*
 * sigaction() and signal() for the signals the recorder handles: the
 * crash signals (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE) and every other
 * signal whose default action ends the process.
 *
 * Once a trace is open our crash handler must stay first: it flushes the
 * trace when the program crashes, and it recovers the guarded copies of
 * ioctl arguments from bad pointers. A program that installs its own
 * handler for one of these signals gets it installed behind ours instead:
 * ours runs, then hands the signal to it.
 *
 * For the other ending signals ours stands for the default action only: a
 * handler of the program's, or SIG_IGN, is installed for real; SIG_DFL
 * puts ours back. Either way sigaction() and signal() report what the
 * program set, never ours.
 */
#include "capture.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

KCAP_EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	kcap_real_init();
	if (!kcap_busy && kcap_session_signals() &&
	    kfd_recorder_crash_chain(sig, act, old) == 1)
		return 0;
	return kcap_real.sigaction(sig, act, old);
}

KCAP_EXPORT sighandler_t
signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	kcap_real_init();
	if (kcap_busy || !kcap_session_signals() || sig <= 0 || sig >= NSIG)
		return kcap_real.signal(sig, handler);
	/* What glibc's signal() installs: BSD semantics. */
	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;
	sigemptyset(&act.sa_mask);
	sigaddset(&act.sa_mask, sig);
	if (kfd_recorder_crash_chain(sig, &act, &old) == 1)
		return old.sa_handler;
	return kcap_real.signal(sig, handler);
}
