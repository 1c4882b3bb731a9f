/* SPDX-License-Identifier: MIT */
/* Field names for the exporters (kfdtrace/common/field_name.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/common/field_name.h>

/* Characters kept as they are; locale-independent, unlike isalnum(). */
static int
allowed(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static uint32_t
fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

int
kc_field_name(const char *in, char *out, size_t size)
{
	/* The whole name before the length bound: room for every input char. */
	char full[KC_FIELD_NAME_LEN + 4];
	size_t n = 0;
	int sep = 0, cut = 0;
	const char *p;

	if (size < KC_FIELD_NAME_MAX) {
		if (size)
			*out = '\0';
		return -1;
	}
	for (p = in; *p && !allowed(*p); p++)
		;
	if (*p >= '0' && *p <= '9') {
		full[n++] = 'f';
		full[n++] = '_';
	}
	for (; *p; p++) {
		if (!allowed(*p)) {
			sep = 1;
			continue;
		}
		if (n + 2 > KC_FIELD_NAME_LEN + 1) {
			cut = 1;
			break;
		}
		if (sep && full[n - 1] != '_')
			full[n++] = '_';
		sep = 0;
		full[n++] = *p;
	}
	full[n] = '\0';
	if (!n)
		return snprintf(out, size, "field");
	if (cut || n > KC_FIELD_NAME_LEN)
		return snprintf(out, size, "%.*s_%08x", KC_FIELD_NAME_LEN - 9,
				full, fnv1a(in));
	memcpy(out, full, n + 1);
	return (int)n;
}

int
kc_field_name_nth(const char *name, unsigned int n, char *out, size_t size)
{
	char suffix[16];
	int len;

	if (size < KC_FIELD_NAME_MAX) {
		if (size)
			*out = '\0';
		return -1;
	}
	if (n < 2)
		return snprintf(out, size, "%.*s", KC_FIELD_NAME_LEN, name);
	len = snprintf(suffix, sizeof(suffix), "_%u", n);
	return snprintf(out, size, "%.*s%s", KC_FIELD_NAME_LEN - len, name,
			suffix);
}

int
kc_field_name_unique(const char *name,
		     int (*taken)(void *ctx, const char *candidate),
		     void *ctx, char *out, size_t size)
{
	for (unsigned int n = 1; n <= KC_FIELD_NAME_TRIES; n++) {
		int len = kc_field_name_nth(name, n, out, size);

		if (len < 0)
			return -1;
		if (!taken(ctx, out))
			return len;
	}
	return -1;
}

int
kc_field_name_reserved(const char *name)
{
	static const char *const call[] = {
		"fd", "request", "ret", "err", "dur_ns",
	};
	size_t i;

	for (i = 0; i < sizeof(call) / sizeof(call[0]); i++)
		if (!strcmp(name, call[i]))
			return 1;
	return 0;
}
