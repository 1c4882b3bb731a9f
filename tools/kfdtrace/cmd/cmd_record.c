/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace record [-o FILE] [--sim[=PROFILE]] [--no-buffers] [--lttng] [--api]
 *                 [--submissions] [--only NAME,...] [--except NAME,...]
 *                 -- CMD [ARGS]
 *
 * Runs CMD with the capture library preloaded (and kfdsim's library after
 * it when asked to, or when this machine has no /dev/kfd: then on one
 * simulated machine for the run, sim_run.h), waits for it, and summarizes
 * the trace it left. Returns CMD's exit status (128 + the
 * signal number when a signal killed it). The run's trace files are
 * record_files.c's, the summary record_summary.c's (record.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/cli_select.h"
#include "cmd/commands.h"
#include "ksim_profile.h"
#include "launch/libpath.h"
#include "launch/profile.h"
#include "record/record.h"
#include "launch/sim_run.h"

void
kfdtrace_help_record(FILE *f)
{
	fprintf(f,
		"Usage: kfdtrace record [-o FILE|DIR/] [-f] [--sim[=PROFILE]] [--thunk ours|amd]\n"
		"                       [--no-buffers] [--lttng] [--api] [--submissions]\n"
		"                       [--only NAME,...] [--except NAME,...]\n"
		"                       -- CMD [ARGS...]\n"
		"\n"
		"Run CMD and record every KFD and render-node request it makes.\n"
		"\n"
		"  -o, --output FILE   the first process's trace (default:\n"
		"                      kfdtrace-<cmd>-<pid>.kfdtrace); forked children\n"
		"                      write FILE-STEM.<pid>.kfdtrace beside it\n"
		"  -o, --output DIR/   every process writes DIR/<pid>.kfdtrace (DIR is\n"
		"                      made when missing; an existing directory works\n"
		"                      without the slash too)\n"
		"  -f, --force         replace an existing FILE, or the traces already in\n"
		"                      DIR; without it they are refused before CMD runs\n"
		"      --sim[=PROFILE]\n"
		"                      run on kfdsim, the simulated device (automatic\n"
		"                      when /dev/kfd does not exist); PROFILE picks the\n"
		"                      simulated machine (see kfdtrace sim), which every\n"
		"                      process of CMD shares for the run\n"
		"      --profile PROFILE  the same as --sim=PROFILE (sim's spelling)\n"
		"      --thunk ours|amd\n"
		"                      the libhsakmt CMD runs on: ours (kfdtrace's, its\n"
		"                      directory first in LD_LIBRARY_PATH) or AMD's (ours\n"
		"                      taken out of LD_LIBRARY_PATH); default: what the\n"
		"                      dynamic linker finds (the system's)\n"
		"      --no-buffers    leave out buffer contents that may hold user data\n"
		"      --only NAME,... record only these ioctls (the names dump prints,\n"
		"                      ALLOC_MEMORY_OF_GPU or alloc_memory_of_gpu, and\n"
		"                      unknown-ioctl); the others go to the device\n"
		"                      unrecorded, counted in the trace's END record\n"
		"      --except NAME,...\n"
		"                      record every ioctl but these; with --only, the\n"
		"                      ones --only names but these. A trace recorded\n"
		"                      so is partial: replay and emit-c refuse it\n"
		"      --lttng         also emit every call as a kfd:* lttng-ust event, for\n"
		"                      the LTTng sessions that enable them (docs/lttng.md)\n"
		"      --api           also record each hsaKmt* call of a dynamically linked\n"
		"                      libhsakmt as a span around its ioctls (docs/tracer.md)\n"
		"      --submissions[=full]\n"
		"                      also record the packets every doorbell publishes on\n"
		"                      AQL and SDMA queues (docs/submissions.md); =full\n"
		"                      also what they reference: code objects, kernel\n"
		"                      arguments, signals, SDMA copy sources\n"
		"      --submissions-limit BYTES\n"
		"                      bound on that memory (default 256 MiB)\n"
		"  -h, --help          this text\n"
		"\n"
		"FILE-STEM is FILE without its .kfdtrace; an image after an exec writes\n"
		"FILE-STEM[.<pid>].exec<N>.kfdtrace (docs/tracer.md). The analysis\n"
		"commands take all of a run's files, or DIR, together. Environment: KFDTRACE_CAPTURE_LIB, KFDTRACE_SIM_LIB\n"
		"(library paths), KFDTRACE_FOLLOW_FORK=0 (do not trace children).\n");
}

/* LD_PRELOAD splits on spaces and colons: such a path cannot be preloaded. */
static int
preloadable(const char *path)
{
	return !strpbrk(path, " :\t");
}

struct record_opts {
	const char *output;
	const char *profile;
	const char *profile_opt;	/* "--sim" or "--profile" */
	int force;
	int sim;
	enum kfdtrace_thunk thunk;
	int no_buffers;
	int lttng;
	int api;
	int submissions;		/* 1 packets, 2 full */
	const char *submissions_limit;
	char *only, *except;		/* checked, in the schema's spelling */
};

/* Add @list to *@acc (--only and --except may be given more than once). */
static int
add_names(const char *opt, const char *list, char **acc)
{
	char *canon, *joined;

	if (cli_select_ioctls(opt, list, &canon))
		return -1;
	if (!*acc) {
		*acc = canon;
		return 0;
	}
	if (asprintf(&joined, "%s,%s", *acc, canon) < 0) {
		free(canon);
		cli_err("out of memory");
		return -1;
	}
	free(*acc);
	free(canon);
	*acc = joined;
	return 0;
}

static int
parse_args(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "sim", optional_argument, NULL, 's' },
		{ "profile", required_argument, NULL, 'P' },
		{ "thunk", required_argument, NULL, 'T' },
		{ "no-buffers", no_argument, NULL, 'b' },
		{ "lttng", no_argument, NULL, 'l' },
		{ "api", no_argument, NULL, 'a' },
		{ "submissions", optional_argument, NULL, 'S' },
		{ "submissions-limit", required_argument, NULL, 'L' },
		{ "only", required_argument, NULL, 'O' },
		{ "except", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	/* '+': stop at the first non-option, CMD's own options are CMD's. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 's':
		case 'P':
			/* --profile P is sim's spelling of --sim=P. */
			if (o->profile && optarg &&
			    strcmp(o->profile, optarg)) {
				cli_err("two profiles: %s and %s", o->profile,
					optarg);
				return -1;
			}
			o->sim = 1;
			if (optarg) {
				o->profile = optarg;
				o->profile_opt = c == 'P' ? "--profile" :
					"--sim";
			}
			break;
		case 'T':
			if (kfdtrace_thunk_parse(optarg, &o->thunk))
				return -1;
			break;
		case 'b':
			o->no_buffers = 1;
			break;
		case 'l':
			o->lttng = 1;
			break;
		case 'a':
			o->api = 1;
			break;
		case 'S':
			if (optarg && strcmp(optarg, "full")) {
				cli_err("--submissions takes "
					"nothing or =full, not '%s'", optarg);
				return -1;
			}
			o->submissions = optarg ? 2 : 1;
			break;
		case 'L':
			o->submissions_limit = optarg;
			if (!*optarg || strspn(optarg, "0123456789") != strlen(optarg)) {
				cli_err("--submissions-limit "
					"takes a number of bytes, not '%s'", optarg);
				return -1;
			}
			break;
		case 'O':
			if (add_names("--only", optarg, &o->only))
				return -1;
			break;
		case 'E':
			if (add_names("--except", optarg, &o->except))
				return -1;
			break;
		case 'h':
			kfdtrace_help_record(stdout);
			return 1;
		default:
			cli_opt_error(argv, "+o:fh", longopts);
			cli_try_help();
			return -1;
		}
	}
	/*
	 * The capture library in each process of CMD writes that process's
	 * trace to its own file, replaced in place when it ends: there is no
	 * one stream to hand to standard output.
	 */
	if (o->output && strcmp(o->output, "-") == 0) {
		cli_err("-o -: a trace cannot be written to standard output "
			"(every process of CMD writes its own file); give "
			"-o FILE or -o DIR/");
		return -1;
	}
	if (optind >= argc) {
		cli_err("no command to run");
		cli_try_help();
		return -1;
	}
	return 0;
}

