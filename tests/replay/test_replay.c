/* SPDX-License-Identifier: MIT */
/*
 * End-to-end tests of `kfdtrace replay` on kfdsim: captures of our raw
 * workload and of rocminfo (AMD's thunk) replay with zero divergences on
 * the same and on other machines; captured failures (ENOMEM, a bad queue)
 * are reproduced; an altered result is reported at the right record and
 * field; options, exit statuses and damaged or hostile traces.
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

#include "rp_test.h"

static const char *kfdtrace, *workload, *alter;
static int have_rocminfo;

/*
 * A copy of a builtin profile with some lines replaced: @subst holds pairs
 * of a whole line and its replacement, then NULL.
 */
static void
make_profile(const char *name, const char *base, const char *const *subst)
{
	char *p, *line;
	FILE *f;

	assert_int_equal(RUN(kfdtrace, "sim", "--dump-profile", base), 0);
	f = fopen(tmp(name), "w");
	assert_non_null(f);
	for (line = out; *line; line = p) {
		size_t n;
		int i, done = 0;

		p = strchr(line, '\n');
		p = p ? p + 1 : line + strlen(line);
		n = (size_t)(p - line);
		for (i = 0; subst[i] && !done; i += 2) {
			size_t l = strlen(subst[i]);

			if (n == l + 1 && !strncmp(line, subst[i], l)) {
				fprintf(f, "%s\n", subst[i + 1]);
				done = 1;
			}
		}
		if (!done)
			fwrite(line, 1, n, f);
	}
	fclose(f);
}

/* Record "kfdtrace record -o FILE --sim[=P] -- ARGS" once. */
static void
record(const char *file, const char *profile, const char *const *cmd)
{
	const char *argv[16];
	char sim[200];
	int n = 0, i;

