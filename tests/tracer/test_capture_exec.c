/* SPDX-License-Identifier: MIT */
/*
 * The capture library across processes, end to end (test capture-exec,
 * split from test_capture.c, with the same fixture tt_capture.h): a
 * forked child's trace of its own, an exec's trace carrying on in the
 * next file, and every exec wrapper in one chain.
 *
 * Paths come from the environment (tests/tracer/meson.build): KT_KFDTRACE,
 * KT_WORKLOAD, KFDTRACE_CAPTURE_LIB and KFDTRACE_SIM_LIB. Without a
 * kfdtrace binary or kfdsim library every test here is skipped.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "tc_scratch.h"
#include "tc_text.h"
#include "tt_capture.h"

/* kt_workload fork [exit]: both traces complete, the child's in its own. */
static void
fork_case(struct tt_cx *cx, const char *how)
{
	const char *args[] = { getenv("KT_WORKLOAD"), "fork", how, NULL };
	struct tt_trace t, c;
	const struct tt_rec *f;
	char name[64], *child_path;
	int child;

	assert_true(tt_exited(tt_record(cx, NULL, NULL, args), 0));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	tt_check_complete(&t);
	f = tt_find_type(&t, KT_REC_FORK, 0);
	assert_non_null(f);
	assert_int_equal(f->r.u.fork.parent_pid, t.hdr.pid);
	child = f->r.u.fork.child_pid;
	assert_true(child > 0);
	assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 2);
	tt_check_counts(cx, &t, t.hdr.pid);

	snprintf(name, sizeof(name), "out.%d.kfdtrace", child);
	child_path = tt_path(cx->dir, name);
	assert_int_equal(tt_trace_load(child_path, &c), 0);
	/*
	 * Whether the child ended with exit() (destructors) or _exit() (the
	 * async-signal-safe path), its trace ends with END like the parent's.
	 */
	tt_check_complete(&c);
	assert_int_equal(c.hdr.pid, child);
	f = tt_find_type(&c, KT_REC_FORK, 0);
	assert_non_null(f);
	assert_int_equal(f->r.u.fork.parent_pid, t.hdr.pid);
	assert_int_equal(f->r.u.fork.child_pid, 0);
	assert_int_equal(tt_count_ioctl(&c, "GET_VERSION"), 2);
	assert_int_equal(tt_count(&c, KT_REC_OPEN), 1);
	assert_int_equal(tt_count(&c, KT_REC_CLOSE), 1);
	tt_check_counts(cx, &c, child);
	tt_trace_free(&c);
	tt_trace_free(&t);
	unlink(child_path);
	unlink(cx->out);
	unlink(cx->counts);
	free(child_path);
}

static void
test_fork(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "fork", NULL };
	struct tt_trace t;
	const struct tt_rec *f;
	char name[64], *child_path;

	tt_need_tools();
	fork_case(cx, "_exit");
	fork_case(cx, "exit");

	/* KFDTRACE_FOLLOW_FORK=0: the child writes nothing. */
	{
		char *env[] = { "KFDTRACE_FOLLOW_FORK=0", NULL };

		assert_true(tt_exited(tt_record(cx, NULL, env, args), 0));
		assert_int_equal(tt_trace_load(cx->out, &t), 0);
		f = tt_find_type(&t, KT_REC_FORK, 0);
		assert_non_null(f);
		snprintf(name, sizeof(name), "out.%d.kfdtrace",
			 f->r.u.fork.child_pid);
		child_path = tt_path(cx->dir, name);
		assert_int_equal(access(child_path, F_OK), -1);
		tt_trace_free(&t);
	}
	free(child_path);
}

static void
test_exec(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "exec", NULL };
	struct tt_trace t, e;
	const struct tt_rec *x;
	char *path;

	tt_need_tools();
	assert_true(tt_exited(tt_record(cx, NULL, NULL, args), 0));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	/* The first image's trace ends cleanly with the EXEC. */
	assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
	x = tt_find_type(&t, KT_REC_EXEC, 0);
	assert_non_null(x);
	assert_string_equal(x->str, getenv("KT_WORKLOAD"));
	assert_true(x->argv_len > 0);
	assert_non_null(memmem(x->argv, x->argv_len, "exec2", 6));
	assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 1);

	path = tt_path(cx->dir, "out.exec1.kfdtrace");
	assert_int_equal(tt_trace_load(path, &e), 0);
	assert_int_equal(e.st.integrity, KT_INTEGRITY_OK);
	assert_int_equal(e.hdr.pid, t.hdr.pid);
	assert_int_equal(tt_count_ioctl(&e, "GET_VERSION"), 1);
	assert_int_equal(tt_count_ioctl(&e, "GET_CLOCK_COUNTERS"), 1);
	assert_non_null(strstr(e.hdr.cmdline, "kt_workload"));
	tt_trace_free(&e);
	tt_trace_free(&t);
	/* record refuses to run over an earlier run's files. */
	unlink(path);
	free(path);
	unlink(cx->out);

	/* A failed exec: the trace was closed for it, tracing goes on in
	 * the next free name. */
	{
		const char *fargs[] = { getenv("KT_WORKLOAD"), "execfail", NULL };

		assert_true(tt_exited(tt_record(cx, NULL, NULL, fargs), 0));
		assert_int_equal(tt_trace_load(cx->out, &t), 0);
		assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
		assert_int_equal(tt_count(&t, KT_REC_EXEC), 1);
		assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 1);
		path = tt_path(cx->dir, "out.1.kfdtrace");
		assert_int_equal(tt_trace_load(path, &e), 0);
		assert_int_equal(e.st.integrity, KT_INTEGRITY_OK);
		assert_int_equal(tt_count_ioctl(&e, "GET_VERSION"), 1);
		assert_int_equal(tt_count(&e, KT_REC_CLOSE), 1);
		tt_trace_free(&e);
		tt_trace_free(&t);
		free(path);
	}
}

