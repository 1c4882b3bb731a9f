/* SPDX-License-Identifier: MIT */
/*
 * No input makes a tool unbounded (docs/trace-format.md, "Bounds"): hostile
 * traces written here with the real writer, each fed to the built kfdtrace
 * run as a child, whose peak memory (wait4's ru_maxrss), exit and output
 * are checked.
 *
 *   held	records of 15 MiB that arrive early (their seq waits for one
 *		that comes last): dump, stats and replay hold at most their
 *		byte budget of them, warn, and still print every record
 *   execs	exec records of 1 MiB of argv (a million empty arguments, or
 *		one argument of a million bytes): dump and the CTF export
 *		keep a bounded part of each with a marker stating the
 *		original size
 *   bufs	ioctls whose indirect buffer is 15 MiB: the CTF export cuts
 *		each buffer field and says so
 *   threads	2,000 threads, one stream each: the CTF export succeeds with
 *		the normal fd limit and with a low one (threads share a
 *		stream), and fails with a clear message when no fd is left;
 *		never a signal
 *
 * Usage: test-bounds KFDTRACE BABELTRACE2 (BABELTRACE2 may be "" when the
 * build has no CTF export: those tests then check the refusal only).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "tc_rec.h"
#include "tc_scratch.h"
#include "tc_skip.h"

static const char *kfdtrace, *babeltrace2;
static char dir[] = "/tmp/kfdtrace-bounds-XXXXXX";

#define MiB (1024.0 * 1024.0)
/* The reorder windows' byte budget (CLI_REORDER_BYTES, RP_REORDER_BYTES). */
#define BUDGET (256.0 * MiB)

/* What a child run left. */
struct child {
	int status;		/* exit status, or -1 when killed */
	int signal;		/* the signal that killed it, or 0 */
	double maxrss;		/* peak resident bytes */
	double secs;
};

/*
 * Run @argv with stdout and stderr into files of the scratch directory
 * (@tag.out, @tag.err); @nofile > 0 sets RLIMIT_NOFILE (soft and hard) in
 * the child first.
 */
static void
run(struct child *c, const char *tag, long nofile, char *const argv[])
{
	char out[256], err[256];
	struct timespec t0, t1;
	struct rusage ru;
	int st;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/%s.out", dir, tag);
	snprintf(err, sizeof(err), "%s/%s.err", dir, tag);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		close(o);
		close(e);
		if (nofile > 0) {
			struct rlimit rl = { (rlim_t)nofile, (rlim_t)nofile };

			if (setrlimit(RLIMIT_NOFILE, &rl))
				_exit(126);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	c->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	c->maxrss = (double)ru.ru_maxrss * 1024.0;
	c->secs = (double)(t1.tv_sec - t0.tv_sec) +
		  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr, "  %-22s exit %d signal %d, %.1f MiB peak, %.2f s\n",
		tag, c->status, c->signal, c->maxrss / MiB, c->secs);
}

