/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace dump: print records as text lines or JSON Lines, in sequence
 * order.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/cli_select.h"
#include "cmd/commands.h"
#include "core/run.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

/* Output is written in chunks of about this size. */
#define DUMP_CHUNK (256 * 1024)

struct dump {
	struct kt_strbuf out;
	struct kfd_decode_opts opts;
	struct kfd_kernels *kernels;	/* from code-object memory records */
	struct cli_select filter;
	int json;
	uint64_t from, to;
	int write_error;
	uint64_t printed;
	int pid;			/* several files: the record's process */
	int by_time;			/* --order time */
	struct cli_progress prog;	/* when stdout is not the terminal */
};

void
kfdtrace_help_dump(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace dump FILE|DIR... [--json] [--from SEQ] [--to SEQ]\n"
		"                     [--filter [!]NAME,...] [--failed] [--tid N,...]\n"
		"                     [--pid N,...] [--order seq|time]\n"
		"                     [--time A..B] [--seq] [--durations]\n"
		"                     [--max-elems N] [--window N]\n"
		"                     [--time-format rel|abs|wall]\n"
		"\n"
		"Print one line per record, in sequence-number order. Several files,\n"
		"or a directory, are one run: their records merged in time order,\n"
		"each line led by its process id (JSON: a \"pid\" member), times\n"
		"from the run's start; --from/--to then apply to each file's own\n"
		"sequence numbers.\n"
		"\n"
		"Options:\n"
		"  --json            JSON Lines: one object per record\n"
		"  --from SEQ        start at sequence number SEQ (uses the file's index)\n"
		"  --to SEQ          stop after sequence number SEQ\n"
		"  --filter LIST     only records matching one of the comma-separated\n"
		"                    names: an ioctl name (ALLOC_MEMORY_OF_GPU) or event\n"
		"                    name (alloc_memory_of_gpu), a record type (ioctl,\n"
		"                    open, close, dup, mmap, munmap, fork, exec,\n"
		"                    thread_name, topology, annotation, api_call, end),\n"
		"                    or unknown-ioctl; case-insensitive. !NAME leaves\n"
		"                    those out (alone: everything else)\n"
		"  --failed          only calls that failed (strace -Z)\n"
		"  --tid LIST        only the records of these threads\n"
		"  --pid LIST        only the records of these processes (a run's files)\n"
		"  --order time      in timestamp order (ioctls: entry time) instead of\n"
		"                    sequence order, so that times never go back\n"
		"                    between threads (a record waits for --window\n"
		"                    later ones and 2 s of later calls; one later\n"
		"                    still is counted in a warning)\n"
		"  --time A..B       only records between A and B seconds after the\n"
		"                    trace's start (A.. and ..B: no bound there)\n"
		"  --seq             start text lines with '#SEQ'\n"
		"  --durations       end ioctl and api-call lines with '<seconds>'\n"
		"  --time-format F   the text time column: rel (default: +seconds from\n"
		"                    the start), abs (CLOCK_MONOTONIC seconds) or wall\n"
		"                    (local time of day, HH:MM:SS.UUUUUU, as strace -tt)\n"
		"  --max-elems N     array elements shown before eliding (default %d)\n"
		"  --window N        records held to restore sequence order (default %d)\n"
		"  -h, --help        this text\n"
		"\n"
		"Text lines look like strace:\n"
		"  [tid] +seconds NAME(in-fields) = ret {out-fields}\n"
		"\n"
		"Exit status: 0 when the whole trace was read (a missing END record is\n"
		"only warned about), 1 when it is damaged (truncated, corrupt,\n"
		"records missing or repeated: the records read are printed, then a\n"
		"warning goes to stderr) or on an I/O error, 2 for bad usage.\n",
		KFD_DECODE_DEFAULT_ELEMS, CLI_REORDER_WINDOW);
}

static int
dump_flush(struct dump *dp)
{
	if (dp->out.len &&
	    fwrite(dp->out.data, 1, dp->out.len, stdout) != dp->out.len)
		dp->write_error = 1;
	kt_strbuf_clear(&dp->out);
	return dp->write_error;
}

/*
 * Bytes of exec argv a line shows at most (the record may hold 1 MiB, which
 * escaping can make 4): the rest gives way to one more argument stating
 * what the record held (docs/trace-format.md, "Bounds").
 */
#define DUMP_MAX_ARGV (64u << 10)

