/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace dump: print records as text lines or JSON Lines, in sequence
 * order.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "commands.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

/* Output is written in chunks of about this size. */
#define DUMP_CHUNK (256 * 1024)

/* One side of --filter: the names it lists, or the !NAMEs. */
struct dump_names {
	int active;
	uint32_t types;			/* bit per enum kt_rec_type */
	int unknown_ioctls;		/* "unknown-ioctl" */
	const struct kfd_ioctl_desc **descs;
	size_t ndescs;
};

#define DUMP_MAX_TIDS 64

struct dump_filter {
	struct dump_names in, out;	/* NAME, !NAME */
	int failed;			/* --failed */
	uint32_t tids[DUMP_MAX_TIDS];	/* --tid */
	unsigned int ntids;
	int timed;			/* --time A..B */
	uint64_t t0, t1;		/* ns since the trace's start */
};

struct dump {
	struct kt_strbuf out;
	struct kfd_decode_opts opts;
	struct kfd_kernels *kernels;	/* from code-object memory records */
	struct dump_filter filter;
	int json;
	uint64_t from, to;
	int write_error;
	uint64_t printed;
};

void
kfdtrace_help_dump(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace dump FILE [--json] [--from SEQ] [--to SEQ]\n"
		"                     [--filter [!]NAME,...] [--failed] [--tid N,...]\n"
		"                     [--time A..B] [--seq] [--durations]\n"
		"                     [--max-elems N] [--window N]\n"
		"\n"
		"Print one line per record, in sequence-number order.\n"
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
		"  --time A..B       only records between A and B seconds after the\n"
		"                    trace's start (A.. and ..B: no bound there)\n"
		"  --seq             start text lines with '#SEQ'\n"
		"  --durations       end ioctl and api-call lines with '<seconds>'\n"
		"  --max-elems N     array elements shown before eliding (default %d)\n"
		"  --window N        records held to restore sequence order (default %d)\n"
		"  -h, --help        this text\n"
		"\n"
		"Text lines look like strace:\n"
		"  [tid] +seconds NAME(in-fields) = ret {out-fields}\n"
		"\n"
		"Exit status: 0 when the whole trace was read (a missing END record is\n"
		"only warned about), 1 when it is truncated or corrupt (the records\n"
		"before the damage are printed, then a warning goes to stderr) or on\n"
		"an I/O error, 2 for bad usage.\n",
		KFD_DECODE_DEFAULT_ELEMS, CLI_REORDER_WINDOW);
}

static int
type_by_name(const char *name)
{
	unsigned int t;

	for (t = 1; t < KT_REC_TYPE_MAX; t++) {
		const char *n = kt_rec_type_name(t);

		if (n && strcasecmp(n, name) == 0)
			return (int)t;
	}
	return -1;
}

static int
filter_parse(struct dump_filter *f, const char *list)
{
	char *copy, *save = NULL, *tok;
	int rc = 0;

	/* An empty list would match nothing and print nothing: say so. */
	if (!list[strspn(list, ", ")]) {
		fprintf(stderr, "kfdtrace dump: --filter needs at least one ioctl "
			"or record type (see 'kfdtrace dump --help')\n");
		return -1;
	}
	copy = strdup(list);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct dump_names *side = &f->in;
		const struct kfd_ioctl_desc *desc;
		const struct kfd_ioctl_desc **n;
		int t;

		if (*tok == '!') {
			side = &f->out;
			tok++;
		}
		if (!*tok)
			continue;
		side->active = 1;
		if ((t = type_by_name(tok)) > 0) {
			side->types |= 1u << t;
			continue;
		}
		if (strcasecmp(tok, "unknown-ioctl") == 0) {
			side->unknown_ioctls = 1;
			continue;
		}
		desc = kfd_schema_by_name(tok);
		if (!desc) {
			fprintf(stderr,
				"kfdtrace dump: --filter: '%s' is neither an ioctl nor a record type\n",
				tok);
			rc = -1;
			break;
		}
		n = realloc(side->descs, (side->ndescs + 1) * sizeof(*n));
		if (!n) {
			rc = -1;
			break;
		}
		side->descs = n;
		side->descs[side->ndescs++] = desc;
	}
	free(copy);
	return rc;
}

static int
names_match(const struct dump_names *f, const struct kt_record *rec)
{
	const struct kfd_ioctl_desc *desc;
	size_t i;

	if (rec->type < 32 && (f->types & (1u << rec->type)))
		return 1;
	if (rec->type != KT_REC_IOCTL)
		return 0;
	desc = kfd_schema_lookup((enum kfd_file_kind)rec->u.ioctl.file_kind,
				 rec->u.ioctl.request);
	if (!desc)
		return f->unknown_ioctls;
	for (i = 0; i < f->ndescs; i++)
		if (f->descs[i] == desc)
			return 1;
	return 0;
}

/* A call that failed, as strace -Z has it. */
static int
failed(const struct kt_record *rec)
{
	switch (rec->type) {
	case KT_REC_IOCTL:
		return rec->u.ioctl.ret < 0;
	case KT_REC_OPEN:
		return rec->u.open.ret < 0;
	case KT_REC_CLOSE:
		return rec->u.close.ret < 0;
	case KT_REC_DUP:
		return rec->u.dup.ret < 0;
	case KT_REC_MMAP:
		return rec->u.mmap.result == UINT64_MAX;
	case KT_REC_MUNMAP:
		return rec->u.munmap.ret < 0;
	case KT_REC_API_CALL:
		return rec->u.api.status != 0;
	default:
		return 0;
	}
}

