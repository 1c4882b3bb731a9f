/* SPDX-License-Identifier: MIT */
/*
 * Multi-threaded captures: rp_mt (N threads handing buffers and events to
 * one another) captured on AMD's thunk and on ours replays with zero
 * divergences on the same profile and on mi210x2, serially and with
 * --threads; with --threads a wait is in the kernel while the set that
 * releases it runs; a wait that comes before its SET_EVENT in sequence
 * order does not block, and the recording of its replay diffs equal to
 * the capture, also with many waits on one event held at once; a record
 * moved before the call its id comes from is reported with both record
 * numbers; a trace whose dependencies form a cycle is refused.
 *
 * Environment (set by meson): KFDTRACE, RP_ALTER, RP_MT, RP_OUR_THUNK.
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

static const char *kfdtrace, *alter, *mt, *our_thunk;


/* Capture "rp_mt THREADS" on AMD's thunk or ours into @file. */
static void
capture(const char *file, const char *threads, int ours)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, NULL };

	rp_lib_path(lib, sizeof(lib), ours ? our_thunk : NULL, our_thunk);
	snprintf(path, sizeof(path), "%s", tmp(file));
	if (access(path, F_OK) == 0)
		return;
	assert_int_equal(run_env((const char *const[]){ kfdtrace, "record", "-o",
				 path, "--sim", "--", mt, threads, NULL },
				 env), 0);
	/* The thunk we meant, and every call it made succeeded. */
	if (ours) {
		snprintf(lib, sizeof(lib), "thunk: %s/libhsakmt.so.1", our_thunk);
		expect_out(lib);
	} else {
		expect_out("thunk: /");
		assert_null(strstr(out, our_thunk));
	}
	assert_null(strstr(out, "rp_mt:"));
}

/* A line of "dump --json" output: the few members the tests read. */
struct jrec {
	uint64_t seq, ts, dur, handle, event_id;
	uint32_t tid;
	char name[40];
	int ok;			/* ret 0 (and wait_result COMPLETE) */
};

static uint64_t
jnum(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 0) : UINT64_MAX;
}

/* Parse a dump of @file's ALLOC/FREE/MAP/SET/WAIT records. */
static struct jrec *
parse(const char *file, size_t *n)
{
	struct jrec *v = NULL;
	size_t cap = 0;
	char *line, *save;

	assert_int_equal(RUN(kfdtrace, "dump", "--json", "--filter",
			     "ALLOC_MEMORY_OF_GPU,FREE_MEMORY_OF_GPU,"
			     "MAP_MEMORY_TO_GPU,UNMAP_MEMORY_FROM_GPU,SET_EVENT,"
			     "WAIT_EVENTS",
			     tmp(file)), 0);
	*n = 0;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct jrec *j;
		const char *nm = strstr(line, "\"name\":\"");

		if (!nm)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		j = &v[(*n)++];
		memset(j, 0, sizeof(*j));
		j->seq = jnum(line, "\"seq\":");
		j->tid = (uint32_t)jnum(line, "\"tid\":");
		j->ts = jnum(line, "\"ts\":");
		j->dur = jnum(line, "\"dur_ns\":");
		j->handle = jnum(line, "\"handle\":");
		j->event_id = jnum(line, "\"event_id\":");
		sscanf(nm + 8, "%39[A-Z_]", j->name);
		j->ok = jnum(line, "\"ret\":") == 0 &&
			(strcmp(j->name, "WAIT_EVENTS") ||
			 strstr(line, "\"COMPLETE\""));
	}
	/* strtok_r consumed out; leave it valid for the next RUN(). */
	return v;
}

