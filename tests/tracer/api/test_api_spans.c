/* SPDX-License-Identifier: MIT */
/*
 * API spans (kfdtrace record --api) on the simulator: Debian's rocminfo
 * on AMD's libhsakmt 5.2.3, or on ours when KT_THUNK_DIR names its build
 * directory. Each run is recorded with and without --api and the traces
 * are compared.
 *
 * Environment: KT_KFDTRACE (the kfdtrace binary), KT_THUNK_DIR (optional),
 * KT_TMP (a scratch directory), KT_ROCMINFO and KT_AMD_LIBDIR (Debian's
 * rocminfo and the directory of its libhsakmt.so.1, where meson found
 * them: tests/common). Skipped without rocminfo or Debian's library, a
 * failure under CI=true (tc_skip.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "tc_skip.h"
#include "tt_trace.h"

static struct tt_trace with_api, without_api;
/* $KT_ROCMINFO, checked by main() before the tests run. */
static char *rocminfo;
static char dump_text[1 << 20];

static void
run(char *const argv[], const char *out_path)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		const char *dir = getenv("KT_THUNK_DIR");

		if (dir && *dir)
			setenv("LD_LIBRARY_PATH", dir, 1);
		else
			unsetenv("LD_LIBRARY_PATH");
		if (!freopen(out_path ? out_path : "/dev/null", "w", stdout))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Every record of @path, read to the end without an error. */
static void
load(const char *path, struct tt_trace *t)
{
	assert_int_equal(tt_trace_load(path, t), 0);
	assert_int_equal(t->end_ret, 0);
}

static int
setup(void **state)
{
	const char *kfdtrace = getenv("KT_KFDTRACE");
	const char *tmp = getenv("KT_TMP");
	char a[4096], b[4096], d[4096];
	FILE *f;
	size_t n;

	(void)state;
	if (!kfdtrace || !tmp)
		return -1;
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return -1;
	snprintf(a, sizeof(a), "%s/api.kfdtrace", tmp);
	snprintf(b, sizeof(b), "%s/noapi.kfdtrace", tmp);
	snprintf(d, sizeof(d), "%s/api.txt", tmp);
	unlink(a);
	unlink(b);
	{
		char *argv[] = { (char *)kfdtrace, "record", "--api", "--sim", "-o", a,
				 "--", rocminfo, NULL };
		run(argv, NULL);
	}
	{
		char *argv[] = { (char *)kfdtrace, "record", "--sim", "-o", b,
				 "--", rocminfo, NULL };
		run(argv, NULL);
	}
	{
		char *argv[] = { (char *)kfdtrace, "dump", a, NULL };
		run(argv, d);
	}
	load(a, &with_api);
	load(b, &without_api);
	f = fopen(d, "r");
	assert_non_null(f);
	n = fread(dump_text, 1, sizeof(dump_text) - 1, f);
	dump_text[n] = '\0';
	fclose(f);
	return 0;
}

/* The @nth (from 0) API call @name of @t, or NULL. */
static const struct kt_record *
find(const struct tt_trace *t, const char *name, size_t nth)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct kt_record *s = &t->recs[i].r;

		if (s->type == KT_REC_API_CALL && !strcmp(s->u.api.name, name) &&
		    nth-- == 0)
			return s;
	}
	return NULL;
}

/* The calls every rocminfo run makes, with plausible arguments. */
static void
test_spans_present(void **state)
{
	static const char *const names[] = {
		"hsaKmtOpenKFD", "hsaKmtAcquireSystemProperties",
		"hsaKmtGetNodeProperties", "hsaKmtAllocMemory",
		"hsaKmtMapMemoryToGPUNodes", "hsaKmtCreateEvent",
		"hsaKmtFreeMemory",
	};
	const struct kt_record *s;
	const char *addr;
	unsigned long long va;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		s = find(&with_api, names[i], 0);
		assert_non_null(s);
		assert_int_equal(s->u.api.status, 0);
		assert_true(s->u.api.t_exit >= s->ts);
	}
	/* OpenKFD caused ioctls (GET_VERSION, apertures, ...). */
	s = find(&with_api, "hsaKmtOpenKFD", 0);
	assert_true(s->u.api.first_seq <= s->u.api.last_seq);
	assert_string_equal(s->u.api.args, "");
	/* Node 1 is the GPU: its properties, by number. */
	s = find(&with_api, "hsaKmtGetNodeProperties", 1);
	assert_non_null(s);
	assert_non_null(strstr(s->u.api.args, "node=1 props=0x"));
	/* AllocMemory: the input values and the address it returned. */
	s = find(&with_api, "hsaKmtAllocMemory", 0);
	assert_non_null(strstr(s->u.api.args, "node="));
	assert_non_null(strstr(s->u.api.args, " size=4096 flags=0x"));
	addr = strstr(s->u.api.args, " addr=0x");
	assert_non_null(addr);
	/* Where mmap() put it: anywhere, but a whole page. */
	va = strtoull(addr + strlen(" addr="), NULL, 16);
	assert_true(va != 0 && (va & 4095) == 0);
	assert_true(s->u.api.first_seq == s->u.api.last_seq);
}

/*
 * Every ioctl lies in at most one span of its own thread by sequence
 * number, exactly when its time lies inside that span; every /dev/kfd
 * ioctl (only the thunk makes them) lies in one.
 */