/* The text of scratch file @name (NUL-terminated; free it). */
static char *
slurp(const char *name)
{
	FILE *f = fopen(tc_scratch_path(dir, name), "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	assert_non_null(f);
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Bytes of every file below @path. */
static double
tree_bytes(const char *path)
{
	char cmd[512];
	double kb = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "du -sk '%s'", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%lf", &kb), 1);
	pclose(p);
	return kb * 1024.0;
}

/* ---- writing hostile traces ---- */

static struct kt_writer *
open_trace(const char *name)
{
	struct kt_header hdr;
	struct kt_writer *w;

	kt_header_init(&hdr, "test-bounds");
	/* The records' times start at 1 ms, not at the machine's uptime. */
	hdr.start_monotonic = 1000000;
	hdr.flags |= KT_HDR_SIMULATED;
	assert_int_equal(kt_writer_open(tc_scratch_path(dir, name), &hdr, NULL,
					&w), 0);
	return w;
}

static void
append(struct kt_writer *w, struct kt_record *r, uint64_t seq, uint32_t tid)
{
	r->seq = seq;
	r->tid = tid;
	r->ts = 1000000 + seq * 1000;
	if (r->type == KT_REC_IOCTL)
		r->u.ioctl.t_exit = r->ts + 500;
	assert_int_equal(kt_writer_append(w, r), 0);
}

static void
annotation(struct kt_writer *w, uint64_t seq, uint32_t tid)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_ANNOTATION;
	r.u.annotation.text = "bounds";
	append(w, &r, seq, tid);
}

/* GET_PROCESS_APERTURES_NEW whose apertures buffer holds @len zero bytes. */
static void
big_ioctl(struct kt_writer *w, uint64_t seq, uint32_t tid, const uint8_t *zeros,
	  uint32_t len)
{
	struct kfd_abi_get_process_apertures_new_args a = {
		.kfd_process_device_apertures_ptr = 0x7f0000000000ull,
		.num_of_nodes = len / sizeof(struct kfd_abi_process_device_apertures),
	};
	struct kt_buf_image b = {
		.index = 0, .flags = KT_BUF_AFTER, .addr = 0x7f0000000000ull,
		.len_after = len, .after = zeros,
	};
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD,
					  KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW,
					  &a, &a, sizeof(a), 0, 0);

	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	append(w, &r, seq, tid);
}

#define BIG_LEN (15u << 20)
#define HELD 48		/* 48 x 15 MiB = 720 MiB, well past the budget */

/*
 * held.kft: seq 0, then seqs 2 .. HELD + 1 of 15 MiB each, then seq 1 on
 * another thread: everything after seq 0 arrives early and would wait for
 * seq 1.
 */
static void
write_held(void)
{
	uint8_t *zeros = calloc(1, BIG_LEN);
	struct kt_writer *w = open_trace("held.kft");
	uint64_t s;

	assert_non_null(zeros);
	annotation(w, 0, 100);
	for (s = 2; s < HELD + 2; s++)
		big_ioctl(w, s, 100, zeros, BIG_LEN);
	assert_int_equal(kt_writer_flush(w), 0);
	annotation(w, 1, 101);
	assert_int_equal(kt_writer_close(w), 0);
	free(zeros);
}

#define EXECS 40

/* execs.kft: EXECS exec records of 1 MiB of argv, two kinds in turn. */
static void
write_execs(void)
{
	char *argv = malloc(KT_MAX_ARGV);
	struct kt_writer *w = open_trace("execs.kft");
	struct kt_record r;
	int i;

	assert_non_null(argv);
	for (i = 0; i < EXECS; i++) {
		/* A million empty arguments, or one of a million bytes. */
		memset(argv, i % 2 ? 'a' : '\0', KT_MAX_ARGV);
		argv[KT_MAX_ARGV - 1] = '\0';
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_EXEC;
		r.u.exec.path = "/bin/bomb";
		r.u.exec.argv = argv;
		r.u.exec.argv_len = KT_MAX_ARGV;
		append(w, &r, (uint64_t)i, 200);
	}
	assert_int_equal(kt_writer_close(w), 0);
	free(argv);
}

#define BUFS 8

/* bufs.kft: BUFS ioctls with a 15 MiB buffer each, in order. */
static void
write_bufs(void)
{
	uint8_t *zeros = calloc(1, BIG_LEN);
	struct kt_writer *w = open_trace("bufs.kft");
	uint64_t s;

	assert_non_null(zeros);
	for (s = 0; s < BUFS; s++)
		big_ioctl(w, s, 300, zeros, BIG_LEN);
	assert_int_equal(kt_writer_close(w), 0);
	free(zeros);
}

#define THREADS 2000

/* threads.kft: one record on each of THREADS threads. */
static void
write_threads(void)
{
	struct kt_writer *w = open_trace("threads.kft");
	uint64_t s;

	for (s = 0; s < THREADS; s++)
		annotation(w, s, 1000 + (uint32_t)s);
	assert_int_equal(kt_writer_close(w), 0);
}

/* ---- the tests ---- */