/* ---- running the command ---- */

static void
default_output(const char *cmd, pid_t pid, char *out, size_t size)
{
	const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	snprintf(out, size, "%.3800s/kfdtrace-%.200s-%d.kfdtrace", cwd, base,
		 (int)pid);
}

static int
absolute(const char *path, char *out, size_t size)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return (size_t)snprintf(out, size, "%s", path) < size ? 0 : -1;
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	return (size_t)snprintf(out, size, "%s/%s", cwd, path) < size ? 0 : -1;
}

/* ---- --lttng (docs/lttng.md) ---- */

/* lttng-ust's fork()/clone() wrappers: without them a forked child's
 * events carry its parent's vpid. */
#define LTTNG_UST_FORK_LIB "liblttng-ust-fork.so.1"

/* Whether a session daemon this user's applications can reach runs. */
static int
lttng_daemon_running(void)
{
	const char *home = getenv("LTTNG_HOME");
	char path[PATH_MAX];
	FILE *f;
	int pid = 0;

	if (!home || !*home)
		home = getenv("HOME");
	for (int i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "/var/run/lttng/lttng-sessiond.pid");
		else if (!home || (size_t)snprintf(path, sizeof(path),
				   "%s/.lttng/lttng-sessiond.pid", home) >= sizeof(path))
			continue;
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
		if (pid > 0 && (kill(pid, 0) == 0 || errno == EPERM))
			return 1;
	}
	return 0;
}

