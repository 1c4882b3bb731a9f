/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff: a trace against itself, against the same program on a
 * machine that hands out other ids, against a copy with one result
 * changed, against a run with one extra call, against a damaged copy, two
 * real recordings of AMD's thunk on profiles with different gpu_ids, a
 * recording against its replay, and waits a replay held, by its marks.
 *
 * Usage: test-diff KFDTRACE ANALYSIS-GEN [HSAKMT-APP]
 */
#include "analysis_util.h"

static const char *hsakmt_app;

static void
test_self(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "diff", tmp_path("rich.kft"), tmp_path("rich.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "equal: 1044 ioctls in 2 threads match "
			       "under strict verification"));
	assert_null(strstr(res.out, "@@"));
	tc_run_free(&res);
}

/*
 * The same program where every gpu_id, handle, queue and event id, fd,
 * offset and address differs, consistently: equal under strict mapping.
 */
static void
test_remapped(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "diff", tmp_path("rich.kft"), tmp_path("remap.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "equal: 1044 ioctls in 2 threads"));
	assert_non_null(strstr(res.out, "2 gpu_ids"));
	assert_non_null(strstr(res.out, "2 queue ids"));
	tc_run_free(&res);

	/* Without the mapping the two differ, which is what makes it count. */
	RUN(&res, "dump", tmp_path("remap.kft"));
	assert_null(strstr(res.out, "0x1111"));
	assert_non_null(strstr(res.out, "gpu_id=0x5a5a"));
	tc_run_free(&res);
}

/* One out field changed: different at that record and field only. */
static void
test_changed_result(void **state)
{
	unsigned long long seq = seq_of(tmp_path("rich.kft"),
					"MAP_MEMORY_TO_GPU", 1);
	char seqs[32], expect[160];
	struct tc_run res;

	(void)state;
	snprintf(seqs, sizeof(seqs), "%llu", seq);
	GEN("edit", tmp_path("rich.kft"), tmp_path("changed.kft"), seqs,
	    "out.n_success", "1");
	RUN(&res, "diff", "--context", "2", tmp_path("rich.kft"),
	    tmp_path("changed.kft"));
	assert_int_equal(res.status, 1);
	snprintf(expect, sizeof(expect), "@@ divergence 1 at A #%llu, B #%llu: "
		 "MAP_MEMORY_TO_GPU out.n_success (thread tid 4242 / 4242)\n",
		 seq, seq);
	assert_non_null(strstr(res.out, expect));
	assert_non_null(strstr(res.out, "      out.n_success: A 2, B 1\n"));
	snprintf(expect, sizeof(expect), "  - A #%llu [4242]", seq);
	assert_non_null(strstr(res.out, expect));
	snprintf(expect, sizeof(expect), "  + B #%llu [4242]", seq);
	assert_non_null(strstr(res.out, expect));
	/* Two records of context before it, from A. */
	snprintf(expect, sizeof(expect), "    A #%llu [4242]", seq - 1);
	assert_non_null(strstr(res.out, expect));
	snprintf(expect, sizeof(expect), "different: 1 divergence in 1044 "
		 "ioctls of A and 1044 of B; first at A #%llu / B #%llu: "
		 "MAP_MEMORY_TO_GPU out.n_success\n", seq, seq);
	assert_non_null(strstr(res.out, expect));
	assert_int_equal(tc_count_str(res.out, "@@ divergence"), 1);
	tc_run_free(&res);

	/* Only results are compared: an out field does not count... */
	RUN(&res, "diff", "--verify", "results", tmp_path("rich.kft"),
	    tmp_path("changed.kft"));
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "under results verification"));
	tc_run_free(&res);

	/* ...but a return value does. */
	GEN("edit", tmp_path("rich.kft"), tmp_path("ret.kft"), seqs, "ret",
	    "-1");
	RUN(&res, "diff", "-q", "--verify", "results", tmp_path("rich.kft"),
	    tmp_path("ret.kft"));
	assert_int_equal(res.status, 1);
	snprintf(expect, sizeof(expect), "different: 1 divergence in 1044 "
		 "ioctls of A and 1044 of B; first at A #%llu / B #%llu: "
		 "MAP_MEMORY_TO_GPU ret\n", seq, seq);
	assert_string_equal(res.out, expect);
	tc_run_free(&res);
}

