/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace: the command-line front end. Dispatches to subcommands.
 */
#include <stdio.h>
#include <string.h>

#include "core/cli.h"
#include "cmd/commands.h"

#ifndef KFDTRACE_VERSION
#define KFDTRACE_VERSION "unknown"
#endif

/* One line per command; keep them in the order "--help" lists them. */
static const struct kfdtrace_cmd commands[] = {
	{ "info", "show a trace's header, topology, record counts and integrity",
	  kfdtrace_cmd_info, kfdtrace_help_info },
	{ "dump", "print records as text or JSON Lines",
	  kfdtrace_cmd_dump, kfdtrace_help_dump },
	{ "stats", "per-ioctl counts, errors, latencies, memory and leaks",
	  kfdtrace_cmd_stats, kfdtrace_help_stats },
	{ "report", "write a self-contained HTML report of a trace or a run", kfdtrace_cmd_report, kfdtrace_help_report },
	{ "diff", "align two traces and show where they diverge", kfdtrace_cmd_diff, kfdtrace_help_diff },
	{ "record", "run a program and record its KFD requests", kfdtrace_cmd_record, kfdtrace_help_record },
	{ "sim", "run a program on a simulated GPU machine", kfdtrace_cmd_sim, kfdtrace_help_sim },
	{ "replay", "reissue a trace on a device and compare the results", kfdtrace_cmd_replay, kfdtrace_help_replay },
	{ "reduce", "the smallest trace that still shows a bug", kfdtrace_cmd_reduce, kfdtrace_help_reduce },
	{ "emit-c", "a trace as a standalone C program", kfdtrace_cmd_emit, kfdtrace_help_emit },
	{ "export", "convert a trace or a run to other formats (CTF for babeltrace2 and Trace Compass, Perfetto JSON or protobuf)", kfdtrace_cmd_export, kfdtrace_help_export },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct kfdtrace_cmd *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void
usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: kfdtrace [--help] [--version] COMMAND [ARGS...]\n"
		"\n"
		"Record, inspect and replay the requests a process makes of /dev/kfd.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out,
		"\n"
		"Run 'kfdtrace COMMAND --help' (or 'kfdtrace help COMMAND') for a\n"
		"command's options. The analysis commands take a run's files or its\n"
		"directory (record -o DIR/) as one. Exit status: 0 success, 1 error\n"
		"or damaged trace, 2 bad usage; record and sim exit with the\n"
		"program's status, replay and diff have their own (see their --help).\n");
}

int
main(int argc, char **argv)
{
	const struct kfdtrace_cmd *cmd;

	if (argc < 2) {
		usage(stderr);
		return KFDTRACE_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return KFDTRACE_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("kfdtrace %s\n", KFDTRACE_VERSION);
		return KFDTRACE_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return KFDTRACE_EXIT_OK;
		}
		cmd = find_command(argv[2]);
		if (!cmd) {
			fprintf(stderr, "kfdtrace: unknown command '%s'\n",
				argv[2]);
			return KFDTRACE_EXIT_USAGE;
		}
		cmd->help(stdout);
		return KFDTRACE_EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr,
			"kfdtrace: unknown command '%s' (see 'kfdtrace --help')\n",
			argv[1]);
		return KFDTRACE_EXIT_USAGE;
	}
	cli_set_command(cmd->name);
	return cmd->run(argc - 1, argv + 1);
}
