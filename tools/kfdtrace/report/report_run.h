/* SPDX-License-Identifier: MIT */
/*
 * The report of a run: one report model per process of a recording (a
 * parent and its children, cli_run), built from each process's own
 * reader, on one time axis, with the whole run's totals and its calls
 * by ioctl kind over every process.
 */
#ifndef KFDTRACE_REPORT_RUN_H
#define KFDTRACE_REPORT_RUN_H

#include "report/report_model.h"
#include "core/run.h"

struct report_proc {
	struct report_model m;
	const struct cli_run_proc *rp;	/* label, path, parent, depth */
};

struct report_run {
	struct report_proc *p;		/* in run order: parents first */
	size_t n;
	uint64_t t_first, t_last;	/* ns, over every process */
	/*
	 * The zero of every time on the page: the run's start (header
	 * run_start) when `kfdtrace record` made it, else the earliest
	 * trace's start.
	 */
	uint64_t origin;
	uint64_t records, ioctls, failed;
	size_t nthreads, nleaks;
	struct rm_kind *kinds;		/* every process's calls, most first */
	size_t nkinds, capkinds;
};

/*
 * report_run_build() - read every process of @run (each reader from its
 * beginning) into a model and total them. Each process's read_rc is set
 * in @run for cli_run_finish().
 *
 * Return: 0, or -ENOMEM.
 */
int report_run_build(struct report_run *rr, struct cli_run *run,
		     size_t window);

/* report_run_release() - free every model and the totals. */
void report_run_release(struct report_run *rr);

#endif /* KFDTRACE_REPORT_RUN_H */
