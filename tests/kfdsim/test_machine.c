/* SPDX-License-Identifier: MIT */
/*
 * One simulated machine per run: every process `kfdtrace sim` starts
 * (shell pipelines, posix_spawn, fork+exec, a nested kfdtrace) shares one
 * machine's accounting; its state file goes when the run ends; the file of
 * a run whose kfdtrace was killed (SIGKILL) is reclaimed by the next run;
 * files that are not machines of this kfdsim are refused or reclaimed with
 * a message naming them; an overwritten lock word hangs no process; a
 * run's machine name cannot be taken first by another user; and kfdtrace
 * hands back the command's status, signals included.
 *
 * Each test but the first keeps its machines in a scratch directory
 * (KFDSIM_SHM_DIR), so that runs of other tests reclaiming stale files in
 * /dev/shm at the same time cannot interfere. argv: kfdtrace, machine_app,
 * libkfdsim.so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tc_run.h"
#include "tc_scratch.h"

static const char *kfdtrace, *app, *preload_lib;
static char shm[] = "/tmp/kfdsim-machine-XXXXXX";

static void
run(struct tc_run *r, const char *const *env, const char *const *argv)
{
	assert_int_equal(tc_run_env((char *const *)argv, (char *const *)env, 0, r), 0);
}

/* How many kfdsim-* entries the scratch directory holds; the last name. */
static int
count_machines(char *last, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(shm);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "kfdsim-", 7))
			continue;
		n++;
		if (last)
			snprintf(last, len, "%s", de->d_name);
	}
	closedir(d);
	return n;
}

static long long
avail_of(const char *line)
{
	long long n = -1;

	assert_non_null(line);
	assert_int_equal(sscanf(line, "avail %lld", &n), 1);
	return n;
}

/* Start kfdtrace in the background, its stdout on a pipe. */
static pid_t
start(const char *const *argv, int *out)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	*out = p[0];
	return pid;
}

/* One line from @fd (byte by byte: what follows stays in the pipe). */
static void
read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;
	char c;

	while (n + 1 < len && read(fd, &c, 1) == 1 && c != '\n')
		buf[n++] = c;
	buf[n] = '\0';
}

/* The run's machine in /dev/shm: there while it runs, gone after; a nested
 * kfdtrace runs on the same machine. */
static void
test_run_machine_lifetime(void **state)
{
	const char *const env[] = { "KFDSIM_SHM_DIR=", NULL };
	char id[80], path[200];
	struct tc_run r;

	(void)state;
	run(&r, env, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c",
			"echo $KFDSIM_MACHINE; test -f /dev/shm/kfdsim-$KFDSIM_MACHINE && "
			"echo present; \"$0\" sim -- /bin/sh -c 'echo $KFDSIM_MACHINE'",
			kfdtrace, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sscanf(r.out, "%79s", id), 1);
	assert_true(!strncmp(id, "run-", 4));
	snprintf(path, sizeof(path), "%s\npresent\n%s\n", id, id);
	assert_string_equal(r.out, path);
	snprintf(path, sizeof(path), "/dev/shm/kfdsim-%s", id);
	assert_int_equal(access(path, F_OK), -1);
	assert_string_equal(r.err, "");
	tc_run_free(&r);
}

/* A pipeline's processes see each other's VRAM; a spawned child does. */
static void
test_processes_share(void **state)
{
	long long alone, a, b;
	struct tc_run r;
	char *nl;

	(void)state;
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", app, "avail", NULL });
	assert_int_equal(r.status, 0);
	alone = avail_of(r.out);
	tc_run_free(&r);

	/* the second process starts while the first holds 64 MiB */
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c",
			"\"$0\" hold 64 | { read x; echo \"$x\"; \"$0\" avail; }", app, NULL });
	assert_int_equal(r.status, 0);
	a = avail_of(r.out);
	nl = strchr(r.out, '\n');
	assert_non_null(nl);
	b = avail_of(nl + 1);
	assert_true(a <= alone - (64LL << 20));
	assert_true(b == a);
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", app, "spawn", "32", NULL });
	assert_int_equal(r.status, 0);
	tc_run_free(&r);
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", app, "forkexec", "32", NULL });
	assert_int_equal(r.status, 0);
	tc_run_free(&r);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* kfdtrace's status is the command's: exit code, or the same signal. */
