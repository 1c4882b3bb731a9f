/* SPDX-License-Identifier: MIT */
/*
 * Damaged and hostile traces through every reading command, end to end:
 *   - a pipe whose second frame is garbage fails at that frame, naming its
 *     offset, without reading on (peak memory stays small);
 *   - record times outside the header's clock range are damage in info,
 *     both exports, report and the babeltrace2 source, and the CTF written
 *     before them reads back in babeltrace2 without a crash;
 *   - one exit status for a truncated and a corrupt trace in info, dump,
 *     stats, report, export --perfetto, export --ctf and babeltrace2;
 *   - hostname, exe and thread names with ESC, CR, newlines, C1 controls
 *     and invalid UTF-8 reach neither babeltrace2's output nor report.html
 *     raw.
 *
 * Arguments: KFDTRACE PLUGIN-DIR BABELTRACE2 ("-" and "" when babeltrace2
 * or the plugin were not built: those steps are skipped, or fail when
 * CI=true).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_gen.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

#define START_NS	(100ull * 1000000000ull)	/* the traces' start */

static const char *kfdtrace, *bt2;
static char plugin_opt[4200];
static char work[4096];

static const char *
wp(const char *name)
{
	return tc_scratch_path(work, name);
}

/* babeltrace2 and the plugin, or a skip (a failure when CI=true). */
static int
have_bt2(void)
{
	const char *ci = getenv("CI");

	if (bt2[0] && strcmp(plugin_opt, "--plugin-path=-"))
		return 1;
	if (ci && !strcmp(ci, "true"))
		fail_msg("babeltrace2 or the kfdtrace plugin is missing (CI=true)");
	fprintf(stderr, "no babeltrace2 or no plugin: its steps skipped\n");
	return 0;
}

/* Run @argv; return its exit status (128 + signal when killed). */
static int
run_status(char *const argv[], struct tc_run *r)
{
	assert_int_equal(tc_run(argv, r), 0);
	return r->status;
}

static int
run_quiet(char *const argv[])
{
	struct tc_run r;
	int st = run_status(argv, &r);

	tc_run_free(&r);
	return st;
}

/* start_realtime of the traces write_trace() writes; 0: the real one. */
static uint64_t hdr_realtime;

/*
 * A trace of @n ioctls at @path in frames of about 256 bytes; the record
 * numbered @bad_at (when below @n) carries time @bad_ts.
 */
static void
write_trace(const char *path, unsigned int n, unsigned int bad_at,
	    uint64_t bad_ts)
{
	struct kt_writer_opts opts = { .frame_raw_size = 256 };
	struct kfd_abi_get_version_args v = { .major_version = 1,
					       .minor_version = 14 };
	struct kt_header hdr;
	struct gen g;
	unsigned int i;

	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = START_NS;
	if (hdr_realtime)
		hdr.start_realtime = hdr_realtime;
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	assert_int_equal(gen_open_hdr(&g, path, &hdr, &opts), 0);
	for (i = 0; i < n; i++) {
		uint64_t keep = g.ts;

		if (i == bad_at)
			g.ts = bad_ts;
		assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, &v, &v,
					   sizeof(v), 0, 0, 0, NULL, 0), 0);
		if (i == bad_at)
			g.ts = keep + 1000;
	}
	assert_int_equal(kt_writer_close(g.w), 0);
}

/* The bytes of @path with @len of them from @off replaced by @bytes. */
static void
patch_file(const char *path, long off, const char *bytes, size_t len)
{
	FILE *f = fopen(path, "r+b");

	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
}

