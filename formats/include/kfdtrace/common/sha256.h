/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4): the content hash that names a memory blob in a
 * trace (docs/trace-format.md 5.4.15), so that a blob is stored once.
 * Plain C, no tables beyond the round constants; libc only.
 */
#ifndef KFDTRACE_COMMON_SHA256_H
#define KFDTRACE_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define KC_SHA256_LEN 32

/*
 * kc_sha256() - the SHA-256 digest of @len bytes at @data into @out
 * (KC_SHA256_LEN bytes). @data may be NULL when @len is 0.
 */
void kc_sha256(const void *data, size_t len, uint8_t out[KC_SHA256_LEN]);

#endif /* KFDTRACE_COMMON_SHA256_H */
