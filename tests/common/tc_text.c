/* SPDX-License-Identifier: MIT */
/*
 * Reading files and output whole, and counting in text (tc_text.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_text.h"

char *
tc_read_fd(int fd, size_t *len)
{
	size_t n = 0, cap = 65536;
	char *buf = malloc(cap);
	ssize_t got;

	if (!buf)
		return NULL;
	for (;;) {
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (cap - n < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *
tc_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *s;

	if (fd < 0)
		return NULL;
	s = tc_read_fd(fd, len);
	close(fd);
	return s;
}

size_t
tc_count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

size_t
tc_count_str(const char *s, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	while ((s = strstr(s, needle))) {
		n++;
		s += len;
	}
	return n;
}
