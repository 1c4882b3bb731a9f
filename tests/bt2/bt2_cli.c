/* SPDX-License-Identifier: MIT */
/* The babeltrace2 end-to-end tests' shared steps (bt2_cli.h). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bt2_cli.h"
#include "tc_run.h"
#include "tc_text.h"

const char *kfdtrace, *gen, *plugin_dir, *bt2;
char plugin_opt[4200];
char work[] = "/tmp/kfdtrace-bt2-test-XXXXXX";
char all_path[256];
uint64_t start_mono, start_real, all_records;

int
bt2_cli_args(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s KFDTRACE GEN-BT2-TRACE PLUGIN-DIR "
			"BABELTRACE2\n", argv[0]);
		return -1;
	}
	kfdtrace = argv[1];
	gen = argv[2];
	plugin_dir = argv[3];
	bt2 = argv[4];
	snprintf(plugin_opt, sizeof(plugin_opt), "--plugin-path=%s", plugin_dir);
	return 0;
}

int
bt2_cli_setup(void)
{
	struct tc_run r;
	char *a[] = { (char *)gen, "all", all_path, NULL };

	if (!mkdtemp(work))
		return -1;
	wpath(all_path, sizeof(all_path), "all.kfdtrace");
	if (tc_run(a, &r) || r.status != 0 ||
	    sscanf(r.out, "start_monotonic=%" SCNu64 " start_realtime=%" SCNu64
		   " records=%" SCNu64, &start_mono, &start_real,
		   &all_records) != 3) {
		fprintf(stderr, "gen all failed: %s%s", r.out ? r.out : "",
			r.err ? r.err : "");
		tc_run_free(&r);
		return -1;
	}
	tc_run_free(&r);
	return 0;
}

void
wpath(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", work, name);
}

void
jrecs_free(struct jrecs *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		jrec_free(&j->v[i]);
	free(j->v);
	memset(j, 0, sizeof(*j));
}

/* `kfdtrace dump --json` of @path, every record, nothing elided. */
void
dump_json(const char *path, struct jrecs *out, int want_status)
{
	char *argv[] = { (char *)kfdtrace, "dump", "--json", "--max-elems",
			 "100000", (char *)path, NULL };
	struct tc_run r;
	char *line, *save = NULL;

	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, want_status);
	out->n = 0;
	out->v = calloc(tc_count_lines(r.out) + 1, sizeof(*out->v));
	assert_non_null(out->v);
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (json_record(line, &out->v[out->n])) {
			fprintf(stderr, "cannot read JSON: %s\n", line);
			fail();
		}
		out->n++;
	}
	tc_run_free(&r);
}

/* babeltrace2's sink.text.details of CTF trace directory @dir. */
void
read_ctf(const char *dir, struct devs *out)
{
	char inputs[512];
	char *argv[] = { (char *)bt2, "-c", "source.ctf.fs", "--params", inputs,
			 "-c", "sink.text.details", "--params",
			 "with-metadata=false", NULL };
	struct tc_run r;

	snprintf(inputs, sizeof(inputs), "inputs=[\"%s\"]", dir);
	assert_int_equal(tc_run(argv, &r), 0);
	if (r.status != 0)
		fprintf(stderr, "%s", r.err);
	assert_int_equal(r.status, 0);
	assert_int_equal(details_parse(r.out, out), 0);
	tc_run_free(&r);
}

size_t
ctf_events(const char *dir)
{
	char *argv[] = { (char *)bt2, (char *)dir, NULL };
	struct tc_run r;
	size_t n;

	assert_int_equal(tc_run(argv, &r), 0);
	assert_int_equal(r.status, 0);
	/* Records only: the export adds an entry per call (begin-events). */
	n = tc_count_lines(r.out) - tc_count_str(r.out, " kfd:call_begin: ");
	tc_run_free(&r);
	return n;
}

/*
 * Whether @hay contains @needle once runs of white space count as one
 * space: babeltrace2 wraps its error messages.
 */
int
contains(const char *hay, const char *needle)
{
	char *flat = malloc(strlen(hay) + 1);
	size_t n = 0;
	int found;

	assert_non_null(flat);
	for (; *hay; hay++) {
		if (*hay == ' ' || *hay == '\n' || *hay == '\t') {
			if (n && flat[n - 1] == ' ')
				continue;
			flat[n++] = ' ';
		} else {
			flat[n++] = *hay;
		}
	}
	flat[n] = '\0';
	found = strstr(flat, needle) != NULL;
	free(flat);
	return found;
}

void
export_ctf(const char *trace, const char *dir, int want_status,
	   const char *want_err)
{
	char *argv[] = { (char *)kfdtrace, "export", "--ctf", (char *)dir,
			 (char *)trace, NULL };
	struct tc_run r;

	assert_int_equal(tc_run(argv, &r), 0);
	if (r.status != want_status)
		fprintf(stderr, "export: %s", r.err);
	assert_int_equal(r.signal, 0);
	assert_int_equal(r.status, want_status);
	if (want_err && !contains(r.err, want_err)) {
		fprintf(stderr, "want \"%s\" in: %s", want_err, r.err);
		fail();
	}
	tc_run_free(&r);
}

void
expected_name(const struct jrec *j, char *buf, size_t size)
{
	if (!strcmp(j->type, "ioctl"))
		snprintf(buf, size, "kfd:%s", j->event[0] ? j->event :
			 "unknown_ioctl");
	else
		snprintf(buf, size, "kfd:%s", j->type);
}

uint64_t
leaf_num(const struct dev *d, const char *path)
{
	size_t i;

	for (i = 0; i < d->f.n; i++)
		if (!strcmp(d->f.v[i].path, path) && d->f.v[i].type == LEAF_NUM)
			return d->f.v[i].num;
	fprintf(stderr, "%s (seq %" PRIu64 "): no number at %s\n", d->name,
		d->seq, path);
	fail();
	return 0;
}

const char *
leaf_str(const struct dev *d, const char *path)
{
	size_t i;

	for (i = 0; i < d->f.n; i++)
		if (!strcmp(d->f.v[i].path, path) && d->f.v[i].type == LEAF_STR)
			return d->f.v[i].str;
	fprintf(stderr, "%s: no string at %s\n", d->name, path);
	fail();
	return "";
}

/* Take the kfd:call_begin events out of @d (the export's entries). */
size_t
devs_drop_begins(struct devs *d)
{
	size_t i, k = 0, dropped = 0;

	for (i = 0; i < d->n; i++) {
		if (!strcmp(d->v[i].name, "kfd:call_begin")) {
			leaves_free(&d->v[i].f);
			dropped++;
			continue;
		}
		d->v[k++] = d->v[i];
	}
	d->n = k;
	return dropped;
}

