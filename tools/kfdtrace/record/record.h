/* SPDX-License-Identifier: MIT */
/*
 * What the parts of kfdtrace record share (private to tools/kfdtrace):
 * cmd_record.c runs the command, record_files.c knows the run's trace
 * files, record_summary.c reads them back for the summary.
 */
#ifndef KFDTRACE_RECORD_H
#define KFDTRACE_RECORD_H

/* record_summary.c */

/*
 * Read the trace at @path back and print what it holds on stderr (@verbose:
 * the most frequent ioctls too); @no_end says why a trace lacks its END
 * record.
 */
void record_summarize(const char *path, int verbose, const char *no_end);
/* record_for_each_run_file() callback: summarize @path unless it is the
 * first trace (@ctx, summarized already). Return: 0. */
int record_summarize_other(const char *path, void *ctx);

/* record_files.c */

/* Whether @output names a directory (ends in '/'). */
int record_is_dir_output(const char *output);
/*
 * Call @fn (may be NULL) for each trace of the run that writes to
 * @output: in a directory output every *.kfdtrace in it, else FILE itself
 * and the children's and exec'd images' names beside it. Return: the
 * number of files found, or -1 when @fn failed.
 */
int record_for_each_run_file(const char *output,
			     int (*fn)(const char *path, void *ctx),
			     void *ctx);
/*
 * Make the output ready before the program runs: create a directory
 * output; refuse a run's files that exist, or with @force remove them.
 * Return: 0, or -1 with the reason printed.
 */
int record_prepare_output(const char *output, int force);

#endif
