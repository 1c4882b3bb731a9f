/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace emit-c: a trace as a standalone C program
 * (kfdtrace/emit_c.h has what the program does, docs/emit-c.md the use).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/emit_c.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"

void
kfdtrace_help_emit(FILE *out)
{
	fputs("Usage: kfdtrace emit-c TRACE -o PROGRAM.c [-f]\n"
	      "\n"
	      "Write a C program that needs libc only and reissues the trace's\n"
	      "calls on /dev/kfd and the render nodes, with the captured\n"
	      "arguments, mapping handles, ids, offsets and fds from earlier\n"
	      "results as replay does. It checks every result against the\n"
	      "capture, prints the first difference (record, call, field) and\n"
	      "exits 1, or exits 0 when everything matches. Build it with\n"
	      "'cc -pthread -o repro PROGRAM.c'; run it with 'kfdtrace sim --\n"
	      "./repro' on kfdsim, or as it is on a machine with /dev/kfd.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output FILE     the program (refused if it exists); '-' for\n"
	      "                        standard output\n"
	      "  -f, --force           replace FILE if it exists\n"
	      "  -h, --help            this text\n"
	      "\n"
	      "Exit status: 0 written, 1 error (an unreadable or damaged trace,\n"
	      "an unwritable FILE), 2 bad usage.\n", out);
}

int
kfdtrace_cmd_emit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kfd_emit_result res;
	const char *output = NULL;
	const char *say_pfx = "";
	char err[512];
	int opt, force = 0, r, state;
	FILE *say = stdout;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_emit(stdout);
		return KFDTRACE_EXIT_OK;
	}
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:fh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'f':
			force = 1;
			break;
		default:
			cli_opt_error(argv, "o:fh", longopts);
			cli_try_help();
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !output) {
		cli_err("expected one trace and -o FILE "
			"(see 'kfdtrace emit-c --help')");
		return KFDTRACE_EXIT_USAGE;
	}
	if (cli_stdin_args(argv + optind, 1))
		return KFDTRACE_EXIT_ERROR;
	state = cli_out_check(output, &(struct cli_out_rule){
				.force = force, .ins = argv + optind,
				.nins = 1 });
	if (state < 0)
		return KFDTRACE_EXIT_ERROR;
	/* The program on standard output: the summary goes to stderr. */
	if (state == CLI_OUT_STDOUT) {
		output = "/dev/stdout";
		say = stderr;
		say_pfx = "kfdtrace emit-c: ";
	}
	r = kfd_emit_c(argv[optind], output, &res, err, sizeof(err));
	if (r < 0) {
		cli_err("%s", err);
		return KFDTRACE_EXIT_ERROR;
	}
	fprintf(say, "%swrote %s: %llu calls (%llu ioctls) on %u thread%s, "
		"%llu left out", say_pfx, say == stderr ? "-" : output,
		(unsigned long long)res.calls,
		(unsigned long long)res.ioctls, res.threads,
		res.threads == 1 ? "" : "s", (unsigned long long)res.skipped);
	if (res.stand_ins)
		fprintf(say, ", %llu SET_EVENTs standing in for the GPU",
			(unsigned long long)res.stand_ins);
	fprintf(say, "\n");
	if (res.fd_transfers)
		fprintf(say, "%snote: %llu fd_transfer records (fds passed over a Unix "
		       "socket between processes) are not reissued: the program "
		       "is one process, and a dma-buf it received that way is "
		       "not there; 'kfdtrace replay' of the run's traces "
		       "together passes them\n", say_pfx,
		       (unsigned long long)res.fd_transfers);
	return KFDTRACE_EXIT_OK;
}
