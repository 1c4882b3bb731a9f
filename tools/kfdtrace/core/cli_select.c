/* SPDX-License-Identifier: MIT */
/*
 * The record selection options shared by dump and export (cli_select.h).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/cli_select.h"
#include "kfdtrace/decode.h"

static int
type_by_name(const char *name)
{
	unsigned int t;

	for (t = 1; t < KT_REC_TYPE_MAX; t++) {
		const char *n = kt_rec_type_name(t);

		if (n && strcasecmp(n, name) == 0)
			return (int)t;
	}
	return -1;
}

const char *
cli_select_nearest(const char *word, int types)
{
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(NULL);
	const char *names[2 * 256 + KT_REC_TYPE_MAX + 1];
	unsigned int nrows, i;
	size_t n = 0;

	kfd_schema_rows(&nrows);
	for (i = 0; i < nrows && n + 2 < 2 * 256; i++) {
		names[n++] = rows[i].name;
		names[n++] = rows[i].event_name;
	}
	names[n++] = "unknown-ioctl";
	for (i = 1; types && i < KT_REC_TYPE_MAX; i++)
		if (kt_rec_type_name(i))
			names[n++] = kt_rec_type_name(i);
	return cli_nearest(word, strlen(word), names, n);
}

/* "OPT: 'WORD' is not KIND", with the nearest name when there is one. */
static void
unknown_name(const char *opt, const char *word, const char *kind, int types)
{
	const char *near = cli_select_nearest(word, types);

	if (near)
		cli_err("%s: '%s' is not %s; did you mean '%s'?", opt, word,
			kind, near);
	else
		cli_err("%s: '%s' is not %s (the names 'kfdtrace dump' "
			"prints; docs/ioctl-schema.md lists them)", opt, word, kind);
}

