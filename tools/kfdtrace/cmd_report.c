/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace report: one self-contained HTML page about a trace.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "report_html.h"
#include "report_model.h"

void
kfdtrace_help_report(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace report FILE [-o REPORT.html] [--window N]\n"
		"\n"
		"Write one self-contained HTML page about a trace: header facts and\n"
		"integrity, the topology, a timeline of BO and queue lifetimes per\n"
		"GPU, memory per heap over time, latency histograms per ioctl, the\n"
		"failed calls with decoded arguments, and the objects alive at exit.\n"
		"The page has inline CSS and SVG only: no scripts, fonts or network.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE  where the page goes (default: standard output)\n"
		"  --window N         records held to restore sequence order\n"
		"                     (default %d)\n"
		"  -h, --help         this text\n"
		"\n"
		"Exit status: 0 when the whole trace was read, 1 when it is truncated\n"
		"or corrupt (the page covers the records before the damage and says\n"
		"so) or on error, 2 for bad usage.\n",
		CLI_REORDER_WINDOW);
}

/* Write @len bytes to @path (or stdout), replacing the file at the end. */
static int
write_out(const char *path, const char *data, size_t len)
{
	FILE *f = stdout;
	int rc = 0;

	if (path && strcmp(path, "-") != 0) {
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "kfdtrace report: %s: %s\n", path,
				strerror(errno));
			return -1;
		}
	}
	if (fwrite(data, 1, len, f) != len)
		rc = -1;
	if (f != stdout) {
		if (fclose(f) != 0)
			rc = -1;
	} else if (fflush(f) != 0) {
		rc = -1;
	}
	if (rc)
		fprintf(stderr, "kfdtrace report: %s: write error\n",
			path ? path : "standard output");
	return rc;
}

int
kfdtrace_cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_model m;
	struct kt_reader *r = NULL;
	struct kt_strbuf sb;
	uint64_t window = CLI_REORDER_WINDOW;
	const char *path, *out = NULL;
	int opt, status;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_report(stdout);
		return KFDTRACE_EXIT_OK;
	}
	optind = 0;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'w':
			if (cli_parse_window(optarg, &window)) {
				fprintf(stderr, "kfdtrace report: bad number '%s'\n",
					optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		default:
			fprintf(stderr, "Try 'kfdtrace report --help'.\n");
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr,
			"kfdtrace report: expected one trace file (see 'kfdtrace report --help')\n");
		return KFDTRACE_EXIT_USAGE;
	}
	path = argv[optind];
	if (cli_open(path, &r))
		return KFDTRACE_EXIT_ERROR;

	status = KFDTRACE_EXIT_ERROR;
	kt_strbuf_init(&sb);
	if (report_model_build(&m, r, (size_t)window) ||
	    report_html(&sb, &m, path)) {
		fprintf(stderr, "kfdtrace report: out of memory\n");
		goto out;
	}
	/* The page is whole before anything is written, even for damage. */
	if (write_out(out, sb.data, sb.len))
		goto out;
	status = cli_finish(path, r, m.read_rc);
out:
	kt_strbuf_release(&sb);
	report_model_release(&m);
	kt_reader_close(r);
	return status;
}
