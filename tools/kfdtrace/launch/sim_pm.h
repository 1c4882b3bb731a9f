/* SPDX-License-Identifier: MIT */
/*
 * `kfdtrace sim --suspend` and `--resume`: a system suspend of a running
 * simulated machine, driven from outside its processes (sim_pm.c).
 */
#ifndef KFDTRACE_SIM_PM_H
#define KFDTRACE_SIM_PM_H

/*
 * kfdtrace_sim_pm() - suspend (@suspend 1) or resume machine @machine
 * (NULL: KFDSIM_MACHINE, the machine this process runs on). With @sleep
 * (seconds, a decimal number) a suspend is followed by a resume that
 * long after, as pm-suspend returns only after the wake-up.
 *
 * Return: a KFDTRACE_EXIT_* status; a message on stderr says what failed.
 */
int kfdtrace_sim_pm(const char *machine, int suspend, const char *sleep);

#endif /* KFDTRACE_SIM_PM_H */