/* A copy of the first @len bytes of @from. */
static void
copy_prefix(const char *from, const char *to, size_t len)
{
	size_t n;
	char *data = tc_read_file(from, &n);
	FILE *f;

	assert_non_null(data);
	assert_true(len <= n);
	f = fopen(to, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	free(data);
}

/* ---- a pipe that turns to garbage ---- */

/* Write @head, then @garbage bytes that are no frame, to @fd. */
static void
feed(int fd, const char *head, size_t hlen, size_t garbage)
{
	static char junk[1 << 16];
	size_t done = 0;

	signal(SIGPIPE, SIG_IGN);
	memset(junk, 0xab, sizeof(junk));
	if (write(fd, head, hlen) != (ssize_t)hlen)
		_exit(0);
	while (done < garbage) {
		ssize_t w = write(fd, junk, sizeof(junk));

		if (w <= 0)
			_exit(0);	/* the reader stopped: as it should */
		done += (size_t)w;
	}
	_exit(0);
}

/*
 * Run first, so that RUSAGE_CHILDREN's peak is this test's processes'
 * alone: the generator (a fork of this small process) and kfdtrace.
 */
static void
test_pipe_garbage(void **state)
{
	const char *path = wp("pipe.kfdtrace"), *out = wp("pipe.out");
	char want[64], *head, *text;
	struct rusage ru;
	size_t len, hlen;
	int p[2], status, fd;
	pid_t gen, kt;

	(void)state;
	write_trace(path, 50, ~0u, 0);
	head = tc_read_file(path, &len);
	assert_non_null(head);
	/* The header frame: 8 bytes, then its payload size's worth. */
	hlen = 8 + ((size_t)(uint8_t)head[4] | (size_t)(uint8_t)head[5] << 8 |
		    (size_t)(uint8_t)head[6] << 16 |
		    (size_t)(uint8_t)head[7] << 24);
	assert_true(hlen < len);
	assert_int_equal(pipe(p), 0);
	gen = fork();
	assert_true(gen >= 0);
	if (gen == 0) {
		close(p[0]);
		feed(p[1], head, hlen, 256u << 20);
	}
	kt = fork();
	assert_true(kt >= 0);
	if (kt == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(p[0], 0) < 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0)
			_exit(125);
		close(p[1]);
		execl(kfdtrace, kfdtrace, "info", "/dev/stdin", (char *)NULL);
		_exit(126);
	}
	close(p[0]);
	close(p[1]);
	assert_int_equal(waitpid(kt, &status, 0), kt);
	assert_int_equal(waitpid(gen, NULL, 0), gen);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	text = tc_read_file(out, NULL);
	assert_non_null(text);
	snprintf(want, sizeof(want), "corrupt at byte offset %zu", hlen);
	if (!strstr(text, want))
		fail_msg("want \"%s\" in:\n%s", want, text);
	/* 256 MiB followed the header: none of it may be held. */
	assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
	if (ru.ru_maxrss > 64 * 1024)
		fail_msg("peak RSS %ld KiB reading a pipe of garbage",
			 ru.ru_maxrss);
	free(text);
	free(head);
}

/* ---- record times at the clock's limits ---- */

/* babeltrace2 on the CTF directory @dir: it reads it, no crash. */
static void
ctf_reads(const char *dir)
{
	char *argv[] = { (char *)bt2, (char *)dir, NULL };
	struct tc_run r;

	run_status(argv, &r);
	if (r.signal || r.status != 0)
		fail_msg("babeltrace2 %s: status %d, signal %d:\n%s", dir,
			 r.status, r.signal, r.err);
	tc_run_free(&r);
}

static void
check_bad_time(uint64_t ts, const char *name)
{
	char path[4200], ctf[4300], pf[4300], html[4300], seq[64];
	char *info[] = { (char *)kfdtrace, "info", path, NULL };
	char *ex_ctf[] = { (char *)kfdtrace, "export", "--ctf", ctf, path, NULL };
	char *ex_pf[] = { (char *)kfdtrace, "export", "--perfetto", pf, path,
			  NULL };
	char *rep[] = { (char *)kfdtrace, "report", "-o", html, path, NULL };
	char *src[] = { (char *)bt2, plugin_opt, path, NULL };
	struct tc_run r;

	snprintf(path, sizeof(path), "%s", wp(name));
	snprintf(ctf, sizeof(ctf), "%s.ctf", path);
	snprintf(pf, sizeof(pf), "%s.json", path);
	snprintf(html, sizeof(html), "%s.html", path);
	/* Record #7 of 40; the writer numbers from 0. */
	write_trace(path, 40, 7, ts);

	assert_int_equal(run_status(info, &r), 1);
	snprintf(seq, sizeof(seq), "record seq %d ", 7);
	if (!strstr(r.out, "integrity:  corrupt at byte offset") ||
	    !strstr(r.out, seq) || !strstr(r.out, "clock range"))
		fail_msg("%s: info says:\n%s", name, r.out);
	tc_run_free(&r);
	assert_int_equal(run_quiet(ex_pf), 1);
	assert_int_equal(run_quiet(rep), 1);
	assert_int_equal(run_quiet(ex_ctf), 1);
	if (!have_bt2())
		return;
	ctf_reads(ctf);
	run_status(src, &r);
	if (r.signal || r.status != 1)
		fail_msg("babeltrace2 %s: status %d, signal %d", name, r.status,
			 r.signal);
	tc_run_free(&r);
}

