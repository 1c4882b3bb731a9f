/* SPDX-License-Identifier: MIT */
/*
 * The replay of a process tree: rp_tree's runs (a forked child that opens
 * the KFD again, a posix_spawn'd one, one that imports its parent's VRAM
 * through the ROCm IPC ioctls, and one that imports it as a dma-buf fd
 * its parent passed over an abstract Unix socket) captured on AMD's
 * thunk and on ours
 * leave one trace per process, OUT for the root and OUT.<pid> for the
 * child, and "kfdtrace replay --sim OUT OUT.<pid>" re-creates the tree
 * with zero divergences (the fork also on mi210x2). A child's trace
 * replayed without its parent's is replayed, with a warning. A run whose
 * child's trace lacks its END record gives no verdict.
 *
 * Environment (set by meson): KFDTRACE, RP_TREE, RP_OUR_THUNK, RP_ALTER.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rp_test.h"

static const char *kfdtrace, *tree, *our_thunk, *alter;

/* The files of one captured run. */
struct tree_run {
	char root[600];		/* DIR/t.kft */
	char child[600];	/* DIR/t.kft.<pid>.kfdtrace */
	int root_pid, child_pid;
};

/* The share mode needs the DKMS kernel's IPC ioctls, in capture and replay. */
static const char rocm_kernel[] = "KFDSIM_KERNEL=rocm";


/* The pid and ppid in the header of @file, from "kfdtrace info". */
static void
header_pids(const char *file, int *pid, int *ppid)
{
	const char *p;

	assert_int_equal(RUN(kfdtrace, "info", file), 0);
	p = strstr(out, "process:    pid ");
	if (!p || sscanf(p, "process:    pid %d, ppid %d", pid, ppid) != 2)
		fail_msg("no process line in the header of %s:\n%s", file, out);
}

/* How many of @file's records have @name (a record type or an ioctl). */
static int
count(const char *file, const char *name)
{
	const char *p;
	int n = 0;

	assert_int_equal(RUN(kfdtrace, "dump", "--json", "--filter", name,
			     file), 0);
	/* Lines of records only: a warning on stderr is not one. */
	for (p = out; (p = strstr(p, "{\"seq\":")); p++)
		n++;
	return n;
}

/*
 * Capture "rp_tree @mode" on AMD's thunk or ours (once per test run) into
 * its own directory, and find the run's two files: the root's and the one
 * child's, OUT.<pid> with nothing else after the dot.
 */
static void
capture(const char *mode, int ours, struct tree_run *r)
{
	char lib[4200], sub[128], want[4300];
	const char *env[] = { lib, NULL, NULL };
	struct dirent *de;
	DIR *d;
	int n = 0;

	rp_lib_path(lib, sizeof(lib), ours ? our_thunk : NULL, our_thunk);
	if (!strcmp(mode, "share"))
		env[1] = rocm_kernel;
	snprintf(sub, sizeof(sub), "%s-%s", mode, ours ? "ours" : "amd");
	snprintf(r->root, sizeof(r->root), "%s/t.kft", tmp(sub));
	if (access(r->root, F_OK)) {
		if (mkdir(tmp(sub), 0700) && errno != EEXIST)
			fail_msg("mkdir %s: %s", tmp(sub), strerror(errno));
		assert_int_equal(run_env((const char *const[]){ kfdtrace,
					 "record", "-o", r->root, "--sim", "--",
					 tree, mode, NULL }, env), 0);
		/* The thunk we meant, in the root and its child, and every
		 * call either made succeeded. */
		if (ours) {
			snprintf(want, sizeof(want), "thunk: %s/libhsakmt.so.1",
				 our_thunk);
			expect_out(want);
		} else {
			expect_out("thunk: /");
			assert_null(strstr(out, our_thunk));
		}
		assert_null(strstr(out, "rp_tree:"));
		assert_null(strstr(out, "incomplete"));
		/* AMD's 5.2.3 has no dma-buf export: the ioctls instead. */
		if (!strcmp(mode, "dmabuf"))
			expect_out(ours ? "export: thunk" : "export: ioctl");
	}
	d = opendir(tmp(sub));
	assert_non_null(d);
	while ((de = readdir(d))) {
		const char *s = de->d_name + strlen("t.kft.");
		char *end;
		long pid;

		if (strncmp(de->d_name, "t.kft.", strlen("t.kft.")) ||
		    !isdigit((unsigned char)*s))
			continue;
		pid = strtol(s, &end, 10);
		if (strcmp(end, ".kfdtrace"))
			fail_msg("a trace other than STEM.<pid>.kfdtrace: %s",
				 de->d_name);
		snprintf(r->child, sizeof(r->child), "%s/%s", tmp(sub),
			 de->d_name);
		r->child_pid = (int)pid;
		n++;
	}
	closedir(d);
	if (n != 1)
		fail_msg("%s: %d child traces, expected 1", sub, n);
}

