/* SPDX-License-Identifier: MIT */
/*
 * What babeltrace2 shows of a kfdtrace trace, with the built plugin, the
 * built `kfdtrace` and the installed babeltrace2:
 *
 *  - time windows: `babeltrace2 --begin/--end` on a trace file (the muxer
 *    seeks the source's beginning and reads forward), flt.utils.trimmer
 *    straight on the source (its seek by time, through the file's index)
 *    and the same trim of the CTF export print the same events, exactly
 *    those of the whole output whose times are in the window;
 *  - value names, in the trace file's and the CTF export's text: errno
 *    names for err; display bases by the decoder's rule (hex gpu ids,
 *    handles, addresses, offsets); <flags>_names companions;
 *  - a parent's and a child's traces as two inputs: one stream in time
 *    order, each event's pid naming its process.
 *
 * Usage: test-bt2-view KFDTRACE GEN-BT2-TRACE PLUGIN-DIR BABELTRACE2
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static const char *kfdtrace, *gen, *plugin_dir, *bt2;
static char plugin_opt[4200];
static char work[] = "/tmp/kfdtrace-bt2-view-XXXXXX";
static char seek_path[256], seek_ctf[256], all_path[256], all_ctf[256];

/* Records of the "seek" trace: two threads, 6 ms, many small frames. */
#define SEEK_RECORDS "6000"

static void
wpath(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", work, name);
}

/* Run @argv; it must exit 0. Its stdout, to free(). */
static char *
run_ok(char *const argv[])
{
	struct tc_run r;
	char *out;

	assert_int_equal(tc_run(argv, &r), 0);
	if (r.status != 0)
		fprintf(stderr, "%s failed (%d): %s\n", argv[0], r.status, r.err);
	assert_int_equal(r.status, 0);
	out = r.out;
	r.out = NULL;
	tc_run_free(&r);
	return out;
}

static int
gen_trace(const char *path, const char *n, const char *pid,
	  const char *phase)
{
	char *argv[] = { (char *)gen, "seek", (char *)path, (char *)n,
			 (char *)pid, (char *)phase, NULL };
	struct tc_run r;
	int rc;

	rc = tc_run(argv, &r) || r.status != 0 ? -1 : 0;
	if (rc)
		fprintf(stderr, "gen-bt2-trace seek %s: %s", path,
			r.err ? r.err : "");
	tc_run_free(&r);
	return rc;
}

static int
setup(void **state)
{
	char *exp[] = { (char *)kfdtrace, "export", "--ctf", seek_ctf,
			seek_path, NULL };
	struct tc_run r;
	int rc;

	if (!mkdtemp(work))
		return -1;
	snprintf(plugin_opt, sizeof(plugin_opt), "--plugin-path=%s", plugin_dir);
	wpath(seek_path, sizeof(seek_path), "seek.kfdtrace");
	wpath(seek_ctf, sizeof(seek_ctf), "seek-ctf");
	wpath(all_path, sizeof(all_path), "all.kfdtrace");
	wpath(all_ctf, sizeof(all_ctf), "all-ctf");
	if (gen_trace(seek_path, SEEK_RECORDS, NULL, NULL))
		return -1;
	rc = tc_run(exp, &r) || r.status != 0 ? -1 : 0;
	if (rc)
		fprintf(stderr, "export: %s", r.err ? r.err : "");
	tc_run_free(&r);
	if (rc)
		return -1;
	/* Every record type, every kind of field (gen_trace.c "all"). */
	{
		char *g[] = { (char *)gen, "all", all_path, NULL };
		char *e[] = { (char *)kfdtrace, "export", "--ctf", all_ctf,
			      all_path, NULL };

		rc = tc_run(g, &r) || r.status != 0 ? -1 : 0;
		tc_run_free(&r);
		if (!rc)
			rc = tc_run(e, &r) || r.status != 0 ? -1 : 0;
		if (rc)
			fprintf(stderr, "all: %s", r.err ? r.err : "");
		tc_run_free(&r);
	}
	return rc;
}

static int
teardown(void **state)
{
	return tc_scratch_remove(work, NULL);
}

