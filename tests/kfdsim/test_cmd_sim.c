/* SPDX-License-Identifier: MIT */
/*
 * `kfdtrace sim` from the outside: usage errors, exit status passing,
 * LD_PRELOAD and environment set-up, the profile listing and dump, and
 * --save-profile: on this machine (no KFD) it fails cleanly, and run under
 * the simulator it captures a profile equal to the one simulated.
 *
 * argv[1] is the kfdtrace binary.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ksim_profile.h"
#include "tc_run.h"
#include "tc_scratch.h"

static const char *kfdtrace;
static char tmpdir[] = "/tmp/kfdsim-cmd-XXXXXX";

/* Run argv (NULL-terminated) with extra environment entries "K=V". */
static void
run(struct tc_run *r, const char *const *env, const char *const *argv)
{
	assert_int_equal(tc_run_env((char *const *)argv, (char *const *)env, 0,
				    r), 0);
}

static void
test_help_and_usage(void **state)
{
	struct tc_run r;

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--help", NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfdtrace sim"));
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "no command"));
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--bogus", "--", "/bin/true", NULL });
	assert_int_equal(r.status, 2);
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--abi", "2.0", "--", "/bin/true", NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--abi 2.0"));
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--kernel", "dkms", "--", "/bin/true",
					NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--kernel dkms"));
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--profile", "/nonexistent/x.profile",
					"--", "/bin/true", NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "/nonexistent/x.profile"));
	tc_run_free(&r);

	/* COMMAND's own --help is COMMAND's */
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c",
					"echo \"$1\"", "sh", "--help", NULL });
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "--help\n");
	tc_run_free(&r);
}

/* The command's exit status and environment. */
static void
test_run_command(void **state)
{
	struct tc_run r;

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c", "exit 3", NULL });
	assert_int_equal(r.status, 3);
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--", "/nonexistent-program", NULL });
	assert_int_equal(r.status, 127);
	tc_run_free(&r);

	/* the shell, a child of the command, sees the device */
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--profile", "mi210x2", "--", "/bin/sh",
					"-c", "test -c /dev/kfd && ls /dev/dri", NULL });
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "renderD128\nrenderD129\n");
	tc_run_free(&r);

	/* LD_PRELOAD gains the library in front; the settings arrive */
	run(&r, (const char *const[]){ "LD_PRELOAD=libm.so.6", NULL },
	    (const char *[]){ kfdtrace, "sim", "--abi", "1.11", "--machine", "m1", "--", "/bin/sh",
			      "-c", "echo $LD_PRELOAD $KFDSIM_ABI $KFDSIM_MACHINE", NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "libkfdsim.so:libm.so.6 1.11 m1\n"));
	assert_true(r.out[0] == '/');
	tc_run_free(&r);

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--kernel", "rocm", "--", "/bin/sh",
					"-c", "echo $KFDSIM_KERNEL", NULL });
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "rocm\n");
	tc_run_free(&r);

	/* a bad KFDSIM_KERNEL: reported once, and the process has no device */
	run(&r, (const char *const[]){ "KFDSIM_KERNEL=dkms", NULL },
	    (const char *[]){ kfdtrace, "sim", "--", "/bin/sh", "-c", "test -c /dev/kfd", NULL });
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.err, "KFDSIM_KERNEL=dkms"));
	tc_run_free(&r);

	/* an ABI-gated sysfs key follows --abi */
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--abi", "1.11", "--", "/bin/cat",
					"/sys/class/kfd/kfd/topology/nodes/1/io_links/0/properties",
					NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "node_from 1\n"));
	assert_null(strstr(r.out, "recommended_sdma_engine_id_mask"));
	tc_run_free(&r);
}

static void
test_list_and_dump(void **state)
{
	const char *const *names;
	unsigned int n;
	struct tc_run r;

	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--list-profiles", NULL });
	assert_int_equal(r.status, 0);
	names = ksim_profile_builtin_names(&n);
	assert_true(n >= 4);
	for (unsigned int i = 0; i < n; i++)
		assert_non_null(strstr(r.out, names[i]));
	assert_non_null(strstr(r.out, "[default]"));
	tc_run_free(&r);

	for (unsigned int i = 0; i < n; i++) {
		struct ksim_profile *a, *b;

		run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--dump-profile", names[i], NULL });
		assert_int_equal(r.status, 0);
		a = ksim_profile_parse(r.out, strlen(r.out), "dump", NULL);
		b = ksim_profile_builtin(names[i]);
		assert_non_null(a);
		assert_non_null(b);
		assert_true(ksim_profile_equal(a, b));
		ksim_profile_free(a);
		ksim_profile_free(b);
		tc_run_free(&r);
	}
}

/* @argv under timeout(1): a blocked open fails the test, not hang it. */
static void
run_bounded(struct tc_run *r, const char *const *env, const char *const *argv)
{
	assert_int_equal(tc_run_bounded((char *const *)argv, (char *const *)env, 10, r), 0);
}