/* In the child: the capture library loads the provider when it sees this. */
static void
lttng_child_env(void)
{
	const char *old = getenv("LD_PRELOAD");
	char *preload;

	setenv("KFDTRACE_LTTNG", "1", 1);
	if (old && strstr(old, "liblttng-ust-fork"))
		return;
	if (asprintf(&preload, "%s%s%s", old && *old ? old : "",
		     old && *old ? ":" : "", LTTNG_UST_FORK_LIB) >= 0)
		setenv("LD_PRELOAD", preload, 1);
}

/* In the child: the environment for CMD, then CMD. Never returns. */
static void
exec_child(char **cmd, const char *capture, const char *sim,
	   const struct record_opts *o, const char *output)
{
	const char *old = getenv("LD_PRELOAD");
	char pid[16], *preload, run[3 * 1024 + 1];
	struct timespec now;

	if (asprintf(&preload, "%s%s%s%s%s", capture, sim ? ":" : "",
		     sim ? sim : "", old && *old ? ":" : "",
		     old && *old ? old : "") < 0)
		_exit(127);
	setenv("LD_PRELOAD", preload, 1);
	setenv("KFDTRACE_OUTPUT", output, 1);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("KFDTRACE_ROOT_PID", pid, 1);
	unsetenv("KFDTRACE_STATE");
	/* The run's command and start, for every trace's header: the
	 * report is titled and timed by the run, not by whichever process
	 * happened to open the device first. */
	if (!kt_run_cmdline_encode(run, sizeof(run), cmd))
		setenv(KT_ENV_RUN_CMDLINE, run, 1);
	else
		unsetenv(KT_ENV_RUN_CMDLINE);
	if (!clock_gettime(CLOCK_MONOTONIC, &now)) {
		snprintf(run, sizeof(run), "%llu", (unsigned long long)
			 now.tv_sec * 1000000000ull +
			 (unsigned long long)now.tv_nsec);
		setenv(KT_ENV_RUN_START, run, 1);
	}
	if (o->no_buffers)
		setenv("KFDTRACE_NO_BUFFERS", "1", 1);
	else
		unsetenv("KFDTRACE_NO_BUFFERS");
	if (o->profile)
		setenv("KFDSIM_PROFILE", o->profile, 1);
	if (o->lttng)
		lttng_child_env();
	if (o->api)
		setenv("KFDTRACE_API", "1", 1);
	else
		unsetenv("KFDTRACE_API");
	if (o->submissions)
		setenv("KFDTRACE_SUBMISSIONS", o->submissions == 2 ? "full" : "1", 1);
	else
		unsetenv("KFDTRACE_SUBMISSIONS");
	if (o->submissions_limit)
		setenv("KFDTRACE_SUBMISSIONS_LIMIT", o->submissions_limit, 1);
	else
		unsetenv("KFDTRACE_SUBMISSIONS_LIMIT");
	/* Only what this record asked for: never a selection inherited. */
	if (o->only)
		setenv("KFDTRACE_ONLY", o->only, 1);
	else
		unsetenv("KFDTRACE_ONLY");
	if (o->except)
		setenv("KFDTRACE_EXCEPT", o->except, 1);
	else
		unsetenv("KFDTRACE_EXCEPT");
	execvp(cmd[0], cmd);
	cli_err("cannot run %s: %s", cmd[0],
		strerror(errno));
	_exit(127);
}

