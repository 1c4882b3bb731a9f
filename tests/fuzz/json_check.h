/* SPDX-License-Identifier: MIT */
/*
 * A strict JSON (RFC 8259) validator, the decode fuzz target's oracle:
 * kfd_decode_json() promises valid JSON for any record.
 */
#ifndef KT_FUZZ_JSON_CHECK_H
#define KT_FUZZ_JSON_CHECK_H

#include <stddef.h>

/*
 * json_check() - is @s (@n bytes) exactly one JSON value, with valid
 * UTF-8 and no unescaped control characters in its strings?
 * Return: NULL if so, else the offending position.
 */
const char *json_check(const char *s, size_t n);

#endif /* KT_FUZZ_JSON_CHECK_H */
