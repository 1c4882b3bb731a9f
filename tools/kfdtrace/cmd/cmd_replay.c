/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace replay FILE [--sim[=PROFILE]] [options]
 *
 * Replays a trace on /dev/kfd, or on kfdsim with --sim and whenever
 * /dev/kfd is absent. The replayer (replay/) is a library in this process,
 * so "on kfdsim" means this command runs itself again under the simulator,
 * through `kfdtrace sim`, which knows how to find and preload it.
 *
 * Exit status: 0 every verified result matched, 1 the replay diverged,
 * 2 bad usage, 3 the trace could not be replayed.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdtrace/recorder.h>
#include <kfdtrace/replay.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/cli_select.h"
#include "cmd/commands.h"
#include "kfdtrace/decode.h"
#include "core/run.h"
#include "launch/sim_run.h"

/* Set in the environment of the run under the simulator. */
#define REPLAY_SIM_ENV "KFDTRACE_REPLAY_SIM"

enum {
	REPLAY_EXIT_MATCH = 0,
	REPLAY_EXIT_DIVERGED = 1,
	REPLAY_EXIT_USAGE = KFDTRACE_EXIT_USAGE,
	REPLAY_EXIT_FAILED = 3,
	REPLAY_EXIT_DAMAGED = 4,	/* the trace is not whole: no verdict */
};

void
kfdtrace_help_replay(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace replay FILE|DIR... [--sim[=PROFILE]] [OPTIONS]\n"
		"\n"
		"Reissue the KFD and render-node requests of a trace on a live device\n"
		"and compare every result with the captured one. Given the files of one\n"
		"run (the root's trace and its children's, as record writes them, or\n"
		"the directory of record -o DIR/), replay\n"
		"them as the process tree they came from. GPU ids, handles,\n"
		"queue and event ids, fds and mmap offsets are mapped from captured to\n"
		"live; GPU virtual addresses and the CPU addresses the kernel keeps are\n"
		"kept where possible. Runs on /dev/kfd, or on kfdsim (the simulated\n"
		"device) with --sim and whenever /dev/kfd is absent.\n"
		"\n"
		"Options:\n"
		"      --sim[=PROFILE]     replay on kfdsim (PROFILE: builtin name or file)\n"
		"      --profile PROFILE   the same as --sim=PROFILE (sim's spelling)\n"
		"      --verify=strict|results|none\n"
		"                          strict (default): results and every output field;\n"
		"                          results: return value and errno; none: nothing\n"
		"      --gpu-map C=L,...   pair captured gpu_id C with live gpu_id L\n"
		"      --force             replay even when a captured GPU has no match\n"
		"      --from SEQ          start at record SEQ\n"
		"      --to SEQ            stop after record SEQ\n"
		"      --only KIND,...     replay only these kinds: ioctl names\n"
		"                          (ALLOC_MEMORY_OF_GPU), record types (open,\n"
		"                          close, dup, mmap, munmap) or 'ioctl'\n"
		"      --skip KIND,...     replay everything but these kinds\n"
		"      --stop-at-divergence  stop at the first divergence (default)\n"
		"      --keep-going        go on after divergences and count them all\n"
		"      --threads           each captured thread on a thread of its own,\n"
		"                          after the calls that had returned before it\n"
		"                          (default: serial, in sequence order)\n"
		"      --timing=asap|original  asap (default) or original (keep the gaps)\n"
		"      --max-sleep MS      with --timing=original, the longest gap kept\n"
		"                          (default 10000; longer ones are cut, with a\n"
		"                          warning)\n"
		"      --loop N            replay N times, each in a fresh process\n"
		"      --record OUT        record the replay itself into trace OUT\n"
		"      --no-resubmit       leave out the captured packets (a trace made\n"
		"                          with record --submissions), which are by\n"
		"                          default published again on the queues\n"
		"      --no-compare        write every captured copy source back;\n"
		"                          by default one in VRAM a replayed packet\n"
		"                          wrote is compared with the replay's bytes\n"
		"      --wait-timeout MS   bound on a blocking WAIT_EVENTS (default 5000),\n"
		"                          and on the wait for the queues before a\n"
		"                          comparison\n"
		"      --max-reported N    divergences described in full (default 20)\n"
		"      --plan              print the object model and the compatibility\n"
		"                          report; replay nothing\n"
		"      --json              the verdict and the counts as one JSON object\n"
		"                          on standard output (the report goes to\n"
		"                          standard error)\n"
		"  -v, --verbose           print every replayed record\n"
		"  -h, --help              this text\n"
		"\n"
		"Exit status: 0 match, 1 diverged, 2 bad usage, 3 could not replay,\n"
		"4 no verdict (the trace is truncated, corrupt, damaged, lost records\n"
		"or has no END record).\n");
}

