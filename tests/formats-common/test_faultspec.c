/* SPDX-License-Identifier: MIT */
/*
 * The common fault-spec grammar (kfdtrace/common/faultspec.h): every form
 * of each field, the edge values, each error with its rule and column,
 * and the consumer's callback (order, stopping, its own messages).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/common/faultspec.h>

#define MAXR 8

struct got {
	unsigned int n;
	struct kc_fault_rule r[MAXR];
	int stop_at;		/* rule index to refuse; 0: none */
};

static int
collect(void *ctx, const struct kc_fault_rule *r, char *msg, size_t msglen)
{
	struct got *g = ctx;

	if (g->stop_at && r->index == (unsigned int)g->stop_at) {
		kc_faultspec_msg(msg, msglen, r, &r->name_at, "refused");
		return -ENOENT;
	}
	assert_true(g->n < MAXR);
	g->r[g->n++] = *r;
	return 0;
}

static const struct kc_fault_rule *
one(const char *spec, struct got *g)
{
	char msg[200];
	int ret;

	memset(g, 0, sizeof(*g));
	ret = kc_faultspec_parse(spec, collect, g, msg, sizeof(msg));
	if (ret)
		print_error("%s: %s\n", spec, msg);
	assert_int_equal(ret, 0);
	assert_int_equal(g->n, 1);
	return &g->r[0];
}

static void
test_forms(void **state)
{
	const struct kc_fault_rule *r;
	struct got g;

	(void)state;
	/* NTH alone: one call. */
	r = one("ALLOC_MEMORY_OF_GPU:3:ENOMEM", &g);
	assert_string_equal(r->name, "ALLOC_MEMORY_OF_GPU");
	assert_true(r->nth == 3 && r->count == 1);
	assert_int_equal(r->err, ENOMEM);
	assert_true(r->delay_ns == 0);
	assert_int_equal(r->index, 1);
	/* The spans say where each part is. */
	assert_true(r->rule.off == 0 && r->rule.len == 28);
	assert_true(r->name_at.off == 0 && r->name_at.len == 19);
	assert_true(r->which_at.off == 20 && r->which_at.len == 1);
	assert_true(r->err_at.off == 22 && r->err_at.len == 6);
	/* N+C, errno by number, a lower-case name kept as written. */
	r = one("alloc_memory_of_gpu:2+2:12", &g);
	assert_string_equal(r->name, "alloc_memory_of_gpu");
	assert_true(r->nth == 2 && r->count == 2);
	assert_int_equal(r->err, 12);
	/* N+* and N+0: every call from the Nth. */
	r = one("GET_VERSION:1+*:EIO", &g);
	assert_true(r->nth == 1 && r->count == 0);
	r = one("GET_VERSION:4+0:EBUSY", &g);
	assert_true(r->nth == 4 && r->count == 0);
	assert_int_equal(r->err, EBUSY);
	/* *: every call; NAME *. */
	r = one("*:*:EINTR", &g);
	assert_string_equal(r->name, "*");
	assert_true(r->nth == 1 && r->count == 0);
	/* Errno names any case, kernel-internal ones, the number range. */
	assert_int_equal(one("X:1:enomem", &g)->err, ENOMEM);
	assert_int_equal(one("X:1:ENOTSUPP", &g)->err, 524);
	assert_int_equal(one("X:1:524", &g)->err, 524);
	assert_int_equal(one("X:1:1", &g)->err, 1);
	assert_int_equal(one("X:1:4095", &g)->err, 4095);
	/* Delays: each unit, alone, before and after an errno. */
	r = one("WAIT_EVENTS:*:delay=50ms", &g);
	assert_true(r->delay_ns == 50000000ull && r->err == 0);
	assert_true(r->delay_at.off == 14 && r->delay_at.len == 10);
	assert_true(one("X:1:delay=7ns", &g)->delay_ns == 7);
	assert_true(one("X:1:delay=250us", &g)->delay_ns == 250000);
	assert_true(one("X:1:delay=2s", &g)->delay_ns == 2000000000ull);
	r = one("MAP_MEMORY_TO_GPU:4+*:delay=1ms:EINTR", &g);
	assert_true(r->delay_ns == 1000000 && r->err == EINTR);
	r = one("MAP_MEMORY_TO_GPU:4:EINTR:delay=1ms", &g);
	assert_true(r->delay_ns == 1000000 && r->err == EINTR);
}

