/* SPDX-License-Identifier: MIT */
/*
 * The babeltrace2 plugin and `kfdtrace export --ctf`, end to end with the
 * built binaries and the installed babeltrace2:
 *
 *  - a trace with every record type is exported to CTF, read back by
 *    babeltrace2's own CTF source (sink.text.details), and every event is
 *    compared with `kfdtrace dump --json`: one event per record (the
 *    export's entry events aside: test_bt2_begin.c), the event name, its
 *    time, and every decoded field value;
 *  - babeltrace2 reads trace files directly (auto-discovery, explicit
 *    component, `convert`), with field names;
 *  - truncated files give the prefix and a warning; corrupt ones the prefix
 *    and an error naming the offset, never a crash.
 *
 * Usage: test-bt2 KFDTRACE GEN-BT2-TRACE PLUGIN-DIR BABELTRACE2
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bt2_cli.h"
#include "bt2_util.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

static char bench_path[256];

#define BENCH_RECORDS "20000"

/* ---- fixtures ---- */

static int
setup(void **state)
{
	struct tc_run r;
	char *b[] = { (char *)gen, "bench", bench_path, BENCH_RECORDS, NULL };

	if (bt2_cli_setup())
		return -1;
	wpath(bench_path, sizeof(bench_path), "bench.kfdtrace");
	if (tc_run(b, &r) || r.status != 0) {
		tc_run_free(&r);
		return -1;
	}
	tc_run_free(&r);
	return 0;
}

static int
teardown(void **state)
{
	return tc_scratch_remove(work, NULL);
}

/* ---- helpers ---- */

/* Hex digits only, even length: bytes the JSON shows as a string. */
static int
is_hex_bytes(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!strchr("0123456789abcdef.", s[n]))
			return 0;
	return n && (n % 2 == 0 || strstr(s, "..."));
}

/*
 * One JSON leaf against the event's leaves with the same match key (or,
 * for a value passed in, "<key>_in"). @must: the key has to exist.
 */
static int
check_leaf(const struct leaf *j, const struct dev *d, int must, uint64_t seq)
{
	char alt[120];
	size_t i;
	int seen = 0;

	snprintf(alt, sizeof(alt), "%s_in", j->key);
	for (i = 0; i < d->f.n; i++) {
		const struct leaf *b = &d->f.v[i];

		if (strcmp(b->key, j->key) && (!j->in_side || strcmp(b->key, alt)))
			continue;
		seen = 1;
		if (b->type == j->type &&
		    (j->type == LEAF_NUM ? b->num == j->num :
					   !strcmp(b->str, j->str)))
			return 0;
	}
	if (!seen && !must)
		return 0;
	if (j->type == LEAF_NUM)
		fprintf(stderr, "seq %" PRIu64 " %s: JSON %s = %" PRIu64
			" (0x%" PRIx64 ") %s\n", seq, d->name, j->path, j->num,
			j->num, seen ? "differs" : "missing");
	else
		fprintf(stderr, "seq %" PRIu64 " %s: JSON %s = \"%s\" %s\n", seq,
			d->name, j->path, j->str, seen ? "differs" : "missing");
	return 1;
}

/* Top-level JSON members that are not payload fields of the event. */
static int
skip_top(const struct jrec *j, const char *key)
{
	static const char *const skip[] = {
		"seq", "tid", "t", "ts", "type", "event", "ioc_type", "nr",
		"errno", "status_name", "file", "in_hex", "out_hex",
	};
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(key, skip[i]))
			return 1;
	/* The ioctl's name is the event's name; dup's kind is by name. */
	if (!strcmp(key, "name") && !strcmp(j->type, "ioctl"))
		return 1;
	if (!strcmp(key, "kind") && !strcmp(j->type, "dup"))
		return 1;
	return 0;
}

/* The unknown request's raw bytes against args_in / args_out. */
static int
check_raw(const struct dev *d, const char *hex, const char *member)
{
	size_t i, n = hex ? strlen(hex) / 2 : 0;
	char path[64];
	int bad = 0;

	if (!hex)
		return 1;
	for (i = 0; i < n; i++) {
		unsigned int byte;

		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			break;
		snprintf(path, sizeof(path), "%s[%zu]", member, i);
		bad |= leaf_num(d, path) != byte;
	}
	snprintf(path, sizeof(path), "%s_len", member);
	bad |= leaf_num(d, path) != n;
	return bad;
}

