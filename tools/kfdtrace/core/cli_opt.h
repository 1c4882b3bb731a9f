/* SPDX-License-Identifier: MIT */
/*
 * Command-line habits every command shares: one message for a bad option,
 * with the nearest known name ("did you mean"), and "-" as standard input
 * for the commands that read traces.
 */
#ifndef KFDTRACE_CLI_OPT_H
#define KFDTRACE_CLI_OPT_H

#include <getopt.h>
#include <stddef.h>

/*
 * cli_nearest() - the name in @names (@n of them) nearest to @word's first
 * @len characters by edit distance, when it is near enough to be a typo
 * (at most 2 edits, and fewer than the word's length).
 *
 * Return: the name, or NULL.
 */
const char *cli_nearest(const char *word, size_t len,
			const char *const *names, size_t n);

/*
 * cli_opt_error() - after getopt_long() returned '?' with opterr 0, print
 * what was wrong with the option: unknown (with the nearest long option,
 * "--" and all), ambiguous, missing or unwanted value. One line, with the
 * command's prefix (cli_prefix); the caller says where help is.
 * @argv, @optstring, @longopts:	what getopt_long() was given
 */
void cli_opt_error(char **argv, const char *optstring,
		   const struct option *longopts);

/*
 * cli_opt_unknown() - for a command that parses its options by hand:
 * print "unknown option 'ARG'", and the nearest of @names (long options
 * with their "--", NULL-terminated), with the command's prefix.
 */
void cli_opt_unknown(const char *arg, const char *const *names);

/*
 * cli_stdin_args() - make every "-" among the trace arguments @paths (@n
 * of them) a path that names standard input's contents, so that a command
 * can open it by name, more than once, and map it. Standard input that
 * is a regular file is named as it is; a pipe is copied, up to
 * CLI_STDIN_MAX bytes (KFDTRACE_STDIN_MAX overrides it), into an unlinked
 * temporary file in $TMPDIR (default /tmp), gone when the command ends.
 * A terminal, or "-" given twice, is refused. Messages name it "-"
 * (cli_name()), in a kfdtrace this one runs again too (replay --sim: the
 * copy's path passes in KFDTRACE_STDIN_COPY, with the descriptor).
 *
 * Return: 0, or -1 after printing why.
 */
int cli_stdin_args(char **paths, size_t n);

/* The most cli_stdin_args() copies from a pipe: 4 GiB. */
#define CLI_STDIN_MAX ((unsigned long long)4 << 30)

/*
 * cli_name() - @path as messages name it: "-" for what cli_stdin_args()
 * made of standard input, else @path.
 */
const char *cli_name(const char *path);

#endif /* KFDTRACE_CLI_OPT_H */