static int
filter_match(const struct dump_filter *f, const struct kt_record *rec,
	     uint64_t start_ns)
{
	unsigned int i;

	if (f->in.active && !names_match(&f->in, rec))
		return 0;
	if (f->out.active && names_match(&f->out, rec))
		return 0;
	if (f->failed && !failed(rec))
		return 0;
	if (f->ntids) {
		for (i = 0; i < f->ntids && f->tids[i] != rec->tid; i++)
			;
		if (i == f->ntids)
			return 0;
	}
	if (f->timed) {
		uint64_t t = rec->ts > start_ns ? rec->ts - start_ns : 0;

		if (t < f->t0 || t > f->t1)
			return 0;
	}
	return 1;
}

/* --tid N[,N...]. Return: 0, or -1 (said). */
static int
tids_parse(struct dump_filter *f, const char *list)
{
	const char *p = list;
	char *end;

	while (*p) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > UINT32_MAX || (*end && *end != ',') ||
		    f->ntids == DUMP_MAX_TIDS) {
			fprintf(stderr, "kfdtrace dump: --tid takes thread ids "
				"separated by commas (at most %d), not '%s'\n",
				DUMP_MAX_TIDS, list);
			return -1;
		}
		f->tids[f->ntids++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* --time A..B, seconds since the trace's start (either side may be empty). */
static int
time_parse(struct dump_filter *f, const char *s)
{
	const char *dots = strstr(s, "..");
	char *end;
	double a = 0, b = 1e18;

	if (!dots)
		goto bad;
	if (dots > s) {
		a = strtod(s, &end);
		if (end != dots || a < 0)
			goto bad;
	}
	if (dots[2]) {
		b = strtod(dots + 2, &end);
		if (*end || b < a)
			goto bad;
	}
	f->timed = 1;
	f->t0 = (uint64_t)(a * 1e9);
	f->t1 = b >= 1e9 ? UINT64_MAX : (uint64_t)(b * 1e9);
	return 0;
bad:
	fprintf(stderr, "kfdtrace dump: --time takes A..B in seconds since the "
		"trace's start (e.g. 0.5..2, ..1, 3..), not '%s'\n", s);
	return -1;
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
		fprintf(stderr, "kfdtrace dump: out of memory\n");
		return -1;
	}
	if (rec->seq < dp->from || rec->seq > dp->to ||
	    !filter_match(&dp->filter, rec, dp->opts.start_ns))
		return 0;
	rec = cut_argv(rec, &cut, &buf);
	if (dp->json)
		kfd_decode_json(&dp->out, rec, &dp->opts);
	else
		kfd_decode_text(&dp->out, rec, &dp->opts);
	free(buf);
	kt_strbuf_putc(&dp->out, '\n');
	if (dp->out.failed) {
		fprintf(stderr, "kfdtrace dump: out of memory\n");
		return -1;
	}
	dp->printed++;
	if (dp->out.len >= DUMP_CHUNK && dump_flush(dp))
		return -1;
	return 0;
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
		{ "time", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dump dp;
	struct cli_reorder ro;
	struct kt_reader *r = NULL;
	struct kt_record rec;
	uint64_t window = CLI_REORDER_WINDOW, v, past_to = 0;
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
			if (filter_parse(&dp.filter, optarg))
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
			if (tids_parse(&dp.filter, optarg))
				goto out;
			break;
		case 'R':
			if (time_parse(&dp.filter, optarg))
				goto out;
			break;
		default:
			fprintf(stderr, "Try 'kfdtrace dump --help'.\n");
			goto out;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr,
			"kfdtrace dump: expected one trace file (see 'kfdtrace dump --help')\n");
		goto out;
	}
	if (dp.from > dp.to) {
		fprintf(stderr, "kfdtrace dump: --from is past --to\n");
		goto out;
	}
	path = argv[optind];

	status = KFDTRACE_EXIT_ERROR;
	if (cli_open(path, &r))
		goto out;
	dp.opts.start_ns = kt_reader_header(r)->start_monotonic;
	dp.kernels = kfd_kernels_new();
	dp.opts.kernels = dp.kernels;
	if (dp.from) {
		rc = kt_reader_seek_seq(r, dp.from);
		if (rc < 0 && rc != -KT_ETRUNC && rc != -KT_ECORRUPT) {
			fprintf(stderr, "kfdtrace dump: %s: seek to %llu: %s\n",
				path, (unsigned long long)dp.from,
				kt_strerror(rc));
			goto out;
		}
	}

	cli_reorder_init(&ro, (size_t)window, dp.from, dump_emit, &dp);
	while ((rc = kt_reader_next(r, &rec)) == 1) {
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
		fprintf(stderr, "kfdtrace dump: write error\n");
		goto out;
	}
	if (rc == 1 && !stopped)
		goto out;
	if (ro.late)
		fprintf(stderr,
			"kfdtrace: warning: %llu records arrived more than %llu records late and were printed out of order (raise --window)\n",
			(unsigned long long)ro.late,
			(unsigned long long)window);
	status = stopped ? KFDTRACE_EXIT_OK : cli_finish(path, r, rc);
	goto out;

bad_number:
	fprintf(stderr, "kfdtrace dump: bad number '%s'\n", optarg);
out:
	if (r)
		kt_reader_close(r);
	kt_strbuf_release(&dp.out);
	free(dp.filter.in.descs);
	free(dp.filter.out.descs);
	kfd_kernels_free(dp.kernels);
	return status;
}