/* @rec with its argv cut to DUMP_MAX_ARGV in *@cut; @buf to free. */
static const struct kt_record *
cut_argv(const struct kt_record *rec, struct kt_record *cut, char **buf)
{
	const struct kt_exec_rec *e = &rec->u.exec;
	uint32_t n = 0, k, pos = DUMP_MAX_ARGV;
	char *b;

	*buf = NULL;
	if (rec->type != KT_REC_EXEC || !e->argv || e->argv_len <= DUMP_MAX_ARGV)
		return rec;
	b = malloc(DUMP_MAX_ARGV + 96);
	if (!b)
		return rec;
	for (k = 0; k < e->argv_len; k++)
		if (e->argv[k] == '\0' || k + 1 == e->argv_len)
			n++;
	memcpy(b, e->argv, DUMP_MAX_ARGV);
	if (b[pos - 1] != '\0')
		b[pos++] = '\0';
	pos += (uint32_t)snprintf(b + pos, 95,
				  "[argv cut: %u arguments, %u bytes in the record]",
				  n, e->argv_len) + 1;
	*cut = *rec;
	cut->u.exec.argv = b;
	cut->u.exec.argv_len = pos;
	*buf = b;
	return cut;
}

static int
dump_emit(void *ctx, const struct kt_record *rec)
{
	struct dump *dp = ctx;
	struct kt_record cut;
	char *buf;

	/* Code objects name the kernels of the dispatches after them. */
	if (rec->type == KT_REC_MEMORY && rec->u.memory.kind == KT_MEM_CODE &&
	    dp->kernels && kfd_kernels_add(dp->kernels, rec->u.memory.addr,
					    rec->u.memory.data,
					    rec->u.memory.len) < 0) {
		cli_err("out of memory");
		return -1;
	}
	if (rec->seq < dp->from || rec->seq > dp->to ||
	    !cli_select_match(&dp->filter, rec, dp->opts.start_ns))
		return 0;
	rec = cut_argv(rec, &cut, &buf);
	/* A run's lines say their process, as strace -f does. */
	if (dp->json && dp->pid) {
		char pid[24];
		int n = snprintf(pid, sizeof(pid), "{\"pid\":%d,", dp->pid);
		size_t at = dp->out.len;

		kfd_decode_json(&dp->out, rec, &dp->opts);
		/* The object's '{' becomes {"pid":N, */
		if (!dp->out.failed && dp->out.len > at + 1 &&
		    !kt_strbuf_reserve(&dp->out, (size_t)n - 1)) {
			memmove(dp->out.data + at + n, dp->out.data + at + 1,
				dp->out.len - at - 1);
			memcpy(dp->out.data + at, pid, (size_t)n);
			dp->out.len += (size_t)n - 1;
			dp->out.data[dp->out.len] = '\0';
		}
	} else if (dp->json) {
		kfd_decode_json(&dp->out, rec, &dp->opts);
	} else {
		if (dp->pid)
			kt_strbuf_printf(&dp->out, "%d ", dp->pid);
		kfd_decode_text(&dp->out, rec, &dp->opts);
	}
	free(buf);
	kt_strbuf_putc(&dp->out, '\n');
	if (dp->out.failed) {
		cli_err("out of memory");
		return -1;
	}
	dp->printed++;
	if (dp->out.len >= DUMP_CHUNK && dump_flush(dp))
		return -1;
	return 0;
}

/* Say how many records the reorder window could not put in place. */
static void
warn_late(const struct dump *dp, uint64_t late, uint64_t window)
{
	if (!late)
		return;
	if (dp->by_time)
		cli_warn("%" PRIu64 " records came more than %" PRIu64
			 " records and %llu s late and were printed out of "
			 "time order (raise --window)", late, window,
			 CLI_REORDER_LAG_NS / 1000000000ull);
	else
		cli_warn("%" PRIu64 " records arrived more than %" PRIu64
			 " records late and were printed out of order "
			 "(raise --window)", late, window);
}

/* --time-format wall: the header's realtime at CLOCK_MONOTONIC 0. */
static uint64_t
dump_wall_offset(const struct kt_header *h)
{
	return h->start_realtime - h->start_monotonic;
}

/*
 * Several files (a run): every process's records in one time order, each
 * line led by its pid, times from the run's earliest start. --from/--to
 * then select by each file's own sequence numbers.
 */
