/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace sim: run a program on the simulated KFD device (libkfdsim.so
 * preloaded), list and print the builtin profiles, capture the machine
 * kfdtrace runs on as a profile, and suspend and resume a running
 * simulated machine (launch/sim_pm.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "cmd/commands.h"
#include "ksim.h"
#include "ksim_capture.h"
#include "ksim_profile.h"
#include "launch/libpath.h"
#include "launch/profile.h"
#include "launch/sim_pm.h"
#include "launch/sim_run.h"

void
kfdtrace_help_sim(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace sim [OPTIONS] [--] COMMAND [ARGS...]\n"
		"       kfdtrace sim --list-profiles\n"
		"       kfdtrace sim --dump-profile NAME|FILE\n"
		"       kfdtrace sim --save-profile NAME [-o FILE] [-f]\n"
		"       kfdtrace sim --suspend [--sleep SECONDS] [--machine ID]\n"
		"       kfdtrace sim --resume [--machine ID]\n"
		"\n"
		"Run COMMAND on a simulated AMD GPU machine: libkfdsim.so is preloaded,\n"
		"so the program finds /dev/kfd, render nodes and the KFD sysfs topology\n"
		"of the chosen profile, and its KFD and amdgpu ioctls are answered as\n"
		"the kernel would. Queues never execute work. Every process COMMAND\n"
		"starts shares one simulated machine, removed when COMMAND ends.\n"
		"kfdtrace waits for COMMAND and passes on the signals sent to it;\n"
		"the exit status is COMMAND's (killed by a signal: the same signal).\n"
		"\n"
		"Options:\n"
		"  -p, --profile NAME|FILE  builtin profile or profile file (default mi210);\n"
		"      --sim=NAME|FILE     the same (record's and replay's spelling)\n"
		"      --abi X.Y           KFD ABI version to emulate, 1.%d .. 1.%d\n"
		"      --kernel upstream|rocm  kernel flavour: rocm (AMD's DKMS driver)\n"
		"                          adds the IPC handle ioctls (default upstream)\n"
		"      --machine ID        run on the named machine ID, which separate runs\n"
		"                          may share (its state: /dev/shm/kfdsim-ID)\n"
		"      --thunk ours|amd    the libhsakmt COMMAND runs on: ours (kfdtrace's,\n"
		"                          its directory first in LD_LIBRARY_PATH) or AMD's\n"
		"                          (ours taken out of LD_LIBRARY_PATH); default: what\n"
		"                          the dynamic linker finds (the system's)\n"
		"      --debug             log device opens and ioctls to stderr\n"
		"      --list-profiles     list the builtin profiles\n"
		"      --dump-profile P    print a profile in the text format\n"
		"      --save-profile NAME capture this machine's topology and GPUs as a\n"
		"                          profile called NAME\n"
		"  -o, --output FILE       where --save-profile writes (default NAME.profile;\n"
		"                          '-' for standard output)\n"
		"  -f, --force             replace an existing FILE\n"
		"      --suspend           suspend the running machine ID (default:\n"
		"                          KFDSIM_MACHINE, set inside a run), as a system\n"
		"                          suspend does: every queue of every process stops\n"
		"                          at a packet boundary; returns once all have\n"
		"      --sleep SECONDS     with --suspend: resume after SECONDS (a fraction\n"
		"                          is fine), as pm-suspend returns after wake-up\n"
		"      --resume            resume the machine: the queues go on, with the\n"
		"                          work rung meanwhile\n"
		"  -h, --help              this text\n"
		"\n"
		"Environment: KFDTRACE_SIM_LIB overrides the path of libkfdsim.so;\n"
		"KFDSIM_PROFILE, KFDSIM_ABI, KFDSIM_KERNEL, KFDSIM_MACHINE and KFDSIM_DEBUG\n"
		"are what the options set for COMMAND.\n",
		KSIM_ABI_MINOR_MIN, KSIM_ABI_MINOR_MAX);
}

struct sim_opts {
	const char *profile;
	const char *abi;
	const char *kernel;
	const char *machine;
	enum kfdtrace_thunk thunk;
	const char *save_name;
	const char *output;
	int force;
	const char *dump;
	int debug;
	int list;
	int help;
	int suspend;
	int resume;
	const char *sleep;
	char **cmd;
};

static int
need_arg(int argc, char **argv, int i)
{
	if (i + 1 >= argc) {
		cli_err("%s needs an argument", argv[i]);
		return -1;
	}
	return 0;
}

