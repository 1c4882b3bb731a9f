/* SPDX-License-Identifier: MIT */
/*
 * The replay loop: records in replay order, filters, timing, loops (each
 * pass in a child process of its own, so that it starts from a fresh KFD
 * process), recording of the replay, and the handle's life cycle.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/recorder.h>

#include "replay_stream.h"
#include "threads.h"

int
kfd_replay_open(const char *path, struct kfd_replay **out, char *err,
		size_t errlen)
{
	struct kfd_replay *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	/* The model reads the plans (rows.c builds them once). */
	if (!rp_rows()->plans) {
		free(r);
		if (err)
			snprintf(err, errlen, "%s", rp_rows_error());
		return -EINVAL;
	}
	if (!r || !(r->path = strdup(path))) {
		free(r);
		if (err)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = rp_model_build(&r->model, path, err, errlen);
	if (ret < 0) {
		rp_model_free(&r->model);
		free(r->path);
		free(r);
		return ret;
	}
	*out = r;
	return 0;
}

void
kfd_replay_print_plan(const struct kfd_replay *r, FILE *out)
{
	rp_model_print(&r->model, out);
}

void
kfd_replay_close(struct kfd_replay *r)
{
	if (!r)
		return;
	rp_model_free(&r->model);
	free(r->path);
	free(r);
}

int
kfd_replay_parse_gpu_map(const char *s, struct kfd_replay_gpu_pair *pairs,
			 unsigned int max)
{
	unsigned int n = 0;
	const char *p = s;

	if (!s || !*s)
		return -1;
	while (*p) {
		unsigned long long c, l;
		char *end;

		errno = 0;
		c = strtoull(p, &end, 0);
		if (end == p || *end != '=' || errno || c > UINT32_MAX)
			return -1;
		p = end + 1;
		l = strtoull(p, &end, 0);
		if (end == p || (*end && *end != ',') || errno || l > UINT32_MAX)
			return -1;
		if (n >= max)
			return -1;
		pairs[n].captured = (uint32_t)c;
		pairs[n].live = (uint32_t)l;
		n++;
		p = *end ? end + 1 : end;
	}
	return (int)n;
}

/* ------------------------------------------------------------------ */
/* --only / --skip                                                      */

static int
kind_type(const char *name)
{
	unsigned int t;

	if (strcmp(name, "ioctl") == 0)
		return KT_REC_IOCTL;
	for (t = 1; t < KT_REC_TYPE_MAX; t++) {
		const char *n = kt_rec_type_name(t);

		if (n && strcmp(n, name) == 0)
			return (int)t;
	}
	return -1;
}

/*
 * Walk a comma list: @fn gets each kind as a record type (or -1) and a
 * schema row (or NULL). Return: 0, or -1 at the first unknown kind.
 */