static void
test_time_limits(void **state)
{
	char path[4200];
	char *info[] = { (char *)kfdtrace, "info", path, NULL };

	(void)state;
	check_bad_time(UINT64_MAX, "ts-max.kfdtrace");
	check_bad_time(1ull << 63, "ts-2e63.kfdtrace");
	check_bad_time(0, "ts-zero.kfdtrace");
	check_bad_time(START_NS - KT_TS_EARLY - 1, "ts-early.kfdtrace");
	check_bad_time(START_NS + KT_TS_SPAN + 1, "ts-late.kfdtrace");
	/* A wall clock so late that 1 s after the start leaves int64 ns. */
	hdr_realtime = INT64_MAX - 500000000;
	check_bad_time(START_NS + 1000000000, "ts-wall.kfdtrace");
	hdr_realtime = 0;
	/* The range's own ends are valid times. */
	snprintf(path, sizeof(path), "%s", wp("ts-first.kfdtrace"));
	write_trace(path, 40, 7, START_NS - KT_TS_EARLY);
	assert_int_equal(run_quiet(info), 0);
	snprintf(path, sizeof(path), "%s", wp("ts-last.kfdtrace"));
	write_trace(path, 40, 7, START_NS + KT_TS_SPAN);
	assert_int_equal(run_quiet(info), 0);
}

/* ---- one exit status for damage ---- */

static void
test_exit_table(void **state)
{
	static const struct {
		const char *file;
		int status;
		const char *says;	/* in info's output */
	} traces[] = {
		{ "whole.kfdtrace", 0, "integrity:  ok" },
		{ "truncated.kfdtrace", 1, "integrity:  truncated" },
		{ "corrupt.kfdtrace", 1, "integrity:  corrupt" },
	};
	char path[4200], out[4300];
	char *cmds[][8] = {
		{ (char *)kfdtrace, "info", path, NULL },
		{ (char *)kfdtrace, "dump", path, NULL },
		{ (char *)kfdtrace, "stats", path, NULL },
		{ (char *)kfdtrace, "report", "-f", "-o", out, path, NULL },
		{ (char *)kfdtrace, "export", "-f", "--perfetto", out, path,
		  NULL },
		{ (char *)kfdtrace, "export", "-f", "--ctf", out, path, NULL },
		{ (char *)bt2, plugin_opt, path, NULL },
	};
	size_t len, t, c;
	struct tc_run r;

	(void)state;
	write_trace(wp("whole.kfdtrace"), 200, ~0u, 0);
	free(tc_read_file(wp("whole.kfdtrace"), &len));
	copy_prefix(wp("whole.kfdtrace"), wp("truncated.kfdtrace"),
		    len * 2 / 3);
	copy_prefix(wp("whole.kfdtrace"), wp("corrupt.kfdtrace"), len);
	patch_file(wp("corrupt.kfdtrace"), (long)len / 2, "\xff\xff\xff\xff", 4);
	for (t = 0; t < sizeof(traces) / sizeof(traces[0]); t++) {
		snprintf(path, sizeof(path), "%s", wp(traces[t].file));
		for (c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
			if (cmds[c][0] == bt2 && !have_bt2())
				continue;
			snprintf(out, sizeof(out), "%s.out%zu", path, c);
			run_status(cmds[c], &r);
			if (r.signal || r.status != traces[t].status)
				fail_msg("%s %s: status %d, signal %d, want %d:\n%s",
					 cmds[c][1], traces[t].file, r.status,
					 r.signal, traces[t].status, r.err);
			if (c == 0 && !strstr(r.out, traces[t].says))
				fail_msg("info %s:\n%s", traces[t].file, r.out);
			tc_run_free(&r);
		}
	}
}

