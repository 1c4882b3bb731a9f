/* SPDX-License-Identifier: MIT */
/*
 * The overwrite rule every command that writes a file or a directory
 * shares (docs/cli.md, "Outputs"): --force replaces only what is a
 * regular file, or a CTF directory of ours; a device or FIFO is written
 * through or refused, never replaced; an output that is an input is
 * refused. Usage: test-cli-out KFDTRACE CLI-FORK-APP BT2-PLUGIN-DIR|-
 *
 * The device nodes are made with mknod in the scratch directory (as
 * root; CI=true makes not being root a failure), never taken from /dev.
 */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "cli_fixture.h"
#include "tc_run.h"

static const char *bt2_plugin_dir;	/* "-": built without babeltrace2 */

/* A dependency is missing: skip, except under CI, where it fails. */
static void
need(int have, const char *why)
{
	const char *ci = getenv("CI");

	if (have)
		return;
	if (ci && !strcmp(ci, "true"))
		fail_msg("%s (a failure when CI=true)", why);
	fprintf(stderr, "skipped: %s\n", why);
	skip();
}

/* @name in the scratch directory, copied into @buf. */
static char *
path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s", tmp_path(name));
	return buf;
}

static void
write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void
copy_sample(const char *to)
{
	struct tc_run res;

	assert_int_equal(tc_run((char *[]){ "cp", tmp_path("sample.kft"),
					    (char *)to, NULL }, &res), 0);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
}

/* @path holds the sample trace, byte for byte. */
static void
assert_sample(const char *path)
{
	struct tc_run res;

	assert_int_equal(tc_run((char *[]){ "cmp", tmp_path("sample.kft"),
					    (char *)path, NULL }, &res), 0);
	if (res.status)
		fail_msg("%s is no longer the input: %s", path, res.out);
	tc_run_free(&res);
}

static void
assert_exists(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		fail_msg("%s is gone", path);
}

/* Run kfdtrace with the NULL-terminated @args (at most 14). */
static void
run_args(char *const *args, struct tc_run *res)
{
	char *argv[16] = { (char *)kfdtrace_bin };
	size_t i;

	for (i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	assert_int_equal(tc_run(argv, res), 0);
}

/* Run kfdtrace; it must fail, with @msg (if any) on stderr. */
static void
refused(char *const *args, const char *msg)
{
	struct tc_run res;

	run_args(args, &res);
	if (res.status != 1 || (msg && !strstr(res.err, msg)))
		fail_msg("kfdtrace %s %s ...: status %d, stderr: %s", args[0],
			 args[1], res.status, res.err);
	tc_run_free(&res);
}

/*
 * export --ctf -f removes only a CTF export of ours: a home-like
 * directory, one that holds a CTF trace and a note, the working
 * directory and a plain file are refused and left as they were.
 */
static void
test_ctf_not_ours(void **state)
{
	char home[512], almost[512], cwd[512], old[4096], plain[512], p[600];
	char *in = tmp_path("sample.kft");

	(void)state;
	path_in(home, sizeof(home), "home");
	assert_int_equal(mkdir(home, 0700), 0);
	snprintf(p, sizeof(p), "%s/docs", home);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/docs/letter.txt", home);
	write_text(p, "dear\n");
	snprintf(p, sizeof(p), "%s/.ssh", home);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/.ssh/id", home);
	write_text(p, "key\n");
	refused((char *[]){ "export", "--ctf", home, "-f", in, NULL },
		"not one this command wrote");
	assert_exists(p);
	snprintf(p, sizeof(p), "%s/docs/letter.txt", home);
	assert_exists(p);

	/* A CTF trace's shape plus one file more is not ours. */
	path_in(almost, sizeof(almost), "almost");
	assert_int_equal(mkdir(almost, 0700), 0);
	snprintf(p, sizeof(p), "%s/metadata", almost);
	write_text(p, "/* CTF 1.8 */\n");
	snprintf(p, sizeof(p), "%s/thread-1", almost);
	write_text(p, "\xc1\x1f\xfc\xc1");
	snprintf(p, sizeof(p), "%s/notes.txt", almost);
	write_text(p, "mine\n");
	refused((char *[]){ "export", "--ctf", almost, "-f", in, NULL },
		"not one this command wrote");
	assert_exists(p);

	/* The working directory, with files and without. */
	path_in(cwd, sizeof(cwd), "cwd");
	assert_int_equal(mkdir(cwd, 0700), 0);
	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(cwd), 0);
	refused((char *[]){ "export", "--ctf", ".", "-f", in, NULL },
		"working directory");
	write_text("keep.txt", "mine\n");
	refused((char *[]){ "export", "--ctf", ".", "-f", in, NULL },
		"working directory");
	assert_exists("keep.txt");
	assert_int_equal(chdir(old), 0);

	/* A file is never replaced by a directory. */
	path_in(plain, sizeof(plain), "plain.txt");
	write_text(plain, "mine\n");
	refused((char *[]){ "export", "--ctf", plain, "-f", in, NULL },
		"not a directory");
	assert_exists(plain);
}

