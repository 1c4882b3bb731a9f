/* SPDX-License-Identifier: MIT */
/*
 * End-to-end tests of `kfdtrace replay` on kfdsim: captures of our raw
 * workload and of rocminfo (AMD's thunk) replay with zero divergences on
 * the same and on other machines; captured failures (ENOMEM, a bad queue)
 * are reproduced; an altered result is reported at the right record and
 * field (test_replay_diverge.c, test replay-diverge, with options, exit
 * statuses and damaged or hostile traces); the fixture is rp_e2e.h.
 *
 * Environment (set by meson): KFDTRACE, RP_WORKLOAD, RP_ALTER, and
 * RP_HSAKMT when Debian's libhsakmt is installed.
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
#include <elf.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "rp_e2e.h"

/* ------------------------------------------------------------------ */

static void
test_usage(void **state)
{
	(void)state;
	assert_int_equal(RUN(kfdtrace, "replay"), 2);
	expect_out("no trace given");
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--verify=bogus"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--timing=slow"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--skip", "NOT_AN_IOCTL"), 2);
	expect_out("unknown record kind 'NOT_AN_IOCTL'");
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--gpu-map", "12"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--loop", "0"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--max-sleep", "0"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--max-sleep", "ten"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "x", "--from", "9", "--to", "3"), 2);
	assert_int_equal(RUN(kfdtrace, "replay", "--help"), 0);
	expect_out("Exit status: 0 match, 1 diverged, 2 bad usage, 3 could not");
	assert_int_equal(RUN(kfdtrace, "--help"), 0);
	expect_out("replay");
}

static void
test_missing(void **state)
{
	(void)state;
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("nope.kft")), 3);
	/* Not a trace at all. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "/etc/hostname"), 3);
}

static void
test_workload(void **state)
{
	(void)state;
	workload_trace();
	assert_int_equal(RUN(kfdtrace, "replay", tmp("full.kft")), 0);
	/* Where /dev/kfd is missing, the simulator is used and it says so. */
	if (access("/dev/kfd", F_OK) != 0)
		expect_out("replaying on kfdsim");
	expect_out("same GPU");
	expect_out("result:      match (strict)");
	expect_out("1 queues, 3 events");
	assert_null(strstr(out, "divergence"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--verify=results",
			     tmp("full.kft")), 0);
	expect_out("result:      match (results)");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--verify=none",
			     tmp("full.kft")), 0);
	expect_out("not verified");
}

static void
test_plan(void **state)
{
	(void)state;
	workload_trace();
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
			     tmp("full.kft")), 0);
	expect_out("processes:  2");
	expect_out("secondary (CREATE_PROCESS)");
	expect_out("queues:     1");
	expect_out("events page: handle 0xab1200000001");
	expect_out(": userptr gpu 0xab12");
	expect_out(": import dma-buf");
	expect_out("export_dmabuf, size 2097152, 1 imports");
	expect_out("doorbell offset 0xeac4800000000000");
	expect_out(" svm\n");
	expect_out("compatibility:");
	assert_null(strstr(out, "summary:"));
}

