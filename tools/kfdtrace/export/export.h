/* SPDX-License-Identifier: MIT */
/*
 * The exporters `kfdtrace export` runs, one driver per format; cmd_export.c
 * parses the options into struct kfdtrace_export_opts and calls one:
 *
 *   export_ctf.c        --ctf: CTF 1.8 through formats/bt2 (kt_ctf_export(),
 *                       the babeltrace2 graph over our source plugin, which
 *                       stays beside the plugin it drives)
 *   export_perfetto.c   --perfetto: the run read, selected and followed
 *                       (export_perfetto.h), written by one of
 *   export_perfetto_json.c   Chrome trace-event JSON
 *   export_perfetto_proto.c  Perfetto's protobuf trace format (protobuf-c,
 *                            perfetto_trace.proto; export_perfetto_pb.c)
 *   export_rocpd.c      --rocpd: an SQLite database in rocprofv3's rocpd
 *                       schema (export_rocpd.h; libsqlite3, else
 *                       export_rocpd_none.c refuses)
 *
 * Every driver returns a KFDTRACE_EXIT_* status and prints its own
 * messages (cli_err()).
 */
#ifndef KFDTRACE_EXPORT_H
#define KFDTRACE_EXPORT_H

#include <stddef.h>
#include <stdint.h>

struct cli_select;

struct kfdtrace_export_opts {
	int verbose;			/* -v: say what is loaded and written */
	int force;			/* -f: replace an existing output */
	const char *plugin_path;	/* --plugin-path: the babeltrace2 plugin */
	/* Perfetto: "json" or "proto" (--format), NULL: by file name. */
	const char *format;
	uint64_t from, to;		/* --from/--to sequence numbers */
	struct cli_select *select;	/* --filter, --failed, --tid, --time */
	size_t window;			/* --window, 0: the default */
};

/*
 * kfdtrace_export_ctf_run() - @traces (files and directories,
 * cli_run_open()) as CTF: one trace file into @dest itself, a run into
 * @dest/LABEL/ per process. @dest is made ready first (replaced with
 * @o->force).
 * Return: a KFDTRACE_EXIT_* status, the worst of the processes'.
 */
int kfdtrace_export_ctf_run(char *const *traces, size_t ntraces,
			    const char *dest,
			    const struct kfdtrace_export_opts *o);

/*
 * kfdtrace_export_perfetto() - every process of a run (@traces: files and
 * directories, cli_run_open()) as one Perfetto trace @dest: Perfetto's
 * protobuf format (@o->format "proto", or a name ending .pftrace or
 * another of Perfetto's, see want_proto()) or
 * Chrome trace-event JSON.
 * Return: a KFDTRACE_EXIT_* status.
 */
int kfdtrace_export_perfetto(char *const *traces, size_t ntraces,
			     const char *dest,
			     const struct kfdtrace_export_opts *o);

/*
 * kfdtrace_export_rocpd() - every process of a run (@traces: files and
 * directories, cli_run_open()) as one run of the rocpd database @dest:
 * a new file, or a rocpd database that gets one more run (@o->force
 * replaces the file instead). Only @o->verbose, force and window are read.
 * Return: a KFDTRACE_EXIT_* status.
 */
int kfdtrace_export_rocpd(char *const *traces, size_t ntraces,
			  const char *dest,
			  const struct kfdtrace_export_opts *o);

#endif /* KFDTRACE_EXPORT_H */