static int
each_kind(const char *list, char *bad, size_t badlen,
	  void (*fn)(void *ctx, int type, const struct kfd_ioctl_desc *d),
	  void *ctx)
{
	const char *p = list;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[64];
		const struct kfd_ioctl_desc *d = NULL;
		int type = -1;

		if (len && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			type = kind_type(name);
			if (type < 0)
				d = kfd_schema_by_name(name);
		}
		if (type < 0 && !d) {
			if (bad)
				snprintf(bad, badlen, "%.*s", (int)len, p);
			return -1;
		}
		if (fn)
			fn(ctx, type, d);
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

int
kfd_replay_check_kinds(const char *list, char *bad, size_t badlen)
{
	return each_kind(list, bad, badlen, NULL, NULL);
}

struct kind_sink {
	struct rp_run *st;
	uint64_t *types;
	uint8_t *rows;
};

static void
kind_add(void *ctx, int type, const struct kfd_ioctl_desc *d)
{
	struct kind_sink *k = ctx;

	if (type >= 0)
		*k->types |= 1ull << type;
	else if (d)
		k->rows[d - k->st->row0] = 1;
}

static int
setup_filters(struct rp_run *st)
{
	const struct kfd_replay_opts *o = st->o;
	struct kind_sink k;

	st->row0 = kfd_schema_rows(&st->nrows);
	st->only_row = calloc(st->nrows + 1, 1);
	st->skip_row = calloc(st->nrows + 1, 1);
	if (!st->only_row || !st->skip_row)
		return -ENOMEM;
	k.st = st;
	if (o->only) {
		st->have_only = 1;
		k.types = &st->only_rec;
		k.rows = st->only_row;
		if (each_kind(o->only, NULL, 0, kind_add, &k) < 0)
			return -EINVAL;
	}
	if (o->skip) {
		k.types = &st->skip_rec;
		k.rows = st->skip_row;
		if (each_kind(o->skip, NULL, 0, kind_add, &k) < 0)
			return -EINVAL;
	}
	return 0;
}

static void
close_live(struct rp_run *st)
{
	int i;

	for (i = 0; i < st->nfds; i++) {
		if (st->fds[i].live >= 0) {
			close(st->fds[i].live);
			rp_fd_unbind(st, i);
		}
	}
}

static void
run_reset(struct rp_run *st)
{
	rp_map_free(&st->fwd);
	rp_map_free(&st->rev);
	kfd_kernels_free(st->kernels);
	st->kernels = NULL;
	free(st->fds);
	st->fds = NULL;
	st->nfds = 0;
	if (st->ev_read)
		close(st->ev_read - 1);
	st->ev_read = 0;
	rp_vec_free(&st->ofds);
	rp_vec_init(&st->ofds, sizeof(struct rp_ofd));
	rp_vec_free(&st->shares);
	rp_vec_init(&st->shares, sizeof(struct rp_share));
	st->nproc = 0;
	while (st->nwaits)
		free(st->waits[--st->nwaits]);
	st->ts0 = 0;
	st->sleeps_capped = 0;
	st->stop = 0;
	st->notes = 0;
	st->fork_noted = 0;
	memset(&st->sum, 0, sizeof(st->sum));
	st->sum.first_divergence_seq = UINT64_MAX;
	st->sum.last_ok_seq = UINT64_MAX;
}

/* CPU seconds of the whole process (every thread). */
static double
cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One pass over the trace. Return: 0, or a negative setup error. */
static int
run_once(struct rp_run *st, const char *record_path)
{
	const struct kt_record *rec;
	struct rp_stream s;
	int r;
	double cpu0;
	uint64_t seen = 0;

	run_reset(st);
	if (st->r->inherit && rp_tree_begin(st) < 0)
		return -ENOMEM;
	if (record_path) {
		struct kfd_recorder_opts ro = {
			.producer = "kfdtrace-replay",
			.flags = st->o->record_flags,
		};

		r = kfd_recorder_open(record_path, &ro, &st->recorder);
		if (r == 0)
			r = kfd_recorder_attach(st->recorder);
		if (r < 0) {
			fprintf(st->out, "kfdtrace replay: cannot record to %s: %s\n",
				record_path, strerror(-r));
			kfd_recorder_close(st->recorder);
			st->recorder = NULL;
			return r;
		}
	}
	r = rp_stream_open(&s, st->r->path, st->r->model.first_seq);
	if (r == 0)
		rp_stream_swaps(&s, st->r->model.swaps.data,
				st->r->model.swaps.n);
	if (r < 0) {
		fprintf(st->out, "kfdtrace replay: %s: %s\n", st->r->path,
			kt_strerror(r));
		kfd_recorder_close(st->recorder);
		st->recorder = NULL;
		return r;
	}
	st->t0_ns = kfd_dispatch_now();
	cpu0 = cpu_now();
	if (st->o->threads)
		r = rp_threads_run(st, &s);
	else
		while (!st->stop && (r = rp_stream_next(&s, &rec)) > 0) {
			if (st->o->progress)
				st->o->progress(st->o->progress_ctx, ++seen,
						st->r->model.nrec);
			if (!rp_run_admit(st, rec)) {
				/*
				 * A process of a tree ends no sooner than it
				 * did: until then another may act on it (a
				 * debugger's DBG_TRAP on its pid).
				 */
				if (st->r->tree && rec->type == KT_REC_END) {
					st->held_exit = rp_stream_held_exit(&s);
					rp_tree_gate(st, rec);
				}
				continue;
			}
			if (st->o->timing == KFD_REPLAY_TIMING_ORIGINAL)
				rp_sleep_ns(rp_time_due(st, rec));
			if (st->r->tree) {
				st->held_exit = rp_stream_held_exit(&s);
				rp_tree_gate(st, rec);
			}
			rp_run_record(st, rec);
		}
	/* Waits nothing released: their last chance, then compared. */
	if (!st->stop)
		rp_wait_flush(st);
	rp_resubmit_clear(st);
	st->sum.seconds = (double)(kfd_dispatch_now() - st->t0_ns) / 1e9;
	st->sum.cpu_seconds = cpu_now() - cpu0;
	st->sum.relocations = st->as.relocations;
	if (s.early)
		fprintf(st->out, "warning: records held to restore sequence "
			"order passed %zu MiB at #%" PRIu64 ": %" PRIu64
			" records were replayed before earlier ones could "
			"arrive\n", RP_REORDER_BYTES >> 20, s.early_seq, s.early);
	rp_stream_close(&s);
	if (st->recorder) {
		kfd_recorder_close(st->recorder);
		st->recorder = NULL;
	}
	close_live(st);
	rp_dmabuf_release(st);
	rp_xfer_release(st);
	st->sum.loops = 1;
	return 0;
}

/* One pass in a child process; its counters come back through a pipe. */
static int
run_child(struct rp_run *st, const char *record_path,
	  struct kfd_replay_summary *out)
{
	int pfd[2], status;
	ssize_t got = 0, n;
	pid_t pid;

	if (pipe(pfd) < 0)
		return -errno;
	fflush(st->out);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		int r;

		close(pfd[0]);
		st->live_pid = getpid();
		r = run_once(st, record_path);
		fflush(st->out);
		if (write(pfd[1], &st->sum, sizeof(st->sum)) < 0)
			r = -1;
		_exit(r < 0 ? 2 : 0);
	}
	close(pfd[1]);
	while (got < (ssize_t)sizeof(*out) &&
	       (n = read(pfd[0], (char *)out + got, sizeof(*out) - (size_t)got)) > 0)
		got += n;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != (ssize_t)sizeof(*out) || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			fprintf(st->out, "kfdtrace replay: the replay process died "
				"of signal %d\n", WTERMSIG(status));
		return -ECHILD;
	}
	return 0;
}

