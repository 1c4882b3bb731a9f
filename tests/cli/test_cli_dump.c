/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace dump end to end: text and JSON lines, the selections, the time
 * order's lag and range filters, --from against the reorder window, on
 * traces written with the real writer.
 * Usage: test-cli-dump PATH-TO-KFDTRACE PATH-TO-CLI-FORK-APP
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cli_fixture.h"
#include "tc_run.h"
#include "tc_text.h"
#include "decode/json_check.h"

/* Text lines come out in sequence order, one per record. */
static void
test_dump_text(void **state)
{
	struct tc_run res;
	char *line, *save = NULL;
	long prev = -1, n = 0;

	RUN(&res, "dump", tmp_path("sample.kft"), "--seq");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), SAMPLE_RECORDS);
	assert_non_null(strstr(res.out,
		"#5 [100] +0.000012 ALLOC_MEMORY_OF_GPU(va_addr=0x7f0000000000, "
		"size=2097152, mmap_offset=0x0, gpu_id=0x1234, "
		"flags=VRAM|WRITABLE) = 0 {handle=0x1234_00000000}\n"));
	assert_non_null(strstr(res.out, "ALLOC_MEMORY_OF_GPU(va_addr=0x7f0002000000, "
			       "size=1099511627776, mmap_offset=0x0, "
			       "gpu_id=0x1234, flags=VRAM) = -1 ENOMEM "
			       "(Cannot allocate memory)\n"));
	assert_non_null(strstr(res.out, "MAP_MEMORY_TO_GPU(handle=0x1234_00000000, "
			       "device_ids_array_ptr=[0x1234], n_devices=1, "
			       "n_success=0) = 0 {n_success=1}\n"));
	assert_non_null(strstr(res.out, "ioctl(fd=3, 0xc0184b99 /* K nr=0x99 "
			       "size=24 */, {24 zero bytes}) = -1 ENOTTY"));
	assert_non_null(strstr(res.out, "open(\"/dev/kfd\", O_RDWR|O_CLOEXEC) = 3 "
			       "/* kfd */\n"));
	assert_non_null(strstr(res.out, "topology(9 files, "));
	assert_non_null(strstr(res.out, "#17 [101] "));
	assert_non_null(strstr(res.out, "annotation(\"first\")\n#18 [101] "));
	for (line = strtok_r(res.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long seq = strtol(line + 1, NULL, 10);

		assert_true(line[0] == '#');
		assert_true(seq > prev);
		prev = seq;
		n++;
	}
	assert_int_equal(n, SAMPLE_RECORDS);
	tc_run_free(&res);

	RUN(&res, "dump", tmp_path("sample.kft"), "--durations", "--filter",
	    "GET_VERSION");
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "[100] +0.000003 GET_VERSION() = 0 "
			    "{major_version=1, minor_version=14} <0.000001>\n");
	tc_run_free(&res);
}

/* Each output line holds @needle (and there is at least one line). */
static void
every_line_has(const char *out, const char *needle)
{
	const char *p = out;
	int n = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (!memmem(p, len, needle, strlen(needle)))
			fail_msg("a line without \"%s\": %.*s", needle, (int)len, p);
		n++;
		p += len + (e ? 1 : 0);
	}
	assert_true(n > 0);
}

/* Whether the "+seconds" of dump's lines ever decrease. */
static int
times_go_back(const char *out)
{
	double last = -1;
	const char *p;

	for (p = out; (p = strstr(p, "] +")); p += 3) {
		double v = strtod(p + 3, NULL);

		if (v < last)
			return 1;
		last = v;
	}
	return 0;
}

/* --failed, !NAME, --tid, --time, --order. */
static void
test_dump_selections(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "dump", tmp_path("sample.kft"), "--failed");
	assert_int_equal(res.status, 0);
	every_line_has(res.out, " = -1 ");
	assert_non_null(strstr(res.out, "ALLOC_MEMORY_OF_GPU("));
	assert_non_null(strstr(res.out, "FREE_MEMORY_OF_GPU(handle="));
	assert_non_null(strstr(res.out, ") = -1 EINVAL"));
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--filter", "ioctl,!ALLOC_MEMORY_OF_GPU");
	assert_int_equal(res.status, 0);
	assert_null(strstr(res.out, "ALLOC_MEMORY_OF_GPU"));
	assert_non_null(strstr(res.out, "GET_VERSION("));
	assert_null(strstr(res.out, "open("));
	tc_run_free(&res);
	/* Alone, !NAME keeps everything else. */
	RUN(&res, "dump", tmp_path("sample.kft"), "--filter", "!ioctl");
	assert_int_equal(res.status, 0);
	assert_null(strstr(res.out, "GET_VERSION("));
	assert_non_null(strstr(res.out, "open(\"/dev/kfd\""));
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--tid", "100");
	assert_int_equal(res.status, 0);
	every_line_has(res.out, "[100] ");
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--tid", "4000000000");
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "");
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--time", "..0.000003");
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "GET_VERSION("));
	assert_null(strstr(res.out, "ALLOC_MEMORY_OF_GPU("));
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--time", "5");
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "--time takes A..B"));
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--tid", "x");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	/* The second thread's annotations disagree in sequence and time
	 * order, so time goes back there; --order time puts them where they
	 * happened. */
	RUN(&res, "dump", tmp_path("sample.kft"));
	assert_int_equal(res.status, 0);
	assert_true(times_go_back(res.out));
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--order", "time");
	assert_int_equal(res.status, 0);
	assert_false(times_go_back(res.out));
	assert_int_equal(tc_count_lines(res.out), SAMPLE_RECORDS);
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("sample.kft"), "--order", "random");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
}

