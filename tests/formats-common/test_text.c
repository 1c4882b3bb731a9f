/* SPDX-License-Identifier: MIT */
/* kc_text_escape(): every byte outside printable ASCII escaped, a cut
 * never inside an escape, and how much of the input made it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/common/text.h>

static void
test_escapes(void **state)
{
	const char in[] = "a\"b\\c\nd\te\rf\x1b[2J\x7f\xff";
	char out[64];

	(void)state;
	assert_int_equal(kc_text_escape(out, sizeof(out), in, sizeof(in) - 1),
			 sizeof(in) - 1);
	assert_string_equal(out, "a\\\"b\\\\c\\nd\\te\\rf\\x1b[2J\\x7f\\xff");
	/* a NUL inside the @n bytes is a byte like another */
	assert_int_equal(kc_text_escape(out, sizeof(out), "x\0y", 3), 3);
	assert_string_equal(out, "x\\x00y");
}

static void
test_cut(void **state)
{
	char out[8];

	(void)state;
	/* "ab" fits, "\x1b" (4) would not: cut before it, never inside */
	assert_int_equal(kc_text_escape(out, 6, "ab\x1b" "c", 4), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(kc_text_escape(out, 7, "ab\x1b" "c", 4), 3);
	assert_string_equal(out, "ab\\x1b");
	assert_int_equal(kc_text_escape(out, 1, "ab", 2), 0);
	assert_string_equal(out, "");
	assert_int_equal(kc_text_escape(out, 0, "ab", 2), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