struct child_args {
	char **cmd;
	const char *capture, *sim, *output;
	const struct record_opts *o;
};

/* In the child (kfdtrace_run_start()): the default trace name has its pid. */
static void
start_child(void *arg)
{
	struct child_args *a = arg;
	char output[PATH_MAX];

	if (!a->o->output) {
		default_output(a->cmd[0], getpid(), output, sizeof(output));
		a->output = output;
	}
	exec_child(a->cmd, a->capture, a->sim, a->o, a->output);
}

/*
 * Can the trace be created? Try it in @path's directory (a file that is
 * removed again), so that an unwritable or missing directory, a read-only
 * file system or a full quota is found before the program runs, not after.
 * Return: 0, or -1 with the reason printed.
 */
static int
output_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char probe[PATH_MAX];
	int fd, n;

	n = snprintf(probe, sizeof(probe), "%.*s/.kfdtrace-probe-XXXXXX",
		     slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (n < 0 || (size_t)n >= sizeof(probe))
		return 0;	/* the capture library will say */
	fd = mkostemp(probe, O_CLOEXEC);
	if (fd < 0) {
		cli_err("cannot create the trace %s: %s",
			path, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/* A bad --sim=PROFILE is refused before anything runs, as sim does. */
static int
profile_usable(const struct record_opts *o)
{
	if (!o->profile)
		return 0;
	return kfdtrace_profile_check(o->profile_opt, o->profile);
}

/* record once its options are parsed: @cmd is what to run. */
static int
record_run(char **cmd, struct record_opts *opts)
{
	char capture[PATH_MAX], sim[PATH_MAX], output[PATH_MAX];
	char first[PATH_MAX + 32];
	struct child_args child;
	struct kfdtrace_run run;
	struct record_opts o = *opts;
	int use_sim, status, ret;
	struct stat st;
	pid_t pid;

	if (kfdtrace_lib_find(&kfdtrace_lib_capture, capture, sizeof(capture), 1))
		return KFDTRACE_EXIT_ERROR;
	use_sim = o.sim || access("/dev/kfd", F_OK) != 0;
	if (use_sim) {
		if (kfdtrace_lib_find(&kfdtrace_lib_sim, sim, sizeof(sim), 1))
			return KFDTRACE_EXIT_ERROR;
		if (!o.sim)
			cli_err("/dev/kfd does not exist; "
				"running on kfdsim, the simulated device");
	}
	if (!preloadable(capture) || (use_sim && !preloadable(sim))) {
		cli_err("library paths with spaces or "
			"colons cannot be preloaded: %s", capture);
		return KFDTRACE_EXIT_ERROR;
	}
	if (o.output) {
		if (absolute(o.output, output, sizeof(output)) ||
		    strlen(output) + 2 >= sizeof(output)) {
			cli_err("output path too long");
			return KFDTRACE_EXIT_USAGE;
		}
		/* An existing directory is a directory output, slash or not. */
		if (!record_is_dir_output(output) && stat(output, &st) == 0 &&
		    S_ISDIR(st.st_mode))
			strcat(output, "/");
		if (record_prepare_output(output, o.force))
			return KFDTRACE_EXIT_ERROR;
	}

	if (use_sim && profile_usable(&o))
		return KFDTRACE_EXIT_ERROR;
	if (!o.output) {
		/* The name takes the child's pid; the directory is what counts. */
		default_output(cmd[0], getpid(), output, sizeof(output));
	}
	if (output_writable(output) || kfdtrace_thunk_setenv(o.thunk))
		return KFDTRACE_EXIT_ERROR;

	if (o.lttng && !lttng_daemon_running())
		cli_err("--lttng: no LTTng session daemon is "
			"running; the kfd:* events go nowhere (docs/lttng.md)");

	/* On the simulator every process of CMD shares one machine, which
	 * goes when the run ends. The terminal's ^C and ^\ reach CMD
	 * directly (same process group); a signal sent to us is passed on. */
	if (kfdtrace_run_begin(&run, "kfdtrace record", use_sim, NULL))
		return KFDTRACE_EXIT_ERROR;
	child = (struct child_args){ cmd, capture, use_sim ? sim : NULL,
				     output, &o };
	pid = kfdtrace_run_start(&run, start_child, &child);
	if (pid < 0) {
		kfdtrace_run_end(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	if (!o.output)
		default_output(cmd[0], pid, output, sizeof(output));
	if (record_is_dir_output(output))
		snprintf(first, sizeof(first), "%.4000s%d.kfdtrace", output,
			 (int)pid);
	else
		snprintf(first, sizeof(first), "%s", output);
	status = kfdtrace_run_wait(&run);
	kfdtrace_run_end(&run);
	if (status == -1)
		return KFDTRACE_EXIT_ERROR;

	if (WIFEXITED(status)) {
		ret = WEXITSTATUS(status);
		if (ret == 127 && access(first, F_OK) != 0)
			return ret;	/* it never ran; the child said why */
	} else if (WIFSIGNALED(status)) {
		ret = 128 + WTERMSIG(status);
		cli_err("%s was killed by signal %d (%s)",
			cmd[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else {
		ret = KFDTRACE_EXIT_ERROR;
	}

	/*
	 * Without an END record, say what the wait status tells: a program
	 * that was not killed left by a way no wrapper sees (the exit_group
	 * system call made directly), not by dying.
	 */
	if (access(first, F_OK) == 0)
		record_summarize(first, 1, WIFSIGNALED(status) ?
			"the program was killed before the trace was closed" :
			"the program ended without the tracer closing the "
			"trace (an exit system call made directly?); "
			"what was not yet written is lost");
	else
		cli_err("%s opened no KFD or render-node device: "
			"no trace at %s", cmd[0], first);
	record_for_each_run_file(output, record_summarize_other, first);
	return ret;
}

int
kfdtrace_cmd_record(int argc, char **argv)
{
	struct record_opts o;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		ret = ret > 0 ? KFDTRACE_EXIT_OK : KFDTRACE_EXIT_USAGE;
	else
		ret = record_run(argv + optind, &o);
	free(o.only);
	free(o.except);
	return ret;
}