/* Replay @file serially, or with --threads (@threads: its thread count). */
static void
replay_clean(const char *file, const char *sim, const char *map, int threads)
{
	const char *mode = threads ? "--threads" : "--verify=strict";
	char want[96];

	if (map)
		expect_ok(RUN(kfdtrace, "replay", sim, mode, "--gpu-map", map,
			      tmp(file)));
	else
		expect_ok(RUN(kfdtrace, "replay", sim, mode, tmp(file)));
	expect_out("result:      match (strict)");
	assert_null(strstr(out, "divergence"));
	assert_null(strstr(out, "order: #"));
	if (threads) {
		snprintf(want, sizeof(want), "threads:     %d captured threads, "
			 "each replayed on a thread of its own", threads);
		expect_out(want);
		assert_null(strstr(out, "stopped before"));
	} else {
		assert_null(strstr(out, "threads:"));
	}
}

/* ------------------------------------------------------------------ */

static void
threads_on(int ours)
{
	static const char *const counts[] = { "2", "4", "16" };
	char file[64], want[96];
	size_t i, n, k;

	for (i = 0; i < 3; i++) {
		struct jrec *v;
		int cross = 0;

		snprintf(file, sizeof(file), "mt%s-%s.kft", counts[i],
			 ours ? "ours" : "amd");
		capture(file, counts[i], ours);
		/* The capture has what the test is about: a buffer freed by
		 * another thread than the one that allocated it. */
		v = parse(file, &n);
		for (k = 0; k < n && !cross; k++) {
			size_t j;

			if (strcmp(v[k].name, "FREE_MEMORY_OF_GPU"))
				continue;
			for (j = k; j-- > 0;)
				if (!strcmp(v[j].name, "ALLOC_MEMORY_OF_GPU") &&
				    v[j].handle == v[k].handle) {
					cross = v[j].tid != v[k].tid;
					break;
				}
		}
		free(v);
		assert_true(cross);
		/* Planned in sequence order, across every thread. */
		assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
				     tmp(file)), 0);
		snprintf(want, sizeof(want), "order:      sequence order across "
			 "%d threads, every use after its creation",
			 atoi(counts[i]) + 1);
		expect_out(want);
		replay_clean(file, "--sim", NULL, 0);
		replay_clean(file, "--sim=mi210x2", "0xab12=0x5d3c", 0);
		replay_clean(file, "--sim", NULL, atoi(counts[i]) + 1);
		replay_clean(file, "--sim=mi210x2", "0xab12=0x5d3c",
			     atoi(counts[i]) + 1);
	}
}

static void
test_threads_amd(void **state)
{
	(void)state;
	threads_on(0);
}

static void
test_threads_ours(void **state)
{
	(void)state;
	threads_on(1);
}

/*
 * A wait before the SET_EVENT that released it, in sequence order and in
 * time (so holding the wait back until a later call starts does not help):
 * the wait is issued without blocking and compared once the set is
 * replayed. Blocking would take the whole --wait-timeout and diverge.
 */
