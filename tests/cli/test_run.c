/* SPDX-License-Identifier: MIT */
/*
 * A run as a unit, and the habits every command shares:
 *
 *   - record -o DIR/ and -o FILE name a run's files so that they belong
 *     together (DIR/<pid>.kfdtrace, STEM.<pid>.kfdtrace);
 *   - an earlier run's files are refused before the program runs, and
 *     -f/--force replaces them;
 *   - info, stats, dump, diff and replay take the run (a directory or
 *     its files) and show its process tree, per-process and whole-run
 *     figures, time-merged records; --json on info, diff and replay;
 *   - every message starts "kfdtrace CMD:"; progress appears on a
 *     terminal (KFDTRACE_PROGRESS=1 stands in for one).
 *
 *   test-run KFDTRACE CLI-FORK-APP BT2-PLUGIN-DIR|-
 *
 * The run is cli-fork-app's on kfdsim: a root that forks a child and then
 * execs itself, three traces in all.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static const char *kfdtrace_bin;
static const char *fork_app_bin;
static const char *bt2_plugin_dir;	/* "-": built without babeltrace2 */
static char tmpdir[] = "/tmp/kfdtrace-run-XXXXXX";
static char rundir[300];		/* the run of the first test */
static int root_pid, child_pid;

#define RUN(res, ...)							\
	do {								\
		char *argv_[] = { (char *)kfdtrace_bin, __VA_ARGS__, NULL }; \
		assert_int_equal(tc_run(argv_, (res)), 0);		\
	} while (0)

static char *
tmp_path(const char *name)
{
	return tc_scratch_path(tmpdir, name);
}

/* The names in @dir ending in .kfdtrace, counted, the first few kept. */
static int
list_traces(const char *dir, char names[][64], int max)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 9 && !strcmp(de->d_name + len - 9, ".kfdtrace")) {
			if (n < max)
				snprintf(names[n], 64, "%s", de->d_name);
			n++;
		}
	}
	closedir(d);
	return n;
}

static int
has_name(char names[][64], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* record -o DIR/: every process's trace in DIR, named by pid. */
static void
test_record_dir(void **state)
{
	char names[8][64], want[64], ran[300], cmd[700];
	struct tc_run res;
	const char *p;
	int n;

	(void)state;
	snprintf(rundir, sizeof(rundir), "%s/", tmp_path("run"));
	RUN(&res, "record", "--sim", "-o", rundir, "--", (char *)fork_app_bin,
	    "exec");
	assert_int_equal(res.status, 0);
	p = strstr(res.out, "child ");
	assert_non_null(p);
	child_pid = atoi(p + 6);
	tc_run_free(&res);
	n = list_traces(rundir, names, 8);
	assert_int_equal(n, 3);
	snprintf(want, sizeof(want), "%d.kfdtrace", child_pid);
	assert_true(has_name(names, n, want));
	for (int i = 0; i < n; i++)
		if (strstr(names[i], ".exec1.kfdtrace"))
			root_pid = atoi(names[i]);
	assert_true(root_pid > 0);
	snprintf(want, sizeof(want), "%d.kfdtrace", root_pid);
	assert_true(has_name(names, n, want));

	/* Again into the same directory: refused before the program runs. */
	snprintf(ran, sizeof(ran), "%s", tmp_path("ran"));
	snprintf(cmd, sizeof(cmd), "touch %s", ran);
	RUN(&res, "record", "--sim", "-o", rundir, "--", "/bin/sh", "-c", cmd);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "kfdtrace record: "));
	assert_non_null(strstr(res.err, "3 traces of an earlier run exist"));
	assert_int_equal(access(ran, F_OK), -1);
	tc_run_free(&res);
}