static void
test_ioctls_enclosed(void **state)
{
	size_t inside = 0;

	(void)state;
	for (size_t i = 0; i < with_api.n; i++) {
		const struct kt_record *io = &with_api.recs[i].r;
		int by_seq = 0, by_time = 0;

		if (io->type != KT_REC_IOCTL)
			continue;
		for (size_t j = 0; j < with_api.n; j++) {
			const struct kt_record *s = &with_api.recs[j].r;

			if (s->type != KT_REC_API_CALL || s->tid != io->tid)
				continue;
			if (s->u.api.first_seq <= io->seq &&
			    io->seq <= s->u.api.last_seq) {
				by_seq++;
				assert_true(io->seq < s->seq);
			}
			if (s->ts <= io->ts && io->u.ioctl.t_exit <= s->u.api.t_exit)
				by_time++;
		}
		assert_true(by_seq <= 1);
		if (by_seq != by_time)
			fail_msg("ioctl #%llu (0x%x, thread %u): in %d span(s) by seq, %d by time",
				 (unsigned long long)io->seq, io->u.ioctl.request,
				 io->tid, by_seq, by_time);
		if (io->u.ioctl.file_kind == KFD_FILE_KFD && by_seq != 1)
			fail_msg("KFD ioctl #%llu (0x%x, thread %u) in no span",
				 (unsigned long long)io->seq, io->u.ioctl.request,
				 io->tid);
		inside += by_seq;
	}
	assert_true(inside > 0);
}

/* Nested hsaKmt* calls give no spans: a thread's spans never overlap. */
static void
test_no_nesting(void **state)
{
	(void)state;
	for (size_t i = 0; i < with_api.n; i++)
		for (size_t j = 0; j < with_api.n; j++) {
			const struct kt_record *a = &with_api.recs[i].r;
			const struct kt_record *b = &with_api.recs[j].r;

			if (i == j || a->type != KT_REC_API_CALL ||
			    b->type != KT_REC_API_CALL || a->tid != b->tid)
				continue;
			assert_true(a->u.api.t_exit <= b->ts || b->u.api.t_exit <= a->ts);
			if (a->u.api.first_seq <= a->u.api.last_seq &&
			    b->u.api.first_seq <= b->u.api.last_seq)
				assert_true(a->u.api.last_seq < b->u.api.first_seq ||
					    b->u.api.last_seq < a->u.api.first_seq);
		}
}

/*
 * Whether ROCr's event thread wakes up before the process exits varies
 * from run to run (a SET_EVENT, then that thread's WAIT_EVENTS, or
 * neither): those two are left out of the comparison.
 */
static int
timing_dependent(const struct kt_ioctl_rec *io)
{
	return io->file_kind == KFD_FILE_KFD &&
	       (io->request == KFD_ABI_IOC_SET_EVENT ||
		io->request == KFD_ABI_IOC_WAIT_EVENTS);
}

/* From record @i on, the next ioctl of @t that is compared, or t->n. */
static size_t
compared_ioctl(const struct tt_trace *t, size_t i)
{
	while (i < t->n && (t->recs[i].r.type != KT_REC_IOCTL ||
			    timing_dependent(&t->recs[i].r.u.ioctl)))
		i++;
	return i;
}

/* --api adds spans and nothing else: the same ioctls, once each. */
static void
test_same_ioctls(void **state)
{
	size_t i, j, n = 0;

	(void)state;
	assert_int_equal(tt_count(&without_api, KT_REC_API_CALL), 0);
	i = compared_ioctl(&with_api, 0);
	j = compared_ioctl(&without_api, 0);
	while (i < with_api.n || j < without_api.n) {
		const struct kt_ioctl_rec *a, *b;

		assert_true(i < with_api.n && j < without_api.n);
		a = &with_api.recs[i].r.u.ioctl;
		b = &without_api.recs[j].r.u.ioctl;
		assert_int_equal(a->request, b->request);
		assert_int_equal(a->file_kind, b->file_kind);
		i = compared_ioctl(&with_api, i + 1);
		j = compared_ioctl(&without_api, j + 1);
		n++;
	}
	assert_true(n >= 30);
	/* Recorded once: no sequence number twice. */
	for (i = 0; i < with_api.n; i++)
		for (j = i + 1; j < with_api.n; j++)
			if (with_api.recs[i].r.type == KT_REC_IOCTL &&
			    with_api.recs[j].r.type == KT_REC_IOCTL)
				assert_true(with_api.recs[i].r.seq !=
					    with_api.recs[j].r.seq);
}

/* kfdtrace dump prints each span as a call with its status and ioctls. */
static void
test_dump(void **state)
{
	(void)state;
	assert_non_null(strstr(dump_text, "hsaKmtOpenKFD() = 0 SUCCESS /* ioctls #"));
	assert_non_null(strstr(dump_text, "hsaKmtAllocMemory(node="));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_present),
		cmocka_unit_test(test_ioctls_enclosed),
		cmocka_unit_test(test_no_nesting),
		cmocka_unit_test(test_same_ioctls),
		cmocka_unit_test(test_dump),
	};

	const char *amd_dir = getenv("KT_AMD_LIBDIR");
	char amd_lib[4096];

	rocminfo = getenv("KT_ROCMINFO");
	if (!rocminfo || !*rocminfo || access(rocminfo, X_OK))
		tc_skip("rocminfo is not installed");
	snprintf(amd_lib, sizeof(amd_lib), "%s/libhsakmt.so.1",
		 amd_dir ? amd_dir : "");
	if (!amd_dir || !*amd_dir || access(amd_lib, R_OK))
		tc_skip("Debian's libhsakmt1 is not installed");
	return cmocka_run_group_tests(tests, setup, NULL);
}
