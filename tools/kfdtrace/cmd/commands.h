/* SPDX-License-Identifier: MIT */
/*
 * The kfdtrace subcommands.
 *
 * Each command lives in its own cmd_<name>.c and provides two functions:
 *
 *   int kfdtrace_cmd_<name>(int argc, char **argv);
 *	argv[0] is "kfdtrace <name>" (the messages' prefix, which getopt
 *	prints); the rest are its arguments. Returns the process exit
 *	status (KFDTRACE_EXIT_*).
 *   void kfdtrace_help_<name>(FILE *out);
 *	Prints the command's usage and options.
 *
 * To add a command: write cmd/cmd_<name>.c, add one line to the table in
 * main.c and one source to cmd/meson.build. The declarations below already
 * cover the planned commands.
 */
#ifndef KFDTRACE_COMMANDS_H
#define KFDTRACE_COMMANDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cli.h"	/* enum kfdtrace_exit */

struct kfdtrace_cmd {
	const char *name;
	const char *summary;		/* one line for "kfdtrace --help" */
	int (*run)(int argc, char **argv);
	void (*help)(FILE *out);
};

/*
 * Each command has a pair: kfdtrace_cmd_NAME() runs it on its arguments
 * (argv[0] is "kfdtrace NAME") and returns the exit status (an enum
 * kfdtrace_exit; record and sim pass on the status of the program they
 * ran), and
 * kfdtrace_help_NAME() prints its usage text.
 */

/* tools/kfdtrace/cmd/cmd_info.c */
int kfdtrace_cmd_info(int argc, char **argv);
void kfdtrace_help_info(FILE *out);

/* tools/kfdtrace/cmd/cmd_dump.c */
int kfdtrace_cmd_dump(int argc, char **argv);
void kfdtrace_help_dump(FILE *out);

/* tools/kfdtrace/cmd/cmd_stats.c */
int kfdtrace_cmd_stats(int argc, char **argv);
void kfdtrace_help_stats(FILE *out);

/* tools/kfdtrace/cmd/cmd_report.c */
int kfdtrace_cmd_report(int argc, char **argv);
void kfdtrace_help_report(FILE *out);

/* tools/kfdtrace/cmd/cmd_diff.c */
int kfdtrace_cmd_diff(int argc, char **argv);
void kfdtrace_help_diff(FILE *out);

/* tools/kfdtrace/cmd/cmd_sim.c */
int kfdtrace_cmd_sim(int argc, char **argv);
void kfdtrace_help_sim(FILE *out);

/* tools/kfdtrace/cmd/cmd_record.c */
int kfdtrace_cmd_record(int argc, char **argv);
void kfdtrace_help_record(FILE *out);

/* tools/kfdtrace/cmd/cmd_replay.c */
int kfdtrace_cmd_replay(int argc, char **argv);
void kfdtrace_help_replay(FILE *out);

/* tools/kfdtrace/cmd/cmd_export.c: one export format per option (--ctf, ...) */
int kfdtrace_cmd_export(int argc, char **argv);
void kfdtrace_help_export(FILE *out);

/* tools/kfdtrace/cmd/cmd_reduce.c */
int kfdtrace_cmd_reduce(int argc, char **argv);
void kfdtrace_help_reduce(FILE *out);

/* tools/kfdtrace/cmd/cmd_emit.c */
int kfdtrace_cmd_emit(int argc, char **argv);
void kfdtrace_help_emit(FILE *out);

#endif /* KFDTRACE_COMMANDS_H */
