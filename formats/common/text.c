/* SPDX-License-Identifier: MIT */
/* Escaping text for a terminal (kfdtrace/common/text.h). */
#include <string.h>

#include <kfdtrace/common/text.h>

size_t
kc_text_escape(char *buf, size_t size, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	if (!size)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[4];
		size_t l = 2;

		e[0] = '\\';
		switch (c) {
		case '"':
		case '\\':
			e[1] = (char)c;
			break;
		case '\n':
			e[1] = 'n';
			break;
		case '\t':
			e[1] = 't';
			break;
		case '\r':
			e[1] = 'r';
			break;
		default:
			if (c >= 0x20 && c < 0x7f) {
				e[0] = (char)c;
				l = 1;
			} else {
				e[1] = 'x';
				e[2] = hex[c >> 4];
				e[3] = hex[c & 0xf];
				l = 4;
			}
			break;
		}
		if (o + l > size - 1)
			break;
		memcpy(buf + o, e, l);
		o += l;
	}
	buf[o] = '\0';
	return i;
}
