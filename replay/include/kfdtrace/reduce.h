/* SPDX-License-Identifier: MIT */
/*
 * Trace reduction (`kfdtrace reduce`): the smallest trace, by removing
 * records, that still shows a target. The target is a record (by default
 * the capture's first failed ioctl that needs earlier calls: one that
 * fails alone, on every run, is skipped; with a predicate and no such
 * failure there is none, and the predicate alone decides); "shows" is, by default, that a replay
 * of the candidate up to the target matches the capture in results
 * (return values and errnos, the target's failure among them), or what a
 * predicate command says. Delta debugging over the records before the
 * target, closed under the replayer's dependencies (removing a creation
 * removes its uses), ending 1-minimal under record removal. The files of
 * one run (a process tree) are reduced together, each process's records
 * with its own dependencies, every candidate replayed as the tree.
 */
#ifndef KFDTRACE_REDUCE_H
#define KFDTRACE_REDUCE_H

#include <stdint.h>
#include <stdio.h>

struct kfd_reduce_opts {
	const char *kfdtrace;	/* the kfdtrace program, for the replays */
	const char *sim;	/* replay on kfdsim with this profile ("":
				 * the default); NULL: on /dev/kfd */
	uint64_t target_seq;	/* UINT64_MAX: chosen by the fields below */
	const char *target_ioctl;	/* with target_errno: the first such
					 * failure; NULL: the first failure
					 * that does not fail alone */
	int target_errno;	/* 0: any */
	const char *predicate;	/* shell command run with the candidate's
				 * path as "$1" (a tree's files as "$@", the
				 * root's first) and as its last word(s);
				 * exit 0: the bug is there */
	double budget;		/* seconds; 0: no bound. Also the deadline
				 * of the tests running when it ends */
	unsigned int jobs;	/* candidates tested at once (at most 16);
				 * 0: one a CPU (at most 8), or 1 with a
				 * predicate, which may not be safe to run
				 * twice at once. The result is the same for
				 * any number. */
	FILE *out;		/* the summary (NULL: stdout) */
	/*
	 * Called after each round of the search with the records still
	 * kept and the trace's count (a progress line); NULL: none.
	 */
	void (*progress)(void *ctx, uint64_t kept, uint64_t total);
	void *progress_ctx;
	/*
	 * Readable when the search must stop (a signal handler writes to a
	 * pipe): the running tests' process groups are killed, the scratch
	 * files removed and kfd_reduce() returns -ECANCELED. 0: none (fd 0,
	 * stdin, is never one).
	 */
	int stop_fd;
};

struct kfd_reduce_result {
	uint64_t target_seq;	/* UINT64_MAX: none (a predicate decides) */
	char target[160];	/* "#N NAME errno ENAME" (a failed ioctl),
				 * "#N NAME", "#N", or "none (why)" */
	uint64_t records_before, ioctls_before;
	uint64_t records_after, ioctls_after;
	uint64_t tests;		/* candidates tried */
	int budget_hit;		/* stopped by the budget, not 1-minimal */
	unsigned int files;	/* traces written: OUT, then OUT.<pid> */
};

/*
 * kfd_reduce() - reduce the @nin traces @in (one, or the files of one run,
 * the root's first) into @out: the first one's result goes to @out, each
 * other's to "@out.<its pid>". The target is looked for in the files in
 * that order. Each test (a replay, or the predicate under /bin/sh) runs
 * as the leader of a process group of its own, in a scratch directory
 * under $TMPDIR (else /tmp); when its leader ends, what is left of its
 * group is killed. Whatever it returns, no test process and no scratch
 * file is left.
 * The target chosen, and each failure skipped as failing alone, is said
 * on o->out (NULL: stdout) before the search.
 * @err:	a message when it fails (may be NULL)
 *
 * Return: 0 when the results are written; -ENOENT: no such target (no
 * failed ioctl, none that matches, or without a predicate none that
 * needs earlier calls); -ENOEXEC: the target does not show
 * on @in itself; -ETIMEDOUT: the budget ended before that test did;
 * -EINVAL: the predicate cannot run, or no or too many traces;
 * -ECANCELED: o->stop_fd asked to stop; other negative errors (-errno,
 * -KT_E*) for unreadable or unwritable files. With -ENOEXEC, -ETIMEDOUT
 * or -ECANCELED nothing is written.
 */
int kfd_reduce(const char *const *in, unsigned int nin, const char *out,
	       const struct kfd_reduce_opts *o, struct kfd_reduce_result *res,
	       char *err, size_t errlen);

#endif