static void
test_wait_before_set(void **state)
{
	char s1[32], s2[32], v[32], rec[4200], late[4200];
	struct jrec *r;
	size_t n, w, s = SIZE_MAX;
	double t0;

	(void)state;
	capture("mt4-amd.kft", "4", 0);
	r = parse("mt4-amd.kft", &n);
	for (w = 0; w < n && s == SIZE_MAX; w++) {
		size_t k;

		if (strcmp(r[w].name, "WAIT_EVENTS") || !r[w].ok ||
		    r[w].dur == UINT64_MAX)
			continue;
		/* The last set of its event before it, by another thread,
		 * with no other wait on the event in between. */
		for (k = w; k-- > 0;) {
			if (r[k].event_id != r[w].event_id)
				continue;
			if (!strcmp(r[k].name, "WAIT_EVENTS"))
				break;
			if (!strcmp(r[k].name, "SET_EVENT") && r[k].tid != r[w].tid) {
				s = k;
				break;
			}
		}
		if (s != SIZE_MAX)
			break;
	}
	if (s == SIZE_MAX) {
		free(r);
		fail_msg("no wait released by another thread's set in the capture");
	}
	snprintf(s1, sizeof(s1), "%" PRIu64, r[s].seq);
	snprintf(s2, sizeof(s2), "%" PRIu64, r[w].seq);
	snprintf(v, sizeof(v), "%" PRIu64, r[w].ts + r[w].dur + 1000);
	free(r);
	unlink(tmp("late-set1.kft"));
	unlink(tmp("late-set.kft"));
	assert_int_equal(RUN(alter, tmp("mt4-amd.kft"), tmp("late-set1.kft"),
			     s1, "ts", v), 0);
	assert_int_equal(RUN(alter, tmp("late-set1.kft"), tmp("late-set.kft"),
			     "move", s1, s2), 0);
	t0 = tc_now();
	snprintf(rec, sizeof(rec), "%s", tmp("late-set-replayed.kft"));
	unlink(rec);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--wait-timeout",
			     "20000", "--record", rec, tmp("late-set.kft")), 0);
	expect_out("result:      match (strict)");
	assert_true(tc_now() - t0 < 15);
	/* What the replayer issued of its own is marked: diff leaves it out. */
	snprintf(late, sizeof(late), "%s", tmp("late-set.kft"));
	assert_int_equal(RUN(kfdtrace, "diff", late, rec), 0);
	expect_out("equal:");
}

/* The completed wait and the set of "rp_mt block" in @file's dump. */
static void
wait_and_set(const char *file, struct jrec *w, struct jrec *set)
{
	struct jrec *r;
	size_t n, k;

	r = parse(file, &n);
	memset(w, 0, sizeof(*w));
	memset(set, 0, sizeof(*set));
	for (k = 0; k < n; k++) {
		if (!strcmp(r[k].name, "WAIT_EVENTS") && r[k].ok)
			*w = r[k];
		else if (!strcmp(r[k].name, "SET_EVENT"))
			*set = r[k];
	}
	free(r);
	if (!w->seq || !set->seq || w->dur == UINT64_MAX)
		fail_msg("%s: no completed wait and set", file);
}

/*
 * With --threads a wait is in the kernel while the other thread's call
 * that releases it runs, as in the capture (the records of the replay
 * itself show it): the capture's wait entered 250 ms before the set. The
 * serial replay issues the set first.
 */
static void
test_threads_block(void **state)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, NULL };
	struct jrec w, set;

	(void)state;
	rp_lib_path(lib, sizeof(lib), NULL, our_thunk);
	snprintf(path, sizeof(path), "%s", tmp("block.kft"));
	unlink(path);
	assert_int_equal(run_env((const char *const[]){ kfdtrace, "record", "-o",
				 path, "--sim", "--", mt, "block", NULL }, env), 0);
	assert_null(strstr(out, "rp_mt:"));
	wait_and_set("block.kft", &w, &set);
	assert_true(w.tid != set.tid);
	assert_true(w.ts < set.ts && set.ts < w.ts + w.dur);

	unlink(tmp("block-mt.kft"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--threads",
			     "--timing=original", "--record", tmp("block-mt.kft"),
			     tmp("block.kft")), 0);
	expect_out("result:      match (strict)");
	expect_out("threads:     2 captured threads");
	wait_and_set("block-mt.kft", &w, &set);
	assert_true(w.tid != set.tid);
	assert_true(w.ts < set.ts && set.ts < w.ts + w.dur);

	unlink(tmp("block-serial.kft"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--timing=original",
			     "--record", tmp("block-serial.kft"),
			     tmp("block.kft")), 0);
	expect_out("result:      match (strict)");
	wait_and_set("block-serial.kft", &w, &set);
	assert_true(w.tid == set.tid);
	assert_true(set.ts < w.ts);
}

/*
 * More threads than --threads runs at once (rp_mt relay: 82), the last of
 * which sets the event another thread has waited on since the start: each
 * thread past the cap takes the replay thread of one that had ended, never
 * that of the waiting thread, and the replay matches.
 */
