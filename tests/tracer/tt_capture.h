/* SPDX-License-Identifier: MIT */
/*
 * The end-to-end tests' fixture (test_capture, test_torture): a scratch
 * directory per test, `kfdtrace record --sim` of a program into it, and
 * the trace checked against what kt_workload counted it did. The paths of
 * the tools come from the environment (tests/tracer/meson.build):
 * KT_KFDTRACE, KT_WORKLOAD, KFDTRACE_CAPTURE_LIB and KFDTRACE_SIM_LIB.
 * The checks fail the running cmocka test.
 */
#ifndef TT_CAPTURE_H
#define TT_CAPTURE_H

#include "tt_trace.h"

/* One test's scratch directory and the files in it. */
struct tt_cx {
	char *dir;		/* the directory (tt_tmpdir()) */
	char *out;		/* the trace: dir/out.kfdtrace */
	char *counts;		/* kt_workload's counts (KT_COUNTS): dir/counts */
	char *log;		/* the programs' stdout and stderr: dir/log */
};

/*
 * tt_cx_setup() - cmocka setup: a fresh struct tt_cx in *@state.
 * Return: 0.
 */
int tt_cx_setup(void **state);

/*
 * tt_cx_teardown() - cmocka teardown: remove the directory with all in it
 * and free the struct tt_cx of *@state.
 * Return: 0.
 */
int tt_cx_teardown(void **state);

/*
 * tt_env_path() - the value of the environment variable @name when it
 * names a readable file, else NULL.
 */
const char *tt_env_path(const char *name);

/* tt_need_tools() - skip the test unless all four tools are built. */
void tt_need_tools(void);

/* tt_show_log() - print the log of @cx line by line (nothing if absent). */
void tt_show_log(const struct tt_cx *cx);

/*
 * tt_record() - run `kfdtrace record --sim -o OUT [@extra...] -- @args...`
 * with KT_COUNTS set to @cx's counts file and up to six more environment
 * entries @env (NULL-terminated; both lists may be NULL), output appended
 * to @cx's log.
 * Return: the wait status of kfdtrace.
 */
int tt_record(const struct tt_cx *cx, const char *const *extra, char *const *env,
	      const char *const *args);

/*
 * tt_spawn_preloaded() - start @args straight under the capture library
 * and kfdsim (@traced 1) or kfdsim alone (0), not through kfdtrace, with
 * KFDTRACE_OUTPUT=@cx's out, KT_COUNTS=@cx's counts and up to four more
 * environment entries @env (NULL-terminated, may be NULL); output
 * appended to @cx's log. Return: the pid (tt_wait() it), or -1.
 */
pid_t tt_spawn_preloaded(const struct tt_cx *cx, int traced, char *const *env,
			 const char *const *args);

/* tt_exited() - whether wait status @status is a normal exit with @code. */
int tt_exited(int status, int code);

/*
 * tt_counted() - kt_workload's own count of the ioctl @name ("UNKNOWN": any
 * other request) for process @pid, or for every process when @pid is 0.
 */
unsigned long tt_counted(const struct tt_cx *cx, int pid, const char *name);

/*
 * tt_check_counts() - fail unless the trace @t holds, for every KFD ioctl
 * kt_workload makes, as many records as process @pid counted, and nothing
 * else.
 */
void tt_check_counts(const struct tt_cx *cx, const struct tt_trace *t, int pid);

/*
 * tt_check_complete() - fail unless @t was read back whole: a clean END
 * record last, with the highest sequence number, counting every record
 * before it and no loss.
 */
void tt_check_complete(const struct tt_trace *t);

/*
 * tt_device_count() - what kfdsim answered: the 64-bit count at the start
 * of @path, the file KFDSIM_IOCTL_COUNT named (docs/kfdsim.md). Fails the
 * test when it cannot be read.
 */
uint64_t tt_device_count(const char *path);

/* tt_find_type() - the @nth (from 0) record of type @type in @t, or NULL. */
const struct tt_rec *tt_find_type(const struct tt_trace *t, unsigned int type, size_t nth);

#endif /* TT_CAPTURE_H */
