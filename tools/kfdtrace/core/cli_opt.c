/* SPDX-License-Identifier: MIT */
/*
 * Bad options with the nearest known name, and "-" as standard input
 * (cli_opt.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"

/* Levenshtein distance, capped: names are short, one row is enough. */
static size_t
cli_distance(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b), row[64], i, j;

	if (alen >= 63 || blen >= 63)
		return (size_t)-1;
	for (j = 0; j <= blen; j++)
		row[j] = j;
	for (i = 1; i <= alen; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= blen; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[blen];
}

const char *
cli_nearest(const char *word, size_t len, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3, i;

	for (i = 0; i < n; i++) {
		size_t d = cli_distance(word, len, names[i]);

		if (d < best_d && d < len) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}

/* The long option names of @longopts, "--" included, NULL-terminated. */
static const char **
cli_long_names(const struct option *longopts, size_t *n)
{
	const char **v;
	size_t i, k = 0;

	for (i = 0; longopts[i].name; i++)
		;
	v = calloc(i + 1, sizeof(*v));
	for (i = 0; v && longopts[i].name; i++) {
		char *s = malloc(strlen(longopts[i].name) + 3);

		if (!s)
			break;
		sprintf(s, "--%s", longopts[i].name);
		v[k++] = s;
	}
	*n = k;
	return v;
}

static void
cli_free_names(const char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)v[i]);
	free(v);
}

void
cli_opt_unknown(const char *arg, const char *const *names)
{
	const char *near;
	size_t n = 0;

	while (names[n])
		n++;
	near = cli_nearest(arg, strcspn(arg, "="), names, n);
	if (near)
		cli_err("unknown option '%s'; did you mean '%s'?", arg, near);
	else
		cli_err("unknown option '%s'", arg);
}

/* A long option @arg ("--name[=value]") getopt_long() refused. */
static void
cli_long_error(const char *arg, const struct option *longopts)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "="), i, nprefix = 0, nnames;
	const struct option *exact = NULL;
	const char **names;

	for (i = 0; longopts[i].name; i++) {
		if (strncmp(longopts[i].name, name, len))
			continue;
		if (strlen(longopts[i].name) == len)
			exact = &longopts[i];
		nprefix++;
	}
	if (!exact && nprefix == 1)
		for (i = 0; longopts[i].name; i++)
			if (!strncmp(longopts[i].name, name, len))
				exact = &longopts[i];
	if (exact && exact->has_arg == no_argument && name[len] == '=') {
		cli_err("option '--%s' takes no value", exact->name);
		return;
	}
	if (exact) {
		cli_err("option '--%s' needs a value", exact->name);
		return;
	}
	if (nprefix > 1) {
		cli_err("option '%.*s' is ambiguous (%zu options start so)",
			(int)len + 2, arg, nprefix);
		return;
	}
	names = cli_long_names(longopts, &nnames);
	if (names)
		cli_opt_unknown(arg, names);
	else
		cli_err("unknown option '%s'", arg);
	if (names)
		cli_free_names(names, nnames);
}

void
cli_opt_error(char **argv, const char *optstring,
	      const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	const char *s;

	if (arg && !strncmp(arg, "--", 2) && arg[2]) {
		cli_long_error(arg, longopts);
		return;
	}
	s = optopt ? strchr(optstring, optopt) : NULL;
	if (s && s[1] == ':')
		cli_err("option '-%c' needs a value", optopt);
	else if (optopt)
		cli_err("unknown option '-%c'", optopt);
	else
		cli_err("unknown option '%s'", arg ? arg : "?");
}

/* What cli_stdin_args() made of "-". */
static char cli_stdin_path[64];

/*
 * The copy's path travels to a kfdtrace that this one runs again (replay
 * --sim), whose messages name it "-" too.
 */
#define CLI_STDIN_ENV "KFDTRACE_STDIN_COPY"

const char *
cli_name(const char *path)
{
	const char *env = getenv(CLI_STDIN_ENV);

	if (!cli_stdin_path[0] && env && strlen(env) < sizeof(cli_stdin_path))
		strcpy(cli_stdin_path, env);
	return cli_stdin_path[0] && !strcmp(path, cli_stdin_path) ? "-" : path;
}

/* Copy standard input into an unlinked file; its descriptor, or -1. */
static int
cli_stdin_spool(void)
{
	const char *tmpdir = getenv("TMPDIR"), *max_env;
	unsigned long long max = CLI_STDIN_MAX, got = 0;
	char path[4096], buf[1 << 16];
	int fd;

	max_env = getenv("KFDTRACE_STDIN_MAX");
	if (max_env && *max_env)
		max = strtoull(max_env, NULL, 0);
	snprintf(path, sizeof(path), "%s/kfdtrace-stdin-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	/* Not close-on-exec: replay --sim runs itself again on the copy. */
	fd = mkstemp(path);
	if (fd < 0) {
		cli_err("-: cannot make a temporary copy of standard input: "
			"%s: %s", path, strerror(errno));
		return -1;
	}
	unlink(path);
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cli_err("-: reading standard input: %s",
				strerror(errno));
			break;
		}
		if (n == 0)
			return fd;
		got += (unsigned long long)n;
		if (got > max) {
			cli_err("-: standard input is over %llu bytes "
				"(KFDTRACE_STDIN_MAX); save it to a file", max);
			break;
		}
		if (write(fd, buf, (size_t)n) != n) {
			cli_err("-: copying standard input to %s: %s", path,
				errno ? strerror(errno) : "short write");
			break;
		}
	}
	close(fd);
	return -1;
}

int
cli_stdin_args(char **paths, size_t n)
{
	struct stat st;
	size_t i, k = 0;
	int fd;

	for (i = 0; i < n; i++)
		k += strcmp(paths[i], "-") == 0;
	if (!k)
		return 0;
	if (k > 1) {
		cli_err("-: standard input given %zu times; it can be read "
			"once", k);
		return -1;
	}
	if (fstat(STDIN_FILENO, &st) != 0) {
		cli_err("-: standard input: %s", strerror(errno));
		return -1;
	}
	if (isatty(STDIN_FILENO)) {
		cli_err("-: standard input is a terminal; pipe a trace in or "
			"give its file");
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		snprintf(cli_stdin_path, sizeof(cli_stdin_path),
			 "/proc/self/fd/%d", STDIN_FILENO);
	} else {
		fd = cli_stdin_spool();
		if (fd < 0)
			return -1;
		snprintf(cli_stdin_path, sizeof(cli_stdin_path),
			 "/proc/self/fd/%d", fd);
	}
	for (i = 0; i < n; i++)
		if (!strcmp(paths[i], "-"))
			paths[i] = cli_stdin_path;
	setenv(CLI_STDIN_ENV, cli_stdin_path, 1);
	return 0;
}
