/* SPDX-License-Identifier: MIT */
/*
 * Trace reduction (kfdtrace/reduce.h): delta debugging (ddmin) over the
 * records before the target (reduce_target.c chooses it).
 *
 * Every candidate is closed under the replayer's dependencies
 * (reduce_deps.c): a record that uses what a removed record made (a
 * memory handle, queue or event id by schema role, an fd an open or dup
 * returned, the mapping a munmap undoes) goes with it, and so does an
 * object whose end is removed while a later one takes its number or VA
 * range, so no candidate is spent on a trace that cannot replay or is
 * not what the program did. Records that are not device requests
 * (topology, thread names, annotations, API spans, fork and exec) always
 * stay. Records after the target go first: nothing after it can be what
 * makes it happen.
 *
 * A candidate shows the target when `kfdtrace replay --verify=results
 * --to TARGET` of it matches (the kept calls return what they returned
 * at capture, the target's failure included), or when the predicate
 * exits 0. The search is deterministic: the same input and options try
 * the same candidates in the same order. Each test is a process group of
 * its own (reduce_proc.c), killed at the budget's end or when the caller
 * asks to stop, so that neither a test nor the scratch files outlive the
 * search.
 *
 * Candidates are tested several at a time (opts.jobs), each in a slot of
 * its own files: a batch is the next few candidates the sequential
 * search would try, against the same best trace, and the first of them
 * in that order that shows the target wins, the later ones' results
 * being dropped. That is the candidate the one-at-a-time search would
 * have taken, so the result does not depend on the number of jobs (only
 * the count of candidates tried does).
 *
 * The files of one run (a process tree) are reduced together: the records
 * of every process are candidates, each file's dependencies are its own
 * process's, and a candidate is the whole tree, replayed as one (so what
 * crosses processes, an IPC export and its import, stays when the replay
 * needs it). Each file's records are taken in sequence order: a thread's
 * buffer may reach the file after another's later records.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/reduce.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "reduce_priv.h"
#include "replay_model.h"

/* Is the budget spent, or a stop asked? Then the search ends. */
static int
out_of_time(struct red *d)
{
	if (rp_proc_stop_asked(d->o->stop_fd))
		d->end = RP_PROC_STOPPED;
	else if (d->deadline && kfd_dispatch_now() >= d->deadline)
		d->end = RP_PROC_DEADLINE;
	if (d->end != RP_PROC_DONE)
		d->over = 1;
	return d->over;
}

/* Slot @j's candidate. */
static uint8_t *
slot_keep(const struct red *d, unsigned int j)
{
	return d->keeps + (size_t)j * d->n;
}

/*
 * Test the candidates in slots [0, @nb) (each closed first) at once; the
 * first of them that shows the target becomes the new best.
 * Return: its slot, or -1 when none did.
 */
static int
try_batch(struct red *d, unsigned int nb, uint8_t *best)
{
	int won = -1;
	unsigned int j;

	for (j = 0; j < nb; j++) {
		uint8_t *keep = slot_keep(d, j);

		d->proc[j].pid = -1;
		d->proc[j].status = -1;
		if (red_close_keep(d, keep) < 0 || !memcmp(keep, best, d->n))
			continue;	/* removed the target, or nothing */
		if (out_of_time(d))
			break;
		if (red_write_trace(d, keep, j) < 0)
			continue;
		red_start_test(d, j, 0);
	}
	/* At the deadline the tests still running count as not showing
	 * it; those that ended before are taken. */
	red_wait_tests(d, j);
	for (unsigned int k = 0; k < j && won < 0; k++)
		if (d->proc[k].status == 0)
			won = (int)k;
	if (won >= 0)
		memcpy(best, slot_keep(d, (unsigned int)won), d->n);
	return won;
}

/* Test @keep (closed first) alone; on success it is the new best. */
static int
try_keep(struct red *d, const uint8_t *keep, uint8_t *best)
{
	memcpy(slot_keep(d, 0), keep, d->n);
	return try_batch(d, 1, best) == 0;
}

static void
progress(const struct red *d, const uint8_t *best)
{
	size_t k = 0;

	if (!d->o->progress)
		return;
	for (size_t i = 0; i < d->n; i++)
		k += best[i];
	d->o->progress(d->o->progress_ctx, k, d->n);
}

