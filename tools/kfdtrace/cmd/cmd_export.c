/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export: convert a trace to other formats, one option per format:
 *
 *   kfdtrace export --ctf DIR TRACE|DIR...
 *   kfdtrace export --perfetto FILE[.json|.pftrace] [SELECTION] TRACE|DIR...
 *   kfdtrace export --rocpd FILE.db TRACE|DIR...
 *
 * Formats are rows of the table below. This file only parses options:
 * every format's driver lives in tools/kfdtrace/export/ and is declared in
 * export/export.h.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/cli_select.h"
#include "cmd/commands.h"
#include "export/export.h"

struct export_format {
	const char *option;	/* --<option> DEST */
	const char *dest;	/* what DEST is, for the usage text */
	const char *summary;
	int many;		/* takes a run (several traces) */
	int (*run)(char *const *traces, size_t ntraces, const char *dest,
		   const struct kfdtrace_export_opts *o);
};

static const struct export_format formats[] = {
	{ "ctf", "DIR", "a CTF 1.8 trace (babeltrace2, Trace Compass); for a run,\n"
	  "                   DIR/LABEL/ for each process (babeltrace2 DIR\n"
	  "                   merges them; Trace Compass: an experiment)", 1,
	  kfdtrace_export_ctf_run },
	{ "perfetto", "FILE", "a Perfetto trace (ui.perfetto.dev) of every process:\n"
	  "                   FILE.pftrace is Perfetto's protobuf format, other\n"
	  "                   names trace-event JSON (also chrome://tracing)", 1,
	  kfdtrace_export_perfetto },
	{ "rocpd", "FILE", "an SQLite database in rocpd's schema (ROCm 7's\n"
	  "                   rocprofv3): the run's ioctls as regions, BOs as\n"
	  "                   memory allocations; into an existing one, a run more", 1,
	  kfdtrace_export_rocpd },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))
/* The row whose options the selection ones are. */
#define PERFETTO 1

/* Options that are not formats; their values follow the formats'. */
enum {
	OPT_PLUGIN_PATH = 0x100, OPT_HELP, OPT_VERBOSE, OPT_FORCE, OPT_FROM,
	OPT_TO, OPT_FILTER, OPT_FAILED, OPT_TID, OPT_PID, OPT_TIME, OPT_WINDOW,
	OPT_PF_FORMAT, OPT_DEST = 0x200
};

/* The options besides the formats'. */
static const struct option common_opts[] = {
	{ "plugin-path", required_argument, NULL, OPT_PLUGIN_PATH },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "failed", no_argument, NULL, OPT_FAILED },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "format", required_argument, NULL, OPT_PF_FORMAT },
	{ "help", no_argument, NULL, OPT_HELP },
};

#define NCOMMON (sizeof(common_opts) / sizeof(common_opts[0]))

void
kfdtrace_help_export(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: kfdtrace export FORMAT-OPTION DEST [...] [OPTIONS] TRACE...\n"
		"\n"
		"Convert a trace. Give one or more formats, each with its destination:\n"
		"\n");
	/* "--ctf DIR" as one, so that a reader (help2man too) sees where
	 * the description starts: after the gap. */
	for (i = 0; i < NFORMATS; i++) {
		char head[32];

		snprintf(head, sizeof(head), "--%s %s", formats[i].option,
			 formats[i].dest);
		fprintf(out, "  %-16s %s\n", head, formats[i].summary);
	}
	fprintf(out,
		"\n"
		"Options:\n"
		"  --plugin-path PATH  the babeltrace2 plugin (babeltrace-plugin-kfdtrace.so,\n"
		"                      or its directory) for --ctf; default:\n"
		"                      $KFDTRACE_BT2_PLUGIN_PATH, else the build tree's or\n"
		"                      the installed one\n"
		"  -f, --force         replace an existing --perfetto or --rocpd FILE, or a\n"
		"                      --ctf DIR that an earlier --ctf export wrote\n"
		"                      (nothing else)\n"
		"  -v, --verbose       say which plugin is used and what was written\n"
		"  -h, --help          this text\n"
		"\n"
		"--perfetto options (the same selection as `kfdtrace dump`):\n"
		"  --format json|proto  the format, whatever FILE's name (\"-\" is standard\n"
		"                      output, JSON unless --format proto)\n"
		"  --from SEQ, --to SEQ  only records numbered SEQ and after / up to SEQ\n"
		"  --time A..B         only between A and B seconds after the start of the\n"
		"                      run's earliest trace (A.. and ..B: no bound there)\n"
		"  --filter LIST       only calls matching the comma-separated names (an\n"
		"                      ioctl, event or record type, unknown-ioctl); !NAME\n"
		"                      leaves those out\n"
		"  --failed            only calls that failed\n"
		"  --tid LIST          only the calls of these threads\n"
		"  --pid LIST          only these processes of the run\n"
		"  --window N          records held to restore sequence order (default %d)\n"
		"Objects (BOs, queues, events) and the memory counters follow every\n"
		"record; those created within --from/--to and --time are shown.\n"
		"\n"
		"--perfetto takes several traces or directories: every process of a run\n"
		"(a parent and its children, `record -o DIR/`) goes into one Perfetto\n"
		"trace, each its own process with its threads, on one time base.\n"
		"\n"
		"--ctf DIR writes a CTF trace into DIR (created, or empty):\n"
		"what `babeltrace2 convert TRACE -o ctf` writes, plus an entry event\n"
		"(kfd:call_begin) at the start of every ioctl and API call, for Trace\n"
		"Compass's per-thread call and latency views. Read it with\n"
		"`babeltrace2 DIR`, or open DIR in Trace Compass (docs/analysis.md).\n"
		"\n"
		"--rocpd FILE writes every process of the run as one rocpd run: its\n"
		"tables are named with the run's uuid, every row carries its guid, and\n"
		"the views rocpd_region, regions, memory_allocations, kernels, ... read\n"
		"every run in FILE. A second --rocpd export into FILE adds a run (-f\n"
		"replaces FILE). Times are CLOCK_BOOTTIME ns, as rocprofv3's. Needs\n"
		"libsqlite3 at build time.\n"
		"\n"
		"Exit status: 0 when the whole trace was converted; 1 on an error, or\n"
		"when the trace is damaged (truncated, corrupt, records missing or\n"
		"repeated: the records read are converted and the output is complete\n"
		"and readable); 2 for bad usage.\n",
		CLI_REORDER_WINDOW);
}

