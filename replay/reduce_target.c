/* SPDX-License-Identifier: MIT */
/*
 * The target of a reduction (reduce_priv.h).
 *
 * --target names a record. Otherwise the target is the first failed ioctl
 * (of kind --ioctl, with --errno) that needs earlier calls. A failure that
 * the replay shows with nothing before the call but what it depends on
 * (its fds and the objects it names: the smallest candidate there is)
 * fails alone: every run of the program gets it, whatever it did before,
 * like ROCr's probe of the old debugger interface (DBG_TRAP_OLD, EINVAL)
 * at the start of every ROCr process. A reduction to it says nothing, so
 * the first RED_MAX_ALONE such failures are skipped, each said. With
 * --ioctl the kind asked for is the target, alone or not.
 *
 * When no failure needs earlier calls, a predicate has no target: it
 * alone says what the bug is, and every record is a candidate. The
 * replay's own test needs a failure to show: it asks for --target.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <kfdtrace/common/errnames.h>
#include <kfdtrace/decode.h>
#include <kfdtrace/schema.h>

#include "reduce_priv.h"
#include "replay_model.h"

/* Failures tested (each by a replay) before the search gives up on them. */
#define RED_MAX_ALONE 8

/* "#N NAME errno ENAME" for a failed ioctl, "#N NAME" for another, else
 * "#N". */
static void
describe(const struct kt_record *rec, char *buf, size_t len)
{
	const struct kfd_ioctl_desc *desc;
	const char *name, *en;

	if (rec->type != KT_REC_IOCTL) {
		snprintf(buf, len, "#%" PRIu64, rec->seq);
		return;
	}
	desc = kt_ioctl_row(&rec->u.ioctl);
	name = desc ? desc->name : "ioctl";
	en = kc_errno_name(rec->u.ioctl.err);
	if (rec->u.ioctl.ret >= 0)
		snprintf(buf, len, "#%" PRIu64 " %s", rec->seq, name);
	else if (en)
		snprintf(buf, len, "#%" PRIu64 " %s errno %s", rec->seq, name, en);
	else
		snprintf(buf, len, "#%" PRIu64 " %s errno %d", rec->seq, name,
			 rec->u.ioctl.err);
}

/* Is record @i a failure the options ask for? */
static int
wanted(const struct red *d, size_t i)
{
	const struct kfd_reduce_opts *o = d->o;
	const struct kt_record *rec = d->rec[i];
	const struct kfd_ioctl_desc *desc;

	if (rec->type != KT_REC_IOCTL || rec->u.ioctl.ret >= 0)
		return 0;
	desc = kt_ioctl_row(&rec->u.ioctl);
	if (o->target_ioctl && (!desc || strcasecmp(desc->name, o->target_ioctl)))
		return 0;
	return !o->target_errno || rec->u.ioctl.err == o->target_errno;
}

/* Record @i becomes the target. */
static void
set_target(struct red *d, size_t i)
{
	d->target = i;
	for (d->tf = 0; d->tf + 1 < d->nf && d->f[d->tf + 1].first <= i; d->tf++)
		;
	snprintf(d->seq, sizeof(d->seq), "%" PRIu64, d->rec[i]->seq);
}

/*
 * Does the failure @i show with nothing but what it depends on? The
 * replay of that candidate says. Return: 1 yes, 0 no, or -ECANCELED /
 * -ETIMEDOUT when a stop or the budget ended the test.
 */
static int
fails_alone(struct red *d, size_t i)
{
	uint8_t *keep = d->keeps;
	size_t k;

	memcpy(keep, d->pinned, d->n);
	keep[i] = 1;
	/* Each record's dependencies come before it: one pass down. */
	for (k = i + 1; k-- > 0;)
		if (keep[k] && !d->pinned[k])
			for (uint32_t x = 0; x < d->ndep[k]; x++)
				keep[d->dep[k][x]] = 1;
	/* An object kept with a later one in its place keeps its end (whose
	 * own dependencies are its creation's, kept). */
	for (k = 0; k < d->nreuse; k++)
		if (keep[d->reuse[k].made] && keep[d->reuse[k].again])
			keep[d->reuse[k].end] = 1;
	set_target(d, i);
	if (red_close_keep(d, keep) < 0)
		return 0;
	if (red_write_trace(d, keep, 0) < 0 || red_start_test(d, 0, 1) < 0)
		return 0;
	red_wait_tests(d, 1);
	if (d->end == RP_PROC_STOPPED)
		return -ECANCELED;
	if (d->end == RP_PROC_DEADLINE)
		return -ETIMEDOUT;
	return d->proc[0].status == 0;
}

/* Say what was skipped or chosen, on the summary's stream. */
static void
say(const struct red *d, const char *what, const char *why)
{
	FILE *f = d->o->out ? d->o->out : stdout;

	fprintf(f, "kfdtrace reduce: %s%s\n", what, why);
	fflush(f);
}

int
red_choose_target(struct red *d, struct kfd_reduce_result *res, char *err,
		  size_t errlen)
{
	const struct kfd_reduce_opts *o = d->o;
	char what[160], first_alone[160] = "";
	unsigned int alone = 0;
	int r;

	d->target = RED_NO_TARGET;
	res->target_seq = UINT64_MAX;
	for (size_t i = 0; i < d->n; i++) {
		if (o->target_seq != UINT64_MAX) {
			if (d->rec[i]->seq != o->target_seq)
				continue;
		} else if (!wanted(d, i)) {
			continue;
		} else if (!o->target_ioctl && alone < RED_MAX_ALONE) {
			describe(d->rec[i], what, sizeof(what));
			r = fails_alone(d, i);
			if (r < 0) {
				snprintf(err, errlen, r == -ECANCELED ? "stopped" :
					 "the budget ran out while testing the "
					 "failure %s alone", what);
				return r;
			}
			if (r) {
				say(d, what, ": skipped: it fails alone "
				    "(every run shows it)");
				if (!alone++)
					snprintf(first_alone, sizeof(first_alone),
						 "%s", what);
				continue;
			}
		} else if (!o->target_ioctl) {
			break;	/* too many that fail alone: none */
		}
		set_target(d, i);
		res->target_seq = d->rec[i]->seq;
		describe(d->rec[i], res->target, sizeof(res->target));
		say(d, "target: ", res->target);
		return 0;
	}
	d->target = RED_NO_TARGET;
	if (o->target_seq != UINT64_MAX) {
		snprintf(err, errlen, "no record with that number");
		return -ENOENT;
	}
	if (o->predicate && !o->target_ioctl && !o->target_errno) {
		snprintf(res->target, sizeof(res->target), "none (%s)",
			 alone ? "every failed ioctl fails alone" :
			 "no failed ioctl");
		say(d, "target: none: the predicate alone says what the bug is",
		    alone ? " (every failed ioctl fails alone)" : "");
		return 0;
	}
	if (alone > 1)
		snprintf(err, errlen, "no failed ioctl that needs earlier calls "
			 "(%s and %u more fail alone, as on every run): give "
			 "--target", first_alone, alone - 1);
	else if (alone)
		snprintf(err, errlen, "no failed ioctl that needs earlier calls "
			 "(%s fails alone, as on every run): give --target",
			 first_alone);
	else
		snprintf(err, errlen, "no failed ioctl to reduce to (give "
			 "--target, or --predicate)");
	return -ENOENT;
}
