/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the kfdtrace commands.
 */
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

#include "cli.h"
#include "commands.h"
#include "report_objects.h"

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
cli_out_check(const char *path, int force)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t len;

	if (cli_is_stdout(path))
		return 0;
	if (lstat(path, &st) == 0 && !force) {
		cli_err("%s: exists (use -f/--force to replace it)", path);
		return -1;
	}
	/* The directory it goes in must exist and take new files. */
	len = strlen(path);
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
cli_out_open(struct cli_out *o, const char *path, int force)
{
	size_t len;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (cli_is_stdout(path)) {
		o->f = stdout;
		return 0;
	}
	if (cli_out_check(path, force))
		return -1;
	len = strlen(path) + 16;
	o->tmp = malloc(len);
	if (!o->tmp) {
		cli_err("out of memory");
		return -1;
	}
	snprintf(o->tmp, len, "%s.tmpXXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		cli_err("%s: cannot create: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes 0600; an output is an ordinary file. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	return 0;
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
	if (ok && !rc && rename(o->tmp, o->path) != 0) {
		cli_err("%s: %s", o->path, strerror(errno));
		rc = -1;
	}
	if (!ok || rc)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
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
		cli_err("%s: %s%s%s", path, kt_strerror(rc), why ? ": " : "",
			why ? why : "");
		return -1;
	}
	return 0;
}

int
cli_finish(const char *path, struct kt_reader *r, int rc)
{
	enum kt_integrity v = kt_reader_verdict(r, rc);
	struct kt_reader_status st;

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
cli_get_version(const struct kfd_ioctl_desc *desc,
		const struct kt_ioctl_rec *io, uint32_t *major, uint32_t *minor)
{
	uint64_t maj, min;

	if (!desc || strcmp(desc->name, "GET_VERSION") || io->ret != 0 ||
	    obj_arg_get(desc, "major_version", io->arg_after, io->arg_size, &maj) ||
	    obj_arg_get(desc, "minor_version", io->arg_after, io->arg_size, &min))
		return 0;
	*major = (uint32_t)maj;
	*minor = (uint32_t)min;
	return 1;
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