/*
 * The facts the replay of the tree builds on: the child's header names
 * the root as its parent; a fork leaves a FORK record in both files (the
 * parent's with the child's pid, the child's with 0 and the parent's pid);
 * a spawn leaves none; a share exports in the root and imports in the
 * child.
 */
static void
check_files(const char *mode, struct tree_run *r)
{
	char want[96];
	int pid, ppid;

	header_pids(r->root, &r->root_pid, &ppid);
	header_pids(r->child, &pid, &ppid);
	assert_int_equal(pid, r->child_pid);
	assert_int_equal(ppid, r->root_pid);
	if (!strcmp(mode, "fork")) {
		assert_int_equal(count(r->root, "fork"), 1);
		snprintf(want, sizeof(want), "\"parent_pid\":%d,\"child_pid\":%d",
			 r->root_pid, r->child_pid);
		expect_out(want);
		assert_int_equal(count(r->child, "fork"), 1);
		snprintf(want, sizeof(want), "\"parent_pid\":%d,\"child_pid\":0",
			 r->root_pid);
		expect_out(want);
	} else {
		assert_int_equal(count(r->root, "fork"), 0);
		assert_int_equal(count(r->child, "fork"), 0);
	}
	if (!strcmp(mode, "share")) {
		assert_int_equal(count(r->root, "IPC_EXPORT_HANDLE"), 1);
		assert_int_equal(count(r->child, "IPC_IMPORT_HANDLE"), 1);
		assert_int_equal(count(r->child, "IPC_EXPORT_HANDLE"), 0);
	}
	if (!strcmp(mode, "dmabuf")) {
		/* The fd's way: exported, sent, received, imported. */
		assert_int_equal(count(r->root, "EXPORT_DMABUF"), 1);
		assert_int_equal(count(r->root, "fd_transfer"), 1);
		expect_out("\"dir\":\"send\"");
		expect_out("\"kind\":\"dmabuf\"");
		assert_int_equal(count(r->child, "fd_transfer"), 1);
		expect_out("\"dir\":\"receive\"");
		expect_out("\"kind\":\"dmabuf\"");
		assert_int_equal(count(r->child, "IMPORT_DMABUF"), 1);
		assert_int_equal(RUN(kfdtrace, "info", r->root, r->child), 0);
		expect_out("fd passing: 1 sent, 0 received, 1 fds (1 dma-bufs), "
			   "1 peer\n");
		expect_out("fd passing: 0 sent, 1 received, 1 fds (1 dma-bufs), "
			   "1 peer\n");
	} else {
		assert_int_equal(count(r->root, "fd_transfer"), 0);
	}
	/* Both processes worked on the GPU; each trace is complete. */
	assert_true(count(r->root, "ALLOC_MEMORY_OF_GPU") > 1);
	assert_true(count(r->child, "MAP_MEMORY_TO_GPU") > 1);
	assert_int_equal(count(r->child, "end"), 1);
}

