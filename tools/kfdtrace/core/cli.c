/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the kfdtrace commands.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "core/objects.h"

const char *cli_prefix = "kfdtrace";
static char cli_prefix_buf[64];

void
cli_set_command(const char *cmd)
{
	snprintf(cli_prefix_buf, sizeof(cli_prefix_buf), "kfdtrace %s", cmd);
	cli_prefix = cli_prefix_buf;
}

static void
cli_vmsg(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", cli_prefix, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmsg("", fmt, ap);
	va_end(ap);
}

void
cli_try_help(void)
{
	cli_err("see '%s --help'", cli_prefix);
}

void
cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmsg("warning: ", fmt, ap);
	va_end(ap);
}

static int
cli_is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

int
cli_is_trace_name(const char *name)
{
	const char *s = strstr(name, ".kfdtrace");

	while (s) {
		if (s[9] == '\0' || s[9] == '.')
			return name[0] != '.';
		s = strstr(s + 1, ".kfdtrace");
	}
	return 0;
}

/*
 * How many components @inner lies below @outer (both real paths): 0 for
 * the same path, -1 when it is not inside it.
 */
static int
cli_path_depth(const char *inner, const char *outer)
{
	size_t n = strlen(outer);
	int depth = 0;

	if (strcmp(outer, "/") == 0)
		n = 0;
	else if (strncmp(inner, outer, n) || (inner[n] && inner[n] != '/'))
		return -1;
	for (const char *p = inner + n; *p; p++)
		depth += *p == '/';
	return depth;
}

static const char *
cli_file_type(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" :
	       S_ISFIFO(m) ? "a FIFO" : S_ISBLK(m) ? "a block device" :
	       S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" :
	       "not a regular file";
}

/*
 * Whether the existing output @path (@st, followed) is one of the inputs
 * or holds one. Return: 0, or -1 after printing why.
 */
static int
cli_out_is_input(const char *path, const struct stat *st,
		 const struct cli_out_rule *r)
{
	char out_real[PATH_MAX], in_real[PATH_MAX];
	int have_real = realpath(path, out_real) != NULL;

	for (size_t i = 0; i < r->nins; i++) {
		const char *in = r->ins[i];
		struct stat ist;
		int d;

		if (stat(in, &ist) != 0)
			continue;
		if (ist.st_dev == st->st_dev && ist.st_ino == st->st_ino) {
			cli_err("%s: is the input %s; refused", path, in);
			return -1;
		}
		if (!have_real || !realpath(in, in_real))
			continue;
		/* A run directory stands for its traces, one level down too. */
		d = cli_path_depth(out_real, in_real);
		if (S_ISDIR(ist.st_mode) && S_ISREG(st->st_mode) &&
		    (d == 1 || d == 2) &&
		    cli_is_trace_name(strrchr(out_real, '/') + 1)) {
			cli_err("%s: is a trace of the input %s; refused",
				path, in);
			return -1;
		}
		if (r->kind == CLI_OUT_DIR && S_ISDIR(st->st_mode) &&
		    cli_path_depth(in_real, out_real) > 0) {
			cli_err("%s: holds the input %s; refused", path, in);
			return -1;
		}
	}
	return 0;
}

static int
cli_dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = 1;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	return d && empty;
}

/* An existing directory at @path, for a directory output. */
static int
cli_out_dir_state(const char *path, const struct cli_out_rule *r)
{
	char real[PATH_MAX], cwd[PATH_MAX];

	/* Even empty: it could not be removed and made again. */
	if (realpath(path, real) && getcwd(cwd, sizeof(cwd)) &&
	    cli_path_depth(cwd, real) >= 0) {
		cli_err("%s: holds the working directory; refused", path);
		return -1;
	}
	if (cli_dir_is_empty(path))
		return CLI_OUT_NEW;
	if (!r->ours || !r->ours(path)) {
		cli_err("%s: is a directory that is not empty and not one this "
			"command wrote; refused, even with -f/--force", path);
		return -1;
	}
	if (!r->force) {
		cli_err("%s: exists (use -f/--force to replace it)", path);
		return -1;
	}
	return CLI_OUT_REPLACE;
}

