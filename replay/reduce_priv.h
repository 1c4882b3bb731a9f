/* SPDX-License-Identifier: MIT */
/*
 * What the parts of trace reduction share (private to replay/): the
 * search's state (reduce.c), the dependencies between records
 * (reduce_deps.c) and the choice of the target (reduce_target.c).
 */
#ifndef RP_REDUCE_PRIV_H
#define RP_REDUCE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <kfdtrace/reduce.h>
#include <kfdtrace/replay.h>
#include <kfdtrace/trace.h>

#include "reduce_proc.h"

/* Candidates tested at once, at most. */
#define RED_MAX_JOBS 16

/* No target: the predicate alone says what the bug is. */
#define RED_NO_TARGET ((size_t)-1)

/* One trace of the run: its records are rec[first, first + n). */
struct red_file {
	struct kt_header hdr;
	size_t first, n;
	char *path[RED_MAX_JOBS];	/* its candidate in each slot */
};

/*
 * A number or range taken again: while @made (the earlier object's
 * creation) and @again (the later creation of its id number, or of an
 * allocation overlapping its GPU VA range) are both kept, @end (the
 * earlier object's end) must be too; a candidate without it loses @made
 * and what depends on it (red_close_keep()).
 */
struct red_reuse {
	uint32_t made, end, again;
};

struct red {
	const struct kfd_reduce_opts *o;
	struct red_file f[KFD_REPLAY_MAX_TREE];
	unsigned int nf;
	unsigned int tf;	/* the file holding the target */
	struct kt_record **rec;	/* the traces, END left out, in seq order */
	size_t n;
	uint32_t **dep;		/* dep[i]: records i uses, each < i */
	uint32_t *ndep;
	uint8_t *pinned;	/* never removed */
	struct red_reuse *reuse;	/* by @again */
	size_t nreuse;
	size_t target;		/* index of the target record, or RED_NO_TARGET */
	char *dir;		/* candidates go to the files' paths */
	char seq[32];		/* the target's seq, for --to */
	char *sim;		/* "--sim[=PROFILE]" for the replays */
	char *cmd;		/* the predicate's shell command */
	unsigned int jobs;	/* slots */
	uint8_t *keeps;		/* a batch's candidates, d->n bytes a slot */
	struct rp_proc proc[RED_MAX_JOBS];	/* each slot's test */
	uint64_t tests;
	uint64_t deadline;	/* kfd_dispatch_now() when the budget ends; 0: none */
	int over;		/* the budget ran out, or a stop was asked */
	int end;		/* enum rp_proc_end: why the last wait ended */
};

/*
 * red_build_deps() - what each record of file @f uses from earlier records
 * of its process (d->dep), and which records are pinned (reduce_deps.c).
 * Return: 0, or -ENOMEM.
 */
int red_build_deps(struct red *d, const struct red_file *f);

/*
 * red_close_keep() - @keep, closed: every record whose dependency is not
 * kept goes too, and an object whose end is not kept goes when a later
 * one takes its number or range (struct red_reuse).
 * Return: 0, or -1 when that takes the target.
 */
int red_close_keep(const struct red *d, uint8_t *keep);

/*
 * red_choose_target() - d->target, d->tf and d->seq by the options, its
 * description in @res (reduce_target.c). A default target is tested:
 * failures that show with nothing but what they depend on are skipped.
 * Return: 0, or a negative errno (@err says).
 */
int red_choose_target(struct red *d, struct kfd_reduce_result *res,
		      char *err, size_t errlen);

/* reduce_test.c: the records of @f that @keep keeps, into @path. */
int red_write_file(const struct red *d, const struct red_file *f,
		   const uint8_t *keep, const char *path);
/* reduce_test.c: the candidate @keep into slot @slot's files. */
int red_write_trace(const struct red *d, const uint8_t *keep, unsigned int slot);
/* reduce_test.c: start slot @slot's test; @replay: the plain replay to d->seq,
 * even with a predicate. Return: 0, or a negative errno. */
int red_start_test(struct red *d, unsigned int slot, int replay);
/* reduce_test.c: wait for the tests of slots [0, @nb), within the budget. */
void red_wait_tests(struct red *d, unsigned int nb);

#endif
