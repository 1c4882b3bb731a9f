/* SPDX-License-Identifier: MIT */
/*
 * Reading a file a user named (a profile path, an environment variable's
 * value) without trusting what it is: a FIFO, a device or a directory
 * under that name must neither block the reader nor be read as a file.
 */
#ifndef KFDTRACE_COMMON_FILE_H
#define KFDTRACE_COMMON_FILE_H

#include <stddef.h>

/*
 * kc_read_regular() - the whole of @path, which must be a regular file of
 * at most @max bytes. The file is opened without blocking (O_NONBLOCK, so
 * a FIFO with no writer does not wait for one; symbolic links are
 * followed), checked with fstat(), and only then read.
 * @out:	receives a malloc()ed copy with a NUL after the data
 * @len:	receives the data's length
 * @why:	on failure, what is wrong ("a FIFO, not a regular file",
 *		"larger than 16777216 bytes", "No such file or directory")
 *
 * Return: 0; -EINVAL (not a regular file), -EFBIG (larger than @max),
 * -ENOMEM, or open()'s or read()'s errno (-ENOENT: no such file).
 */
int kc_read_regular(const char *path, size_t max, char **out, size_t *len,
		    char *why, size_t whylen);

#endif /* KFDTRACE_COMMON_FILE_H */
