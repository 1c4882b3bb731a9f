/* SPDX-License-Identifier: MIT */
/*
 * Running programs from tests (tc_run.h). posix_spawn, not fork: the
 * tests that use this run many commands, and some are large processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tc_run.h"
#include "tc_text.h"

extern char **environ;

double
tc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether environment entry @e sets the variable @kv ("NAME=...") sets. */
static int
same_name(const char *e, const char *kv)
{
	size_t n = strcspn(kv, "=");

	return !strncmp(e, kv, n) && e[n] == '=';
}

/* This environment with @extra's entries added or replacing; free() it. */
static char **
merge_env(char *const extra[])
{
	size_t n = 0, m = 0, i, j, k = 0;
	char **env;

	while (environ[n])
		n++;
	while (extra[m])
		m++;
	env = calloc(n + m + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++) {
		for (j = 0; j < m; j++)
			if (same_name(environ[i], extra[j]))
				break;
		if (j == m)
			env[k++] = environ[i];
	}
	for (j = 0; j < m; j++)
		env[k++] = extra[j];
	return env;
}

/* Spawn @argv with @fa; wait, filling @status/@sig (and @ru). */
static int
spawn_wait(char *const argv[], char *const env[],
	   const posix_spawn_file_actions_t *fa, int *status, int *sig,
	   struct rusage *ru)
{
	pid_t pid;
	int st;

	if (posix_spawnp(&pid, argv[0], fa, NULL, argv, env) != 0)
		return -1;
	while (wait4(pid, &st, 0, ru) < 0)
		if (errno != EINTR)
			return -1;
	*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + *sig;
	return 0;
}

/* An unlinked temporary file for captured output: fd or -1. */
static int
capture_file(const char *what)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/kfdtrace-test-%s-XXXXXX", what);
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

int
tc_run_env(char *const argv[], char *const env[], unsigned int flags,
	   struct tc_run *res)
{
	int merge = flags & TC_RUN_MERGE;
	int ofd = capture_file("out"), efd = merge ? -1 : capture_file("err");
	posix_spawn_file_actions_t fa;
	char **merged = NULL;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (ofd < 0 || (!merge && efd < 0))
		goto out;
	if (env) {
		merged = merge_env(env);
		if (!merged)
			goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, ofd, 1);
	posix_spawn_file_actions_adddup2(&fa, merge ? ofd : efd, 2);
	ret = spawn_wait(argv, merged ? merged : environ, &fa, &res->status,
			 &res->signal, NULL);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		goto out;
	lseek(ofd, 0, SEEK_SET);
	res->out = tc_read_fd(ofd, NULL);
	if (merge) {
		res->err = strdup("");
	} else {
		lseek(efd, 0, SEEK_SET);
		res->err = tc_read_fd(efd, NULL);
	}
	ret = res->out && res->err ? 0 : -1;
out:
	free(merged);
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return ret;
}

int
tc_run_bounded(char *const argv[], char *const env[], unsigned int seconds,
	       struct tc_run *res)
{
	char secs[16], *av[36] = { "timeout", "-k", "5", secs };
	unsigned int n = 4;

	snprintf(secs, sizeof(secs), "%u", seconds);
	for (unsigned int i = 0; argv[i]; i++) {
		if (n == 34) {
			memset(res, 0, sizeof(*res));
			return -1;
		}
		av[n++] = argv[i];
	}
	av[n] = NULL;
	return tc_run_env(av, env, 0, res);
}

int
tc_run(char *const argv[], struct tc_run *res)
{
	return tc_run_env(argv, NULL, 0, res);
}

void
tc_run_free(struct tc_run *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

int
tc_run_timed(char *const argv[], const char *out_path, struct tc_timing *t)
{
	posix_spawn_file_actions_t fa;
	int status, sig, ret;
	struct rusage ru;
	double t0;

	posix_spawn_file_actions_init(&fa);
	if (out_path)
		posix_spawn_file_actions_addopen(&fa, 1, out_path,
						 O_WRONLY | O_CREAT | O_TRUNC,
						 0600);
	t0 = tc_now();
	ret = spawn_wait(argv, environ, &fa, &status, &sig, &ru);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -1;
	t->wall = tc_now() - t0;
	t->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	t->max_rss_kib = ru.ru_maxrss;
	return status;
}
