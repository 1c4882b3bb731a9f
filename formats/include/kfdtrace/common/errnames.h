/* SPDX-License-Identifier: MIT */
/*
 * errno names, both ways: the one table every layer uses (decoders, the
 * tracer's and kfdsim's fault specs, the CLI). libc's names for the user
 * errnos, and the kernel-internal ones (512..530) that drivers leak and
 * libc does not know.
 */
#ifndef KFDTRACE_COMMON_ERRNAMES_H
#define KFDTRACE_COMMON_ERRNAMES_H

#include <stddef.h>

/*
 * kc_errno_name() - the symbolic name of @err ("ENOMEM", "ENOTSUPP").
 *
 * Return: a static string, or NULL for 0, a negative value or a number no
 * table names.
 */
const char *kc_errno_name(int err);

/*
 * kc_errno_desc() - a one-line description of @err (libc's for user
 * errnos, our own for the kernel-internal ones).
 *
 * Return: a static string, or NULL where kc_errno_name() gives NULL.
 */
const char *kc_errno_desc(int err);

/*
 * kc_errno_parse() - an errno from the @len chars at @s: a name as
 * kc_errno_name() gives it (any case), or a decimal number 1..4095.
 *
 * Return: the positive value, or -1 when @s is neither.
 */
int kc_errno_parse(const char *s, size_t len);

#endif /* KFDTRACE_COMMON_ERRNAMES_H */