static void
test_record_replay(void **state)
{
	(void)state;
	workload_trace();
	unlink(tmp("again.kft"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--record",
			     tmp("again.kft"), tmp("full.kft")), 0);
	/* The replay's own trace is a valid trace of the same calls ... */
	assert_int_equal(RUN(kfdtrace, "info", tmp("again.kft")), 0);
	expect_out("integrity:  ok");
	expect_out("producer:   kfdtrace-replay");
	/* ... that replays in turn. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("again.kft")), 0);
	expect_out("result:      match (strict)");
}

static void
test_rocminfo_same(void **state)
{
	(void)state;
	if (!have_rocminfo)
		skip();
	rocminfo_trace();
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210",
			     tmp("rocminfo.kft")), 0);
	expect_out("same GPU");
	expect_out("result:      match (strict)");
}

static void
test_rocminfo_other_gpu_id(void **state)
{
	char sim[200];

	(void)state;
	if (!have_rocminfo)
		skip();
	rocminfo_trace();
	make_profile("other.profile", "mi210", (const char *const[]){
		"gpu_id 43794", "gpu_id 4660", NULL });
	snprintf(sim, sizeof(sim), "--sim=%s", tmp("other.profile"));
	assert_int_equal(RUN(kfdtrace, "replay", sim, tmp("rocminfo.kft")), 0);
	expect_out("differs: gpu_id 0xab12 -> 0x1234");
	expect_out("result:      match (strict)");
}

static void
test_rocminfo_two_gpus(void **state)
{
	(void)state;
	if (!have_rocminfo)
		skip();
	rocminfo_trace();
	/* Automatic: the same board is there, plus one more. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210x2",
			     tmp("rocminfo.kft")), 0);
	expect_out("live GPU 0x5d3c is not in the capture");
	expect_out("result:      match (strict)");
	/* Explicit: onto the second board, with its own render node. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210x2", "--gpu-map",
			     "0xab12=0x5d3c", tmp("rocminfo.kft")), 0);
	expect_out("differs: gpu_id 0xab12 -> 0x5d3c");
	expect_out("renderD128 -> renderD129");
	expect_out("result:      match (strict)");
	/* A pair naming a GPU that is not there is bad usage. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210x2", "--gpu-map",
			     "0xab12=0x7777", tmp("rocminfo.kft")), 2);
	expect_out("no live GPU 0x7777");
}

/* AMD's thunk with queues (AQL with its CWSR area, SDMA), events, SVM. */
static void
test_hsakmt(void **state)
{
	const char *hsakmt = getenv("RP_HSAKMT");

	(void)state;
	if (!hsakmt)
		skip();
	record("hsakmt.kft", NULL, (const char *const[]){ hsakmt, NULL });
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("hsakmt.kft")), 0);
	expect_out("2 queues");
	expect_out("result:      match (strict)");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210x2", "--gpu-map",
			     "0xab12=0x5d3c", tmp("hsakmt.kft")), 0);
	expect_out("result:      match (strict)");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
			     tmp("hsakmt.kft")), 0);
	expect_out("queues:     2");
	expect_out("    ctx_save ");
	expect_out("    eop      ");
}

