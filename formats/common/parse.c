/* SPDX-License-Identifier: MIT */
/* Number parsing (kfdtrace/common/parse.h). */
#include "kfdtrace/common/parse.h"

bool
kc_parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

size_t
kc_digits(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}
