/* SPDX-License-Identifier: MIT */
/*
 * Event ages (KFD 1.14) in the replay, on the scenes `rp_gen OUT 0 ages`
 * records on kfdsim (rp_gen.c): each wait passes the age it last saw of
 * its signal events and gets the new one back. Traces are changed with
 * rp_alter to look as an engine released a wait (its SET_EVENT left out),
 * as interrupts no wait needed happened (sets left out), as a corrupt
 * capture, or as a set numbered late. The scenes of a HIP 6.4 teardown
 * (`rp_gen - 0 ages-end`) are recorded with the capture library, and
 * their emit-c programs run too.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rp_test.h"

static const char *kfdtrace, *alter, *gen, *gcc;
static char trace[4200];

/*
 * The sequence number of the @nth (from 0) @name record of event @id in
 * @path (its first event, for a wait), from its dump; its thread in
 * *@tid when not NULL.
 */
static uint64_t
find_in(const char *path, const char *name, uint32_t id, int nth,
	unsigned long *tid)
{
	char want[64], ev[32];
	char *copy, *line, *save;
	uint64_t seq = UINT64_MAX;

	assert_int_equal(RUN(kfdtrace, "dump", "--seq", "--filter",
			     "SET_EVENT,WAIT_EVENTS", path), 0);
	snprintf(want, sizeof(want), " %s(", name);
	snprintf(ev, sizeof(ev), "event_id=%u}", id);
	copy = strdup(out);
	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, want);
		char set[32];

		snprintf(set, sizeof(set), "(event_id=%u)", id);
		if (line[0] != '#' || !p ||
		    !(strstr(p, ev) || strstr(p, set)) || nth--)
			continue;
		seq = strtoull(line + 1, NULL, 10);
		if (tid && (p = strchr(line, '[')))
			*tid = strtoul(p + 1, NULL, 10);
		break;
	}
	free(copy);
	assert_true(seq != UINT64_MAX);
	return seq;
}

/* find_in() of the scenes' trace. */
static uint64_t
find(const char *name, uint32_t id, int nth)
{
	return find_in(trace, name, id, nth, NULL);
}

/* @in altered by rp_alter's @args into @file, in the scratch directory. */
static const char *
altered(const char *file, const char *a, const char *b, const char *c)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s", tmp(file));
	unlink(path);
	if (c)
		assert_int_equal(RUN(alter, trace, path, a, b, c), 0);
	else
		assert_int_equal(RUN(alter, trace, path, a, b), 0);
	return path;
}

/* Replay @path serially and with --threads: both match strictly. */
static void
both_match(const char *path)
{
	static const char *const modes[] = { NULL, "--threads" };
	int m;

	for (m = 0; m < 2; m++) {
		expect_ok(run((const char *const[]){ kfdtrace, "replay", "--sim",
			      "--wait-timeout", "3000", path, modes[m], NULL }));
		expect_out("result:      match (strict)");
		assert_null(strstr(out, "stopped before"));
	}
}

/*
 * A wait for any of events 1 and 2 that a set of 2 released: with the
 * set left out (an engine's interrupt), the replay stands in for the GPU
 * by setting event 2, the one whose age the wait got back advanced, not
 * the first.
 */
static void
test_second_fired(void **state)
{
	char seq[32];

	(void)state;
	snprintf(seq, sizeof(seq), "%" PRIu64, find("SET_EVENT", 2, 0));
	both_match(altered("second.kft", "drop", seq, NULL));
	expect_out("gpu:         1 event interrupts raised in the GPU's stead");
}

/*
 * Event 3 set 20 times with no wait in the kernel, then waits: with
 * those sets left out (interrupts no wait needed, past the 16 the
 * stand-in makes at once), the replay's ages stay behind the capture's
 * by a constant. Learned: the wait that finds the event set binds its
 * age at the new offset, and the next wait passes and gets ages shifted
 * by it.
 */
static void
test_learned_offset(void **state)
{
	char list[512];
	size_t len = 0;
	int i;

	(void)state;
	for (i = 0; i < 20; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%" PRIu64,
					i ? "," : "", find("SET_EVENT", 3, i));
	both_match(altered("offset.kft", "drop", list, NULL));
	expect_out("ages:        1 event ages learned at a new offset");
}

/*
 * A corrupt capture: a returned age below the age passed (no kernel
 * does that; live the event is ahead), and a byte of the element that is
 * no age. Each divergence names the bytes that differ, with their values.
 */
static void
test_corrupt(void **state)
{
	char seq[32];

	(void)state;
	snprintf(seq, sizeof(seq), "%" PRIu64, find("WAIT_EVENTS", 3, 1));
	assert_int_not_equal(RUN(kfdtrace, "replay", "--sim",
				 altered("age.kft", seq, "buf@0", "20")), 0);
	expect_out("WAIT_EVENTS: events[0].last_event_age: captured 0x14, "
		   "replayed 0x16: the event was set more often live");
	/* Element 1's data, byte 9 (48 + 9 into the array). */
	snprintf(seq, sizeof(seq), "%" PRIu64, find("WAIT_EVENTS", 1, 0));
	assert_int_not_equal(RUN(kfdtrace, "replay", "--sim",
				 altered("byte.kft", seq, "buf@57", "5")), 0);
	expect_out("WAIT_EVENTS: events[1].data: captured 0x5, replayed 0x0: "
		   "bytes differ at +9..+9");
}

