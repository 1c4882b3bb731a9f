/* SPDX-License-Identifier: MIT */
/*
 * The kfdtrace command line, end to end: traces written with the real
 * writer, the built binary run on them, its output, exit status and
 * warnings checked (dump's are test_cli_dump.c's). Usage: test-cli
 * PATH-TO-KFDTRACE PATH-TO-CLI-FORK-APP
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cli_fixture.h"
#include "tc_run.h"
#include "tc_text.h"
#include "decode/json_check.h"

/* --help names every command; each command's --help works. */
static void
test_help(void **state)
{
	struct tc_run res;
	char *line, *save = NULL, *copy;
	int ncmds = 0;

	RUN(&res, "--help");
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "Usage: kfdtrace"));
	assert_non_null(strstr(res.out, "\n  info "));
	assert_non_null(strstr(res.out, "\n  dump "));
	assert_non_null(strstr(res.out, "\n  stats "));
	copy = strdup(res.out);
	tc_run_free(&res);

	/* Every "  name  summary" line of the command list. */
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32], usage[64];
		struct tc_run h;

		if (strncmp(line, "  ", 2) != 0 || line[2] == ' ' ||
		    sscanf(line, " %31s", name) != 1)
			continue;
		ncmds++;
		snprintf(usage, sizeof(usage), "Usage: kfdtrace %s", name);
		RUN(&h, name, "--help");
		assert_int_equal(h.status, 0);
		assert_non_null(strcasestr(h.out, usage));
		tc_run_free(&h);
		RUN(&h, "help", name);
		assert_int_equal(h.status, 0);
		assert_non_null(strcasestr(h.out, usage));
		tc_run_free(&h);
	}
	free(copy);
	assert_true(ncmds >= 3);

	RUN(&res, "--version");
	assert_int_equal(res.status, 0);
	assert_true(strncmp(res.out, "kfdtrace ", 9) == 0);
	tc_run_free(&res);
}

static void
test_usage_errors(void **state)
{
	struct tc_run res;
	char *bare[] = { (char *)kfdtrace_bin, NULL };

	assert_int_equal(tc_run(bare, &res), 0);
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "frobnicate");
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "unknown command"));
	tc_run_free(&res);
	RUN(&res, "dump");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--bogus");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--from", "x");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	/* Several files are a run: a missing one is named, nothing printed. */
	RUN(&res, "info", tmp_path("sample.kft"), "extra");
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "kfdtrace info: extra: "));
	assert_int_equal(res.out[0], '\0');
	tc_run_free(&res);
	/* The option is named, not taken for a missing file. */
	RUN(&res, "info", "--bogus");
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "unknown option '--bogus'"));
	tc_run_free(&res);
	/* An empty filter would print nothing: a usage error. */
	RUN(&res, "dump", "--filter", "", tmp_path("sample.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "--filter needs at least one"));
	assert_int_equal(res.out[0], '\0');
	tc_run_free(&res);
	RUN(&res, "dump", "--filter", ",", tmp_path("sample.kft"));
	assert_int_equal(res.status, 2);
	tc_run_free(&res);

	RUN(&res, "info", tmp_path("missing.kft"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "missing.kft"));
	tc_run_free(&res);
	RUN(&res, "stats", "/etc/passwd");
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "not a kfdtrace file"));
	tc_run_free(&res);
}

