/* SPDX-License-Identifier: MIT */
/*
 * Running a command on one simulated machine (sim_run.h): the part of
 * `kfdtrace sim`, `record` and `replay --sim` that outlives the command, so
 * that the machine's shared state goes away with the run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ksim.h"
#include "launch/sim_run.h"

/* What is passed on to the command. SIGCHLD, the job-control signals and
 * SIGKILL/SIGSTOP are not: the first is ours, the others act on the
 * whole process group, and the last two cannot be caught (a SIGKILL of
 * kfdtrace kills the command through PR_SET_PDEATHSIG). */
static const int forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH,
};
#define N_FORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

static volatile sig_atomic_t forward_pid;
static struct sigaction saved[N_FORWARDED];
static int installed[N_FORWARDED];

static void
forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* The kernel's own signals (the terminal's ^C, ^\, a hangup, a
	 * window change) reach the whole foreground process group, the
	 * command included; only a signal sent to kfdtrace is passed on.
	 * And none back to the command that sent it. */
	if (si && si->si_code > 0)
		return;
	if (si && si->si_pid == forward_pid)
		return;
	if (forward_pid > 0)
		kill(forward_pid, sig);
}

static sigset_t
forwarded_set(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < N_FORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	return set;
}

int
kfdtrace_run_begin(struct kfdtrace_run *r, const char *who, int sim,
		   const char *machine)
{
	const char *inherited = getenv(KSIM_ENV_MACHINE);
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->who = who;
	r->pid = -1;
	if (!sim)
		return 0;
	/* Under an outer `kfdtrace sim`: its machine is this run's too. */
	if (!machine && inherited && *inherited)
		machine = inherited;
	if (machine && ksim_machine_name_check(machine)) {
		fprintf(stderr, "%s: machine '%s': expected 1 to %d of "
			"[A-Za-z0-9_.-], not starting with '.'\n", who, machine,
			KSIM_MACHINE_ID_MAX);
		return -1;
	}
	r->machine = ksim_machine_begin(machine, &err);
	if (!r->machine && !machine &&
	    (err == -ENOENT || err == -EACCES || err == -EROFS || err == -ENOSPC)) {
		/* No usable /dev/shm: the run still works, without sharing. */
		fprintf(stderr, "%s: no shared machine for this run (%s): each "
			"process gets a machine of its own\n", who, strerror(-err));
		unsetenv(KSIM_ENV_MACHINE);
		return 0;
	}
	if (!r->machine) {
		/* The reason is on stderr already (kfdsim[pid]: FILE: ...). */
		fprintf(stderr, "%s: cannot set up the simulated machine: %s\n",
			who, strerror(-err));
		return -1;
	}
	if (setenv(KSIM_ENV_MACHINE, ksim_machine_id(r->machine), 1)) {
		fprintf(stderr, "%s: %s\n", who, strerror(errno));
		kfdtrace_run_end(r);
		return -1;
	}
	return 0;
}

pid_t
kfdtrace_run_start(struct kfdtrace_run *r, void (*child)(void *arg), void *arg)
{
	sigset_t set = forwarded_set(), old;
	pid_t parent = getpid(), pid;

	/* Held until the forwarders are in place: a signal that comes
	 * between fork and the handlers reaches the command too. */
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "%s: fork: %s\n", r->who, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		/* kfdtrace used to be the command (exec): killing it killed
		 * the command. It still does. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		child(arg);
		_exit(127);
	}
	r->pid = pid;
	forward_pid = pid;
	for (size_t i = 0; i < N_FORWARDED; i++) {
		struct sigaction sa;

		installed[i] = 0;
		sigaction(forwarded[i], NULL, &saved[i]);
		if (!(saved[i].sa_flags & SA_SIGINFO) && saved[i].sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = forward;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		installed[i] = !sigaction(forwarded[i], &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

int
kfdtrace_run_wait(struct kfdtrace_run *r)
{
	int status;

	if (r->pid <= 0)
		return -1;
	while (waitpid(r->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: waitpid: %s\n", r->who, strerror(errno));
			return -1;
		}
	}
	forward_pid = 0;
	for (size_t i = 0; i < N_FORWARDED; i++) {
		if (installed[i])
			sigaction(forwarded[i], &saved[i], NULL);
		installed[i] = 0;
	}
	r->pid = -1;
	return status;
}

void
kfdtrace_run_end(struct kfdtrace_run *r)
{
	ksim_machine_end(r->machine);
	r->machine = NULL;
}

int
kfdtrace_run_exit(int status)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;
	int sig;

	if (status == -1)
		return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (!WIFSIGNALED(status))
		return 1;
	sig = WTERMSIG(status);
	/* The command dumped its core already, if it was to. */
	setrlimit(RLIMIT_CORE, &no_core);
	fflush(NULL);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}