/*
 * A wait on event 4 that a set of the main thread released, then a set
 * of 4 by the waiting thread; the main thread's set renumbered after that
 * one (as when it is slow to return). --threads must not hold it behind
 * the set before it, which comes after the wait it releases: no stall,
 * no wait timing out.
 */
static void
test_set_after_wait(void **state)
{
	char from[32], to[32];

	(void)state;
	snprintf(from, sizeof(from), "%" PRIu64, find("SET_EVENT", 4, 0));
	snprintf(to, sizeof(to), "%" PRIu64, find("SET_EVENT", 4, 1));
	both_match(altered("late.kft", "move", from, to));
}

/*
 * A --threads replay that stops at a divergence (event 3's second wait,
 * its returned age corrupted) names, for the thread left waiting, the
 * record it still waits for: the set of event 4 waits for the wait on 4
 * to be issued (it may release it), not for the wait that diverged,
 * which was done.
 */
static void
test_stall_names_pending(void **state)
{
	char seq[32], want[128];

	(void)state;
	snprintf(seq, sizeof(seq), "%" PRIu64, find("WAIT_EVENTS", 3, 1));
	snprintf(want, sizeof(want), "stopped before #%" PRIu64 " SET_EVENT "
		 "(waiting for #%" PRIu64 " WAIT_EVENTS", find("SET_EVENT", 4, 0),
		 find("WAIT_EVENTS", 4, 0));
	assert_int_not_equal(RUN(kfdtrace, "replay", "--sim", "--threads",
				 "--wait-timeout", "3000",
				 altered("stall.kft", seq, "buf@0", "20")), 0);
	expect_out(want);
}

/*
 * A HIP 6.4 teardown, recorded with the capture library (`rp_gen - 0
 * ages-end` under `kfdtrace record`): a thread's wait on event 5 that a
 * set of the main thread releases, then that thread's own set and a wait
 * that finds it; the main thread's set renumbered right after that wait
 * (as when it is slow to return); and a wait blocked from the start to
 * the exit, released by an atexit() handler's set, the last calls; then
 * that handler unmaps a VA reservation of 64 MiB whole, a 2 MiB device
 * mapping at its start. The serial replay, --threads (no stall: the set
 * does not wait for the waiting thread's set, nor for its wait after it)
 * and emit-c's program (the set moved once, before the wait it released)
 * match, and the program unmaps only the device mapping: the rest of the
 * reservation is not its to unmap (its own heap or a thread's stack may
 * live there).
 */
/* `rp_gen - 0 ages-end` recorded with the capture library, once. */
static const char *
end_raw(void)
{
	static char raw[4200];

	if (raw[0])
		return raw;
	snprintf(raw, sizeof(raw), "%s", tmp("end-raw.kft"));
	unlink(raw);
	if (RUN(kfdtrace, "record", "-o", raw, "--sim", "--", gen, "-", "0",
		"ages-end")) {
		fputs(out, stderr);
		fail_msg("rp_gen ages-end failed under record");
	}
	return raw;
}

/* Emit @path as C into @c and build it as @bin (gcc; skips without). */
static void
emit_build(const char *path, const char *c, const char *bin)
{
	if (!gcc || !*gcc) {
		if (getenv("CI") && !strcmp(getenv("CI"), "true"))
			fail_msg("no gcc for emit-c's program");
		print_message("no gcc: emit-c's program not built\n");
		skip();
	}
	unlink(c);
	if (RUN(kfdtrace, "emit-c", path, "-o", c) ||
	    RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-o", bin, c)) {
		fputs(out, stderr);
		fail_msg("emit-c's program of %s did not build", path);
	}
}

/* both_match() of @path, and emit-c's program of it (NAME.c) exits 0. */
static void
all_match(const char *path, const char *name)
{
	char c[4200], bin[4200];

	both_match(path);
	snprintf(c, sizeof(c), "%s/%s.c", dir, name);
	snprintf(bin, sizeof(bin), "%s/%s", dir, name);
	emit_build(path, c, bin);
	if (RUN(kfdtrace, "sim", "--", bin)) {
		fputs(out, stderr);
		fail_msg("emit-c's program of %s failed", path);
	}
	expect_out("every result as captured");
}

