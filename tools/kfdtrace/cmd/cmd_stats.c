/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats: what a process asked of KFD, how long it took, what
 * failed, how much memory it held, and what it never gave back; optionally
 * broken down per thread and per GPU.
 *
 * Objects and memory come from the shared tracker (core/objects.h), so
 * stats, report and the Perfetto export agree. Records are processed in
 * sequence order (see cli_reorder) so that a handle freed and reused by two
 * threads is attributed correctly.
 *
 * This file is the command: options, one file or a whole run. The parts
 * are in stats.h: accumulation, summaries, text and JSON output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"
#include "core/run.h"
#include "stats/stats.h"
#include "kfdtrace/decode.h"

void
kfdtrace_help_stats(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace stats FILE|DIR... [--json] [--by-thread] [--by-gpu] [--window N]\n"
		"\n"
		"Summarize a trace:\n"
		"  - per ioctl: calls, failures by errno name, and latency (time from\n"
		"    entry to exit): minimum, percentiles p50, p90, p99 and p99.9\n"
		"    (nearest rank), and maximum;\n"
		"  - failures by errno name over all ioctls;\n"
		"  - memory per GPU and heap (VRAM, GTT, userptr, doorbell, MMIO,\n"
		"    import): allocations, frees, bytes live at the end and the\n"
		"    high-water mark, from ALLOC_MEMORY_OF_GPU / FREE_MEMORY_OF_GPU\n"
		"    and IMPORT_DMABUF;\n"
		"  - objects alive at the end: BOs not freed, queues not destroyed,\n"
		"    events not destroyed (leaks, unless the process meant to exit\n"
		"    with them).\n"
		"Several files, or a directory, are one run: each process's tables,\n"
		"then the whole run's ioctls and errors and what each process left.\n"
		"\n"
		"Options:\n"
		"  --json        one JSON object instead of tables\n"
		"  --by-thread   add the per-ioctl table of every thread\n"
		"  --by-gpu      add the per-ioctl table and memory of every GPU (the\n"
		"                GPU an ioctl names by gpu_id, handle or queue id)\n"
		"  --window N    records held to restore sequence order (default %d)\n"
		"  -h, --help    this text\n"
		"\n"
		"Exit status: 0 when the whole trace was read, 1 when it is damaged\n"
		"(truncated, corrupt, records missing or repeated: statistics cover\n"
		"the records read) or on error, 2 for bad usage.\n",
		CLI_REORDER_WINDOW);
}

/* Every process, then the run (several files). */
static int
stats_run(struct cli_run *cr, size_t window, int json, struct stats *like,
	  struct ioctl_stat **v)
{
	struct stats run, *procs = calloc(cr->n, sizeof(*procs));
	struct kt_strbuf sb;
	size_t i, n = 0;
	int rc = -1;

	kt_strbuf_init(&sb);
	if (!procs || stats_init(&run, like))
		goto out;
	run.run_only = 1;
	if (json)
		kt_strbuf_append(&sb, "{\"processes\":[", 14);
	for (i = 0; i < cr->n; i++, n++) {
		if (stats_init(&procs[i], like) ||
		    stats_read(&cr->p[i], window, &procs[i], &run) == -ENOMEM)
			goto out;
		if (json) {
			if (i)
				kt_strbuf_putc(&sb, ',');
			kt_strbuf_printf(&sb, "{\"label\":");
			kfd_json_escape(&sb, cr->p[i].label,
					strlen(cr->p[i].label));
			kt_strbuf_printf(&sb, ",\"file\":");
			kfd_json_escape(&sb, cli_name(cr->p[i].path),
					strlen(cli_name(cr->p[i].path)));
			kt_strbuf_printf(&sb, ",\"pid\":%d,\"parent\":%d,"
					 "\"stats\":", (int)cr->p[i].hdr->pid,
					 cr->p[i].parent);
			stats_report_json(&sb, &procs[i], v);
			kt_strbuf_putc(&sb, '}');
		} else {
			printf("== process %s: %s\n", cr->p[i].label,
			       cli_name(cr->p[i].path));
			stats_report_text(&procs[i], v);
			printf("\n");
		}
	}
	if (json) {
		kt_strbuf_printf(&sb, "],\"run\":{\"processes\":%zu,"
				 "\"stats\":", cr->n);
		stats_report_json(&sb, &run, v);
		kt_strbuf_append(&sb, "}}\n", 3);
		if (sb.failed || fwrite(sb.data, 1, sb.len, stdout) != sb.len)
			goto out;
	} else {
		stats_report_run_text(&run, v, cr, procs);
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		stats_free(&procs[i]);
	free(procs);
	stats_free(&run);
	kt_strbuf_release(&sb);
	return rc;
}

int
kfdtrace_cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "by-thread", no_argument, NULL, 'T' },
		{ "by-gpu", no_argument, NULL, 'G' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ioctl_stat **v = NULL;
	struct cli_run run = { 0 };
	struct stats s;
	uint64_t window = CLI_REORDER_WINDOW;
	int opt, json = 0, rc, status = KFDTRACE_EXIT_USAGE;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_stats(stdout);
		return KFDTRACE_EXIT_OK;
	}
	memset(&s, 0, sizeof(s));
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'T':
			s.by_thread = 1;
			break;
		case 'G':
			s.by_gpu = 1;
			break;
		case 'w':
			if (cli_parse_window(optarg, &window)) {
				cli_err("bad number '%s'",
					optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		default:
			cli_opt_error(argv, "h", longopts);
			cli_try_help();
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_err("expected a trace file (see 'kfdtrace stats --help')");
		return KFDTRACE_EXIT_USAGE;
	}
	if (cli_stdin_args(argv + optind, (size_t)(argc - optind)))
		return KFDTRACE_EXIT_ERROR;

	status = KFDTRACE_EXIT_ERROR;
	{
		struct stats like = { .by_thread = s.by_thread,
				      .by_gpu = s.by_gpu };

		if (stats_init(&s, &like))
			goto oom;
	}
	if (cli_run_open(&run, argv + optind, (size_t)(argc - optind), "stats"))
		goto out;
	v = malloc((s.nrows + MAX_UNKNOWN_KINDS) * sizeof(*v));
	if (!v)
		goto oom;
	if (run.n > 1) {
		if (stats_run(&run, (size_t)window, json, &s, v))
			goto oom;
	} else {
		if (stats_read(&run.p[0], (size_t)window, &s, NULL) == -ENOMEM)
			goto oom;
		if (json) {
			struct kt_strbuf sb;

			kt_strbuf_init(&sb);
			stats_report_json(&sb, &s, v);
			kt_strbuf_putc(&sb, '\n');
			rc = sb.failed || fwrite(sb.data, 1, sb.len, stdout) !=
					  sb.len;
			kt_strbuf_release(&sb);
			if (rc)
				goto oom;
		} else {
			stats_report_text(&s, v);
		}
	}
	if (fflush(stdout) != 0) {
		cli_err("write error");
		goto out;
	}
	status = cli_run_finish(&run);
	goto out;

oom:
	cli_err("out of memory");
out:
	free(v);
	cli_run_close(&run);
	stats_free(&s);
	return status;
}
