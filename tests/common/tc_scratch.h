/* SPDX-License-Identifier: MIT */
/*
 * Scratch directories of tests: paths in them, and removing them at the
 * end unless asked to keep the files for a look by hand.
 */
#ifndef KFDTRACE_TC_SCRATCH_H
#define KFDTRACE_TC_SCRATCH_H

/*
 * tc_scratch_path() - "@dir/@name" in a static buffer; the last eight
 * results stay valid, so a call may take several paths at once.
 */
char *tc_scratch_path(const char *dir, const char *name);

/*
 * tc_scratch_remove() - remove @dir and everything below it, unless the
 * environment variable @keep_env (may be NULL) is set: then say on stderr
 * where the files are.
 *
 * Return: 0, or -1 when something could not be removed.
 */
int tc_scratch_remove(const char *dir, const char *keep_env);

#endif /* KFDTRACE_TC_SCRATCH_H */