static void
test_exit_status(void **state)
{
	char line[64];
	struct tc_run r;
	int fd, status;
	pid_t pid;

	(void)state;
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c", "exit 7", NULL });
	assert_int_equal(r.status, 7);
	assert_int_equal(r.signal, 0);
	tc_run_free(&r);
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c", "kill -USR1 $$",
					NULL });
	assert_int_equal(r.signal, SIGUSR1);
	tc_run_free(&r);

	/* a signal sent to kfdtrace reaches the command */
	pid = start((const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c",
			"trap 'exit 42' TERM; echo ready; while :; do sleep 0.05; done", NULL },
		    &fd);
	read_line(fd, line, sizeof(line));
	assert_string_equal(line, "ready");
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	close(fd);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* kill -9 of kfdtrace: the command dies with it, the next run reclaims. */
static void
test_killed_run_reclaimed(void **state)
{
	char line[64], name[256], want[640];
	struct tc_run r;
	int fd, status;
	pid_t pid;

	(void)state;
	pid = start((const char *[]){ kfdtrace, "sim", "--", app, "hold", "1", NULL }, &fd);
	read_line(fd, line, sizeof(line));
	avail_of(line);
	assert_int_equal(count_machines(name, sizeof(name)), 1);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* the command's end closes the pipe */
	assert_int_equal(read(fd, line, sizeof(line)), 0);
	close(fd);
	assert_int_equal(count_machines(NULL, 0), 1);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/true", NULL });
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "%s/%s: stale: its run (pid %d) ended without removing it",
		 shm, name, (int)pid);
	assert_non_null(strstr(r.err, want));
	assert_non_null(strstr(r.err, "kfdsim["));
	tc_run_free(&r);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* Run the app on machine @id; its stderr must hold "<file>: @msg". */
static int
run_on(const char *id, const char *msg)
{
	char want[512];
	struct tc_run r;
	int status;

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--machine", id, "--", app, "avail",
					NULL });
	snprintf(want, sizeof(want), "kfdsim[");
	assert_non_null(strstr(r.err, want));
	snprintf(want, sizeof(want), "%s/kfdsim-%s: %s", shm, id, msg);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	status = r.status;
	tc_run_free(&r);
	return status;
}

/* Files that are not machines of this kfdsim: refused or reclaimed, said. */
static void
test_foreign_files(void **state)
{
	const char *garbage = tc_scratch_path(shm, "kfdsim-garbage");
	const char *held = tc_scratch_path(shm, "kfdsim-held");
	const char *link = tc_scratch_path(shm, "kfdsim-link");
	const char *dir = tc_scratch_path(shm, "kfdsim-dir");
	struct tc_run r;
	int fd;

	(void)state;
	/* wrong magic, nobody uses it: reclaimed, the run goes on */
	fd = open(garbage, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not a machine", 13), 13);
	close(fd);
	assert_int_equal(run_on("garbage", "not a kfdsim machine (13 bytes, no registry "
				"header), and no process uses it: removed"), 0);
	assert_int_equal(access(garbage, F_OK), -1);

	/* the same, but a live process holds it: refused */
	fd = open(held, O_CREAT | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "xx", 2), 2);
	assert_int_equal(flock(fd, LOCK_SH), 0);
	assert_int_not_equal(run_on("held", "not a kfdsim machine (2 bytes, no registry "
				    "header), and a live process uses it: refusing it"), 0);
	close(fd);
	assert_int_equal(unlink(held), 0);

	/* a symbolic link and a directory are never followed or removed */
	assert_int_equal(symlink("/tmp", link), 0);
	assert_int_not_equal(run_on("link", "a symbolic link, not a machine state file: "
				    "refusing it"), 0);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_not_equal(run_on("dir", "not a regular file: refusing it"), 0);
	assert_int_equal(rmdir(dir), 0);

	/* another profile's GPUs on one machine: the second process is refused */
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c",
			"\"$0\" hold 1 | { read x; KFDSIM_PROFILE=mi100 \"$0\" avail; }",
			app, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "the machine has another profile's GPUs"));
	assert_non_null(strstr(r.err, shm));
	tc_run_free(&r);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* --machine ID: separate runs share it; the last one out removes it. */
