/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/schema.h>

#include "tt_trace.h"

extern char **environ;

static void *
dup_bytes(const void *p, size_t n)
{
	void *q;

	if (!p)
		return NULL;
	q = malloc(n ? n : 1);
	if (q && n)
		memcpy(q, p, n);
	return q;
}

static char *
dup_str(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void
copy_rec(struct tt_rec *d, const struct kt_record *s)
{
	memset(d, 0, sizeof(*d));
	d->r = *s;
	switch (s->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &s->u.ioctl;

		d->arg_before = dup_bytes(io->arg_before, io->arg_size);
		d->arg_after = dup_bytes(io->arg_after, io->arg_size);
		if (io->nbufs) {
			d->bufs = calloc(io->nbufs, sizeof(*d->bufs));
			for (unsigned int i = 0; d->bufs && i < io->nbufs; i++) {
				const struct kt_buf_image *b = &io->bufs[i];

				d->bufs[i].index = b->index;
				d->bufs[i].flags = b->flags;
				d->bufs[i].addr = b->addr;
				d->bufs[i].len_before = b->len_before;
				d->bufs[i].len_after = b->len_after;
				d->bufs[i].before = dup_bytes(b->before, b->len_before);
				d->bufs[i].after = dup_bytes(b->after, b->len_after);
			}
		}
		break;
	}
	case KT_REC_OPEN:
		d->str = dup_str(s->u.open.path);
		break;
	case KT_REC_EXEC:
		d->str = dup_str(s->u.exec.path);
		d->argv = dup_bytes(s->u.exec.argv, s->u.exec.argv_len);
		d->argv_len = s->u.exec.argv_len;
		break;
	case KT_REC_THREAD_NAME:
		d->str = dup_str(s->u.thread_name.name);
		break;
	case KT_REC_ANNOTATION:
		d->str = dup_str(s->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		d->str = dup_str(s->u.api.name);
		d->api_args = dup_str(s->u.api.args);
		break;
	case KT_REC_TOPOLOGY: {
		unsigned int n = s->u.topology.nfiles;

		d->topo_files = n;
		d->topo_paths = calloc(n + 1, sizeof(char *));
		d->topo_data = calloc(n + 1, sizeof(uint8_t *));
		d->topo_len = calloc(n + 1, sizeof(uint32_t));
		for (unsigned int i = 0; i < n && d->topo_paths && d->topo_data &&
		     d->topo_len; i++) {
			d->topo_paths[i] = dup_str(s->u.topology.files[i].path);
			d->topo_data[i] = dup_bytes(s->u.topology.files[i].data,
						    s->u.topology.files[i].len);
			d->topo_len[i] = s->u.topology.files[i].len;
		}
		break;
	}
	default:
		break;
	}
	/* The copied scalars must not point into the reader's memory. */
	memset(&d->r.u, 0, sizeof(d->r.u));
	switch (s->type) {
	case KT_REC_IOCTL:
		d->r.u.ioctl = s->u.ioctl;
		d->r.u.ioctl.arg_before = d->arg_before;
		d->r.u.ioctl.arg_after = d->arg_after;
		d->r.u.ioctl.bufs = NULL;
		break;
	case KT_REC_API_CALL:
		d->r.u.api = s->u.api;
		d->r.u.api.name = d->str;
		d->r.u.api.args = d->api_args;
		break;
	default:
		d->r.u = s->u;
		break;
	}
}

int
tt_trace_load(const char *path, struct tt_trace *t)
{
	struct kt_reader *rd;
	struct kt_record rec;
	size_t cap = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = kt_reader_open(path, &rd);
	if (ret)
		return ret;
	t->hdr = *kt_reader_header(rd);
	while ((ret = kt_reader_next(rd, &rec)) == 1) {
		if (t->n == cap) {
			cap = cap ? cap * 2 : 1024;
			t->recs = realloc(t->recs, cap * sizeof(*t->recs));
			if (!t->recs)
				abort();
		}
		copy_rec(&t->recs[t->n++], &rec);
	}
	t->end_ret = ret;
	kt_reader_get_status(rd, &t->st);
	kt_reader_close(rd);
	return 0;
}

void
tt_trace_free(struct tt_trace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct tt_rec *r = &t->recs[i];

		free(r->arg_before);
		free(r->arg_after);
		if (r->bufs) {
			for (unsigned int j = 0; j < r->r.u.ioctl.nbufs; j++) {
				free(r->bufs[j].before);
				free(r->bufs[j].after);
			}
		}
		free(r->bufs);
		free(r->str);
		free(r->api_args);
		free(r->argv);
		for (unsigned int j = 0; j < r->topo_files; j++) {
			if (r->topo_paths)
				free(r->topo_paths[j]);
			if (r->topo_data)
				free(r->topo_data[j]);
		}
		free(r->topo_paths);
		free(r->topo_data);
		free(r->topo_len);
	}
	free(t->recs);
	memset(t, 0, sizeof(*t));
}

const char *
tt_ioctl_name(const struct tt_rec *rec)
{
	const struct kfd_ioctl_desc *d =
		kfd_schema_lookup((enum kfd_file_kind)rec->r.u.ioctl.file_kind,
				  rec->r.u.ioctl.request);

	return d ? d->name : "?";
}

size_t
tt_count(const struct tt_trace *t, unsigned int type)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->recs[i].r.type == type;
	return n;
}

size_t
tt_count_ioctl(const struct tt_trace *t, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->recs[i].r.type == KT_REC_IOCTL &&
		    (!name || !strcmp(tt_ioctl_name(&t->recs[i]), name)))
			n++;
	return n;
}

const struct tt_rec *
tt_find_ioctl(const struct tt_trace *t, const char *name, size_t nth)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->recs[i].r.type == KT_REC_IOCTL &&
		    !strcmp(tt_ioctl_name(&t->recs[i]), name) && nth-- == 0)
			return &t->recs[i];
	return NULL;
}

char *
tt_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir;

	if (!base || !*base)
		base = "/tmp";
	if (asprintf(&dir, "%s/kt-tracer-XXXXXX", base) < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

char *
tt_path(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

int
tt_copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n = 0;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	if (close(out) || n < 0 || chmod(to, mode))
		return -1;
	return 0;
}

pid_t
tt_spawn(char *const argv[], char *const env[], const char *log)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	size_t n = 0, m = 0;
	sigset_t all, none;
	char **envp;
	pid_t pid;
	int ret;

	while (environ[n])
		n++;
	while (env && env[m])
		m++;
	envp = calloc(n + m + 1, sizeof(*envp));
	if (!envp)
		return -1;
	/* Ours first: the first definition of a name wins for getenv(). */
	for (size_t i = 0; i < m; i++)
		envp[i] = env[i];
	for (size_t i = 0; i < n; i++)
		envp[m + i] = environ[i];
	posix_spawn_file_actions_init(&fa);
	if (log) {
		posix_spawn_file_actions_addopen(&fa, 1, log,
						 O_WRONLY | O_CREAT | O_APPEND, 0644);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
	}
	/* Whatever the test runner ignores or blocks: a program starts
	 * from the defaults. */
	sigfillset(&all);
	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	ret = posix_spawn(&pid, argv[0], &fa, &attr, argv, envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(envp);
	return ret ? -1 : pid;
}

int
tt_wait(pid_t pid)
{
	int status;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int
tt_run(char *const argv[], char *const env[], const char *log)
{
	return tt_wait(tt_spawn(argv, env, log));
}
