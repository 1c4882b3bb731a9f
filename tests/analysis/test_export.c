/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export --perfetto: valid JSON (tests/decode's strict checker)
 * with the expected events for the generated rich trace, to a file or
 * standard output; a damaged trace still gives complete JSON that says so.
 * The selection options choose the slices as dump's choose lines; an
 * existing output is replaced only with -f. check_perfetto.py checks the
 * JSON's structure event by event, check_perfetto_proto.py the protobuf
 * format's and a multi-process run's.
 */
#include "analysis_util.h"
#include "decode/json_check.h"

static void
test_export_file(void **state)
{
	struct tc_run res;
	char *json;

	(void)state;
	RUN(&res, "export", "--perfetto", tmp_path("rich.json"),
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_string_equal(res.err, "");
	tc_run_free(&res);
	json = tc_read_file(tmp_path("rich.json"), NULL);
	assert_non_null(json);
	assert_true(json_valid(json));
	assert_true(strncmp(json, "{\"traceEvents\":[\n", 17) == 0);
	/* One slice per ioctl and API call, lifetimes, counters, names. */
	assert_int_equal(tc_count_str(json, "{\"ph\":\"X\",\"cat\":\"ioctl"),
			 GEN_IOCTLS);
	assert_int_equal(tc_count_str(json, "{\"ph\":\"X\",\"cat\":\"ioctl,failed\""),
			 GEN_FAILED);
	assert_int_equal(tc_count_str(json, "{\"ph\":\"X\",\"cat\":\"api\""), 2);
	assert_int_equal(tc_count_str(json, "{\"ph\":\"b\""),
			 GEN_BOS + GEN_QUEUES + GEN_EVENTS);
	assert_int_equal(tc_count_str(json, "{\"ph\":\"e\""),
			 GEN_BOS + GEN_QUEUES + GEN_EVENTS);
	assert_int_equal(tc_count_str(json, "\"leaked\":true"), GEN_LEAKS);
	assert_non_null(strstr(json, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_name\","
			       "\"pid\":4242,\"tid\":4243,\"args\":{\"name\":"
			       "\"worker\"}}"));
	assert_non_null(strstr(json, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"process_name\","
			       "\"pid\":4242,\"tid\":4242,\"args\":{\"name\":"
			       "\"train\"}}"));
	assert_non_null(strstr(json, "\"name\":\"memory gpu 0x2222 (bytes)\""));
	assert_non_null(strstr(json, "\"name\":\"VRAM gpu 0x1111\""));
	assert_non_null(strstr(json, "\"displayTimeUnit\":\"ns\""));
	assert_non_null(strstr(json, "\"integrity\":\"ok\"}}\n"));
	free(json);
}

static void
test_export_stdout(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "export", "--perfetto", "-", tmp_path("remap.kft"));
	assert_int_equal(res.status, 0);
	assert_true(json_valid(res.out));
	assert_non_null(strstr(res.out, "\"name\":\"memory gpu 0x5a5a (bytes)\""));
	tc_run_free(&res);
}

/* A cut trace: the events before the cut, valid JSON, exit 1. */
static void
test_export_damaged(void **state)
{
	struct tc_run res;
	char *json;

	(void)state;
	cut_copy(tmp_path("rich.kft"), tmp_path("cut.kft"), 9000);
	RUN(&res, "export", "--perfetto", tmp_path("cut.json"),
	    tmp_path("cut.kft"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "truncated"));
	tc_run_free(&res);
	json = tc_read_file(tmp_path("cut.json"), NULL);
	assert_non_null(json);
	assert_true(json_valid(json));
	assert_non_null(strstr(json, "\"integrity\":\"truncated\""));
	free(json);

	RUN(&res, "export", "--perfetto", tmp_path("x.json"),
	    tmp_path("missing.kft"));
	assert_int_equal(res.status, 1);
	tc_run_free(&res);
	RUN(&res, "export", "--perfetto", "/nonexistent-dir/x.json",
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "/nonexistent-dir/x.json"));
	tc_run_free(&res);
	RUN(&res, "export", "--perfetto");
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
}

/* Export @trace with @opts (NULL-terminated) to @out; return the JSON. */
static char *
export_sel(const char *out, const char *const *opts)
{
	char *argv[16] = { (char *)kfdtrace_bin, "export", "--perfetto",
			   (char *)out };
	struct tc_run res;
	size_t n = 4;
	char *json;

	while (*opts && n < 14)
		argv[n++] = (char *)*opts++;
	argv[n++] = tmp_path("rich.kft");
	argv[n] = NULL;
	unlink(out);
	assert_int_equal(tc_run(argv, &res), 0);
	if (res.status != 0)
		fail_msg("export: %s", res.err);
	tc_run_free(&res);
	json = tc_read_file(out, NULL);
	assert_non_null(json);
	assert_true(json_valid(json));
	return json;
}