/* record -o FILE: children beside it as STEM.<pid>.kfdtrace; -f replaces. */
static void
test_record_file_names(void **state)
{
	char out[300], want[64], names[8][64];
	struct tc_run res;
	const char *p;
	int n, pid;

	(void)state;
	assert_int_equal(mkdir(tmp_path("named"), 0700), 0);
	snprintf(out, sizeof(out), "%s", tmp_path("named/app.kfdtrace"));
	for (int round = 0; round < 2; round++) {
		/* The second round replaces the first's three files. */
		if (round)
			RUN(&res, "record", "--sim", "-f", "-o", out, "--",
			    (char *)fork_app_bin, "exec");
		else
			RUN(&res, "record", "--sim", "-o", out, "--",
			    (char *)fork_app_bin, "exec");
		assert_int_equal(res.status, 0);
		p = strstr(res.out, "child ");
		assert_non_null(p);
		pid = atoi(p + 6);
		tc_run_free(&res);
		n = list_traces(tmp_path("named"), names, 8);
		assert_int_equal(n, 3);
		assert_true(has_name(names, n, "app.kfdtrace"));
		assert_true(has_name(names, n, "app.exec1.kfdtrace"));
		snprintf(want, sizeof(want), "app.%d.kfdtrace", pid);
		assert_true(has_name(names, n, want));
	}
	RUN(&res, "record", "--sim", "-o", out, "--", "/bin/true");
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "use -f/--force"));
	tc_run_free(&res);
}

/* info DIR: each file, then the tree: the child and the exec'd image
 * under the root. */
static void
test_info_run(void **state)
{
	char line[128];
	struct tc_run res;

	(void)state;
	RUN(&res, "info", rundir);
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_str(res.out, "file:       "), 3);
	assert_non_null(strstr(res.out, "run:        3 processes\n"));
	snprintf(line, sizeof(line), "\n  cli-fork-app[%d]  ppid ", root_pid);
	assert_non_null(strstr(res.out, line));
	snprintf(line, sizeof(line), "\n    cli-fork-app[%d]  ppid %d,",
		 child_pid, root_pid);
	assert_non_null(strstr(res.out, line));
	tc_run_free(&res);

	RUN(&res, "info", "--json", rundir);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out[0], '{');
	assert_non_null(strstr(res.out, "\"processes\":["));
	assert_non_null(strstr(res.out, "\"run\":{\"processes\":3,\"hosts\":1,"));
	assert_int_equal(tc_count_str(res.out, "\"integrity\":\"ok\""), 3);
	assert_int_equal(tc_count_str(res.out, "\"depth\":1"), 2);
	tc_run_free(&res);
}

/* The number after @key in @s. */
static long
num_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	assert_non_null(p);
	return strtol(p + strlen(key), NULL, 10);
}

/* stats DIR: three process sections, and a run total that is their sum. */
static void
test_stats_run(void **state)
{
	struct tc_run res;
	const char *p;
	long sum = 0;

	(void)state;
	RUN(&res, "stats", rundir);
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_str(res.out, "== process cli-fork-app["), 3);
	for (p = res.out; (p = strstr(p, "== process ")); p++)
		sum += num_after(p, "ioctls: ");
	p = strstr(res.out, "== run: 3 processes");
	assert_non_null(p);
	assert_true(sum >= 3);
	assert_int_equal(num_after(p, "ioctls: "), sum);
	assert_non_null(strstr(p, "GET_VERSION"));
	assert_non_null(strstr(p, "\nprocesses:\n"));
	tc_run_free(&res);

	RUN(&res, "stats", "--json", rundir);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "{\"processes\":[{\"label\":"));
	assert_non_null(strstr(res.out, "\"run\":{\"processes\":3,\"stats\":{"));
	tc_run_free(&res);
}

