/* SPDX-License-Identifier: MIT */
/*
 * test-event-layout KFDTRACE GEN-BT2-TRACE KFD-LTTNG-GEN
 *
 * One event layout for both exporters: for every schema row, the lttng-ust
 * provider's event that kfd-lttng-gen writes (kfd_tp.h) and the babeltrace2
 * plugin's event in the CTF that `kfdtrace export --ctf` writes for a trace
 * with one call of every row have the same fields, in the same order, by
 * the same names, of the same types: integer size and signedness, hex or
 * decimal display base, enumeration or integer (err is an enumeration in
 * both), string, byte array and its length.
 *
 * What only the plugin can carry is left out of the comparison, and only
 * that: indirect buffers (dynamic arrays and their lengths), a union's
 * variant tag ("args_arm"), and the derived members after dur_ns (heap,
 * what a free freed). A union's "args" is a variant in the CTF and the raw
 * argument bytes in the lttng event: both must have it, at one place.
 * Each argument field's name is also the common rule's name of its schema
 * field (kc_field_name(), or a candidate kc_field_name_nth() gives). The
 * generator runs here, so the test needs no lttng-ust.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/field_name.h>
#include <kfdtrace/schema.h>

#include "names_read.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_text.h"

#define MAX_FIELDS 256

enum kind { K_INT, K_ENUM, K_STRING, K_BYTES, K_DYN, K_VARIANT, K_STRUCT,
	    K_SEQ, K_OTHER };

static const char *const kind_names[] = {
	"integer", "enumeration", "string", "byte array", "dynamic array",
	"variant", "structure", "sequence", "unknown",
};

struct field {
	char name[96];
	enum kind kind;
	unsigned int bits;	/* K_INT, K_ENUM: container size */
	int is_signed;
	int hex;		/* K_INT: display base 16 */
	unsigned int len;	/* K_BYTES: elements */
	char len_name[96];	/* K_DYN: its length member */
	char tag[96];		/* K_VARIANT: its tag member */
};

static struct field ctf[MAX_FIELDS], lt[MAX_FIELDS];
static char targs[6][128];

/* The number after "@key = " in [@p, @end), or 0. */
static unsigned int
num_after(const char *p, const char *end, const char *key)
{
	const char *k = strstr(p, key);

	return k && k < end ? (unsigned int)strtoul(k + strlen(key), NULL, 10) : 0;
}

/* One CTF member declaration [@p, @end) (without its ';'). */
static void
ctf_decl(const char *p, const char *end, struct field *f)
{
	const char *e = end, *b, *ib;

	memset(f, 0, sizeof(*f));
	while (p < end && isspace((unsigned char)*p))
		p++;
	/* The declarator: the last word, "_name" or "_name[...]". */
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	b = e;
	if (e > p && e[-1] == ']') {
		while (b > p && *b != '[')
			b--;
		ib = b + 1;
		if (isdigit((unsigned char)*ib)) {
			f->len = (unsigned int)strtoul(ib, NULL, 10);
		} else {
			size_t n = strcspn(ib, "]");

			if (*ib == '_')
				ib++, n--;
			snprintf(f->len_name, sizeof(f->len_name), "%.*s", (int)n, ib);
		}
		e = b;
	}
	for (b = e; b > p && !isspace((unsigned char)b[-1]) && b[-1] != '}'; b--)
		;
	if (*b == '_')
		b++;
	snprintf(f->name, sizeof(f->name), "%.*s", (int)(e - b), b);

	f->bits = num_after(p, end, "size = ");
	f->is_signed = strstr(p, "signed = true") && strstr(p, "signed = true") < end;
	if (!strncmp(p, "enum", 4)) {
		f->kind = K_ENUM;
	} else if (!strncmp(p, "integer", 7)) {
		const char *close = strchr(p, '}');

		f->hex = strstr(p, "base = x;") && strstr(p, "base = x;") < close;
		if (f->len_name[0])
			f->kind = K_DYN;
		else if (f->len)
			f->kind = f->bits == 8 ? K_BYTES : K_OTHER;
		else
			f->kind = K_INT;
	} else if (!strncmp(p, "string", 6)) {
		f->kind = f->len || f->len_name[0] ? K_OTHER : K_STRING;
	} else if (!strncmp(p, "variant", 7)) {
		const char *t = strchr(p, '<'), *te = t ? strchr(t, '>') : NULL;

		f->kind = K_VARIANT;
		if (t && te && te < end) {
			t++;
			if (*t == '_')
				t++;
			snprintf(f->tag, sizeof(f->tag), "%.*s", (int)(te - t), t);
		}
	} else if (!strncmp(p, "struct", 6)) {
		f->kind = K_STRUCT;
	} else {
		f->kind = K_OTHER;
	}
	if (f->len_name[0])
		f->kind = K_DYN;
}

