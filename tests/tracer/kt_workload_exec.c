/* SPDX-License-Identifier: MIT */
/*
 * kt_workload's process-image and fd modes (kt_workload.c has the list):
 * execchain (one exec wrapper per stage), ownfile (fds taken behind the
 * wrappers' back) and closeall.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "kt_workload.h"

#define CHAIN_LAST 8
#define CHAIN_MISSING "kt-no-such-program"

/* A copy of the environment, LD_PRELOAD and all, plus KT_STAGE_ENV=@tag. */
static char **
chain_env(const char *tag)
{
	size_t n = 0, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		die("calloc");
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "KT_STAGE_ENV=", 13))
			env[j++] = environ[i];
	if (asprintf(&env[j++], "KT_STAGE_ENV=%s", tag) < 0)
		die("asprintf");
	env[j] = NULL;
	return env;
}

/*
 * An environment handed to execle/execvpe arrived: the stage after one of
 * them checks the variable only that environment had.
 */
static void
chain_check_env(int stage)
{
	const char *want = stage == 3 ? "execle" : stage == 6 ? "execvpe" :
			   stage == 8 ? "execve" : NULL;
	const char *got = getenv("KT_STAGE_ENV");

	if (want && (!got || strcmp(got, want))) {
		errno = EINVAL;
		die("KT_STAGE_ENV did not come through the exec");
	}
}

/*
 * @arg0: argv[0]; stage 0 must get a path with a slash. It keeps that
 * path in KT_CHAIN_SELF for the later stages (those started by the
 * PATH-searching wrappers get only the base name in argv[0]) and puts its
 * directory first in PATH for those wrappers.
 */
int
mode_execchain(const char *arg0, int stage)
{
	const char *self = stage == 0 ? arg0 : getenv("KT_CHAIN_SELF");
	const char *slash = self ? strrchr(self, '/') : NULL;
	const char *base = slash ? slash + 1 : NULL;
	char next[16], **env;
	int kfd, fd;
	struct gpu g;

	if (stage < 0 || stage > CHAIN_LAST || !base) {
		errno = EINVAL;
		die("execchain stage or path");
	}
	chain_check_env(stage);
	if (stage == 0) {
		const char *path = getenv("PATH");
		char *np;

		if (asprintf(&np, "%.*s:%s", (int)(base - 1 - self), self,
			     path ? path : "/usr/bin:/bin") < 0)
			die("asprintf");
		setenv("PATH", np, 1);
		setenv("KT_CHAIN_SELF", self, 1);
		free(np);
	}
	kfd = open_kfd();
	find_gpu(&g);
	get_version(kfd);
	clock_counters(kfd, g.gpu_id);
	snprintf(next, sizeof(next), "%d", stage + 1);
	char *const argv[] = { (char *)self, "execchain", next, NULL };
	char *const pargv[] = { (char *)base, "execchain", next, NULL };
	/* kfd is O_CLOEXEC: the next stage opens its own. Counts are
	 * written now: a successful exec never comes back. */
	counts_write();
	counts_clear();
	switch (stage) {
	case 0:
		execl(self, self, "execchain", next, (char *)NULL);
		die("execl");
		break;
	case 1:
		execlp(base, base, "execchain", next, (char *)NULL);
		die("execlp");
		break;
	case 2:
		env = chain_env("execle");
		execle(self, self, "execchain", next, (char *)NULL, env);
		die("execle");
		break;
	case 3:
		execv(self, argv);
		die("execv");
		break;
	case 4: {
		char *const margv[] = { CHAIN_MISSING, "x", NULL };

		/* Not found anywhere in PATH: the process carries on. */
		if (execvp(CHAIN_MISSING, margv) != -1 || errno != ENOENT) {
			fprintf(stderr, "kt_workload: execvp of a missing "
				"program: errno %d\n", errno);
			exit(3);
		}
		get_version(kfd);
		counts_write();
		counts_clear();
		execvp(base, pargv);
		die("execvp");
		break;
	}
	case 5:
		env = chain_env("execvpe");
		execvpe(base, pargv, env);
		die("execvpe");
		break;
	case 6:
		fd = open(self, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("open self");
		fexecve(fd, argv, environ);
		die("fexecve");
		break;
	case 7:
		env = chain_env("execve");
		execve(self, argv, env);
		die("execve");
		break;
	default:
		close(kfd);
		break;
	}
	return 0;
}

/* 64 KiB of a pattern no trace frame contains. */
static void
write_own(int fd)
{
	char block[4096];

	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (char)('a' + i % 26);
	for (int i = 0; i < 16; i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			exit(3);
}

/*
 * Traced (KFDTRACE_OUTPUT names the trace), GET_VERSIONs until the trace
 * file has grown, at most 5 s: then the calls made before are in it and
 * the writer is at work when the kill lands. A fixed count is no such
 * bound: on kfdsim 20,000 calls can end in a millisecond, before the
 * writer's first flush (100 ms). By path only: the program owns every fd
 * number by now.
 */
static void
calls_until_flushed(int kfd)
{
	const char *trace = getenv("KFDTRACE_OUTPUT");
	struct timespec t0, t;
	struct stat st0, st;

	if (!trace || stat(trace, &st0) != 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000; i++)
			get_version(kfd);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (stat(trace, &st) == 0 && st.st_size <= st0.st_size &&
		 t.tv_sec - t0.tv_sec < 5);
}

/*
 * The program takes the fd numbers away from the tracer in ways no libc
 * wrapper sees, then fills them with its own file: the tracer must neither
 * write into that file nor lose the end of the trace.
 */
int
mode_ownfile(const char *how, const char *path, const char *ending)
{
	int kfd = open_kfd(), own;

	get_version(kfd);
	own = -1;
	if (!strcmp(how, "closefrom")) {
		closefrom(3);
	} else if (!strcmp(how, "close_range")) {
		syscall(SYS_close_range, 3u, ~0u, 0u);
	} else if (!strcmp(how, "rawclose")) {
		for (int fd = 3; fd < 4096; fd++)
			syscall(SYS_close, fd);
	} else if (!strcmp(how, "rawdup2")) {
		own = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		for (int fd = 3; own >= 0 && fd < 4096; fd++)
			if (fd != own)
				syscall(SYS_dup2, own, fd);
	} else {
		fprintf(stderr, "ownfile: unknown HOW '%s'\n", how);
		return 2;
	}
	if (own < 0)
		own = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (own < 0)
		return 3;
	for (int fd = own + 1; fd < 1024; fd++)
		syscall(SYS_dup2, own, fd);
	write_own(own);
	counts_write();
	if (!strcmp(ending, "crash")) {
		int *volatile bad = (int *)16;

		*bad = 1;
	}
	if (!strcmp(ending, "kill")) {
		kfd = open_kfd();
		calls_until_flushed(kfd);
		for (int i = 0; i < 20000; i++)
			get_version(kfd);
		raise(SIGKILL);
	}
	exit(0);
}

/* The application closes every fd it did not open: the trace survives. */
int
mode_closeall(void)
{
	int kfd = open_kfd();

	get_version(kfd);
	for (int fd = 3; fd < 4096; fd++)
		close(fd);
	kfd = open_kfd();
	get_version(kfd);
	close_range(3, ~0u, 0);
	kfd = open_kfd();
	get_version(kfd);
	/* dup2 over every fd above ours must not take the trace either. */
	for (int fd = kfd + 1; fd < 1024; fd++)
		dup2(kfd, fd);
	get_version(kfd);
	close(kfd);
	counts_write();
	return 0;
}

