/* SPDX-License-Identifier: MIT */
/*
 * The Trace Compass analysis, formats/tracecompass/kfd-analysis.xml.
 *
 *   test-tracecompass xsd XML XMLLINT
 *	The file validates against Trace Compass's XSD (and a copy with a
 *	required attribute removed does not). The XSDs are not part of the
 *	repository: KFDTRACE_TC_XSD_DIR names the directory of Trace
 *	Compass's XML analysis schemas (the one holding xmlDefinition.xsd;
 *	scripts/test.sh sets it to the checkout's ../shared/tracecompass-xsd
 *	when that exists). Without it, or without xmllint (XMLLINT empty;
 *	scripts/setup.sh installs it), the test is skipped, or fails under
 *	CI=true (tc_skip.h).
 *
 *   test-tracecompass names XML KFDTRACE GEN-BT2-TRACE LTTNG-TP-HEADER|-
 *	Every event and field the analysis reads exists: the CTF provider's
 *	in the CTF that `kfdtrace export --ctf` writes, the LTTng provider's
 *	in the "kfd" lttng-ust provider generated from the schema
 *	(tracer/lttng; "-" when lttng-ust is not built). Context fields
 *	("context._NAME", how Trace Compass names a stream's event context
 *	fields) must be in the export's event.context, or on the LTTng side
 *	be a context `lttng add-context -u` adds (vpid, vtid). The latency
 *	pattern's events and fields (transitions, segments) are the CTF
 *	export's too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bt2_util.h"
#include "names_read.h"
#include "tc_run.h"
#include "tc_scratch.h"
#include "tc_skip.h"
#include "tc_text.h"

#define MAX_USES 256

/* One event handler of one state provider: its event and the fields used. */
struct use {
	char provider[64];
	char event[80];
	char field[80];
};

static struct use uses[MAX_USES];
static int nuses;

