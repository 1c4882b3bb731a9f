/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (formats/common/sha256.c) against the FIPS 180-4 examples and
 * lengths around the padding's block boundaries (checked against
 * sha256sum when the test was written).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kfdtrace/common/sha256.h"

static void
check(const void *data, size_t len, const char *want)
{
	uint8_t out[KC_SHA256_LEN];
	char hex[2 * KC_SHA256_LEN + 1];

	kc_sha256(data, len, out);
	for (unsigned int i = 0; i < KC_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
	assert_string_equal(hex, want);
}

static void
test_vectors(void **state)
{
	(void)state;
	check(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void
test_lengths(void **state)
{
	static uint8_t a[1000];

	(void)state;
	memset(a, 'a', sizeof(a));
	check(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	check(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
	check(a, 1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_lengths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
