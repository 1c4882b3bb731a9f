/* SPDX-License-Identifier: MIT */
/* LTTng session plumbing for the lttng test and benchmark (lt_session.h). */
#include "lt_session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LT_LOCK "/tmp/kfdtrace-lttng-tests.lock"
#define LT_MAX_SESSIONS 16
#define LT_MAX_PROCS 64

/* For the signal handlers: the daemon to stop if we are killed. */
static volatile pid_t lt_daemon;
static char lt_sessions[LT_MAX_SESSIONS][64];

static int
lt_in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		if (n && (size_t)snprintf(buf, sizeof(buf), "%.*s/%s", (int)n,
					  path, name) < sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return 1;
		path += n + (end ? 1 : 0);
	}
	return 0;
}

int
lt_tools_present(void)
{
	return lt_in_path("lttng") && lt_in_path("lttng-sessiond") &&
	       lt_in_path("babeltrace2");
}

void
lt_show_log(const struct lt_env *e)
{
	FILE *f = fopen(e->log, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fprintf(stderr, "lttng log: %s", line);
	fclose(f);
}

int
lt_run(char *const argv[], char *const env[], const char *out,
       const char *log)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int lfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		int ofd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				     0644) : lfd;

		if (lfd < 0 || ofd < 0)
			_exit(126);
		dup2(ofd, 1);
		dup2(lfd, 2);
		for (int i = 0; env && env[i]; i++)
			putenv(env[i]);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