/* Whether [@l, @nl) holds @needle. */
static int
line_has(const char *l, const char *nl, const char *needle)
{
	size_t n = strlen(needle);

	for (; l + n <= nl; l++)
		if (!memcmp(l, needle, n))
			return 1;
	return 0;
}

/*
 * @text without its kfd:call_begin lines, in place: the export adds an
 * entry per call (begin-events), which a plain read of the file lacks.
 */
static char *
drop_begin_lines(char *text)
{
	char *o = text;
	const char *l, *nl;

	for (l = text; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			nl = l + strlen(l) - 1;
		if (!line_has(l, nl, " kfd:call_begin: ")) {
			memmove(o, l, (size_t)(nl - l) + 1);
			o += nl - l + 1;
		}
		if (!nl[1])
			break;
	}
	*o = '\0';
	return text;
}

/* ---- time windows ---- */

/*
 * The lines of pretty output @all whose "[SECONDS.NANOS]" time is in
 * [@b, @e] (both with nine decimals, so they compare as strings).
 */
static char *
lines_in_window(const char *all, const char *b, const char *e)
{
	char *out = calloc(1, strlen(all) + 1), *o = out;
	const char *l, *nl;
	size_t tl = strlen(b);

	assert_non_null(out);
	for (l = all; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		assert_non_null(nl);
		assert_int_equal(l[0], '[');
		if (strncmp(l + 1, b, tl) >= 0 && strncmp(l + 1, e, tl) <= 0) {
			memcpy(o, l, (size_t)(nl - l) + 1);
			o += nl - l + 1;
		}
	}
	return out;
}

/* babeltrace2 --begin/--end on @input (a trace file or a CTF directory). */
static char *
cli_window(const char *input, const char *b, const char *e)
{
	char begin[64], end[64];
	char *argv[] = { (char *)bt2, plugin_opt, (char *)input,
			 "--clock-seconds", "--no-delta", begin, end, NULL };

	snprintf(begin, sizeof(begin), "--begin=%s", b);
	snprintf(end, sizeof(end), "--end=%s", e);
	return run_ok(argv);
}

/*
 * flt.utils.trimmer straight on the source (no muxer between them, so the
 * trimmer seeks the source by time), with @src_params.
 */
static char *
trimmer_window(const char *src_params, const char *b, const char *e)
{
	char trim[128];
	char *argv[] = { (char *)bt2, plugin_opt, "run",
			 "--component=src:source.kfdtrace.trace",
			 "--params", (char *)src_params,
			 "--component=trim:filter.utils.trimmer",
			 "--params", trim,
			 "--component=out:sink.text.pretty",
			 "--params", "clock-seconds=true,no-delta=true",
			 "--connect=src:trim", "--connect=trim:out", NULL };

	snprintf(trim, sizeof(trim), "begin=\"%s\",end=\"%s\"", b, e);
	return run_ok(argv);
}

static void
check_window(const char *b, const char *e, size_t min_lines)
{
	char *argv[] = { (char *)bt2, plugin_opt, seek_path, "--clock-seconds",
			 "--no-delta", NULL };
	char params[600], *all, *want, *cli, *ctf, *trim, *trim_slack;

	all = run_ok(argv);
	want = lines_in_window(all, b, e);
	/* A window inside the trace: neither empty nor everything. */
	assert_true(tc_count_lines(want) >= min_lines);
	assert_true(tc_count_lines(want) < tc_count_lines(all));
	cli = cli_window(seek_path, b, e);
	ctf = drop_begin_lines(cli_window(seek_ctf, b, e));
	snprintf(params, sizeof(params), "inputs=[\"%s\"]", seek_path);
	trim = trimmer_window(params, b, e);
	/* A 1 ms slack: the seek skips frames through the index. */
	snprintf(params, sizeof(params), "inputs=[\"%s\"],reorder-slack-ms=1",
		 seek_path);
	trim_slack = trimmer_window(params, b, e);
	assert_string_equal(cli, want);
	assert_string_equal(ctf, want);
	assert_string_equal(trim, want);
	assert_string_equal(trim_slack, want);
	free(all);
	free(want);
	free(cli);
	free(ctf);
	free(trim);
	free(trim_slack);
}