static void
test_threads_relay(void **state)
{
	(void)state;
	capture("relay.kft", "relay", 0);
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--threads", "--wait-timeout",
		      "5000", tmp("relay.kft")));
	expect_out("result:      match (strict)");
	expect_out("threads:     82 captured threads on 64 replay threads");
	assert_null(strstr(out, "replayed on the thread of another"));
	assert_null(strstr(out, "stopped before"));
}

/*
 * A wait no CPU call released (its SET_EVENT dropped from the trace, as
 * when an engine's interrupt released it): the replay raises the event in
 * the GPU's stead, serial and --threads, and matches. A wait a CPU call
 * did release, whose set the replay leaves out (--skip), is a divergence:
 * the stand-in is not for it.
 */
static void
test_stand_in(void **state)
{
	static const char *const modes[] = { NULL, "--threads" };
	char si[4200], gpu[4200], rec[4200];
	int m;

	(void)state;
	capture("si.kft", "block", 0);
	snprintf(si, sizeof(si), "%s", tmp("si.kft"));
	snprintf(gpu, sizeof(gpu), "%s", tmp("si-gpu.kft"));
	snprintf(rec, sizeof(rec), "%s", tmp("si-replayed.kft"));
	unlink(gpu);
	assert_int_equal(RUN(alter, si, gpu, "drop", "SET_EVENT"), 0);
	for (m = 0; m < 2; m++) {
		unlink(rec);
		assert_int_equal(run((const char *const[]){ kfdtrace, "replay",
				     "--sim", "--record", rec, gpu, modes[m],
				     NULL }), 0);
		expect_out("result:      match (strict)");
		expect_out("gpu:         1 event interrupts raised in the GPU's stead");
		/* The replayer's own calls are marked, and diff leaves them out. */
		assert_int_equal(RUN(kfdtrace, "dump", rec), 0);
		expect_out("the set above stands in for the GPU");
		if (!m)
			expect_out("the wait above is a try");
		assert_int_equal(RUN(kfdtrace, "diff", gpu, rec), 0);
		expect_out("equal:");
		assert_int_not_equal(run((const char *const[]){ kfdtrace,
				     "replay", "--sim", "--wait-timeout", "200",
				     "--skip", "SET_EVENT", si, modes[m], NULL }), 0);
		expect_out("WAIT_EVENTS: wait_result: captured 0x0, replayed 0x1");
		assert_null(strstr(out, "GPU's stead"));
	}
}

/*
 * A wait numbered before the set that released it (as when the setter is
 * preempted between its call and its record): the serial replay tries the
 * wait, holds it, and issues it again after the set. The try is marked in
 * the recording and keeps the wait's place, so the recording diffs equal
 * to the capture.
 */
static void
test_try_keeps_place(void **state)
{
	char in[4200], moved[4200], rec[4200], ws[32], ss[32];
	struct jrec w, set;

	(void)state;
	capture("tp.kft", "block", 0);
	snprintf(in, sizeof(in), "%s", tmp("tp.kft"));
	snprintf(moved, sizeof(moved), "%s", tmp("tp-moved.kft"));
	snprintf(rec, sizeof(rec), "%s", tmp("tp-replayed.kft"));
	unlink(moved);
	unlink(rec);
	wait_and_set("tp.kft", &w, &set);
	snprintf(ws, sizeof(ws), "%" PRIu64, w.seq);
	snprintf(ss, sizeof(ss), "%" PRIu64, set.seq);
	/* Under load the capture itself may number the wait first. */
	if (set.seq < w.seq)
		assert_int_equal(RUN(alter, in, moved, "move", ws, ss), 0);
	else
		snprintf(moved, sizeof(moved), "%s", in);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--record", rec, moved), 0);
	expect_out("result:      match (strict)");
	assert_int_equal(RUN(kfdtrace, "dump", rec), 0);
	expect_out("the wait above is a try");
	assert_int_equal(RUN(kfdtrace, "diff", moved, rec), 0);
	expect_out("equal:");
}