/*
 * A trace where thread 200's one call lasts @late_ns while thread 100
 * makes ten calls, each a tenth as long: 200's record is appended last
 * but entered first.
 */
static void
write_late(const char *path, uint64_t late_ns)
{
	struct kfd_abi_get_version_args ver = { 1, 14 };
	struct gen g;
	uint64_t t0;
	int i;

	assert_int_equal(gen_open(&g, path, 1000000000), 0);
	t0 = g.ts;
	g.ts += 1000;
	for (i = 0; i < 10; i++)
		assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, NULL,
					   &ver, sizeof(ver), 0, 0,
					   late_ns / 10, NULL, 0), 0);
	g.tid = 200;
	g.ts = t0;
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, NULL, &ver,
				   sizeof(ver), 0, 0, late_ns, NULL, 0), 0);
	assert_int_equal(kt_writer_close(g.w), 0);
}

/*
 * --order time holds a record for its window and for 2 s of later calls:
 * a call a second long is put in place even with a window of one record;
 * one three seconds long comes out of order, and the warning says so.
 */
static void
test_dump_order_time_lag(void **state)
{
	struct tc_run res;

	(void)state;
	write_late(tmp_path("late1.kft"), 1000000000);
	RUN(&res, "dump", tmp_path("late1.kft"), "--order", "time",
	    "--window", "1");
	assert_int_equal(res.status, 0);
	assert_false(times_go_back(res.out));
	assert_true(strstr(res.out, "[200] ") < strstr(res.out, "[100] "));
	assert_null(strstr(res.err, "time order"));
	tc_run_free(&res);
	write_late(tmp_path("late3.kft"), 3000000000);
	RUN(&res, "dump", tmp_path("late3.kft"), "--order", "time",
	    "--window", "1");
	assert_int_equal(res.status, 0);
	assert_true(times_go_back(res.out));
	assert_non_null(strstr(res.err, "kfdtrace dump: warning: 1 records "
				"came more than 1 records and 2 s late and "
				"were printed out of time order (raise "
				"--window)"));
	tc_run_free(&res);
	/* The same from a run (a directory): its merge counts too. */
	assert_int_equal(mkdir(tmp_path("late"), 0755), 0);
	assert_int_equal(rename(tmp_path("late3.kft"),
				tmp_path("late/late3.kfdtrace")), 0);
	RUN(&res, "dump", tmp_path("late"), "--order", "time", "--window", "1");
	assert_int_equal(res.status, 0);
	assert_true(times_go_back(res.out));
	assert_non_null(strstr(res.err, "1 records came more than 1 records"));
	tc_run_free(&res);
}

static void
test_dump_json(void **state)
{
	struct tc_run res;
	char *line, *save = NULL;
	size_t n = 0;

	RUN(&res, "dump", tmp_path("sample.kft"), "--json");
	assert_int_equal(res.status, 0);
	for (line = strtok_r(res.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		assert_true(json_valid(line));
		assert_true(strncmp(line, "{\"seq\":", 7) == 0);
		n++;
	}
	assert_int_equal(n, SAMPLE_RECORDS);
	tc_run_free(&res);

	RUN(&res, "dump", tmp_path("sample.kft"), "--json", "--filter",
	    "free_memory_of_gpu");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), 2);
	assert_non_null(strstr(res.out, "\"name\":\"FREE_MEMORY_OF_GPU\""));
	assert_non_null(strstr(res.out, "\"errno\":\"EINVAL\""));
	tc_run_free(&res);
}

