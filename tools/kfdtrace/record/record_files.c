/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace record, the run's files: which names beside FILE (or in DIR/)
 * are this run's traces, and making the output ready before the program
 * runs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cli.h"
#include "record/record.h"

/*
 * Skip ".<word><digits>" at @s (@word may be empty).
 *
 * Return: what follows it, or @s when it is not there.
 */
static const char *
skip_name_part(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	/* Each test reads only within the string: s[1 + n] follows @word. */
	if (s[0] != '.' || strncmp(s + 1, word, n) ||
	    !isdigit((unsigned char)s[1 + n]))
		return s;
	for (p = s + 1 + n; isdigit((unsigned char)*p); p++)
		;
	return p;
}

/*
 * Whether STEM@suffix is a name the capture library gives a trace of the
 * run (docs/tracer.md): ".<pid>", ".exec<N>" or ".<pid>.exec<N>", each
 * maybe followed by the ".<i>" taken when the name existed, then
 * ".kfdtrace". Anything else that starts with STEM. (notes, logs, the
 * root's own FILE) is not a child's trace.
 */
static int
is_child_trace_suffix(const char *suffix)
{
	const char *p = skip_name_part(suffix, "");

	p = skip_name_part(p, "exec");
	p = skip_name_part(p, "");
	return p != suffix && strcmp(p, ".kfdtrace") == 0;
}

int
record_is_dir_output(const char *output)
{
	size_t len = strlen(output);

	return len > 0 && output[len - 1] == '/';
}

/*
 * Call @fn for each trace of the run that writes to @output: in a
 * directory output every *.kfdtrace in it, else FILE itself and the
 * children's and exec'd images' names beside it (STEM.<pid>.kfdtrace,
 * ...). Return: the number of files found, or -1 when @fn failed.
 */
int
record_for_each_run_file(const char *output,
			 int (*fn)(const char *path, void *ctx), void *ctx)
{
	char dir[PATH_MAX], stem[NAME_MAX + 1], file[NAME_MAX + 1];
	const char *slash = strrchr(output, '/');
	int in_dir = record_is_dir_output(output), n = 0;
	struct dirent *de;
	size_t slen;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - output) : 1,
		 slash ? output : ".");
	snprintf(file, sizeof(file), "%.*s", NAME_MAX, slash ? slash + 1 : output);
	memcpy(stem, file, sizeof(stem));
	slen = strlen(stem);
	if (slen > 9 && strcmp(stem + slen - 9, ".kfdtrace") == 0)
		stem[slen -= 9] = '\0';
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		size_t len = strlen(de->d_name);

		if (in_dir ? len <= 9 || de->d_name[0] == '.' ||
			     strcmp(de->d_name + len - 9, ".kfdtrace") :
			     strcmp(de->d_name, file) &&
			     (strncmp(de->d_name, stem, slen) ||
			      !is_child_trace_suffix(de->d_name + slen)))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     de->d_name) >= sizeof(path))
			continue;
		n++;
		if (fn && fn(path, ctx)) {
			n = -1;
			break;
		}
	}
	closedir(d);
	return n;
}

/* Whether --force could replace @path: a regular file (cli_out_check()). */
static int
check_run_file(const char *path, void *ctx)
{
	static const struct cli_out_rule rule = {
		.kind = CLI_OUT_TRACE, .force = 1,
	};

	(void)ctx;
	return cli_out_check(path, &rule) < 0 ? -1 : 0;
}

static int
remove_run_file(const char *path, void *ctx)
{
	(void)ctx;
	if (unlink(path) == 0)
		return 0;
	cli_err("cannot remove %s: %s", path, strerror(errno));
	return -1;
}

/*
 * Make the output ready before the program runs: create a directory
 * output; refuse a run's files that exist (FILE, its children's, a
 * directory's traces), or with @force remove them, so that the analysis
 * of the new run never picks up an old one's files. Only regular files
 * are ever removed: the capture library creates each trace anew, so
 * nothing else can stand at a trace's name.
 * Return: 0, or -1 with the reason printed.
 */
int
record_prepare_output(const char *output, int force)
{
	struct stat st;
	int n;

	if (record_is_dir_output(output) && mkdir(output, 0777) != 0 &&
	    (errno != EEXIST || stat(output, &st) != 0 ||
	     !S_ISDIR(st.st_mode))) {
		cli_err("cannot create the directory %s: %s", output,
			strerror(errno == EEXIST ? ENOTDIR : errno));
		return -1;
	}
	n = record_for_each_run_file(output, check_run_file, NULL);
	if (n > 0 && force)
		n = record_for_each_run_file(output, remove_run_file, NULL);
	if (n < 0)
		return -1;
	if (n && !force) {
		cli_err("%s: %d trace%s of an earlier run exist%s (use "
			"-f/--force to replace them)", output, n,
			n == 1 ? "" : "s", n == 1 ? "s" : "");
		return -1;
	}
	return 0;
}