static void
test_named_machine(void **state)
{
	char line[64];
	long long held;
	struct tc_run r;
	int fd, status;
	pid_t pid;

	(void)state;
	pid = start((const char *[]){ kfdtrace, "sim", "--machine", "m1", "--", app, "hold", "64",
				      NULL }, &fd);
	read_line(fd, line, sizeof(line));
	held = avail_of(line);
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--machine", "m1", "--", app, "avail",
					NULL });
	assert_int_equal(r.status, 0);
	assert_true(avail_of(r.out) == held);
	assert_string_equal(r.err, "");
	tc_run_free(&r);
	/* the other run still uses it */
	assert_int_equal(count_machines(NULL, 0), 1);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(count_machines(NULL, 0), 0);

	/* a bad name is refused before anything runs */
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--machine", "../x", "--", "/bin/true",
					NULL });
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.err, "machine '../x'"));
	tc_run_free(&r);
}

/* A named machine whose every process has ended: reclaimed, said, afresh. */
static void
test_stale_named_machine(void **state)
{
	char preload[512], machine[] = "KFDSIM_MACHINE=plain", want[640];
	const char *const env[] = { preload, machine, NULL };
	const char *file = tc_scratch_path(shm, "kfdsim-plain");
	char line[64];
	struct tc_run r;
	int fd, status;
	pid_t pid;

	(void)state;
	/* without kfdtrace nobody removes the file: the first process made it */
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", preload_lib);
	run(&r, env, (const char *[]){ app, "avail", NULL });
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	tc_run_free(&r);
	assert_int_equal(access(file, F_OK), 0);
	run(&r, env, (const char *[]){ app, "avail", NULL });
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "%s: stale: every process of the machine (made by pid ",
		 file);
	assert_non_null(strstr(r.err, want));
	assert_non_null(strstr(r.err, "has ended: removed, starting the machine afresh\n"));
	tc_run_free(&r);
	assert_int_equal(unlink(file), 0);

	/* --machine ID of a run whose kfdtrace was killed: the next run's */
	pid = start((const char *[]){ kfdtrace, "sim", "--machine", "m2", "--", app, "hold", "1",
				      NULL }, &fd);
	read_line(fd, line, sizeof(line));
	avail_of(line);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(read(fd, line, sizeof(line)), 0);
	close(fd);
	assert_int_equal(count_machines(NULL, 0), 1);
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--machine", "m2", "--", app, "avail",
					NULL });
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "%s/kfdsim-m2: stale: every process of the machine "
		 "(made by pid %d) has ended: removed", shm, (int)pid);
	assert_non_null(strstr(r.err, want));
	tc_run_free(&r);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* Run the app on machine @id under timeout(1): a hang fails, not stalls. */
static void
run_bounded_on(struct tc_run *r, const char *id)
{
	const char *const argv[] = { kfdtrace, "sim", "--machine", id, "--", app, "avail", NULL };

	assert_int_equal(tc_run_bounded((char *const *)argv, NULL, 30, r), 0);
}

/* Write @word into the lock word of @file (byte 32, docs/kfdsim.md). */
static void
set_lock_word(const char *file, uint32_t word)
{
	int fd = open(file, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &word, sizeof(word), 32), (ssize_t)sizeof(word));
	close(fd);
}