static void
test_edges(void **state)
{
	const struct kc_fault_rule *r;
	struct got g;
	char name63[80];

	(void)state;
	/* The largest numbers: UINT64_MAX, an hour in each unit. */
	r = one("X:18446744073709551615+18446744073709551615:EIO", &g);
	assert_true(r->nth == UINT64_MAX && r->count == UINT64_MAX);
	assert_true(one("X:1:delay=3600s", &g)->delay_ns == KC_FAULTSPEC_MAX_DELAY);
	assert_true(one("X:1:delay=60ms", &g)->delay_ns == 60000000ull);
	assert_true(one("X:1:delay=3600000000000ns", &g)->delay_ns ==
		    KC_FAULTSPEC_MAX_DELAY);
	assert_true(one("X:1:delay=1ns", &g)->delay_ns == 1);
	/* Leading zeros are decimal. */
	assert_true(one("X:007:EIO", &g)->nth == 7);
	/* A name of 63 chars is the longest. */
	memset(name63, 'A', 63);
	strcpy(name63 + 63, ":1:EIO");
	assert_int_equal(strlen(one(name63, &g)->name), 63);
	/* NULL and "" hold no rules; fn may be NULL (a syntax check). */
	memset(&g, 0, sizeof(g));
	assert_int_equal(kc_faultspec_parse(NULL, collect, &g, NULL, 0), 0);
	assert_int_equal(kc_faultspec_parse("", collect, &g, NULL, 0), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(kc_faultspec_parse("X:1:EIO", NULL, NULL, NULL, 0), 0);
}

static void
test_lists(void **state)
{
	struct got g;
	char msg[200];

	(void)state;
	/* ',' and ';' both separate; rules come in order, numbered. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(kc_faultspec_parse("A:1:EIO,B:2+3:ENOMEM;C:*:delay=1us",
					    collect, &g, msg, sizeof(msg)), 0);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.r[0].name, "A");
	assert_string_equal(g.r[1].name, "B");
	assert_string_equal(g.r[2].name, "C");
	assert_int_equal(g.r[2].index, 3);
	assert_true(g.r[1].rule.off == 8 && g.r[1].rule.len == 12);
	assert_true(g.r[2].name_at.off == 21);
	assert_true(g.r[1].spec == g.r[2].spec);

	/* The callback's refusal stops the parse, after the rules before. */
	memset(&g, 0, sizeof(g));
	g.stop_at = 2;
	assert_int_equal(kc_faultspec_parse("A:1:EIO,BAD:1:EIO,C:1:EIO", collect,
					    &g, msg, sizeof(msg)), -ENOENT);
	assert_int_equal(g.n, 1);
	assert_string_equal(msg, "rule 2, column 9: 'BAD': refused");

	/* A syntax error stops it too, rules before it handed over. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(kc_faultspec_parse("A:1:EIO;B:0:EIO", collect, &g, msg,
					    sizeof(msg)), -EINVAL);
	assert_int_equal(g.n, 1);
	/* A message that does not fit is cut, NUL-terminated. */
	assert_int_equal(kc_faultspec_parse("A:0:EIO", NULL, NULL, msg, 8), -EINVAL);
	assert_string_equal(msg, "rule 1,");
}

static void
test_errors(void **state)
{
	static const struct {
		const char *spec;
		const char *msg;	/* exactly */
	} bad[] = {
		/* The rule's shape: 3 or 4 fields, no empty rule. */
		{ "A:1", "rule 1, column 1: 'A:1': expected NAME:WHICH:EFFECT[:EFFECT]" },
		{ "GET_VERSION", "rule 1, column 1: 'GET_VERSION': expected NAME:WHICH:EFFECT[:EFFECT]" },
		{ "a:b:c:d:e", "rule 1, column 1: 'a:b:c:d:e': expected NAME:WHICH:EFFECT[:EFFECT]" },
		{ "A:1:EIO,", "rule 2, column 9: '': expected NAME:WHICH:EFFECT[:EFFECT]" },
		{ "A:1:EIO;;B:1:EIO", "rule 2, column 9: '': expected NAME:WHICH:EFFECT[:EFFECT]" },
		{ ",A:1:EIO", "rule 1, column 1: '': expected NAME:WHICH:EFFECT[:EFFECT]" },
		/* NAME */
		{ ":1:EIO", "rule 1, column 1: '': expected an ioctl name of 1 to 63 chars, or *" },
		{ "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA:1:EIO",
		  "rule 1, column 1: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA': "
		  "expected an ioctl name of 1 to 63 chars, or *" },
		/* WHICH */
		{ "A:0:EIO", "rule 1, column 3: '0': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:x:EIO", "rule 1, column 3: 'x': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A::EIO", "rule 1, column 3: '': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:1+:EIO", "rule 1, column 3: '1+': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:+1:EIO", "rule 1, column 3: '+1': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:0+*:EIO", "rule 1, column 3: '0+*': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:1+x:EIO", "rule 1, column 3: '1+x': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:1+2+3:EIO", "rule 1, column 3: '1+2+3': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:-1:EIO", "rule 1, column 3: '-1': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A: 1:EIO", "rule 1, column 3: ' 1': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:**:EIO", "rule 1, column 3: '**': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:*+1:EIO", "rule 1, column 3: '*+1': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:18446744073709551616:EIO",
		  "rule 1, column 3: '18446744073709551616': expected N, N+COUNT, N+* or * (N from 1)" },
		{ "A:1+18446744073709551616:EIO",
		  "rule 1, column 3: '1+18446744073709551616': expected N, N+COUNT, N+* or * (N from 1)" },
		/* EFFECT: errnos */
		{ "A:1:EWHAT", "rule 1, column 5: 'EWHAT': expected an errno name or number, or delay=T, at most one of each" },
		{ "A:1:0", "rule 1, column 5: '0': expected an errno name or number, or delay=T, at most one of each" },
		{ "A:1:4096", "rule 1, column 5: '4096': expected an errno name or number, or delay=T, at most one of each" },
		{ "A:1:", "rule 1, column 5: '': expected an errno name or number, or delay=T, at most one of each" },
		{ "A:1:ENOMEM:EIO", "rule 1, column 12: 'EIO': expected an errno name or number, or delay=T, at most one of each" },
		/* EFFECT: delays */
		{ "A:1:delay=5", "rule 1, column 5: 'delay=5': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=", "rule 1, column 5: 'delay=': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=ms", "rule 1, column 5: 'delay=ms': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=0ms", "rule 1, column 5: 'delay=0ms': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=2h", "rule 1, column 5: 'delay=2h': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=5MS", "rule 1, column 5: 'delay=5MS': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=3601s", "rule 1, column 5: 'delay=3601s': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=3600001ms", "rule 1, column 5: 'delay=3600001ms': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		{ "A:1:delay=1ms:delay=1ms", "rule 1, column 15: 'delay=1ms': expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one" },
		/* The column is the offending part's in the whole spec. */
		{ "A:1:EIO,BB:2:ENOMEM;C:1:EWHAT",
		  "rule 3, column 25: 'EWHAT': expected an errno name or number, or delay=T, at most one of each" },
	};
	struct got g;
	char msg[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&g, 0, sizeof(g));
		msg[0] = 'x';
		assert_int_equal(kc_faultspec_parse(bad[i].spec, collect, &g, msg,
						    sizeof(msg)), -EINVAL);
		if (strcmp(msg, bad[i].msg))
			print_error("%s: '%s'\n", bad[i].spec, msg);
		assert_string_equal(msg, bad[i].msg);
		/* No message buffer is fine too. */
		assert_int_equal(kc_faultspec_parse(bad[i].spec, NULL, NULL, NULL, 0),
				 -EINVAL);
	}
	/* A good spec clears the message. */
	msg[0] = 'x';
	assert_int_equal(kc_faultspec_parse("A:1:EIO", NULL, NULL, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
}

/* The user's bytes in a message: escaped, and cut before the reason is. */
static void
test_hostile_text(void **state)
{
	const char *why = "': expected N, N+COUNT, N+* or * (N from 1)";
	char spec[400], msg[160];

	(void)state;
	assert_int_equal(kc_faultspec_parse("A:\x1b[31m\n:EIO", NULL, NULL, msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "rule 1, column 3: '\\x1b[31m\\n': expected N, N+COUNT, "
			    "N+* or * (N from 1)");
	/* 300 bytes of WHICH in a 160-byte message: the reason whole */
	snprintf(spec, sizeof(spec), "A:%0300d:EIO", 7);
	spec[2] = 'x';
	assert_int_equal(kc_faultspec_parse(spec, NULL, NULL, msg, sizeof(msg)), -EINVAL);
	assert_true(strlen(msg) < sizeof(msg));
	assert_true(strlen(msg) > strlen(why));
	assert_string_equal(msg + strlen(msg) - strlen(why), why);
	assert_non_null(strstr(msg, "...'"));
	assert_int_equal(strncmp(msg, "rule 1, column 3: 'x000", 23), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hostile_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