/* dump DIR: every record once, each line led by its pid, time order. */
static void
test_dump_run(void **state)
{
	struct tc_run all, one;
	char pid[32], *line, *save = NULL;
	double last = -1;
	size_t lines = 0;

	(void)state;
	RUN(&all, "dump", rundir);
	assert_int_equal(all.status, 0);
	for (line = strtok_r(all.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *t = strstr(line, "] +");
		double v;

		assert_true(atoi(line) == root_pid || atoi(line) == child_pid);
		assert_non_null(t);
		v = strtod(t + 3, NULL);
		assert_true(v >= last);
		last = v;
		lines++;
	}
	tc_run_free(&all);

	/* --pid: just the child's, as many as its file alone has. */
	snprintf(pid, sizeof(pid), "%d", child_pid);
	RUN(&all, "dump", rundir, "--pid", pid);
	assert_int_equal(all.status, 0);
	{
		char path[400];

		snprintf(path, sizeof(path), "%s%d.kfdtrace", rundir, child_pid);
		RUN(&one, "dump", path);
	}
	assert_int_equal(one.status, 0);
	assert_true(tc_count_lines(one.out) > 0);
	assert_int_equal(tc_count_lines(all.out), tc_count_lines(one.out));
	assert_true(lines > tc_count_lines(one.out));
	save = NULL;
	for (line = strtok_r(all.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		assert_int_equal(atoi(line), child_pid);
	tc_run_free(&all);
	tc_run_free(&one);

	RUN(&all, "dump", "--json", rundir, "--filter", "GET_VERSION");
	assert_int_equal(all.status, 0);
	assert_int_equal(tc_count_str(all.out, "{\"pid\":"), 3);
	tc_run_free(&all);
}

/* diff of two runs: paired process by process; a missing one differs. */
static void
test_diff_run(void **state)
{
	char copy[300], cmd[800], gone[400];
	struct tc_run res;

	(void)state;
	snprintf(copy, sizeof(copy), "%s", tmp_path("copy"));
	snprintf(cmd, sizeof(cmd), "cp -r %s %s", rundir, copy);
	assert_int_equal(system(cmd), 0);
	RUN(&res, "diff", rundir, copy);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "run: 3 process pairs compared, 0 "
				"without a partner: equal"));
	tc_run_free(&res);

	snprintf(gone, sizeof(gone), "%s/%d.kfdtrace", copy, child_pid);
	assert_int_equal(unlink(gone), 0);
	RUN(&res, "diff", "--json", rundir, copy);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.out, "\"result\":\"different\""));
	assert_non_null(strstr(res.out, "\"only_a\":[\""));
	assert_non_null(strstr(res.out, "\"only_b\":[]"));
	assert_int_equal(tc_count_str(res.out, "\"result\":\"equal\""), 2);
	tc_run_free(&res);
}

/* export --ctf of a run: one CTF trace per process, under one directory. */
static void
test_export_ctf_run(void **state)
{
	char ctf[300], sub[400], want[64];
	struct tc_run res;
	struct stat st;

	(void)state;
	snprintf(ctf, sizeof(ctf), "%s", tmp_path("ctf"));
	RUN(&res, "export", "--ctf", ctf, rundir);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	/* EXE-FILE: an exec'd image has a directory of its own. */
	snprintf(sub, sizeof(sub), "%s/cli-fork-app-%d/metadata", ctf,
		 child_pid);
	assert_int_equal(stat(sub, &st), 0);
	snprintf(sub, sizeof(sub), "%s/cli-fork-app-%d.exec1/metadata", ctf,
		 root_pid);
	assert_int_equal(stat(sub, &st), 0);
	/* Again: refused, then replaced with -f. */
	RUN(&res, "export", "--ctf", ctf, rundir);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "kfdtrace export: "));
	assert_non_null(strstr(res.err, "use -f/--force"));
	tc_run_free(&res);
	RUN(&res, "export", "-f", "--ctf", ctf, rundir);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	{
		char *argv[] = { "babeltrace2", ctf, NULL };

		assert_int_equal(tc_run(argv, &res), 0);
	}
	assert_int_equal(res.status, 0);
	snprintf(want, sizeof(want), "pid = %d", child_pid);
	assert_non_null(strstr(res.out, want));
	snprintf(want, sizeof(want), "pid = %d", root_pid);
	assert_non_null(strstr(res.out, want));
	tc_run_free(&res);

	/* babeltrace2 reads the run's directory itself, with our plugin. */
	if (strcmp(bt2_plugin_dir, "-")) {
		char opt[400];
		char *argv[] = { "babeltrace2", opt, rundir, NULL };
		size_t ctf_lines;

		assert_int_equal(tc_run((char *[]){ "babeltrace2", ctf, NULL },
					&res), 0);
		/* The export adds an entry event per call (begin-events). */
		ctf_lines = tc_count_lines(res.out) -
			    tc_count_str(res.out, " kfd:call_begin: ");
		assert_true(tc_count_str(res.out, " kfd:call_begin: ") > 0);
		tc_run_free(&res);
		snprintf(opt, sizeof(opt), "--plugin-path=%s", bt2_plugin_dir);
		assert_int_equal(tc_run(argv, &res), 0);
		assert_int_equal(res.status, 0);
		assert_int_equal(tc_count_lines(res.out), ctf_lines);
		snprintf(want, sizeof(want), "pid = %d }", child_pid);
		assert_non_null(strstr(res.out, want));
		tc_run_free(&res);
	}
}

