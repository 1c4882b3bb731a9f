/* SPDX-License-Identifier: MIT */
/* Readers of CTF metadata and the lttng provider header (names_read.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names_read.h"
#include "tc_run.h"
#include "tc_text.h"

char *
ctf_export_metadata(const char *kfdtrace, const char *gen, const char *mode,
		    const char *work)
{
	char trace[300], dir[300], meta[320];
	char *g[] = { (char *)gen, (char *)mode, trace, NULL };
	char *e[] = { (char *)kfdtrace, "export", "--ctf", dir, trace, NULL };
	struct tc_run r;

	snprintf(trace, sizeof(trace), "%s/%s.kfdtrace", work, mode);
	snprintf(dir, sizeof(dir), "%s/ctf", work);
	snprintf(meta, sizeof(meta), "%s/metadata", dir);
	if (tc_run(g, &r) || r.status) {
		fprintf(stderr, "gen-bt2-trace %s failed\n", mode);
		return NULL;
	}
	tc_run_free(&r);
	if (tc_run(e, &r) || r.status) {
		fprintf(stderr, "export failed: %s\n", r.err ? r.err : "");
		return NULL;
	}
	tc_run_free(&r);
	return tc_read_file(meta, NULL);
}

char *
ctf_event_block(const char *meta, const char *name)
{
	char pat[128];
	const char *p, *start, *end;

	snprintf(pat, sizeof(pat), "name = \"%s\";", name);
	p = strstr(meta, pat);
	if (!p)
		return NULL;
	for (start = p; start > meta && strncmp(start, "event {", 7); start--)
		;
	end = strstr(p, "\nevent {");
	if (!end)
		end = p + strlen(p);
	return strndup(start, (size_t)(end - start));
}

int
ctf_has_field(const char *block, const char *field)
{
	char pat[96];

	snprintf(pat, sizeof(pat), " _%s;", field);
	return strstr(block, pat) != NULL;
}

int
ctf_members(const char *block, char (*out)[96], int max)
{
	const char *p = strstr(block, "fields := struct {"), *tok;
	int depth = 1, n = 0;

	if (!p)
		return -1;
	p += strlen("fields := struct {");
	for (tok = p; *p && depth > 0; p++) {
		size_t len;
		const char *e;

		if (*p == '{' || *p == '}') {
			depth += *p == '{' ? 1 : -1;
			continue;
		}
		if (*p != ';' || depth != 1)
			continue;
		/* The declarator: the last word before ';'. */
		for (e = p; e > tok && e[-1] != ' ' && e[-1] != '\t' &&
		     e[-1] != '\n' && e[-1] != '}'; e--)
			;
		len = strcspn(e, "[;");
		if (*e == '_')
			e++, len--;
		if (n == max || len >= sizeof(out[0]))
			return -1;
		memcpy(out[n], e, len);
		out[n++][len] = '\0';
		tok = p + 1;
	}
	return n;
}

char *
tp_event_block(const char *tp, const char *name)
{
	char pat[128];
	const char *p, *end;

	snprintf(pat, sizeof(pat), "LTTNG_UST_TRACEPOINT_EVENT(kfd, %s,", name);
	p = strstr(tp, pat);
	if (!p)
		return NULL;
	end = strstr(p + 1, "LTTNG_UST_TRACEPOINT_EVENT(");
	if (!end)
		end = p + strlen(p);
	return strndup(p, (size_t)(end - p));
}

int
tp_field(const char *block, unsigned int i, char *out, size_t size)
{
	const char *p = block;

	while ((p = strstr(p, "lttng_ust_field_")) != NULL) {
		const char *a = strchr(p, '(');
		int want = strncmp(p, "lttng_ust_field_enum(", 21) ? 2 : 4, k;
		size_t n;

		if (!a || !strncmp(p, "lttng_ust_field_enum_value", 26)) {
			p++;
			continue;
		}
		a++;
		for (k = 1; k < want && a; k++) {
			a = strchr(a, ',');
			if (a)
				a++;
		}
		if (!a)
			return -1;
		while (*a == ' ')
			a++;
		n = strcspn(a, ", )");
		p++;
		if (i--)
			continue;
		if (n >= size)
			return -1;
		memcpy(out, a, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

int
tp_has_field(const char *block, const char *field)
{
	char name[96];
	unsigned int i;

	for (i = 0; !tp_field(block, i, name, sizeof(name)); i++)
		if (!strcmp(name, field))
			return 1;
	return 0;
}