/* The top-level payload members of CTF event block @block. */
static int
ctf_fields(const char *block, struct field *out, int max)
{
	const char *p = strstr(block, "fields := struct {"), *tok;
	int depth = 1, n = 0;

	if (!p)
		return -1;
	p += strlen("fields := struct {");
	for (tok = p; *p && depth > 0; p++) {
		if (*p == '{' || *p == '}') {
			depth += *p == '{' ? 1 : -1;
			continue;
		}
		if (*p != ';' || depth != 1)
			continue;
		if (n == max)
			return -1;
		ctf_decl(tok, p, &out[n++]);
		tok = p + 1;
	}
	return n;
}

/* A C integer type of the provider: its size and sign; 0 if unknown. */
static unsigned int
c_type(const char *t, int *is_signed)
{
	static const struct { const char *name; unsigned int bits; int s; } m[] = {
		{ "int", 32, 1 }, { "int8_t", 8, 1 }, { "int16_t", 16, 1 },
		{ "int32_t", 32, 1 }, { "int64_t", 64, 1 }, { "uint8_t", 8, 0 },
		{ "uint16_t", 16, 0 }, { "uint32_t", 32, 0 },
		{ "uint64_t", 64, 0 }, { "char", 8, 1 },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(t, m[i].name)) {
			*is_signed = m[i].s;
			return m[i].bits;
		}
	return 0;
}

/* The top-level comma-separated arguments of "(...)" at @p, trimmed. */
static int
split_args(const char *p, char (*args)[128], int max)
{
	int depth = 0, n = 0;
	const char *a = p + 1;

	for (p++; *p; p++) {
		if (*p == '(') {
			depth++;
		} else if ((*p == ',' && !depth) || (*p == ')' && !depth)) {
			while (isspace((unsigned char)*a))
				a++;
			if (n < max)
				snprintf(args[n++], sizeof(args[0]), "%.*s",
					 (int)(p - a), a);
			a = p + 1;
			if (*p == ')')
				return n;
		} else if (*p == ')') {
			depth--;
		}
	}
	return -1;
}

/* The fields of the provider's event block @block. */
static int
tp_fields(const char *block, struct field *out, int max)
{
	const char *p = strstr(block, "LTTNG_UST_TP_FIELDS(");
	int n = 0;

	if (!p)
		return -1;
	while ((p = strstr(p, "lttng_ust_field_")) != NULL) {
		const char *m = p + strlen("lttng_ust_field_");
		size_t ml = strcspn(m, "(");
		struct field *f = &out[n];
		int na;

		p = m + ml;
		if (n == max)
			return -1;
		na = split_args(p, targs, 6);
		memset(f, 0, sizeof(*f));
		if (!strncmp(m, "integer", ml) || !strncmp(m, "integer_hex", ml)) {
			if (na != 3)
				return -1;
			f->kind = K_INT;
			f->hex = ml == strlen("integer_hex");
			f->bits = c_type(targs[0], &f->is_signed);
			snprintf(f->name, sizeof(f->name), "%.95s", targs[1]);
		} else if (!strncmp(m, "enum", ml)) {
			if (na != 5)
				return -1;
			f->kind = K_ENUM;
			f->bits = c_type(targs[2], &f->is_signed);
			snprintf(f->name, sizeof(f->name), "%.95s", targs[3]);
		} else if (!strncmp(m, "string", ml) ||
			   !strncmp(m, "array_text", ml)) {
			f->kind = K_STRING;
			snprintf(f->name, sizeof(f->name), "%.95s",
				 targs[ml == strlen("string") ? 0 : 1]);
		} else if (!strncmp(m, "array_hex", ml)) {
			if (na != 4)
				return -1;
			f->kind = K_BYTES;
			f->len = (unsigned int)strtoul(targs[3], NULL, 0);
			snprintf(f->name, sizeof(f->name), "%.95s", targs[1]);
		} else if (!strncmp(m, "sequence_hex", ml)) {
			f->kind = K_SEQ;
			snprintf(f->name, sizeof(f->name), "%.95s", targs[1]);
		} else {
			f->kind = K_OTHER;
			snprintf(f->name, sizeof(f->name), "%.*s", (int)ml, m);
		}
		n++;
	}
	return n;
}

/* Drop what only the plugin carries (see the top of the file). */
static int
ctf_comparable(struct field *f, int n)
{
	char drop[MAX_FIELDS][96];
	int nd = 0, i, j, k = 0, end = n;

	for (i = 0; i < n; i++) {
		if (f[i].kind == K_DYN && nd < MAX_FIELDS)
			snprintf(drop[nd++], sizeof(drop[0]), "%s", f[i].len_name);
		if (f[i].kind == K_VARIANT && f[i].tag[0] && nd < MAX_FIELDS)
			snprintf(drop[nd++], sizeof(drop[0]), "%s", f[i].tag);
		if (!strcmp(f[i].name, "dur_ns"))
			end = i + 1;
	}
	for (i = 0; i < end; i++) {
		int dropped = f[i].kind == K_DYN;

		for (j = 0; j < nd && !dropped; j++)
			dropped = !strcmp(f[i].name, drop[j]);
		if (!dropped)
			f[k++] = f[i];
	}
	return k;
}