/* The value of attribute @name in the tag starting at @tag. */
static int
attr(const char *tag, const char *name, char *out, size_t size)
{
	const char *end = strchr(tag, '>'), *p;
	char pat[64];
	size_t n;

	snprintf(pat, sizeof(pat), " %s=\"", name);
	p = strstr(tag, pat);
	if (!p || (end && p > end))
		return -1;
	p += strlen(pat);
	n = strcspn(p, "\"");
	if (n >= size)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

static void
add_use(const char *prov, const char *ev, const char *field)
{
	int i;

	for (i = 0; i < nuses; i++)
		if (!strcmp(uses[i].provider, prov) && !strcmp(uses[i].event, ev) &&
		    !strcmp(uses[i].field, field))
			return;
	if (nuses == MAX_USES)
		return;
	snprintf(uses[nuses].provider, sizeof(uses[0].provider), "%s", prov);
	snprintf(uses[nuses].event, sizeof(uses[0].event), "%s", ev);
	snprintf(uses[nuses].field, sizeof(uses[0].field), "%s", field);
	nuses++;
}

/*
 * The same for every <pattern>: each event a transition waits for, with
 * every field the pattern's actions read (its segments: name, times,
 * content), since any transition may run any action.
 */
static int
scan_patterns(const char *xml)
{
	const char *pt = xml;

	while ((pt = strstr(pt, "<pattern ")) != NULL) {
		const char *pt_end = strstr(pt, "</pattern>");
		const char *t = pt;
		char prov[64], ev[80], f[80];

		if (!pt_end || attr(pt, "id", prov, sizeof(prov)))
			return -1;
		while ((t = strstr(t, "<transition ")) != NULL && t < pt_end) {
			const char *p;

			if (attr(t, "event", ev, sizeof(ev)))
				return -1;
			add_use(prov, ev, "");
			for (p = pt; (p = strstr(p, "type=\"eventField\"")) &&
				     p < pt_end; p++) {
				const char *tag = p;

				while (tag > pt && *tag != '<')
					tag--;
				if (attr(tag, "value", f, sizeof(f)))
					return -1;
				add_use(prov, ev, f);
			}
			t++;
		}
		pt = pt_end;
	}
	return 0;
}

/* Collect (provider, event, field) from every event handler. */
static int
scan_xml(const char *xml)
{
	const char *sp = xml;

	while ((sp = strstr(sp, "<stateProvider ")) != NULL) {
		const char *sp_end = strstr(sp, "</stateProvider>");
		const char *h = sp;
		char prov[64];

		if (!sp_end || attr(sp, "id", prov, sizeof(prov)))
			return -1;
		while ((h = strstr(h, "<eventHandler ")) != NULL && h < sp_end) {
			const char *h_end = strstr(h, "</eventHandler>");
			const char *p;
			char ev[80], f[80];

			if (!h_end || attr(h, "eventName", ev, sizeof(ev)))
				return -1;
			add_use(prov, ev, "");
			for (p = h; (p = strstr(p, "type=\"eventField\"")) && p < h_end; p++) {
				const char *tag = p;

				while (tag > h && *tag != '<')
					tag--;
				if (attr(tag, "value", f, sizeof(f)))
					return -1;
				add_use(prov, ev, f);
			}
			for (p = h; (p = strstr(p, "<field name=\"")) && p < h_end; p++) {
				if (attr(p, "name", f, sizeof(f)))
					return -1;
				add_use(prov, ev, f);
			}
			h = h_end;
		}
		sp = sp_end;
	}
	return scan_patterns(xml) || !nuses ? -1 : 0;
}

/* ---- CTF: the metadata sink.ctf.fs writes (names_read.h reads it) ---- */

/*
 * For a handler of every event: the first event declaration with @field
 * (or any event for a context field or none), or NULL.
 */
static char *
ctf_any_event_with(const char *meta, const char *field)
{
	const char *p = meta;

	while ((p = strstr(p, "\nevent {")) != NULL) {
		const char *end = strstr(p + 1, "\nevent {");
		char *block = strndup(p + 1, end ? (size_t)(end - p - 1) : strlen(p + 1));

		if (!block)
			return NULL;
		if (!*field || !strncmp(field, "context.", 8) ||
		    ctf_has_field(block, field))
			return block;
		free(block);
		p++;
	}
	return NULL;
}

/* "context._pid": declared in the stream's event.context struct. */
static int
ctf_has_context(const char *meta, const char *field)
{
	const char *c = strstr(meta, "event.context := struct {"), *end;
	char pat[96];
	const char *p;

	if (!c)
		return 0;
	end = strstr(c, "\n\t}");	/* the struct's own closing brace */
	snprintf(pat, sizeof(pat), " %s;", field + strlen("context."));
	p = strstr(c, pat);
	return p && end && p < end;
}

/* The contexts the docs tell LTTng users to add (lttng add-context -u). */
static int
lttng_has_context(const char *field)
{
	return !strcmp(field, "context._vpid") || !strcmp(field, "context._vtid");
}

static int
check_names(const char *xml_path, const char *kfdtrace, const char *gen,
	    const char *tp_path)
{
	char work[] = "/tmp/kfdtrace-tc-test-XXXXXX";
	char *xml = tc_read_file(xml_path, NULL), *metadata = NULL, *tp = NULL;
	int i, bad = 0, ctf_checked = 0, lttng_checked = 0;

	if (!xml || scan_xml(xml)) {
		fprintf(stderr, "%s: cannot read the analysis\n", xml_path);
		return 1;
	}
	if (!mkdtemp(work))
		return 1;
	metadata = ctf_export_metadata(kfdtrace, gen, "all", work);
	if (!metadata)
		return 1;
	if (strcmp(tp_path, "-")) {
		tp = tc_read_file(tp_path, NULL);
		if (!tp) {
			fprintf(stderr, "%s: %s\n", tp_path, strerror(errno));
			return 1;
		}
	}

	for (i = 0; i < nuses; i++) {
		const struct use *u = &uses[i];
		/* The latency pattern reads the CTF export's entries. */
		int is_ctf = !strcmp(u->provider, "org.kfdtrace.tc.ctf") ||
			     !strcmp(u->provider, "org.kfdtrace.tc.latency");
		int is_lttng = !strcmp(u->provider, "org.kfdtrace.tc.lttng");
		char *block;

		if (!is_ctf && !is_lttng) {
			fprintf(stderr, "unknown provider %s\n", u->provider);
			bad++;
			continue;
		}
		if (strncmp(u->event, "kfd:", 4)) {
			fprintf(stderr, "%s: event %s is not kfd:*\n", u->provider,
				u->event);
			bad++;
			continue;
		}
		if (is_ctf) {
			int is_ctx = !strncmp(u->field, "context.", 8);

			/* "kfd:*": every event; the fields must be in some. */
			block = strchr(u->event, '*') ?
				ctf_any_event_with(metadata, u->field) :
				ctf_event_block(metadata, u->event);
			if (!block || (u->field[0] && !is_ctx &&
				       !ctf_has_field(block, u->field)) ||
			    (is_ctx && !ctf_has_context(metadata, u->field))) {
				fprintf(stderr, "CTF export: %s%s%s missing\n",
					u->event, u->field[0] ? " field " : "",
					u->field);
				bad++;
			}
			ctf_checked++;
			free(block);
		} else if (tp) {
			int is_ctx = !strncmp(u->field, "context.", 8);

			block = tp_event_block(tp, u->event + 4);
			if (!block || (u->field[0] && !is_ctx &&
				       !tp_has_field(block, u->field)) ||
			    (is_ctx && !lttng_has_context(u->field))) {
				fprintf(stderr, "lttng provider: %s%s%s missing\n",
					u->event, u->field[0] ? " field " : "",
					u->field);
				bad++;
			}
			lttng_checked++;
			free(block);
		}
	}
	printf("checked %d CTF and %d LTTng (event, field) uses%s\n",
	       ctf_checked, lttng_checked,
	       tp ? "" : " (lttng-ust provider not built: LTTng side skipped)");
	tc_scratch_remove(work, NULL);
	free(xml);
	free(metadata);
	free(tp);
	return bad || !ctf_checked ? 1 : 0;
}

static int
check_xsd(const char *xml_path, const char *xmllint)
{
	const char *xsd_dir = getenv("KFDTRACE_TC_XSD_DIR");
	char xsd[4200], broken[] = "/tmp/kfdtrace-tc-broken-XXXXXX";
	char *xml, *p;
	struct stat st;
	struct tc_run r;
	int fd, rc = 0;

	if (!xsd_dir || !*xsd_dir)
		tc_skip("KFDTRACE_TC_XSD_DIR is not set (the directory of Trace "
			"Compass's XML analysis schemas)");
	snprintf(xsd, sizeof(xsd), "%s/xmlDefinition.xsd", xsd_dir);
	if (stat(xsd, &st) != 0)
		tc_skip("no %s (KFDTRACE_TC_XSD_DIR=%s)", xsd, xsd_dir);
	if (!*xmllint || access(xmllint, X_OK) != 0)
		tc_skip("xmllint is not installed (libxml2-utils)");
	{
		char *argv[] = { (char *)xmllint, "--noout", "--schema", xsd,
				 (char *)xml_path, NULL };

		if (tc_run(argv, &r))
			return 1;
		if (r.status != 0 || !strstr(r.err, "validates")) {
			fprintf(stderr, "%s", r.err);
			rc = 1;
		}
		tc_run_free(&r);
	}
	/* The check can fail: a provider without its required version. */
	xml = tc_read_file(xml_path, NULL);
	p = xml ? strstr(xml, "<stateProvider version=\"1\" ") : NULL;
	if (!p)
		return 1;
	memcpy(p + 15, "           ", 11);
	fd = mkstemp(broken);
	if (fd < 0 || write(fd, xml, strlen(xml)) != (ssize_t)strlen(xml))
		return 1;
	close(fd);
	{
		char *argv[] = { (char *)xmllint, "--noout", "--schema", xsd,
				 broken, NULL };

		if (tc_run(argv, &r))
			return 1;
		if (r.status == 0) {
			fprintf(stderr, "a provider without version validated\n");
			rc = 1;
		}
		tc_run_free(&r);
	}
	unlink(broken);
	free(xml);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "xsd"))
		return check_xsd(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "names"))
		return check_names(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: %s xsd XML XMLLINT | names XML KFDTRACE "
		"GEN-BT2-TRACE LTTNG-TP-HEADER|-\n", argv[0]);
	return 2;
}
