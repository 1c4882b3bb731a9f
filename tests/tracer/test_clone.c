/* SPDX-License-Identifier: MIT */
/*
 * Children made with clone() rather than fork(). One with memory of its
 * own, made by libc's clone() or by the clone system call, is traced as a
 * forked child is: a trace file of its own, complete, holding all its
 * calls under its own thread id. One that shares the parent's memory
 * (CLONE_VM without CLONE_THREAD) cannot be: none of its calls may land
 * in the parent's trace, the parent's trace says such a child was made,
 * and its END record counts the child's calls as lost.
 *
 * The program runs straight under LD_PRELOAD. Paths come from the
 * environment (tests/tracer/meson.build).
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/trace.h>

#include "tc_text.h"
#include "tt_capture.h"

/* Run kt_workload clone @how @n; return its output (caller frees). */
static char *
run_clone(struct tt_cx *cx, const char *how, const char *n)
{
	const char *args[] = { getenv("KT_WORKLOAD"), "clone", how, n, NULL };
	char *log;
	size_t len;
	int status;

	status = tt_wait(tt_spawn_preloaded(cx, 1, NULL, args));
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	assert_true(tt_exited(status, 0));
	log = tc_read_file(cx->log, &len);
	assert_non_null(log);
	return log;
}

/* The number after @key in @log (freed here). */
static long
log_value(char *log, const char *key)
{
	const char *at = strstr(log, key);
	long v;

	assert_non_null(at);
	v = strtol(at + strlen(key), NULL, 10);
	free(log);
	return v;
}

/* The child's trace: STEM.<pid>.kfdtrace. */
static char *
child_trace(const struct tt_cx *cx, long pid)
{
	char name[64];

	snprintf(name, sizeof(name), "out.%ld.kfdtrace", pid);
	return tt_path(cx->dir, name);
}

/* Every ioctl record of @t was made by thread @tid. */
static void
check_tids(const struct tt_trace *t, uint32_t tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->recs[i].r.type == KT_REC_IOCTL)
			assert_int_equal(t->recs[i].r.tid, tid);
}

/*
 * A child with memory of its own: its trace is whole, begins with a FORK
 * record naming the parent, and holds its @calls GET_VERSIONs; the
 * parent's holds its own calls and, when @parent_knows, a FORK record
 * naming the child.
 */
static void
check_own_child(struct tt_cx *cx, long child, long calls, int parent_knows)
{
	char *path = child_trace(cx, child);
	struct tt_trace p, c;
	const struct tt_rec *fork;

	assert_int_equal(tt_trace_load(cx->out, &p), 0);
	tt_check_complete(&p);
	tt_check_counts(cx, &p, (int)p.hdr.pid);
	check_tids(&p, (uint32_t)p.hdr.pid);
	fork = tt_find_type(&p, KT_REC_FORK, 0);
	if (parent_knows) {
		assert_non_null(fork);
		assert_int_equal(fork->r.u.fork.child_pid, child);
	}

	assert_int_equal(tt_trace_load(path, &c), 0);
	assert_int_equal(c.hdr.pid, child);
	tt_check_complete(&c);
	tt_check_counts(cx, &c, (int)child);
	assert_int_equal(tt_count_ioctl(&c, "GET_VERSION"), calls);
	check_tids(&c, (uint32_t)child);
	fork = tt_find_type(&c, KT_REC_FORK, 0);
	assert_non_null(fork);
	assert_int_equal(fork->r.u.fork.parent_pid, p.hdr.pid);
	assert_int_equal(fork->r.u.fork.child_pid, 0);
	tt_trace_free(&p);
	tt_trace_free(&c);
	free(path);
}

static void
test_clone_glibc(void **state)
{
	struct tt_cx *cx = *state;
	long child;

	tt_need_tools();
	child = log_value(run_clone(cx, "glibc", "200"), "child ");
	check_own_child(cx, child, 200, 1);
}

/* No wrapper sees the system call: the child finds out at its first call. */
static void
test_clone_raw(void **state)
{
	struct tt_cx *cx = *state;
	long child;

	tt_need_tools();
	child = log_value(run_clone(cx, "raw", "300"), "child ");
	check_own_child(cx, child, 300, 0);
}

static void
test_clone_shared_memory(void **state)
{
	struct tt_cx *cx = *state;
	const struct tt_rec *note, *end;
	struct tt_trace t;
	char *path = tt_path(cx->dir, "out.*.kfdtrace");
	glob_t g;

	tt_need_tools();
	assert_int_equal(log_value(run_clone(cx, "vm", "80"), "vm_calls "), 80);
	/* No trace but the parent's. */
	assert_int_equal(glob(path, 0, NULL, &g), GLOB_NOMATCH);
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	/* Only the parent's calls, under the parent's thread. */
	tt_check_counts(cx, &t, (int)t.hdr.pid);
	check_tids(&t, (uint32_t)t.hdr.pid);
	note = tt_find_type(&t, KT_REC_ANNOTATION, 0);
	assert_non_null(note);
	assert_non_null(strstr(note->str, "CLONE_VM"));
	/* The child's calls are not lost silently. */
	assert_int_equal(t.st.integrity, KT_INTEGRITY_INCOMPLETE);
	end = tt_find_type(&t, KT_REC_END, 0);
	assert_non_null(end);
	assert_int_equal(end->r.u.end.lost, 80);
	assert_true(end->r.u.end.flags & KT_END_INCOMPLETE);
	tt_trace_free(&t);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clone_glibc, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_clone_raw, tt_cx_setup,
						tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_clone_shared_memory,
						tt_cx_setup, tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