static void
test_info(void **state)
{
	struct tc_run res;

	RUN(&res, "info", tmp_path("sample.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "producer:   kfdtrace-test"));
	assert_non_null(strstr(res.out, "kfd abi:    1.14\n"));
	assert_non_null(strstr(res.out, "topology:   2 nodes, 1 GPUs (9 files"));
	assert_non_null(strstr(res.out, "  node 0: CPU, 32 cores, 32.0 GiB RAM\n"));
	assert_non_null(strstr(res.out, "  node 1: gpu_id 0x1234 \"aldebaran\" "
			       "gfx90a, 104 CUs, 64.0 GiB VRAM\n"));
	assert_non_null(strstr(res.out, "records:    22\n"));
	assert_non_null(strstr(res.out, "  ioctl        14 (1 unknown requests)\n"));
	assert_non_null(strstr(res.out, "  annotation   2\n"));
	assert_non_null(strstr(res.out, "  end          1\n"));
	assert_non_null(strstr(res.out, "integrity:  ok\n"));
	assert_string_equal(res.err, "");
	tc_run_free(&res);
}

/*
 * A trace whose header has no KFD ABI (0.0) and @nver GET_VERSION calls:
 * a failed one first, then ones that returned 1.19, 1.17, ...
 */
static void
write_abi_trace(const char *path, int nver)
{
	struct kfd_abi_get_version_args in = { 0, 0 }, out = { 1, 19 };
	struct kt_header hdr;
	struct gen g;

	kt_header_init(&hdr, "kfdtrace-test");
	assert_int_equal(gen_open_hdr(&g, path, &hdr, NULL), 0);
	if (nver)
		assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, &in,
					   &in, sizeof(in), -1, EINVAL, 1000,
					   NULL, 0), 0);
	for (int i = 0; i < nver; i++) {
		assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, &in,
					   &out, sizeof(in), 0, 0, 1000, NULL,
					   0), 0);
		out.minor_version -= 2;
	}
	assert_int_equal(kt_writer_close(g.w), 0);
}

