/* SPDX-License-Identifier: MIT */
/*
 * The one field-name rule (kfdtrace/common/field_name.h): separators,
 * leading digits, empty names, the length bound with its hash, the
 * collision suffixes, and small buffers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/common/field_name.h>

static const char *
fname(const char *in)
{
	static char out[KC_FIELD_NAME_MAX];
	int n = kc_field_name(in, out, sizeof(out));

	assert_int_equal(n, (int)strlen(out));
	return out;
}

static void
test_rule(void **state)
{
	(void)state;
	/* Schema member paths. */
	assert_string_equal(fname("read_mmr_reg.dword_offset"),
			    "read_mmr_reg_dword_offset");
	assert_string_equal(fname("process_apertures[1].gpu_id"),
			    "process_apertures_1_gpu_id");
	assert_string_equal(fname("gpu_id"), "gpu_id");
	assert_string_equal(fname("Size64"), "Size64");
	/* A run of separators is one '_'; none at either end. */
	assert_string_equal(fname("a[ 1 ]..b"), "a_1_b");
	assert_string_equal(fname("[x]"), "x");
	assert_string_equal(fname("..a.."), "a");
	assert_string_equal(fname("a-b c/d"), "a_b_c_d");
	/* '_' in the input stays as it is. */
	assert_string_equal(fname("_x__y_"), "_x__y_");
	assert_string_equal(fname("a._b"), "a__b");
	assert_string_equal(fname("a_.b"), "a_b");
	/* Never a leading digit. */
	assert_string_equal(fname("3d"), "f_3d");
	assert_string_equal(fname("[3].x"), "f_3_x");
	assert_string_equal(fname("0"), "f_0");
	/* Nothing allowed: "field". */
	assert_string_equal(fname(""), "field");
	assert_string_equal(fname(".[]-"), "field");
	/* Bytes outside ASCII are separators, whatever the locale. */
	assert_string_equal(fname("caf\xc3\xa9.x"), "caf_x");
}

static void
test_length_bound(void **state)
{
	char in[200], want[KC_FIELD_NAME_MAX], a[KC_FIELD_NAME_MAX],
	     b[KC_FIELD_NAME_MAX];

	(void)state;
	/* Exactly KC_FIELD_NAME_LEN characters: kept whole. */
	memset(in, 'a', KC_FIELD_NAME_LEN);
	in[KC_FIELD_NAME_LEN] = '\0';
	assert_string_equal(fname(in), in);
	/* Trailing separators do not make it longer. */
	strcat(in, "..]");
	memset(want, 'a', KC_FIELD_NAME_LEN);
	want[KC_FIELD_NAME_LEN] = '\0';
	assert_string_equal(fname(in), want);
	/* One more: the first 54 characters, '_' and the input's hash. */
	memset(in, 'a', KC_FIELD_NAME_LEN + 1);
	in[KC_FIELD_NAME_LEN + 1] = '\0';
	assert_int_equal(kc_field_name(in, a, sizeof(a)), KC_FIELD_NAME_LEN);
	assert_memory_equal(a, in, KC_FIELD_NAME_LEN - 9);
	assert_int_equal(a[KC_FIELD_NAME_LEN - 9], '_');
	assert_int_equal(strspn(a + KC_FIELD_NAME_LEN - 8, "0123456789abcdef"), 8);
	/* A separator that would push it over the bound cuts too. */
	memset(in, 'a', KC_FIELD_NAME_LEN - 1);
	strcpy(in + KC_FIELD_NAME_LEN - 1, ".b");
	assert_int_equal(kc_field_name(in, a, sizeof(a)), KC_FIELD_NAME_LEN);
	assert_int_equal(a[KC_FIELD_NAME_LEN - 9], '_');
	/* Long names with one beginning differ; one input, one name. */
	memset(in, 'x', 150);
	strcpy(in + 150, ".first");
	kc_field_name(in, a, sizeof(a));
	strcpy(in + 150, ".second");
	kc_field_name(in, b, sizeof(b));
	assert_string_not_equal(a, b);
	assert_memory_equal(a, b, KC_FIELD_NAME_LEN - 9);
	kc_field_name(in, a, sizeof(a));
	assert_string_equal(a, b);
	/* The result is itself a valid name: the rule leaves it alone. */
	assert_string_equal(fname(b), b);
}

static void
test_nth(void **state)
{
	char out[KC_FIELD_NAME_MAX], in[KC_FIELD_NAME_MAX];

	(void)state;
	assert_int_equal(kc_field_name_nth("ret", 0, out, sizeof(out)), 3);
	assert_string_equal(out, "ret");
	assert_int_equal(kc_field_name_nth("ret", 1, out, sizeof(out)), 3);
	assert_string_equal(out, "ret");
	assert_int_equal(kc_field_name_nth("ret", 2, out, sizeof(out)), 5);
	assert_string_equal(out, "ret_2");
	kc_field_name_nth("ret", 1000, out, sizeof(out));
	assert_string_equal(out, "ret_1000");
	/* A name at the bound loses its end to the suffix. */
	memset(in, 'a', KC_FIELD_NAME_LEN);
	in[KC_FIELD_NAME_LEN] = '\0';
	assert_int_equal(kc_field_name_nth(in, 12, out, sizeof(out)),
			 KC_FIELD_NAME_LEN);
	assert_memory_equal(out, in, KC_FIELD_NAME_LEN - 3);
	assert_string_equal(out + KC_FIELD_NAME_LEN - 3, "_12");
}

/* taken() for test_unique: the names in a NULL-ended list, and the reserved ones. */
static int
in_list(void *ctx, const char *name)
{
	const char *const *l = ctx;

	if (kc_field_name_reserved(name))
		return 1;
	for (; *l; l++)
		if (!strcmp(*l, name))
			return 1;
	return 0;
}

static int
always(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return 1;
}

static void
test_unique(void **state)
{
	const char *none[] = { NULL };
	const char *taken[] = { "size", "size_2", "size_3", NULL };
	char out[KC_FIELD_NAME_MAX];

	(void)state;
	assert_int_equal(kc_field_name_unique("size", in_list, none, out, sizeof(out)), 4);
	assert_string_equal(out, "size");
	assert_int_equal(kc_field_name_unique("size", in_list, taken, out, sizeof(out)), 6);
	assert_string_equal(out, "size_4");
	/* A reserved name takes its first free candidate, as in both exporters. */
	assert_int_equal(kc_field_name_unique("fd", in_list, none, out, sizeof(out)), 4);
	assert_string_equal(out, "fd_2");
	assert_int_equal(kc_field_name_unique("x", always, NULL, out, sizeof(out)), -1);
	assert_int_equal(kc_field_name_unique("x", in_list, none, out, 8), -1);
}

static void
test_small_buffer(void **state)
{
	char out[KC_FIELD_NAME_MAX - 1];

	(void)state;
	memset(out, 'z', sizeof(out));
	assert_int_equal(kc_field_name("gpu_id", out, sizeof(out)), -1);
	assert_string_equal(out, "");
	memset(out, 'z', sizeof(out));
	assert_int_equal(kc_field_name_nth("gpu_id", 2, out, sizeof(out)), -1);
	assert_string_equal(out, "");
	assert_int_equal(kc_field_name("gpu_id", out, 0), -1);
	assert_int_equal(out[0], '\0');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_length_bound),
		cmocka_unit_test(test_nth),
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