static int
dump_run(struct dump *dp, struct cli_run *run, size_t window)
{
	struct kfd_kernels **kernels = calloc(run->n, sizeof(*kernels));
	struct cli_run_merge *m = NULL;
	const struct kt_record *rec;
	uint64_t start = UINT64_MAX;
	size_t i, proc;
	uint64_t n = 0;
	int rc = -1;

	if (!kernels || cli_run_merge_open(run, window, &m)) {
		cli_err("out of memory");
		goto out;
	}
	if (dp->by_time)
		cli_run_merge_by_time(m);
	for (i = 0; i < run->n; i++) {
		if (run->p[i].hdr->start_monotonic < start)
			start = run->p[i].hdr->start_monotonic;
		kernels[i] = kfd_kernels_new();
	}
	dp->opts.start_ns = start;
	while ((rc = cli_run_merge_next(m, &rec, &proc)) != 0) {
		cli_progress_update(&dp->prog, ++n);
		if (rc == -ENOMEM) {
			cli_err("out of memory");
			goto out;
		}
		if (rc < 0)
			continue;	/* that file's damage is said at the end */
		if (!cli_select_pid(&dp->filter, run->p[proc].hdr->pid))
			continue;
		dp->pid = run->p[proc].hdr->pid;
		dp->kernels = kernels[proc];
		dp->opts.kernels = kernels[proc];
		/* Each process's own clocks: a run may span hosts. */
		dp->opts.wall_offset_ns = dump_wall_offset(run->p[proc].hdr);
		if (dump_emit(dp, rec))
			goto out;
	}
	warn_late(dp, cli_run_merge_late(m), window);
	rc = 0;
out:
	dp->kernels = NULL;
	for (i = 0; kernels && i < run->n; i++)
		kfd_kernels_free(kernels[i]);
	free(kernels);
	cli_run_merge_close(m);
	return rc;
}