/* ---- tests ---- */

static void
test_plugin_listed(void **state)
{
	char *argv[] = { (char *)bt2, plugin_opt, "list-plugins", NULL };
	struct tc_run r;

	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "'source.kfdtrace.trace'"));
	tc_run_free(&r);
}

/* The support-info query claims our files by content, others not. */
static void
test_support_info(void **state)
{
	char params[512];
	char *argv[] = { (char *)bt2, plugin_opt, "query",
			 "source.kfdtrace.trace", "babeltrace.support-info",
			 "--params", params, NULL };
	struct tc_run r;

	snprintf(params, sizeof(params), "input=\"%s\",type=\"file\"", all_path);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1.0"));
	tc_run_free(&r);
	snprintf(params, sizeof(params), "input=\"%s\",type=\"file\"", gen);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0.0"));
	tc_run_free(&r);
}

static void
test_export_matches_dump(void **state)
{
	char dir[300], name[96];
	struct jrecs js;
	struct devs ds;
	uint64_t off = start_real - start_mono, last_ns = 0;
	uint64_t stream_t1 = UINT64_MAX, stream_t2 = UINT64_MAX;
	size_t i, k;
	int bad = 0;
	const struct dev *d;

	wpath(dir, sizeof(dir), "all-ctf");
	export_ctf(all_path, dir, 0, NULL);
	dump_json(all_path, &js, 0);
	read_ctf(dir, &ds);
	/* Time never goes back, entries included (test_begin_events). */
	for (i = 0; i < ds.n; i++) {
		assert_true(ds.v[i].ns >= last_ns);
		last_ns = ds.v[i].ns;
	}
	last_ns = 0;
	devs_drop_begins(&ds);

	/* One event per record, every record type present. */
	assert_int_equal(js.n, all_records);
	assert_int_equal(ds.n, js.n);
	for (i = 0; i < js.n; i++) {
		const struct jrec *j = &js.v[i];

		d = devs_by_seq(&ds, j->seq);
		if (!d) {
			fprintf(stderr, "no event for seq %" PRIu64 "\n", j->seq);
			bad++;
			continue;
		}
		expected_name(j, name, sizeof(name));
		if (strcmp(d->name, name)) {
			fprintf(stderr, "seq %" PRIu64 ": %s, want %s\n", j->seq,
				d->name, name);
			bad++;
		}
		if (d->tid != j->tid)
			bad++;
		/* One file is one process: the header's pid (gen_trace.c). */
		if (d->pid != 4242) {
			fprintf(stderr, "seq %" PRIu64 ": pid %" PRIu64
				", want 4242\n", j->seq, d->pid);
			bad++;
		}
		/* Spans are stamped with their end, everything else with ts. */
		if (d->ns != j->ts + (j->has_dur ? j->dur_ns : 0) + off) {
			fprintf(stderr, "seq %" PRIu64 ": time %" PRIu64
				", want %" PRIu64 "\n", j->seq, d->ns,
				j->ts + (j->has_dur ? j->dur_ns : 0) + off);
			bad++;
		}
		for (k = 0; k < j->io.n; k++) {
			const struct leaf *l = &j->io.v[k];

			if (l->type == LEAF_STR && is_hex_bytes(l->str))
				continue;
			bad += check_leaf(l, d, l->type == LEAF_NUM, j->seq);
		}
		for (k = 0; k < j->top.n; k++) {
			const struct leaf *l = &j->top.v[k];

			if (skip_top(j, l->key))
				continue;
			bad += check_leaf(l, d, 1, j->seq);
		}
		if (!strcmp(name, "kfd:unknown_ioctl"))
			bad += check_raw(d, j->in_hex, "args_in") +
			       check_raw(d, j->out_hex, "args_out");
	}
	assert_int_equal(bad, 0);
	for (i = 0; i < 26; i++) {
		const char *kinds[] = {
			"kfd:topology", "kfd:thread_name", "kfd:open", "kfd:dup",
			"kfd:get_version", "kfd:get_process_apertures_new",
			"kfd:amdgpu_info", "kfd:alloc_memory_of_gpu",
			"kfd:map_memory_to_gpu", "kfd:api_call", "kfd:mmap",
			"kfd:create_queue", "kfd:create_event",
			"kfd:wait_events", "kfd:destroy_event", "kfd:dbg_trap",
			"kfd:svm", "kfd:unknown_ioctl", "kfd:destroy_queue",
			"kfd:munmap", "kfd:free_memory_of_gpu",
			"kfd:annotation", "kfd:fork", "kfd:exec", "kfd:close",
			"kfd:end",
		};
		int found = 0;

		for (k = 0; k < ds.n; k++)
			found |= !strcmp(ds.v[k].name, kinds[i]);
		if (!found)
			fprintf(stderr, "no %s event\n", kinds[i]);
		assert_true(found);
	}

	/* One stream per thread; time never goes back. */
	for (i = 0; i < ds.n; i++) {
		d = &ds.v[i];
		assert_true(d->ns >= last_ns);
		last_ns = d->ns;
		if (d->tid == 1000) {
			if (stream_t1 == UINT64_MAX)
				stream_t1 = d->stream;
			assert_int_equal(d->stream, stream_t1);
		} else if (d->tid == 1001) {
			if (stream_t2 == UINT64_MAX)
				stream_t2 = d->stream;
			assert_int_equal(d->stream, stream_t2);
		}
	}
	assert_int_not_equal(stream_t1, UINT64_MAX);
	assert_int_not_equal(stream_t2, UINT64_MAX);
	assert_int_not_equal(stream_t1, stream_t2);

	/* Layouts the generic comparison does not pin down. */
	d = devs_by_seq(&ds, 8);	/* VRAM allocation */
	assert_string_equal(d->name, "kfd:alloc_memory_of_gpu");
	assert_int_equal(leaf_num(d, "heap"), 1);
	assert_int_equal(leaf_num(d, "flags"), 0x90000001u);
	assert_int_equal(leaf_num(d, "handle"), 0x123400000001ULL);
	d = devs_by_seq(&ds, 23);	/* its free */
	assert_int_equal((int64_t)leaf_num(d, "delta"), -2097152);
	d = devs_by_seq(&ds, 24);	/* the failed second free */
	assert_int_equal(leaf_num(d, "delta"), 0);
	assert_int_equal((int64_t)leaf_num(d, "ret"), -1);
	d = devs_by_seq(&ds, 7);	/* AMDGPU_INFO READ_MMR_REG */
	assert_int_equal(leaf_num(d, "args_arm"), 21);
	assert_int_equal(leaf_num(d, "args.dword_offset"), 0x263e);
	assert_int_equal(leaf_num(d, "result_out[3]"), 0x2a);
	d = devs_by_seq(&ds, 18);	/* DBG_TRAP SUSPEND_QUEUES */
	assert_int_equal(leaf_num(d, "args.queue_ids_in[1]"), 4);
	assert_int_equal(leaf_num(d, "args.queue_ids_out[1]"), 0x80000004u);
	d = devs_by_seq(&ds, 19);	/* SVM trailing attributes */
	assert_int_equal(leaf_num(d, "attrs_in[1].type"), 7);
	assert_int_equal(leaf_num(d, "attrs_out[1].value"), 9);
	d = devs_by_seq(&ds, 16);	/* WAIT_EVENTS event data */
	assert_int_equal(leaf_num(d, "events_in[0].event_id"), 7);
	assert_int_equal(leaf_num(d, "events_out[0].data[0]"), 5);
	assert_int_equal(leaf_num(d, "events_in[0].data[0]"), 0);
	d = devs_by_seq(&ds, 9);	/* MAP_MEMORY_TO_GPU device list */
	assert_int_equal(leaf_num(d, "device_ids_in_len"), 2);
	assert_int_equal(leaf_num(d, "device_ids_in[1]"), 22136);
	d = devs_by_seq(&ds, 0);	/* topology summary */
	assert_int_equal(leaf_num(d, "ngpus"), 1);
	assert_int_equal(leaf_num(d, "gpu_ids[0]"), 4660);
	d = devs_by_seq(&ds, 27);	/* exec argv */
	assert_int_equal(leaf_num(d, "argc"), 2);
	assert_string_equal(leaf_str(d, "argv[1]"), "--verbose");
	d = devs_by_seq(&ds, 10);	/* the API span */
	assert_string_equal(leaf_str(d, "name"), "hsaKmtAllocMemory");
	assert_int_equal(leaf_num(d, "dur_ns"), 43000);

	devs_free(&ds);
	jrecs_free(&js);
}