struct replay_cli {
	const char *file;
	/* The traces of one run (the first is file), for a tree replay. */
	const char *files[KFD_REPLAY_MAX_TREE];
	unsigned int nfiles;
	const char *profile;
	const char *gpu_map;
	int sim;
	int stdin_arg;			/* argv's "-", 0: none */
	int plan;
	int help;
	int json;
	struct cli_run run;		/* the files, when a directory was given */
	struct kfd_replay_opts o;
	struct kfd_replay_gpu_pair pairs[KFD_REPLAY_MAX_GPU_MAP];
};

static int __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'kfdtrace replay --help')\n");
	return -1;
}

/* Every option parse() knows, for "did you mean". */
static const char *const replay_options[] = {
	"--help", "--sim", "--profile", "--verify", "--timing", "--gpu-map",
	"--from", "--to", "--loop", "--wait-timeout", "--max-reported",
	"--max-sleep", "--only", "--skip", "--stop-at-divergence",
	"--keep-going", "--force", "--threads", "--no-resubmit", "--plan",
	"--json", "--verbose", "--record", "--no-compare",
};
#define NREPLAY_OPTIONS (sizeof(replay_options) / sizeof(replay_options[0]))

/* "--name=value" or "--name value": the value, or NULL. */
static const char *
opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int
is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);

	return strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

/* A directory stands for its run's files, root first (run.h). */
static int
expand_dirs(struct replay_cli *c)
{
	struct stat st;
	unsigned int i;
	size_t k;

	for (i = 0; i < c->nfiles; i++)
		if (stat(c->files[i], &st) == 0 && S_ISDIR(st.st_mode))
			break;
	if (i == c->nfiles)
		return 0;
	if (cli_run_open(&c->run, (char *const *)c->files, c->nfiles,
			 "replay"))
		return -1;
	if (c->run.n > KFD_REPLAY_MAX_TREE)
		return usage_error("at most %d traces (the files of one run)",
				   KFD_REPLAY_MAX_TREE);
	for (k = 0; k < c->run.n; k++)
		c->files[k] = c->run.p[k].path;
	c->nfiles = (unsigned int)c->run.n;
	c->file = c->files[0];
	return 0;
}

