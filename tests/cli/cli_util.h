/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the kfdtrace command-line tests and benchmark: writing traces
 * with the real writer, and running the built kfdtrace binary with its
 * output captured.
 */
#ifndef KFDTRACE_CLI_UTIL_H
#define KFDTRACE_CLI_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

extern char **environ;

/* A record appender that keeps the writer's sequence numbers. */
struct gen {
	struct kt_writer *w;
	uint64_t ts;			/* next record time */
	uint32_t tid;
};

/* gen_open() - start a trace at @path; 0 or a negative error. */
static inline int
gen_open(struct gen *g, const char *path, uint64_t start_ns)
{
	struct kt_header hdr;

	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = start_ns;
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	g->ts = start_ns + 1000;
	g->tid = 100;
	return kt_writer_open(path, &hdr, NULL, &g->w);
}

/* gen_put() - append with the next seq, tid and a time 1 us later. */
static inline int
gen_put(struct gen *g, struct kt_record *r)
{
	r->seq = kt_writer_next_seq(g->w);
	if (!r->tid)
		r->tid = g->tid;
	r->ts = g->ts;
	g->ts += 1000;
	return kt_writer_append(g->w, r);
}

/* gen_ioctl() - append an ioctl taking @lat_ns with before/after images. */
static inline int
gen_ioctl(struct gen *g, uint32_t request, const void *before,
	  const void *after, uint32_t size, int64_t ret, int32_t err,
	  uint64_t lat_ns, const struct kt_buf_image *bufs, uint16_t nbufs)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_IOCTL;
	r.u.ioctl.fd = 3;
	r.u.ioctl.file_kind = KFD_FILE_KFD;
	r.u.ioctl.request = request;
	r.u.ioctl.ret = ret;
	r.u.ioctl.err = err;
	r.u.ioctl.arg_size = size;
	r.u.ioctl.arg_before = before;
	r.u.ioctl.arg_after = after;
	r.u.ioctl.bufs = bufs;
	r.u.ioctl.nbufs = nbufs;
	r.seq = kt_writer_next_seq(g->w);
	r.tid = g->tid;
	r.ts = g->ts;
	r.u.ioctl.t_exit = g->ts + lat_ns;
	g->ts += 1000 + lat_ns;
	return kt_writer_append(g->w, &r);
}

/* Output of one kfdtrace run. */
struct run {
	char *out;
	char *err;
	int status;			/* exit status, or -1 if killed */
};

static inline char *
slurp_fd(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return NULL;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	return buf;
}

/*
 * run_tool() - run @argv (argv[0] is the binary path) with stdout and
 * stderr captured in temporary files.
 *
 * Return: 0, or -1 when the process could not be run.
 */
static inline int
run_tool(char *const argv[], struct run *res)
{
	posix_spawn_file_actions_t fa;
	char outp[] = "/tmp/kfdtrace-cli-out-XXXXXX";
	char errp[] = "/tmp/kfdtrace-cli-err-XXXXXX";
	int ofd = mkstemp(outp), efd = mkstemp(errp), st;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (ofd < 0 || efd < 0)
		return -1;
	unlink(outp);
	unlink(errp);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, ofd, 1);
	posix_spawn_file_actions_adddup2(&fa, efd, 2);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	res->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	res->out = slurp_fd(ofd);
	res->err = slurp_fd(efd);
	close(ofd);
	close(efd);
	return res->out && res->err ? 0 : -1;
}

static inline void
run_free(struct run *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

/* count_lines() - lines in @s. */
static inline size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

#endif /* KFDTRACE_CLI_UTIL_H */