/* ---- hostile strings ---- */

/*
 * @s (@n bytes) holds no control byte but newlines (and tabs), is valid
 * UTF-8 without C1 controls, and no line starts with @forged.
 */
static void
check_clean(const char *what, const char *s, size_t n, const char *forged)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t l = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 :
			   c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || !l ||
		    i + l > n)
			fail_msg("%s: byte 0x%02x at %zu", what, c, i);
		for (size_t k = 1; k < l; k++)
			if (((unsigned char)s[i + k] & 0xc0) != 0x80)
				fail_msg("%s: bad UTF-8 at %zu", what, i);
		if (c == 0xc2 && (unsigned char)s[i + 1] < 0xa0)
			fail_msg("%s: a C1 control at %zu", what, i);
		if ((i == 0 || s[i - 1] == '\n') &&
		    !strncmp(s + i, forged, strlen(forged)))
			fail_msg("%s: a forged line at %zu", what, i);
		i += l;
	}
}

#define FORGED	"integrity: ok"
#define EVIL	"\x1b[2J\r\n" FORGED "\xff\xc3(\xc2\x9b" "31m\x1b]0;t\a"

static void
test_hostile_strings(void **state)
{
	const char *path = wp("hostile.kfdtrace"), *html = wp("hostile.html");
	const char *ctf = wp("hostile.ctf");
	char *rep[] = { (char *)kfdtrace, "report", "-o", (char *)html,
			(char *)path, NULL };
	char *ex[] = { (char *)kfdtrace, "export", "--ctf", (char *)ctf,
		       (char *)path, NULL };
	char *src[] = { (char *)bt2, plugin_opt, (char *)path, NULL };
	char *back[] = { (char *)bt2, (char *)ctf, NULL };
	struct kt_record rec;
	struct kt_header hdr;
	struct gen g;
	struct tc_run r;
	char *text;
	size_t n;

	(void)state;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = START_NS;
	snprintf(hdr.host, sizeof(hdr.host), "node%s", EVIL);
	snprintf(hdr.exe, sizeof(hdr.exe), "/bin/app%s", EVIL);
	assert_int_equal(gen_open_hdr(&g, path, &hdr, NULL), 0);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_THREAD_NAME;
	rec.u.thread_name.name = "worker" EVIL;
	assert_int_equal(gen_put(&g, &rec), 0);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_ANNOTATION;
	rec.u.annotation.text = "note" EVIL;
	assert_int_equal(gen_put(&g, &rec), 0);
	assert_int_equal(kt_writer_close(g.w), 0);

	assert_int_equal(run_quiet(rep), 0);
	text = tc_read_file(html, &n);
	assert_non_null(text);
	check_clean("report.html", text, n, FORGED);
	free(text);
	if (!have_bt2())
		return;
	assert_int_equal(run_status(src, &r), 0);
	check_clean("babeltrace2 on the trace", r.out, strlen(r.out), FORGED);
	if (!strstr(r.out, "\\x1b[2J\\r\\n" FORGED "\\xff"))
		fail_msg("the thread name, escaped, is missing:\n%s", r.out);
	tc_run_free(&r);
	assert_int_equal(run_quiet(ex), 0);
	assert_int_equal(run_status(back, &r), 0);
	check_clean("babeltrace2 on the CTF", r.out, strlen(r.out), FORGED);
	tc_run_free(&r);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		/* First: it measures the peak memory of child processes. */
		cmocka_unit_test(test_pipe_garbage),
		cmocka_unit_test(test_time_limits),
		cmocka_unit_test(test_exit_table),
		cmocka_unit_test(test_hostile_strings),
	};
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: %s KFDTRACE PLUGIN-DIR BABELTRACE2\n",
			argv[0]);
		return 2;
	}
	kfdtrace = argv[1];
	snprintf(plugin_opt, sizeof(plugin_opt), "--plugin-path=%s", argv[2]);
	bt2 = argv[3];
	snprintf(work, sizeof(work), "%s/kfdtrace-damage-test-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(work))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tc_scratch_remove(work, NULL);
	return rc;
}
