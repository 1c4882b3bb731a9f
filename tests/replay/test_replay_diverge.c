/* SPDX-License-Identifier: MIT */
/*
 * End-to-end tests of `kfdtrace replay` on kfdsim, continued from
 * test_replay.c (same fixture, rp_e2e.h; a program and scratch directory
 * of its own): an altered field or result is reported at the right record
 * and field; filters, --loop and --timing, --verbose, exit statuses;
 * damaged and hostile traces; a trace naming the replayer's own memory.
 *
 * Environment (set by meson): KFDTRACE, RP_WORKLOAD, RP_ALTER.
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
 * A trace without its END record, as a killed program leaves it (every
 * frame whole, the records buffered since the last flush gone): what it
 * holds is replayed and matches, but the verdict is no verdict (exit 4),
 * in the serial replay and with --threads alike.
 */
static void
test_no_end(void **state)
{
	static const char *const modes[] = { "--verify=strict", "--threads" };
	unsigned int i;

	(void)state;
	workload_trace();
	unlink(tmp("noend.kft"));
	assert_int_equal(RUN(alter, tmp("full.kft"), tmp("noend.kft"), "noend"), 0);
	assert_int_equal(RUN(kfdtrace, "info", tmp("noend.kft")), 0);
	expect_out("integrity:  no-end");
	for (i = 0; i < 2; i++) {
		assert_int_equal(RUN(kfdtrace, "replay", "--sim", modes[i],
				     tmp("noend.kft")), 4);
		expect_out("the trace has no END record");
		expect_out("result:      no verdict: the trace has no END record");
		assert_null(strstr(out, "result:      match"));
		assert_null(strstr(out, "divergence"));
	}
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", "--json",
			     tmp("noend.kft")), 4);
	expect_out("\"verdict\":\"damaged\"");
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
	hdr.start_monotonic = 0;	/* the records' times are 0 */
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
 * text, stack and global data: the replayer relocates them,
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
	return rp_e2e_setup("replay-diverge");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_altered_field),
		cmocka_unit_test(test_altered_result),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_loop_and_timing),
		cmocka_unit_test(test_verbose),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_no_end),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_own_memory),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