enum kfd_replay_status
kfd_replay_run(struct kfd_replay *r, const struct kfd_replay_opts *o,
	       struct kfd_replay_summary *sum)
{
	struct kfd_replay_summary total;
	enum kfd_replay_status status;
	struct rp_run st;
	unsigned int loops = o->loop > 1 ? o->loop : 1, i;
	int ret = 0;

	memset(&st, 0, sizeof(st));
	memset(&total, 0, sizeof(total));
	total.first_divergence_seq = UINT64_MAX;
	total.last_ok_seq = UINT64_MAX;
	st.r = r;
	st.o = o;
	st.out = o->out ? o->out : stdout;
	st.rows = rp_rows();
	st.issue = rp_run_ioctl;
	st.cap_pid = r->model.hdr.pid;
	st.live_pid = getpid();
	rp_vec_init(&st.ofds, sizeof(struct rp_ofd));
	rp_vec_init(&st.shares, sizeof(struct rp_share));
	if (!st.rows->plans) {
		/* Every reissued request follows its row's plan. */
		fprintf(st.out, "kfdtrace replay: %s\n", rp_rows_error());
		ret = -ENOMEM;
		goto out;
	}
	if (setup_filters(&st) < 0) {
		fprintf(st.out, "kfdtrace replay: bad --only/--skip list\n");
		ret = -EINVAL;
		goto out;
	}
	if (rp_as_init(&st.as) < 0) {
		ret = -ENOMEM;
		goto out;
	}
	if (r->model.fork_parent && !r->tree)
		fprintf(st.out, "warning: this is the trace of a forked child (its "
			"parent is pid %d); it is replayed without its parent, from "
			"a fresh process\n", r->model.fork_parent);
	rp_as_plan(&st.as, &r->model, st.out);
	if (r->model.ndeps_total) {
		/* Said up front; the divergences they cause point back here. */
		rp_order_print(&r->model, st.out);
		if (r->model.cycle_len) {
			fprintf(st.out, "kfdtrace replay: the trace's dependencies "
				"form a cycle: no order of its records can be "
				"replayed\n");
			ret = -ELOOP;
			rp_as_free(&st.as);
			goto out;
		}
	}

	for (i = 0; i < loops && ret == 0; i++) {
		char path[4096];
		const char *rp = o->record_path;

		if (rp && i > 0) {
			snprintf(path, sizeof(path), "%s.%u", o->record_path, i + 1);
			rp = path;
		}
		if (loops == 1) {
			ret = run_once(&st, rp);
			if (ret == 0)
				rp_sum_add(&total, &st.sum);
		} else {
			struct kfd_replay_summary one;

			ret = run_child(&st, rp, &one);
			if (ret == 0) {
				rp_sum_add(&total, &one);
				if (one.divergences && !o->keep_going)
					break;
			}
		}
	}
	total.relocations = st.as.relocations;
	rp_as_free(&st.as);
out:
	run_reset(&st);
	rp_vec_free(&st.ofds);
	rp_vec_free(&st.shares);
	free(st.arena);
	free(st.only_row);
	free(st.skip_row);
	if (ret < 0)
		status = KFD_REPLAY_FAILED;
	else if (total.divergences)
		status = KFD_REPLAY_DIVERGED;
	else if (!rp_trace_whole(&r->model))
		status = KFD_REPLAY_DAMAGED;
	else
		status = KFD_REPLAY_MATCH;
	st.sum = total;
	if (ret == 0)
		rp_print_summary(&st, st.out);
	if (sum)
		*sum = total;
	return status;
}
