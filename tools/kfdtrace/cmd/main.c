/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace: the command-line front end. Dispatches to subcommands.
 */
#include <stdio.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"

#ifndef KFDTRACE_VERSION
#define KFDTRACE_VERSION "unknown"
#endif

/* The optional parts' versions, "" when not built (meson.build). */
#ifndef KFDTRACE_HAVE_LTTNG
#define KFDTRACE_HAVE_LTTNG ""
#endif
#ifndef KFDTRACE_HAVE_BT2
#define KFDTRACE_HAVE_BT2 ""
#endif
#ifndef KFDTRACE_HAVE_PROTOBUF_C
#define KFDTRACE_HAVE_PROTOBUF_C ""
#endif
#ifndef KFDTRACE_HAVE_LIBDRM
#define KFDTRACE_HAVE_LIBDRM ""
#endif
#ifndef KFDTRACE_HAVE_ZSTD
#define KFDTRACE_HAVE_ZSTD ""
#endif
#ifndef KFDTRACE_HAVE_SQLITE
#define KFDTRACE_HAVE_SQLITE ""
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

/*
 * "--version --build-options": one line per optional part, "yes" with the
 * library's version or "no", so that a user knows what a build can do.
 */
static void
build_options(void)
{
	static const struct {
		const char *what, *version;
	} parts[] = {
		{ "lttng-ust provider (record --lttng)", KFDTRACE_HAVE_LTTNG },
		{ "babeltrace2 plugin and CTF export (export --ctf)",
		  KFDTRACE_HAVE_BT2 },
		{ "Perfetto protobuf export (export --perfetto FILE.pftrace)",
		  KFDTRACE_HAVE_PROTOBUF_C },
		{ "libdrm_amdgpu (render-node requests, marketing names)",
		  KFDTRACE_HAVE_LIBDRM },
		{ "zstd (trace compression)", KFDTRACE_HAVE_ZSTD },
		{ "SQLite (export --rocpd)", KFDTRACE_HAVE_SQLITE },
	};
	static const char *const libs[] = {
		"lttng-ust", "babeltrace2", "protobuf-c", "libdrm_amdgpu",
		"zstd", "sqlite3",
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (*parts[i].version)
			printf("%s: yes (%s %s)\n", parts[i].what, libs[i],
			       parts[i].version);
		else
			printf("%s: no\n", parts[i].what);
	}
}

/* "unknown command 'X'", with the nearest command when X looks a typo. */
static void
unknown_command(const char *name)
{
	const char *names[NCOMMANDS + 1], *near;
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	names[i] = "help";
	near = cli_nearest(name, strlen(name), names, NCOMMANDS + 1);
	if (near)
		fprintf(stderr, "kfdtrace: unknown command '%s'; did you mean "
			"'%s'? (see 'kfdtrace --help')\n", name, near);
	else
		fprintf(stderr, "kfdtrace: unknown command '%s' (see "
			"'kfdtrace --help')\n", name);
}

static void
usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: kfdtrace [--help] [--version [--build-options]] COMMAND [ARGS...]\n"
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
		"directory (record -o DIR/) as one, and \"-\" for standard input.\n"
		"Exit status: 0 success, 1 error or damaged trace, 2 bad usage;\n"
		"record and sim exit with the program's status, replay and diff\n"
		"have their own (see their --help).\n");
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
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "--build-options") == 0) {
		int opts = strcmp(argv[1], "--build-options") == 0;

		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "--build-options")) {
				fprintf(stderr, "kfdtrace: --version takes "
					"only --build-options, not '%s'\n",
					argv[i]);
				return KFDTRACE_EXIT_USAGE;
			}
			opts = 1;
		}
		printf("kfdtrace %s\n", KFDTRACE_VERSION);
		if (opts)
			build_options();
		return KFDTRACE_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return KFDTRACE_EXIT_OK;
		}
		cmd = find_command(argv[2]);
		if (!cmd) {
			unknown_command(argv[2]);
			return KFDTRACE_EXIT_USAGE;
		}
		cmd->help(stdout);
		return KFDTRACE_EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		unknown_command(argv[1]);
		return KFDTRACE_EXIT_USAGE;
	}
	cli_set_command(cmd->name);
	/*
	 * getopt_long() names the program by argv[0] in what it prints: the
	 * command's argv[0] becomes "kfdtrace CMD", the one prefix of every
	 * message (docs/cli.md).
	 */
	argv[1] = (char *)cli_prefix;
	return cmd->run(argc - 1, argv + 1);
}