static int
parse(int argc, char **argv, struct replay_cli *c)
{
	char bad[64];
	int i;

	memset(c, 0, sizeof(*c));
	c->o.loop = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		uint64_t n;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			c->help = 1;
		} else if (!strcmp(a, "--sim")) {
			c->sim = 1;
		} else if (!strncmp(a, "--sim=", 6)) {
			c->sim = 1;
			c->profile = a + 6;
			if (!*c->profile)
				return usage_error("--sim= needs a profile");
		} else if (is_opt(a, "--profile")) {
			/* sim's spelling of --sim=P. */
			v = opt_value(argc, argv, &i, "--profile");
			if (!v || !*v)
				return usage_error("--profile needs a profile");
			c->sim = 1;
			c->profile = v;
		} else if (is_opt(a, "--verify")) {
			v = opt_value(argc, argv, &i, "--verify");
			if (v && !strcmp(v, "strict"))
				c->o.verify = KFD_REPLAY_VERIFY_STRICT;
			else if (v && !strcmp(v, "results"))
				c->o.verify = KFD_REPLAY_VERIFY_RESULTS;
			else if (v && !strcmp(v, "none"))
				c->o.verify = KFD_REPLAY_VERIFY_NONE;
			else
				return usage_error("--verify takes strict, results or "
						   "none, not '%s'", v ? v : "");
		} else if (is_opt(a, "--timing")) {
			v = opt_value(argc, argv, &i, "--timing");
			if (v && !strcmp(v, "asap"))
				c->o.timing = KFD_REPLAY_TIMING_ASAP;
			else if (v && !strcmp(v, "original"))
				c->o.timing = KFD_REPLAY_TIMING_ORIGINAL;
			else
				return usage_error("--timing takes asap or original, "
						   "not '%s'", v ? v : "");
		} else if (is_opt(a, "--gpu-map")) {
			v = opt_value(argc, argv, &i, "--gpu-map");
			c->gpu_map = v;
			if (!v)
				return usage_error("--gpu-map needs C=L pairs");
		} else if (is_opt(a, "--from") || is_opt(a, "--to") ||
			   is_opt(a, "--loop") || is_opt(a, "--wait-timeout") ||
			   is_opt(a, "--max-reported") || is_opt(a, "--max-sleep")) {
			const char *name = a[2] == 'f' ? "--from" : a[2] == 't' ?
				"--to" : a[2] == 'l' ? "--loop" : a[2] == 'w' ?
				"--wait-timeout" : a[6] == 's' ? "--max-sleep" :
				"--max-reported";

			v = opt_value(argc, argv, &i, name);
			if (cli_parse_u64(v, &n) < 0)
				return usage_error("%s needs a number", name);
			if (name[2] == 'f')
				c->o.from_seq = n;
			else if (name[2] == 't')
				c->o.to_seq = n;
			else if (name[2] == 'l' && n >= 1 && n <= 1000000)
				c->o.loop = (unsigned int)n;
			else if (name[2] == 'w' && n >= 1 && n <= UINT32_MAX)
				c->o.wait_cap_ms = (unsigned int)n;
			else if (name[6] == 's' && n >= 1 && n <= UINT32_MAX)
				c->o.max_sleep_ms = (unsigned int)n;
			else if (name[2] == 'm' && n >= 1 && n <= UINT32_MAX)
				c->o.max_reported = (unsigned int)n;
			else
				return usage_error("%s is out of range", name);
		} else if (is_opt(a, "--only") || is_opt(a, "--skip")) {
			int only = a[2] == 'o';

			v = opt_value(argc, argv, &i, only ? "--only" : "--skip");
			if (!v)
				return usage_error("%s needs a list of kinds", a);
			if (kfd_replay_check_kinds(v, bad, sizeof(bad)) < 0) {
				const char *near = cli_select_nearest(bad, 1);

				if (near)
					return usage_error("unknown record kind "
							   "'%s'; did you mean "
							   "'%s'?", bad, near);
				return usage_error("unknown record kind '%s'",
						   bad);
			}
			if (only)
				c->o.only = v;
			else
				c->o.skip = v;
		} else if (!strcmp(a, "--stop-at-divergence")) {
			c->o.keep_going = 0;
		} else if (!strcmp(a, "--keep-going")) {
			c->o.keep_going = 1;
		} else if (!strcmp(a, "--force")) {
			c->o.force = 1;
		} else if (!strcmp(a, "--threads")) {
			c->o.threads = 1;
		} else if (!strcmp(a, "--no-resubmit")) {
			c->o.no_resubmit = 1;
		} else if (!strcmp(a, "--no-compare")) {
			c->o.no_compare = 1;
		} else if (!strcmp(a, "--plan")) {
			c->plan = 1;
		} else if (!strcmp(a, "--json")) {
			c->json = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			c->o.verbose = 1;
		} else if (is_opt(a, "--record")) {
			v = opt_value(argc, argv, &i, "--record");
			if (!v || !*v)
				return usage_error("--record needs a file");
			/* The replay's trace is a file, as record's is. */
			if (!strcmp(v, "-"))
				return usage_error("--record -: a trace cannot "
						   "be written to standard "
						   "output; give a file");
			c->o.record_path = v;
		} else if (a[0] == '-' && a[1]) {
			const char *near = cli_nearest(a, strcspn(a, "="),
						       replay_options,
						       NREPLAY_OPTIONS);

			if (near)
				return usage_error("unknown option '%s'; "
						   "did you mean '%s'?", a,
						   near);
			return usage_error("unknown option '%s'", a);
		} else if (c->nfiles < KFD_REPLAY_MAX_TREE) {
			if (!strcmp(a, "-"))
				c->stdin_arg = i;
			c->files[c->nfiles++] = a;
			c->file = c->files[0];
		} else {
			return usage_error("at most %d traces (the files of one run)",
					   KFD_REPLAY_MAX_TREE);
		}
	}
	if (c->help)
		return 0;
	if (!c->file)
		return usage_error("no trace given");
	/* "-": the copy of standard input, in argv too for reexec_on_sim(). */
	if (cli_stdin_args((char **)c->files, c->nfiles))
		return -2;
	for (unsigned int k = 0; c->stdin_arg && k < c->nfiles; k++)
		if (!strcmp(cli_name(c->files[k]), "-"))
			argv[c->stdin_arg] = (char *)c->files[k];
	c->file = c->files[0];
	if (expand_dirs(c))
		return -1;
	if (c->nfiles > 1 && c->o.loop > 1)
		return usage_error("--loop replays one trace, not a tree");
	if (c->o.from_seq && c->o.to_seq && c->o.to_seq < c->o.from_seq)
		return usage_error("--to is before --from");
	if (c->gpu_map) {
		int n = kfd_replay_parse_gpu_map(c->gpu_map, c->pairs,
						 KFD_REPLAY_MAX_GPU_MAP);

		if (n < 0)
			return usage_error("--gpu-map '%s': expected CAPTURED=LIVE,... "
					   "with gpu ids", c->gpu_map);
		c->o.gpu_map = c->pairs;
		c->o.ngpu_map = (unsigned int)n;
	}
	return 0;
}