/* A job's hosts, one subdirectory each: one run, processes by host. */
static void
test_hosts(void **state)
{
	char cmd[1200], label[96];
	struct tc_run res;

	(void)state;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp -r %s %s/node-a && "
		 "cp -r %s %s/node-b", tmp_path("job"), rundir,
		 tmp_path("job"), rundir, tmp_path("job"));
	assert_int_equal(system(cmd), 0);
	RUN(&res, "info", tmp_path("job"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "run:        6 processes on 2 hosts\n"));
	snprintf(label, sizeof(label), "\n  node-a:cli-fork-app[%d]", root_pid);
	assert_non_null(strstr(res.out, label));
	snprintf(label, sizeof(label), "\n    node-b:cli-fork-app[%d]",
		 child_pid);
	assert_non_null(strstr(res.out, label));
	tc_run_free(&res);
	RUN(&res, "stats", tmp_path("job"));
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_str(res.out, "== process node-"), 6);
	assert_non_null(strstr(res.out, "== run: 6 processes on 2 hosts"));
	tc_run_free(&res);
}

/* replay DIR --json: the verdict on stdout, the report on stderr. */
static void
test_replay_run(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "replay", "--sim", "--json", rundir);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out[0], '{');
	assert_int_equal(tc_count_lines(res.out), 1);
	assert_non_null(strstr(res.out, "\"verdict\":\"match\""));
	assert_int_equal(tc_count_str(res.out, ".kfdtrace\""), 3);
	assert_non_null(strstr(res.err, "3 processes"));
	tc_run_free(&res);
}

/* One prefix, and outputs that exist refused before any work. */
static void
test_habits(void **state)
{
	static const char *const cmds[] = { "info", "dump", "stats", "report" };
	char old[300], buf[8] = "";
	struct tc_run res;
	FILE *f;

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char want[64];

		RUN(&res, (char *)cmds[i], tmp_path("no-such.kfdtrace"));
		assert_int_equal(res.status, 1);
		snprintf(want, sizeof(want), "kfdtrace %s: ", cmds[i]);
		assert_memory_equal(res.err, want, strlen(want));
		tc_run_free(&res);
	}
	snprintf(old, sizeof(old), "%s", tmp_path("old.kfdtrace"));
	f = fopen(old, "w");
	assert_non_null(f);
	fputs("mine", f);
	fclose(f);
	RUN(&res, "reduce", rundir, "-o", old);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "kfdtrace reduce: "));
	assert_non_null(strstr(res.err, "exists (use -f/--force"));
	tc_run_free(&res);
	f = fopen(old, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, 4, f), 4);
	fclose(f);
	assert_string_equal(buf, "mine");
}

