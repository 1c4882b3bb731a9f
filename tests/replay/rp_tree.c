/* SPDX-License-Identifier: MIT */
/*
 * A workload of several processes on the thunk API (AMD's libhsakmt, or
 * ours first in LD_LIBRARY_PATH) for the replay of a process tree: each
 * process of the run writes a trace of its own, which the replay takes
 * together.
 *
 * Usage: rp_tree MODE, MODE one of
 *   fork    the parent works on the GPU, fork()s a child that opens the
 *           KFD again (the thunk refuses the parent's in a child) and works
 *           on its own, then works again once the child is gone;
 *   spawn   the same with posix_spawn() of /proc/self/exe ("child");
 *   share   the parent exports a VRAM buffer (hsaKmtShareMemory, which
 *           needs the DKMS kernel's IPC ioctls: kfdsim's "rocm" flavour)
 *           and posix_spawn()s a child ("share-child HANDLE") that imports,
 *           maps, unmaps and deregisters it; the parent frees it after.
 * The share handle goes to the child as hex on its command line: a spawned
 * process starts the thunk from scratch on either library, where a forked
 * one inherits AMD's half-torn-down state.
 *
 * It prints the file the thunk was loaded from ("thunk: PATH"). An
 * unexpected status goes to stderr ("rp_tree: ...") and makes the exit
 * status 1, in any process of the run.
 */
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hsakmt.h>

#include "rp_kmt.h"

extern char **environ;

static HSAuint32 gpu;

/* Open the KFD and find the first GPU node; 0 when either fails. */
static int
open_kfd(void)
{

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_tree: %s: cannot open the KFD\n", rp_kmt_who);
		return 0;
	}
	gpu = rp_kmt_first_gpu();
	if (!gpu) {
		fprintf(stderr, "rp_tree: %s: no GPU node\n", rp_kmt_who);
		rp_kmt_fail(NULL);
	}
	return gpu != 0;
}

static void
close_kfd(void)
{
	rp_kmt_check(hsaKmtReleaseSystemProperties(), "ReleaseSystemProperties");
	rp_kmt_check(hsaKmtCloseKFD(), "CloseKFD");
}

/* Allocate @size on @node (0: system memory), map it on the GPU. */
static void *
alloc_mapped(HSAuint32 node, HSAuint64 size)
{
	HsaMemFlags flags = { 0 };

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	if (node)
		flags.ui32.NoSubstitute = 1;
	return rp_kmt_alloc_mapped(node, gpu, size, flags);
}

/* A little of everything a process does with memory: VRAM and host. */
static void
work(HSAuint64 size)
{
	void *v = alloc_mapped(gpu, size), *h = alloc_mapped(0, size / 2);

	rp_kmt_free_mapped(h, size / 2);
	rp_kmt_free_mapped(v, size);
}

/* Wait for @pid; a child that did not exit 0 makes the run fail. */
static void
reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid) {
		perror("rp_tree: waitpid");
		rp_kmt_fail(NULL);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "rp_tree: the child ended with status 0x%x\n",
			status);
		rp_kmt_fail(NULL);
	}
}

/* posix_spawn() this program with @arg1 (and @arg2); return the pid. */
static pid_t
spawn_self(const char *arg1, const char *arg2)
{
	char *argv[] = { "rp_tree", (char *)arg1, (char *)arg2, NULL };
	pid_t pid;
	int err;

	fflush(stdout);
	err = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "rp_tree: posix_spawn: %s\n", strerror(err));
		rp_kmt_fail(NULL);
		return -1;
	}
	return pid;
}

static int
mode_fork(void)
{
	pid_t pid;

	work(2 << 20);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("rp_tree: fork");
		return 1;
	}
	if (pid == 0) {
		/* The parent's KFD is not this process's: open it again. */
		rp_kmt_who = "child";
		if (open_kfd()) {
			work(1 << 20);
			work(4 << 20);
			close_kfd();
		}
		fflush(NULL);
		_exit(rp_kmt_failed());
	}
	reap(pid);
	work(1 << 20);
	return 0;
}

