/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace report: one self-contained HTML page about a trace or a run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"
#include "report/report_html.h"
#include "report/report_run.h"

void
kfdtrace_help_report(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace report FILE|DIR... [-o REPORT.html] [-f] [--window N]\n"
		"\n"
		"Write one self-contained HTML page about a recording: header facts\n"
		"and integrity, the process tree, the topology, a timeline of BO and\n"
		"queue lifetimes per process and GPU, memory per heap over time,\n"
		"latency histograms per ioctl over every process, the failed calls\n"
		"with decoded arguments, the objects alive at exit, and the threads\n"
		"(the first 1000 listed, the rest counted). The page has inline CSS\n"
		"and SVG only: no scripts, fonts or network.\n"
		"\n"
		"Give the trace files of one run (a parent and its children, as\n"
		"`kfdtrace record` writes them) or the directory that holds them\n"
		"(`record -o DIR/`); every process gets its lanes on one time axis,\n"
		"and the tiles are the whole run's totals. A heap with more than 600\n"
		"objects in a chart is drawn as a density band.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE  where the page goes (default: standard output)\n"
		"  -f, --force        replace an existing FILE\n"
		"  --window N         records held to restore sequence order\n"
		"                     (default %d)\n"
		"  -h, --help         this text\n"
		"\n"
		"Exit status: 0 when every trace was read whole, 1 when one is\n"
		"damaged (truncated, corrupt, records missing or repeated: the page\n"
		"covers the records read and says so) or on error, 2 for bad usage.\n",
		CLI_REORDER_WINDOW);
}

int
kfdtrace_cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_run rr;
	struct cli_run run;
	struct cli_out o;
	struct kt_strbuf sb;
	uint64_t window = CLI_REORDER_WINDOW;
	const char *out = NULL;
	int opt, status, force = 0;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_report(stdout);
		return KFDTRACE_EXIT_OK;
	}
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:fh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case 'w':
			if (cli_parse_window(optarg, &window)) {
				cli_err("bad number '%s'", optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		default:
			cli_opt_error(argv, "o:fh", longopts);
			cli_try_help();
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_err("expected a trace file or directory (see 'kfdtrace "
			"report --help')");
		return KFDTRACE_EXIT_USAGE;
	}
	if (cli_stdin_args(argv + optind, (size_t)(argc - optind)))
		return KFDTRACE_EXIT_ERROR;
	if (cli_run_open(&run, argv + optind, (size_t)(argc - optind), "report"))
		return KFDTRACE_EXIT_ERROR;
	if (cli_out_open(&o, out, &(struct cli_out_rule){
				.force = force, .ins = argv + optind,
				.nins = (size_t)(argc - optind) })) {
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}

	status = KFDTRACE_EXIT_ERROR;
	kt_strbuf_init(&sb);
	if (report_run_build(&rr, &run, (size_t)window) ||
	    report_html(&sb, &rr)) {
		cli_err("out of memory");
		cli_out_commit(&o, 0);
		goto out;
	}
	/* The page is whole before anything is written, even for damage. */
	if (fwrite(sb.data, 1, sb.len, o.f) != sb.len) {
		cli_out_commit(&o, 0);
		cli_err("%s: write error", out ? out : "standard output");
		goto out;
	}
	if (cli_out_commit(&o, 1))
		goto out;
	status = cli_run_finish(&run);
out:
	kt_strbuf_release(&sb);
	report_run_release(&rr);
	cli_run_close(&run);
	return status;
}