static void
describe(const struct field *f, char *buf, size_t size)
{
	if (f->kind == K_INT)
		snprintf(buf, size, "%s %s%u-bit integer, base %d", f->name,
			 f->is_signed ? "signed " : "", f->bits, f->hex ? 16 : 10);
	else if (f->kind == K_ENUM)
		snprintf(buf, size, "%s %s%u-bit enumeration", f->name,
			 f->is_signed ? "signed " : "", f->bits);
	else if (f->kind == K_BYTES)
		snprintf(buf, size, "%s %u bytes", f->name, f->len);
	else
		snprintf(buf, size, "%s %s", f->name, kind_names[f->kind]);
}

static int
same(const struct field *c, const struct field *l)
{
	if (strcmp(c->name, l->name))
		return 0;
	/* A union: the CTF's variant, the lttng event's raw bytes. */
	if (!strcmp(c->name, "args") && c->kind == K_VARIANT && l->kind == K_SEQ)
		return 1;
	if (c->kind != l->kind)
		return 0;
	switch (c->kind) {
	case K_INT:
		return c->bits == l->bits && c->is_signed == l->is_signed &&
		       c->hex == l->hex;
	case K_ENUM:
		return c->bits == l->bits && c->is_signed == l->is_signed;
	case K_BYTES:
		return c->len == l->len;
	case K_STRING:
		return 1;
	default:
		return 0;
	}
}

/* Whether @name is the rule's name for schema name @raw (or a candidate). */
static int
by_rule(const char *raw, const char *name)
{
	char base[KC_FIELD_NAME_MAX], cand[KC_FIELD_NAME_MAX];

	kc_field_name(raw, base, sizeof(base));
	for (unsigned int n = 1; n < 100; n++) {
		kc_field_name_nth(base, n, cand, sizeof(cand));
		if (!strcmp(cand, name))
			return 1;
	}
	return 0;
}

/* Each argument field (not a union arm) has a field named by the rule. */
static int
check_names(const struct kfd_ioctl_desc *d, const struct field *l, int nl)
{
	int bad = 0;

	for (unsigned int k = 0; d->args && k < d->args->nfields; k++) {
		const struct kfd_field *f = &d->args->fields[k];
		int found = 0;

		if (f->select >= 0 || f->role == KFD_ROLE_PAD || !f->width)
			continue;
		for (int i = 0; i < nl && !found; i++)
			found = by_rule(f->name, l[i].name);
		if (!found) {
			fprintf(stderr, "kfd:%s: no field named by the rule for %s\n",
				d->event_name, f->name);
			bad = 1;
		}
	}
	return bad;
}

static int
check_row(const struct kfd_ioctl_desc *d, const char *meta, const char *tp,
	  unsigned int *checked)
{
	char ev[128], a[200], b[200];
	char *cb, *tb;
	int nc, nl, i, bad = 0;

	snprintf(ev, sizeof(ev), "kfd:%s", d->event_name);
	cb = ctf_event_block(meta, ev);
	tb = tp_event_block(tp, d->event_name);
	if (!cb || !tb) {
		fprintf(stderr, "%s: no %s event\n", ev, !cb ? "CTF" : "lttng");
		free(cb);
		free(tb);
		return 1;
	}
	nc = ctf_fields(cb, ctf, MAX_FIELDS);
	nl = tp_fields(tb, lt, MAX_FIELDS);
	if (nc < 0 || nl < 5) {
		fprintf(stderr, "%s: cannot read the events' fields\n", ev);
		bad = 1;
		goto out;
	}
	nc = ctf_comparable(ctf, nc);
	for (i = 0; i < nc || i < nl; i++) {
		if (i < nc && i < nl && same(&ctf[i], &lt[i])) {
			(*checked)++;
			continue;
		}
		if (i < nc)
			describe(&ctf[i], a, sizeof(a));
		if (i < nl)
			describe(&lt[i], b, sizeof(b));
		fprintf(stderr, "%s: field %d: CTF %s, lttng %s\n", ev, i,
			i < nc ? a : "(none)", i < nl ? b : "(none)");
		bad = 1;
		break;
	}
	if (!bad)
		bad = check_names(d, lt, nl);
out:
	free(cb);
	free(tb);
	return bad;
}

int
main(int argc, char **argv)
{
	char work[] = "/tmp/kfdtrace-layout-XXXXXX", tp_path[300], emit_path[300];
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
	printf("%u rows, %u fields of one name and type in the CTF export and "
	       "the lttng provider; %d rows differ\n", nrows, checked, bad);
	tc_scratch_remove(work, NULL);
	free(meta);
	free(tp);
	return bad || !checked ? 1 : 0;
}