/* babeltrace2 TRACE: auto-discovery, one line per record, named fields. */
static void
test_direct_text(void **state)
{
	char *argv[] = { (char *)bt2, plugin_opt, all_path, NULL };
	/* Whole members, in order; a literal per line is one string. */
	static const char *const want[] = {
		("kfd:alloc_memory_of_gpu: { seq = 8, tid = 1000, pid = 4242 }, { fd = 3, "
		 "request = 0xC0284B16, va_addr = 0x7F0000000000, size = 2097152, "
		 "handle = 0x123400000001, mmap_offset_in = 0x0, "),
		"heap = ( \"VRAM\" : container = 1 ) }",
		"device_ids_in = [ [0] = 0x1234, [1] = 0x5678 ]",
		("query = ( \"READ_MMR_REG\" : container = 21 ), args_arm = ( "
		 "\"read_mmr_reg\" : container = 21 ), args = { { dword_offset = "
		 "0x263E, count = 1, "),
		("gpu_id = 0x1234, heap = ( \"VRAM\" : container = 1 ), "
		 "size = 2097152, delta = -2097152 }"),
		("kfd:exec: { seq = 27, tid = 1000, pid = 4242 }, { path = \"/usr/bin/rocminfo\", "
		 "argc = 2, argv = [ [0] = \"rocminfo\", [1] = \"--verbose\" ] }"),
		"kfd:thread_name: { seq = 14, tid = 1001, pid = 4242 }, { name = \"worker\" }",
		"queue_type = ( \"COMPUTE_AQL\" : container = 2 )",
		"flags = ( \"CLEAN\" : container = 0x0 ), records = 29, lost = 0, left_out = 0 }",
	};
	struct tc_run r;
	size_t i;

	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(tc_count_lines(r.out), all_records);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (!strstr(r.out, want[i]))
			fprintf(stderr, "missing: %s\n", want[i]);
		assert_non_null(strstr(r.out, want[i]));
	}
	tc_run_free(&r);
}