/* Without a version in the header, info shows what GET_VERSION returned. */
static void
test_info_abi_from_get_version(void **state)
{
	struct tc_run res;

	write_abi_trace(tmp_path("abi.kft"), 2);
	RUN(&res, "info", tmp_path("abi.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out,
			       "kfd abi:    1.19 (from GET_VERSION)\n"));
	tc_run_free(&res);

	write_abi_trace(tmp_path("noabi.kft"), 0);
	RUN(&res, "info", tmp_path("noabi.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "kfd abi:    unknown\n"));
	tc_run_free(&res);
}

static void
test_stats(void **state)
{
	struct tc_run res;

	RUN(&res, "stats", tmp_path("sample.kft"), "--json");
	assert_int_equal(res.status, 0);
	assert_true(json_valid(res.out));
	assert_non_null(strstr(res.out, "\"records\":22,\"ioctls\":14,\"failed\":3"));
	assert_non_null(strstr(res.out,
		"{\"name\":\"ALLOC_MEMORY_OF_GPU\",\"request\":3223866134,\"calls\":4,"
		"\"failed\":1,\"errors\":{\"ENOMEM\":1},\"latency_ns\":"
		"{\"min\":10000,\"p50\":10000,\"p90\":30000,\"p99\":30000,"
		"\"p999\":30000,\"max\":30000,\"median\":10000}}"));
	assert_non_null(strstr(res.out,
		"{\"name\":\"FREE_MEMORY_OF_GPU\",\"request\":1074285335,\"calls\":2,"
		"\"failed\":1,\"errors\":{\"EINVAL\":1}"));
	assert_non_null(strstr(res.out, "{\"name\":\"ioctl 0xc0184b99\","
			       "\"request\":3222817689,\"calls\":1"));
	assert_non_null(strstr(res.out, "\"errors\":{\"ENOMEM\":1,\"EINVAL\":1,"
			       "\"ENOTTY\":1}"));
	assert_non_null(strstr(res.out,
		"{\"gpu_id\":4660,\"heap\":\"VRAM\",\"allocs\":2,\"frees\":1,"
		"\"allocated\":2105344,\"freed\":2097152,\"live\":8192,"
		"\"high_water\":2097152}"));
	assert_non_null(strstr(res.out,
		"{\"gpu_id\":4660,\"heap\":\"GTT\",\"allocs\":1,\"frees\":0,"
		"\"allocated\":4096,\"freed\":0,\"live\":4096,"
		"\"high_water\":4096}"));
	assert_non_null(strstr(res.out, "\"unmatched_frees\":0"));
	assert_non_null(strstr(res.out, "\"alive\":{\"bos\":["
		"{\"handle\":20014547599361,\"gpu_id\":4660,\"heap\":\"GTT\","
		"\"size\":4096,\"seq\":6},"
		"{\"handle\":20014547599362,\"gpu_id\":4660,\"heap\":\"VRAM\","
		"\"size\":8192,\"seq\":19}],"
		"\"queues\":[{\"queue_id\":0,\"gpu_id\":4660,\"seq\":11}],"
		"\"events\":[{\"event_id\":1,\"event_type\":0,\"seq\":12}]}"));
	tc_run_free(&res);

	RUN(&res, "stats", tmp_path("sample.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "records: 22, ioctls: 14, failed: 3\n"));
	assert_non_null(strstr(res.out, "ALLOC_MEMORY_OF_GPU"));
	assert_non_null(strstr(res.out, " ENOMEM:1\n"));
	assert_non_null(strstr(res.out, "alive at end: 2 BOs, 1 queues, 1 events\n"));
	assert_non_null(strstr(res.out, "  bo     handle=0x1234_00000001 heap=GTT "
			       "size=4096 (seq 6)\n"));
	tc_run_free(&res);
}

/*
 * A trace cut inside a frame: info reports it with the recovered count,
 * dump prints exactly those records, then a warning, and both exit 1.
 */
static void
test_truncated(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 256 };
	char *path = tmp_path("cut.kft");
	struct tc_run info, dump;
	struct stat st;
	unsigned long long recovered;
	uint8_t magic[4];
	const char *p;
	off_t cut;
	int fd;

	write_sample(path, &opts);
	assert_int_equal(stat(path, &st), 0);
	cut = st.st_size * 2 / 3;
	/*
	 * The header holds the command line, so where frames start depends
	 * on the build's path: a cut that lands on a frame's first byte
	 * would leave whole frames only. Move it into that frame.
	 */
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, magic, 4, cut), 4);
	close(fd);
	if ((magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd) ||
	    (magic[1] == 0x2a && magic[2] == 0x4d && magic[3] == 0x18))
		cut += 2;
	assert_int_equal(truncate(path, cut), 0);

	RUN(&info, "info", path);
	assert_int_equal(info.status, 1);
	p = strstr(info.out, "integrity:  truncated: recovered ");
	assert_non_null(p);
	recovered = strtoull(p + strlen("integrity:  truncated: recovered "),
			     NULL, 10);
	assert_true(recovered > 0 && recovered < SAMPLE_RECORDS);

	RUN(&dump, "dump", path);
	assert_int_equal(dump.status, 1);
	assert_int_equal(tc_count_lines(dump.out), recovered);
	assert_non_null(strstr(dump.err, "truncated: recovered"));
	tc_run_free(&info);
	tc_run_free(&dump);

	RUN(&dump, "stats", path);
	assert_int_equal(dump.status, 1);
	assert_non_null(strstr(dump.err, "truncated"));
	tc_run_free(&dump);
}

/* Bytes no writer produced: reported with their offset. */
static void
test_corrupt(void **state)
{
	struct kt_writer_opts opts = { .frame_raw_size = 256 };
	char *path = tmp_path("bad.kft");
	struct tc_run res;
	struct stat st;
	char junk[64];
	int fd;

	write_sample(path, &opts);
	assert_int_equal(stat(path, &st), 0);
	memset(junk, 0xa5, sizeof(junk));
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, junk, sizeof(junk), st.st_size / 2),
			 (ssize_t)sizeof(junk));
	close(fd);

	RUN(&res, "info", path);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.out, "integrity:  corrupt at byte offset "));
	tc_run_free(&res);
	RUN(&res, "dump", path);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "corrupt at byte offset"));
	tc_run_free(&res);
}

/*
 * Inputs that are not traces are refused from their first bytes, with what
 * is wrong: /dev/zero (endless), an empty file, a header with a bad CRC.
 */
