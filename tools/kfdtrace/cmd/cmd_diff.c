/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff: two traces, or two runs, compared.
 *
 * Two files go to the engine as they are (diff_align.c). Two runs, each
 * a directory or its files joined by commas ("A1,A2 B1,B2"), are paired
 * process by process in tree order where the executables' names agree,
 * and each pair is compared as two files. A process without a partner is
 * a difference.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"
#include "diff/diff.h"
#include "kfdtrace/decode.h"
#include "core/run.h"

void
kfdtrace_help_diff(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace diff A B [--verify strict|results] [--context N]\n"
		"                         [--max-reported N] [-q] [--json]\n"
		"\n"
		"Align two traces ioctl by ioctl (per thread, threads paired in order\n"
		"of their first record) and print every divergence with the calls\n"
		"before it. Handles, gpu_ids, queue and event ids, fds, mmap and\n"
		"doorbell offsets and addresses are compared by correspondence: values\n"
		"that pair up consistently across the two traces are equal. Clock\n"
		"readings and timeouts are not compared; user pointers only for\n"
		"being NULL.\n"
		"\n"
		"A and B may each be a run: a directory of traces (record -o DIR/),\n"
		"or the files of one run joined by commas. Their processes are paired\n"
		"in tree order (parent before child, siblings by start time) where the\n"
		"executable's names agree, and each pair is compared; a process\n"
		"without a partner is a difference.\n"
		"\n"
		"Options:\n"
		"  --verify strict   return value, errno, every in and out field and\n"
		"                    buffer (default)\n"
		"  --verify results  the call sequence, return values and errno only\n"
		"  --context N       records shown before each divergence (default 3)\n"
		"  --max-reported N  divergences printed in full (default: all); all\n"
		"                    are counted (replay's spelling; --max too)\n"
		"  --merge-threads   compare each trace as one stream in sequence\n"
		"                    order (the default when the thread counts differ,\n"
		"                    as between a capture and its serial replay)\n"
		"  -q, --quiet       print only the summary line\n"
		"  --json            one JSON object with the counts and the first\n"
		"                    divergence (per process pair for runs)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 the traces are equal, 1 they differ, 2 trouble (bad\n"
		"usage, an unreadable file, or a truncated or corrupt trace: what\n"
		"could be read is still compared).\n");
}

/* Split "X,Y,Z" into @run's paths (a copy the caller frees). */
static int
open_side(const char *arg, struct cli_run *run, char **copy)
{
	char *paths[256], *save = NULL, *tok;
	size_t n = 0;

	*copy = strdup(arg);
	if (!*copy) {
		cli_err("out of memory");
		return -1;
	}
	for (tok = strtok_r(*copy, ",", &save); tok && n < 256;
	     tok = strtok_r(NULL, ",", &save))
		paths[n++] = tok;
	return cli_run_open(run, paths, n, "diff");
}