/*
 * The registry lock of a live machine, overwritten (the simulated program
 * has the file mapped): a lock left by a thread that has ended is taken
 * over; a value that is no lock state is refused, naming the file; a
 * live holder that keeps it is given up on after 10 s; no process hangs.
 */
static void
test_lock_word(void **state)
{
	const char *file = tc_scratch_path(shm, "kfdsim-lk");
	char line[64], want[640];
	struct tc_run r;
	int fd, status;
	pid_t pid, dead;

	(void)state;
	pid = start((const char *[]){ kfdtrace, "sim", "--machine", "lk", "--", app, "hold", "1",
				      NULL }, &fd);
	read_line(fd, line, sizeof(line));
	avail_of(line);

	/* held by a thread that has ended */
	dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, &status, 0), dead);
	set_lock_word(file, (uint32_t)dead);
	run_bounded_on(&r, "lk");
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "%s: the registry lock's holder (thread %d) has ended: "
		 "taking the lock over", file, (int)dead);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	tc_run_free(&r);

	/* no lock state at all: refused, said, at once */
	set_lock_word(file, 0xdeadbeef);
	run_bounded_on(&r, "lk");
	assert_int_equal(r.status, 2);
	snprintf(want, sizeof(want), "%s: its lock word holds 0xdeadbeef, which is no lock "
		 "state (overwritten): refusing the machine", file);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	tc_run_free(&r);

	/* held by a live thread (this one) that never lets go: given up on
	 * after the deadline, not waited for */
	set_lock_word(file, (uint32_t)getpid());
	run_bounded_on(&r, "lk");
	assert_int_equal(r.status, 2);
	snprintf(want, sizeof(want), "%s: thread %d has held its lock for more than 10 s: "
		 "refusing the machine", file, (int)getpid());
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	tc_run_free(&r);

	/* put right, the holder ends as usual */
	set_lock_word(file, 0);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* A file locked exclusively for good (a stopped or hostile process): a
 * process opening the machine gives up after 10 s, saying so. */
static void
test_flock_held(void **state)
{
	char preload[512], machine[] = "KFDSIM_MACHINE=fx", want[640];
	const char *const env[] = { preload, machine, NULL };
	const char *const argv[] = { app, "avail", NULL };
	const char *file = tc_scratch_path(shm, "kfdsim-fx");
	struct tc_run r;
	int fd;

	(void)state;
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", preload_lib);
	run(&r, env, argv);
	assert_int_equal(r.status, 0);
	tc_run_free(&r);
	fd = open(file, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	assert_int_equal(tc_run_bounded((char *const *)argv, (char *const *)env, 30, &r), 0);
	snprintf(want, sizeof(want), "%s: locked exclusively by another process for more "
		 "than 10 s: refusing it", file);
	/* gone before any check, so that a failure here fails no other test */
	close(fd);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(r.status, 2);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	tc_run_free(&r);
}

/* Create @name in the scratch directory as user nobody. */
static void
create_as_nobody(const char *const *names, unsigned int n)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(1);
		for (unsigned int i = 0; i < n; i++) {
			int fd = open(tc_scratch_path(shm, names[i]),
				      O_CREAT | O_EXCL | O_WRONLY, 0644);

			if (fd < 0 && errno != EEXIST)
				_exit(2);
			close(fd);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

#define SQUAT_PIDS	500

/*
 * Another user creates, first, the names of the next runs' machines (the
 * old run-<pid>, run-<pid>-N): runs still start, on names nobody could
 * guess. A named machine another user's file holds is a true conflict:
 * refused, saying whose it is.
 */
static void
test_squatted_names(void **state)
{
	static char names[SQUAT_PIDS * 3][48];
	const char *ptrs[SQUAT_PIDS * 3];
	char id[80], want[640];
	unsigned int n = 0;
	struct tc_run r;
	pid_t self = getpid();

	(void)state;
	if (geteuid() != 0) {
		if (getenv("CI") && !strcmp(getenv("CI"), "true"))
			fail_msg("squatting needs another user: run as root (CI=true)");
		print_message("test_squatted_names: skipped, it needs root to create "
			      "files as another user\n");
		skip();
	}
	/* a shared directory, like /dev/shm: world-writable, sticky */
	assert_int_equal(chmod(shm, 01777), 0);
	for (int i = 1; i <= SQUAT_PIDS; i++) {
		snprintf(names[n++], sizeof(names[0]), "kfdsim-run-%d", (int)self + i);
		snprintf(names[n++], sizeof(names[0]), "kfdsim-run-%d-1", (int)self + i);
	}
	snprintf(names[n++], sizeof(names[0]), "kfdsim-sq");
	for (unsigned int i = 0; i < n; i++)
		ptrs[i] = names[i];
	create_as_nobody(ptrs, n);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c",
					"echo $KFDSIM_MACHINE", NULL });
	if (r.status)
		fail_msg("a run with its names squatted: exit %d: %s", r.status, r.err);
	assert_int_equal(sscanf(r.out, "%79s", id), 1);
	assert_int_equal(strncmp(id, "run-", 4), 0);
	/* run-<pid>-<16 hex digits> */
	assert_true(strlen(id) > 17);
	assert_int_equal(strspn(id + strlen(id) - 16, "0123456789abcdef"), 16);
	assert_int_equal(id[strlen(id) - 17], '-');
	assert_string_equal(r.err, "");
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--machine", "sq", "--", app, "avail",
					NULL });
	assert_int_not_equal(r.status, 0);
	snprintf(want, sizeof(want), "%s/kfdsim-sq: owned by uid 65534, not by this user "
		 "(uid 0): refusing it", shm);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	tc_run_free(&r);

	for (unsigned int i = 0; i < n; i++)
		unlink(tc_scratch_path(shm, names[i]));
	assert_int_equal(chmod(shm, 0700), 0);
	assert_int_equal(count_machines(NULL, 0), 0);
}