/*
 * Run this very command again under the simulator, by way of
 * `kfdtrace sim [--profile P] -- /proc/self/exe replay ARGS...`: a child
 * on one simulated machine, removed when it ends.
 */
static int
reexec_on_sim(int argc, char **argv, const struct replay_cli *c)
{
	char self[PATH_MAX];
	char **nargv;
	ssize_t n;
	int k = 0, i, ran, ret;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		cli_err("cannot find this program: %s",
			strerror(errno));
		return REPLAY_EXIT_FAILED;
	}
	self[n] = '\0';
	nargv = calloc((size_t)argc + 8, sizeof(*nargv));
	if (!nargv)
		return REPLAY_EXIT_FAILED;
	nargv[k++] = "sim";
	if (c->profile) {
		nargv[k++] = "--profile";
		nargv[k++] = (char *)c->profile;
	}
	nargv[k++] = "--";
	nargv[k++] = self;
	/* argv[0] is "kfdtrace replay", the prefix; the command is "replay". */
	nargv[k++] = "replay";
	for (i = 1; i < argc; i++)
		nargv[k++] = argv[i];
	nargv[k] = NULL;
	if (setenv(REPLAY_SIM_ENV, c->profile ? c->profile : "default", 1) < 0) {
		free(nargv);
		return REPLAY_EXIT_FAILED;
	}
	fflush(stdout);
	/* The replay runs in a child on the run's machine; its status is
	 * this command's. */
	ret = kfdtrace_sim_command(k, nargv, &ran);
	free(nargv);
	return ran ? ret : REPLAY_EXIT_FAILED;
}