/* The directory @path goes in must exist and take new files. */
static int
cli_out_dir_writable(const char *path)
{
	char dir[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(dir)) {
		cli_err("%s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	memcpy(dir, path, len + 1);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	if (access(dirname(dir), W_OK | X_OK) != 0) {
		int e = errno;

		memcpy(dir, path, strlen(path) + 1);
		cli_err("%s: cannot create: %s: %s", path, dirname(dir),
			strerror(e));
		return -1;
	}
	return 0;
}

int
cli_out_check(const char *path, const struct cli_out_rule *r)
{
	struct stat lst, st, out1;
	int state;

	if (r->kind == CLI_OUT_STREAM && cli_is_stdout(path))
		return CLI_OUT_STDOUT;
	/* A trace or a directory is no stream: never a file named "-". */
	if (!strcmp(path, "-")) {
		cli_err("-: %s cannot be written to standard output; give "
			"a path", r->kind == CLI_OUT_DIR ? "a directory" :
			"a trace");
		return -1;
	}
	if (lstat(path, &lst) != 0) {
		if (errno != ENOENT) {
			cli_err("%s: %s", path, strerror(errno));
			return -1;
		}
		return cli_out_dir_writable(path) ? -1 : CLI_OUT_NEW;
	}
	/* Only a stream is written through a link: a trace or a directory
	 * would replace the link itself. */
	if (S_ISLNK(lst.st_mode) && r->kind != CLI_OUT_STREAM) {
		cli_err("%s: is a symbolic link; give the path it names", path);
		return -1;
	}
	if (stat(path, &st) != 0) {
		cli_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (cli_out_is_input(path, &st, r))
		return -1;
	if (r->kind == CLI_OUT_STREAM && fstat(STDOUT_FILENO, &out1) == 0 &&
	    out1.st_dev == st.st_dev && out1.st_ino == st.st_ino)
		return CLI_OUT_STDOUT;
	if (S_ISDIR(st.st_mode) && r->kind == CLI_OUT_DIR) {
		state = cli_out_dir_state(path, r);
	} else if ((S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) &&
		   r->kind == CLI_OUT_STREAM) {
		return CLI_OUT_THROUGH;
	} else if (S_ISREG(st.st_mode) && r->kind != CLI_OUT_DIR) {
		if (!r->force) {
			cli_err("%s: exists (use -f/--force to replace it)", path);
			return -1;
		}
		state = CLI_OUT_REPLACE;
	} else {
		cli_err("%s: is %s, not %s; refused, even with -f/--force",
			path, cli_file_type(st.st_mode),
			r->kind == CLI_OUT_DIR ? "a directory" :
			"a regular file");
		return -1;
	}
	if (state < 0 || cli_out_dir_writable(path))
		return -1;
	return state;
}

int
cli_out_open(struct cli_out *o, const char *path,
	     const struct cli_out_rule *rule)
{
	struct cli_out_rule r = *rule;
	size_t len;
	int fd, state;

	memset(o, 0, sizeof(*o));
	o->path = path;
	r.kind = CLI_OUT_STREAM;
	state = cli_out_check(path, &r);
	if (state < 0)
		return -1;
	if (state == CLI_OUT_STDOUT) {
		o->f = stdout;
		return 0;
	}
	if (state == CLI_OUT_THROUGH) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
			cli_err("%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		o->through = 1;
		return 0;
	}
	/* A link stays; the file it names is replaced. */
	o->target = state == CLI_OUT_REPLACE ? realpath(path, NULL) :
		    strdup(path);
	len = strlen(o->target ? o->target : path) + 16;
	o->tmp = malloc(len);
	if (!o->target || !o->tmp) {
		cli_err("out of memory");
		goto fail;
	}
	snprintf(o->tmp, len, "%s.tmpXXXXXX", o->target);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		cli_err("%s: cannot create: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		goto fail;
	}
	/* mkstemp makes 0600; an output is an ordinary file. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	return 0;
fail:
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return -1;
}

int
cli_out_commit(struct cli_out *o, int ok)
{
	int rc = 0;

	if (!o->f)
		return ok ? 0 : -1;
	if (o->f == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cli_err("standard output: write error");
			rc = -1;
		}
		o->f = NULL;
		return rc;
	}
	if (ferror(o->f))
		rc = -1;
	if (fclose(o->f) != 0)
		rc = -1;
	o->f = NULL;
	if (rc && ok)
		cli_err("%s: write error: %s", o->path, strerror(errno));
	if (o->through)
		return ok ? rc : -1;
	if (ok && !rc && rename(o->tmp, o->target) != 0) {
		cli_err("%s: %s", o->path, strerror(errno));
		rc = -1;
	}
	if (!ok || rc)
		unlink(o->tmp);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return ok ? rc : -1;
}

static uint64_t
cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
cli_progress_start(struct cli_progress *p, const char *what, uint64_t total)
{
	const char *env = getenv("KFDTRACE_PROGRESS");
	const char *every = getenv("KFDTRACE_PROGRESS_EVERY");

	p->what = what;
	p->total = total;
	p->last_ns = 0;
	p->every = every && atoi(every) > 0 ? (uint64_t)atoi(every) : 1024;
	if (env && *env)
		p->on = strcmp(env, "0") != 0;
	else
		p->on = isatty(STDERR_FILENO);
}

void
cli_progress_update(struct cli_progress *p, uint64_t done)
{
	uint64_t now;

	/* A clock read per call is too much for per-record callers. */
	if (!p->on || done % p->every)
		return;
	now = cli_now_ns();
	if (p->last_ns && now - p->last_ns < 100000000ull)
		return;
	p->last_ns = now;
	if (p->total)
		fprintf(stderr, "\r%s: %s: %llu of %llu (%u%%)\033[K", cli_prefix,
			p->what, (unsigned long long)done,
			(unsigned long long)p->total,
			(unsigned int)(done * 100 / p->total));
	else
		fprintf(stderr, "\r%s: %s: %llu\033[K", cli_prefix, p->what,
			(unsigned long long)done);
}

void
cli_progress_end(struct cli_progress *p)
{
	if (p->on && p->last_ns)
		fprintf(stderr, "\r\033[K");
	p->on = 0;
}

int
cli_open(const char *path, struct kt_reader **out)
{
	const char *why;
	int rc = kt_reader_open_why(path, out, &why);

	if (rc < 0) {
		cli_err("%s: %s%s%s", cli_name(path), kt_strerror(rc),
			why ? ": " : "", why ? why : "");
		return -1;
	}
	return 0;
}

int
cli_finish(const char *path, struct kt_reader *r, int rc)
{
	enum kt_integrity v = kt_reader_verdict(r, rc);
	struct kt_reader_status st;

	path = cli_name(path);
	kt_reader_get_status(r, &st);
	switch (v) {
	case KT_INTEGRITY_TRUNCATED:
		cli_warn("%s: truncated: recovered %llu records%s%s", path,
			 (unsigned long long)st.records,
			 st.message[0] ? "; " : "", st.message);
		break;
	case KT_INTEGRITY_CORRUPT:
		cli_warn("%s: corrupt at byte offset %llu after %llu records%s%s",
			 path, (unsigned long long)st.corrupt_offset,
			(unsigned long long)st.records,
			st.message[0] ? "; " : "", st.message);
		break;
	case KT_INTEGRITY_DAMAGED:
		cli_warn("%s: damaged: %s", path, st.message);
		break;
	case KT_INTEGRITY_INCOMPLETE:
		cli_warn("%s: incomplete: the writer lost %llu records; %llu "
			 "are in the file", path,
			(unsigned long long)st.lost,
			(unsigned long long)st.end_records);
		break;
	default:
		break;
	}
	if (rc < 0 && !kt_integrity_damage(v)) {
		cli_err("%s: %s", path, kt_strerror(rc));
		return KFDTRACE_EXIT_ERROR;
	}
	if (v == KT_INTEGRITY_NO_END && rc == 0)
		cli_warn("%s: no END record (the writer did not close the trace)",
			 path);
	return cli_status(v, rc);
}

int
cli_status(enum kt_integrity v, int rc)
{
	return rc < 0 || kt_integrity_damage(v) ? KFDTRACE_EXIT_ERROR :
						  KFDTRACE_EXIT_OK;
}

int
cli_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int
cli_parse_window(const char *s, uint64_t *out)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) || v == 0 || v > CLI_REORDER_WINDOW_MAX)
		return -1;
	*out = v;
	return 0;
}

int
cli_help_requested(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

int
cli_index_for(struct kc_u64map *map, uint32_t tag, uint64_t key, void **v,
	      size_t *n, size_t *cap, size_t size, size_t *i)
{
	uint64_t at;

	if (kc_u64map_get64(map, tag, key, &at)) {
		*i = (size_t)at;
		return 1;
	}
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		void *p = realloc(*v, nc * size);

		if (!p)
			return -1;
		*v = p;
		*cap = nc;
	}
	if (kc_u64map_put64(map, tag, key, *n))
		return -1;
	memset((char *)*v + *n * size, 0, size);
	*i = (*n)++;
	return 0;
}