/*
 * ddmin over the removable records of @best: remove chunks (each with
 * what depends on it), finer when none can go, then one record at a time.
 * Each round's candidates go in batches of d->jobs (try_batch()).
 */
static int
ddmin(struct red *d, uint8_t *best)
{
	size_t *units = malloc(d->n * sizeof(*units)), nu, gran = 2;
	size_t removable[RED_MAX_JOBS];

	if (!units)
		return -ENOMEM;
	progress(d, best);
	for (;;) {
		size_t chunk, c = 0;
		int done = 0;

		nu = 0;
		for (size_t i = 0; i < d->n; i++)
			if (best[i] && !d->pinned[i] && i != d->target)
				units[nu++] = i;
		if (nu < 2 || d->over)
			break;
		if (gran > nu)
			gran = nu;
		chunk = (nu + gran - 1) / gran;
		while (c < nu && !done && !d->over) {
			unsigned int nb;

			for (nb = 0; nb < d->jobs && c < nu; nb++, c += chunk) {
				uint8_t *keep = slot_keep(d, nb);

				memcpy(keep, best, d->n);
				for (size_t k = c; k < c + chunk && k < nu; k++)
					keep[units[k]] = 0;
			}
			done = try_batch(d, nb, best) >= 0;
		}
		progress(d, best);
		if (done) {
			gran = gran > 2 ? gran - 1 : 2;
			continue;
		}
		if (gran >= nu)
			break;
		gran = gran * 2 > nu ? nu : gran * 2;
	}
	/* 1-minimal: no single record can go, tried from the last one. */
	for (size_t i = d->n; i > 0 && !d->over;) {
		unsigned int nb = 0;
		int won;

		while (nb < d->jobs && i > 0) {
			i--;
			if (!best[i] || d->pinned[i] || i == d->target)
				continue;
			memcpy(slot_keep(d, nb), best, d->n);
			slot_keep(d, nb)[i] = 0;
			removable[nb++] = i;
		}
		if (!nb)
			break;
		won = try_batch(d, nb, best);
		if (won >= 0) {
			/* What the batch tried after the winner goes again,
			 * against the new best. */
			i = removable[won];
			progress(d, best);
		}
	}
	free(units);
	return 0;
}

static int
cmp_seq(const void *a, const void *b)
{
	const struct kt_record *x = *(const struct kt_record *const *)a;
	const struct kt_record *y = *(const struct kt_record *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Append the records of trace @in as file @f, in sequence order. */
static int
load(struct red *d, struct red_file *f, const char *in, size_t *cap)
{
	struct kt_reader *rd;
	struct kt_record rec;
	int r;

	r = kt_reader_open(in, &rd);
	if (r < 0)
		return r;
	f->hdr = *kt_reader_header(rd);
	f->first = d->n;
	while ((r = kt_reader_next(rd, &rec)) > 0) {
		if (rec.type == KT_REC_END)
			continue;
		if (d->n == *cap) {
			struct kt_record **v;

			*cap = *cap ? 2 * *cap : 1024;
			v = realloc(d->rec, *cap * sizeof(*v));
			if (!v) {
				r = -ENOMEM;
				break;
			}
			d->rec = v;
		}
		d->rec[d->n] = kt_record_clone(&rec);
		if (!d->rec[d->n]) {
			r = -ENOMEM;
			break;
		}
		d->n++;
	}
	kt_reader_close(rd);
	f->n = d->n - f->first;
	if (r >= 0 && f->n)
		qsort(d->rec + f->first, f->n, sizeof(*d->rec), cmp_seq);
	return r < 0 ? r : 0;
}

static void
count(const struct red *d, const uint8_t *keep, uint64_t *recs, uint64_t *ioctls)
{
	*recs = *ioctls = 0;
	for (size_t i = 0; i < d->n; i++)
		if (keep[i]) {
			(*recs)++;
			*ioctls += d->rec[i]->type == KT_REC_IOCTL;
		}
}

static void
red_free(struct red *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->rec[i]);
		if (d->dep)
			free(d->dep[i]);
	}
	free(d->rec);
	free(d->dep);
	free(d->ndep);
	free(d->pinned);
	free(d->reuse);
	for (unsigned int k = 0; k < d->nf; k++)
		for (unsigned int j = 0; j < RED_MAX_JOBS; j++) {
			if (d->f[k].path[j])
				unlink(d->f[k].path[j]);
			free(d->f[k].path[j]);
		}
	free(d->keeps);
	if (d->dir)
		rmdir(d->dir);
	free(d->dir);
	free(d->sim);
	free(d->cmd);
}

