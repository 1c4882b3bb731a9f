/* SPDX-License-Identifier: MIT */
/*
 * KT_HDR_SIMULATED follows what the process runs on, as the device
 * announces it (kfdtrace/userdev.h), and nothing else: kt_workload run with
 * the capture library preloaded (no kfdtrace record, no --sim)
 *
 *   - alone, opens the host's /dev/kfd (absent here, a real one on an AMD
 *     machine): the trace is not marked;
 *   - with kfdsim's library under another file name: marked (the capture
 *     library does not go by kfdsim's name);
 *   - with kt_userdev, a library that only announces a device: marked.
 *
 * Paths come from the environment (tests/tracer/meson.build): KT_WORKLOAD,
 * KFDTRACE_CAPTURE_LIB, KFDTRACE_SIM_LIB and KT_USERDEV_LIB.
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
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "tc_scratch.h"
#include "tt_capture.h"

static const char *
need(const char *name)
{
	const char *p = tt_env_path(name);

	if (!p) {
		print_message("%s is not built\n", name);
		skip();
	}
	return p;
}

/*
 * Run kt_workload basic with LD_PRELOAD=@preload, its trace written to
 * @cx's out, and load the trace into @t; fail unless it opened /dev/kfd.
 * Return: kt_workload's wait status.
 */
static int
run_preloaded(const struct tt_cx *cx, const char *preload, struct tt_trace *t)
{
	char *args[] = { (char *)need("KT_WORKLOAD"), "basic", NULL };
	char *env[4];
	const struct tt_rec *open_rec = NULL;
	int status;

	assert_true(asprintf(&env[0], "LD_PRELOAD=%s", preload) > 0);
	assert_true(asprintf(&env[1], "KFDTRACE_OUTPUT=%s", cx->out) > 0);
	assert_true(asprintf(&env[2], "KT_COUNTS=%s", cx->counts) > 0);
	env[3] = NULL;
	status = tt_run(args, env, cx->log);
	free(env[0]);
	free(env[1]);
	free(env[2]);
	if (tt_trace_load(cx->out, t)) {
		tt_show_log(cx);
		fail_msg("no trace at %s", cx->out);
	}
	for (size_t i = 0; i < t->n && !open_rec; i++)
		if (t->recs[i].r.type == KT_REC_OPEN &&
		    t->recs[i].r.u.open.file_kind == KFD_FILE_KFD)
			open_rec = &t->recs[i];
	assert_non_null(open_rec);
	assert_string_equal(open_rec->str, "/dev/kfd");
	return status;
}

static void
test_host_device(void **state)
{
	struct tt_cx *cx = *state;
	struct tt_trace t;

	run_preloaded(cx, need("KFDTRACE_CAPTURE_LIB"), &t);
	assert_false(t.hdr.flags & KT_HDR_SIMULATED);
	assert_string_equal(t.hdr.producer, "kfdtrace-capture");
	tt_trace_free(&t);
}

static void
test_kfdsim_renamed(void **state)
{
	struct tt_cx *cx = *state;
	char *dev = tt_path(cx->dir, "libgpu-device.so"), *preload;
	struct tt_trace t;
	int status;

	assert_int_equal(tt_copy_file(need("KFDTRACE_SIM_LIB"), dev, 0755), 0);
	assert_true(asprintf(&preload, "%s:%s", need("KFDTRACE_CAPTURE_LIB"), dev) > 0);
	status = run_preloaded(cx, preload, &t);
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	/* The whole workload ran on the simulator, not only the open. */
	assert_true(tt_exited(status, 0));
	assert_true(t.hdr.flags & KT_HDR_SIMULATED);
	tt_check_counts(cx, &t, t.hdr.pid);
	tt_trace_free(&t);
	free(preload);
	free(dev);
}

static void
test_announced_only(void **state)
{
	struct tt_cx *cx = *state;
	struct tt_trace t;
	char *preload;

	assert_true(asprintf(&preload, "%s:%s", need("KFDTRACE_CAPTURE_LIB"),
			     need("KT_USERDEV_LIB")) > 0);
	run_preloaded(cx, preload, &t);
	assert_true(t.hdr.flags & KT_HDR_SIMULATED);
	tt_trace_free(&t);
	free(preload);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host_device, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_kfdsim_renamed, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_announced_only, tt_cx_setup, tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