int
kfdtrace_cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "filter", required_argument, NULL, 'F' },
		{ "seq", no_argument, NULL, 's' },
		{ "durations", no_argument, NULL, 'd' },
		{ "max-elems", required_argument, NULL, 'm' },
		{ "window", required_argument, NULL, 'w' },
		{ "failed", no_argument, NULL, 'Z' },
		{ "tid", required_argument, NULL, 'T' },
		{ "pid", required_argument, NULL, 'P' },
		{ "order", required_argument, NULL, 'O' },
		{ "time", required_argument, NULL, 'R' },
		{ "time-format", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_run run = { 0 };
	struct dump dp;
	struct cli_reorder ro;
	struct kt_reader *r = NULL;
	struct kt_record rec;
	uint64_t window = CLI_REORDER_WINDOW, v, past_to = 0, nread = 0;
	const char *path;
	int opt, rc, status, stopped = 0;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_dump(stdout);
		return KFDTRACE_EXIT_OK;
	}
	memset(&dp, 0, sizeof(dp));
	kt_strbuf_init(&dp.out);
	dp.to = UINT64_MAX;
	status = KFDTRACE_EXIT_USAGE;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			dp.json = 1;
			break;
		case 'f':
			if (cli_parse_u64(optarg, &dp.from))
				goto bad_number;
			break;
		case 't':
			if (cli_parse_u64(optarg, &dp.to))
				goto bad_number;
			break;
		case 'F':
			if (cli_select_filter(&dp.filter, optarg))
				goto out;
			break;
		case 's':
			dp.opts.flags |= KFD_DECODE_SEQ;
			break;
		case 'd':
			dp.opts.flags |= KFD_DECODE_DURATION;
			break;
		case 'm':
			if (cli_parse_u64(optarg, &v) || v == 0 || v > 1u << 20)
				goto bad_number;
			dp.opts.max_elems = (unsigned int)v;
			break;
		case 'w':
			if (cli_parse_window(optarg, &window))
				goto bad_number;
			break;
		case 'Z':
			dp.filter.failed = 1;
			break;
		case 'T':
			if (cli_select_tids(&dp.filter, optarg))
				goto out;
			break;
		case 'P':
			if (cli_select_pids(&dp.filter, optarg))
				goto out;
			break;
		case 'O':
			if (strcmp(optarg, "seq") && strcmp(optarg, "time")) {
				cli_err("--order takes seq or time, not '%s'",
					optarg);
				goto out;
			}
			dp.by_time = !strcmp(optarg, "time");
			break;
		case 'R':
			if (cli_select_time(&dp.filter, optarg))
				goto out;
			break;
		case 'W':
			if (!strcmp(optarg, "rel")) {
				dp.opts.time_format = KFD_DECODE_TIME_REL;
			} else if (!strcmp(optarg, "abs")) {
				dp.opts.time_format = KFD_DECODE_TIME_ABS;
			} else if (!strcmp(optarg, "wall")) {
				dp.opts.time_format = KFD_DECODE_TIME_WALL;
			} else {
				cli_err("--time-format takes rel, abs or wall, "
					"not '%s'", optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		default:
			cli_opt_error(argv, "h", longopts);
			cli_try_help();
			goto out;
		}
	}
	if (optind >= argc) {
		cli_err("expected a trace file (see 'kfdtrace dump --help')");
		goto out;
	}
	if (dp.from > dp.to) {
		cli_err("--from is past --to");
		goto out;
	}

	if (cli_stdin_args(argv + optind, (size_t)(argc - optind)))
		return KFDTRACE_EXIT_ERROR;
	status = KFDTRACE_EXIT_ERROR;
	if (cli_run_open(&run, argv + optind, (size_t)(argc - optind), "dump"))
		goto out;
	cli_progress_start(&dp.prog, "records read", 0);
	if (isatty(STDOUT_FILENO))
		dp.prog.on = 0;
	if (run.n > 1) {
		if (dump_run(&dp, &run, (size_t)window) || dump_flush(&dp) ||
		    fflush(stdout) != 0) {
			if (dp.write_error)
				cli_err("write error");
			goto out;
		}
		status = cli_run_finish(&run);
		goto out;
	}
	path = run.p[0].path;
	r = run.p[0].r;
	if (!cli_select_pid(&dp.filter, run.p[0].hdr->pid)) {
		status = KFDTRACE_EXIT_OK;
		goto out;
	}
	dp.opts.start_ns = kt_reader_header(r)->start_monotonic;
	dp.opts.wall_offset_ns = dump_wall_offset(kt_reader_header(r));
	dp.kernels = kfd_kernels_new();
	dp.opts.kernels = dp.kernels;
	if (dp.from) {
		rc = kt_reader_seek_seq(r, dp.from);
		if (rc < 0 && rc != -KT_ETRUNC && rc != -KT_ECORRUPT) {
			cli_err("%s: seek to %llu: %s",
				path, (unsigned long long)dp.from,
				kt_strerror(rc));
			goto out;
		}
	}

	cli_reorder_init(&ro, (size_t)window, dp.from, dump_emit, &dp);
	if (dp.by_time) {
		ro.by_time = 1;
		ro.next = 0;
	}
	while ((rc = kt_reader_next(r, &rec)) == 1) {
		cli_progress_update(&dp.prog, ++nread);
		/*
		 * Past --to: a window's worth of later records in a row means
		 * nothing earlier can still come.
		 */
		if (rec.seq > dp.to) {
			if (++past_to > window) {
				stopped = 1;
				break;
			}
			continue;
		}
		past_to = 0;
		/*
		 * Before --from: the seek lands on the frame that holds
		 * --from, whose first records may come before it. None is
		 * printed, so none is held for order, nor counted late
		 * against a window that starts at --from; code objects
		 * still name the kernels after them.
		 */
		if (rec.seq < dp.from) {
			if (dump_emit(&dp, &rec)) {
				rc = 1;
				break;
			}
			continue;
		}
		if (cli_reorder_push(&ro, &rec)) {
			rc = 1;
			break;
		}
	}
	if (rc <= 0 || stopped) {
		if (cli_reorder_flush(&ro))
			rc = 1;
	}
	cli_reorder_free(&ro);
	if (dump_flush(&dp) || fflush(stdout) != 0 || dp.write_error) {
		cli_err("write error");
		goto out;
	}
	if (rc == 1 && !stopped)
		goto out;
	warn_late(&dp, ro.late, window);
	status = stopped ? KFDTRACE_EXIT_OK : cli_finish(path, r, rc);
	goto out;

bad_number:
	cli_err("bad number '%s'", optarg);
out:
	cli_progress_end(&dp.prog);
	cli_run_close(&run);
	kt_strbuf_release(&dp.out);
	cli_select_release(&dp.filter);
	kfd_kernels_free(dp.kernels);
	return status;
}
