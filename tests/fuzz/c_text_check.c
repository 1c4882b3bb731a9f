/* SPDX-License-Identifier: MIT */
/* The emit_c fuzz target's oracle (c_text_check.h). */
#include <stdlib.h>

#include "c_text_check.h"

enum lex { CODE, COMMENT, LINE_COMMENT, STRING, CHAR };

const char *
c_text_check(const char *s, size_t n, char **skel, size_t *at)
{
	enum lex st = CODE;
	char *k = NULL;
	size_t i, kn = 0;
	const char *bad = NULL;

	if (skel && !(k = malloc(n + 1)))
		return "out of memory";
	for (i = 0; i < n && !bad; i++) {
		unsigned char c = (unsigned char)s[i], next = i + 1 < n ? s[i + 1] : 0;

		if (!(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f))) {
			bad = "a raw byte outside printable ASCII";
			break;
		}
		if (c == '?' && next == '?') {
			bad = "\"?\?\" (a trigraph)";
			break;
		}
		switch (st) {
		case CODE:
			if (c == '/' && next == '*') {
				st = COMMENT;
				i++;
			} else if (c == '/' && next == '/') {
				st = LINE_COMMENT;
				i++;
			} else {
				if (c == '"')
					st = STRING;
				else if (c == '\'')
					st = CHAR;
				if (k)
					k[kn++] = (char)c;
			}
			break;
		case COMMENT:
			if (c == '/' && next == '*')
				bad = "a comment opens inside a comment";
			else if (c == '*' && next == '/') {
				st = CODE;
				i++;
				if (k)
					k[kn++] = ' ';
			}
			break;
		case LINE_COMMENT:
			if (c == '\n') {
				st = CODE;
				if (k)
					k[kn++] = '\n';
			}
			break;
		case STRING:
		case CHAR:
			if (c == '\n')
				bad = "a literal does not end on its line";
			else if (c == '\\' && next == '\n')
				bad = "a line splice in a literal";
			else if (c == '\\')
				i++;
			else if (c == (st == STRING ? '"' : '\'')) {
				if (k)
					k[kn++] = (char)c;
				st = CODE;
			}
			break;
		}
	}
	if (!bad && st == COMMENT)
		bad = "a comment that never ends";
	if (!bad && (st == STRING || st == CHAR))
		bad = "a literal that never ends";
	*at = i;
	if (k) {
		k[kn] = '\0';
		if (bad) {
			free(k);
			k = NULL;
		}
		*skel = k;
	}
	return bad;
}
