/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine's profile as sim, record and replay take it: one
 * check, so that each refuses a bad one the same way before anything runs.
 */
#ifndef KFDTRACE_PROFILE_H
#define KFDTRACE_PROFILE_H

/*
 * kfdtrace_profile_check() - load @profile (a builtin name or a profile
 * file) to see that it is usable. A name without a '/' that is neither a
 * builtin nor a file is answered with the builtin names (and the nearest,
 * when it looks a typo), not with "No such file or directory".
 * @opt:	the option as the user gave it ("--profile"), for messages
 *
 * Return: 0, or -1 after printing why.
 */
int kfdtrace_profile_check(const char *opt, const char *profile);

#endif /* KFDTRACE_PROFILE_H */