/*
 * Absolute times: the first event (1 ms + 1 us after the header's
 * start_monotonic) is printed at start_realtime + 1.001 ms.
 */
static void
test_wall_clock(void **state)
{
	char *argv[] = { (char *)bt2, plugin_opt, "--clock-seconds", all_path,
			 NULL };
	struct tc_run r;

	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	if (strncmp(r.out, "[1700000000.124457789]", 22))
		fprintf(stderr, "first line: %.80s\n", r.out);
	assert_int_equal(strncmp(r.out, "[1700000000.124457789]", 22), 0);
	tc_run_free(&r);
}

/* --component with explicit inputs, and the `path` spelling. */
static void
test_explicit_component(void **state)
{
	char params[512];
	char *argv[] = { (char *)bt2, plugin_opt,
			 "--component=source.kfdtrace.trace", "--params",
			 params, NULL };
	struct tc_run r;

	snprintf(params, sizeof(params), "inputs=[\"%s\"]", all_path);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(tc_count_lines(r.out), all_records);
	tc_run_free(&r);
	snprintf(params, sizeof(params), "path=\"%s\"", all_path);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(tc_count_lines(r.out), all_records);
	tc_run_free(&r);
}

/* babeltrace2 convert TRACE -o ctf: a CTF trace babeltrace2 reads back. */
static void
test_convert_command(void **state)
{
	char dir[300], sub[600] = "";
	char *argv[] = { (char *)bt2, plugin_opt, "convert", all_path, "-o",
			 "ctf", "--output", dir, NULL };
	struct dirent *de;
	struct tc_run r;
	struct devs ds;
	DIR *d;

	wpath(dir, sizeof(dir), "convert-ctf");
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	tc_run_free(&r);
	assert_int_equal(ctf_events(dir), all_records);
	/* convert writes one subdirectory per trace, named after it. */
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (!strncmp(de->d_name, "kfdtrace-gen-bt2-trace-", 23))
			snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
	closedir(d);
	assert_true(sub[0] != '\0');
	read_ctf(sub, &ds);
	assert_int_equal(ds.n, all_records);
	devs_free(&ds);
}