/* An earlier export --ctf, of a trace or of a run, is replaced with -f. */
static void
test_ctf_ours_replaced(void **state)
{
	char ctf[512], run[512], p[600];
	struct tc_run res;
	struct stat st;

	(void)state;
	need(strcmp(bt2_plugin_dir, "-") != 0, "built without babeltrace2");
	path_in(ctf, sizeof(ctf), "ctf-one");
	path_in(run, sizeof(run), "ctf-run-in");
	assert_int_equal(mkdir(run, 0700), 0);
	snprintf(p, sizeof(p), "%s/1.kfdtrace", run);
	copy_sample(p);
	snprintf(p, sizeof(p), "%s/2.kfdtrace", run);
	copy_sample(p);
	for (int pass = 0; pass < 2; pass++) {
		char *in = pass ? run : tmp_path("sample.kft");

		RUN(&res, "export", "--ctf", ctf, in);
		assert_int_equal(res.status, pass ? 1 : 0);
		tc_run_free(&res);
		RUN(&res, "export", "--ctf", ctf, "-f", in);
		assert_int_equal(res.status, 0);
		tc_run_free(&res);
		/* A run's export: a directory per process. */
		snprintf(p, sizeof(p), "%s/metadata", ctf);
		assert_int_equal(stat(p, &st) == 0, !pass);
	}
	RUN(&res, "export", "--ctf", ctf, "-f", tmp_path("sample.kft"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
}

/* One command of test_output_is_input() writing @out from @in. */
static void
refused_to_overwrite(const char *cmd, const char *in, const char *out)
{
	char *a = (char *)in, *o = (char *)out;

	if (!strcmp(cmd, "reduce"))
		refused((char *[]){ "reduce", a, "-o", o, "-f", NULL }, NULL);
	else if (!strcmp(cmd, "ctf"))
		refused((char *[]){ "export", "--ctf", o, "-f", a, NULL }, NULL);
	else if (!strcmp(cmd, "perfetto"))
		refused((char *[]){ "export", "--perfetto", o, "-f", a, NULL },
			NULL);
	else if (!strcmp(cmd, "emit-c"))
		refused((char *[]){ "emit-c", a, "-o", o, "-f", NULL }, NULL);
	else
		refused((char *[]){ "report", a, "-o", o, "-f", NULL }, NULL);
}

/*
 * An output that is the input is refused even with -f: the same name,
 * a symbolic link to it, a hard link, a trace of an input directory,
 * the directory itself; the input stays byte for byte.
 */
static void
test_output_is_input(void **state)
{
	static const char *const cmds[] = {
		"reduce", "ctf", "perfetto", "emit-c", "report",
	};
	char in[512], sym[512], hard[512], run[512], trace[600];
	struct stat st;

	(void)state;
	path_in(in, sizeof(in), "in.kft");
	path_in(sym, sizeof(sym), "in-sym.kft");
	path_in(hard, sizeof(hard), "in-hard.kft");
	copy_sample(in);
	assert_int_equal(symlink(in, sym), 0);
	assert_int_equal(link(in, hard), 0);
	path_in(run, sizeof(run), "run-in");
	assert_int_equal(mkdir(run, 0700), 0);
	snprintf(trace, sizeof(trace), "%s/1.kfdtrace", run);
	copy_sample(trace);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		refused_to_overwrite(cmds[i], in, in);
		refused_to_overwrite(cmds[i], in, sym);
		refused_to_overwrite(cmds[i], in, hard);
		refused_to_overwrite(cmds[i], run, trace);
		refused_to_overwrite(cmds[i], run, run);
		assert_sample(in);
		assert_sample(trace);
		assert_int_equal(lstat(sym, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		assert_int_equal(stat(hard, &st), 0);
		assert_int_equal(st.st_nlink, 2);
	}
	/* A CTF directory that holds the input is not removed. */
	refused((char *[]){ "export", "--ctf", run, "-f", trace, NULL },
		"holds the input");
	assert_sample(trace);
}

/* @path is still the character device @rdev. */
static void
assert_chr(const char *path, dev_t rdev)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	if (!S_ISCHR(st.st_mode) || st.st_rdev != rdev)
		fail_msg("%s is no longer the character device", path);
}

/* Run kfdtrace with @args; only what it leaves behind is checked. */
static void
run_any(char *const *args)
{
	struct tc_run res;

	run_args(args, &res);
	tc_run_free(&res);
}

/*
 * -f never replaces a device node: a stream is written through it, a
 * trace or a directory is refused. Nodes like /dev/null and /dev/full,
 * made in the scratch directory.
 */
static void
test_force_keeps_devices(void **state)
{
	char null[512], full[512], lnk[512];
	char *in = tmp_path("sample.kft");
	const dev_t null_rdev = makedev(1, 3), full_rdev = makedev(1, 7);
	struct tc_run res;
	struct stat st;

	(void)state;
	need(geteuid() == 0, "not root: cannot make device nodes");
	path_in(null, sizeof(null), "null");
	path_in(full, sizeof(full), "full");
	path_in(lnk, sizeof(lnk), "null-link");
	assert_int_equal(mknod(null, S_IFCHR | 0666, null_rdev), 0);
	assert_int_equal(mknod(full, S_IFCHR | 0666, full_rdev), 0);
	assert_int_equal(symlink(null, lnk), 0);
	for (int i = 0; i < 2; i++) {
		char *dev = i ? full : null;
		dev_t rdev = i ? full_rdev : null_rdev;

		refused((char *[]){ "record", "--sim", "-o", dev, "-f", "--",
				    "/bin/true", NULL }, "character device");
		assert_chr(dev, rdev);
		run_any((char *[]){ "report", in, "-o", dev, "-f", NULL });
		assert_chr(dev, rdev);
		run_any((char *[]){ "export", "--perfetto", dev, "-f", in,
				    NULL });
		assert_chr(dev, rdev);
		refused((char *[]){ "export", "--ctf", dev, "-f", in, NULL },
			"character device");
		assert_chr(dev, rdev);
		refused((char *[]){ "reduce", in, "-o", dev, "-f", NULL },
			"character device");
		assert_chr(dev, rdev);
		run_any((char *[]){ "emit-c", in, "-o", dev, "-f", NULL });
		assert_chr(dev, rdev);
	}
	/* Written through without -f too, and through a link. */
	RUN(&res, "report", in, "-o", null);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	RUN(&res, "report", in, "-o", lnk);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	assert_int_equal(lstat(lnk, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_chr(null, null_rdev);
	/* A write error on a device is an error. */
	RUN(&res, "report", in, "-o", full);
	assert_int_equal(res.status, 1);
	tc_run_free(&res);
	/* A block device is never written, with -f or without. */
	path_in(lnk, sizeof(lnk), "block");
	assert_int_equal(mknod(lnk, S_IFBLK | 0600, makedev(7, 0)), 0);
	refused((char *[]){ "report", in, "-o", lnk, "-f", NULL },
		"block device");
	assert_int_equal(lstat(lnk, &st), 0);
	assert_true(S_ISBLK(st.st_mode));
}

/* What a thread read from a FIFO while kfdtrace wrote into it. */
struct fifo_reader {
	int fd;
	atomic_int done;
	char buf[1 << 20];
	size_t len;
};

static void *
fifo_read(void *arg)
{
	struct fifo_reader *r = arg;

	for (;;) {
		int done = atomic_load(&r->done);
		ssize_t n = read(r->fd, r->buf + r->len,
				 sizeof(r->buf) - 1 - r->len);

		if (n > 0) {
			r->len += (size_t)n;
			continue;
		}
		/* No writer yet, or it has gone: done once kfdtrace has. */
		if (done || r->len == sizeof(r->buf) - 1)
			break;
		usleep(1000);
	}
	r->buf[r->len] = '\0';
	return NULL;
}

/* kfdtrace @args, writing into the FIFO @path; what came out. */
static struct fifo_reader *
run_into_fifo(const char *path, char *const *args, int *status)
{
	struct fifo_reader *r = calloc(1, sizeof(*r));
	struct tc_run res;
	pthread_t t;

	assert_non_null(r);
	/* Open before kfdtrace does, so that its open does not wait. */
	r->fd = open(path, O_RDONLY | O_NONBLOCK);
	assert_true(r->fd >= 0);
	assert_int_equal(pthread_create(&t, NULL, fifo_read, r), 0);
	run_args(args, &res);
	*status = res.status;
	tc_run_free(&res);
	atomic_store(&r->done, 1);
	assert_int_equal(pthread_join(t, NULL), 0);
	close(r->fd);
	return r;
}

/* A FIFO is written through (with or without -f) or refused for a trace. */
static void
test_fifo(void **state)
{
	char fifo[512];
	char *in = tmp_path("sample.kft");
	struct fifo_reader *r;
	struct stat st;
	int status;

	(void)state;
	path_in(fifo, sizeof(fifo), "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	r = run_into_fifo(fifo, (char *[]){ "report", in, "-o", fifo, NULL },
			  &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(r->buf, "<!DOCTYPE html>"));
	free(r);
	r = run_into_fifo(fifo, (char *[]){ "emit-c", in, "-o", fifo, "-f",
					    NULL }, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(r->buf, "#include"));
	free(r);
	refused((char *[]){ "record", "--sim", "-o", fifo, "-f", "--",
			    "/bin/true", NULL }, "FIFO");
	refused((char *[]){ "reduce", in, "-o", fifo, "-f", NULL }, "FIFO");
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

/* A directory is never replaced by a file, nor a file by a directory. */
static void
test_dir_vs_file(void **state)
{
	char dir[512], plain[512], slash[600], p[600];
	char *in = tmp_path("sample.kft");
	struct stat st;

	(void)state;
	path_in(dir, sizeof(dir), "a-dir");
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(p, sizeof(p), "%s/mine.txt", dir);
	write_text(p, "mine\n");
	refused((char *[]){ "report", in, "-o", dir, "-f", NULL },
		"is a directory");
	refused((char *[]){ "export", "--perfetto", dir, "-f", in, NULL },
		"is a directory");
	refused((char *[]){ "emit-c", in, "-o", dir, "-f", NULL },
		"is a directory");
	refused((char *[]){ "reduce", in, "-o", dir, "-f", NULL },
		"is a directory");
	assert_exists(p);
	path_in(plain, sizeof(plain), "a-file");
	write_text(plain, "mine\n");
	snprintf(slash, sizeof(slash), "%s/", plain);
	refused((char *[]){ "record", "--sim", "-o", slash, "-f", "--",
			    "/bin/true", NULL }, "Not a directory");
	assert_int_equal(stat(plain, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 5);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctf_not_ours),
		cmocka_unit_test(test_ctf_ours_replaced),
		cmocka_unit_test(test_output_is_input),
		cmocka_unit_test(test_force_keeps_devices),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_dir_vs_file),
	};

	if (argc < 4) {
		fprintf(stderr, "usage: %s KFDTRACE CLI-FORK-APP "
			"BT2-PLUGIN-DIR|-\n", argv[0]);
		return 2;
	}
	if (cli_args(argc, argv))
		return 2;
	/* A test runs kfdtrace from another working directory too. */
	kfdtrace_bin = realpath(argv[1], NULL);
	if (!kfdtrace_bin) {
		perror(argv[1]);
		return 2;
	}
	bt2_plugin_dir = argv[3];
	return cmocka_run_group_tests(tests, setup, teardown);
}
