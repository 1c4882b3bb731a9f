/* SPDX-License-Identifier: MIT */
/*
 * The CTF export's entry events (kfd:call_begin, source parameter
 * begin-events), end to end with the built binaries and babeltrace2:
 *
 *  - one per ioctl and API call of the trace of every record type, none
 *    for other records, stamped at the call's entry, in time order, with
 *    the call's name, kind, begin_ns/end_ns, dur_ns and result as
 *    `kfdtrace dump --json` has them;
 *  - babeltrace2 reading the file gives them only when asked;
 *  - entries read after younger events were emitted (no reorder slack)
 *    are warned of apart and keep their begin_ns.
 *
 * Usage: test-bt2-begin KFDTRACE GEN-BT2-TRACE PLUGIN-DIR BABELTRACE2
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bt2_cli.h"
#include "bt2_util.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static int
setup(void **state)
{
	return bt2_cli_setup();
}

static int
teardown(void **state)
{
	return tc_scratch_remove(work, NULL);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The begin_ns values of kfd:call_begin events in @text, sorted. */
static size_t
begin_ns_values(const char *text, uint64_t *v, size_t max)
{
	const char *p = text;
	size_t n = 0;

	while ((p = strstr(p, "begin_ns = ")) != NULL && n < max) {
		p += strlen("begin_ns = ");
		v[n++] = strtoull(p, NULL, 10);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	return n;
}

/*
 * The export's entries: one kfd:call_begin per ioctl and API call, stamped
 * at the call's entry (dump's ts), in time order with the other events,
 * with the call's name, its entry and exit in the time base of event
 * timestamps, its duration and result; none for other records.
 */
static void
test_begin_events(void **state)
{
	char dir[300], name[96];
	struct jrecs js;
	struct devs ds;
	uint64_t off = start_real - start_mono, last_ns = 0, calls = 0;
	size_t i, k, begins = 0;
	int bad = 0;

	wpath(dir, sizeof(dir), "begin-ctf");
	export_ctf(all_path, dir, 0, NULL);
	dump_json(all_path, &js, 0);
	read_ctf(dir, &ds);
	for (i = 0; i < ds.n; i++) {
		assert_true(ds.v[i].ns >= last_ns);
		last_ns = ds.v[i].ns;
		begins += !strcmp(ds.v[i].name, "kfd:call_begin");
	}
	for (i = 0; i < js.n; i++) {
		const struct jrec *j = &js.v[i];
		const struct dev *d = NULL;
		const struct leaf *l;
		int api = !strcmp(j->type, "api_call"), n = 0;
		int64_t want_ret;

		for (k = 0; k < ds.n; k++)
			if (ds.v[k].seq == j->seq &&
			    !strcmp(ds.v[k].name, "kfd:call_begin")) {
				d = &ds.v[k];
				n++;
			}
		if (!api && strcmp(j->type, "ioctl")) {
			if (n) {
				fprintf(stderr, "seq %" PRIu64 " (%s): an entry\n",
					j->seq, j->type);
				bad++;
			}
			continue;
		}
		calls++;
		if (n != 1) {
			fprintf(stderr, "seq %" PRIu64 ": %d entries\n", j->seq, n);
			bad++;
			continue;
		}
		if (api) {
			l = leaves_find(&j->top, "name");
			snprintf(name, sizeof(name), "%s", l ? l->str : "?");
			l = leaves_find(&j->top, "status");
		} else {
			expected_name(j, name, sizeof(name));
			l = leaves_find(&j->top, "ret");
		}
		want_ret = l ? (int64_t)l->num : INT64_MIN;
		if (d->ns != j->ts + off || d->tid != j->tid || d->pid != 4242 ||
		    strcmp(leaf_str(d, "name"), name) ||
		    strcmp(leaf_str(d, "kind"), api ? "api" : "ioctl") ||
		    leaf_num(d, "begin_ns") != j->ts + off ||
		    leaf_num(d, "end_ns") != j->ts + j->dur_ns + off ||
		    leaf_num(d, "dur_ns") != j->dur_ns ||
		    (int64_t)leaf_num(d, "call_ret") != want_ret) {
			fprintf(stderr, "seq %" PRIu64 ": entry %s at %" PRIu64
				" (want %s at %" PRIu64 ", dur %" PRIu64 ")\n",
				j->seq, leaf_str(d, "name"), d->ns, name,
				j->ts + off, j->dur_ns);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	assert_int_equal(begins, calls);
	assert_true(calls > 10);
	devs_free(&ds);
	jrecs_free(&js);

	/* Reading the file: entries only when asked (begin-events). */
	{
		char params[400];
		char *plain[] = { (char *)bt2, plugin_opt, all_path, NULL };
		char *asked[] = { (char *)bt2, plugin_opt, "-c",
				  "source.kfdtrace.trace", "--params", params,
				  NULL };
		struct tc_run r;

		assert_int_equal(tc_run(plain, &r), 0);
		assert_int_equal(r.status, 0);
		assert_int_equal(tc_count_str(r.out, " kfd:call_begin: "), 0);
		tc_run_free(&r);
		snprintf(params, sizeof(params),
			 "inputs=[\"%s\"],begin-events=yes", all_path);
		assert_int_equal(tc_run(asked, &r), 0);
		assert_int_equal(r.status, 0);
		assert_int_equal(tc_count_str(r.out, " kfd:call_begin: "), calls);
		assert_int_equal(tc_count_lines(r.out), all_records + calls);
		tc_run_free(&r);
	}
}


/*
 * Entries read after younger events were emitted: stamped late, said so
 * apart, their begin_ns the same as with the default slack.
 */
static void
test_begin_late(void **state)
{
	char params[512];
	char *argv[] = { (char *)bt2, plugin_opt, "-c", "source.kfdtrace.trace",
			 "--params", params, NULL };
	uint64_t late[64], ok[64];
	size_t nlate, nok;
	struct tc_run r, d;

	snprintf(params, sizeof(params), "inputs=[\"%s\"],"
		 "begin-events=yes,reorder-slack-ms=0,reorder-window-mb=0",
		 all_path);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "kfd:call_begin events were read "
			       "after younger events"));
	snprintf(params, sizeof(params), "inputs=[\"%s\"],"
		 "begin-events=yes", all_path);
	assert_int_equal(tc_run(argv, &d), 0);
	assert_int_equal(d.status, 0);
	assert_null(strstr(d.err, "kfd:call_begin events"));
	nlate = begin_ns_values(r.out, late, 64);
	nok = begin_ns_values(d.out, ok, 64);
	assert_int_equal(tc_count_lines(r.out), tc_count_lines(d.out));
	assert_true(nok > 10);
	assert_int_equal(nlate, nok);
	assert_memory_equal(late, ok, nok * sizeof(ok[0]));
	tc_run_free(&r);
	tc_run_free(&d);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_begin_events),
		cmocka_unit_test(test_begin_late),
	};

	if (bt2_cli_args(argc, argv))
		return 2;
	return cmocka_run_group_tests(tests, setup, teardown);
}