/*
 * kt_workload execchain: one process through nine images, each reached
 * by another exec wrapper (execl, execlp, execle, execv, execvp, execvpe,
 * fexecve, execve), stage 4 after an execvp of a missing program. Each
 * image traces into the file docs/tracer.md names; the test's list is
 * exact, so a wrapper that loses the state it hands the next image
 * (KFDTRACE_STATE) shows up as a wrong name. The workload itself checks
 * that the environments given to execle, execvpe and execve arrived
 * (exit 2 otherwise).
 */
struct chain_stage {
	const char *file;	/* under cx->dir */
	int stage;		/* the image: its cmdline's stage number */
	int full_path;		/* EXEC path: 1 $KT_WORKLOAD, 0 its base name,
				 * -1 the fd's file (fexecve), 2 the missing program */
	int next;		/* EXEC argv's stage; -1 no EXEC (last) */
	int opens;		/* an OPEN of /dev/kfd in this file */
	int clocks;		/* GET_CLOCK_COUNTERS made */
};

static const struct chain_stage chain[] = {
	{ "out.kfdtrace", 0, 1, 1, 1, 1 },		/* execl */
	{ "out.exec1.kfdtrace", 1, 0, 2, 1, 1 },	/* execlp */
	{ "out.exec2.kfdtrace", 2, 1, 3, 1, 1 },	/* execle */
	{ "out.exec3.kfdtrace", 3, 1, 4, 1, 1 },	/* execv */
	/* execvp of a missing program: the EXEC record closes the trace,
	 * the exec fails with ENOENT and tracing resumes in the next free
	 * name, on the fd still open. */
	{ "out.exec4.kfdtrace", 4, 2, -1, 1, 1 },
	{ "out.exec4.1.kfdtrace", 4, 0, 5, 0, 0 },	/* execvp */
	{ "out.exec5.kfdtrace", 5, 0, 6, 1, 1 },	/* execvpe */
	{ "out.exec6.kfdtrace", 6, -1, 7, 1, 1 },	/* fexecve */
	{ "out.exec7.kfdtrace", 7, 1, 8, 1, 1 },	/* execve */
	{ "out.exec8.kfdtrace", 8, 0, -1, 1, 1 },	/* exits */
};

#define CHAIN_N (sizeof(chain) / sizeof(chain[0]))

/* The argv bytes of an EXEC record: "ARG0\0execchain\0N\0". */
static void
check_exec_argv(const struct tt_rec *x, const char *arg0, int next)
{
	char want[1024];
	int len;

	if (next < 0) {
		len = snprintf(want, sizeof(want), "%s%cx", arg0, 0);
	} else {
		len = snprintf(want, sizeof(want), "%s%cexecchain%c%d", arg0, 0,
			       0, next);
	}
	assert_true(len > 0 && (size_t)len < sizeof(want));
	assert_int_equal(x->argv_len, (uint32_t)len + 1);
	assert_memory_equal(x->argv, want, (size_t)len + 1);
}