int
lt_lttng(const struct lt_env *e, ...)
{
	char *argv[32];
	va_list ap;
	int n = 0;
	FILE *f;

	argv[n++] = "lttng";
	va_start(ap, e);
	while (n < 31 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	f = fopen(e->log, "a");
	if (f) {
		fprintf(f, "$");
		for (int i = 0; argv[i]; i++)
			fprintf(f, " %s", argv[i]);
		fprintf(f, "\n");
		fclose(f);
	}
	return lt_run(argv, NULL, NULL, e->log) == 0 ? 0 : -1;
}

/* ---- the daemon ---- */

/* 1 if @pid exists and is not a zombie. */
static int
lt_alive(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	int alive = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		alive = p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	fclose(f);
	return alive;
}

static pid_t
lt_ppid(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		sscanf(p + 2, "%*c %d", &ppid);
	fclose(f);
	return ppid;
}

/* @root and every process below it (consumer daemons, run-as helpers). */
static int
lt_tree(pid_t root, pid_t *out, int max)
{
	int n = 0, grew = 1;
	DIR *d;
	struct dirent *de;

	out[n++] = root;
	while (grew) {
		grew = 0;
		d = opendir("/proc");
		if (!d)
			break;
		while ((de = readdir(d)) && n < max) {
			pid_t pid = (pid_t)atoi(de->d_name), pp;
			int known = 0;

			if (pid <= 0)
				continue;
			for (int i = 0; i < n; i++)
				known |= out[i] == pid;
			if (known)
				continue;
			pp = lt_ppid(pid);
			for (int i = 0; i < n && !known; i++)
				known = out[i] == pp;
			if (known) {
				out[n++] = pid;
				grew = 1;
			}
		}
		closedir(d);
	}
	return n;
}

static void
lt_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void
lt_stop_daemon(pid_t daemon)
{
	pid_t procs[LT_MAX_PROCS];
	int n = lt_tree(daemon, procs, LT_MAX_PROCS);

	kill(daemon, SIGTERM);
	for (int tries = 0; tries < 250; tries++) {
		int left = 0;

		for (int i = 0; i < n; i++)
			left += lt_alive(procs[i]);
		if (!left)
			return;
		lt_sleep_ms(20);
	}
	for (int i = 0; i < n; i++)
		if (lt_alive(procs[i])) {
			fprintf(stderr, "lt_session: killing pid %d, still running\n",
				(int)procs[i]);
			kill(procs[i], SIGKILL);
		}
}

static void
lt_on_signal(int sig)
{
	pid_t d = lt_daemon;

	/* Best effort: the daemon stops its own helpers on SIGTERM. */
	if (d > 0)
		kill(d, SIGTERM);
	_exit(128 + sig);
}

static pid_t
lt_daemon_pid(const char *rundir)
{
	char path[512];
	FILE *f;
	int pid = 0;

	snprintf(path, sizeof(path), "%s/lttng-sessiond.pid", rundir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid > 0 && lt_alive(pid) ? pid : 0;
}

int
lt_env_up(struct lt_env *e, const char *tag)
{
	static char home_env[300];
	char rundir[300], home[280];
	struct sigaction sa;
	char *argv[] = { "lttng-sessiond", "--daemonize", "--no-kernel", NULL };

	memset(e, 0, sizeof(*e));
	e->lock_fd = open(LT_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (e->lock_fd < 0 || flock(e->lock_fd, LOCK_EX)) {
		fprintf(stderr, "lt_session: lock %s: %s\n", LT_LOCK, strerror(errno));
		return -1;
	}
	snprintf(e->dir, sizeof(e->dir), "/tmp/kfdtrace-lt-%s-XXXXXX", tag);
	if (!mkdtemp(e->dir)) {
		fprintf(stderr, "lt_session: mkdtemp: %s\n", strerror(errno));
		return -1;
	}
	snprintf(e->log, sizeof(e->log), "%s/commands.log", e->dir);
	snprintf(home, sizeof(home), "%s/home", e->dir);
	mkdir(home, 0700);
	/* Client configuration and a non-root daemon's sockets stay ours. */
	snprintf(home_env, sizeof(home_env), "LTTNG_HOME=%s", home);
	putenv(home_env);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = lt_on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);

	if (getuid() == 0)
		snprintf(rundir, sizeof(rundir), "/var/run/lttng");
	else
		snprintf(rundir, sizeof(rundir), "%s/.lttng", home);
	if (lt_daemon_pid(rundir))
		return 0;	/* someone else's: use it, leave it running */
	if (lt_run(argv, NULL, NULL, e->log) != 0) {
		fprintf(stderr, "lt_session: lttng-sessiond did not start\n");
		lt_show_log(e);
		return -1;
	}
	e->sessiond = lt_daemon_pid(rundir);
	lt_daemon = e->sessiond;
	if (!e->sessiond) {
		fprintf(stderr, "lt_session: no pid file in %s\n", rundir);
		return -1;
	}
	return 0;
}

static int
lt_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

void
lt_env_down(struct lt_env *e)
{
	for (int i = 0; i < LT_MAX_SESSIONS; i++) {
		if (lt_sessions[i][0]) {
			lt_lttng(e, "destroy", lt_sessions[i], NULL);
			lt_sessions[i][0] = '\0';
		}
	}
	if (e->sessiond > 0) {
		lt_stop_daemon(e->sessiond);
		lt_daemon = 0;
		e->sessiond = 0;
	}
	if (e->dir[0] && !getenv("LT_KEEP"))
		nftw(e->dir, lt_rm, 16, FTW_DEPTH | FTW_PHYS);
	if (e->lock_fd > 0)
		close(e->lock_fd);
	e->lock_fd = -1;
}

/* ---- sessions ---- */

int
lt_session_begin(const struct lt_env *e, const char *name,
		 const char *outdir, const char *more, unsigned int subbuf_kib)
{
	char output[512], subbuf[32];
	const char *ch = subbuf_kib ? "kfdch" : "channel0";

	snprintf(output, sizeof(output), "--output=%s", outdir);
	if (lt_lttng(e, "create", name, output, NULL))
		return -1;
	for (int i = 0; i < LT_MAX_SESSIONS; i++) {
		if (!lt_sessions[i][0]) {
			snprintf(lt_sessions[i], sizeof(lt_sessions[i]), "%s", name);
			break;
		}
	}
	if (subbuf_kib) {
		snprintf(subbuf, sizeof(subbuf), "--subbuf-size=%uK", subbuf_kib);
		if (lt_lttng(e, "enable-channel", "-u", "-s", name, subbuf,
			     "--num-subbuf=8", ch, NULL))
			return -1;
	}
	if (lt_lttng(e, "enable-event", "-u", "-s", name, "-c", ch, "kfd:*", NULL))
		return -1;
	if (more && lt_lttng(e, "enable-event", "-u", "-s", name, "-c", ch,
			     more, NULL))
		return -1;
	if (lt_lttng(e, "add-context", "-u", "-s", name, "-c", ch, "-t", "vpid",
		     NULL))
		return -1;
	return lt_lttng(e, "start", name, NULL);
}

int
lt_session_end(const struct lt_env *e, const char *name)
{
	int ret = lt_lttng(e, "stop", name, NULL);

	ret |= lt_lttng(e, "destroy", name, NULL);
	for (int i = 0; i < LT_MAX_SESSIONS; i++)
		if (!strcmp(lt_sessions[i], name))
			lt_sessions[i][0] = '\0';
	return ret;
}

long
lt_discarded(const struct lt_env *e, const char *name, const char *channel)
{
	char out[512], line[256];
	char *argv[] = { "lttng", "list", (char *)name, "-c", (char *)channel,
			 NULL };
	long n = -1;
	FILE *f;

	snprintf(out, sizeof(out), "%s/list.txt", e->dir);
	if (lt_run(argv, NULL, out, e->log) != 0)
		return -1;
	f = fopen(out, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " Discarded events: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* ---- reading traces ---- */

char **
lt_read_trace(const struct lt_env *e, const char *outdir, size_t *nlines)
{
	static unsigned int seq;
	char out[512], *line = NULL, **lines = NULL;
	char *argv[] = { "babeltrace2", (char *)outdir, NULL };
	size_t cap = 0, n = 0, len = 0;
	FILE *f;

	snprintf(out, sizeof(out), "%s/babeltrace-%u.txt", e->dir, seq++);
	if (lt_run(argv, NULL, out, e->log) != 0)
		return NULL;
	f = fopen(out, "r");
	if (!f)
		return NULL;
	while (getline(&line, &len, f) > 0) {
		if (n + 2 > cap) {
			char **grown = realloc(lines, (cap = cap * 2 + 64) * sizeof(*lines));

			if (!grown)
				break;
			lines = grown;
		}
		line[strcspn(line, "\n")] = '\0';
		lines[n++] = strdup(line);
	}
	free(line);
	fclose(f);
	if (!lines)
		lines = calloc(1, sizeof(*lines));
	if (lines)
		lines[n] = NULL;
	*nlines = n;
	return lines;
}

void
lt_free_lines(char **lines)
{
	for (size_t i = 0; lines && lines[i]; i++)
		free(lines[i]);
	free(lines);
}

const char *
lt_field(const char *line, const char *name, char *buf, size_t size)
{
	size_t nl = strlen(name);
	const char *p = line, *v;
	size_t n = 0;

	while ((p = strstr(p, name))) {
		if (p > line + 1 && (p[-2] == '{' || p[-2] == ',') &&
		    p[-1] == ' ' && !strncmp(p + nl, " = ", 3))
			break;
		p += nl;
	}
	if (!p)
		return NULL;
	v = p + nl + 3;
	if (*v == '(') {
		/* an enum: ( "LABEL" : container = N ) */
		const char *q = strchr(v, '"');
		const char *end = q ? strchr(q + 1, '"') : NULL;

		if (!end)
			return NULL;
		snprintf(buf, size, "%.*s", (int)(end - q - 1), q + 1);
		return buf;
	}
	while (v[n] && v[n] != ',' && v[n] != ' ' && n + 1 < size)
		n++;
	snprintf(buf, size, "%.*s", (int)n, v);
	return buf;
}

int
lt_is_event(const char *line, const char *event)
{
	char pat[128];

	snprintf(pat, sizeof(pat), " %s: ", event);
	return strstr(line, pat) != NULL;
}
