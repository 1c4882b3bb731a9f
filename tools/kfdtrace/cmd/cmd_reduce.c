/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace reduce: the smallest trace that still shows a bug
 * (kfdtrace/reduce.h has the method, docs/reduce.md the use).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/common/errnames.h>
#include <kfdtrace/reduce.h>
#include <kfdtrace/replay.h>
#include <kfdtrace/schema.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/cli_select.h"
#include "launch/profile.h"
#include "cmd/commands.h"
#include "core/run.h"
#include "launch/sim_run.h"

void
kfdtrace_help_reduce(FILE *out)
{
	fputs("Usage: kfdtrace reduce TRACE|DIR... -o OUT [-f] [OPTIONS]\n"
	      "\n"
	      "Find a smaller trace that still shows a bug: by default the\n"
	      "capture's first failed ioctl that needs earlier calls (one the\n"
	      "replay shows with nothing but what it depends on fails alone,\n"
	      "on every run, and is skipped), which the smaller trace's replay\n"
	      "(up to it) must reproduce with the same errno while every call\n"
	      "it keeps returns what it returned at capture. Records are\n"
	      "removed with what depends on them (handles, queue and event\n"
	      "ids, fds, mappings) until no single one more can go. Replays\n"
	      "run on kfdsim where /dev/kfd is absent, or with --sim.\n"
	      "The files of one run (the root's first, then its children's,\n"
	      "or the directory of record -o DIR/) are reduced together and\n"
	      "replayed as the process tree; the root's result goes to OUT,\n"
	      "each child's to STEM.<pid>.kfdtrace (STEM: OUT without its\n"
	      ".kfdtrace). An existing OUT is refused before any work unless\n"
	      "-f is given.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output OUT      the reduced trace\n"
	      "  -f, --force           replace OUT (and its children's files)\n"
	      "      --target N        the record to keep showing (#N or N)\n"
	      "      --ioctl NAME      the first failed ioctl of this kind\n"
	      "      --errno E         ... that failed with E (name or number)\n"
	      "      --predicate CMD   a shell command, run with a candidate\n"
	      "                        trace's path as $1, that exits 0 when\n"
	      "                        the bug is there (instead of the replay;\n"
	      "                        a tree's files are $1, $2, ...); without\n"
	      "                        a target and a failure that needs\n"
	      "                        earlier calls, it alone decides\n"
	      "      --sim[=PROFILE]   replay on kfdsim (default without /dev/kfd)\n"
	      "      --profile PROFILE the same as --sim=PROFILE (sim's spelling)\n"
	      "      --budget SECONDS  stop searching then (the running test is\n"
	      "                        killed), keep the best so far\n"
	      "  -j, --jobs N          candidates tested at once (1 to 16; default\n"
	      "                        one a CPU, at most 8, or 1 with --predicate);\n"
	      "                        the result is the same for any N\n"
	      "  -h, --help            this text\n"
	      "\n"
	      "SIGTERM, SIGINT or SIGHUP kill the running tests and remove the\n"
	      "scratch files (under $TMPDIR) before reduce dies of the signal.\n"
	      "\n"
	      "Exit status: 0 reduced, 1 error (an unreadable trace), 2 bad\n"
	      "usage, no such target or a predicate that cannot run, 3 the\n"
	      "target does not show in the whole trace (or the budget ended\n"
	      "first).\n", out);
}

/* The pipe a stopping signal's number goes to, for the search to see. */
static int stop_pipe[2] = { -1, -1 };
static const int stop_signals[] = { SIGHUP, SIGINT, SIGTERM };

static void
on_stop(int sig)
{
	unsigned char c = (unsigned char)sig;
	int e = errno;

	if (write(stop_pipe[1], &c, 1) < 0) {
		/* Full: a signal is there already. */
	}
	errno = e;
}

/*
 * SIGHUP, SIGINT and SIGTERM stop the search (kfd_reduce_opts.stop_fd)
 * instead of killing reduce at once, which would leave its tests running
 * and its scratch files behind. Those reduce was started ignoring stay
 * ignored. Return: the read end of the pipe, or 0 (none).
 */
