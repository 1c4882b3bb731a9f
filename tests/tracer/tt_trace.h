/* SPDX-License-Identifier: MIT */
/*
 * Test helpers of the tracer suite: a trace file read back into memory
 * (the reader's pointers live only until its next record, so every record
 * is deep-copied), and small process helpers.
 */
#ifndef TT_TRACE_H
#define TT_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <kfdtrace/trace.h>

struct tt_buf {
	uint16_t index, flags;
	uint64_t addr;
	uint32_t len_before, len_after;
	uint8_t *before, *after;
};

struct tt_rec {
	/* Scalars; pointers below replace its own (API_CALL: its name and
	 * args point to str and api_args). */
	struct kt_record r;
	uint8_t *arg_before, *arg_after;
	struct tt_buf *bufs;
	char *str;			/* open/exec path, thread name, annotation,
					 * API call name */
	char *api_args;			/* API call */
	char *argv;			/* exec */
	uint32_t argv_len;
	unsigned int topo_files;
	char **topo_paths;
	uint8_t **topo_data;
	uint32_t *topo_len;
};

struct tt_trace {
	struct kt_header hdr;
	struct tt_rec *recs;
	size_t n;
	int end_ret;			/* kt_reader_next()'s final value */
	struct kt_reader_status st;
};

/*
 * tt_trace_load() - read a whole trace.
 * Return: 0, or the negative error of kt_reader_open().
 */
int tt_trace_load(const char *path, struct tt_trace *t);
void tt_trace_free(struct tt_trace *t);

/* How many records of @type; for ioctls, optionally of schema row @name. */
size_t tt_count(const struct tt_trace *t, unsigned int type);
size_t tt_count_ioctl(const struct tt_trace *t, const char *name);
/* The @nth (from 0) ioctl record of schema row @name, or NULL. */
const struct tt_rec *tt_find_ioctl(const struct tt_trace *t, const char *name,
				   size_t nth);
/* The schema name of an ioctl record ("?" for unknown requests). */
const char *tt_ioctl_name(const struct tt_rec *rec);

/*
 * A fresh private directory under $TMPDIR (or /tmp); caller frees, and
 * removes it with tc_scratch_remove() (tc_scratch.h).
 */
char *tt_tmpdir(void);

/* Join a directory and a name into a static-free malloc'ed path. */
char *tt_path(const char *dir, const char *name);

/*
 * tt_copy_file() - copy @from to the new file @to (which must not exist)
 * with @mode. Return: 0 or -1.
 */
int tt_copy_file(const char *from, const char *to, mode_t mode);

/*
 * tt_run() - run @argv (argv[0] a path) with extra environment entries
 * @env ("NAME=value", NULL-terminated, may be NULL), stdout and stderr
 * appended to @log (NULL: inherited), every signal at its default, and
 * wait.
 * Return: the wait status, or -1.
 */
int tt_run(char *const argv[], char *const env[], const char *log);

/*
 * tt_spawn() - tt_run() without the wait: every signal at its default,
 * none blocked. Return: the pid, or -1.
 */
pid_t tt_spawn(char *const argv[], char *const env[], const char *log);

/* tt_wait() - wait for @pid (EINTR retried). Return: the status, or -1. */
int tt_wait(pid_t pid);

#endif /* TT_TRACE_H */