int
kfdtrace_cmd_export(int argc, char **argv)
{
	struct option longopts[NFORMATS + NCOMMON + 1];
	const char *dest[NFORMATS] = { NULL };
	struct kfdtrace_export_opts o = { 0 };
	struct cli_select sel = { 0 };
	uint64_t window = 0;
	size_t i, nsel = 0;
	int c, rc = KFDTRACE_EXIT_OK, selecting = 0;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_export(stdout);
		return KFDTRACE_EXIT_OK;
	}
	memset(longopts, 0, sizeof(longopts));
	for (i = 0; i < NFORMATS; i++) {
		longopts[i].name = formats[i].option;
		longopts[i].has_arg = required_argument;
		longopts[i].val = OPT_DEST + (int)i;
	}
	memcpy(&longopts[i], common_opts, sizeof(common_opts));
	o.to = UINT64_MAX;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "vfh", longopts, NULL)) != -1) {
		if (c >= OPT_DEST && (size_t)(c - OPT_DEST) < NFORMATS) {
			dest[c - OPT_DEST] = optarg;
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
		case 'f':
		case OPT_FORCE:
			o.force = 1;
			break;
		case OPT_FROM:
		case OPT_TO:
			if (cli_parse_u64(optarg, c == OPT_FROM ? &o.from : &o.to)) {
				cli_err("bad number '%s'", optarg);
				rc = KFDTRACE_EXIT_USAGE;
				goto out;
			}
			selecting = 1;
			break;
		case OPT_WINDOW:
			if (cli_parse_window(optarg, &window)) {
				cli_err("bad --window '%s'", optarg);
				rc = KFDTRACE_EXIT_USAGE;
				goto out;
			}
			o.window = (size_t)window;
			break;
		case OPT_PF_FORMAT:
			if (strcmp(optarg, "json") && strcmp(optarg, "proto")) {
				cli_err("--format is json or proto, not '%s'",
					optarg);
				rc = KFDTRACE_EXIT_USAGE;
				goto out;
			}
			o.format = optarg;
			break;
		case OPT_FILTER:
		case OPT_TID:
		case OPT_PID:
		case OPT_TIME:
			if ((c == OPT_FILTER ? cli_select_filter(&sel, optarg) :
			     c == OPT_TID ? cli_select_tids(&sel, optarg) :
			     c == OPT_PID ? cli_select_pids(&sel, optarg) :
			     cli_select_time(&sel, optarg))) {
				rc = KFDTRACE_EXIT_USAGE;
				goto out;
			}
			selecting = 1;
			break;
		case OPT_FAILED:
			sel.failed = 1;
			selecting = 1;
			break;
		case 'h':
		case OPT_HELP:
			kfdtrace_help_export(stdout);
			goto out;
		default:
			cli_opt_error(argv, "vfh", longopts);
			cli_try_help();
			rc = KFDTRACE_EXIT_USAGE;
			goto out;
		}
	}
	for (i = 0; i < NFORMATS; i++)
		nsel += dest[i] != NULL;
	if (optind >= argc || !nsel) {
		cli_err("%s", !nsel ? "give a format option (see --help)" :
			"give a trace file");
		rc = KFDTRACE_EXIT_USAGE;
		goto out;
	}
	if (o.from > o.to) {
		cli_err("--from is past --to");
		rc = KFDTRACE_EXIT_USAGE;
		goto out;
	}
	if ((selecting || o.format) && !dest[PERFETTO]) {
		cli_err("--from, --to, --time, --filter, --failed, --tid, --pid "
			"and --format are --perfetto options");
		rc = KFDTRACE_EXIT_USAGE;
		goto out;
	}
	if (cli_stdin_args(argv + optind, (size_t)(argc - optind))) {
		rc = KFDTRACE_EXIT_ERROR;
		goto out;
	}
	o.select = cli_select_active(&sel) ? &sel : NULL;
	for (i = 0; i < NFORMATS; i++) {
		int r;

		if (!dest[i])
			continue;
		if (!formats[i].many && optind + 1 != argc) {
			cli_err("--%s converts one trace file", formats[i].option);
			r = KFDTRACE_EXIT_USAGE;
		} else {
			r = formats[i].run(argv + optind, (size_t)(argc - optind),
					   dest[i], &o);
		}
		if (r > rc)
			rc = r;
	}
out:
	cli_select_release(&sel);
	return rc;
}
