/* SPDX-License-Identifier: MIT */
/*
 * Text a user or a file supplied, made safe to print: escaped so that it
 * can never move the cursor, change colours or forge a line on a terminal.
 */
#ifndef KFDTRACE_COMMON_TEXT_H
#define KFDTRACE_COMMON_TEXT_H

#include <stddef.h>

/*
 * kc_text_escape() - the @n bytes at @s with C escapes (\", \\, \n, \t, \r,
 * and \xXX for every other byte outside printable ASCII), no quotes, into
 * @buf of @size bytes, NUL-terminated; cut short when it does not fit,
 * never inside an escape.
 *
 * Return: how many bytes of @s @buf holds (less than @n when cut).
 */
size_t kc_text_escape(char *buf, size_t size, const char *s, size_t n);

#endif /* KFDTRACE_COMMON_TEXT_H */
