/* SPDX-License-Identifier: MIT */
/*
 * Reading files and output whole, and counting in text, for tests.
 */
#ifndef KFDTRACE_TC_TEXT_H
#define KFDTRACE_TC_TEXT_H

#include <stddef.h>

/*
 * tc_read_fd() - everything from @fd's current offset to its end.
 * @len:	NULL, or set to the byte count (the data may hold NULs)
 *
 * Return: the bytes with a NUL after them (free() it), or NULL when
 * memory ran out or a read failed.
 */
char *tc_read_fd(int fd, size_t *len);

/*
 * tc_read_file() - a whole file, as tc_read_fd().
 *
 * Return: as tc_read_fd(); also NULL when @path cannot be opened.
 */
char *tc_read_file(const char *path, size_t *len);

/* tc_count_lines() - the newlines in @s (0 for NULL). */
size_t tc_count_lines(const char *s);

/* tc_count_str() - non-overlapping occurrences of @needle in @s. */
size_t tc_count_str(const char *s, const char *needle);

#endif /* KFDTRACE_TC_TEXT_H */
