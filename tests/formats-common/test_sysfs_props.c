/* SPDX-License-Identifier: MIT */
/*
 * kc_sysfs_next(), kc_sysfs_props_lookup(), kc_sysfs_prop_get(): the
 * kernel's properties text, the edges of the grammar (no trailing
 * newline, blank lines, tabs, the largest u64, the longest name) and bad
 * input (overflow, signs, trailing bytes, overlong names, a name alone,
 * NUL bytes, data not NUL-terminated, NULL).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kfdtrace/common/sysfs_props.h"

/* Each line's kind, as a string of 'P' (property) and 'B' (bad). */
static void
kinds(const char *buf, size_t len, char *out)
{
	struct kc_sysfs_iter it;
	struct kc_sysfs_prop p;
	enum kc_sysfs_line l;

	kc_sysfs_iter_init(&it, buf, len);
	while ((l = kc_sysfs_next(&it, &p)) != KC_SYSFS_END)
		*out++ = l == KC_SYSFS_PROP ? 'P' : 'B';
	*out = '\0';
}

static void
assert_kinds(const char *buf, const char *expect)
{
	char got[64];

	kinds(buf, strlen(buf), got);
	assert_string_equal(got, expect);
}

static void
test_kernel_text(void **state)
{
	static const char text[] =
		"cpu_cores_count 0\nsimd_count 416\nmem_banks_count 1\n"
		"gfx_target_version 90010\nlocal_mem_size 68702699520\n";
	struct kc_sysfs_iter it;
	struct kc_sysfs_prop p;

	(void)state;
	kc_sysfs_iter_init(&it, text, strlen(text));
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_PROP);
	assert_int_equal(p.name_len, 15);
	assert_memory_equal(p.name, "cpu_cores_count", 15);
	assert_true(p.value == 0);
	assert_int_equal(p.line_len, 17);
	assert_ptr_equal(p.line, text);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_PROP);
	assert_true(kc_sysfs_name_is(&p, "simd_count"));
	assert_false(kc_sysfs_name_is(&p, "simd_coun"));
	assert_false(kc_sysfs_name_is(&p, "simd_count_"));
	assert_true(p.value == 416);
	assert_int_equal(p.text_len, 3);
	assert_memory_equal(p.text, "416", 3);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_PROP);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_PROP);
	assert_true(p.value == 90010);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_PROP);
	assert_true(p.value == 68702699520ull);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_END);
	assert_ptr_equal(p.line, text + strlen(text));
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_END);
}

static void
test_edges(void **state)
{
	/* A name of exactly KC_SYSFS_NAME_MAX bytes. */
	char longest[KC_SYSFS_NAME_MAX + 8];
	uint64_t v = 0;

	(void)state;
	/* No trailing newline; blank lines and blanks around; tabs. */
	assert_kinds("a 1", "P");
	assert_kinds("\n\n  \t\na 1\n\n", "P");
	assert_kinds("  a\t\t 2\nb  3", "PP");
	assert_kinds("", "");
	assert_true(kc_sysfs_prop_get("  a\t\t 2\nb  3", 12, "a", &v) && v == 2);
	assert_true(kc_sysfs_prop_get("  a\t\t 2\nb  3", 12, "b", &v) && v == 3);
	assert_true(kc_sysfs_prop_get("x 18446744073709551615", 22, "x", &v));
	assert_true(v == UINT64_MAX);
	assert_true(kc_sysfs_prop_get("x 000042\n", 9, "x", &v) && v == 42);
	memset(longest, 'n', KC_SYSFS_NAME_MAX);
	strcpy(longest + KC_SYSFS_NAME_MAX, " 7\n");
	assert_kinds(longest, "P");
	/* The last line of a name wins. */
	assert_true(kc_sysfs_prop_get("a 1\na 2\n", 8, "a", &v) && v == 2);
}

static void
test_bad(void **state)
{
	char toolong[KC_SYSFS_NAME_MAX + 8];
	struct kc_sysfs_iter it;
	struct kc_sysfs_prop p;
	uint64_t v = 99;

	(void)state;
	assert_kinds("a 18446744073709551616\n", "B");	/* overflows */
	assert_kinds("a 99999999999999999999\n", "B");
	assert_kinds("a -5\n", "B");
	assert_kinds("a +5\n", "B");
	assert_kinds("a 5z\n", "B");
	assert_kinds("a 5 \n", "B");
	assert_kinds("a 5\r\n", "B");
	assert_kinds("a 0x10\n", "B");
	assert_kinds("a\n", "B");
	assert_kinds("a \n", "B");
	assert_kinds("sibling_map 1,0,1,0\n", "B");
	/* A bad line does not end the walk: the next one is read. */
	assert_kinds("a 1\nbad line\nc 3\n", "PBP");
	memset(toolong, 'n', KC_SYSFS_NAME_MAX + 1);
	strcpy(toolong + KC_SYSFS_NAME_MAX + 1, " 7\nb 1");
	assert_kinds(toolong, "BP");

	/* A bad line keeps its name where it has one, and its text. */
	kc_sysfs_iter_init(&it, "sibling_map 1,0\nnovalue\n", 24);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_BAD);
	assert_true(kc_sysfs_name_is(&p, "sibling_map"));
	assert_int_equal(p.text_len, 3);
	assert_memory_equal(p.text, "1,0", 3);
	assert_int_equal(p.line_len, 15);
	assert_true(p.value == 0);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_BAD);
	assert_null(p.name);
	assert_int_equal(p.line_len, 7);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_END);

	/* A NUL byte is not a digit, nor a blank. */
	kc_sysfs_iter_init(&it, "a 1\0002\nb 2\n", 10);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_BAD);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_PROP);
	assert_true(kc_sysfs_name_is(&p, "b") && p.value == 2);

	/* Only the length bounds the data: the digit after it is not read. */
	assert_true(kc_sysfs_prop_get("a 12345", 4, "a", &v) && v == 12);
	assert_false(kc_sysfs_prop_get("a 1", 1, "a", &v));
	assert_true(v == 12);
	/* NULL data is empty. */
	assert_false(kc_sysfs_prop_get(NULL, 10, "a", &v));
	kc_sysfs_iter_init(&it, NULL, 10);
	assert_int_equal(kc_sysfs_next(&it, &p), KC_SYSFS_END);
	/* Bad lines of a name leave the value as it was. */
	v = 5;
	assert_false(kc_sysfs_prop_get("a -1\na x\na\n", 11, "a", &v));
	assert_true(v == 5);
}

static void
test_lookup(void **state)
{
	static const char *const names[] = { "heap_type", "size_in_bytes", "flags" };
	static const char text[] = "heap_type 1\nsize_in_bytes 1073741824\n"
				   "size_in_bytes 12x\nwidth 64\n";
	uint64_t vals[3] = { 7, 7, 7 };

	(void)state;
	assert_int_equal(kc_sysfs_props_lookup(text, strlen(text), names, 3, vals), 3);
	assert_true(vals[0] == 1);
	assert_true(vals[1] == 1073741824);	/* the bad later line is skipped */
	assert_true(vals[2] == 7);		/* not found: untouched */
	assert_int_equal(kc_sysfs_props_lookup(text, 0, names, 3, vals), 0);
	assert_int_equal(kc_sysfs_props_lookup(text, strlen(text), names, 0, vals), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_text),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