/*
 * A copy cut inside a frame: every complete record, then an error (or, with
 * damage-is-error=false, a warning).
 */
static void
test_truncated(void **state)
{
	char path[300], dir[300], params[400];
	char *argv[] = { (char *)bt2, plugin_opt, path, NULL };
	char *warn[] = { (char *)bt2, plugin_opt, "-c", "source.kfdtrace.trace",
			 "--params", params, NULL };
	struct jrecs js;
	struct tc_run r;
	struct stat st;
	FILE *in, *out;
	char buf[4096];
	size_t left, n;

	wpath(path, sizeof(path), "truncated.kfdtrace");
	wpath(dir, sizeof(dir), "truncated-ctf");
	assert_int_equal(stat(bench_path, &st), 0);
	in = fopen(bench_path, "rb");
	out = fopen(path, "wb");
	assert_non_null(in);
	assert_non_null(out);
	for (left = (size_t)st.st_size * 2 / 3; left; left -= n) {
		n = fread(buf, 1, left < sizeof(buf) ? left : sizeof(buf), in);
		assert_true(n > 0);
		assert_int_equal(fwrite(buf, 1, n, out), n);
	}
	fclose(in);
	fclose(out);

	/* kfdtrace dump: the prefix, exit 1. */
	dump_json(path, &js, 1);
	assert_true(js.n > 0);
	assert_true(js.n < 20000);

	/* babeltrace2: the same prefix, an error, exit 1 (as dump). */
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.signal, 0);
	assert_int_equal(r.status, 1);
	assert_int_equal(tc_count_lines(r.out), js.n);
	assert_non_null(strstr(r.err, "trace truncated"));
	tc_run_free(&r);

	/* damage-is-error=false: the same prefix, a warning, exit 0. */
	snprintf(params, sizeof(params), "inputs=[\"%s\"],damage-is-error=false",
		 path);
	assert_int_equal(tc_run(warn, &r), 0);
	assert_int_equal(r.signal, 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(tc_count_lines(r.out), js.n);
	assert_non_null(strstr(r.err, "warning"));
	assert_non_null(strstr(r.err, "truncated"));
	tc_run_free(&r);

	/* kfdtrace export: a complete CTF trace of the prefix, exit 1. */
	export_ctf(path, dir, 1, "truncated");
	assert_int_equal(ctf_events(dir), js.n);
	jrecs_free(&js);
}

/* Bad bytes in a data frame: the prefix, then an error naming the offset. */
static void
test_corrupt(void **state)
{
	char path[300], dir[300], want[96];
	char *argv[] = { (char *)bt2, plugin_opt, path, NULL };
	char *dump[] = { (char *)kfdtrace, "dump", path, NULL };
	const char *p;
	struct tc_run r;
	size_t lines;
	FILE *f;
	uint64_t off;

	wpath(path, sizeof(path), "corrupt.kfdtrace");
	wpath(dir, sizeof(dir), "corrupt-ctf");
	{
		char *cp[] = { "cp", bench_path, path, NULL };

		assert_int_equal(tc_run(cp, &r), 0);
		assert_int_equal(r.status, 0);
		tc_run_free(&r);
	}
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 15000, SEEK_SET), 0);
	assert_int_equal(fwrite("\x55\x66\x77\x88\x99", 1, 5, f), 5);
	fclose(f);

	/* What the reader says: records before it, and the frame's offset. */
	assert_int_equal(tc_run(dump, &r), 0);
	assert_int_equal(r.status, 1);
	lines = tc_count_lines(r.out);
	p = strstr(r.err, "corrupt at byte offset ");
	assert_non_null(p);
	assert_int_equal(parse_number(strtok((char *)p + 23, " "), &off), 0);
	tc_run_free(&r);
	assert_true(lines > 0);

	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.signal, 0);
	assert_int_equal(r.status, 1);
	assert_int_equal(tc_count_lines(r.out), lines);
	snprintf(want, sizeof(want), "corrupt trace at file offset %" PRIu64, off);
	if (!contains(r.err, want))
		fprintf(stderr, "want \"%s\" in:\n%s", want, r.err);
	assert_true(contains(r.err, want));
	tc_run_free(&r);

	export_ctf(path, dir, 1, want);
	assert_int_equal(ctf_events(dir), lines);
}