/* An inconsistent id: a queue id that stands for another one. */
static void
test_inconsistent_id(void **state)
{
	unsigned long long create = seq_of(tmp_path("remap.kft"),
					   "CREATE_QUEUE", 0);
	unsigned long long destroy = seq_of(tmp_path("remap.kft"),
					    "DESTROY_QUEUE", 0);
	char seqs[32], expect[160];
	struct tc_run res;

	(void)state;
	snprintf(seqs, sizeof(seqs), "%llu", create);
	GEN("edit", tmp_path("remap.kft"), tmp_path("qid.kft"), seqs,
	    "out.queue_id", "9");
	RUN(&res, "diff", tmp_path("rich.kft"), tmp_path("qid.kft"));
	assert_int_equal(res.status, 1);
	/* The new id pairs up when created; its first use gives it away. */
	snprintf(expect, sizeof(expect), "@@ divergence 1 at A #%llu, B #%llu: "
		 "DESTROY_QUEUE in.queue_id", destroy, destroy);
	assert_non_null(strstr(res.out, expect));
	assert_non_null(strstr(res.out, "      in.queue_id: A 0, B 7 (A's 0 "
			       "already stands for B's 9)\n"));
	tc_run_free(&res);
}

/* One extra call in B: reported once, and the rest stays aligned. */
static void
test_extra_call(void **state)
{
	unsigned long long seq = seq_of(tmp_path("extra.kft"), "GET_VERSION", 1);
	char expect[64];
	struct tc_run res;

	(void)state;
	RUN(&res, "diff", tmp_path("rich.kft"), tmp_path("extra.kft"));
	assert_int_equal(res.status, 1);
	assert_int_equal(tc_count_str(res.out, "@@ divergence"), 1);
	assert_non_null(strstr(res.out, ": 1 call only in B (thread"));
	snprintf(expect, sizeof(expect), "  + B #%llu [4242]", seq);
	assert_non_null(strstr(res.out, expect));
	assert_non_null(strstr(res.out, "different: 1 divergence in 1044 "
			       "ioctls of A and 1045 of B"));
	tc_run_free(&res);

	RUN(&res, "diff", tmp_path("extra.kft"), tmp_path("rich.kft"));
	assert_int_equal(res.status, 1);
	assert_non_null(strstr(res.out, ": 1 call only in A (thread"));
	tc_run_free(&res);
}