static void
test_exec_variants(void **state)
{
	struct tt_cx *cx = *state;
	const char *self = getenv("KT_WORKLOAD");
	const char *args[] = { self, "execchain", NULL };
	const char *base;
	struct tt_trace t[CHAIN_N];
	unsigned long versions = 0, clocks = 0;
	int kfd_fd = -1, status;
	DIR *d;
	struct dirent *de;
	size_t outs = 0;

	tt_need_tools();
	base = strrchr(self, '/') + 1;
	status = tt_record(cx, NULL, NULL, args);
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	assert_true(tt_exited(status, 0));

	/* Exactly these traces, no others. */
	d = opendir(cx->dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t i;

		if (strncmp(de->d_name, "out.", 4) ||
		    !strstr(de->d_name, ".kfdtrace"))
			continue;
		outs++;
		for (i = 0; i < CHAIN_N; i++)
			if (!strcmp(de->d_name, chain[i].file))
				break;
		if (i == CHAIN_N)
			fail_msg("unexpected trace %s", de->d_name);
	}
	closedir(d);
	assert_int_equal(outs, CHAIN_N);

	for (size_t i = 0; i < CHAIN_N; i++) {
		const struct chain_stage *c = &chain[i];
		char *path = tt_path(cx->dir, c->file), stage[16];
		const struct tt_rec *x, *gv, *open = NULL;
		uint64_t last_seq = 0;

		assert_int_equal(tt_trace_load(path, &t[i]), 0);
		free(path);
		/* Read back whole, END last, nothing lost. */
		tt_check_complete(&t[i]);
		assert_int_equal(t[i].hdr.pid, t[0].hdr.pid);
		/* Both preloads came through every exec: ours wrote the
		 * file, and it saw kfdsim loaded. */
		assert_true(t[i].hdr.flags & KT_HDR_SIMULATED);
		/* This image's command line: ".../kt_workload\0execchain\0K"
		 * (stage 0: no K). */
		assert_non_null(memmem(t[i].hdr.cmdline, t[i].hdr.cmdline_len,
				       "kt_workload", 11));
		snprintf(stage, sizeof(stage), "execchain%c%d", 0, c->stage);
		if (c->stage > 0)
			assert_non_null(memmem(t[i].hdr.cmdline,
					       t[i].hdr.cmdline_len, stage,
					       strlen("execchain") + 2));
		/* Sequence numbers: one thread, so dense and in file order
		 * (each image numbers its own file); times never go back,
		 * the THREAD_NAME that opens the file included. */
		for (size_t j = 0; j < t[i].n; j++) {
			if (j > 0) {
				assert_int_equal(t[i].recs[j].r.seq, last_seq + 1);
				assert_true(t[i].recs[j].r.ts >=
					    t[i].recs[j - 1].r.ts);
			}
			last_seq = t[i].recs[j].r.seq;
		}

		/* This stage's ioctls, and only those. */
		assert_int_equal(tt_count_ioctl(&t[i], "GET_VERSION"), 1);
		assert_int_equal(tt_count_ioctl(&t[i], "GET_CLOCK_COUNTERS"),
				 c->clocks);
		assert_int_equal(tt_count(&t[i], KT_REC_IOCTL), 1 + c->clocks);
		versions++;
		clocks += c->clocks;
		for (size_t j = 0; j < t[i].n; j++)
			if (t[i].recs[j].r.type == KT_REC_OPEN &&
			    t[i].recs[j].r.u.open.file_kind == KFD_FILE_KFD)
				open = &t[i].recs[j];
		gv = tt_find_ioctl(&t[i], "GET_VERSION", 0);
		assert_int_equal(gv->r.u.ioctl.ret, 0);
		if (c->opens) {
			assert_non_null(open);
			assert_string_equal(open->str, "/dev/kfd");
			kfd_fd = open->r.u.open.ret;
			assert_true(kfd_fd >= 0);
		} else {
			/* The fd the failed exec left open, known without
			 * an OPEN in this file. */
			assert_null(open);
			assert_int_equal(gv->r.u.ioctl.file_kind, KFD_FILE_KFD);
		}
		assert_int_equal(gv->r.u.ioctl.fd, kfd_fd);

		/* The EXEC record: last before END, path and argv as the
		 * program passed them to the wrapper. */
		if (c->next == -1 && c->full_path != 2) {
			assert_int_equal(tt_count(&t[i], KT_REC_EXEC), 0);
			continue;
		}
		assert_int_equal(tt_count(&t[i], KT_REC_EXEC), 1);
		x = &t[i].recs[t[i].n - 2];
		assert_int_equal(x->r.type, KT_REC_EXEC);
		switch (c->full_path) {
		case 1:
			assert_string_equal(x->str, self);
			check_exec_argv(x, self, c->next);
			break;
		case 0:
			assert_string_equal(x->str, base);
			check_exec_argv(x, base, c->next);
			break;
		case -1: {
			/* fexecve(): the file its fd was opened on. */
			char *real = realpath(self, NULL);

			assert_non_null(real);
			assert_string_equal(x->str, real);
			free(real);
			check_exec_argv(x, self, c->next);
			break;
		}
		default:
			assert_string_equal(x->str, "kt-no-such-program");
			check_exec_argv(x, "kt-no-such-program", -1);
			break;
		}
	}

	/* One process, in order: the next file starts after the EXEC that
	 * closed the previous one, and its ioctls come later still. */
	for (size_t i = 0; i + 1 < CHAIN_N; i++) {
		const struct tt_rec *x = &t[i].recs[t[i].n - 2];

		assert_true(t[i + 1].hdr.start_monotonic >= x->r.ts);
		for (size_t j = 0; j < t[i + 1].n; j++)
			if (t[i + 1].recs[j].r.type == KT_REC_IOCTL)
				assert_true(t[i + 1].recs[j].r.ts > x->r.ts);
	}
	/* What the program counted it did, all stages together. */
	assert_int_equal(tt_counted(cx, t[0].hdr.pid, "GET_VERSION"), versions);
	assert_int_equal(tt_counted(cx, t[0].hdr.pid, "GET_CLOCK_COUNTERS"),
			 clocks);
	assert_int_equal(versions, CHAIN_N);
	for (size_t i = 0; i < CHAIN_N; i++)
		tt_trace_free(&t[i]);
}
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fork, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_exec, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_exec_variants, tt_cx_setup, tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