/*
 * Damage anywhere: a byte flipped at 48 places across the file. Each run
 * ends normally (0) or with an error (1), never by a signal, and prints
 * no more events than the trace has.
 */
static void
test_flipped_bytes(void **state)
{
	char path[300];
	char *argv[] = { (char *)bt2, plugin_opt, "-c", "source.kfdtrace.trace",
			 "--params", NULL, NULL };
	char params[400];
	struct stat st;
	struct tc_run r;
	uint8_t *orig;
	FILE *f;
	int i;

	wpath(path, sizeof(path), "flipped.kfdtrace");
	snprintf(params, sizeof(params), "inputs=[\"%s\"]", path);
	argv[5] = params;
	assert_int_equal(stat(all_path, &st), 0);
	orig = malloc((size_t)st.st_size);
	assert_non_null(orig);
	f = fopen(all_path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(orig, 1, (size_t)st.st_size, f), st.st_size);
	fclose(f);
	for (i = 0; i < 48; i++) {
		size_t at = 16 + (size_t)(st.st_size - 16) * (size_t)i / 48;

		orig[at] ^= 0xa5;
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(orig, 1, (size_t)st.st_size, f), st.st_size);
		fclose(f);
		orig[at] ^= 0xa5;
		assert_int_equal(tc_run(argv, &r), 0);
		if (r.signal || r.status > 1)
			fprintf(stderr, "byte %zu: status %d signal %d\n%s", at,
				r.status, r.signal, r.err);
		assert_int_equal(r.signal, 0);
		assert_true(r.status == 0 || r.status == 1);
		assert_true(tc_count_lines(r.out) <= all_records);
		tc_run_free(&r);
	}
	free(orig);
}

static void
test_not_a_trace(void **state)
{
	char params[512], dir[300];
	char *argv[] = { (char *)bt2, plugin_opt, "-c", "source.kfdtrace.trace",
			 "--params", params, NULL };
	struct tc_run r;

	snprintf(params, sizeof(params), "inputs=[\"%s\"]", gen);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.signal, 0);
	assert_int_not_equal(r.status, 0);
	assert_true(contains(r.err, "not a kfdtrace file"));
	tc_run_free(&r);
	wpath(dir, sizeof(dir), "not-a-trace-ctf");
	export_ctf(gen, dir, 1, "not a kfdtrace file");
}

/*
 * With no reorder window, the second thread's records (earlier in time
 * but later in the file) cannot be put back in order: they are stamped
 * with the last time emitted, the output never goes back in time, and a
 * warning says so.
 */
static void
test_reorder_window_exceeded(void **state)
{
	char params[512];
	char *argv[] = { (char *)bt2, plugin_opt, "-c", "source.kfdtrace.trace",
			 "--params", params, NULL };
	struct tc_run r;

	snprintf(params, sizeof(params),
		 "inputs=[\"%s\"],reorder-slack-ms=0,reorder-window-mb=0",
		 all_path);
	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(tc_count_lines(r.out), all_records);
	assert_non_null(strstr(r.err, "reorder window exceeded"));
	tc_run_free(&r);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plugin_listed),
		cmocka_unit_test(test_support_info),
		cmocka_unit_test(test_export_matches_dump),
		cmocka_unit_test(test_direct_text),
		cmocka_unit_test(test_wall_clock),
		cmocka_unit_test(test_explicit_component),
		cmocka_unit_test(test_convert_command),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_flipped_bytes),
		cmocka_unit_test(test_not_a_trace),
		cmocka_unit_test(test_reorder_window_exceeded),
	};

	if (bt2_cli_args(argc, argv))
		return 2;
	return cmocka_run_group_tests(tests, setup, teardown);
}
