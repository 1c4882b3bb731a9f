/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export: convert a trace to other formats, one option per format:
 *
 *   kfdtrace export --ctf DIR TRACE
 *
 * Formats are rows of the table below; a format's writer lives in a file of
 * its own and is declared in commands.h.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "kt_ctf_export.h"

struct export_format {
	const char *option;	/* --<option> DEST */
	const char *dest;	/* what DEST is, for the usage text */
	const char *summary;
	int (*run)(const char *trace, const char *dest,
		   const struct kfdtrace_export_opts *o);
};

static const struct export_format formats[] = {
	{ "ctf", "DIR", "a CTF 1.8 trace (babeltrace2, Trace Compass)",
	  kfdtrace_export_ctf },
	{ "perfetto", "FILE.json", "Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing)", kfdtrace_export_perfetto },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* Options that are not formats; their values follow the formats'. */
enum { OPT_PLUGIN_PATH = 0x100, OPT_HELP, OPT_VERBOSE, OPT_FORMAT = 0x200 };

void
kfdtrace_help_export(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: kfdtrace export FORMAT-OPTION DEST [...] [-v] TRACE\n"
		"\n"
		"Convert a trace. Give one or more formats, each with its destination:\n"
		"\n");
	for (i = 0; i < NFORMATS; i++)
		fprintf(out, "  --%s %-10s %s\n", formats[i].option,
			formats[i].dest, formats[i].summary);
	fprintf(out,
		"\n"
		"Options:\n"
		"  --plugin-path PATH  the babeltrace2 plugin (babeltrace-plugin-kfdtrace.so,\n"
		"                      or its directory) for --ctf; default:\n"
		"                      $KFDTRACE_BT2_PLUGIN_PATH, else the build tree's or\n"
		"                      the installed one\n"
		"  -v, --verbose       say which plugin is used\n"
		"  -h, --help          this text\n"
		"\n"
		"--ctf DIR writes a CTF trace into DIR (created; it must be empty),\n"
		"the same as `babeltrace2 convert TRACE -o ctf`. Read it with\n"
		"`babeltrace2 DIR`, or open DIR in Trace Compass (docs/analysis.md).\n"
		"\n"
		"Exit status: 0 when the whole trace was converted; 1 on an error, or\n"
		"when the trace is truncated or corrupt (the records before the damage\n"
		"are converted and the output is complete and readable); 2 for bad usage.\n");
}

int
kfdtrace_export_ctf(const char *trace, const char *dest,
		    const struct kfdtrace_export_opts *o)
{
	struct kt_ctf_export_opts co = {
		.plugin_path = o->plugin_path,
		.verbose = o->verbose,
	};
	char msg[2048];
	int rc = kt_ctf_export(trace, dest, &co, msg, sizeof(msg));

	switch (rc) {
	case KT_CTF_OK:
		if (o->verbose)
			fprintf(stderr, "kfdtrace: wrote CTF trace %s\n", dest);
		return KFDTRACE_EXIT_OK;
	case KT_CTF_TRUNCATED:
	case KT_CTF_CORRUPT:
		fprintf(stderr, "kfdtrace: %s: wrote the records before the "
			"damage to %s: %s\n", trace, dest, msg);
		return KFDTRACE_EXIT_ERROR;
	default:
		fprintf(stderr, "kfdtrace: %s: CTF export failed: %s\n", trace,
			msg);
		return KFDTRACE_EXIT_ERROR;
	}
}

int
kfdtrace_cmd_export(int argc, char **argv)
{
	struct option longopts[NFORMATS + 4];
	const char *dest[NFORMATS] = { NULL };
	struct kfdtrace_export_opts o = { 0 };
	size_t i, nsel = 0;
	int c, rc = KFDTRACE_EXIT_OK;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_export(stdout);
		return KFDTRACE_EXIT_OK;
	}
	memset(longopts, 0, sizeof(longopts));
	for (i = 0; i < NFORMATS; i++) {
		longopts[i].name = formats[i].option;
		longopts[i].has_arg = required_argument;
		longopts[i].val = OPT_FORMAT + (int)i;
	}
	longopts[i++] = (struct option){ "plugin-path", required_argument, NULL,
					 OPT_PLUGIN_PATH };
	longopts[i++] = (struct option){ "verbose", no_argument, NULL,
					 OPT_VERBOSE };
	longopts[i++] = (struct option){ "help", no_argument, NULL, OPT_HELP };

	optind = 1;
	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		if (c >= OPT_FORMAT && (size_t)(c - OPT_FORMAT) < NFORMATS) {
			dest[c - OPT_FORMAT] = optarg;
			continue;
		}
		switch (c) {
		case OPT_PLUGIN_PATH:
			o.plugin_path = optarg;
			break;
		case 'v':
		case OPT_VERBOSE:
			o.verbose = 1;
			break;
		case 'h':
		case OPT_HELP:
			kfdtrace_help_export(stdout);
			return KFDTRACE_EXIT_OK;
		default:
			kfdtrace_help_export(stderr);
			return KFDTRACE_EXIT_USAGE;
		}
	}
	for (i = 0; i < NFORMATS; i++)
		nsel += dest[i] != NULL;
	if (optind + 1 != argc || !nsel) {
		fprintf(stderr, "kfdtrace export: %s\n", !nsel ?
			"give a format option (see --help)" :
			"give exactly one trace file");
		return KFDTRACE_EXIT_USAGE;
	}
	for (i = 0; i < NFORMATS; i++) {
		int r;

		if (!dest[i])
			continue;
		r = formats[i].run(argv[optind], dest[i], &o);
		if (r > rc)
			rc = r;
	}
	return rc;
}
