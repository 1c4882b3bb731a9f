/* SPDX-License-Identifier: MIT */
/*
 * The names of a run's trace files (trace.h, docs/tracer.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kfdtrace/trace.h"

/* Append to @buf (holding *@n bytes); Return: 0, or -1 when it is full. */
static int
name_add(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= size - *n)
		return -1;
	*n += (size_t)w;
	return 0;
}

int
kt_run_file_name(char *buf, size_t size, const char *out, int pid,
		 unsigned int exec_gen, unsigned int dup)
{
	static const char ext[] = ".kfdtrace";
	size_t len = strlen(out), n = 0;
	int in_dir = len > 0 && out[len - 1] == '/';

	if (size == 0)
		return -1;
	if (!in_dir && pid <= 0 && !exec_gen && !dup)
		return name_add(buf, size, &n, "%s", out);
	if (!in_dir && len > sizeof(ext) - 1 &&
	    strcmp(out + len - (sizeof(ext) - 1), ext) == 0)
		len -= sizeof(ext) - 1;
	if (name_add(buf, size, &n, "%.*s", (int)len, out) ||
	    ((in_dir || pid > 0) &&
	     name_add(buf, size, &n, in_dir ? "%d" : ".%d", pid)) ||
	    (exec_gen && name_add(buf, size, &n, ".exec%u", exec_gen)) ||
	    (dup && name_add(buf, size, &n, ".%u", dup)))
		return -1;
	return name_add(buf, size, &n, "%s", ext);
}
