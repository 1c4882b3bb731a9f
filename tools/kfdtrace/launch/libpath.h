/* SPDX-License-Identifier: MIT */
/*
 * Where kfdtrace finds the libraries it puts into a command's environment
 * (libkfdsim.so, libkfdtrace-capture.so, our libhsakmt.so.1), one rule for
 * all of them, and the choice of libhsakmt a command runs on (--thunk).
 */
#ifndef KFDTRACE_LIBPATH_H
#define KFDTRACE_LIBPATH_H

#include <stddef.h>

struct kfdtrace_lib {
	const char *name;	/* the file: "libkfdsim.so" */
	const char *env;	/* the variable that names its path, or NULL */
	const char *build_dir;	/* its directory in the build tree, relative
				 * to tools/kfdtrace/ */
	const char *install_sub;/* its directory under libdir ("" for libdir) */
};

extern const struct kfdtrace_lib kfdtrace_lib_sim;	/* libkfdsim.so */
extern const struct kfdtrace_lib kfdtrace_lib_capture;	/* libkfdtrace-capture.so */
extern const struct kfdtrace_lib kfdtrace_lib_thunk;	/* our libhsakmt.so.1 */

/*
 * kfdtrace_lib_find() - the path of @lib, the first that exists of:
 *   1. the file @lib->env names, when that variable is set;
 *   2. the build tree: @lib->build_dir relative to the running kfdtrace;
 *   3. an installed tree wherever it is now (a DESTDIR, a moved prefix):
 *      <libdir>/<install_sub> relative to the directory holding the
 *      <bindir> of the running kfdtrace;
 *   4. the configured <prefix>/<libdir>/<install_sub>.
 * @out:	the resolved path (realpath), @size bytes
 * @report:	print why when nothing is found
 *
 * Return: 0, or -1 (a variable that names an unreadable file, or none of
 * the places holds it).
 */
int kfdtrace_lib_find(const struct kfdtrace_lib *lib, char *out, size_t size,
		      int report);

/* Which libhsakmt a command runs on (--thunk). */
enum kfdtrace_thunk {
	KFDTRACE_THUNK_DEFAULT,	/* LD_LIBRARY_PATH as it is: the system's,
				 * unless the caller's path says otherwise */
	KFDTRACE_THUNK_AMD,	/* ours taken out of LD_LIBRARY_PATH */
	KFDTRACE_THUNK_OURS,	/* ours first in LD_LIBRARY_PATH */
};

/*
 * kfdtrace_thunk_parse() - a --thunk value: "ours" or "amd".
 *
 * Return: 0, or -1 after printing why (@out untouched).
 */
int kfdtrace_thunk_parse(const char *s, enum kfdtrace_thunk *out);

/*
 * kfdtrace_thunk_setenv() - set LD_LIBRARY_PATH in this process's
 * environment, which the command inherits, for @thunk: ours puts the
 * directory of our libhsakmt.so.1 (kfdtrace_lib_thunk) first; amd removes
 * that directory from it; the default leaves it alone.
 *
 * Return: 0, or -1 after printing why (ours not found, or in a directory
 * whose path LD_LIBRARY_PATH cannot hold).
 */
int kfdtrace_thunk_setenv(enum kfdtrace_thunk thunk);

#endif /* KFDTRACE_LIBPATH_H */
