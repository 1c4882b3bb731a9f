/* SPDX-License-Identifier: MIT */
/*
 * A strict JSON (RFC 8259) syntax checker for tests: the decoder's JSON
 * must parse for every input, hostile ones included. Strings must be
 * valid UTF-8 without raw control characters.
 */
#ifndef KFDTRACE_JSON_CHECK_H
#define KFDTRACE_JSON_CHECK_H

#include <string.h>

struct jc {
	const unsigned char *p;
	int depth;
};

static int jc_value(struct jc *j);

static inline void
jc_ws(struct jc *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static inline int
jc_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static inline int
jc_string(struct jc *j)
{
	if (*j->p++ != '"')
		return 0;
	for (;;) {
		unsigned char c = *j->p;

		if (c == '"') {
			j->p++;
			return 1;
		}
		if (c < 0x20)
			return 0;
		if (c == '\\') {
			c = *++j->p;
			if (c == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!jc_hex(j->p[i]))
						return 0;
				j->p += 5;
				continue;
			}
			if (!strchr("\"\\/bfnrt", c) || !c)
				return 0;
			j->p++;
			continue;
		}
		if (c < 0x80) {
			j->p++;
			continue;
		}
		/* UTF-8: lead byte, then continuation bytes. */
		{
			int n = c >= 0xf0 && c <= 0xf4 ? 3 :
				c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
			int i;

			if (n < 0 || c > 0xf4)
				return 0;
			for (i = 1; i <= n; i++)
				if ((j->p[i] & 0xc0) != 0x80)
					return 0;
			j->p += n + 1;
		}
	}
}

static inline int
jc_number(struct jc *j)
{
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0') {
		j->p++;
	} else if (*j->p >= '1' && *j->p <= '9') {
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	} else {
		return 0;
	}
	if (*j->p == '.') {
		j->p++;
		if (!(*j->p >= '0' && *j->p <= '9'))
			return 0;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!(*j->p >= '0' && *j->p <= '9'))
			return 0;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return 1;
}

static inline int
jc_container(struct jc *j, char close, int keyed)
{
	j->p++;
	if (++j->depth > 64)
		return 0;
	jc_ws(j);
	if (*j->p == (unsigned char)close) {
		j->p++;
		j->depth--;
		return 1;
	}
	for (;;) {
		jc_ws(j);
		if (keyed) {
			if (!jc_string(j))
				return 0;
			jc_ws(j);
			if (*j->p++ != ':')
				return 0;
		}
		if (!jc_value(j))
			return 0;
		jc_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p++ != (unsigned char)close)
			return 0;
		j->depth--;
		return 1;
	}
}

static int
jc_value(struct jc *j)
{
	jc_ws(j);
	switch (*j->p) {
	case '{':
		return jc_container(j, '}', 1);
	case '[':
		return jc_container(j, ']', 0);
	case '"':
		return jc_string(j);
	case 't':
		return strncmp((const char *)j->p, "true", 4) == 0 ?
		       (j->p += 4, 1) : 0;
	case 'f':
		return strncmp((const char *)j->p, "false", 5) == 0 ?
		       (j->p += 5, 1) : 0;
	case 'n':
		return strncmp((const char *)j->p, "null", 4) == 0 ?
		       (j->p += 4, 1) : 0;
	default:
		return jc_number(j);
	}
}

/* json_valid() - 1 if @s is exactly one JSON value (with whitespace). */
static inline int
json_valid(const char *s)
{
	struct jc j = { (const unsigned char *)s, 0 };

	if (!jc_value(&j))
		return 0;
	jc_ws(&j);
	return *j.p == '\0';
}

#endif /* KFDTRACE_JSON_CHECK_H */