static int
parse_opts(int argc, char **argv, struct sim_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--sim")) {
			/* As record's --sim: the simulator, which sim is. */
		} else if (!strcmp(a, "-p") || !strcmp(a, "--profile")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->profile = argv[++i];
		} else if (!strncmp(a, "--profile=", 10) ||
			   !strncmp(a, "--sim=", 6)) {
			/* --sim=P is record's and replay's spelling of it. */
			o->profile = strchr(a, '=') + 1;
			if (!*o->profile) {
				cli_err("%.*s needs a profile",
					(int)(strchr(a, '=') - a), a);
				return -1;
			}
		} else if (!strcmp(a, "--abi")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->abi = argv[++i];
		} else if (!strcmp(a, "--kernel")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->kernel = argv[++i];
		} else if (!strcmp(a, "--machine")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->machine = argv[++i];
		} else if (!strcmp(a, "--thunk")) {
			if (need_arg(argc, argv, i) < 0 ||
			    kfdtrace_thunk_parse(argv[++i], &o->thunk) < 0)
				return -1;
		} else if (!strcmp(a, "--save-profile")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->save_name = argv[++i];
		} else if (!strcmp(a, "-f") || !strcmp(a, "--force")) {
			o->force = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->output = argv[++i];
		} else if (!strcmp(a, "--dump-profile")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->dump = argv[++i];
		} else if (!strcmp(a, "--debug")) {
			o->debug = 1;
		} else if (!strcmp(a, "--list-profiles")) {
			o->list = 1;
		} else if (!strcmp(a, "--suspend")) {
			o->suspend = 1;
		} else if (!strcmp(a, "--resume")) {
			o->resume = 1;
		} else if (!strcmp(a, "--sleep")) {
			if (need_arg(argc, argv, i) < 0)
				return -1;
			o->sleep = argv[++i];
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = 1;
		} else {
			static const char *const names[] = {
				"--profile", "--sim", "--abi", "--kernel",
				"--machine", "--thunk", "--save-profile",
				"--force", "--output", "--dump-profile",
				"--debug", "--list-profiles", "--help",
				"--suspend", "--resume", "--sleep", NULL,
			};

			cli_opt_unknown(a, names);
			cli_try_help();
			return -1;
		}
	}
	if (i < argc)
		o->cmd = argv + i;
	return 0;
}

/* "1.11" (or "11") within what the simulator emulates. */
static int
check_abi(const char *abi)
{
	unsigned int major, minor;
	char tail;

	if (sscanf(abi, "%u.%u%c", &major, &minor, &tail) == 2 && major == 1 &&
	    minor >= KSIM_ABI_MINOR_MIN && minor <= KSIM_ABI_MINOR_MAX)
		return 0;
	if (sscanf(abi, "%u%c", &minor, &tail) == 1 && minor >= KSIM_ABI_MINOR_MIN &&
	    minor <= KSIM_ABI_MINOR_MAX)
		return 0;
	cli_err("--abi %s: expected 1.%d .. 1.%d", abi,
		KSIM_ABI_MINOR_MIN, KSIM_ABI_MINOR_MAX);
	return -1;
}

static int
list_profiles(void)
{
	const char *const *names;
	unsigned int n;

	names = ksim_profile_builtin_names(&n);
	for (unsigned int i = 0; i < n; i++) {
		struct ksim_profile *p = ksim_profile_builtin(names[i]);

		printf("%-10s %s%s\n", names[i], p ? p->description : "(does not parse)",
		       i == 0 ? " [default]" : "");
		ksim_profile_free(p);
	}
	return KFDTRACE_EXIT_OK;
}

static int
dump_profile(const char *name)
{
	const char *text = ksim_profile_builtin_text(name);
	struct ksim_profile *p;
	char *err = NULL;
	int ret;

	/* A builtin prints as written, comments and all. */
	if (text && access(name, F_OK) != 0) {
		fputs(text, stdout);
		return KFDTRACE_EXIT_OK;
	}
	if (kfdtrace_profile_check("--dump-profile", name))
		return KFDTRACE_EXIT_ERROR;
	p = ksim_profile_load(name, &err);
	if (!p) {
		cli_err("%s", err ? err : "out of memory");
		free(err);
		return KFDTRACE_EXIT_ERROR;
	}
	ret = ksim_profile_save(p, stdout);
	ksim_profile_free(p);
	if (ret < 0) {
		cli_err("writing the profile: %s", strerror(-ret));
		return KFDTRACE_EXIT_ERROR;
	}
	return KFDTRACE_EXIT_OK;
}

static int
save_profile(const char *name, const char *output, int force)
{
	char path[PATH_MAX], *err = NULL;
	struct ksim_profile *p;
	struct cli_out out;
	int ret;

	if (!output) {
		snprintf(path, sizeof(path), "%s.profile", name);
		output = path;
	}
	if (cli_out_open(&out, output, &(struct cli_out_rule){ .force = force }))
		return KFDTRACE_EXIT_ERROR;
	p = ksim_capture_profile(name, &err);
	if (!p) {
		cli_err("cannot capture this machine: %s",
			err ? err : "out of memory");
		free(err);
		cli_out_commit(&out, 0);
		return KFDTRACE_EXIT_ERROR;
	}
	ret = ksim_profile_save(p, out.f);
	ksim_profile_free(p);
	if (ret < 0) {
		cli_err("%s: %s", output, strerror(-ret));
		cli_out_commit(&out, 0);
		return KFDTRACE_EXIT_ERROR;
	}
	if (cli_out_commit(&out, 1))
		return KFDTRACE_EXIT_ERROR;
	if (strcmp(output, "-"))
		cli_err("wrote %s", output);
	return KFDTRACE_EXIT_OK;
}