	if (access(tmp(file), F_OK) == 0)
		return;
	snprintf(sim, sizeof(sim), "--sim=%s", profile);
	argv[n++] = kfdtrace;
	argv[n++] = "record";
	argv[n++] = "-o";
	argv[n++] = tmp(file);
	argv[n++] = profile ? sim : "--sim";
	argv[n++] = "--";
	for (i = 0; cmd[i] && n < 15; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	assert_int_equal(run(argv), 0);
}

static void
workload_trace(void)
{
	record("full.kft", NULL, (const char *const[]){ workload, "full", NULL });
}

static void
rocminfo_trace(void)
{
	record("rocminfo.kft", NULL, (const char *const[]){ "/usr/bin/rocminfo",
							   NULL });
}

/*
 * The sequence number of the @nth (from 1) record a dump filter selects
 * whose line holds @also (NULL: any).
 */
static unsigned long
nth_seq(const char *file, const char *filter, const char *also,
	unsigned int nth)
{
	const char *p;

	assert_int_equal(RUN(kfdtrace, "dump", "--seq", "--filter", filter,
			     tmp(file)), 0);
	for (p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eol = strchr(p, '\n');

		if (p[0] == '#' && (!also || (strstr(p, also) &&
					       (!eol || strstr(p, also) < eol))) &&
		    !--nth)
			return strtoul(p + 1, NULL, 10);
	}
	fail_msg("no %s record in %s", filter, file);
	return 0;
}

/* The sequence number of the first record a dump filter selects. */
static unsigned long
first_seq(const char *file, const char *filter, const char *also)
{
	return nth_seq(file, filter, also, 1);
}

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

static void
test_altered_field(void **state)
{
	char seq[32], prev[160];
	unsigned long s;

	(void)state;
	workload_trace();
	s = first_seq("full.kft", "MAP_MEMORY_TO_GPU", NULL);
	snprintf(seq, sizeof(seq), "%lu", s);
	unlink(tmp("altered.kft"));
	assert_int_equal(RUN(alter, tmp("full.kft"), tmp("altered.kft"), seq,
			     "n_success", "7"), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("altered.kft")), 1);
	snprintf(prev, sizeof(prev), "divergence at #%lu MAP_MEMORY_TO_GPU: "
		 "n_success: captured 0x7, replayed 0x1", s);
	expect_out(prev);
	snprintf(prev, sizeof(prev), "(last matching record: #%lu)", s - 1);
	expect_out(prev);
	expect_out("result:      diverged: 1 divergence, first at #");
	expect_out("(stopped there");
	/* Results alone do not see it. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--verify=results",
			     tmp("altered.kft")), 0);
	/* --keep-going counts it and goes on to the end. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--keep-going",
			     tmp("altered.kft")), 1);
	expect_out("1 divergence, first at");
	assert_null(strstr(out, "stopped there"));
}

static void
test_altered_result(void **state)
{
	char seq[32], want[96];
	unsigned long s;

	(void)state;
	workload_trace();
	s = first_seq("full.kft", "AVAILABLE_MEMORY", NULL);
	snprintf(seq, sizeof(seq), "%lu", s);
	unlink(tmp("altered2.kft"));
	assert_int_equal(RUN(alter, tmp("full.kft"), tmp("altered2.kft"), seq,
			     "available", "12345"), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("altered2.kft")), 1);
	snprintf(want, sizeof(want), "divergence at #%lu AVAILABLE_MEMORY: "
		 "available: captured 0x3039", s);
	expect_out(want);
	unlink(tmp("altered3.kft"));
	s = first_seq("full.kft", "GET_VERSION", NULL);
	snprintf(seq, sizeof(seq), "%lu", s);
	assert_int_equal(RUN(alter, tmp("full.kft"), tmp("altered3.kft"), seq,
			     "errno", "1"), 0);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("altered3.kft")), 1);
	snprintf(want, sizeof(want), "divergence at #%lu GET_VERSION: result: "
		 "captured -1 EPERM, replayed 0", s);
	expect_out(want);
	snprintf(want, sizeof(want), "(last matching record: #%lu)", s - 1);
	expect_out(want);
}

static void
test_filters(void **state)
{
	char to[32];
	unsigned long s;

	(void)state;
	workload_trace();
	/* The opens are needed: without them the fds mean nothing. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--only",
			     "open,close,GET_VERSION", tmp("full.kft")), 0);
	expect_out("result:      match (strict)");
	expect_out("(2 ioctls)");
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--only",
			     "get_version", tmp("full.kft")), 1);
	expect_out("GET_VERSION: result: captured 0, replayed -1 EBADF");
	/* Leaving out the allocations leaves the maps without objects. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--skip",
			     "ALLOC_MEMORY_OF_GPU", tmp("full.kft")), 1);
	s = first_seq("full.kft", "ACQUIRE_VM", NULL);
	snprintf(to, sizeof(to), "%lu", s);
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--to", to,
			     tmp("full.kft")), 0);
	expect_out("result:      match (strict)");
	assert_null(strstr(out, "ALLOC"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--from", "9999999",
			     tmp("full.kft")), 0);
	expect_out("replayed:    0 records");
}

static void
test_loop_and_timing(void **state)
{
	double secs = 0;
	const char *p;

	(void)state;
	workload_trace();
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--loop", "3",
			     tmp("full.kft")), 0);
	expect_out("3 passes");
	expect_out("result:      match (strict)");
	/* The workload sleeps 20 ms before releasing its waiting thread. */
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--timing=original",
			     tmp("full.kft")), 0);
	p = strstr(out, "ioctls) in ");
	assert_non_null(p);
	secs = strtod(p + 11, NULL);
	assert_true(secs >= 0.019);
}

static void
test_verbose(void **state)
{
	(void)state;
	workload_trace();
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "-v", tmp("full.kft")), 0);
	expect_out("replay #");
	expect_out("CREATE_QUEUE(");
}

/*
 * A copy of a trace cut short, and one with a byte flipped in each frame:
 * what can be read is replayed, but a damaged trace never gets a match
 * verdict (exit 4, "no verdict"), and never exit 0.
 */
static void
test_damaged(void **state)
{
	struct stat sb;
	uint8_t *buf;
	FILE *f;
	size_t i;
	int st;

	(void)state;
	workload_trace();
	assert_int_equal(stat(tmp("full.kft"), &sb), 0);
	buf = malloc((size_t)sb.st_size);
	assert_non_null(buf);
	f = fopen(tmp("full.kft"), "r");
	assert_int_equal(fread(buf, 1, (size_t)sb.st_size, f), (size_t)sb.st_size);
	fclose(f);
	f = fopen(tmp("cut.kft"), "w");
	fwrite(buf, 1, (size_t)sb.st_size * 2 / 3, f);
	fclose(f);
	st = RUN(kfdtrace, "replay", "--sim", "--verify=strict", tmp("cut.kft"));
	assert_true(st == 4 || st == 1);
	expect_out("the trace is damaged");
	if (st == 4)
		expect_out("result:      no verdict: the trace is damaged");
	assert_null(strstr(out, "result:      match"));
	for (i = 200; i < (size_t)sb.st_size; i += 97)
		buf[i] ^= 0x5a;
	f = fopen(tmp("flipped.kft"), "w");
	fwrite(buf, 1, (size_t)sb.st_size, f);
	fclose(f);
	st = RUN(kfdtrace, "replay", "--sim", "--keep-going", tmp("flipped.kft"));
	assert_true(st == 1 || st == 3 || st == 4);
	assert_null(strstr(out, "result:      match"));
	free(buf);
}