/* Bad usage and unreadable or damaged input are trouble: status 2. */
static void
test_trouble(void **state)
{
	struct tc_run res;

	(void)state;
	RUN(&res, "diff", tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	tc_run_free(&res);
	RUN(&res, "diff", "--verify", "loose", tmp_path("rich.kft"),
	    tmp_path("rich.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "strict or results"));
	tc_run_free(&res);
	RUN(&res, "diff", tmp_path("rich.kft"), tmp_path("missing.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "missing.kft"));
	tc_run_free(&res);

	/* A copy cut in the middle: compared as far as it goes. */
	cut_copy(tmp_path("rich.kft"), tmp_path("cut.kft"), 9000);
	RUN(&res, "diff", tmp_path("rich.kft"), tmp_path("cut.kft"));
	assert_int_equal(res.status, 2);
	assert_non_null(strstr(res.err, "truncated"));
	assert_non_null(strstr(res.out, "only in A"));
	tc_run_free(&res);
}

/* Record the hsaKmt program on @profile into @out; a failure fails. */
static void
record(const char *profile, const char *out)
{
	char sim[300];
	struct tc_run res;

	snprintf(sim, sizeof(sim), "--sim=%s", profile);
	unlink(out);
	RUN(&res, "record", "-o", (char *)out, sim, "--", (char *)hsakmt_app);
	if (res.status != 0)
		print_message("record failed: %s\n", res.err);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
}

/*
 * The mi210 profile with the GPU's gpu_id changed to 0x5678, written to
 * other.profile, and the program recorded on mi210 into thunk-a.kft: what
 * the tests below start from, made by each (none reads another's files).
 */
static void
other_profile_and_capture(void)
{
	struct tc_run res;
	FILE *f;
	char *p;

	RUN(&res, "sim", "--dump-profile", "mi210");
	assert_int_equal(res.status, 0);
	p = strstr(res.out, "\ngpu_id 43794\n");
	assert_non_null(p);
	memcpy(p, "\ngpu_id 22136\n", 14);	/* 0x5678 */
	f = fopen(tmp_path("other.profile"), "w");
	assert_non_null(f);
	fputs(res.out, f);
	fclose(f);
	tc_run_free(&res);
	record("mi210", tmp_path("thunk-a.kft"));
}

/*
 * AMD's thunk recorded twice: on the mi210 profile and on a copy of it
 * whose GPU has another gpu_id. Equal under strict mapping; one changed
 * result is found at its record.
 */
static void
test_recorded_profiles(void **state)
{
	char profile[300], seqs[32], expect[160];
	unsigned long long seq;
	struct tc_run res;

	(void)state;
	if (!hsakmt_app || !*hsakmt_app)
		skip();		/* Debian's libhsakmt1 is not installed */
	other_profile_and_capture();
	snprintf(profile, sizeof(profile), "%s", tmp_path("other.profile"));
	record(profile, tmp_path("thunk-b.kft"));

	RUN(&res, "dump", tmp_path("thunk-b.kft"));
	assert_non_null(strstr(res.out, "gpu_id=0x5678"));
	assert_null(strstr(res.out, "gpu_id=0xab12"));
	tc_run_free(&res);
	RUN(&res, "diff", tmp_path("thunk-a.kft"), tmp_path("thunk-b.kft"));
	if (res.status != 0)
		print_message("%s", res.out);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "equal: "));
	assert_non_null(strstr(res.out, "1 gpu_ids"));
	tc_run_free(&res);

	seq = seq_of(tmp_path("thunk-b.kft"), "CREATE_QUEUE", 0);
	snprintf(seqs, sizeof(seqs), "%llu", seq);
	GEN("edit", tmp_path("thunk-b.kft"), tmp_path("thunk-c.kft"), seqs,
	    "errno", "28");
	RUN(&res, "diff", tmp_path("thunk-a.kft"), tmp_path("thunk-c.kft"));
	assert_int_equal(res.status, 1);
	snprintf(expect, sizeof(expect), ", B #%llu: CREATE_QUEUE errno", seq);
	assert_non_null(strstr(res.out, expect));
	assert_non_null(strstr(res.out, "      errno: A 0, B ENOSPC\n"));
	assert_int_equal(tc_count_str(res.out, "@@ divergence"), 1);
	tc_run_free(&res);
}

/*
 * A capture and its replay on the other GPU (recorded by the replayer):
 * the replay reproduces the capture, and diff agrees.
 */
static void
test_capture_vs_replay(void **state)
{
	char sim[300];
	struct tc_run res;

	(void)state;
	if (!hsakmt_app || !*hsakmt_app)
		skip();		/* Debian's libhsakmt1 is not installed */
	other_profile_and_capture();
	snprintf(sim, sizeof(sim), "--sim=%s", tmp_path("other.profile"));
	RUN(&res, "replay", sim, "--record", tmp_path("replay.kft"),
	    tmp_path("thunk-a.kft"));
	if (res.status != 0)
		print_message("%s%s", res.out, res.err);
	assert_int_equal(res.status, 0);
	tc_run_free(&res);
	RUN(&res, "diff", tmp_path("thunk-a.kft"), tmp_path("replay.kft"));
	if (res.status != 0)
		print_message("%s", res.out);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "equal: "));
	tc_run_free(&res);
}

/*
 * A replay's marks: two waits on one event held at once, a third that
 * completes meanwhile, a try again, a set in the GPU's stead, the holds
 * ending in the other order. Each issue that ends a hold takes the place
 * of its own try (by the record its mark names), the third keeps its own:
 * equal to the capture. So is a replay's recording from before the
 * numbers (the next wait on the same events ends the hold).
 */
static void
test_held_marks(void **state)
{
	static const char *const kinds[] = { "replay", "replay-v1" };
	char name[32];
	struct tc_run res;
	unsigned int i;

	(void)state;
	GEN("held", tmp_path("held.kft"), "capture");
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "held-%s.kft", kinds[i]);
		GEN("held", tmp_path(name), (char *)kinds[i]);
		RUN(&res, "diff", tmp_path("held.kft"), tmp_path(name));
		if (res.status != 0)
			print_message("%s", res.out);
		assert_int_equal(res.status, 0);
		assert_non_null(strstr(res.out, "equal: 7 ioctls in 1 thread"));
		tc_run_free(&res);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_remapped),
		cmocka_unit_test(test_changed_result),
		cmocka_unit_test(test_inconsistent_id),
		cmocka_unit_test(test_extra_call),
		cmocka_unit_test(test_trouble),
		cmocka_unit_test(test_recorded_profiles),
		cmocka_unit_test(test_capture_vs_replay),
		cmocka_unit_test(test_held_marks),
	};

	hsakmt_app = argc > 3 ? argv[3] : NULL;
	return analysis_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
