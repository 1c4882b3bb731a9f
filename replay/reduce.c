/* SPDX-License-Identifier: MIT */
/*
 * Trace reduction (kfdtrace/reduce.h): delta debugging (ddmin) over the
 * records before the target.
 *
 * Every candidate is closed under the replayer's dependencies: a record
 * that uses what a removed record made (a memory handle, queue or event
 * id by schema role, an fd an open or dup returned, the mapping a munmap
 * undoes) goes with it, so no candidate is spent on a trace that cannot
 * replay. Records that are not device requests (topology, thread names,
 * annotations, API spans, fork and exec) always stay. Records after the
 * target go first: nothing after it can be what makes it happen.
 *
 * A candidate shows the target when `kfdtrace replay --verify=results
 * --to TARGET` of it matches (the kept calls return what they returned
 * at capture, the target's failure included), or when the predicate
 * exits 0. The search is deterministic: the same input and options try
 * the same candidates in the same order.
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
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/reduce.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "replay_priv.h"

extern char **environ;

/* Candidates tested at once, at most. */
#define RED_MAX_JOBS 16

/* One trace of the run: its records are rec[first, first + n). */
struct red_file {
	struct kt_header hdr;
	size_t first, n;
	char path[RED_MAX_JOBS][112];	/* its candidate in each slot */
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
	size_t target;		/* index of the target record */
	char dir[64];		/* candidates go to the files' paths */
	char seq[32];		/* the target's seq, for --to */
	unsigned int jobs;	/* slots */
	uint8_t *keeps;		/* a batch's candidates, d->n bytes a slot */
	uint64_t tests;
	double t0;
	int over;		/* the budget ran out */
	int last_status;	/* of the last test's command */
};