/*
 * A trace written by hand with values no kernel produced: random argument
 * bytes for every KFD row, unknown requests, wild fds and mappings, and
 * opens of files that are not devices. The replay must survive it and
 * must not touch those files.
 */
static void
test_hostile(void **state)
{
	const struct kfd_ioctl_desc *rows;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record rec;
	unsigned int nrows, i, k;
	uint8_t before[512], after[512];
	uint64_t seq = 0, rnd = 0x9e3779b97f4a7c15ull;
	int st, victim;
	struct stat sb;

	(void)state;
	victim = open(tmp("victim"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(victim >= 0);
	assert_int_equal(write(victim, "keep", 4), 4);
	close(victim);
	unlink(tmp("hostile.kft"));
	kt_header_init(&hdr, "test-hostile");
	assert_int_equal(kt_writer_open(tmp("hostile.kft"), &hdr, NULL, &w), 0);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_OPEN;
	rec.u.open.path = "/dev/kfd";
	rec.u.open.flags = O_RDWR;
	rec.u.open.file_kind = KFD_FILE_KFD;
	rec.u.open.ret = 3;
	rec.seq = seq++;
	assert_int_equal(kt_writer_append(w, &rec), 0);
	rec.u.open.path = tmp("victim");
	rec.u.open.flags = O_WRONLY | O_TRUNC | O_CREAT;
	rec.u.open.file_kind = KFD_FILE_RENDER;
	rec.u.open.ret = 4;
	rec.seq = seq++;
	assert_int_equal(kt_writer_append(w, &rec), 0);
	rows = kfd_schema_rows(&nrows);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < nrows; i++) {
			uint32_t size = rows[i].args ? rows[i].args->size : 0;
			unsigned int j;

			if (size > sizeof(before))
				size = sizeof(before);
			for (j = 0; j < size; j++) {
				rnd ^= rnd << 13;
				rnd ^= rnd >> 7;
				rnd ^= rnd << 17;
				before[j] = (uint8_t)rnd;
				after[j] = (uint8_t)(rnd >> 8);
			}
			memset(&rec, 0, sizeof(rec));
			rec.type = KT_REC_IOCTL;
			rec.seq = seq++;
			rec.u.ioctl.fd = (int32_t)(rnd % 3) + 3;
			rec.u.ioctl.file_kind = rows[i].file_kind;
			rec.u.ioctl.request = rows[i].request;
			rec.u.ioctl.ret = (int64_t)(rnd % 2) - 1;
			rec.u.ioctl.err = rec.u.ioctl.ret ? EINVAL : 0;
			rec.u.ioctl.arg_size = size;
			rec.u.ioctl.arg_before = size ? before : NULL;
			rec.u.ioctl.arg_after = size ? after : NULL;
			assert_int_equal(kt_writer_append(w, &rec), 0);
		}
		memset(&rec, 0, sizeof(rec));
		rec.type = KT_REC_IOCTL;
		rec.seq = seq++;
		rec.u.ioctl.fd = 3;
		rec.u.ioctl.file_kind = KFD_FILE_KFD;
		rec.u.ioctl.request = 0xc0084b7e;	/* not in the schema */
		rec.u.ioctl.arg_size = 8;
		rec.u.ioctl.arg_before = before;
		rec.u.ioctl.arg_after = after;
		assert_int_equal(kt_writer_append(w, &rec), 0);
		memset(&rec, 0, sizeof(rec));
		rec.type = KT_REC_MMAP;
		rec.seq = seq++;
		rec.u.mmap.addr = 0x7f0000000000ull + (rnd & 0xffffff000ull);
		rec.u.mmap.len = 1ull << 40;
		rec.u.mmap.flags = 0x11;	/* MAP_SHARED | MAP_FIXED */
		rec.u.mmap.fd = 3;
		rec.u.mmap.file_kind = KFD_FILE_KFD;
		rec.u.mmap.result = rec.u.mmap.addr;
		assert_int_equal(kt_writer_append(w, &rec), 0);
		memset(&rec, 0, sizeof(rec));
		rec.type = KT_REC_MUNMAP;
		rec.seq = seq++;
		/* Where the replayer's own code is. */
		rec.u.munmap.addr = (uint64_t)(uintptr_t)&test_hostile & ~0xfffull;
		rec.u.munmap.len = 1ull << 30;
		assert_int_equal(kt_writer_append(w, &rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	st = RUN(kfdtrace, "replay", "--sim", "--keep-going", "--force",
		 "--max-reported", "3", tmp("hostile.kft"));
	assert_true(st == 0 || st == 1);
	expect_out("summary:");
	expect_out("not a KFD or render-node path");
	assert_int_equal(stat(tmp("victim"), &sb), 0);
	assert_int_equal(sb.st_size, 4);
}

/*
 * Where the writable data (.data, .bss) of a non-randomized process running
 * @exe starts: its writable PT_LOAD, in a PIE the kernel loads at
 * 0x555555554000 when address randomization is off. 0 when unknown. (Its
 * own globals, which no allocator can move away, unlike the brk heap.)
 */
static uint64_t
norandom_data(const char *exe)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	uint64_t data = 0;
	int fd = open(exe, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_type != ET_DYN) {
		close(fd);
		return 0;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff +
			  (uint64_t)i * eh.e_phentsize)) != sizeof(ph))
			break;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W) && ph.p_memsz)
			data = ph.p_vaddr;
	}
	close(fd);
	return data ? 0x555555554000ull + (data & ~4095ull) : 0;
}

