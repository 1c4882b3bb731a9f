/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export --perfetto: valid JSON (tests/decode's strict checker)
 * with the expected events for the generated rich trace, to a file or
 * standard output; a damaged trace still gives complete JSON that says so.
 * check_perfetto.py checks the structure event by event.
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

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_file),
		cmocka_unit_test(test_export_stdout),
		cmocka_unit_test(test_export_damaged),
	};

	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