/* Candidates at once by default: one a CPU, at most 8. */
static unsigned int
red_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (unsigned int)n;
}

/* The file of file @k's result: OUT, and STEM.<pid>.kfdtrace for the
 * others, as a recording names them. Return: it (to free), or NULL. */
static char *
out_path(const struct red *d, unsigned int k, const char *out)
{
	/* The longest suffix: ".<pid>.exec<N>.<dup>.kfdtrace". */
	size_t len = strlen(out) + 64;
	char *buf = malloc(len);

	if (buf && kt_run_file_name(buf, len, out,
				    k == 0 ? 0 : (int)d->f[k].hdr.pid, 0, 0)) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/*
 * The scratch directory, under $TMPDIR (else /tmp), with each file's
 * candidate path in each slot, and the commands of the tests.
 */
static int
scratch(struct red *d)
{
	const char *tmp = getenv("TMPDIR");
	const struct kfd_reduce_opts *o = d->o;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&d->dir, "%s/kfdtrace-reduce-XXXXXX", tmp) < 0) {
		d->dir = NULL;
		return -ENOMEM;
	}
	if (!mkdtemp(d->dir)) {
		int r = -errno;

		free(d->dir);
		d->dir = NULL;
		return r;
	}
	for (unsigned int k = 0; k < d->nf; k++)
		for (unsigned int j = 0; j < d->jobs; j++)
			if (asprintf(&d->f[k].path[j], "%s/candidate-%u-%u.kft",
				     d->dir, j, k) < 0) {
				d->f[k].path[j] = NULL;
				return -ENOMEM;
			}
	/* The files follow the predicate as its last words, and are "$1",
	 * "$2", ... too; the root's is first. */
	if (o->predicate && asprintf(&d->cmd, "%s %s", o->predicate,
				     d->nf > 1 ? "\"$@\"" : "\"$1\"") < 0) {
		d->cmd = NULL;
		return -ENOMEM;
	}
	if (o->sim && asprintf(&d->sim, o->sim[0] ? "--sim=%s" : "--sim",
			       o->sim) < 0) {
		d->sim = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * The whole trace first: a target that does not show there is not
 * reduced. Return: 0 when it shows, else a negative errno (@err says).
 */
static int
test_whole(struct red *d, const uint8_t *all, const char *what, char *err,
	   size_t errlen)
{
	const char *pred = d->o->predicate;
	int r, st;

	r = red_write_trace(d, all, 0);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", d->dir, kt_strerror(r));
		return r;
	}
	r = red_start_test(d, 0, 0);
	if (r < 0) {
		snprintf(err, errlen, "the %s cannot start: %s",
			 pred ? "predicate" : "replay", strerror(-r));
		return -EINVAL;
	}
	red_wait_tests(d, 1);
	st = d->proc[0].status;
	if (d->end == RP_PROC_STOPPED) {
		snprintf(err, errlen, "stopped");
		return -ECANCELED;
	}
	if (d->end == RP_PROC_DEADLINE) {
		snprintf(err, errlen, "the budget ran out before the test of %s "
			 "whole ended: nothing to reduce", what);
		return -ETIMEDOUT;
	}
	if (st == 0)
		return 0;
	if (pred && (st == 126 || st == 127)) {
		snprintf(err, errlen, "the predicate cannot run (the shell "
			 "says %s): %s", st == 127 ? "not found" :
			 "not executable", pred);
		return -EINVAL;
	}
	if (d->target == RED_NO_TARGET)
		snprintf(err, errlen, "the bug does not show when %s is tested "
			 "whole (the predicate does not exit 0): nothing to "
			 "reduce", what);
	else
		snprintf(err, errlen, "the target (#%s) does not show when %s "
			 "is %s whole: nothing to reduce", d->seq, what,
			 pred ? "tested" : "replayed");
	return -ENOEXEC;
}