/* kfdtrace record --sim: the recorded pipeline is on one machine too. */
static void
test_record_one_machine(void **state)
{
	const char *out = tc_scratch_path(shm, "trace.kft");
	long long a, b;
	struct tc_run r;
	char *nl;

	(void)state;
	run(&r, NULL, (const char *[]){ kfdtrace, "record", "--sim", "-o", out, "--", "/bin/sh",
			"-c", "\"$0\" hold 64 | { read x; echo \"$x\"; \"$0\" avail; }", app,
			NULL });
	assert_int_equal(r.status, 0);
	a = avail_of(r.out);
	nl = strchr(r.out, '\n');
	assert_non_null(nl);
	b = avail_of(nl + 1);
	assert_true(a == b);
	/* both were recorded (the shell opened no device: no trace of it) */
	nl = strstr(r.err, "trace.kft.");
	assert_non_null(nl);
	assert_non_null(strstr(nl + 1, "trace.kft."));
	tc_run_free(&r);
	assert_int_equal(count_machines(NULL, 0), 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_machine_lifetime),
		cmocka_unit_test(test_processes_share),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_killed_run_reclaimed),
		cmocka_unit_test(test_foreign_files),
		cmocka_unit_test(test_named_machine),
		cmocka_unit_test(test_stale_named_machine),
		cmocka_unit_test(test_record_one_machine),
		cmocka_unit_test(test_lock_word),
		cmocka_unit_test(test_flock_held),
		cmocka_unit_test(test_squatted_names),
	};
	int r;

	if (argc != 4) {
		fprintf(stderr, "usage: %s KFDTRACE MACHINE_APP LIBKFDSIM\n", argv[0]);
		return 2;
	}
	kfdtrace = argv[1];
	app = argv[2];
	preload_lib = argv[3];
	if (!mkdtemp(shm))
		return 1;
	setenv("KFDSIM_SHM_DIR", shm, 1);
	unsetenv("KFDSIM_MACHINE");
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (tc_scratch_remove(shm, "KFDSIM_TEST_KEEP") && !r)
		r = 1;
	return r;
}
