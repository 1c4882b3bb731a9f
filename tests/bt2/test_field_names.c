/* SPDX-License-Identifier: MIT */
/*
 * test-field-names KFDTRACE GEN-BT2-TRACE KFD-LTTNG-GEN
 *
 * Both exporters name every schema field alike (the common rule,
 * kfdtrace/common/field_name.h): for every schema row, the fields of the
 * lttng-ust provider's event that kfd-lttng-gen writes (fd, the
 * argument's fields, ret, err, dur_ns) appear, by the same names and in
 * the same order, among the members of the babeltrace2 plugin's event in
 * the CTF that `kfdtrace export --ctf` writes for a trace with one call of
 * every row; and each of those field names is the rule's name of its
 * schema field (kc_field_name(), or a kc_field_name_nth() candidate where
 * it had to avoid another name). The generator runs here, so the test
 * needs no lttng-ust.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/field_name.h>
#include <kfdtrace/schema.h>

#include "names_read.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

#define MAX_MEMBERS 512

static char ctf[MAX_MEMBERS][96], lt[MAX_MEMBERS][96];

/* Fields kfd-lttng-gen gives an event: not union arms, padding or empty. */
static int
in_lttng(const struct kfd_field *f)
{
	return f->select < 0 && f->role != KFD_ROLE_PAD && f->width;
}

/* Whether @name is the rule's name for schema name @raw (or a candidate). */
static int
by_rule(const char *raw, const char *name)
{
	char base[KC_FIELD_NAME_MAX], cand[KC_FIELD_NAME_MAX];
	unsigned int n;

	kc_field_name(raw, base, sizeof(base));
	for (n = 1; n < 100; n++) {
		kc_field_name_nth(base, n, cand, sizeof(cand));
		if (!strcmp(cand, name))
			return 1;
	}
	return 0;
}

static int
check_row(const struct kfd_ioctl_desc *d, const char *meta, const char *tp,
	  unsigned int *checked)
{
	char ev[128];
	char *cb, *tb;
	int nc, nl = 0, i, j, k, bad = 0;

	snprintf(ev, sizeof(ev), "kfd:%s", d->event_name);
	cb = ctf_event_block(meta, ev);
	tb = tp_event_block(tp, d->event_name);
	if (!cb || !tb) {
		fprintf(stderr, "%s: no %s event\n", ev, !cb ? "CTF" : "lttng");
		free(cb);
		free(tb);
		return 1;
	}
	nc = ctf_members(cb, ctf, MAX_MEMBERS);
	while (nl < MAX_MEMBERS && !tp_field(tb, (unsigned int)nl, lt[nl],
					     sizeof(lt[0])))
		nl++;
	if (nc < 0 || nl < 4) {
		fprintf(stderr, "%s: cannot read the events' fields\n", ev);
		bad = 1;
		goto out;
	}
	/* The lttng fields, in order, among the CTF members ("args" aside). */
	for (i = 0, j = 0; i < nl && !bad; i++) {
		if (!strcmp(lt[i], "args"))
			continue;
		while (j < nc && strcmp(ctf[j], lt[i]))
			j++;
		if (j == nc) {
			fprintf(stderr, "%s: lttng field %s is not a member of the "
				"CTF event (or not in the same order)\n", ev, lt[i]);
			bad = 1;
		}
		j++;
	}
	/* Each argument field's name is the rule's name of its schema field. */
	if (strcmp(lt[0], "fd")) {
		fprintf(stderr, "%s: lttng's first field is %s\n", ev, lt[0]);
		bad = 1;
	}
	for (k = 0, i = 1; !bad && d->args && k < (int)d->args->nfields; k++) {
		const struct kfd_field *f = &d->args->fields[k];

		if (!in_lttng(f))
			continue;
		if (i >= nl - 3 || !by_rule(f->name, lt[i])) {
			fprintf(stderr, "%s: field %s is named %s\n", ev, f->name,
				i < nl - 3 ? lt[i] : "(missing)");
			bad = 1;
		}
		i++;
		(*checked)++;
	}
	if (!bad && strcmp(lt[i], "args") == 0)
		i++;
	if (!bad && (i != nl - 3 || strcmp(lt[i], "ret") ||
		     strcmp(lt[i + 1], "err") || strcmp(lt[i + 2], "dur_ns"))) {
		fprintf(stderr, "%s: lttng fields after the argument's: %s ...\n",
			ev, i < nl ? lt[i] : "(none)");
		bad = 1;
	}
out:
	free(cb);
	free(tb);
	return bad;
}

int
main(int argc, char **argv)
{
	char work[] = "/tmp/kfdtrace-names-XXXXXX", tp_path[300], emit_path[300];
	const struct kfd_ioctl_desc *rows;
	unsigned int nrows, i, checked = 0;
	char *meta, *tp;
	struct tc_run r;
	int bad = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: %s KFDTRACE GEN-BT2-TRACE KFD-LTTNG-GEN\n",
			argv[0]);
		return 2;
	}
	if (!mkdtemp(work))
		return 1;
	meta = ctf_export_metadata(argv[1], argv[2], "rows", work);
	if (!meta)
		return 1;
	snprintf(tp_path, sizeof(tp_path), "%s/kfd_tp.h", work);
	snprintf(emit_path, sizeof(emit_path), "%s/kfd_tp_emit.c", work);
	{
		char *l[] = { argv[3], tp_path, emit_path, NULL };

		if (tc_run(l, &r) || r.status) {
			fprintf(stderr, "kfd-lttng-gen failed: %s\n",
				r.err ? r.err : "");
			return 1;
		}
		tc_run_free(&r);
	}
	tp = tc_read_file(tp_path, NULL);
	rows = kfd_schema_rows(&nrows);
	if (!tp || !rows || !nrows)
		return 1;
	for (i = 0; i < nrows; i++)
		bad += check_row(&rows[i], meta, tp, &checked);
	printf("%u rows, %u fields named alike by the CTF export and the "
	       "lttng provider; %d rows differ\n", nrows, checked, bad);
	tc_scratch_remove(work, NULL);
	free(meta);
	free(tp);
	return bad || !checked ? 1 : 0;
}