/* Replay @r's files, root first, with @sim (and @map): no divergence. */
static void
replay_tree(const char *mode, const struct tree_run *r, const char *sim,
	    const char *map)
{
	const char *env[] = { NULL, NULL };
	int st;

	if (!strcmp(mode, "share"))
		env[0] = rocm_kernel;
	if (map)
		st = run_env((const char *const[]){ kfdtrace, "replay", sim,
			     "--gpu-map", map, r->root, r->child, NULL }, env);
	else
		st = run_env((const char *const[]){ kfdtrace, "replay", sim,
			     r->root, r->child, NULL }, env);
	if (st) {
		/* All of it: cmocka cuts a long failure message short. */
		fputs(out, stderr);
		fail_msg("replay %s of %s (%s) exited %d", sim, r->root, mode,
			 st);
	}
	expect_out("result:      match (strict)");
	assert_null(strstr(out, "divergence"));
	assert_null(strstr(out, "without its parent"));
}

/* ------------------------------------------------------------------ */

static void
captures_on(int ours)
{
	static const char *const modes[] = { "fork", "spawn", "share", "dmabuf" };
	struct tree_run r;
	size_t i;

	for (i = 0; i < 4; i++) {
		capture(modes[i], ours, &r);
		check_files(modes[i], &r);
	}
}

static void
test_capture_amd(void **state)
{
	(void)state;
	captures_on(0);
}

static void
test_capture_ours(void **state)
{
	(void)state;
	captures_on(1);
}

static void
replay_mode(const char *mode)
{
	struct tree_run r;
	int ours;

	for (ours = 0; ours < 2; ours++) {
		capture(mode, ours, &r);
		replay_tree(mode, &r, "--sim", NULL);
		/* Another machine: both processes' GPU ids are mapped. */
		if (!strcmp(mode, "fork"))
			replay_tree(mode, &r, "--sim=mi210x2", "0xab12=0x5d3c");
	}
}

static void
test_replay_fork(void **state)
{
	(void)state;
	replay_mode("fork");
}

static void
test_replay_spawn(void **state)
{
	(void)state;
	replay_mode("spawn");
}

static void
test_replay_share(void **state)
{
	(void)state;
	replay_mode("share");
}

/*
 * The dma-buf passed over a socket: the replay pairs the send with the
 * receive and passes the replayed fd between the replay processes (also
 * with --threads); the child's trace alone imports a stand-in; emit-c of
 * it says that the program cannot receive the fd.
 */
static void
test_replay_dmabuf(void **state)
{
	struct tree_run r;
	int ours;

	(void)state;
	replay_mode("dmabuf");
	for (ours = 0; ours < 2; ours++) {
		capture("dmabuf", ours, &r);
		assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--threads",
				     r.root, r.child), 0);
		expect_out("result:      match (strict) in every process");
		assert_null(strstr(out, "divergence"));
	}
	assert_int_not_equal(RUN(kfdtrace, "replay", "--sim", r.child), 0);
	expect_out("fds received from a process whose trace is not replayed");
	/* A program is one process: emit-c says what it leaves out. */
	assert_int_equal(RUN(kfdtrace, "emit-c", "-f", "-o",
			     tmp("dmabuf-child.c"), r.child), 0);
	expect_out("note: 1 fd_transfer records");
	assert_int_equal(access(tmp("dmabuf-child.c"), F_OK), 0);
}

/*
 * Each process is verified on its own, also with --threads, and recorded
 * on its own: the child's replay diffs equal to the child's capture.
 */
