/* SPDX-License-Identifier: MIT */
/*
 * The replay's comparison of SDMA copy sources in VRAM with what the
 * replayed engines left there (replay/compare.c, docs/replay.md "What the
 * GPU computed"), on rp_sdma (our thunk, two threads on two SDMA queues)
 * recorded with --submissions=full:
 *  - its replay, serial and --threads, compares the 6 sources fills,
 *    copies and a kernel made, equal; the 2 sources read before their
 *    own submit's fill or a memory poll ran are kept as replayed; a
 *    strict match. A source in a buffer no packet wrote before, which its
 *    own submit fills first, is written back, and the copy is not checked
 *    against it (its captured bytes are stale), with --no-compare too;
 *  - a trace whose first compared source has byte 5 changed diverges at
 *    that copy, naming the memory record, the offset in the source and in
 *    the VRAM buffer; with --no-compare it matches;
 *  - a trace whose last source (a buffer a kernel may have written from
 *    host memory the capture lacks) has a byte changed notes the
 *    difference, which is not a divergence;
 *  - with a queue that never drains on replay (rp_sdma stall), the
 *    sources are written back, counted as not compared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rp_test.h"

static const char *kfdtrace, *sdma, *alter, *our_thunk;

/* Record rp_sdma (@mode: NULL, or "stall") into @file of the scratch dir. */
static void
capture(const char *file, const char *mode)
{
	char lib[4200], path[4200];
	const char *env[] = { lib, NULL };
	const char *argv[] = { kfdtrace, "record", "-o", path, "--sim",
			       "--submissions=full", "--", sdma, mode, NULL };

	snprintf(lib, sizeof(lib), "LD_LIBRARY_PATH=%s", our_thunk);
	snprintf(path, sizeof(path), "%s", tmp(file));
	if (run_env(argv, env)) {
		fputs(out, stderr);
		fail_msg("rp_sdma failed under record --submissions=full");
	}
	expect_out("sdma: ok");
}

/*
 * The sequence numbers of the first and the last copy source with bytes
 * in the dump of @file.
 */
static void
sources(const char *file, long *first, long *last)
{
	const char *p;

	expect_ok(RUN(kfdtrace, "dump", "--seq", tmp(file)));
	*first = *last = -1;
	for (p = out; (p = strstr(p, "memory(copy_source, ")) != NULL; p++) {
		const char *bol = p, *eol = strchr(p, '\n'), *u = strstr(p, "unreadable");

		while (bol > out && bol[-1] != '\n')
			bol--;
		if (*bol != '#' || (u && (!eol || u < eol)))
			continue;
		if (*first < 0)
			*first = atol(bol + 1);
		*last = atol(bol + 1);
	}
	assert_true(*first > 0 && *last > *first);
}

static void
test_equal(void **state)
{
	const char *want = "compared:    6 copy sources in VRAM (114688 bytes) "
			   "with the capture: 0 differed; 2 captured before "
			   "what the copy waited for: kept as replayed";

	(void)state;
	capture("t.kft", NULL);
	expect_ok(RUN(kfdtrace, "dump", tmp("t.kft")));
	expect_out("memory(copy_source, 0x");
	expect_out("65536 bytes, unreadable)");
	expect_ok(RUN(kfdtrace, "replay", "--sim", tmp("t.kft")));
	expect_out(want);
	expect_out("result:      match (strict)");
	assert_null(strstr(out, "divergence"));
	expect_out("8 SDMA copies moved the captured bytes");
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--threads", tmp("t.kft")));
	expect_out(want);
	expect_out("result:      match (strict)");
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--no-compare", tmp("t.kft")));
	assert_null(strstr(out, "compared:"));
	expect_out("8 SDMA copies moved the captured bytes");
	expect_out("result:      match (strict)");
}

static void
test_altered(void **state)
{
	char seq[32], want[200];
	long first, last;

	(void)state;
	capture("a.kft", NULL);
	sources("a.kft", &first, &last);

	/* V holds 0xc0ffee11: byte 5 of the source (+4101 in V) is 0xee. */
	snprintf(seq, sizeof(seq), "%ld", first);
	expect_ok(RUN(alter, tmp("a.kft"), tmp("fill.kft"), seq, "mem@5", "0"));
	assert_int_equal(RUN(kfdtrace, "replay", "--sim", tmp("fill.kft")), 1);
	snprintf(want, sizeof(want), "divergence at #%ld submit: copy source: "
		 "captured 0x0, replayed 0xee: bytes differ at +5 of the 32768 "
		 "bytes at 0x", first + 1);
	expect_out(want);
	snprintf(want, sizeof(want), "(memory record #%ld), at +4101 in VRAM "
		 "buffer 0x", first);
	expect_out(want);
	expect_out(" (1048576 bytes): the replayed GPU left other bytes");
	expect_out("with the capture: 1 differed");
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--no-compare", tmp("fill.kft")));
	assert_null(strstr(out, "compared:"));
	expect_out("result:      match (strict)");

	/* D: the kernel's arguments point to it and to host memory. */
	snprintf(seq, sizeof(seq), "%ld", last);
	expect_ok(RUN(alter, tmp("a.kft"), tmp("unfed.kft"), seq, "mem@700", "0"));
	expect_ok(RUN(kfdtrace, "replay", "--sim", tmp("unfed.kft")));
	snprintf(want, sizeof(want), "(memory record #%ld) differs at +700, in "
		 "VRAM buffer 0x", last);
	expect_out(want);
	expect_out("does not hold: not a divergence");
	expect_out("0 differed; 1 more where the capture lacks the GPU's inputs");
	expect_out("result:      match (strict)");
}

static void
test_stall(void **state)
{
	(void)state;
	capture("s.kft", "stall");
	expect_ok(RUN(kfdtrace, "replay", "--sim", "--wait-timeout", "500",
		      tmp("s.kft")));
	expect_out("not compared: the queues did not drain");
	expect_out("compared:    0 copy sources in VRAM (0 bytes) with the "
		   "capture: 0 differed; 6 not compared: the queues did not drain");
	expect_out("result:      match (strict)");
}

static int
setup(void **state)
{
	(void)state;
	kfdtrace = getenv("KFDTRACE");
	sdma = getenv("RP_SDMA");
	alter = getenv("RP_ALTER");
	our_thunk = getenv("RP_OUR_THUNK_DIR");
	if (!kfdtrace || !sdma || !alter || !our_thunk) {
		fprintf(stderr, "KFDTRACE, RP_SDMA, RP_ALTER and RP_OUR_THUNK_DIR "
			"must be set\n");
		return -1;
	}
	return rp_make_dir("compare");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_altered),
		cmocka_unit_test(test_stall),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}