/*
 * A trace whose user memory and device mappings lie on the replayer's own
 * text, stack and global data (issue #8): the replayer relocates them,
 * reports it, and neither crashes nor overwrites itself. Address
 * randomization is off for the replay so that those addresses are known
 * here.
 */
static void
test_own_memory(void **state)
{
	const uint64_t text = 0x555555554000ull, stack = 0x7ffffffe0000ull;
	unsigned long up1, up2, map;
	char v1[32], v2[32], v3[32];
	uint64_t data;
	int old, st;

	(void)state;
	workload_trace();
	data = norandom_data(kfdtrace);
	assert_true(data != 0);
	up1 = first_seq("full.kft", "ALLOC_MEMORY_OF_GPU", "USERPTR");
	/* The second userptr allocation comes right after the first. */
	up2 = nth_seq("full.kft", "ALLOC_MEMORY_OF_GPU", "USERPTR", 2);
	map = first_seq("full.kft", "mmap", "/* render */");
	snprintf(v1, sizeof(v1), "0x%llx", (unsigned long long)text);
	snprintf(v2, sizeof(v2), "0x%llx", (unsigned long long)stack);
	snprintf(v3, sizeof(v3), "0x%llx", (unsigned long long)data);
	{
		char s1[24], s2[24], s3[24];

		snprintf(s1, sizeof(s1), "%lu", up1);
		snprintf(s2, sizeof(s2), "%lu", up2);
		snprintf(s3, sizeof(s3), "%lu", map);
		unlink(tmp("own1.kft"));
		unlink(tmp("own2.kft"));
		unlink(tmp("own3.kft"));
		assert_int_equal(RUN(alter, tmp("full.kft"), tmp("own1.kft"), s1,
				     "in.mmap_offset", v1), 0);
		assert_int_equal(RUN(alter, tmp("own1.kft"), tmp("own2.kft"), s2,
				     "in.mmap_offset", v2), 0);
		assert_int_equal(RUN(alter, tmp("own2.kft"), tmp("own3.kft"), s3,
				     "addr", v3), 0);
	}
	old = personality(0xffffffff);
	if (old < 0 || personality((unsigned long)old | ADDR_NO_RANDOMIZE) < 0)
		skip();
	st = RUN(kfdtrace, "replay", "--sim", tmp("own3.kft"));
	personality((unsigned long)old);
	/* Not killed by a signal: nothing of its own was mapped over. */
	assert_int_equal(st, 0);
	expect_out("relocated: CPU range 0x555555554000-");
	expect_out("relocated: CPU range 0x7ffffffe0000-");
	snprintf(v3, sizeof(v3), "relocated: CPU range 0x%llx-",
		 (unsigned long long)data);
	expect_out(v3);
	expect_out("3 relocated ranges");
	expect_out("result:      match (strict)");
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	workload = getenv("RP_WORKLOAD");
	alter = getenv("RP_ALTER");
	if (!kfdtrace || !workload || !alter) {
		fprintf(stderr, "KFDTRACE, RP_WORKLOAD and RP_ALTER must be set\n");
		return -1;
	}
	if (rp_make_dir("replay"))
		return -1;
	have_rocminfo = access("/usr/bin/rocminfo", X_OK) == 0;
	return 0;
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
		cmocka_unit_test(test_altered_field),
		cmocka_unit_test(test_altered_result),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_loop_and_timing),
		cmocka_unit_test(test_verbose),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_own_memory),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