int
kfd_reduce(const char *const *in, unsigned int nin, const char *out,
	   const struct kfd_reduce_opts *o, struct kfd_reduce_result *res,
	   char *err, size_t errlen)
{
	struct red d = { .o = o };
	uint8_t *best = NULL;
	size_t cap = 0;
	int r = 0;

	memset(res, 0, sizeof(*res));
	/* The budget bounds the running tests too: it is their deadline
	 * (one of more than 30 years is none). */
	if (o->budget > 0 && o->budget < 1e9)
		d.deadline = kfd_dispatch_now() + (uint64_t)(o->budget * 1e9);
	if (!nin || nin > KFD_REPLAY_MAX_TREE) {
		snprintf(err, errlen, "one to %d traces (the files of one run)",
			 KFD_REPLAY_MAX_TREE);
		return -EINVAL;
	}
	for (d.nf = 0; d.nf < nin && r == 0; d.nf++) {
		r = load(&d, &d.f[d.nf], in[d.nf], &cap);
		if (r < 0)
			snprintf(err, errlen, "%s: %s", in[d.nf], kt_strerror(r));
	}
	if (r < 0)
		goto out;
	d.jobs = o->jobs ? o->jobs : o->predicate ? 1 : red_default_jobs();
	if (d.jobs > RED_MAX_JOBS)
		d.jobs = RED_MAX_JOBS;
	r = scratch(&d);
	if (r < 0) {
		snprintf(err, errlen, "a scratch directory: %s", strerror(-r));
		goto out;
	}
	d.keeps = malloc((size_t)d.jobs * (d.n ? d.n : 1));
	best = malloc(d.n ? d.n : 1);
	d.dep = calloc(d.n ? d.n : 1, sizeof(*d.dep));
	d.ndep = calloc(d.n ? d.n : 1, sizeof(*d.ndep));
	d.pinned = calloc(d.n ? d.n : 1, 1);
	r = best && d.dep && d.ndep && d.pinned && d.keeps ? 0 : -ENOMEM;
	for (unsigned int k = 0; k < d.nf && !r; k++)
		r = red_build_deps(&d, &d.f[k]);
	if (r < 0) {
		snprintf(err, errlen, "%s", strerror(-r));
		goto out;
	}
	r = red_choose_target(&d, res, err, errlen);
	if (r < 0)
		goto out;
	memset(best, 1, d.n);
	count(&d, best, &res->records_before, &res->ioctls_before);
	r = test_whole(&d, best, nin > 1 ? "the tree" : in[0], err, errlen);
	if (r < 0)
		goto out;
	/* Nothing after the target in its process, unless it is kept whatever. */
	if (d.target != RED_NO_TARGET) {
		const struct red_file *f = &d.f[d.tf];
		uint8_t *keep = malloc(d.n);

		if (!keep) {
			r = -ENOMEM;
			goto out;
		}
		memcpy(keep, best, d.n);
		for (size_t i = d.target + 1; i < f->first + f->n; i++)
			keep[i] = d.pinned[i];
		try_keep(&d, keep, best);
		free(keep);
	}
	r = ddmin(&d, best);
	if (r < 0)
		goto out;
	/* Asked to stop: the search's files go, nothing is written. */
	if (d.end == RP_PROC_STOPPED || rp_proc_stop_asked(o->stop_fd)) {
		snprintf(err, errlen, "stopped");
		r = -ECANCELED;
		goto out;
	}
	for (unsigned int k = 0; k < d.nf && r >= 0; k++) {
		char *path = out_path(&d, k, out);

		r = path ? red_write_file(&d, &d.f[k], best, path) : -ENOMEM;
		if (r < 0)
			snprintf(err, errlen, "%s: %s", path ? path : out,
				 kt_strerror(r));
		free(path);
	}
	if (r < 0)
		goto out;
	count(&d, best, &res->records_after, &res->ioctls_after);
	res->tests = d.tests;
	res->budget_hit = d.over;
	res->files = d.nf;
out:
	free(best);
	red_free(&d);
	return r;
}