/* The most waits a replay's recording @dump (its text) held at once. */
static int
most_held(const char *dump)
{
	static const char try[] = "is a try of record #";
	static const char done[] = "completes the try of record #";
	unsigned long long held[256], n;
	const char *p;
	int nheld = 0, most = 0, i;

	for (p = dump; (p = strstr(p, "the wait above ")); p++) {
		int is_try = !strncmp(p + 15, try, sizeof(try) - 1);

		if (!is_try && strncmp(p + 15, done, sizeof(done) - 1))
			continue;
		n = strtoull(p + 15 + (is_try ? sizeof(try) : sizeof(done)) - 1,
			     NULL, 10);
		for (i = 0; i < nheld && held[i] != n; i++)
			;
		if (is_try && i == nheld && nheld < 256)
			held[nheld++] = n;
		else if (!is_try && i < nheld)
			held[i] = held[--nheld];
		if (nheld > most)
			most = nheld;
	}
	return most;
}

/*
 * Many waits on one event held at once: "rp_mt held" waits 24 times on
 * one event, each wait released by a set of its own; with 3 sets in 4
 * left out (as if an engine had released those waits), the serial replay
 * holds those 18 waits until the DESTROY_EVENT, and the waits whose sets
 * are kept complete meanwhile. Each issue that ends a hold is marked with
 * the record it completes, so diff gives it its own try's place (not the
 * next wait's on the same events, nor past 8 held tries, as before), and
 * the recordings of both replays diff equal to the capture.
 */
static void
test_held_waits(void **state)
{
	static const char *const modes[] = { NULL, "--threads" };
	char in[4200], gpu[4200], rec[4200], drop[4096];
	struct jrec *r;
	size_t n, k, len = 0;
	int sets = 0, m;

	(void)state;
	capture("held.kft", "held", 0);
	snprintf(in, sizeof(in), "%s", tmp("held.kft"));
	snprintf(gpu, sizeof(gpu), "%s", tmp("held-gpu.kft"));
	snprintf(rec, sizeof(rec), "%s", tmp("held-replayed.kft"));
	r = parse("held.kft", &n);
	drop[0] = 0;
	for (k = 0; k < n; k++) {
		if (strcmp(r[k].name, "SET_EVENT") || ++sets % 4 == 0)
			continue;
		len += (size_t)snprintf(drop + len, sizeof(drop) - len, "%s%" PRIu64,
					len ? "," : "", r[k].seq);
		assert_true(len < sizeof(drop));
	}
	free(r);
	assert_int_equal(sets, 24);
	unlink(gpu);
	assert_int_equal(RUN(alter, in, gpu, "drop", drop), 0);
	for (m = 0; m < 2; m++) {
		unlink(rec);
		assert_int_equal(run((const char *const[]){ kfdtrace, "replay",
				     "--sim", "--record", rec, gpu, modes[m],
				     NULL }), 0);
		expect_out("result:      match (strict)");
		expect_out("gpu:         18 event interrupts raised in the GPU's stead");
		/* More waits held at once than diff once had room for. */
		if (!m) {
			assert_int_equal(RUN(kfdtrace, "dump", rec), 0);
			assert_true(most_held(out) > 8);
		}
		assert_int_equal(RUN(kfdtrace, "diff", gpu, rec), 0);
		expect_out("equal:");
	}
}

/* The first FREE whose handle another thread allocated: @a, @f. */
static void
cross_free(struct jrec *r, size_t n, size_t *a, size_t *f)
{
	size_t k, j;

	for (k = 0; k < n; k++) {
		if (strcmp(r[k].name, "FREE_MEMORY_OF_GPU"))
			continue;
		for (j = k; j-- > 0;)
			if (!strcmp(r[j].name, "ALLOC_MEMORY_OF_GPU") &&
			    r[j].handle == r[k].handle)
				break;
		if (j < k && r[j].tid != r[k].tid) {
			*a = j;
			*f = k;
			return;
		}
	}
	fail_msg("no buffer freed by another thread");
}