/* A profile that is a FIFO: refused at once, by every way in, with why. */
static void
test_profile_fifo(void **state)
{
	const char *want = "a FIFO, not a regular file";
	char fifo[256], env_profile[300], sim_arg[300], trace[256], *err = NULL;
	const char *const env[] = { env_profile, NULL };
	struct ksim_profile *p;
	struct tc_run r;

	snprintf(fifo, sizeof(fifo), "%s/fifo.profile", tmpdir);
	snprintf(trace, sizeof(trace), "%s/none.kft", tmpdir);
	snprintf(env_profile, sizeof(env_profile), "KFDSIM_PROFILE=%s", fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);

	/* the library: SIGALRM ends a blocked open, failing the test */
	alarm(10);
	p = ksim_profile_load(fifo, &err);
	alarm(0);
	assert_null(p);
	assert_non_null(err);
	assert_non_null(strstr(err, want));
	free(err);

	run_bounded(&r, NULL, (const char *[]){ kfdtrace, "sim", "--profile", fifo, "--",
						"/bin/true", NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, want));
	tc_run_free(&r);

	run_bounded(&r, NULL, (const char *[]){ kfdtrace, "sim", "--dump-profile", fifo, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, want));
	tc_run_free(&r);

	snprintf(sim_arg, sizeof(sim_arg), "--sim=%s", fifo);
	run_bounded(&r, NULL, (const char *[]){ kfdtrace, "replay", sim_arg, trace,
						NULL });
	assert_int_not_equal(r.status, 0);
	assert_int_not_equal(r.status, 124);
	assert_non_null(strstr(r.err, want));
	tc_run_free(&r);

	/* the simulator in the command: no device, and it says why */
	run_bounded(&r, env, (const char *[]){ kfdtrace, "sim", "--", "/bin/cat",
					       "/sys/class/kfd/kfd/topology/generation_id",
					       NULL });
	assert_int_not_equal(r.status, 0);
	assert_int_not_equal(r.status, 124);
	assert_non_null(strstr(r.err, want));
	tc_run_free(&r);
	assert_int_equal(unlink(fifo), 0);
}

/* This machine has no KFD: a clear error, nothing written. */
static void
test_save_profile_no_kfd(void **state)
{
	char out[256];
	struct tc_run r;

	if (access("/sys/devices/virtual/kfd/kfd/topology", F_OK) == 0)
		skip();	/* a machine with a real GPU */
	snprintf(out, sizeof(out), "%s/none.profile", tmpdir);
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--save-profile", "here", "-o", out,
					NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "no KFD topology"));
	assert_int_equal(access(out, F_OK), -1);
	tc_run_free(&r);
}

/* Capture the simulated machine: the profile must come back unchanged. */
static void
roundtrip(const char *profile, const char *name)
{
	struct ksim_profile *want, *got;
	char out[256], *err = NULL;
	struct tc_run r;

	snprintf(out, sizeof(out), "%s/%s.profile", tmpdir, name);
	run(&r, NULL, (const char *[]){ kfdtrace, "sim", "--profile", profile, "--", kfdtrace,
					"sim", "--save-profile", name, "-o", out, NULL });
	if (r.status != 0)
		fail_msg("capturing %s: exit %d\n%s", profile, r.status, r.err);
	tc_run_free(&r);
	want = ksim_profile_load(profile, &err);
	assert_non_null(want);
	got = ksim_profile_load(out, &err);
	if (!got)
		fail_msg("%s: %s", out, err);
	/* the description says where it was captured */
	assert_string_equal(got->name, want->name);
	assert_non_null(strstr(got->description, "captured on"));
	memcpy(got->description, want->description, sizeof(got->description));
	if (!ksim_profile_equal(want, got)) {
		fprintf(stderr, "--- simulated ---\n");
		ksim_profile_save(want, stderr);
		fprintf(stderr, "--- captured ---\n");
		ksim_profile_save(got, stderr);
		fail_msg("profile %s did not survive the round trip", profile);
	}
	ksim_profile_free(want);
	ksim_profile_free(got);
}

static void
test_save_profile_roundtrip(void **state)
{
	const char *const *names;
	char path[512];
	unsigned int n;

	names = ksim_profile_builtin_names(&n);
	for (unsigned int i = 0; i < n; i++)
		roundtrip(names[i], names[i]);
	snprintf(path, sizeof(path), "%s/refmi210.profile",
		 getenv("KSIM_TEST_DATA") ? getenv("KSIM_TEST_DATA") : "tests/kfdsim/data");
	roundtrip(path, "refmi210");
}

static int
setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	return tc_scratch_remove(tmpdir, NULL);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_and_usage),
		cmocka_unit_test(test_run_command),
		cmocka_unit_test(test_list_and_dump),
		cmocka_unit_test(test_profile_fifo),
		cmocka_unit_test(test_save_profile_no_kfd),
		cmocka_unit_test(test_save_profile_roundtrip),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s KFDTRACE\n", argv[0]);
		return 2;
	}
	kfdtrace = argv[1];
	return cmocka_run_group_tests(tests, setup, teardown);
}
