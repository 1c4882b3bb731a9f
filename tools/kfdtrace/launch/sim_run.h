/* SPDX-License-Identifier: MIT */
/*
 * Running a command the way `kfdtrace sim`, `kfdtrace record` and (through
 * sim) `kfdtrace replay --sim` do: on the simulator, every process the
 * command starts shares one simulated machine, made for the run and
 * removed when it ends (ksim_machine_begin()); the command runs in a child
 * process while kfdtrace waits, passes signals on and hands back the
 * command's status.
 */
#ifndef KFDTRACE_SIM_RUN_H
#define KFDTRACE_SIM_RUN_H

#include <sys/types.h>

struct ksim_machine;

struct kfdtrace_run {
	const char *who;		/* "kfdtrace sim": prefix of messages */
	struct ksim_machine *machine;	/* NULL: not on the simulator */
	pid_t pid;			/* the command, once started */
};

/*
 * kfdtrace_run_begin() - get ready to run a command.
 * @who:	names the command in messages
 * @sim:	on the simulator: the run's machine is made (or joined) now
 *		and KFDSIM_MACHINE set in this process's environment, which
 *		the command inherits
 * @machine:	a named machine to join (--machine); NULL: the one this
 *		process runs on (KFDSIM_MACHINE, when kfdtrace itself runs
 *		under `kfdtrace sim`), else a new machine for this run (where
 *		its state file cannot be made, e.g. no /dev/shm, the run goes
 *		on with a warning and a machine per process)
 *
 * Return: 0, or -1 with a message printed.
 */
int kfdtrace_run_begin(struct kfdtrace_run *r, const char *who, int sim,
		       const char *machine);

/*
 * kfdtrace_run_start() - start the command: fork, and in the child restore
 * the signal mask, arrange to be killed if kfdtrace is (as the command was
 * when kfdtrace exec'd it), then call @child, which sets up the environment
 * and execs (it must not return).
 *
 * Return: the child's pid, or -1 with a message printed.
 */
pid_t kfdtrace_run_start(struct kfdtrace_run *r, void (*child)(void *arg),
			 void *arg);

/*
 * kfdtrace_run_wait() - wait for the command to end. SIGHUP, SIGINT,
 * SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 and SIGWINCH sent to kfdtrace are
 * passed on to it; those the terminal sends reach it directly (same
 * process group) and are not passed on twice. A signal kfdtrace was
 * started ignoring stays ignored.
 *
 * Return: its wait status, or -1 with a message printed.
 */
int kfdtrace_run_wait(struct kfdtrace_run *r);

/*
 * kfdtrace_run_end() - the run is over: its machine is removed (a named one
 * when no other process uses it). Call it whatever happened before.
 */
void kfdtrace_run_end(struct kfdtrace_run *r);

/*
 * kfdtrace_run_exit() - end kfdtrace as the command ended: return its exit
 * code, or, when a signal killed it, die of the same signal (no core
 * dump of kfdtrace itself), so the shell sees what it would have seen
 * without kfdtrace.
 *
 * Return: the exit code (128 + the signal number if raising it did not
 * end this process), or 1 (-1 or a stopped status).
 */
int kfdtrace_run_exit(int status);

/*
 * kfdtrace_sim_command() - `kfdtrace sim` (argv[0] "sim") for another
 * command that runs itself on the simulator (replay --sim).
 * @ran:	set to 1 once the command has started, 0 before
 *
 * Return: as kfdtrace_cmd_sim(): the command's exit status once it ran
 * (it died of a signal: this process dies of it too), else sim's own
 * error status.
 */
int kfdtrace_sim_command(int argc, char **argv, int *ran);

#endif /* KFDTRACE_SIM_RUN_H */
