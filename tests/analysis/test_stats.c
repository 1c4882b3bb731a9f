/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats: latency percentiles, --by-thread and --by-gpu, in text
 * and JSON, on the generated rich trace whose numbers are known (see
 * analysis_gen.h): the worker's 1000 calls take exactly 1..1000 us.
 */
#include "analysis_util.h"
#include "decode/json_check.h"

/* Nearest-rank percentiles of 1..1000 us: p50 500, p90 900, p99 990, p99.9 999. */
static void
test_percentiles(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "stats", "--json", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_true(json_valid(res.out));
	assert_non_null(strstr(res.out,
		"{\"name\":\"GET_CLOCK_COUNTERS\",\"request\":3223866117,"
		"\"calls\":1000,\"failed\":0,\"errors\":{},\"latency_ns\":"
		"{\"min\":1000,\"p50\":500000,\"p90\":900000,\"p99\":990000,"
		"\"p999\":999000,\"max\":1000000,\"median\":500000}}"));
	assert_non_null(strstr(res.out, "\"ioctls\":1044,\"failed\":2"));
	/* Without the grouping options the JSON has no groups. */
	assert_null(strstr(res.out, "by_thread"));
	assert_null(strstr(res.out, "by_gpu"));
	tc_run_free(&res);

	RUN(&res, "stats", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "MIN(us)    P50(us)    P90(us)    "
			       "P99(us)  P99.9(us)    MAX(us)"));
	assert_non_null(strstr(res.out, "GET_CLOCK_COUNTERS                "
			       "1000       0        1.0      500.0      900.0"
			       "      990.0      999.0     1000.0\n"));
	assert_null(strstr(res.out, "by thread"));
	tc_run_free(&res);
}

static void
test_by_thread(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "stats", "--json", "--by-thread", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_true(json_valid(res.out));
	assert_non_null(strstr(res.out, "\"by_thread\":[{\"tid\":4242,"
			       "\"name\":\"main\",\"ioctls\":44,\"failed\":2,"));
	assert_non_null(strstr(res.out, "{\"tid\":4243,\"name\":\"worker\","
			       "\"ioctls\":1000,\"failed\":0,\"busy_ns\":500500000,"
			       "\"per_ioctl\":[{\"name\":\"GET_CLOCK_COUNTERS\""));
	tc_run_free(&res);

	RUN(&res, "stats", "--by-thread", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "\nby thread: 2\n"));
	assert_non_null(strstr(res.out, "\nthread 4242 \"main\": 44 ioctls, "
			       "2 failed, "));
	assert_non_null(strstr(res.out, "\nthread 4243 \"worker\": 1000 "
			       "ioctls, 0 failed, 500.500 ms in ioctls\n"));
	/* The main thread's table has its allocations, the worker's not. */
	assert_non_null(strstr(strstr(res.out, "thread 4242"),
			       "  ALLOC_MEMORY_OF_GPU                 17       1"));
	assert_null(strstr(strstr(res.out, "thread 4243"), "ALLOC_MEMORY"));
	tc_run_free(&res);
}

/*
 * Per GPU: the gpu_id field, the gpu half of a handle, or the queue's GPU.
 * GPU 0x1111: ACQUIRE_VM, 15 ALLOCs, MAP, CREATE/DESTROY_QUEUE, 15 FREEs
 * and 500 worker calls = 534, both failures; GPU 0x2222: 506; no GPU:
 * GET_VERSION and the 3 event calls.
 */
static void
test_by_gpu(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "stats", "--json", "--by-gpu", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_true(json_valid(res.out));
	assert_non_null(strstr(res.out, "\"by_gpu\":[{\"gpu_id\":4369,"
			       "\"ioctls\":534,\"failed\":2,"));
	assert_non_null(strstr(res.out, "{\"gpu_id\":8738,\"ioctls\":506,"
			       "\"failed\":0,"));
	assert_non_null(strstr(res.out, "{\"gpu_id\":0,\"ioctls\":4,"
			       "\"failed\":0,"));
	/* Each GPU carries its own memory rows. */
	assert_non_null(strstr(res.out, "\"memory\":[{\"gpu_id\":8738,"
			       "\"heap\":\"VRAM\",\"allocs\":1,\"frees\":0,"
			       "\"allocated\":268435456,\"freed\":0,"
			       "\"live\":268435456,\"high_water\":268435456},"));
	assert_non_null(strstr(res.out, "{\"gpu_id\":4369,\"heap\":\"VRAM\","
			       "\"allocs\":13,\"frees\":13,\"allocated\":167772160,"
			       "\"freed\":167772160,\"live\":0,"
			       "\"high_water\":100663296}"));
	tc_run_free(&res);

	RUN(&res, "stats", "--by-gpu", tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "\nby gpu: 3\n"));
	assert_non_null(strstr(res.out, "\ngpu 0x1111 (node 1, gfx90a "
			       "\"aldebaran\"): 534 ioctls, 2 failed, "));
	assert_non_null(strstr(res.out, "\ngpu 0x2222 (node 2, gfx90a "
			       "\"aldebaran\"): 506 ioctls, 0 failed, "));
	assert_non_null(strstr(res.out, "\nno gpu (process-wide ioctls): 4 "
			       "ioctls, 0 failed, "));
	tc_run_free(&res);
}

/* Both groupings at once, and bad usage still refused. */
static void
test_combined_and_usage(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "stats", "--json", "--by-gpu", "--by-thread",
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_true(json_valid(res.out));
	assert_true(strstr(res.out, "\"by_thread\"") <
		    strstr(res.out, "\"by_gpu\""));
	tc_run_free(&res);

	RUN(&res, "stats", "--by-cpu", tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "stats", "--help");
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "--by-thread"));
	assert_non_null(strstr(res.out, "--by-gpu"));
	tc_run_free(&res);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_by_thread),
		cmocka_unit_test(test_by_gpu),
		cmocka_unit_test(test_combined_and_usage),
	};

	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
