/* SPDX-License-Identifier: MIT */
/*
 * A system suspend of a running simulated machine (sim_pm.h): the model
 * does the work (ksim_machine_suspend(), ksim_machine_resume()); this
 * finds the machine, checks the options and says what went wrong.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cli.h"
#include "ksim.h"
#include "launch/sim_pm.h"

/* How long a suspend waits for the engines to stop: a pass is short, but
 * a loaded host may keep an engine from a core for a while. */
#define SIM_PM_WAIT_MS	10000u

/* "0.5" -> 0.5; -1 for anything that is not a time. */
static double
parse_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 86400)
		return -1;
	return v;
}

static void
sleep_seconds(double s)
{
	struct timespec ts = {
		.tv_sec = (time_t)s,
		.tv_nsec = (long)((s - (double)(time_t)s) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int
pm_error(const char *what, const char *id, int r)
{
	switch (r) {
	case -ENOENT:
		cli_err("%s: no machine '%s' is running", what, id);
		break;
	case -EALREADY:
		cli_err("%s: machine '%s' is already %s", what, id,
			strcmp(what, "--suspend") ? "running" : "suspended");
		break;
	case -ETIMEDOUT:
		cli_err("%s: machine '%s': an engine did not stop within %u ms "
			"(the machine stays suspended)", what, id, SIM_PM_WAIT_MS);
		break;
	default:
		cli_err("%s: machine '%s': %s", what, id, strerror(-r));
		break;
	}
	return KFDTRACE_EXIT_ERROR;
}

int
kfdtrace_sim_pm(const char *machine, int suspend, const char *sleep)
{
	const char *what = suspend ? "--suspend" : "--resume";
	double secs = 0;
	int r;

	if (!machine)
		machine = getenv(KSIM_ENV_MACHINE);
	if (!machine || !*machine) {
		cli_err("%s: which machine? give --machine ID (inside a run, "
			"%s names it)", what, KSIM_ENV_MACHINE);
		return KFDTRACE_EXIT_USAGE;
	}
	if (ksim_machine_name_check(machine)) {
		cli_err("%s: '%s' cannot name a machine", what, machine);
		return KFDTRACE_EXIT_USAGE;
	}
	if (sleep) {
		secs = parse_seconds(sleep);
		if (secs < 0) {
			cli_err("--sleep %s: expected seconds, 0 to 86400", sleep);
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (!suspend) {
		r = ksim_machine_resume(machine);
		return r ? pm_error(what, machine, r) : KFDTRACE_EXIT_OK;
	}
	r = ksim_machine_suspend(machine, SIM_PM_WAIT_MS, NULL);
	if (r && r != -ETIMEDOUT)
		return pm_error(what, machine, r);
	if (r)
		pm_error(what, machine, r);
	if (!sleep)
		return r ? KFDTRACE_EXIT_ERROR : KFDTRACE_EXIT_OK;
	sleep_seconds(secs);
	/* The wake-up comes whatever happened: a machine left suspended
	 * would hang every program on it. */
	if (ksim_machine_resume(machine) && !r)
		return pm_error("--resume", machine, -EIO);
	return r ? KFDTRACE_EXIT_ERROR : KFDTRACE_EXIT_OK;
}