static void
test_not_traces(void **state)
{
	static const char *const cmds[] = { "info", "dump", "stats" };
	char *sample = tmp_path("nt.kft"), *empty = tmp_path("empty.kft");
	struct tc_run res;
	int fd;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		RUN(&res, (char *)cmds[i], "/dev/zero");
		assert_int_equal(res.status, 1);
		assert_non_null(strstr(res.err, "/dev/zero: not a kfdtrace file: "
				       "no kfdtrace magic at offset 0"));
		tc_run_free(&res);
	}
	write_sample(sample, NULL);
	RUN(&res, "diff", sample, "/dev/zero");
	assert_int_not_equal(res.status, 0);
	assert_non_null(strstr(res.err, "not a kfdtrace file"));
	tc_run_free(&res);

	fd = open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	close(fd);
	RUN(&res, "info", empty);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, ": empty file"));
	assert_null(strstr(res.err, "inside a frame"));
	tc_run_free(&res);

	/* One bit of the header's payload: its CRC no longer matches. */
	fd = open(sample, O_RDWR);
	assert_true(fd >= 0);
	{
		uint8_t b;

		assert_int_equal(pread(fd, &b, 1, 30), 1);
		b ^= 1;
		assert_int_equal(pwrite(fd, &b, 1, 30), 1);
	}
	close(fd);
	RUN(&res, "info", sample);
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "corrupt trace: header CRC mismatch"));
	tc_run_free(&res);
}

/*
 * A forged header: strings with newlines and terminal escapes that would
 * print a fake "integrity: ok" line and erase the real one. info prints
 * them escaped: no control byte reaches the terminal.
 */
static void
test_info_escapes(void **state)
{
	static const char forged[] = "h\nintegrity:  ok\x1b[2K\x1b[1A\r";
	char *path = tmp_path("forged.kft");
	struct kt_header hdr;
	struct tc_run res;
	struct gen g;

	kt_header_init(&hdr, "kfdtrace-test\x1b]0;title\a");
	snprintf(hdr.host, sizeof(hdr.host), "%s", forged);
	snprintf(hdr.exe, sizeof(hdr.exe), "/bin/x%s", forged);
	memcpy(hdr.cmdline, "a\0b\x1b[31m\0", 9);
	hdr.cmdline_len = 9;
	assert_int_equal(gen_open_hdr(&g, path, &hdr, NULL), 0);
	put_topology(&g);
	assert_int_equal(kt_writer_close(g.w), 0);

	RUN(&res, "info", path);
	assert_int_equal(res.status, 0);
	for (const char *p = res.out; *p; p++)
		assert_true(*p == '\n' || ((unsigned char)*p >= 0x20 &&
					    (unsigned char)*p < 0x7f));
	assert_null(strstr(res.out, "\nintegrity:  ok\\x1b"));
	assert_non_null(strstr(res.out, "host:       h\\nintegrity:  ok\\x1b[2K"));
	assert_non_null(strstr(res.out, "cmdline:    a b\\x1b[31m\n"));
	tc_run_free(&res);
}

/*
 * The same calls on two threads (a capture: the second thread makes the
 * WAIT_EVENTS, with no timeout) and on one thread in the same order (a
 * serial replay, which bounds the wait: 5000 ms): diff aligns them as one
 * stream each and finds them equal. Paired per thread they could not
 * match; timeouts are not compared, as replay's verification does not.
 */