static int
stop_catch(void)
{
	struct sigaction sa, old;

	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK))
		return 0;
	/* fd 0 means "none" to kfd_reduce(): stdin was closed. */
	if (stop_pipe[0] == 0) {
		stop_pipe[0] = fcntl(0, F_DUPFD_CLOEXEC, 3);
		close(0);
		if (stop_pipe[0] < 0)
			return 0;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		if (!sigaction(stop_signals[i], NULL, &old) &&
		    old.sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	return stop_pipe[0];
}

/* The first stopping signal that came, or 0. */
static int
stop_signal(void)
{
	unsigned char c;

	return stop_pipe[0] >= 0 && read(stop_pipe[0], &c, 1) == 1 ? c : 0;
}

/* An errno from its name ("ENOMEM") or number; 0 when unknown. */
static int
parse_errno(const char *s)
{
	int v = kc_errno_parse(s, strlen(s));

	return v > 0 ? v : 0;
}

static void
reduce_progress(void *ctx, uint64_t kept, uint64_t total)
{
	struct cli_progress *p = ctx;

	p->total = total;
	cli_progress_update(p, kept);
}

/*
 * Each file reduce writes: OUT for the root, STEM.<pid>.kfdtrace for each
 * other process, as kfd_reduce() names them. Return: 0, or -1 after
 * printing why one is refused.
 */
static int
reduce_outputs_check(const struct cli_run *run, const char *output,
		     int force, char *const *ins, size_t nins)
{
	const struct cli_out_rule rule = {
		.kind = CLI_OUT_TRACE, .force = force, .ins = ins, .nins = nins,
	};
	char path[PATH_MAX];

	for (size_t k = 0; k < run->n; k++) {
		if (k == 0 || kt_run_file_name(path, sizeof(path), output,
					       (int)run->p[k].hdr->pid, 0, 0))
			snprintf(path, sizeof(path), "%s", output);
		if (cli_out_check(path, &rule) < 0)
			return -1;
	}
	return 0;
}

/* reduce; *@ioctl_name gets --ioctl's canonical name, the caller's to free. */
static int
reduce_main(int argc, char **argv, char **ioctl_name)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "target", required_argument, NULL, 't' },
		{ "ioctl", required_argument, NULL, 'i' },
		{ "errno", required_argument, NULL, 'e' },
		{ "predicate", required_argument, NULL, 'p' },
		{ "sim", optional_argument, NULL, 's' },
		{ "profile", required_argument, NULL, 'P' },
		{ "budget", required_argument, NULL, 'b' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kfd_reduce_opts o = { .target_seq = UINT64_MAX };
	struct kfd_reduce_result res;
	struct cli_progress prog;
	struct cli_run run = { 0 };
	const char *output = NULL, *profile_opt = "--sim";
	const char *ins[KFD_REPLAY_MAX_TREE];
	unsigned int nin;
	int force = 0;
	char self[PATH_MAX], err[512];
	ssize_t n;
	uint64_t v;
	int opt, r, sig;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_reduce(stdout);
		return KFDTRACE_EXIT_OK;
	}
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:fj:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case 't':
			if (cli_parse_u64(optarg + (optarg[0] == '#'), &v) ||
			    v == UINT64_MAX) {
				cli_err("bad record number "
					"'%s'", optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			o.target_seq = v;
			break;
		case 'i':
			/* One name, checked as record --only checks them. */
			free(*ioctl_name);
			*ioctl_name = NULL;
			if (strchr(optarg, ',') ||
			    cli_select_ioctls("--ioctl", optarg, ioctl_name))
				goto usage;
			o.target_ioctl = *ioctl_name;
			break;
		case 'e':
			o.target_errno = parse_errno(optarg);
			if (!o.target_errno) {
				cli_err("unknown errno "
					"'%s'", optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		case 'p':
			o.predicate = optarg;
			break;
		case 's':
		case 'P':
			/* --profile P is sim's spelling of --sim=P. */
			if (optarg && o.sim && o.sim[0] &&
			    strcmp(o.sim, optarg)) {
				cli_err("two profiles: %s and %s", o.sim,
					optarg);
				goto usage;
			}
			if (!o.sim || optarg)
				o.sim = optarg ? optarg : "";
			if (optarg)
				profile_opt = opt == 'P' ? "--profile" : "--sim";
			break;
		case 'b':
			o.budget = strtod(optarg, NULL);
			if (o.budget <= 0) {
				cli_err("bad budget '%s'",
					optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		case 'j':
			if (cli_parse_u64(optarg, &v) || v < 1 || v > 16) {
				cli_err("bad number of jobs '%s' (1 to 16)",
					optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			o.jobs = (unsigned int)v;
			break;
		default:
			cli_opt_error(argv, "o:fj:h", longopts);
			cli_try_help();
			goto usage;
		}
	}
	if (optind >= argc || !output) {
		cli_err("expected a trace (or the files "
			"of one run) and -o OUT (see 'kfdtrace reduce --help')");
		return KFDTRACE_EXIT_USAGE;
	}
	if (o.target_seq != UINT64_MAX && (o.target_ioctl || o.target_errno)) {
		cli_err("--target names the record; "
			"--ioctl and --errno choose one, not both");
		return KFDTRACE_EXIT_USAGE;
	}
	if (o.predicate && access("/bin/sh", X_OK)) {
		cli_err("no /bin/sh to run the predicate");
		return KFDTRACE_EXIT_USAGE;
	}
	/* A bad profile is refused before the search, as sim does. */
	if (o.sim && o.sim[0] && kfdtrace_profile_check(profile_opt, o.sim))
		return KFDTRACE_EXIT_ERROR;
	if (cli_stdin_args(argv + optind, (size_t)(argc - optind)))
		return KFDTRACE_EXIT_ERROR;
	/* Directories stand for their run's files, root first. */
	if (cli_run_open(&run, argv + optind, (size_t)(argc - optind),
			 "reduce"))
		return KFDTRACE_EXIT_ERROR;
	if (run.n > KFD_REPLAY_MAX_TREE) {
		cli_err("at most %d traces (the files of one run)",
			KFD_REPLAY_MAX_TREE);
		cli_run_close(&run);
		return KFDTRACE_EXIT_USAGE;
	}
	/*
	 * A trace recorded with --only/--except cannot be replayed (replay
	 * refuses it): only a predicate can say whether a candidate shows
	 * the bug.
	 */
	for (nin = 0; nin < run.n && !o.predicate; nin++) {
		if (!(run.p[nin].hdr->flags & KT_HDR_SELECTED))
			continue;
		cli_err("%s: a partial trace (recorded with --only/--except): "
			"its replays are refused; give --predicate",
			cli_name(run.p[nin].path));
		cli_run_close(&run);
		return KFDTRACE_EXIT_USAGE;
	}
	/* Refused before any work: the search can take minutes. The old
	 * files stay until the new ones are written. */
	if (reduce_outputs_check(&run, output, force, argv + optind,
				 (size_t)(argc - optind))) {
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	for (nin = 0; nin < run.n; nin++)
		ins[nin] = run.p[nin].path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		cli_err("cannot find this program: %s",
			strerror(errno));
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	self[n] = '\0';
	o.kfdtrace = self;
	if (!o.sim && access("/dev/kfd", F_OK))
		o.sim = "";
	o.out = stderr;
	o.stop_fd = stop_catch();
	cli_progress_start(&prog, "records kept", 0);
	prog.every = 1;		/* a call per round of the search, not per record */
	if (prog.on) {
		o.progress = reduce_progress;
		o.progress_ctx = &prog;
	}
	r = kfd_reduce(ins, nin, output, &o, &res, err, sizeof(err));
	cli_progress_end(&prog);
	cli_run_close(&run);
	sig = stop_signal();
	if (sig) {
		/* Its tests and scratch files are gone: die of the signal,
		 * as without the handler. */
		if (r == -ECANCELED)
			cli_err("stopped by signal %d (%s): nothing written",
				sig, strsignal(sig));
		return kfdtrace_run_exit(W_EXITCODE(0, sig));
	}
	if (r == -ENOENT || r == -EINVAL) {
		cli_err("%s", err);
		return KFDTRACE_EXIT_USAGE;
	}
	if (r == -ENOEXEC || r == -ETIMEDOUT) {
		cli_err("%s", err);
		return 3;
	}
	if (r < 0) {
		cli_err("%s", err);
		return KFDTRACE_EXIT_ERROR;
	}
	printf("target:  %s\n", res.target);
	printf("before:  %llu records, %llu ioctls\n",
	       (unsigned long long)res.records_before,
	       (unsigned long long)res.ioctls_before);
	printf("after:   %llu records, %llu ioctls%s\n",
	       (unsigned long long)res.records_after,
	       (unsigned long long)res.ioctls_after,
	       res.budget_hit ? " (the budget ran out: not minimal)" :
	       " (no single record more can go)");
	printf("tests:   %llu candidates tried\n", (unsigned long long)res.tests);
	if (res.files > 1)
		printf("wrote:   %s and %u more (its children's, named as "
		       "record names them)\n", output, res.files - 1);
	else
		printf("wrote:   %s\n", output);
	return KFDTRACE_EXIT_OK;
usage:
	return KFDTRACE_EXIT_USAGE;
}

int
kfdtrace_cmd_reduce(int argc, char **argv)
{
	char *ioctl_name = NULL;
	int ret = reduce_main(argc, argv, &ioctl_name);

	free(ioctl_name);
	return ret;
}
