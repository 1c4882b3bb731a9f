/* SPDX-License-Identifier: MIT */
/*
 * `kfdtrace export --ctf`'s driver: where a run's CTF traces go (DIR, or
 * DIR/LABEL/ per process), and each trace written by formats/bt2's
 * kt_ctf_export() (the babeltrace2 graph over our source plugin) with
 * progress and messages.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "export/export.h"
#include "kt_ctf_export.h"
#include "core/run.h"

/*
 * What sink.ctf.fs writes for one trace: a "metadata" file (TSDL text, or
 * metadata packets) and one file per stream, each starting with a packet
 * header's magic. The magics are in the writer's byte order.
 */
static int
ctf_file_is(const char *path, int metadata)
{
	static const unsigned char tsdl[] = "/* CTF 1.8";
	unsigned char b[sizeof(tsdl) - 1];
	uint32_t magic, want = metadata ? 0x75D11D57u : 0xC1FC1FC1u;
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(b), f) : 0;

	if (f)
		fclose(f);
	if (metadata && n == sizeof(b) && !memcmp(b, tsdl, sizeof(b)))
		return 1;
	if (n < sizeof(magic))
		return 0;
	memcpy(&magic, b, sizeof(magic));
	return magic == want || __builtin_bswap32(magic) == want;
}

/*
 * Whether @dir holds exactly one CTF trace as above and nothing else, and
 * with @rm (after a check) remove those files. An entry that is not a
 * regular file, or a hidden one, is not ours.
 *
 * Return: 1 for a trace, 0 for an empty directory, -1 for anything else.
 */
static int
ctf_trace_files(const char *dir, int rm)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ok = d != NULL, metadata = 0, n = 0;

	while (ok && (de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		metadata += !strcmp(de->d_name, "metadata");
		ok = de->d_name[0] != '.' &&
		     (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				      de->d_name) < sizeof(path) &&
		     lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		     ctf_file_is(path, !strcmp(de->d_name, "metadata"));
		if (ok && rm && unlink(path) != 0) {
			cli_err("cannot remove %s: %s", path, strerror(errno));
			ok = 0;
		}
	}
	if (d)
		closedir(d);
	return !ok ? -1 : metadata ? 1 : n ? -1 : 0;
}

/*
 * Call @fn on each entry of @dir (a run's export: one subdirectory per
 * process). Return: 1 when every entry is a subdirectory @fn accepts.
 */
static int
ctf_each_sub(const char *dir, int (*fn)(const char *sub, int rm), int rm)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ok = d != NULL;

	while (ok && (de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ok = de->d_name[0] != '.' &&
		     (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				      de->d_name) < sizeof(path) &&
		     lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
		     fn(path, rm);
		if (ok && rm && rmdir(path) != 0) {
			cli_err("cannot remove %s: %s", path, strerror(errno));
			ok = 0;
		}
	}
	if (d)
		closedir(d);
	return ok;
}

/*
 * A process's directory of a run's export: its trace, or empty (its
 * export failed). With @rm, its files are removed. Return: 1 when ours.
 */
static int
ctf_proc_dir(const char *dir, int rm)
{
	int r = ctf_trace_files(dir, 0);

	if (r == 1 && rm)
		r = ctf_trace_files(dir, 1);
	return r >= 0;
}

/*
 * The cli_out_rule's @ours: a directory that export --ctf wrote, one
 * trace's (ctf_trace_files()) or a run's (a directory of those), and
 * nothing else.
 */
static int
ctf_is_ours(const char *dir)
{
	return ctf_trace_files(dir, 0) == 1 ||
	       ctf_each_sub(dir, ctf_proc_dir, 0);
}

/*
 * The CTF directory under the one overwrite rule (cli_out_check()): an
 * export of ours is replaced with --force, file by file, and anything
 * else is left alone.
 */
static int
ctf_dest_ready(const char *dest, char *const *traces, size_t ntraces,
	       int force)
{
	const struct cli_out_rule rule = {
		.kind = CLI_OUT_DIR, .force = force, .ins = traces,
		.nins = ntraces, .ours = ctf_is_ours,
	};
	int state = cli_out_check(dest, &rule);

	if (state != CLI_OUT_REPLACE)
		return state < 0 ? -1 : 0;
	if (ctf_trace_files(dest, 0) == 1 ? ctf_trace_files(dest, 1) < 0 :
	    !ctf_each_sub(dest, ctf_proc_dir, 1))
		return -1;
	if (rmdir(dest) != 0) {
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
	/* Standard input's copy has no name of its own. */
	const char *path = strcmp(cli_name(p->path), "-") ? p->path : "stdin";
	const char *file = strrchr(path, '/');
	char name[256];
	size_t n = 0, flen;

	exe = exe ? exe + 1 : p->hdr->exe;
	file = file ? file + 1 : path;
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
 * ready: absent, or empty). Return: a KFDTRACE_EXIT_* status.
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

	if (ctf_dest_ready(dest, traces, ntraces, o->force))
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

