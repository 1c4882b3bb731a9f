/* SPDX-License-Identifier: MIT */
/*
 * What the lttng test and benchmark share: an LTTng session daemon they
 * start themselves (and stop, with all its helpers, however they end),
 * recording sessions with their output in a private directory, running
 * programs, and reading traces back with babeltrace2.
 *
 * Only one kfdtrace lttng test or benchmark runs at a time on a machine
 * (a lock file): a root session daemon is machine-wide (its sockets are
 * under /var/run/lttng whatever LTTNG_HOME says), so two of them would
 * stop each other's daemon.
 */
#ifndef LT_SESSION_H
#define LT_SESSION_H

#include <sys/types.h>

struct lt_env {
	char dir[256];		/* private scratch directory */
	char log[300];		/* the commands' output */
	pid_t sessiond;		/* the daemon we started, or 0 */
	int lock_fd;
};

/* Whether lttng, lttng-sessiond and babeltrace2 are all in PATH. */
int lt_tools_present(void);

/*
 * lt_env_up() - take the lock, make the scratch directory, point
 * LTTNG_HOME into it and start a session daemon unless one runs.
 * @e:		filled in
 * @tag:	names the scratch directory
 *
 * Return: 0, or -1 (with a message on stderr).
 */
int lt_env_up(struct lt_env *e, const char *tag);

/*
 * lt_env_down() - destroy our sessions, stop the daemon we started and
 * every process it started, remove the scratch directory, drop the lock.
 * Also runs from SIGTERM/SIGINT/SIGALRM handlers lt_env_up() installs.
 */
void lt_env_down(struct lt_env *e);

/*
 * lt_run() - run a program and wait for it.
 * @argv:	the program and its arguments (searched in PATH)
 * @env:	"NAME=value" strings added to (or replacing in) the
 *		environment, NULL-terminated; may be NULL
 * @out:	file for its stdout, or NULL for the log
 * @log:	file for its stderr (and stdout when @out is NULL)
 *
 * Return: its exit status, 128 + signal, or -1 when it could not run.
 */
int lt_run(char *const argv[], char *const env[], const char *out,
	   const char *log);

/*
 * lt_lttng() - run `lttng ARGS...` (NULL-terminated), output to the log.
 *
 * Return: 0 when it succeeded, else -1 (the log says why).
 */
int lt_lttng(const struct lt_env *e, ...) __attribute__((sentinel));

/*
 * lt_session_begin() - create session @name writing to @outdir, enable
 * kfd:* (and @more, an event pattern, if not NULL) in a channel of
 * @subbuf_kib KiB x 8 sub-buffers (0: lttng's default channel), add the
 * vpid context, and start it.
 *
 * Return: 0 or -1.
 */
int lt_session_begin(const struct lt_env *e, const char *name,
		     const char *outdir, const char *more,
		     unsigned int subbuf_kib);

/* lt_session_end() - stop and destroy session @name. Return: 0 or -1. */
int lt_session_end(const struct lt_env *e, const char *name);

/*
 * lt_discarded() - the events session @name's channel dropped because
 * its buffers were full (lt_session_begin() with @subbuf_kib: "kfdch").
 *
 * Return: the count, or -1 when lttng did not say.
 */
long lt_discarded(const struct lt_env *e, const char *name,
		  const char *channel);

/*
 * lt_read_trace() - the trace at @outdir as babeltrace2 prints it.
 * @nlines:	set to the number of lines
 *
 * Return: a NULL-terminated array of lines (free with lt_free_lines()),
 * or NULL.
 */
char **lt_read_trace(const struct lt_env *e, const char *outdir,
		     size_t *nlines);

void lt_free_lines(char **lines);

/*
 * lt_field() - the value of field @name in a babeltrace2 text line:
 * "... { fd = 14, size = 4096, ... }" gives "4096" for "size". Enum
 * values give their label ("SIGNAL").
 *
 * Return: @buf, or NULL when the line has no such field.
 */
const char *lt_field(const char *line, const char *name, char *buf,
		     size_t size);

/* lt_is_event() - whether @line is an event named @event ("kfd:mmap"). */
int lt_is_event(const char *line, const char *event);

/* Print the command log (after a failure). */
void lt_show_log(const struct lt_env *e);

#endif /* LT_SESSION_H */