static void
write_threads(const char *path, int threads)
{
	struct kfd_abi_get_version_args ver = { 1, 14 };
	struct kfd_abi_create_event_args ev = {
		.event_type = KFD_ABI_EVENT_SIGNAL, .auto_reset = 1,
	}, ev_out = ev;
	struct kfd_abi_wait_events_args wait = {
		.num_events = 1, .timeout = threads > 1 ? 0xfffffffeu : 5000,
	};
	struct gen g;

	ev_out.event_id = 7;
	assert_int_equal(gen_open(&g, path, 1000000), 0);
	put_topology(&g);
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, &ver, &ver,
				   sizeof(ver), 0, 0, 1000, NULL, 0), 0);
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_CREATE_EVENT, &ev, &ev_out,
				   sizeof(ev), 0, 0, 1000, NULL, 0), 0);
	for (int i = 0; i < 3; i++) {
		g.tid = threads > 1 ? 101 : 100;
		assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_WAIT_EVENTS, &wait,
					   &wait, sizeof(wait), 0, 0, 5000, NULL,
					   0), 0);
		g.tid = 100;
		assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, &ver,
					   &ver, sizeof(ver), 0, 0, 1000, NULL,
					   0), 0);
	}
	assert_int_equal(kt_writer_close(g.w), 0);
}

static void
test_diff_threads(void **state)
{
	char *two = tmp_path("two.kft"), *one = tmp_path("one.kft");
	struct tc_run res;

	write_threads(two, 2);
	write_threads(one, 1);
	RUN(&res, "diff", two, one);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "A has 2, B has 1: both compared as one "
				"stream in sequence order"));
	assert_non_null(strstr(res.out, "equal: 8 ioctls"));
	tc_run_free(&res);
	/* Asked for, with equal thread counts too. */
	RUN(&res, "diff", "--merge-threads", two, two);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	(void)state;
}

/* Write @text to @path, creating it. */
static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/*
 * record's summary reads the traces of forked children and exec'd images
 * (OUT.<pid>, OUT.exec<N>), and only those: other files named OUT.* next
 * to the trace are not traces and are left alone.
 */
static void
test_record_child_traces(void **state)
{
	static const char *const decoys[] = {
		"out.kft.rocminfo.txt", "out.kft.123.log", "out.kft.exec",
		"out.kft.12x", "out.kft.exec2.notes",
	};
	char out[256], child[300], line[320], name[64];
	struct tc_run res;
	const char *p;
	int pid;

	assert_int_equal(mkdir(tmp_path("rec"), 0700), 0);
	for (size_t i = 0; i < sizeof(decoys) / sizeof(decoys[0]); i++) {
		snprintf(name, sizeof(name), "rec/%s", decoys[i]);
		write_file(tmp_path(name), "not a trace\n");
	}
	snprintf(out, sizeof(out), "%s", tmp_path("rec/out.kft"));

	RUN(&res, "record", "-o", out, "--sim", "--", (char *)fork_app_bin,
	    "exec");
	assert_int_equal(res.status, 0);
	p = strstr(res.out, "child ");
	assert_non_null(p);
	pid = atoi(p + 6);
	assert_true(pid > 0);

	/* The three traces, each summarized once. */
	snprintf(line, sizeof(line), "kfdtrace record: %s: ", out);
	assert_int_equal(tc_count_str(res.err, line), 1);
	snprintf(child, sizeof(child), "%s.%d.kfdtrace", out, pid);
	snprintf(line, sizeof(line), "kfdtrace record: %s: ", child);
	assert_int_equal(tc_count_str(res.err, line), 1);
	assert_int_equal(access(child, F_OK), 0);
	snprintf(line, sizeof(line), "kfdtrace record: %s.exec1.kfdtrace: ", out);
	assert_int_equal(tc_count_str(res.err, line), 1);

	/* Nothing else was taken for a trace. */
	assert_null(strstr(res.err, "not a kfdtrace file"));
	assert_null(strstr(res.err, "cannot read"));
	for (size_t i = 0; i < sizeof(decoys) / sizeof(decoys[0]); i++) {
		snprintf(name, sizeof(name), "%s: ", decoys[i]);
		assert_null(strstr(res.err, name));
	}
	assert_int_equal(tc_count_str(res.err, " records, "), 3);
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_info_abi_from_get_version),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_not_traces),
		cmocka_unit_test(test_info_escapes),
		cmocka_unit_test(test_diff_threads),
		cmocka_unit_test(test_record_child_traces),
	};

	if (cli_args(argc, argv))
		return 2;
	return cmocka_run_group_tests(tests, setup, teardown);
}
