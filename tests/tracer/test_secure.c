/* SPDX-License-Identifier: MIT */
/*
 * The capture library refuses to run in a secure-execution (AT_SECURE)
 * process: a setuid program must not write files chosen by whoever set
 * its environment.
 *
 * ld.so ignores LD_PRELOAD entries with a slash in such a process, so the
 * refusal is reached another way: kt_secure loads the library by absolute
 * path with dlopen(). As root, a copy of it is made setuid to nobody in a
 * temporary directory; run by root it has euid != ruid, so the kernel sets
 * AT_SECURE. Three runs of the same program, with the same environment:
 *
 *   setuid copy, run by root	AT_SECURE=1: no trace file
 *   plain copy, run by root	AT_SECURE=0: a trace file
 *   plain copy, run by nobody	AT_SECURE=0: a trace file, which shows that
 *				nobody could have created one in the setuid run
 *
 * Needs root and a temporary directory on a filesystem mounted without
 * nosuid; otherwise it says why and exits 77 (skipped).
 *
 * Paths: KT_SECURE (the program) and KFDTRACE_CAPTURE_LIB.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tc_scratch.h"
#include "tt_trace.h"

static char *dir;		/* 0755, root's */
static char *outdir;		/* nobody's: where every run may write */
static uid_t nobody_uid;
static gid_t nobody_gid;

/*
 * Run @prog LIB with only KFDTRACE_OUTPUT=@out in its environment, as
 * nobody when @as_nobody. Its first line of output goes to @line.
 * Return: the wait status.
 */
static int
run(const char *prog, const char *lib, const char *out, int as_nobody,
    char *line, size_t size)
{
	char *env[2] = { NULL, NULL };
	int pfd[2], status = -1;
	ssize_t got;
	pid_t pid;

	if (asprintf(&env[0], "KFDTRACE_OUTPUT=%s", out) < 0 || pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)prog, (char *)lib, NULL };

		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		if (as_nobody && (setgroups(0, NULL) || setgid(nobody_gid) ||
				  setuid(nobody_uid)))
			_exit(126);
		execve(prog, argv, env);
		_exit(127);
	}
	close(pfd[1]);
	got = pid > 0 ? read(pfd[0], line, size - 1) : -1;
	line[got > 0 ? got : 0] = '\0';
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	free(env[0]);
	return status;
}

/* Whether any file whose name starts with @base's last component exists. */
static int
trace_exists(const char *base)
{
	char *p;
	struct stat st;
	int found = 0;

	/* The library's names: OUT, or OUT.<i>.kfdtrace when OUT exists. */
	if (lstat(base, &st) == 0)
		return 1;
	for (int i = 1; i < 4 && !found; i++) {
		if (asprintf(&p, "%s.%d.kfdtrace", base, i) < 0)
			return 1;
		found = lstat(p, &st) == 0;
		free(p);
	}
	return found;
}

/*
 * Run @prog as run() does: it must exit 0, its first line start with
 * @prefix, and a trace exist at @out exactly when @want_trace.
 */
static void
expect_run(const char *prog, const char *lib, const char *out, int as_nobody,
	   const char *prefix, int want_trace)
{
	char line[256];
	int status = run(prog, lib, out, as_nobody, line, sizeof(line));

	print_message("%s%s: %s", strrchr(prog, '/') + 1,
		      as_nobody ? " as nobody" : "", line);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_memory_equal(line, prefix, strlen(prefix));
	if (want_trace)
		assert_true(trace_exists(out));
	else
		assert_false(trace_exists(out));
}

static void
test_refuses_setuid(void **state)
{
	const char *prog = getenv("KT_SECURE");
	const char *lib_src = getenv("KFDTRACE_CAPTURE_LIB");
	char *suid = tt_path(dir, "kt_secure_suid");
	char *plain = tt_path(dir, "kt_secure");
	char *lib = tt_path(dir, "libkfdtrace-capture.so");
	char *out_suid = tt_path(outdir, "suid.kfdtrace");
	char *out_root = tt_path(outdir, "root.kfdtrace");
	char *out_nobody = tt_path(outdir, "nobody.kfdtrace");
	char expect[64];
	struct stat st;

	(void)state;
	assert_int_equal(tt_copy_file(prog, plain, 0755), 0);
	assert_int_equal(tt_copy_file(prog, suid, 0755), 0);
	assert_int_equal(tt_copy_file(lib_src, lib, 0644), 0);
	assert_int_equal(chown(suid, nobody_uid, nobody_gid), 0);
	/* After chown, which clears the set-user-ID bit. */
	assert_int_equal(chmod(suid, 04755), 0);
	assert_int_equal(stat(suid, &st), 0);
	assert_true(st.st_mode & S_ISUID);

	/* Setuid: the kernel marks it secure, and the library stays idle. */
	snprintf(expect, sizeof(expect), "secure=1 ruid=0 euid=%d",
		 (int)nobody_uid);
	expect_run(suid, lib, out_suid, 0, expect, 0);
	/* The same program, not setuid: the library records. */
	expect_run(plain, lib, out_root, 0, "secure=0 ruid=0 euid=0", 1);
	/* And as nobody, who could have written the setuid run's trace. */
	expect_run(plain, lib, out_nobody, 1, "secure=0", 1);
	{
		struct tt_trace t;

		assert_int_equal(tt_trace_load(out_nobody, &t), 0);
		assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
		assert_int_equal(t.hdr.pid > 0, 1);
		assert_true(tt_count(&t, KT_REC_OPEN) >= 1);
		tt_trace_free(&t);
	}

	free(suid);
	free(plain);
	free(lib);
	free(out_suid);
	free(out_root);
	free(out_nobody);
}

/* Why the test cannot run here, or NULL. */
static const char *
cannot_run(void)
{
	const char *prog = getenv("KT_SECURE");
	const char *lib = getenv("KFDTRACE_CAPTURE_LIB");
	struct passwd *pw;
	struct statvfs sv;

	if (!prog || access(prog, X_OK) || !lib || access(lib, R_OK))
		return "kt_secure or the capture library is not built";
	if (geteuid() != 0)
		return "not root: cannot make a setuid copy";
	pw = getpwnam("nobody");
	nobody_uid = pw ? pw->pw_uid : 65534;
	nobody_gid = pw ? pw->pw_gid : 65534;
	dir = tt_tmpdir();
	if (!dir)
		return "cannot make a temporary directory";
	if (statvfs(dir, &sv) == 0 && (sv.f_flag & ST_NOSUID))
		return "the temporary directory's filesystem is mounted nosuid";
	outdir = tt_path(dir, "out");
	if (chmod(dir, 0755) || mkdir(outdir, 0755) ||
	    chown(outdir, nobody_uid, nobody_gid))
		return "cannot set up the temporary directory";
	return NULL;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refuses_setuid),
	};
	const char *why = cannot_run();
	int ret;

	if (why) {
		printf("SKIP: secure-execution test: %s\n", why);
		if (dir)
			tc_scratch_remove(dir, NULL);
		return 77;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	tc_scratch_remove(dir, NULL);
	free(outdir);
	free(dir);
	return ret;
}