/*
 * The trace's times: start_realtime 1700000000.123456789 plus 1 ms, then
 * a record every microsecond for 6 ms, spans of up to 50 us.
 */
static void
test_window_middle(void **state)
{
	check_window("1700000000.126000000", "1700000000.127000000", 900);
}

/* A window from before the trace, and one past its end but its last. */
static void
test_window_edges(void **state)
{
	check_window("1700000000.000000000", "1700000000.124600000", 100);
	check_window("1700000000.130400000", "1700000001.000000000", 10);
}

/* The well-formed sequence: each stream begins once, before its events. */
static void
test_window_messages(void **state)
{
	char params[600], trim[128];
	char *argv[] = { (char *)bt2, plugin_opt, "run",
			 "--component=src:source.kfdtrace.trace",
			 "--params", params,
			 "--component=trim:filter.utils.trimmer",
			 "--params", trim,
			 "--component=out:sink.text.details",
			 "--params", "with-metadata=false,with-data=true",
			 "--connect=src:trim", "--connect=trim:out", NULL };
	char *out, *first_event;

	snprintf(params, sizeof(params), "inputs=[\"%s\"],reorder-slack-ms=1",
		 seek_path);
	snprintf(trim, sizeof(trim),
		 "begin=\"1700000000.126000000\",end=\"1700000000.126100000\"");
	out = run_ok(argv);
	/* Two threads: two streams, each begun and ended once. */
	assert_int_equal(tc_count_str(out, "Stream beginning"), 2);
	assert_int_equal(tc_count_str(out, "Stream end"), 2);
	first_event = strstr(out, "Event `");
	assert_non_null(first_event);
	assert_true(strstr(out, "Packet beginning") < first_event);
	free(out);
}

/* ---- names of values ---- */

/* The pretty text of the trace file and of its CTF export, both. */
static void
both_texts(char **file, char **ctf)
{
	char *a[] = { (char *)bt2, plugin_opt, seek_path, NULL };
	char *b[] = { (char *)bt2, seek_ctf, NULL };

	*file = run_ok(a);
	*ctf = drop_begin_lines(run_ok(b));
}

/* The line of @text holding @needle, copied (free() it), or NULL. */
static char *
line_with(const char *text, const char *needle)
{
	const char *p = strstr(text, needle), *b, *e;

	if (!p)
		return NULL;
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	return strndup(b, e ? (size_t)(e - b) : strlen(b));
}

/*
 * err is an enumeration of errno names (the decoder's kfd_errno_name()),
 * "OK" for 0, its value kept: every sixth record of the trace is an
 * allocation failing with ENOMEM, the fourth of each six a map failing
 * with EINVAL, the sixth an unknown request failing with ENOTTY.
 */
static void
test_errno_names(void **state)
{
	char *texts[2], *l;
	int i;

	both_texts(&texts[0], &texts[1]);
	for (i = 0; i < 2; i++) {
		const char *t = texts[i];

		assert_int_equal(tc_count_str(t, "err = ( \"ENOMEM\" : container = 12 )"),
				 1000);
		assert_int_equal(tc_count_str(t, "err = ( \"EINVAL\" : container = 22 )"),
				 1000);
		assert_int_equal(tc_count_str(t, "err = ( \"ENOTTY\" : container = 25 )"),
				 1000);
		assert_int_equal(tc_count_str(t, "err = ( \"OK\" : container = 0 )"),
				 3000);
		assert_int_equal(tc_count_str(t, "err = ( <unknown>"), 0);
		l = line_with(t, "\"ENOMEM\"");
		assert_non_null(l);
		assert_non_null(strstr(l, "kfd:alloc_memory_of_gpu:"));
		assert_non_null(strstr(l, "ret = -1,"));
		free(l);
	}
	free(texts[0]);
	free(texts[1]);
}

