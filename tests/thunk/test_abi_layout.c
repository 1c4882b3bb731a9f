/* SPDX-License-Identifier: MIT */
/*
 * Our hsakmttypes.h against the one ROCr 5.2.3 was built with
 * (/usr/include/hsakmttypes.h from Debian's libhsakmt-dev): every type's
 * size and alignment, every member's offset and size, every listed
 * constant's value must be the same (abi_list.h lists them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "abi_probe.h"

static void
test_tables_equal(void **state)
{
	unsigned int i, n = 0, bad = 0;

	(void)state;
	for (i = 0; abi_ours[i].type; i++) {
		const struct abi_row *o = &abi_ours[i], *d = &abi_debian[i];

		/* Both tables come from the same list, in the same order. */
		assert_non_null(d->type);
		if (o->a != d->a || o->b != d->b) {
			printf("%s%s%s: ours %llu/%llu, Debian's %llu/%llu\n", o->type,
			       o->kind == 1 ? "." : " ", o->member, o->a, o->b, d->a, d->b);
			bad++;
		}
		n++;
	}
	assert_null(abi_debian[i].type);
	/* The list is long enough to mean something. */
	assert_true(n > 250);
	assert_int_equal(bad, 0);
}

static void
test_key_sizes(void **state)
{
	unsigned int i;

	(void)state;
	/* The sizes ROCr 5.2.3 depends on, spelled out. */
	for (i = 0; abi_ours[i].type; i++) {
		const struct abi_row *o = &abi_ours[i];

		if (o->kind != 0)
			continue;
		if (!__builtin_strcmp(o->type, "HsaNodeProperties"))
			assert_int_equal(o->a, 356);
		else if (!__builtin_strcmp(o->type, "HsaIoLinkProperties"))
			assert_int_equal(o->a, 48);
		else if (!__builtin_strcmp(o->type, "HsaPointerInfo"))
			assert_int_equal(o->a, 68);
		else if (!__builtin_strcmp(o->type, "HsaCacheProperties"))
			assert_int_equal(o->a, 1056);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_equal),
		cmocka_unit_test(test_key_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