/*
 * Thread B frees what thread A allocated; moved before the allocation, the
 * free is reported by record number, up front and at the divergence.
 */
static void
test_moved_free(void **state)
{
	char sa[32], sf[32], want[256], hex[32];
	struct jrec *r;
	size_t n, a = 0, f = 0;
	uint64_t h;
	uint32_t ta, tf;

	(void)state;
	capture("mt2-amd.kft", "2", 0);
	r = parse("mt2-amd.kft", &n);
	cross_free(r, n, &a, &f);
	snprintf(sa, sizeof(sa), "%" PRIu64, r[a].seq);
	snprintf(sf, sizeof(sf), "%" PRIu64, r[f].seq);
	h = r[a].handle;
	ta = r[a].tid;
	tf = r[f].tid;
	free(r);
	unlink(tmp("moved.kft"));
	assert_int_equal(RUN(alter, tmp("mt2-amd.kft"), tmp("moved.kft"),
			     "move", sf, sa), 0);
	/* The free now has the allocation's number; the allocation is next. */
	snprintf(hex, sizeof(hex), "0x%" PRIx64, h);
	snprintf(want, sizeof(want), "order: #%s FREE_MEMORY_OF_GPU [%u] uses "
		 "memory handle %s that #%" PRIu64 " ALLOC_MEMORY_OF_GPU [%u] "
		 "creates later in sequence order", sa, tf, hex,
		 (uint64_t)strtoull(sa, NULL, 10) + 1, ta);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
			     tmp("moved.kft")), 0);
	expect_out("NOT satisfied");
	expect_out(want);
	assert_null(strstr(out, "cycle"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("moved.kft")), 1);
	expect_out(want);
	/* Not issued: its handle would name another buffer, or none. */
	snprintf(want, sizeof(want), "divergence at #%s FREE_MEMORY_OF_GPU: not "
		 "issued: it uses memory handle %s that #%" PRIu64
		 " ALLOC_MEMORY_OF_GPU [%u] creates after it in sequence order",
		 sa, hex, (uint64_t)strtoull(sa, NULL, 10) + 1, ta);
	expect_out(want);
	assert_null(strstr(out, "EBADF"));
	snprintf(want, sizeof(want), "first at #%s (stopped there", sa);
	expect_out(want);
	/* The same with each thread on its own: the plan's check holds. */
	snprintf(want, sizeof(want), "divergence at #%s FREE_MEMORY_OF_GPU: not "
		 "issued: it uses memory handle %s", sa, hex);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--threads",
			     tmp("moved.kft")), 1);
	expect_out(want);
	assert_null(strstr(out, "EBADF"));
}

/*
 * The free moved before the allocating thread's unmap: the unmap is a use
 * after the end, named with the free, and the free's divergence says so.
 * The unmap is made to enter after the free returned: one under way then
 * may have been the kernel's first, numbered late (the plan's swap).
 */