static int
add_dep(struct red *d, size_t i, uint64_t j)
{
	uint32_t *v;

	if (j >= i)
		return 0;
	for (uint32_t k = 0; k < d->ndep[i]; k++)
		if (d->dep[i][k] == j)
			return 0;
	v = realloc(d->dep[i], (d->ndep[i] + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[d->ndep[i]++] = (uint32_t)j;
	d->dep[i] = v;
	return 0;
}

struct ids_ctx {
	struct red *d;
	struct kc_u64map *made;
	size_t i;
	int err;
};

static void
on_id(void *ctx, unsigned int kind, uint64_t value, int how)
{
	struct ids_ctx *c = ctx;
	uint64_t j;

	if (how == RP_ID_MAKE) {
		if (rp_map_put(c->made, RP_K_HANDLE + kind, 0, value, c->i) < 0)
			c->err = -ENOMEM;
	} else if (rp_map_get(c->made, RP_K_HANDLE + kind, 0, value, &j) &&
		   add_dep(c->d, c->i, j) < 0) {
		c->err = -ENOMEM;
	}
}

/*
 * What each record of file @f uses, from earlier records of its process:
 * ids, fds, mappings.
 */
static int
build_deps(struct red *d, const struct red_file *f)
{
	struct kc_u64map made = { 0 }, fds = { 0 }, maps = { 0 };
	struct ids_ctx c = { .d = d, .made = &made };
	uint64_t j;
	int r = 0;

	for (size_t i = f->first; i < f->first + f->n && !r; i++) {
		const struct kt_record *rec = d->rec[i];
		int32_t fd = -1, made_fd = -1;

		c.i = i;
		switch (rec->type) {
		case KT_REC_IOCTL: {
			const struct kfd_ioctl_desc *desc = kfd_schema_lookup(
				(enum kfd_file_kind)rec->u.ioctl.file_kind,
				rec->u.ioctl.request);

			fd = rec->u.ioctl.fd;
			if (desc)
				rp_ioctl_ids(rec, desc, on_id, &c);
			r = c.err;
			break;
		}
		case KT_REC_OPEN:
			made_fd = (int32_t)rec->u.open.ret;
			break;
		case KT_REC_CLOSE:
			fd = rec->u.close.fd;
			break;
		case KT_REC_DUP:
			fd = rec->u.dup.oldfd;
			made_fd = (int32_t)rec->u.dup.ret;
			break;
		case KT_REC_MMAP:
			fd = rec->u.mmap.fd;
			if (rp_map_put(&maps, RP_K_OFFSET, 0, rec->u.mmap.result, i) < 0)
				r = -ENOMEM;
			break;
		case KT_REC_MUNMAP:
			if (rp_map_get(&maps, RP_K_OFFSET, 0, rec->u.munmap.addr, &j))
				r = add_dep(d, i, j);
			break;
		default:
			d->pinned[i] = 1;
			break;
		}
		if (!r && fd >= 0 && rp_map_get(&fds, RP_K_SLOT, 0, (uint64_t)fd, &j))
			r = add_dep(d, i, j);
		if (!r && made_fd >= 0 &&
		    rp_map_put(&fds, RP_K_SLOT, 0, (uint64_t)made_fd, i) < 0)
			r = -ENOMEM;
	}
	rp_map_free(&made);
	rp_map_free(&fds);
	rp_map_free(&maps);
	return r;
}

/*
 * @keep, closed: every record whose dependency is not kept goes too.
 * Return: 0, or -1 when that takes the target.
 */
static int
close_keep(const struct red *d, uint8_t *keep)
{
	for (size_t i = 0; i < d->n; i++) {
		if (!keep[i] || d->pinned[i])
			continue;
		for (uint32_t k = 0; k < d->ndep[i]; k++)
			if (!keep[d->dep[i][k]]) {
				keep[i] = 0;
				break;
			}
	}
	return keep[d->target] ? 0 : -1;
}

static int
write_file(const struct red *d, const struct red_file *f, const uint8_t *keep,
	   const char *path)
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

/* The candidate @keep, every file to its path in @slot. */
static int
write_trace(const struct red *d, const uint8_t *keep, unsigned int slot)
{
	int r = 0;

	for (unsigned int k = 0; k < d->nf && r >= 0; k++)
		r = write_file(d, &d->f[k], keep, d->f[k].path[slot]);
	return r;
}

/* Start @argv with its output thrown away. Return: its pid, or -1. */
static pid_t
spawn_quiet(char *const *argv)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return r ? -1 : pid;
}

/* Wait for @pid (-1: it never started). Return: its exit status, or -1. */
static int
wait_quiet(pid_t pid)
{
	int st;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Start the test of the candidate in @slot (its files at their paths).
 * Return: the test's pid, or -1 when it could not start.
 */
static pid_t
start_test(struct red *d, unsigned int slot)
{
	const struct kfd_reduce_opts *o = d->o;
	char sim[128];

	d->tests++;
	if (o->predicate) {
		char *argv[KFD_REPLAY_MAX_TREE + 5] = { "/bin/sh", "-c", NULL,
							"kfdtrace-reduce" };
		char cmd[4200];

		/* "$1" is the root's file; the others follow it. */
		snprintf(cmd, sizeof(cmd), "%s %s", o->predicate,
			 d->nf > 1 ? "\"$@\"" : "\"$1\"");
		argv[2] = cmd;
		for (unsigned int k = 0; k < d->nf; k++)
			argv[4 + k] = (char *)d->f[k].path[slot];
		return spawn_quiet(argv);
	} else {
		char *argv[KFD_REPLAY_MAX_TREE + 12];
		int n = 0;

		argv[n++] = (char *)o->kfdtrace;
		argv[n++] = "replay";
		if (o->sim) {
			snprintf(sim, sizeof(sim), o->sim[0] ? "--sim=%s" : "--sim",
				 o->sim);
			argv[n++] = sim;
		}
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
		for (unsigned int k = 0; k < d->nf; k++)
			argv[n++] = (char *)d->f[k].path[slot];
		argv[n] = NULL;
		return spawn_quiet(argv);
	}
}

/* Does the candidate in slot 0 show the target? */
static int
shows(struct red *d)
{
	d->last_status = wait_quiet(start_test(d, 0));
	return d->last_status == 0;
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
	pid_t pid[RED_MAX_JOBS];
	int won = -1;
	unsigned int j;

	for (j = 0; j < nb; j++) {
		uint8_t *keep = slot_keep(d, j);

		pid[j] = -1;
		if (close_keep(d, keep) < 0 || !memcmp(keep, best, d->n))
			continue;	/* removed the target, or nothing */
		if (d->o->budget > 0 &&
		    (double)kfd_dispatch_now() / 1e9 - d->t0 > d->o->budget) {
			d->over = 1;
			break;
		}
		if (write_trace(d, keep, j) < 0)
			continue;
		pid[j] = start_test(d, j);
	}
	for (unsigned int k = 0; k < j; k++)
		if (wait_quiet(pid[k]) == 0 && won < 0)
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

/* The target's index, or -1. */
static long
find_target(const struct red *d)
{
	const struct kfd_reduce_opts *o = d->o;

	for (size_t i = 0; i < d->n; i++) {
		const struct kt_record *rec = d->rec[i];
		const struct kfd_ioctl_desc *desc;

		if (o->target_seq != UINT64_MAX) {
			if (rec->seq == o->target_seq)
				return (long)i;
			continue;
		}
		if (rec->type != KT_REC_IOCTL || rec->u.ioctl.ret >= 0)
			continue;
		desc = kfd_schema_lookup((enum kfd_file_kind)rec->u.ioctl.file_kind,
					 rec->u.ioctl.request);
		if (o->target_ioctl && (!desc || strcasecmp(desc->name, o->target_ioctl)))
			continue;
		if (o->target_errno && rec->u.ioctl.err != o->target_errno)
			continue;
		return (long)i;
	}
	return -1;
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
	for (unsigned int k = 0; k < d->nf; k++)
		for (unsigned int j = 0; j < RED_MAX_JOBS; j++)
			if (d->f[k].path[j][0])
				unlink(d->f[k].path[j]);
	free(d->keeps);
	if (d->dir[0])
		rmdir(d->dir);
}

/* Candidates at once by default: one a CPU, at most 8. */
static unsigned int
red_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (unsigned int)n;
}

/* The file of file @k's result: OUT, and STEM.<pid>.kfdtrace for the
 * others, as a recording names them. */
static void
out_path(const struct red *d, unsigned int k, const char *out, char *buf,
	 size_t len)
{
	if (kt_run_file_name(buf, len, out, k == 0 ? 0 : (int)d->f[k].hdr.pid,
			     0, 0))
		snprintf(buf, len, "%s", out);
}

int
kfd_reduce(const char *const *in, unsigned int nin, const char *out,
	   const struct kfd_reduce_opts *o, struct kfd_reduce_result *res,
	   char *err, size_t errlen)
{
	struct red d = { .o = o };
	uint8_t *best = NULL;
	size_t cap = 0;
	char path[4200];
	long t;
	int r = 0;

	memset(res, 0, sizeof(*res));
	d.t0 = (double)kfd_dispatch_now() / 1e9;
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
	t = find_target(&d);
	if (t < 0) {
		snprintf(err, errlen, "%s: %s", nin > 1 ? "these traces" : in[0],
			 o->target_seq != UINT64_MAX ?
			 "no record with that number" :
			 "no failed ioctl to reduce to (give --target, or "
			 "--predicate with --target)");
		r = -ENOENT;
		goto out;
	}
	d.target = (size_t)t;
	for (d.tf = 0; d.tf + 1 < d.nf && d.f[d.tf + 1].first <= d.target; d.tf++)
		;
	res->target_seq = d.rec[t]->seq;
	snprintf(d.seq, sizeof(d.seq), "%" PRIu64, d.rec[t]->seq);
	snprintf(d.dir, sizeof(d.dir), "/tmp/kfdtrace-reduce-XXXXXX");
	if (!mkdtemp(d.dir)) {
		r = -errno;
		d.dir[0] = 0;
		snprintf(err, errlen, "a scratch directory: %s", strerror(-r));
		goto out;
	}
	d.jobs = o->jobs ? o->jobs : o->predicate ? 1 : red_default_jobs();
	if (d.jobs > RED_MAX_JOBS)
		d.jobs = RED_MAX_JOBS;
	for (unsigned int k = 0; k < d.nf; k++)
		for (unsigned int j = 0; j < d.jobs; j++)
			snprintf(d.f[k].path[j], sizeof(d.f[k].path[j]),
				 "%s/candidate-%u-%u.kft", d.dir, j, k);
	d.keeps = malloc((size_t)d.jobs * (d.n ? d.n : 1));
	best = malloc(d.n ? d.n : 1);
	d.dep = calloc(d.n ? d.n : 1, sizeof(*d.dep));
	d.ndep = calloc(d.n ? d.n : 1, sizeof(*d.ndep));
	d.pinned = calloc(d.n ? d.n : 1, 1);
	r = best && d.dep && d.ndep && d.pinned && d.keeps ? 0 : -ENOMEM;
	for (unsigned int k = 0; k < d.nf && !r; k++)
		r = build_deps(&d, &d.f[k]);
	if (r < 0) {
		snprintf(err, errlen, "%s", strerror(-r));
		goto out;
	}
	memset(best, 1, d.n);
	count(&d, best, &res->records_before, &res->ioctls_before);
	/* The whole trace first: a target that does not show there is not
	 * reduced. */
	r = write_trace(&d, best, 0);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", d.dir, kt_strerror(r));
		goto out;
	}
	if (!shows(&d)) {
		if (o->predicate && (d.last_status == 126 || d.last_status == 127)) {
			snprintf(err, errlen, "the predicate cannot run (the "
				 "shell says %s): %s", d.last_status == 127 ?
				 "not found" : "not executable", o->predicate);
			r = -EINVAL;
			goto out;
		}
		snprintf(err, errlen, "the target (#%s) does not show when %s "
			 "is %s whole: nothing to reduce", d.seq,
			 nin > 1 ? "the tree" : in[0],
			 o->predicate ? "tested" : "replayed");
		r = -ENOEXEC;
		goto out;
	}
	/* Nothing after the target in its process, unless it is kept whatever. */
	{
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
	for (unsigned int k = 0; k < d.nf && r >= 0; k++) {
		out_path(&d, k, out, path, sizeof(path));
		r = write_file(&d, &d.f[k], best, path);
		if (r < 0)
			snprintf(err, errlen, "%s: %s", path, kt_strerror(r));
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