static void
test_dump_range_filter(void **state)
{
	struct tc_run res;

	RUN(&res, "dump", tmp_path("sample.kft"), "--seq", "--from", "5",
	    "--to", "8");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), 4);
	assert_true(strncmp(res.out, "#5 ", 3) == 0);
	assert_non_null(strstr(res.out, "\n#8 "));
	assert_null(strstr(res.out, "#9 "));
	tc_run_free(&res);

	/* The out-of-order pair straddles the range edge. */
	RUN(&res, "dump", tmp_path("sample.kft"), "--seq", "--from", "18",
	    "--to", "18");
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "#18 [101] +0.000144 annotation(\"second\")\n");
	tc_run_free(&res);

	RUN(&res, "dump", tmp_path("sample.kft"), "--filter",
	    "ALLOC_MEMORY_OF_GPU,open,unknown-ioctl");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), 4 + 2 + 1);
	tc_run_free(&res);

	RUN(&res, "dump", tmp_path("sample.kft"), "--filter", "mmap");
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "[100] +0.000141 mmap(NULL, 8192, "
			    "PROT_READ|PROT_WRITE, MAP_SHARED, 3, "
			    "0xc48d000000000000) = 0x7f2000000000 /* kfd */\n");
	tc_run_free(&res);

	RUN(&res, "dump", tmp_path("sample.kft"), "--filter", "NO_SUCH_IOCTL");
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "NO_SUCH_IOCTL"));
	tc_run_free(&res);

	RUN(&res, "dump", tmp_path("sample.kft"), "--from", "9", "--to", "2");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
}

/* Append a GET_VERSION with sequence number @seq, entered at @seq us. */
static void
put_seq(struct kt_writer *w, uint64_t seq)
{
	struct kfd_abi_get_version_args ver = { 1, 14 };
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD,
					  KFD_ABI_IOC_GET_VERSION, NULL, &ver,
					  sizeof(ver), 0, 0);

	r.seq = seq;
	r.tid = 100 + (uint32_t)(seq & 1);
	r.ts = 1000000000 + seq * 1000;
	r.u.ioctl.t_exit = r.ts + 500;
	assert_int_equal(kt_writer_append(w, &r), 0);
}

/*
 * --from seeks to the frame that holds it, whose first records come
 * before it: they are not printed, and are not counted late against the
 * window. Records swapped in pairs (as two threads' would be) are put
 * back in order without a warning, wherever --from lands.
 */
static void
test_dump_from_not_late(void **state)
{
	struct kt_writer_opts wo = { .frame_raw_size = 1024 };
	static const unsigned int froms[] = { 17, 50, 101, 133, 250 };
	struct kt_header hdr;
	struct kt_writer *w;
	struct tc_run res;
	char want[64];
	unsigned int i;
	uint64_t seq;

	(void)state;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = 1000000000;
	assert_int_equal(kt_writer_open(tmp_path("pairs.kft"), &hdr, &wo, &w), 0);
	for (seq = 0; seq < 400; seq += 2) {
		put_seq(w, seq + 1);
		put_seq(w, seq);
	}
	assert_int_equal(kt_writer_close(w), 0);
	for (i = 0; i < sizeof(froms) / sizeof(froms[0]); i++) {
		snprintf(want, sizeof(want), "%u", froms[i]);
		RUN(&res, "dump", tmp_path("pairs.kft"), "--seq", "--from",
		    want, "--to", want);
		assert_int_equal(res.status, 0);
		assert_int_equal(tc_count_lines(res.out), 1);
		snprintf(want, sizeof(want), "#%u ", froms[i]);
		assert_true(strncmp(res.out, want, strlen(want)) == 0);
		if (strstr(res.err, "late"))
			fail_msg("--from %u: %s", froms[i], res.err);
		tc_run_free(&res);
	}
}

/*
 * A record that really comes more than the window (65536 records) after
 * its place is still reported, with --from before it; with --from past
 * it, it is not printed and not reported.
 */
static void
test_dump_from_really_late(void **state)
{
	struct kt_header hdr;
	struct kt_writer *w;
	struct tc_run res;
	uint64_t seq;

	(void)state;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = 1000000000;
	assert_int_equal(kt_writer_open(tmp_path("late.kft"), &hdr, NULL, &w), 0);
	for (seq = 0; seq < 70000; seq++)
		if (seq != 10)
			put_seq(w, seq);
	put_seq(w, 10);
	assert_int_equal(kt_writer_close(w), 0);
	RUN(&res, "dump", tmp_path("late.kft"), "--seq", "--from", "8", "--to",
	    "69999");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), 69992);
	assert_non_null(strstr(res.err, "kfdtrace dump: warning: 1 records "
				"arrived more than 65536 records late and were "
				"printed out of order (raise --window)"));
	tc_run_free(&res);
	RUN(&res, "dump", tmp_path("late.kft"), "--seq", "--from", "20", "--to",
	    "69999");
	assert_int_equal(res.status, 0);
	assert_int_equal(tc_count_lines(res.out), 69980);
	assert_null(strstr(res.err, "late"));
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_text),
		cmocka_unit_test(test_dump_json),
		cmocka_unit_test(test_dump_selections),
		cmocka_unit_test(test_dump_order_time_lag),
		cmocka_unit_test(test_dump_range_filter),
		cmocka_unit_test(test_dump_from_not_late),
		cmocka_unit_test(test_dump_from_really_late),
	};

	if (cli_args(argc, argv))
		return 2;
	return cmocka_run_group_tests(tests, setup, teardown);
}