static const char *
verdict_name(enum kfd_replay_status st)
{
	switch (st) {
	case KFD_REPLAY_MATCH:
		return "match";
	case KFD_REPLAY_DIVERGED:
		return "diverged";
	case KFD_REPLAY_DAMAGED:
		return "damaged";
	default:
		return "failed";
	}
}

/* --json: the verdict and the summary's counts, one object on stdout. */
static void
print_json(const struct replay_cli *c, enum kfd_replay_status st,
	   const struct kfd_replay_summary *s, const char *on_sim)
{
	struct kt_strbuf sb;
	unsigned int i;

	kt_strbuf_init(&sb);
	kt_strbuf_printf(&sb, "{\"verdict\":\"%s\",\"device\":\"%s\",\"traces\":[",
			 verdict_name(st), on_sim ? "kfdsim" : "/dev/kfd");
	for (i = 0; i < c->nfiles; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kfd_json_escape(&sb, c->files[i], strlen(c->files[i]));
	}
	kt_strbuf_printf(&sb, "],\"verify\":\"%s\"",
			 c->o.verify == KFD_REPLAY_VERIFY_RESULTS ? "results" :
			 c->o.verify == KFD_REPLAY_VERIFY_NONE ? "none" :
			 "strict");
#define J(f) kt_strbuf_printf(&sb, ",\"" #f "\":"); kfd_json_u64(&sb, s->f)
	J(records); J(ioctls); J(filtered); J(not_replayed); J(divergences);
	J(topology_notes); J(raced); J(mapped_fds); J(mapped_handles); J(mapped_queues);
	J(mapped_events); J(mapped_gem); J(mapped_offsets); J(cpu_mappings);
	J(relocations); J(synthesized); J(gpu_sets); J(ages_offset); J(resubmitted);
	J(unretired); J(memory_restored); J(copies_checked);
	J(compared); J(compared_bytes); J(compared_differ); J(compared_unfed);
	J(compare_busy); J(compare_waited);
	J(ib_skipped);
#undef J
	kt_strbuf_printf(&sb, ",\"first_divergence_seq\":");
	if (!s->divergences || s->first_divergence_seq == UINT64_MAX)
		kt_strbuf_printf(&sb, "null");
	else
		kfd_json_u64(&sb, s->first_divergence_seq);
	kt_strbuf_printf(&sb, ",\"seconds\":%.6f,\"cpu_seconds\":%.6f}\n",
			 s->seconds, s->cpu_seconds);
	if (!sb.failed)
		fwrite(sb.data, 1, sb.len, stdout);
	kt_strbuf_release(&sb);
}

static void
replay_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ctx;

	p->total = total;
	cli_progress_update(p, done);
}

static int
exit_of(enum kfd_replay_status st)
{
	switch (st) {
	case KFD_REPLAY_MATCH:
		return REPLAY_EXIT_MATCH;
	case KFD_REPLAY_DIVERGED:
		return REPLAY_EXIT_DIVERGED;
	case KFD_REPLAY_DAMAGED:
		return REPLAY_EXIT_DAMAGED;
	default:
		return REPLAY_EXIT_FAILED;
	}
}