/*
 * Display bases follow the decoder's kfd_role_is_hex(), as `kfdtrace dump`
 * prints: gpu ids (also the derived one of FREE and topology's list),
 * handles, addresses, offsets in hex; sizes and queue ids in decimal.
 */
static void
test_hex_bases(void **state)
{
	static const char *const hex[] = {
		"_gpu_id;", "_gpu_ids[", "_device_ids_in[", "_handle;",
		"_va_addr;", "_mmap_offset;", "_doorbell_offset;",
	};
	static const char *const dec[] = {
		"_size;", "_queue_id;", "_ring_size;",
	};
	char path[300], *meta, *texts[2], *line, *save = NULL;
	size_t i, nhex = 0, ndec = 0;
	int t;

	snprintf(path, sizeof(path), "%s/metadata", all_ctf);
	meta = tc_read_file(path, NULL);
	assert_non_null(meta);
	for (line = strtok_r(meta, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strstr(line, "integer {"))
			continue;
		for (i = 0; i < sizeof(hex) / sizeof(hex[0]); i++)
			if (strstr(line, hex[i])) {
				if (!strstr(line, "base = x;"))
					fprintf(stderr, "not hex: %s\n", line);
				assert_non_null(strstr(line, "base = x;"));
				nhex++;
			}
		for (i = 0; i < sizeof(dec) / sizeof(dec[0]); i++)
			if (strstr(line, dec[i])) {
				assert_null(strstr(line, "base = "));
				ndec++;
			}
	}
	/* The trace uses every one of them, in several events. */
	assert_true(nhex >= 15);
	assert_true(ndec >= 5);
	free(meta);

	both_texts(&texts[0], &texts[1]);
	for (t = 0; t < 2; t++) {
		assert_int_equal(tc_count_str(texts[t], "gpu_id = 0xBEEF,"), 2000);
		assert_int_equal(tc_count_str(texts[t], "gpu_id = 48879"), 0);
		assert_int_equal(tc_count_str(texts[t], "size = 2097152,"), 2000);
		assert_int_equal(tc_count_str(texts[t], "handle = 0xBEEF0000"),
				 2000);
		free(texts[t]);
	}
}

/*
 * Each flags field has a string companion <name>_names with the names
 * `kfdtrace dump` prints (the decoder's kfd_decode_flag_names()), next to
 * the field itself, a hex integer (an enumeration would match no label,
 * which python3-bt2 2.0 cannot read): the allocations of the trace ask
 * for VRAM, WRITABLE and EXECUTABLE.
 */
static void
test_flag_names(void **state)
{
	char *d[] = { (char *)kfdtrace, "dump", seek_path, NULL };
	char *dump, *texts[2], want[200], *p, *e;
	int t;

	/* dump's spelling of the first allocation's flags. */
	dump = run_ok(d);
	p = strstr(dump, "ALLOC_MEMORY_OF_GPU(");
	assert_non_null(p);
	p = strstr(p, "flags=");
	assert_non_null(p);
	p += strlen("flags=");
	e = p + strcspn(p, ",)");
	snprintf(want, sizeof(want), "flags_names = \"%.*s\"", (int)(e - p), p);
	/* Three names, in the table's order, whatever it is. */
	assert_int_equal(tc_count_str(want, "|"), 2);
	assert_non_null(strstr(want, "VRAM"));
	assert_non_null(strstr(want, "WRITABLE"));
	assert_non_null(strstr(want, "EXECUTABLE"));
	free(dump);

	both_texts(&texts[0], &texts[1]);
	for (t = 0; t < 2; t++) {
		assert_int_equal(tc_count_str(texts[t], want), 2000);
		/* The field itself: an integer, before its companion. */
		assert_int_equal(tc_count_str(texts[t],
			"flags = 0xC0000001, flags_names = "), 2000);
		free(texts[t]);
	}
}

/*
 * In "all": a flags field in a union arm with a single bit, and the libc
 * flags of kfd:open and kfd:mmap.
 */
