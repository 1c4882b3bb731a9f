/* SPDX-License-Identifier: MIT */
/* The common errno table (kfdtrace/common/errnames.h), both ways. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/common/errnames.h>

static int
parse(const char *s)
{
	return kc_errno_parse(s, strlen(s));
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(kc_errno_name(ENOMEM), "ENOMEM");
	assert_string_equal(kc_errno_name(EADDRINUSE), "EADDRINUSE");
	assert_string_equal(kc_errno_name(512), "ERESTARTSYS");
	assert_string_equal(kc_errno_name(524), "ENOTSUPP");
	assert_string_equal(kc_errno_name(530), "ERECALLCONFLICT");
	assert_null(kc_errno_name(0));
	assert_null(kc_errno_name(-ENOMEM));
	assert_null(kc_errno_name(520));	/* unassigned */
	assert_null(kc_errno_name(531));
	assert_null(kc_errno_name(4000));
	assert_string_equal(kc_errno_desc(ENOENT), "No such file or directory");
	assert_string_equal(kc_errno_desc(524), "Operation is not supported");
	assert_string_equal(kc_errno_desc(512), "Kernel-internal error");
	assert_null(kc_errno_desc(520));
}

static void
test_parse(void **state)
{
	(void)state;
	assert_int_equal(parse("ENOMEM"), ENOMEM);
	assert_int_equal(parse("enomem"), ENOMEM);
	assert_int_equal(parse("ETIME"), ETIME);
	assert_int_equal(parse("ENOTSUPP"), 524);
	assert_int_equal(parse("EWOULDBLOCK"), EAGAIN);
	assert_int_equal(parse("ENOTSUP"), EOPNOTSUPP);
	assert_int_equal(parse("12"), 12);
	assert_int_equal(parse("4095"), 4095);
	assert_int_equal(parse("4096"), -1);
	assert_int_equal(parse("0"), -1);
	assert_int_equal(parse("12x"), -1);
	assert_int_equal(parse("EFOO"), -1);
	assert_int_equal(parse("ENOMEMX"), -1);
	assert_int_equal(parse(""), -1);
	/* Only the @len chars count. */
	assert_int_equal(kc_errno_parse("EIO:1", 3), EIO);
}

/* Every name parses back to its number. */
static void
test_round_trip(void **state)
{
	unsigned int named = 0;

	(void)state;
	for (int e = 1; e < 600; e++) {
		const char *n = kc_errno_name(e);

		if (!n)
			continue;
		assert_int_equal(parse(n), e);
		named++;
	}
	/* Linux's user errnos (1..133, less the two unassigned) and 18
	 * kernel-internal ones. */
	assert_int_equal(named, 131 + 18);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