int
cli_select_ioctls(const char *opt, const char *list, char **out)
{
	char *copy, *save = NULL, *tok, *canon;
	size_t len = 0;

	*out = NULL;
	if (!list[strspn(list, ", ")]) {
		cli_err("%s needs at least one ioctl name", opt);
		return -1;
	}
	/* A name per token of two bytes or more, each under 64 bytes. */
	copy = strdup(list);
	canon = calloc(1, strlen(list) + 1 + (strlen(list) / 2 + 1) *
		       (64 + 1));
	if (!copy || !canon) {
		free(copy);
		free(canon);
		cli_err("out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct kfd_ioctl_desc *desc;
		const char *name = tok;

		if (!*tok)
			continue;
		if (strcasecmp(tok, "unknown-ioctl") == 0) {
			name = "unknown-ioctl";
		} else if ((desc = kfd_schema_by_name(tok))) {
			name = desc->name;
		} else {
			unknown_name(opt, tok, "an ioctl", 0);
			free(copy);
			free(canon);
			return -1;
		}
		len += (size_t)sprintf(canon + len, "%s%s", len ? "," : "",
				       name);
	}
	free(copy);
	*out = canon;
	return 0;
}

int
cli_select_filter(struct cli_select *s, const char *list)
{
	char *copy, *save = NULL, *tok;
	int rc = 0;

	/* An empty list would match nothing and print nothing: say so. */
	if (!list[strspn(list, ", ")]) {
		cli_err("--filter needs at least one ioctl or record type "
			"(see '%s --help')", cli_prefix);
		return -1;
	}
	copy = strdup(list);
	if (!copy) {
		cli_err("out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct cli_names *side = &s->in;
		const struct kfd_ioctl_desc *desc;
		const struct kfd_ioctl_desc **n;
		int t;

		if (*tok == '!') {
			side = &s->out;
			tok++;
		}
		if (!*tok)
			continue;
		side->active = 1;
		if ((t = type_by_name(tok)) > 0) {
			side->types |= 1u << t;
			continue;
		}
		if (strcasecmp(tok, "unknown-ioctl") == 0) {
			side->unknown_ioctls = 1;
			continue;
		}
		desc = kfd_schema_by_name(tok);
		if (!desc) {
			unknown_name("--filter", tok,
				     "an ioctl, an event or a record type", 1);
			rc = -1;
			break;
		}
		n = realloc(side->descs, (side->ndescs + 1) * sizeof(*n));
		if (!n) {
			cli_err("out of memory");
			rc = -1;
			break;
		}
		side->descs = n;
		side->descs[side->ndescs++] = desc;
	}
	free(copy);
	return rc;
}

static int
names_match(const struct cli_names *f, const struct kt_record *rec)
{
	const struct kfd_ioctl_desc *desc;
	size_t i;

	if (rec->type < 32 && (f->types & (1u << rec->type)))
		return 1;
	if (rec->type != KT_REC_IOCTL)
		return 0;
	desc = kt_ioctl_row(&rec->u.ioctl);
	if (!desc)
		return f->unknown_ioctls;
	for (i = 0; i < f->ndescs; i++)
		if (f->descs[i] == desc)
			return 1;
	return 0;
}

int
cli_record_failed(const struct kt_record *rec)
{
	switch (rec->type) {
	case KT_REC_IOCTL:
		return rec->u.ioctl.ret < 0;
	case KT_REC_OPEN:
		return rec->u.open.ret < 0;
	case KT_REC_CLOSE:
		return rec->u.close.ret < 0;
	case KT_REC_DUP:
		return rec->u.dup.ret < 0;
	case KT_REC_MMAP:
		return rec->u.mmap.result == UINT64_MAX;
	case KT_REC_MUNMAP:
		return rec->u.munmap.ret < 0;
	case KT_REC_API_CALL:
		return rec->u.api.status != 0;
	default:
		return 0;
	}
}

int
cli_select_in_time(const struct cli_select *s, uint64_t ts, uint64_t start_ns)
{
	uint64_t t = ts > start_ns ? ts - start_ns : 0;

	return !s->timed || (t >= s->t0 && t <= s->t1);
}

int
cli_select_match(const struct cli_select *s, const struct kt_record *rec,
		 uint64_t start_ns)
{
	unsigned int i;

	if (s->in.active && !names_match(&s->in, rec))
		return 0;
	if (s->out.active && names_match(&s->out, rec))
		return 0;
	if (s->failed && !cli_record_failed(rec))
		return 0;
	if (s->ntids) {
		for (i = 0; i < s->ntids && s->tids[i] != rec->tid; i++)
			;
		if (i == s->ntids)
			return 0;
	}
	return cli_select_in_time(s, rec->ts, start_ns);
}

int
cli_select_active(const struct cli_select *s)
{
	return s->in.active || s->out.active || s->failed || s->ntids ||
	       s->npids || s->timed;
}

/* A list of ids: N[,N...] into @ids (at most CLI_SELECT_MAX_TIDS). */
static int
select_ids(uint32_t *ids, unsigned int *n, const char *list, const char *opt,
	   const char *what)
{
	const char *p = list;
	char *end;

	while (*p) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > UINT32_MAX || (*end && *end != ',') ||
		    *n == CLI_SELECT_MAX_TIDS) {
			cli_err("%s takes %s separated by commas (at most %d), "
				"not '%s'", opt, what, CLI_SELECT_MAX_TIDS, list);
			return -1;
		}
		ids[(*n)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int
cli_select_tids(struct cli_select *s, const char *list)
{
	return select_ids(s->tids, &s->ntids, list, "--tid", "thread ids");
}

int
cli_select_pids(struct cli_select *s, const char *list)
{
	return select_ids(s->pids, &s->npids, list, "--pid", "process ids");
}

int
cli_select_pid(const struct cli_select *s, int pid)
{
	unsigned int i;

	for (i = 0; i < s->npids; i++)
		if (s->pids[i] == (uint32_t)pid)
			return 1;
	return s->npids == 0;
}

int
cli_select_time(struct cli_select *s, const char *range)
{
	const char *dots = strstr(range, "..");
	char *end;
	double a = 0, b = 1e18;

	if (!dots)
		goto bad;
	if (dots > range) {
		a = strtod(range, &end);
		if (end != dots || a < 0)
			goto bad;
	}
	if (dots[2]) {
		b = strtod(dots + 2, &end);
		if (*end || b < a)
			goto bad;
	}
	s->timed = 1;
	s->t0 = (uint64_t)(a * 1e9);
	s->t1 = b >= 1e9 ? UINT64_MAX : (uint64_t)(b * 1e9);
	return 0;
bad:
	cli_err("--time takes A..B in seconds since the trace's start "
		"(e.g. 0.5..2, ..1, 3..), not '%s'", range);
	return -1;
}

void
cli_select_release(struct cli_select *s)
{
	free(s->in.descs);
	free(s->out.descs);
	s->in.descs = s->out.descs = NULL;
	s->in.ndescs = s->out.ndescs = 0;
}