/* Run kfdtrace @args with progress forced on; fail unless it said @line. */
static void
expect_progress(const char *const *args, const char *line)
{
	char *env_on[] = { "KFDTRACE_PROGRESS=1", "KFDTRACE_PROGRESS_EVERY=1",
			   NULL };
	char *argv[16] = { (char *)kfdtrace_bin };
	struct tc_run res;
	int n = 1;

	while (*args && n < 15)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	assert_int_equal(tc_run_env(argv, env_on, 0, &res), 0);
	if (res.status != 0 || !strstr(res.err, line)) {
		fputs(res.err, stderr);
		fail_msg("kfdtrace %s: status %d, no \"%s\" above", argv[1],
			 res.status, line + 1);
	}
	tc_run_free(&res);
}

/* A long command shows progress where a terminal would see it. */
static void
test_progress(void **state)
{
	char *argv[] = { (char *)kfdtrace_bin, "stats", rundir, NULL };
	char *env_off[] = { "KFDTRACE_PROGRESS=0", "KFDTRACE_PROGRESS_EVERY=1",
			    NULL };
	char root[400], out[400];
	struct tc_run res;

	(void)state;
	snprintf(root, sizeof(root), "%s%d.kfdtrace", rundir, child_pid);
	expect_progress((const char *[]){ "stats", rundir, NULL },
			"\rkfdtrace stats: cli-fork-app[");
	expect_progress((const char *[]){ "dump", rundir, NULL },
			"\rkfdtrace dump: records read: ");
	expect_progress((const char *[]){ "replay", "--sim", root, NULL },
			"\rkfdtrace replay: records replayed: ");
	expect_progress((const char *[]){ "replay", "--sim", "--threads",
					  root, NULL },
			"\rkfdtrace replay: records replayed: ");
	snprintf(out, sizeof(out), "%s", tmp_path("progress.pftrace"));
	expect_progress((const char *[]){ "export", "--perfetto", out, "-f",
					  rundir, NULL },
			"\rkfdtrace export: cli-fork-app[");
	if (strcmp(bt2_plugin_dir, "-")) {
		snprintf(out, sizeof(out), "%s", tmp_path("progress-ctf"));
		expect_progress((const char *[]){ "export", "--ctf", out,
						  root, NULL },
				"\rkfdtrace export: CTF events written: ");
	}
	snprintf(out, sizeof(out), "%s", tmp_path("progress.html"));
	expect_progress((const char *[]){ "report", "-o", out, "-f", rundir,
					  NULL },
			"\rkfdtrace report: cli-fork-app[");
	snprintf(out, sizeof(out), "%s", tmp_path("progress-red.kft"));
	expect_progress((const char *[]){ "reduce", root, "-o", out, "-f",
					  "--target", "4", "--predicate",
					  "true", NULL },
			"\rkfdtrace reduce: records kept: ");
	/* Not a terminal (the test's pipe), or turned off: silent. */
	assert_int_equal(tc_run_env(argv, env_off, 0, &res), 0);
	assert_string_equal(res.err, "");
	tc_run_free(&res);
	argv[2] = rundir;
	assert_int_equal(tc_run(argv, &res), 0);
	assert_string_equal(res.err, "");
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_dir),
		cmocka_unit_test(test_record_file_names),
		cmocka_unit_test(test_info_run),
		cmocka_unit_test(test_stats_run),
		cmocka_unit_test(test_dump_run),
		cmocka_unit_test(test_diff_run),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_export_ctf_run),
		cmocka_unit_test(test_replay_run),
		cmocka_unit_test(test_habits),
		cmocka_unit_test(test_progress),
	};
	int rc;

	if (argc < 4) {
		fprintf(stderr, "usage: %s KFDTRACE CLI-FORK-APP BT2-PLUGIN-DIR|-\n",
			argv[0]);
		return 2;
	}
	kfdtrace_bin = argv[1];
	fork_app_bin = argv[2];
	bt2_plugin_dir = argc > 3 ? argv[3] : "-";
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tc_scratch_remove(tmpdir, "KFDTRACE_KEEP_TMP");
	return rc;
}