static void
test_teardown_set_late(void **state)
{
	char late[4200], c[4200], bin[4200], own[4200], from[32], to[32];
	const char *raw = end_raw();
	unsigned long waiter = 0, tid = 0;
	uint64_t s2, b;

	(void)state;
	snprintf(late, sizeof(late), "%s", tmp("end-late.kft"));
	/* The main thread's set of 5, and the waiting thread's last wait. */
	find_in(raw, "WAIT_EVENTS", 5, 0, &waiter);
	s2 = find_in(raw, "SET_EVENT", 5, 0, &tid);
	if (tid == waiter)
		s2 = find_in(raw, "SET_EVENT", 5, 1, NULL);
	b = find_in(raw, "WAIT_EVENTS", 5, 1, NULL);
	snprintf(from, sizeof(from), "%" PRIu64, s2);
	snprintf(to, sizeof(to), "%" PRIu64, s2 < b ? b : b + 1);
	unlink(late);
	assert_int_equal(RUN(alter, raw, late, "move", from, to), 0);
	both_match(late);
	/* The wait blocked until the exit, and the set that released it. */
	assert_int_equal(RUN(kfdtrace, "dump", "--seq", "--filter",
			     "SET_EVENT,WAIT_EVENTS,end", late), 0);
	expect_out("timeout=60000) = 0");
	snprintf(c, sizeof(c), "%s", tmp("end-late.c"));
	snprintf(bin, sizeof(bin), "%s", tmp("end-late"));
	emit_build(late, c, bin);
	snprintf(own, sizeof(own), "%s", tmp("end-own.kft"));
	unlink(own);
	if (RUN(kfdtrace, "record", "-o", own, "--sim", "--", bin)) {
		fputs(out, stderr);
		fail_msg("emit-c's program of %s failed", late);
	}
	expect_out("every result as captured");
	assert_int_equal(RUN(kfdtrace, "dump", "--filter", "munmap", own), 0);
	expect_out(", 2097152) = 0");
	assert_null(strstr(out, "67108864"));
}

/*
 * Event 7 of the same capture: a thread's SET_EVENT, then the main
 * thread's DESTROY_EVENT of it; the set renumbered after the destroy (as
 * when it is slow to return, entered before the destroy returned). It
 * succeeded, so the kernel ran it first: the replays issue the destroy
 * after it, not the set "after its event was destroyed".
 */
static void
test_teardown_use_late(void **state)
{
	char late[4200], from[32], to[32];
	const char *raw = end_raw();

	(void)state;
	snprintf(late, sizeof(late), "%s", tmp("end-use.kft"));
	snprintf(from, sizeof(from), "%" PRIu64,
		 find_in(raw, "SET_EVENT", 7, 0, NULL));
	assert_int_equal(RUN(kfdtrace, "dump", "--seq", "--filter",
			     "DESTROY_EVENT", raw), 0);
	expect_out(" DESTROY_EVENT(event_id=7) = 0");
	snprintf(to, sizeof(to), "%llu", strtoull(strstr(out, "#") + 1, NULL, 10));
	unlink(late);
	assert_int_equal(RUN(alter, raw, late, "move", from, to), 0);
	all_match(late, "end-use");
}

/*
 * Event 3 of the same capture: set 20 times, then a wait that finds it
 * set (age 21) and one that the main thread's next set releases (22).
 * That set made to enter just before the first wait and renumbered
 * before it: it was under way when the wait looked, and the wait's age
 * says it reached the kernel after: the replays issue it after the first
 * wait, which gets 21 again.
 */
static void
test_set_under_way(void **state)
{
	char moved[4200], late[4200], from[32], to[32], ts[32];
	const char *raw = end_raw(), *p;
	uint64_t w1, s21;

	(void)state;
	w1 = find_in(raw, "WAIT_EVENTS", 3, 0, NULL);
	s21 = find_in(raw, "SET_EVENT", 3, 20, NULL);
	snprintf(from, sizeof(from), "%" PRIu64, w1);
	assert_int_equal(RUN(kfdtrace, "dump", "--json", "--seq", "--from",
			     from, "--to", from, raw), 0);
	p = strstr(out, "\"ts\":");
	assert_non_null(p);
	snprintf(ts, sizeof(ts), "%llu", strtoull(p + 5, NULL, 10) - 1);
	snprintf(moved, sizeof(moved), "%s", tmp("end-under.kft"));
	snprintf(late, sizeof(late), "%s", tmp("end-under2.kft"));
	snprintf(from, sizeof(from), "%" PRIu64, s21);
	unlink(moved);
	assert_int_equal(RUN(alter, raw, moved, from, "ts", ts), 0);
	snprintf(to, sizeof(to), "%" PRIu64, w1);
	unlink(late);
	assert_int_equal(RUN(alter, moved, late, "move", from, to), 0);
	all_match(late, "end-under");
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	alter = getenv("RP_ALTER");
	gen = getenv("RP_GEN");
	gcc = getenv("EMIT_GCC");
	if (!kfdtrace || !alter || !gen) {
		fprintf(stderr, "KFDTRACE, RP_ALTER and RP_GEN must be set\n");
		return -1;
	}
	if (rp_make_dir("replay-ages") < 0)
		return -1;
	snprintf(trace, sizeof(trace), "%s", tmp("ages.kft"));
	if (RUN(kfdtrace, "sim", "--", gen, trace, "0", "ages")) {
		fputs(out, stderr);
		return -1;
	}
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_fired),
		cmocka_unit_test(test_learned_offset),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_set_after_wait),
		cmocka_unit_test(test_stall_names_pending),
		cmocka_unit_test(test_teardown_set_late),
		cmocka_unit_test(test_teardown_use_late),
		cmocka_unit_test(test_set_under_way),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
