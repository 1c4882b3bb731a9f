/* SPDX-License-Identifier: MIT */
/*
 * `kfdtrace export --ctf`'s driver: where a run's CTF traces go (DIR, or
 * DIR/LABEL/ per process), and each trace written by formats/bt2's
 * kt_ctf_export() (the babeltrace2 graph over our source plugin) with
 * progress and messages.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "export.h"
#include "kt_ctf_export.h"
#include "run.h"

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * The CTF directory under the one overwrite rule: refused when it holds
 * anything, unless --force, which removes it first.
 */
static int
ctf_dest_ready(const char *dest, int force)
{
	struct stat st;

	if (lstat(dest, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(dest);
		struct dirent *de;
		int empty = 1;

		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				empty = 0;
		if (d)
			closedir(d);
		if (empty)
			return 0;
	}
	if (!force) {
		cli_err("%s: exists (use -f/--force to replace it)", dest);
		return -1;
	}
	if (nftw(dest, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		cli_err("cannot remove %s: %s", dest, strerror(errno));
		return -1;
	}
	return 0;
}

/* Append @s to @name (of @size, holding *@n), file-safe. */
static void
ctf_name_add(char *name, size_t size, size_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i] && *n + 1 < size; i++) {
		char c = s[i];

		name[(*n)++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			       (c >= '0' && c <= '9') || c == '_' || c == '.' ?
			       c : '-';
	}
	name[*n] = '\0';
}

/*
 * A process's directory in a run's CTF: [HOST-]EXE-FILE, FILE being its
 * trace's name without .kfdtrace (unique within a host: an exec'd image
 * shares its pid with the image before it, not its file).
 */
static void
ctf_subdir(char *buf, size_t size, const char *dest,
	   const struct cli_run *run, const struct cli_run_proc *p)
{
	const char *exe = strrchr(p->hdr->exe, '/');
	const char *file = strrchr(p->path, '/');
	char name[256];
	size_t n = 0, flen;

	exe = exe ? exe + 1 : p->hdr->exe;
	file = file ? file + 1 : p->path;
	flen = strlen(file);
	if (flen > 9 && !strcmp(file + flen - 9, ".kfdtrace"))
		flen -= 9;
	if (run->nhosts > 1) {
		ctf_name_add(name, sizeof(name), &n, p->host, 64);
		ctf_name_add(name, sizeof(name), &n, "-", 1);
	}
	ctf_name_add(name, sizeof(name), &n, exe, 64);
	ctf_name_add(name, sizeof(name), &n, "-", 1);
	ctf_name_add(name, sizeof(name), &n, file, flen);
	snprintf(buf, size, "%s/%s", dest, name);
}

static void
ctf_progress(void *ctx, uint64_t events)
{
	cli_progress_update(ctx, events);
}

/*
 * One trace file @trace as the CTF trace directory @dest (which must be
 * ready: absent, or empty with @o->force). Return: a KFDTRACE_EXIT_* status.
 */
static int
export_one(const char *trace, const char *dest,
	   const struct kfdtrace_export_opts *o)
{
	struct kt_ctf_export_opts co = {
		.plugin_path = o->plugin_path,
		.verbose = o->verbose,
	};
	struct cli_progress prog;
	char msg[2048];
	int rc;

	/* A call per batch of events, not per record. */
	cli_progress_start(&prog, "CTF events written", 0);
	prog.every = 1;
	if (prog.on) {
		co.progress = ctf_progress;
		co.progress_ctx = &prog;
	}
	rc = kt_ctf_export(trace, dest, &co, msg, sizeof(msg));
	cli_progress_end(&prog);

	switch (rc) {
	case KT_CTF_OK:
		if (o->verbose)
			cli_err("wrote CTF trace %s", dest);
		return KFDTRACE_EXIT_OK;
	case KT_CTF_TRUNCATED:
	case KT_CTF_CORRUPT:
		cli_err("%s: wrote the records before the "
			"damage to %s: %s", trace, dest, msg);
		return KFDTRACE_EXIT_ERROR;
	case KT_CTF_DAMAGED:
		cli_err("%s: wrote every record to %s, but the trace is "
			"damaged: %s", trace, dest, msg);
		return KFDTRACE_EXIT_ERROR;
	default:
		cli_err("%s: CTF export failed: %s", trace,
			msg);
		return KFDTRACE_EXIT_ERROR;
	}
}

int
kfdtrace_export_ctf_run(char *const *traces, size_t ntraces, const char *dest,
			const struct kfdtrace_export_opts *o)
{
	struct cli_run run;
	struct stat st;
	int status = KFDTRACE_EXIT_OK;
	size_t i;

	if (ctf_dest_ready(dest, o->force))
		return KFDTRACE_EXIT_ERROR;
	if (ntraces == 1 && !(stat(traces[0], &st) == 0 && S_ISDIR(st.st_mode)))
		return export_one(traces[0], dest, o);
	if (cli_run_open(&run, traces, ntraces, "export"))
		return KFDTRACE_EXIT_ERROR;
	if (mkdir(dest, 0777) != 0 && errno != EEXIST) {
		cli_err("cannot create %s: %s", dest, strerror(errno));
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	for (i = 0; i < run.n; i++) {
		char sub[PATH_MAX];
		int s;

		ctf_subdir(sub, sizeof(sub), dest, &run, &run.p[i]);
		s = export_one(run.p[i].path, sub, o);
		if (s > status)
			status = s;
	}
	cli_run_close(&run);
	return status;
}