static void
test_workload_other_gpu(void **state)
{
	(void)state;
	workload_trace();
	/* gpu ids inside handles, offsets, SVM attributes, id arrays. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210x2", "--gpu-map",
			     "43794=23868", tmp("full.kft")), 0);
	expect_out("result:      match (strict)");
}

static void
test_no_match(void **state)
{
	(void)state;
	workload_trace();
	/* An RDNA2 board is no stand-in for a gfx90a one. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=rx6900xt",
			     tmp("full.kft")), 3);
	expect_out("no live GPU of the same kind");
	expect_out("no sensible live match");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=rx6900xt", "--force",
			     tmp("full.kft")), 1);
	expect_out("divergence at #");
}

static void
test_enomem(void **state)
{
	char sim[200];

	(void)state;
	/* 256 MiB of VRAM, in the topology and in the GPU's own facts. */
	make_profile("small.profile", "mi210", (const char *const[]){
		"size_in_bytes 68702699520", "size_in_bytes 268435456",
		"vram_size 68702699520", "vram_size 268435456",
		"visible_vram_size 68702699520", "visible_vram_size 268435456",
		NULL });
	record("enomem.kft", tmp("small.profile"),
	       (const char *const[]){ workload, "enomem", NULL });
	assert_int_equal(RUN(kfdtrace, "dump", tmp("enomem.kft")), 0);
	expect_out("= -1 ENOMEM");

	snprintf(sim, sizeof(sim), "--sim=%s", tmp("small.profile"));
	unlink(tmp("enomem-replay.kft"));
	assert_int_equal(RUN(kfdtrace, "replay", sim, "--record",
			     tmp("enomem-replay.kft"), tmp("enomem.kft")), 0);
	expect_out("result:      match (strict)");
	/* The replay failed the same way: its own trace says so. */
	assert_int_equal(RUN(kfdtrace, "dump", "--filter", "ALLOC_MEMORY_OF_GPU",
			     tmp("enomem-replay.kft")), 0);
	expect_out("size=1073741824");
	expect_out("= -1 ENOMEM");

	/* With 64 GiB the allocation succeeds: a divergence, foreseen. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim=mi210",
			     tmp("enomem.kft")), 1);
	expect_out("may diverge: VRAM 0.2 -> 64.0 GiB");
	expect_out("ALLOC_MEMORY_OF_GPU: result: captured -1 ENOMEM, replayed 0");
}

static void
test_bad_queue(void **state)
{
	(void)state;
	record("badqueue.kft", NULL,
	       (const char *const[]){ workload, "badqueue", NULL });
	unlink(tmp("badqueue-replay.kft"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--record",
			     tmp("badqueue-replay.kft"), tmp("badqueue.kft")), 0);
	expect_out("result:      match (strict)");
	assert_int_equal(RUN(kfdtrace, "dump", "--filter", "CREATE_QUEUE",
			     tmp("badqueue-replay.kft")), 0);
	expect_out("= -1 EINVAL");
	expect_out("queue_type=7");
	expect_out("= -1 ENOTSUPP");
	expect_out("= 0 {doorbell_offset=");
}

/*
 * A dma-buf from outside the process: the render-node calls that made it
 * are dropped from a capture, so the trace only has its GET_DMABUF_INFO
 * and IMPORT_DMABUF; the replay makes a stand-in with libdrm_amdgpu.
 */
static void
test_external_dmabuf(void **state)
{
	(void)state;
	record("external.kft", NULL,
	       (const char *const[]){ workload, "external", NULL });
	unlink(tmp("external2.kft"));
	assert_int_equal(RUN(alter, tmp("external.kft"), tmp("external2.kft"),
			     "drop", "AMDGPU_GEM_CREATE,AMDGPU_GEM_METADATA,"
			     "DRM_PRIME_HANDLE_TO_FD,DRM_GEM_CLOSE"), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--plan",
			     tmp("external2.kft")), 0);
	expect_out(": external, size 1048576, 1 imports");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("external2.kft")), 0);
	expect_out("came from outside the process: made a stand-in of 1048576 "
		   "bytes in VRAM with 16 bytes of metadata");
	expect_out("1 stand-ins for dma-bufs from outside the process");
	/* size, flags, gpu_id and the metadata bytes were all compared. */
	expect_out("result:      match (strict)");
}

/*
 * A ROCm IPC export and import in one process: the share handle is random
 * bytes, so the replay must hand the import the token its own export got.
 */
static void
test_ipc_share_handle(void **state)
{
	(void)state;
	setenv("KFDSIM_KERNEL", "rocm", 1);
	record("ipc.kft", NULL, (const char *const[]){ workload, "ipc", NULL });
	assert_int_equal(RUN(kfdtrace, "dump", "--filter", "IPC_IMPORT_HANDLE",
			     tmp("ipc.kft")), 0);
	expect_out(") = 0");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("ipc.kft")), 0);
	unsetenv("KFDSIM_KERNEL");
	expect_out("result:      match (strict)");
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	(void)state;
	return rp_e2e_setup("replay");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_workload),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_record_replay),
		cmocka_unit_test(test_rocminfo_same),
		cmocka_unit_test(test_rocminfo_other_gpu_id),
		cmocka_unit_test(test_rocminfo_two_gpus),
		cmocka_unit_test(test_workload_other_gpu),
		cmocka_unit_test(test_hsakmt),
		cmocka_unit_test(test_no_match),
		cmocka_unit_test(test_enomem),
		cmocka_unit_test(test_bad_queue),
		cmocka_unit_test(test_external_dmabuf),
		cmocka_unit_test(test_ipc_share_handle),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