/* The files of one run, replayed as its process tree. */
static int
replay_tree(struct replay_cli *c, const char *on_sim)
{
	struct kfd_replay *rs[KFD_REPLAY_MAX_TREE] = { 0 };
	struct kfd_replay_summary sum;
	enum kfd_replay_status st = KFD_REPLAY_FAILED;
	unsigned int i;
	char err[512];
	int ret = REPLAY_EXIT_FAILED;

	FILE *out = c->json ? stderr : stdout;

	memset(&sum, 0, sizeof(sum));
	sum.first_divergence_seq = UINT64_MAX;
	c->o.out = out;
	if (on_sim)
		c->o.record_flags |= KFD_REC_SIMULATED;
	fprintf(out, "replaying %u traces as one process tree on %s\n",
		c->nfiles, on_sim ? "kfdsim" : "/dev/kfd");
	for (i = 0; i < c->nfiles; i++) {
		int r = kfd_replay_open(c->files[i], &rs[i], err, sizeof(err));

		if (r < 0) {
			cli_err("%s", err);
			goto out;
		}
		fprintf(out, "\ntrace %s:\n", cli_name(c->files[i]));
		if (c->plan)
			kfd_replay_print_plan(rs[i], out);
		r = kfd_replay_match(rs[i], &c->o);
		if (r < 0) {
			ret = r == -EINVAL ? REPLAY_EXIT_USAGE : REPLAY_EXIT_FAILED;
			goto out;
		}
	}
	if (c->plan) {
		ret = KFDTRACE_EXIT_OK;
		goto out;
	}
	fflush(stdout);
	st = kfd_replay_tree(rs, c->nfiles, &c->o, &sum);
	fflush(out);
	if (c->json)
		print_json(c, st, &sum, on_sim);
	fflush(stdout);
	ret = exit_of(st);
out:
	for (i = 0; i < c->nfiles; i++)
		kfd_replay_close(rs[i]);
	return ret;
}

int
kfdtrace_cmd_replay(int argc, char **argv)
{
	struct kfd_replay_summary sum;
	const char *on_sim = getenv(REPLAY_SIM_ENV);
	struct kfd_replay *r;
	struct replay_cli c;
	enum kfd_replay_status st;
	struct cli_progress prog;
	char err[512];
	FILE *out;
	int ret;

	ret = parse(argc, argv, &c);
	if (ret == -2)
		return REPLAY_EXIT_FAILED;
	if (ret < 0)
		return REPLAY_EXIT_USAGE;
	if (c.help) {
		kfdtrace_help_replay(stdout);
		return KFDTRACE_EXIT_OK;
	}
	if (!on_sim && (c.sim || access("/dev/kfd", F_OK) != 0)) {
		if (!c.sim)
			cli_err("no /dev/kfd here: replaying "
				"on kfdsim, the simulated device");
		ret = reexec_on_sim(argc, argv, &c);
		cli_run_close(&c.run);
		return ret;
	}
	if (c.nfiles > 1) {
		ret = replay_tree(&c, on_sim);
		cli_run_close(&c.run);
		return ret;
	}
	ret = kfd_replay_open(c.file, &r, err, sizeof(err));
	if (ret < 0) {
		cli_err("%s", err);
		return REPLAY_EXIT_FAILED;
	}
	out = c.json ? stderr : stdout;
	c.o.out = out;
	if (on_sim)
		c.o.record_flags |= KFD_REC_SIMULATED;
	if (!on_sim)
		fprintf(out, "replaying %s on /dev/kfd\n", cli_name(c.file));
	else if (strcmp(on_sim, "default"))
		fprintf(out, "replaying %s on kfdsim, profile %s\n",
			cli_name(c.file), on_sim);
	else
		fprintf(out, "replaying %s on kfdsim, default profile\n",
			cli_name(c.file));
	if (c.plan)
		kfd_replay_print_plan(r, out);
	ret = kfd_replay_match(r, &c.o);
	if (ret < 0 || c.plan) {
		kfd_replay_close(r);
		if (ret == -EINVAL)
			return REPLAY_EXIT_USAGE;
		return ret < 0 ? REPLAY_EXIT_FAILED : KFDTRACE_EXIT_OK;
	}
	fflush(stdout);
	memset(&sum, 0, sizeof(sum));
	sum.first_divergence_seq = UINT64_MAX;
	/* A progress line only where it does not mix with the report. */
	cli_progress_start(&prog, "records replayed", 0);
	if (prog.on && !c.json && !isatty(STDOUT_FILENO)) {
		c.o.progress = replay_progress;
		c.o.progress_ctx = &prog;
	}
	st = kfd_replay_run(r, &c.o, &sum);
	cli_progress_end(&prog);
	kfd_replay_close(r);
	fflush(out);
	if (c.json)
		print_json(&c, st, &sum, on_sim);
	fflush(stdout);
	cli_run_close(&c.run);
	return exit_of(st);
}