static int
mode_spawn(void)
{
	pid_t pid;

	work(2 << 20);
	pid = spawn_self("child", NULL);
	if (pid > 0)
		reap(pid);
	work(1 << 20);
	return 0;
}

static void
child_work(void)
{
	work(1 << 20);
	work(4 << 20);
}

static int
mode_share(void)
{
	HsaSharedMemoryHandle sh;
	HSAuint64 size = 2 << 20;
	char hex[2 * sizeof(sh) + 1];
	unsigned char *b = (unsigned char *)sh;
	void *p = alloc_mapped(gpu, size);
	pid_t pid;
	size_t i;

	if (!p)
		return 1;
	memset(sh, 0, sizeof(sh));
	rp_kmt_check(hsaKmtShareMemory(p, size, &sh), "ShareMemory");
	for (i = 0; i < sizeof(sh); i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	if (!rp_kmt_failed()) {
		pid = spawn_self("share-child", hex);
		if (pid > 0)
			reap(pid);
	}
	/* Freed only now: the child's import held the buffer too. */
	rp_kmt_free_mapped(p, size);
	return 0;
}

/* The spawned end of "share": import @hex's buffer, map it, let it go. */
static void
share_child(const char *hex)
{
	HsaSharedMemoryHandle sh;
	unsigned char *b = (unsigned char *)sh;
	HSAuint64 size = 0, va;
	void *p = NULL;
	size_t i;

	if (strlen(hex) != 2 * sizeof(sh)) {
		fprintf(stderr, "rp_tree: child: bad share handle \"%s\"\n", hex);
		rp_kmt_fail(NULL);
		return;
	}
	for (i = 0; i < sizeof(sh); i++)
		sscanf(hex + 2 * i, "%2hhx", &b[i]);
	rp_kmt_check(hsaKmtRegisterSharedHandle(&sh, &p, &size), "RegisterSharedHandle");
	if (!p)
		return;
	if (size != 2 << 20) {
		fprintf(stderr, "rp_tree: child: imported %llu bytes\n",
			(unsigned long long)size);
		rp_kmt_fail(NULL);
	}
	rp_kmt_check(hsaKmtMapMemoryToGPUNodes(p, size, &va, (HsaMemMapFlags){ 0 }, 1,
					&gpu), "MapMemoryToGPUNodes shared");
	rp_kmt_check(hsaKmtUnmapMemoryToGPU(p), "UnmapMemoryToGPU shared");
	rp_kmt_check(hsaKmtDeregisterMemory(p), "DeregisterMemory shared");
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int child = !strcmp(mode, "child") || !strcmp(mode, "share-child");
	int failed = 0;

	rp_kmt_prog = "rp_tree";
	rp_kmt_who = "parent";
	if (strcmp(mode, "fork") && strcmp(mode, "spawn") &&
	    strcmp(mode, "share") && !child) {
		fprintf(stderr, "usage: rp_tree fork|spawn|share\n");
		return 2;
	}
	if (!strcmp(mode, "share-child") && argc < 3) {
		fprintf(stderr, "usage: rp_tree share-child HANDLE\n");
		return 2;
	}
	if (child)
		rp_kmt_who = "child";
	/* Which thunk: the tests run this on AMD's and on ours. */
	rp_kmt_print_thunk();
	if (!open_kfd())
		return 1;
	if (!strcmp(mode, "fork"))
		failed = mode_fork();
	else if (!strcmp(mode, "spawn"))
		failed = mode_spawn();
	else if (!strcmp(mode, "share"))
		failed = mode_share();
	else if (!strcmp(mode, "child"))
		child_work();
	else
		share_child(argv[2]);
	close_kfd();
	if (failed || rp_kmt_failed())
		fprintf(stderr, "rp_tree: %s: some calls did not succeed\n",
			rp_kmt_who);
	return failed || rp_kmt_failed();
}