static int
setup(void **state)
{
	fprintf(stderr, "  writing the hostile traces in %s\n", dir);
	write_held();
	write_execs();
	write_bufs();
	write_threads();
	return 0;
}

/*
 * dump and stats of held.kft: the reorder buffer stops at its byte budget
 * (before: 720 MiB and more held), warns, and every record still comes out.
 */
static void
test_held_dump_stats(void **state)
{
	struct child c;
	char *out, *err;

	run(&c, "held-dump", 0, (char *const[]){ (char *)kfdtrace, "dump",
		tc_scratch_path(dir, "held.kft"), NULL });
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	assert_true(c.maxrss < BUDGET + 160 * MiB);
	out = slurp("held-dump.out");
	err = slurp("held-dump.err");
	assert_int_equal(count_lines(out), HELD + 3);	/* and the END */
	assert_non_null(strstr(err, "releasing the oldest early"));
	free(out);
	free(err);

	run(&c, "held-stats", 0, (char *const[]){ (char *)kfdtrace, "stats",
		tc_scratch_path(dir, "held.kft"), NULL });
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	assert_true(c.maxrss < BUDGET + 160 * MiB);
	err = slurp("held-stats.err");
	assert_non_null(strstr(err, "releasing the oldest early"));
	free(err);
}

/*
 * replay of held.kft: the trace has no topology, so the replay refuses it,
 * but reading it (the model's pass) must stay inside the replay's budget.
 */
static void
test_held_replay(void **state)
{
	struct child c;
	char *out;

	run(&c, "held-replay", 0, (char *const[]){ (char *)kfdtrace, "replay",
		"--sim", tc_scratch_path(dir, "held.kft"), NULL });
	assert_int_equal(c.signal, 0);
	assert_true(c.maxrss < BUDGET + 160 * MiB);
	out = slurp("held-replay.out");
	assert_non_null(strstr(out, "records held to restore sequence order passed 256 MiB"));
	free(out);
}

/* The longest line of @s. */
static size_t
longest_line(const char *s)
{
	size_t max = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		if (n > max)
			max = n;
		s += n + (nl ? 1 : 0);
	}
	return max;
}

/*
 * dump of execs.kft: a line shows at most 64 KiB of argv and then the
 * marker (before: the whole 1 MiB, in every line).
 */
static void
test_execs_dump(void **state)
{
	struct child c;
	char *out;

	run(&c, "execs-dump", 0, (char *const[]){ (char *)kfdtrace, "dump",
		tc_scratch_path(dir, "execs.kft"), NULL });
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	out = slurp("execs-dump.out");
	assert_int_equal(count_lines(out), EXECS + 1);
	assert_true(longest_line(out) < 70 * 1024);
	assert_non_null(strstr(out, "\"[argv cut: 1 arguments, 1048576 bytes in the record]\"])"));
	free(out);
}

/* Run `kfdtrace export --ctf` of @trace into @tag.ctf. */
static void
export_ctf(struct child *c, const char *tag, const char *trace, long nofile)
{
	char *outdir = tc_scratch_path(dir, tag);

	run(c, tag, nofile, (char *const[]){ (char *)kfdtrace, "export",
		"--ctf", outdir, tc_scratch_path(dir, trace), NULL });
}

/*
 * The CTF tests read the export back with babeltrace2 (with its library,
 * the plugin is built): without it they are skipped, or fail under
 * CI=true (tc_skip.h).
 */
static void
need_babeltrace2(void)
{
	if (*babeltrace2)
		return;
	if (tc_skip_is_ci())
		fail_msg("babeltrace2 or libbabeltrace2-dev is not installed (CI=true)");
	print_message("babeltrace2 or libbabeltrace2-dev is not installed\n");
	skip();
}

/* babeltrace2's text of the CTF trace in @tag, into @tag.txt. */
static char *
read_ctf(const char *tag)
{
	char txt[64];
	struct child c;

	snprintf(txt, sizeof(txt), "%s-read", tag);
	run(&c, txt, 0, (char *const[]){ (char *)babeltrace2,
		tc_scratch_path(dir, tag), NULL });
	assert_int_equal(c.status, 0);
	snprintf(txt, sizeof(txt), "%s-read.out", tag);
	return slurp(txt);
}

