/* SPDX-License-Identifier: MIT */
/* Strict JSON validation (json_check.h). */
#include <stdbool.h>
#include <stdint.h>

#include "json_check.h"

/* Nesting deeper than this is refused (the decoder nests a few levels). */
#define JSON_MAX_DEPTH	64

struct jc {
	const unsigned char *p;
	const unsigned char *end;
};

static void
ws(struct jc *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool
lit(struct jc *j, const char *w)
{
	for (; *w; w++, j->p++)
		if (j->p >= j->end || *j->p != (unsigned char)*w)
			return false;
	return true;
}

/* One UTF-8 sequence (RFC 3629: no overlongs, surrogates or > U+10FFFF). */
static bool
utf8(struct jc *j)
{
	unsigned char c = *j->p;
	unsigned int n, cp;

	if (c < 0x80) {
		j->p++;
		return true;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 1;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		cp = c & 0x07;
	} else {
		return false;
	}
	if (j->end - j->p <= (long)n)
		return false;
	for (unsigned int i = 1; i <= n; i++) {
		if ((j->p[i] & 0xc0) != 0x80)
			return false;
		cp = cp << 6 | (j->p[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return false;
	j->p += n + 1;
	return true;
}

static bool
string(struct jc *j)
{
	if (j->p >= j->end || *j->p != '"')
		return false;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p < 0x20)
			return false;
		if (*j->p == '\\') {
			j->p++;
			if (j->p >= j->end)
				return false;
			switch (*j->p) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
			case 't':
				j->p++;
				break;
			case 'u':
				j->p++;
				for (int i = 0; i < 4; i++, j->p++) {
					unsigned char h = j->p < j->end ? *j->p : 0;

					if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') ||
					      (h >= 'A' && h <= 'F')))
						return false;
				}
				break;
			default:
				return false;
			}
			continue;
		}
		if (!utf8(j))
			return false;
	}
	if (j->p >= j->end)
		return false;
	j->p++;
	return true;
}

static bool
digits(struct jc *j)
{
	const unsigned char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static bool
number(struct jc *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!digits(j))
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!digits(j))
			return false;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!digits(j))
			return false;
	}
	return true;
}

static bool
value(struct jc *j, int depth)
{
	bool first = true;

	if (depth > JSON_MAX_DEPTH)
		return false;
	ws(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '{':
		j->p++;
		ws(j);
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return true;
		}
		for (;;) {
			if (!first) {
				ws(j);
				if (j->p >= j->end)
					return false;
				if (*j->p == '}') {
					j->p++;
					return true;
				}
				if (*j->p++ != ',')
					return false;
			}
			first = false;
			ws(j);
			if (!string(j))
				return false;
			ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return false;
			if (!value(j, depth + 1))
				return false;
		}
	case '[':
		j->p++;
		ws(j);
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return true;
		}
		for (;;) {
			if (!first) {
				ws(j);
				if (j->p >= j->end)
					return false;
				if (*j->p == ']') {
					j->p++;
					return true;
				}
				if (*j->p++ != ',')
					return false;
			}
			first = false;
			if (!value(j, depth + 1))
				return false;
		}
	case '"':
		return string(j);
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	default:
		return number(j);
	}
}

const char *
json_check(const char *s, size_t n)
{
	struct jc j = { (const unsigned char *)s, (const unsigned char *)s + n };

	if (!value(&j, 0))
		return (const char *)j.p;
	ws(&j);
	return j.p == j.end ? NULL : (const char *)j.p;
}