static void
test_moved_free_early(void **state)
{
	char su[32], sf[32], want[256], hex[32], src[4200], ts[32];
	struct jrec *r;
	size_t n, a = 0, f = 0, u;
	uint64_t tsu, fend;
	uint32_t tu, tf;

	(void)state;
	capture("mt2-amd.kft", "2", 0);
	r = parse("mt2-amd.kft", &n);
	cross_free(r, n, &a, &f);
	for (u = a + 1; u < f; u++)
		if (!strcmp(r[u].name, "UNMAP_MEMORY_FROM_GPU") &&
		    r[u].handle == r[a].handle)
			break;
	assert_true(u < f);
	snprintf(su, sizeof(su), "%" PRIu64, r[u].seq);
	snprintf(sf, sizeof(sf), "%" PRIu64, r[f].seq);
	snprintf(hex, sizeof(hex), "0x%" PRIx64, r[a].handle);
	tu = r[u].tid;
	tf = r[f].tid;
	tsu = r[u].ts;
	fend = r[f].ts + r[f].dur;
	free(r);
	snprintf(src, sizeof(src), "%s", tmp("mt2-amd.kft"));
	if (tsu <= fend) {
		snprintf(src, sizeof(src), "%s", tmp("early-ts.kft"));
		snprintf(ts, sizeof(ts), "%" PRIu64, fend + 1);
		unlink(src);
		assert_int_equal(RUN(alter, tmp("mt2-amd.kft"), src, su, "ts", ts), 0);
	}
	unlink(tmp("early.kft"));
	assert_int_equal(RUN(alter, src, tmp("early.kft"), "move", sf, su), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("early.kft")), 1);
	snprintf(want, sizeof(want), "order: #%" PRIu64 " UNMAP_MEMORY_FROM_GPU "
		 "[%u] uses memory handle %s after #%s FREE_MEMORY_OF_GPU [%u] "
		 "destroyed it", (uint64_t)strtoull(su, NULL, 10) + 1, tu, hex,
		 su, tf);
	expect_out(want);
	assert_null(strstr(out, "cycle"));
	/* The free fails (the buffer is still mapped) or the unmap is not
	 * issued: either way the report names the other record. */
	snprintf(want, sizeof(want), "(it destroys memory handle %s that #%"
		 PRIu64 " UNMAP_MEMORY_FROM_GPU [%u] uses after it", hex,
		 (uint64_t)strtoull(su, NULL, 10) + 1, tu);
	if (!strstr(out, want)) {
		snprintf(want, sizeof(want), "divergence at #%" PRIu64
			 " UNMAP_MEMORY_FROM_GPU: not issued: it uses memory "
			 "handle %s after #%s", (uint64_t)strtoull(su, NULL, 10) + 1,
			 hex, su);
		expect_out(want);
	}
}

/*
 * The kernel frees a handle before the FREE returns, so another thread's
 * ALLOC can get it back and be numbered first. Made here by moving a FREE
 * after the ALLOC of another thread that got its handle next: the plan
 * takes it as such a reuse, and both replays issue the FREE first.
 */
/* In @file: a FREE (@f) whose handle another thread's ALLOC (@c) gets next. */
static int
find_reuse(const char *file, struct jrec **rp, size_t *f, size_t *c)
{
	struct jrec *r;
	size_t n, k;

	r = parse(file, &n);
	for (*f = 0; *f < n; (*f)++) {
		if (strcmp(r[*f].name, "FREE_MEMORY_OF_GPU"))
			continue;
		/* The next record naming the handle. */
		for (k = *f + 1; k < n && r[k].handle != r[*f].handle; k++)
			;
		if (k < n && !strcmp(r[k].name, "ALLOC_MEMORY_OF_GPU") &&
		    r[k].tid != r[*f].tid) {
			*c = k;
			*rp = r;
			return 1;
		}
	}
	free(r);
	return 0;
}

