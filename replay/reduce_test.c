/* SPDX-License-Identifier: MIT */
/*
 * One test of trace reduction (reduce.c): a candidate written into a
 * slot's files, its replay or predicate started in that slot (a process
 * group of its own, reduce_proc.c), and the wait for a batch of them
 * within the budget. The search (reduce.c) and the choice of the target
 * (reduce_target.c) both run tests.
 */
#include <unistd.h>

#include <kfdtrace/reduce.h>
#include <kfdtrace/trace.h>

#include "reduce_priv.h"

int
red_write_file(const struct red *d, const struct red_file *f,
	       const uint8_t *keep, const char *path)
{
	struct kt_writer *w;
	int r;

	unlink(path);	/* the writer does not overwrite */
	r = kt_writer_open(path, &f->hdr, NULL, &w);
	if (r < 0)
		return r;
	for (size_t i = f->first; i < f->first + f->n && r >= 0; i++)
		if (keep[i])
			r = kt_writer_append(w, d->rec[i]);
	if (r < 0) {
		kt_writer_close(w);
		return r;
	}
	return kt_writer_close(w);
}

int
red_write_trace(const struct red *d, const uint8_t *keep, unsigned int slot)
{
	int r = 0;

	for (unsigned int k = 0; k < d->nf && r >= 0; k++)
		r = red_write_file(d, &d->f[k], keep, d->f[k].path[slot]);
	return r;
}

int
red_start_test(struct red *d, unsigned int slot, int replay)
{
	const struct kfd_reduce_opts *o = d->o;
	char *argv[KFD_REPLAY_MAX_TREE + 12];
	int n = 0;

	d->tests++;
	if (o->predicate && !replay) {
		/* "$0", then the files as "$1", "$2", ... */
		argv[n++] = "/bin/sh";
		argv[n++] = "-c";
		argv[n++] = d->cmd;
		argv[n++] = "kfdtrace-reduce";
	} else {
		argv[n++] = (char *)o->kfdtrace;
		argv[n++] = "replay";
		if (d->sim)
			argv[n++] = d->sim;
		argv[n++] = "--verify=results";
		/*
		 * One trace stops at the target. A tree is replayed whole:
		 * nothing after the target is left in its file, and the
		 * other processes' calls must all return as captured.
		 */
		if (d->nf == 1) {
			argv[n++] = "--to";
			argv[n++] = d->seq;
		}
		argv[n++] = "--wait-timeout";
		argv[n++] = "1000";
	}
	for (unsigned int k = 0; k < d->nf; k++)
		argv[n++] = d->f[k].path[slot];
	argv[n] = NULL;
	return rp_proc_start(&d->proc[slot], argv);
}

void
red_wait_tests(struct red *d, unsigned int nb)
{
	int end = rp_proc_wait(d->proc, nb, d->deadline, d->o->stop_fd);

	if (end != RP_PROC_DONE) {
		d->end = end;
		d->over = 1;
	}
}