/*
 * CTF export of execs.kft: bounded memory and output (before: 220 MiB per
 * event and 1 MiB of output each), and the marker stating the original
 * size.
 */
static void
test_execs_ctf(void **state)
{
	struct child c;
	char *txt, *err;

	need_babeltrace2();
	export_ctf(&c, "execs", "execs.kft", 0);
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	assert_true(c.maxrss < 200 * MiB);
	/* Each event keeps at most 64 KiB of argv. */
	assert_true(tree_bytes(tc_scratch_path(dir, "execs")) <
		    EXECS * 80.0 * 1024 + 1 * MiB);
	err = slurp("execs.err");
	assert_non_null(strstr(err, "were cut to their bounds"));
	txt = read_ctf("execs");
	assert_non_null(strstr(txt, "[argv cut: 1048576 arguments, 1048576 bytes in the record]"));
	assert_non_null(strstr(txt, "[argv cut: 1 arguments, 1048576 bytes in the record]"));
	free(txt);
	free(err);
}

/* CTF export of bufs.kft: each 15 MiB buffer field is cut, and said so. */
static void
test_bufs_ctf(void **state)
{
	struct child c;
	char *err;

	need_babeltrace2();
	export_ctf(&c, "bufs", "bufs.kft", 0);
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	assert_true(c.maxrss < 300 * MiB);
	err = slurp("bufs.err");
	assert_non_null(strstr(err, "8 event fields were cut to their bounds"));
	assert_non_null(strstr(err, "the largest held 15728640 bytes"));
	free(err);
}

/* Events in babeltrace2's text of @tag, and threads-shared among them. */
static void
check_threads_ctf(const char *tag, int shared)
{
	char *txt = read_ctf(tag);

	assert_int_equal(count_lines(txt), THREADS + 1);	/* and kfd:end */
	free(txt);
	if (shared) {
		char path[256];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s/threads-shared", dir, tag);
		assert_int_equal(stat(path, &st), 0);
	}
}

/*
 * CTF export of threads.kft: one stream file per thread with the normal
 * fd limit (raised to the hard limit when that is needed), shared streams
 * under a low one, a clear error with none to spare; never a signal
 * (before: SIGSEGV in babeltrace2's sink once the fds ran out).
 */
static void
test_threads_ctf(void **state)
{
	struct child c;
	char *err;

	need_babeltrace2();
	export_ctf(&c, "threads", "threads.kft", 0);
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	check_threads_ctf("threads", 0);

	/* A typical soft limit: 1,024 fds for 2,000 threads. */
	export_ctf(&c, "threads-1024", "threads.kft", 1024);
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	check_threads_ctf("threads-1024", 1);

	export_ctf(&c, "threads-64", "threads.kft", 64);
	assert_int_equal(c.signal, 0);
	assert_int_equal(c.status, 0);
	check_threads_ctf("threads-64", 1);
	err = slurp("threads-64.err");
	assert_non_null(strstr(err, "share the stream `threads-shared`"));
	free(err);

	/* No fd to spare: a clear error, not a crash. */
	export_ctf(&c, "threads-8", "threads.kft", 8);
	assert_int_equal(c.signal, 0);
	assert_int_not_equal(c.status, 0);
	err = slurp("threads-8.err");
	assert_non_null(strstr(err, "file descriptors"));
	free(err);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_dump_stats),
		cmocka_unit_test(test_held_replay),
		cmocka_unit_test(test_execs_dump),
		cmocka_unit_test(test_execs_ctf),
		cmocka_unit_test(test_bufs_ctf),
		cmocka_unit_test(test_threads_ctf),
	};
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s KFDTRACE BABELTRACE2\n", argv[0]);
		return 2;
	}
	kfdtrace = argv[1];
	babeltrace2 = argv[2];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, setup, NULL);
	tc_scratch_remove(dir, "KFDTRACE_KEEP_TEST_FILES");
	return rc;
}