/* In the child: become the command. */
static void
exec_command(void *arg)
{
	char **cmd = arg;
	int e;

	execvp(cmd[0], cmd);
	e = errno;
	cli_err("%s: %s", cmd[0], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

static int
run_command(const struct sim_opts *o, int *ran)
{
	char lib[PATH_MAX], abs_profile[PATH_MAX];
	const char *old = getenv("LD_PRELOAD");
	struct kfdtrace_run run;
	char *preload;
	int status;

	if (o->abi && check_abi(o->abi) < 0)
		return KFDTRACE_EXIT_USAGE;
	if (o->kernel && ksim_kernel_parse(o->kernel) < 0) {
		cli_err("--kernel %s: expected upstream or rocm",
			o->kernel);
		return KFDTRACE_EXIT_USAGE;
	}
	/* Load the profile here so a bad one is reported before anything runs. */
	if (o->profile && kfdtrace_profile_check("--profile", o->profile))
		return KFDTRACE_EXIT_ERROR;
	if (kfdtrace_lib_find(&kfdtrace_lib_sim, lib, sizeof(lib), 1) < 0 ||
	    kfdtrace_thunk_setenv(o->thunk) < 0)
		return KFDTRACE_EXIT_ERROR;

	if (old && *old) {
		if (asprintf(&preload, "%s:%s", lib, old) < 0)
			return KFDTRACE_EXIT_ERROR;
	} else {
		preload = strdup(lib);
		if (!preload)
			return KFDTRACE_EXIT_ERROR;
	}
	/* A file path must survive the command changing directory. */
	if (o->profile && access(o->profile, F_OK) == 0 && realpath(o->profile, abs_profile))
		setenv("KFDSIM_PROFILE", abs_profile, 1);
	else if (o->profile)
		setenv("KFDSIM_PROFILE", o->profile, 1);
	if (o->abi)
		setenv("KFDSIM_ABI", o->abi, 1);
	if (o->kernel)
		setenv(KSIM_ENV_KERNEL, o->kernel, 1);
	if (o->debug)
		setenv("KFDSIM_DEBUG", "1", 1);
	setenv("LD_PRELOAD", preload, 1);
	free(preload);

	/* One machine for every process of the run, removed when it ends:
	 * kfdtrace waits for the command instead of becoming it. */
	if (kfdtrace_run_begin(&run, "kfdtrace sim", 1, o->machine))
		return KFDTRACE_EXIT_ERROR;
	if (kfdtrace_run_start(&run, exec_command, o->cmd) < 0) {
		kfdtrace_run_end(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	if (ran)
		*ran = 1;
	status = kfdtrace_run_wait(&run);
	kfdtrace_run_end(&run);
	return kfdtrace_run_exit(status);
}

static int
sim_main(int argc, char **argv, int *ran)
{
	struct sim_opts o;
	int modes;

	if (ran)
		*ran = 0;

	if (parse_opts(argc, argv, &o) < 0)
		return KFDTRACE_EXIT_USAGE;
	/* Only our own options: COMMAND's --help belongs to COMMAND. */
	if (o.help) {
		kfdtrace_help_sim(stdout);
		return KFDTRACE_EXIT_OK;
	}
	if (o.sleep && !o.suspend) {
		cli_err("--sleep goes with --suspend");
		return KFDTRACE_EXIT_USAGE;
	}
	modes = !!o.list + !!o.dump + !!o.save_name + !!o.cmd + o.suspend +
		o.resume;
	if (modes != 1) {
		cli_err("%s (see 'kfdtrace sim --help')",
			modes ? "give one of COMMAND, --list-profiles, --dump-profile, "
				"--save-profile, --suspend, --resume" :
				"no command given");
		return KFDTRACE_EXIT_USAGE;
	}
	if (o.suspend || o.resume)
		return kfdtrace_sim_pm(o.machine, o.suspend, o.sleep);
	if (o.output && !o.save_name) {
		cli_err("--output goes with --save-profile");
		return KFDTRACE_EXIT_USAGE;
	}
	if (o.thunk != KFDTRACE_THUNK_DEFAULT && !o.cmd) {
		cli_err("--thunk goes with COMMAND");
		return KFDTRACE_EXIT_USAGE;
	}
	if (o.list)
		return list_profiles();
	if (o.dump)
		return dump_profile(o.dump);
	if (o.save_name)
		return save_profile(o.save_name, o.output, o.force);
	return run_command(&o, ran);
}

int
kfdtrace_cmd_sim(int argc, char **argv)
{
	return sim_main(argc, argv, NULL);
}

int
kfdtrace_sim_command(int argc, char **argv, int *ran)
{
	return sim_main(argc, argv, ran);
}
