/* SPDX-License-Identifier: MIT */
/*
 * The end-to-end tests' fixture (tt_capture.h).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/trace.h>

#include "tc_scratch.h"
#include "tt_capture.h"

const char *
tt_env_path(const char *name)
{
	const char *v = getenv(name);

	return v && *v && access(v, R_OK) == 0 ? v : NULL;
}

int
tt_cx_setup(void **state)
{
	struct tt_cx *cx = calloc(1, sizeof(*cx));

	cx->dir = tt_tmpdir();
	cx->out = tt_path(cx->dir, "out.kfdtrace");
	cx->counts = tt_path(cx->dir, "counts");
	cx->log = tt_path(cx->dir, "log");
	*state = cx;
	return 0;
}

int
tt_cx_teardown(void **state)
{
	struct tt_cx *cx = *state;

	tc_scratch_remove(cx->dir, NULL);
	free(cx->dir);
	free(cx->out);
	free(cx->counts);
	free(cx->log);
	free(cx);
	return 0;
}

void
tt_need_tools(void)
{
	if (!tt_env_path("KT_KFDTRACE") || !tt_env_path("KT_WORKLOAD") ||
	    !tt_env_path("KFDTRACE_CAPTURE_LIB") || !tt_env_path("KFDTRACE_SIM_LIB")) {
		print_message("kfdtrace, kt_workload, the capture library or "
			      "kfdsim is not built\n");
		skip();
	}
}

void
tt_show_log(const struct tt_cx *cx)
{
	FILE *f = fopen(cx->log, "r");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		print_message("log: %s", line);
	fclose(f);
}

int
tt_record(const struct tt_cx *cx, const char *const *extra, char *const *env,
	      const char *const *args)
{
	const char *argv[32];
	int n = 0, status;
	char *envv[8];
	int m = 0;

	argv[n++] = getenv("KT_KFDTRACE");
	argv[n++] = "record";
	argv[n++] = "--sim";
	argv[n++] = "-o";
	argv[n++] = cx->out;
	for (int i = 0; extra && extra[i]; i++)
		argv[n++] = extra[i];
	argv[n++] = "--";
	for (int i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (asprintf(&envv[m++], "KT_COUNTS=%s", cx->counts) < 0)
		fail();
	for (int i = 0; env && env[i] && m < 7; i++)
		envv[m++] = env[i];
	envv[m] = NULL;
	status = tt_run((char *const *)argv, envv, cx->log);
	free(envv[0]);
	return status;
}

pid_t
tt_spawn_preloaded(const struct tt_cx *cx, int traced, char *const *env,
		   const char *const *args)
{
	char *envv[8];
	int m = 0;
	pid_t pid;

	if (traced && asprintf(&envv[m++], "LD_PRELOAD=%s:%s",
			       getenv("KFDTRACE_CAPTURE_LIB"),
			       getenv("KFDTRACE_SIM_LIB")) < 0)
		fail();
	if (!traced && asprintf(&envv[m++], "LD_PRELOAD=%s",
				getenv("KFDTRACE_SIM_LIB")) < 0)
		fail();
	if (asprintf(&envv[m++], "KFDTRACE_OUTPUT=%s", cx->out) < 0 ||
	    asprintf(&envv[m++], "KT_COUNTS=%s", cx->counts) < 0)
		fail();
	for (int i = 0; env && env[i] && m < 7; i++)
		envv[m++] = strdup(env[i]);
	envv[m] = NULL;
	pid = tt_spawn((char *const *)args, envv, cx->log);
	for (int i = 0; i < m; i++)
		free(envv[i]);
	return pid;
}

int
tt_exited(int status, int code)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

unsigned long
tt_counted(const struct tt_cx *cx, int pid, const char *name)
{
	FILE *f = fopen(cx->counts, "r");
	unsigned long total = 0, n;
	char kind[64];
	int p;

	if (!f)
		return 0;
	while (fscanf(f, "%d %63s %lu", &p, kind, &n) == 3)
		if ((!pid || p == pid) && !strcmp(kind, name))
			total += n;
	fclose(f);
	return total;
}

void
tt_check_counts(const struct tt_cx *cx, const struct tt_trace *t, int pid)
{
	static const char *const names[] = {
		"GET_VERSION", "GET_PROCESS_APERTURES_NEW", "ACQUIRE_VM",
		"ALLOC_MEMORY_OF_GPU", "MAP_MEMORY_TO_GPU",
		"UNMAP_MEMORY_FROM_GPU", "FREE_MEMORY_OF_GPU", "CREATE_EVENT",
		"DESTROY_EVENT", "GET_CLOCK_COUNTERS",
	};
	size_t known = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = tt_count_ioctl(t, names[i]);

		assert_int_equal(n, tt_counted(cx, pid, names[i]));
		known += n;
	}
	/* Only KFD ioctls here; anything else is the raw one. */
	assert_int_equal(tt_count(t, KT_REC_IOCTL) - known,
			 tt_counted(cx, pid, "UNKNOWN"));
}

void
tt_check_complete(const struct tt_trace *t)
{
	const struct tt_rec *end;

	assert_int_equal(t->st.integrity, KT_INTEGRITY_OK);
	assert_true(t->n > 1);
	end = &t->recs[t->n - 1];
	assert_int_equal(end->r.type, KT_REC_END);
	assert_int_equal(end->r.u.end.records, t->n - 1);
	assert_int_equal(end->r.u.end.lost, 0);
	assert_int_equal(end->r.u.end.flags & KT_END_INCOMPLETE, 0);
	for (size_t i = 0; i + 1 < t->n; i++)
		assert_true(t->recs[i].r.seq < end->r.seq);
}

uint64_t
tt_device_count(const char *path)
{
	uint64_t n = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail_msg("kfdsim wrote no count to %s", path);
	assert_int_equal(read(fd, &n, sizeof(n)), sizeof(n));
	close(fd);
	return n;
}

const struct tt_rec *
tt_find_type(const struct tt_trace *t, unsigned int type, size_t nth)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->recs[i].r.type == type && nth-- == 0)
			return &t->recs[i];
	return NULL;
}