static int
is_run(const char *arg)
{
	struct stat st;

	return strchr(arg, ',') || (stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

static const char *
exe_base(const struct cli_run_proc *p)
{
	const char *s = strrchr(p->hdr->exe, '/');

	return s ? s + 1 : p->hdr->exe;
}

static void
json_result(struct kt_strbuf *sb, const char *a, const char *b,
	    const struct diff_outcome *r)
{
	static const char *const verdict[] = { "equal", "different", "trouble" };

	a = cli_name(a);
	b = cli_name(b);
	kt_strbuf_printf(sb, "{\"a\":");
	kfd_json_escape(sb, a, strlen(a));
	kt_strbuf_printf(sb, ",\"b\":");
	kfd_json_escape(sb, b, strlen(b));
	kt_strbuf_printf(sb, ",\"result\":\"%s\",\"compared\":%llu,"
			 "\"divergences\":%llu,\"ioctls_a\":%llu,"
			 "\"ioctls_b\":%llu,\"threads_a\":%zu,\"threads_b\":%zu,"
			 "\"merged_threads\":%s",
			 verdict[r->status], (unsigned long long)r->compared,
			 (unsigned long long)r->divergences,
			 (unsigned long long)r->ioctls_a,
			 (unsigned long long)r->ioctls_b, r->threads_a,
			 r->threads_b, r->merged ? "true" : "false");
	if (r->divergences) {
		kt_strbuf_printf(sb, ",\"first\":{\"a_seq\":");
		if (r->first_a == UINT64_MAX)
			kt_strbuf_printf(sb, "null");
		else
			kfd_json_u64(sb, r->first_a);
		kt_strbuf_printf(sb, ",\"b_seq\":");
		if (r->first_b == UINT64_MAX)
			kt_strbuf_printf(sb, "null");
		else
			kfd_json_u64(sb, r->first_b);
		kt_strbuf_printf(sb, ",\"what\":");
		kfd_json_escape(sb, r->first_what, strlen(r->first_what));
		kt_strbuf_putc(sb, '}');
	}
	kt_strbuf_putc(sb, '}');
}

static int
write_sb(struct kt_strbuf *sb)
{
	kt_strbuf_putc(sb, '\n');
	if (sb->failed || fwrite(sb->data, 1, sb->len, stdout) != sb->len) {
		cli_err("write error");
		return -1;
	}
	return 0;
}

/* A run's processes that have no partner, as a JSON array of paths. */
static void
json_alone(struct kt_strbuf *sb, const struct cli_run *r, const int *used)
{
	int first = 1;
	size_t i;

	kt_strbuf_putc(sb, '[');
	for (i = 0; i < r->n; i++) {
		if (used[i])
			continue;
		if (!first)
			kt_strbuf_putc(sb, ',');
		kfd_json_escape(sb, cli_name(r->p[i].path),
				strlen(cli_name(r->p[i].path)));
		first = 0;
	}
	kt_strbuf_putc(sb, ']');
}

static const char *
verdict(int status)
{
	return status == DIFF_EXIT_EQUAL ? "equal" :
	       status == DIFF_EXIT_DIFFERENT ? "different" : "trouble";
}

/*
 * B's partner for A's process @i: the one at the same place in the tree
 * if the executables' names agree, else the first unpaired one of that
 * name. Return: its index, or rb->n for none.
 */
static size_t
partner(const struct cli_run *ra, const struct cli_run *rb, size_t i,
	const int *used_b)
{
	const char *name = exe_base(&ra->p[i]);
	size_t k;

	if (i < rb->n && !used_b[i] && !strcmp(name, exe_base(&rb->p[i])))
		return i;
	for (k = 0; k < rb->n; k++)
		if (!used_b[k] && !strcmp(name, exe_base(&rb->p[k])))
			return k;
	return rb->n;
}

/* Pair two runs' processes and compare each pair. */
static int
diff_runs(const struct diff_opts *o, struct cli_run *ra, struct cli_run *rb,
	  int json)
{
	int status = DIFF_EXIT_EQUAL;
	int *used_a = calloc(ra->n + 1, sizeof(int));
	int *used_b = calloc(rb->n + 1, sizeof(int));
	size_t i, j, pairs = 0, alone = 0;
	struct kt_strbuf sb;

	kt_strbuf_init(&sb);
	if (!used_a || !used_b) {
		cli_err("out of memory");
		status = DIFF_EXIT_TROUBLE;
		goto out;
	}
	if (json)
		kt_strbuf_printf(&sb, "{\"pairs\":[");
	for (i = 0; i < ra->n; i++) {
		struct diff_outcome res;

		j = partner(ra, rb, i, used_b);
		if (j == rb->n)
			continue;
		used_a[i] = used_b[j] = 1;
		if (!json)
			printf("== process A %s / B %s\n", ra->p[i].label,
			       rb->p[j].label);
		diff_traces(o, ra->p[i].path, rb->p[j].path, &res);
		if (json) {
			if (pairs)
				kt_strbuf_putc(&sb, ',');
			json_result(&sb, ra->p[i].path, rb->p[j].path, &res);
		} else {
			printf("\n");
		}
		pairs++;
		if (res.status > status)
			status = res.status;
	}
	for (i = 0; i < ra->n; i++)
		if (!used_a[i] && ++alone && !json)
			printf("== only in A: %s (%s)\n", ra->p[i].label,
			       cli_name(ra->p[i].path));
	for (j = 0; j < rb->n; j++)
		if (!used_b[j] && ++alone && !json)
			printf("== only in B: %s (%s)\n", rb->p[j].label,
			       cli_name(rb->p[j].path));
	if (alone && status == DIFF_EXIT_EQUAL)
		status = DIFF_EXIT_DIFFERENT;
	if (json) {
		kt_strbuf_printf(&sb, "],\"only_a\":");
		json_alone(&sb, ra, used_a);
		kt_strbuf_printf(&sb, ",\"only_b\":");
		json_alone(&sb, rb, used_b);
		kt_strbuf_printf(&sb, ",\"processes_a\":%zu,\"processes_b\":%zu,"
				 "\"result\":\"%s\"}", ra->n, rb->n,
				 verdict(status));
		if (write_sb(&sb))
			status = DIFF_EXIT_TROUBLE;
	} else {
		printf("run: %zu process pair%s compared, %zu without a "
		       "partner: %s\n", pairs, pairs == 1 ? "" : "s", alone,
		       verdict(status));
	}
out:
	kt_strbuf_release(&sb);
	free(used_a);
	free(used_b);
	return status;
}

int
kfdtrace_cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verify", required_argument, NULL, 'v' },
		{ "context", required_argument, NULL, 'c' },
		{ "max-reported", required_argument, NULL, 'm' },
		/* The older spelling, kept for scripts. */
		{ "max", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "merge-threads", no_argument, NULL, 'M' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_opts o = { .verify = DIFF_VERIFY_STRICT, .context = 3 };
	struct cli_run ra = { 0 }, rb = { 0 };
	char *ca = NULL, *cb = NULL;
	int opt, json = 0, status = DIFF_EXIT_TROUBLE;
	uint64_t v;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_diff(stdout);
		return DIFF_EXIT_EQUAL;
	}
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'v':
			if (!strcmp(optarg, "strict")) {
				o.verify = DIFF_VERIFY_STRICT;
			} else if (!strcmp(optarg, "results")) {
				o.verify = DIFF_VERIFY_RESULTS;
			} else {
				cli_err("--verify takes strict or results, not "
					"'%s'", optarg);
				return DIFF_EXIT_TROUBLE;
			}
			break;
		case 'c':
		case 'm':
			if (cli_parse_u64(optarg, &v) || v > 1u << 20) {
				cli_err("bad number '%s'", optarg);
				return DIFF_EXIT_TROUBLE;
			}
			if (opt == 'c')
				o.context = (unsigned int)v;
			else
				o.max_print = v;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'M':
			o.merge = 1;
			break;
		case 'j':
			json = 1;
			o.silent = 1;
			break;
		default:
			cli_opt_error(argv, "qh", longopts);
			cli_try_help();
			return DIFF_EXIT_TROUBLE;
		}
	}
	if (optind != argc - 2) {
		cli_err("expected two traces or runs (see 'kfdtrace diff "
			"--help')");
		return DIFF_EXIT_TROUBLE;
	}
	if (cli_stdin_args(argv + optind, (size_t)(argc - optind)))
		return DIFF_EXIT_TROUBLE;
	if (!is_run(argv[optind]) && !is_run(argv[optind + 1])) {
		struct diff_outcome res;
		struct kt_strbuf sb;

		status = diff_traces(&o, argv[optind], argv[optind + 1], &res);
		if (json) {
			kt_strbuf_init(&sb);
			json_result(&sb, argv[optind], argv[optind + 1], &res);
			if (write_sb(&sb))
				status = DIFF_EXIT_TROUBLE;
			kt_strbuf_release(&sb);
		}
	} else if (!open_side(argv[optind], &ra, &ca) &&
		   !open_side(argv[optind + 1], &rb, &cb)) {
		status = diff_runs(&o, &ra, &rb, json);
	}
	if (fflush(stdout) != 0) {
		cli_err("write error");
		status = DIFF_EXIT_TROUBLE;
	}
	cli_run_close(&ra);
	cli_run_close(&rb);
	free(ca);
	free(cb);
	return status;
}