static void
test_replay_per_process(void **state)
{
	char rec[600], rec_child[640], want[700];
	struct tree_run r;
	int root_pid, ppid;

	(void)state;
	capture("fork", 1, &r);
	header_pids(r.root, &root_pid, &ppid);
	snprintf(rec, sizeof(rec), "%s", tmp("replayed.kft"));
	snprintf(rec_child, sizeof(rec_child), "%s.%d.kfdtrace", rec,
		 r.child_pid);
	unlink(rec);
	unlink(rec_child);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--threads", "--record",
			     rec, r.root, r.child), 0);
	snprintf(want, sizeof(want), "== process %d: %s (forked by %d)",
		 r.child_pid, r.child, root_pid);
	expect_out(want);
	expect_out("threads:     1 captured thread");
	expect_out("result:      match (strict) in every process");
	assert_int_equal(access(rec_child, F_OK), 0);
	assert_int_equal(RUN(kfdtrace, "diff", r.child, rec_child), 0);
	expect_out("equal:");
	assert_int_equal(RUN(kfdtrace, "diff", r.root, rec), 0);
	expect_out("equal:");
}

/*
 * A forked child's trace alone: it begins inside a process that had
 * another's state, so the replay says it lacks its parent, and replays
 * what it has (the child opened everything it used afresh).
 */
static void
test_child_alone(void **state)
{
	struct tree_run r;

	(void)state;
	capture("fork", 0, &r);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", r.child), 0);
	expect_out("without its parent");
	expect_out("result:      match (strict)");
	assert_null(strstr(out, "divergence"));
}

/* Copy the file @from to @to. */
static void
copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *o = fopen(to, "w");
	size_t n;

	assert_non_null(in);
	assert_non_null(o);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, o), n);
	assert_int_equal(ferror(in), 0);
	fclose(in);
	assert_int_equal(fclose(o), 0);
}

/*
 * A run directory whose child's trace has no END record (the child was
 * killed): the tree is replayed, but gives no verdict (exit 4), and says
 * which process's trace is not whole.
 */
static void
test_tree_no_end(void **state)
{
	char run_dir[600], root[640], child[640], want[700];
	struct tree_run r;

	(void)state;
	capture("fork", 0, &r);
	snprintf(run_dir, sizeof(run_dir), "%s", tmp("noend-run"));
	if (mkdir(run_dir, 0700) && errno != EEXIST)
		fail_msg("mkdir %s: %s", run_dir, strerror(errno));
	snprintf(root, sizeof(root), "%s/t.kfdtrace", run_dir);
	snprintf(child, sizeof(child), "%s/t.%d.kfdtrace", run_dir, r.child_pid);
	copy_file(r.root, root);
	unlink(child);
	assert_int_equal(RUN(alter, r.child, child, "noend"), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", run_dir), 4);
	expect_out("the trace has no END record");
	snprintf(want, sizeof(want), "process %d (%s): no verdict", r.child_pid,
		 child);
	expect_out(want);
	expect_out("result:      no verdict: the trace has no END record");
	expect_out("  result:      no verdict (the trace is not whole)");
	assert_null(strstr(out, "in every process"));
	assert_null(strstr(out, "divergence"));
	/* The same with each process's threads on threads of their own. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--threads", run_dir),
			 4);
	expect_out(want);
	assert_null(strstr(out, "in every process"));
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	tree = getenv("RP_TREE");
	our_thunk = getenv("RP_OUR_THUNK");
	alter = getenv("RP_ALTER");
	if (!kfdtrace || !tree || !our_thunk || !alter) {
		fprintf(stderr, "KFDTRACE, RP_TREE, RP_OUR_THUNK and RP_ALTER "
			"must be set\n");
		return -1;
	}
	return rp_make_dir("replay-tree");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_amd),
		cmocka_unit_test(test_capture_ours),
		cmocka_unit_test(test_replay_fork),
		cmocka_unit_test(test_replay_spawn),
		cmocka_unit_test(test_replay_share),
		cmocka_unit_test(test_replay_dmabuf),
		cmocka_unit_test(test_replay_per_process),
		cmocka_unit_test(test_child_alone),
		cmocka_unit_test(test_tree_no_end),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
