/* SPDX-License-Identifier: MIT */
/* Reading a user-named regular file (kfdtrace/common/file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdtrace/common/file.h>

/* What a file that is not a regular one is, for the message. */
static const char *
kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

static int
fail(int err, char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
fail(int err, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

int
kc_read_regular(const char *path, size_t max, char **out, size_t *len,
		char *why, size_t whylen)
{
	struct stat st;
	size_t n = 0;
	char *buf;
	int fd, e;

	*out = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return fail(-e, why, whylen, "%s", strerror(e));
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return fail(-e, why, whylen, "%s", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(-EINVAL, why, whylen, "%s, not a regular file",
			    kind(st.st_mode));
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return fail(-EFBIG, why, whylen, "larger than %zu bytes", max);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return fail(-ENOMEM, why, whylen, "out of memory");
	}
	/* Up to the size fstat() saw: a file that grows meanwhile is cut
	 * there, one that shrinks ends early. */
	while (n < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			close(fd);
			free(buf);
			return fail(-e, why, whylen, "%s", strerror(e));
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