static int
count_ioctls(const char *json)
{
	return tc_count_str(json, "{\"ph\":\"X\",\"cat\":\"ioctl");
}

/* Every "seq":N of the events lies in [lo, hi]; returns how many. */
static int
seqs_within(const char *json, unsigned long lo, unsigned long hi)
{
	const char *p = json;
	int n = 0;

	while ((p = strstr(p, "\"seq\":"))) {
		unsigned long v = strtoul(p + 6, NULL, 10);

		if (v < lo || v > hi)
			fail_msg("seq %lu outside %lu..%lu", v, lo, hi);
		n++;
		p += 6;
	}
	return n;
}

static void
test_export_select(void **state)
{
	const char *out = tmp_path("sel.json");
	char *json;
	int early, late;

	(void)state;
	json = export_sel(out, (const char *[]){ "--filter",
						 "GET_CLOCK_COUNTERS", NULL });
	assert_int_equal(count_ioctls(json), GEN_WORKER_CALLS);
	assert_int_equal(tc_count_str(json, "{\"ph\":\"X\",\"cat\":\"api\""), 0);
	/* Names stay, whatever the selection. */
	assert_non_null(strstr(json, "\"args\":{\"name\":\"worker\"}"));
	free(json);

	json = export_sel(out, (const char *[]){ "--filter",
						 "!GET_CLOCK_COUNTERS", NULL });
	assert_int_equal(count_ioctls(json), GEN_MAIN_IOCTLS);
	free(json);

	json = export_sel(out, (const char *[]){ "--tid", "4243", NULL });
	assert_int_equal(count_ioctls(json), GEN_WORKER_CALLS);
	/* The worker makes only these calls (named in args too). */
	assert_int_equal(tc_count_str(json, "\"name\":\"GET_CLOCK_COUNTERS\","
				      "\"pid\":4242,\"tid\":4243,"),
			 GEN_WORKER_CALLS);
	free(json);

	json = export_sel(out, (const char *[]){ "--failed", NULL });
	assert_int_equal(count_ioctls(json), GEN_FAILED);
	assert_int_equal(tc_count_str(json, "\"cat\":\"ioctl,failed\""),
			 GEN_FAILED);
	free(json);

	json = export_sel(out, (const char *[]){ "--from", "5", "--to", "9",
						 NULL });
	assert_in_range(seqs_within(json, 5, 9), 1, 5);
	assert_non_null(strstr(json, "\"selected\":"));
	free(json);

	/* --time splits the calls; the boundary may count on both sides. */
	json = export_sel(out, (const char *[]){ "--time", "..0.02", NULL });
	early = count_ioctls(json);
	free(json);
	json = export_sel(out, (const char *[]){ "--time", "0.02..", NULL });
	late = count_ioctls(json);
	free(json);
	assert_true(early > 0 && late > 0);
	assert_true(early < GEN_IOCTLS && late < GEN_IOCTLS);
	assert_in_range(early + late, GEN_IOCTLS, GEN_IOCTLS + 1);
}

static void
test_export_usage(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "export", "--perfetto", tmp_path("u.json"), "--from", "9",
	    "--to", "5", tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "kfdtrace export: --from is past --to"));
	tc_run_free(&res);
	RUN(&res, "export", "--perfetto", tmp_path("u.json"), "--filter",
	    "bogus", tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "kfdtrace export: --filter: 'bogus'"));
	tc_run_free(&res);
	RUN(&res, "export", "--perfetto", tmp_path("u.json"), "--format",
	    "xml", tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "export", "--ctf", tmp_path("u.ctf"), "--failed",
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "are --perfetto options"));
	tc_run_free(&res);

	/* The one overwrite rule: an existing output needs -f. */
	RUN(&res, "export", "--perfetto", tmp_path("u.json"),
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	RUN(&res, "export", "--perfetto", tmp_path("u.json"),
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.err, "exists"));
	tc_run_free(&res);
	RUN(&res, "export", "-f", "--perfetto", tmp_path("u.json"),
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	tc_run_free(&res);

	/* The protobuf format on standard output: packets (field 1). */
	RUN(&res, "export", "--perfetto", "-", "--format", "proto",
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_true(res.out && (unsigned char)res.out[0] == 0x0a);
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_file),
		cmocka_unit_test(test_export_stdout),
		cmocka_unit_test(test_export_damaged),
		cmocka_unit_test(test_export_select),
		cmocka_unit_test(test_export_usage),
	};

	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