static void
test_reuse_before_free(void **state)
{
	static const char *const files[] = { "mt16-amd.kft", "mt4-amd.kft",
					     "mt2-amd.kft" };
	char sf[32], sc[32], want[160];
	struct jrec *r = NULL;
	size_t i, f = 0, c = 0;
	int found = 0, natural;

	(void)state;
	for (i = 0; i < 3 && !found; i++) {
		capture(files[i], i == 0 ? "16" : i == 1 ? "4" : "2", 0);
		found = find_reuse(files[i], &r, &f, &c);
	}
	if (!found)
		fail_msg("no handle freed by one thread and allocated next by "
			 "another in any capture");
	i--;
	snprintf(sf, sizeof(sf), "%" PRIu64, r[f].seq);
	snprintf(sc, sizeof(sc), "%" PRIu64, r[c].seq);
	free(r);
	unlink(tmp("reuse.kft"));
	assert_int_equal(RUN(alter, tmp(files[i]), tmp("reuse.kft"),
			     "move", sf, sc), 0);
	/* The capture may have such reuses of its own (a FREE numbered
	 * after the ALLOC it raced): the count then starts higher. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
			     tmp(files[i])), 0);
	natural = strstr(out, "ids reused before") != NULL;
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
			     tmp("reuse.kft")), 0);
	expect_out("every use after its creation");
	/* The ALLOC now has the number before the FREE's. */
	if (natural)
		snprintf(want, sizeof(want), " ids reused before the end of "
			 "their previous life was numbered: the end goes first");
	else
		snprintf(want, sizeof(want), "1 ids reused before the end of "
			 "their previous life was numbered: the end goes first "
			 "(#%" PRIu64 " after #%s)",
			 (uint64_t)strtoull(sc, NULL, 10) - 1, sc);
	expect_out(want);
	replay_clean("reuse.kft", "--sim", NULL, 0);
	replay_clean("reuse.kft", "--sim", NULL, i == 0 ? 17 : i == 1 ? 5 : 3);
}

/* A thread that maps a buffer before it allocates it: no order works. */
static void
test_cycle(void **state)
{
	char sa[32], sm[32], want[256];
	struct jrec *r;
	size_t n, a, m = SIZE_MAX;

	(void)state;
	capture("mt2-amd.kft", "2", 0);
	r = parse("mt2-amd.kft", &n);
	for (a = 0; a < n && m == SIZE_MAX; a++) {
		size_t k;

		if (strcmp(r[a].name, "ALLOC_MEMORY_OF_GPU"))
			continue;
		for (k = a + 1; k < n; k++)
			if (!strcmp(r[k].name, "MAP_MEMORY_TO_GPU") &&
			    r[k].handle == r[a].handle && r[k].tid == r[a].tid) {
				m = k;
				break;
			}
		if (m != SIZE_MAX)
			break;
	}
	assert_true(m != SIZE_MAX);
	snprintf(sa, sizeof(sa), "%" PRIu64, r[a].seq);
	snprintf(sm, sizeof(sm), "%" PRIu64, r[m].seq);
	free(r);
	unlink(tmp("cycle.kft"));
	/* The allocation moves to the map's place: the map comes first. */
	assert_int_equal(RUN(alter, tmp("mt2-amd.kft"), tmp("cycle.kft"),
			     "move", sa, sm), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("cycle.kft")), 3);
	snprintf(want, sizeof(want), "order: the dependencies form a cycle "
		 "(2 records): #%" PRIu64 " MAP_MEMORY_TO_GPU", (uint64_t)strtoull(sm, NULL,
									10) - 1);
	expect_out(want);
	snprintf(want, sizeof(want), "-> #%s ALLOC_MEMORY_OF_GPU", sm);
	expect_out(want);
	expect_out("no order of its records can be replayed");
	assert_null(strstr(out, "summary:"));
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	alter = getenv("RP_ALTER");
	mt = getenv("RP_MT");
	our_thunk = getenv("RP_OUR_THUNK");
	if (!kfdtrace || !alter || !mt || !our_thunk) {
		fprintf(stderr, "KFDTRACE, RP_ALTER, RP_MT and RP_OUR_THUNK "
			"must be set\n");
		return -1;
	}
	return rp_make_dir("replay-mt");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_amd),
		cmocka_unit_test(test_threads_ours),
		cmocka_unit_test(test_wait_before_set),
		cmocka_unit_test(test_threads_block),
		cmocka_unit_test(test_threads_relay),
		cmocka_unit_test(test_stand_in),
		cmocka_unit_test(test_try_keeps_place),
		cmocka_unit_test(test_held_waits),
		cmocka_unit_test(test_moved_free),
		cmocka_unit_test(test_moved_free_early),
		cmocka_unit_test(test_reuse_before_free),
		cmocka_unit_test(test_cycle),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
