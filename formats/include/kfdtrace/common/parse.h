/* SPDX-License-Identifier: MIT */
/*
 * Number parsing for the text this project reads from files it does not
 * trust (traces, sysfs snapshots, fault specs): bounded by a length, no
 * sign, no spaces, no saturation.
 */
#ifndef KFDTRACE_COMMON_PARSE_H
#define KFDTRACE_COMMON_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * kc_parse_u64() - the decimal number that is exactly the @len chars at @s.
 *
 * Return: true with *@out set; false (and *@out untouched) when @len is 0,
 * a char is not a digit or the value exceeds UINT64_MAX.
 */
bool kc_parse_u64(const char *s, size_t len, uint64_t *out);

/* kc_digits() - how many decimal digits begin @s (at most @len). */
size_t kc_digits(const char *s, size_t len);

#endif /* KFDTRACE_COMMON_PARSE_H */