static void
test_flag_names_all(void **state)
{
	char *a[] = { (char *)bt2, plugin_opt, all_path, NULL };
	char *out = run_ok(a);

	assert_non_null(strstr(out, "flags_names = \"GTT|COHERENT\""));
	assert_non_null(strstr(out, "exception_mask_names = \"QUEUE_WAVE_ABORT\""));
	/* libc's flags of open and mmap, as dump spells them, at the end. */
	assert_non_null(strstr(out, "flags = 0x80002, mode = 00, "));
	assert_non_null(strstr(out, "flags_names = \"O_RDWR|O_CLOEXEC\" }"));
	assert_non_null(strstr(out, "prot_names = \"PROT_READ|PROT_WRITE\", "
				    "flags_names = \"MAP_SHARED|MAP_FIXED\" }"));
	free(out);
}

/* ---- several processes ---- */

/* The N in ", pid = N }" of an event line (its common context), or -1. */
static long
line_pid(const char *l, const char *nl)
{
	const char *p = strstr(l, ", pid = ");

	if (!p || p > nl)
		return -1;
	return strtol(p + strlen(", pid = "), NULL, 10);
}

/*
 * A parent (pid 4242, which forks 4243) and its child, recorded at the same
 * time (times 500 ns apart): `inputs=[A,B]` is two traces, two ports, and
 * babeltrace2's muxer makes of them one stream in time order in which each
 * event's pid (and the trace's vpid, "vm:...:(PID)") says whose it is. The
 * files given to babeltrace2 as two inputs give the same.
 */
static void
test_two_processes(void **state)
{
	char parent[300], child[300], params[700], tag[64];
	char *argv[] = { (char *)bt2, plugin_opt, "-c", "source.kfdtrace.trace",
			 "--params", params, "--clock-seconds", NULL };
	char *auto_argv[] = { (char *)bt2, plugin_opt, parent, child,
			      "--clock-seconds", NULL };
	char *out, *out2, prev[32] = "";
	const char *l, *nl;
	size_t n[2] = { 0, 0 }, switches = 0;
	long last = 0, pid;

	wpath(parent, sizeof(parent), "parent.kfdtrace");
	wpath(child, sizeof(child), "child.kfdtrace");
	assert_int_equal(gen_trace(parent, "600", "4242", "0"), 0);
	assert_int_equal(gen_trace(child, "600", "4243", "500"), 0);
	snprintf(params, sizeof(params), "inputs=[\"%s\",\"%s\"]", parent,
		 child);
	out = run_ok(argv);
	/* 600 ioctls each, the parent's fork, an END each. */
	assert_int_equal(tc_count_lines(out), 602 + 601);
	for (l = out; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		assert_non_null(nl);
		/* Never back in time: "[SECONDS.NANOS]", all the same width. */
		assert_true(strncmp(l, prev, 22) >= 0);
		memcpy(prev, l, 22);
		pid = line_pid(l, nl);
		assert_true(pid == 4242 || pid == 4243);
		/* The event's pid is its trace's. */
		snprintf(tag, sizeof(tag), "vm:gen-bt2-trace:(%ld) ", pid);
		assert_non_null(strstr(l, tag));
		assert_true(strstr(l, tag) < nl);
		n[pid - 4242]++;
		if (last && pid != last)
			switches++;
		last = pid;
	}
	assert_int_equal(n[0], 602);
	assert_int_equal(n[1], 601);
	/* Merged, not one after the other. */
	assert_true(switches > 300);
	out2 = run_ok(auto_argv);
	assert_string_equal(out2, out);
	free(out);
	free(out2);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_middle),
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_window_messages),
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_hex_bases),
		cmocka_unit_test(test_flag_names),
		cmocka_unit_test(test_flag_names_all),
		cmocka_unit_test(test_two_processes),
	};

	if (argc != 5) {
		fprintf(stderr, "usage: %s KFDTRACE GEN-BT2-TRACE PLUGIN-DIR "
			"BABELTRACE2\n", argv[0]);
		return 2;
	}
	kfdtrace = argv[1];
	gen = argv[2];
	plugin_dir = argv[3];
	bt2 = argv[4];
	return cmocka_run_group_tests(tests, setup, teardown);
}
