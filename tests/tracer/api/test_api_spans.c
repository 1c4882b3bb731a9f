/* SPDX-License-Identifier: MIT */
/*
 * API spans (kfdtrace record --api) on the simulator: Debian's rocminfo
 * on AMD's libhsakmt 5.2.3, or on ours when KT_THUNK_DIR names its build
 * directory. Each run is recorded with and without --api and the traces
 * are compared.
 *
 * Environment: KT_KFDTRACE (the kfdtrace binary), KT_THUNK_DIR (optional),
 * KT_TMP (a scratch directory). Skipped (77) without rocminfo or Debian's
 * library.
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

struct span {
	uint64_t seq, ts, t_exit, first, last;
	uint32_t tid;
	int32_t status;
	char *name, *args;
};

struct io {
	uint64_t seq, ts, t_exit;
	uint32_t tid, request;
	uint8_t kind;
};

struct trace {
	struct span *spans;
	size_t nspans;
	struct io *ios;
	size_t nios;
};

static struct trace with_api, without_api;
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

static void
load(const char *path, struct trace *t)
{
	struct kt_reader *r;
	struct kt_record rec;
	int ret;

	memset(t, 0, sizeof(*t));
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		if (rec.type == KT_REC_IOCTL) {
			struct io *io;

			t->ios = realloc(t->ios, (t->nios + 1) * sizeof(*t->ios));
			assert_non_null(t->ios);
			io = &t->ios[t->nios++];
			io->seq = rec.seq;
			io->ts = rec.ts;
			io->t_exit = rec.u.ioctl.t_exit;
			io->tid = rec.tid;
			io->request = rec.u.ioctl.request;
			io->kind = rec.u.ioctl.file_kind;
		} else if (rec.type == KT_REC_API_CALL) {
			struct span *s;

			t->spans = realloc(t->spans, (t->nspans + 1) * sizeof(*t->spans));
			assert_non_null(t->spans);
			s = &t->spans[t->nspans++];
			s->seq = rec.seq;
			s->ts = rec.ts;
			s->t_exit = rec.u.api.t_exit;
			s->first = rec.u.api.first_seq;
			s->last = rec.u.api.last_seq;
			s->tid = rec.tid;
			s->status = rec.u.api.status;
			s->name = strdup(rec.u.api.name);
			s->args = strdup(rec.u.api.args);
		}
	}
	assert_int_equal(ret, 0);
	kt_reader_close(r);
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
	if (access("/usr/bin/rocminfo", X_OK) ||
	    access("/usr/lib/x86_64-linux-gnu/libhsakmt.so.1", R_OK))
		return -1;
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
				 "--", "/usr/bin/rocminfo", NULL };
		run(argv, NULL);
	}
	{
		char *argv[] = { (char *)kfdtrace, "record", "--sim", "-o", b,
				 "--", "/usr/bin/rocminfo", NULL };
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

static const struct span *
find(const struct trace *t, const char *name, size_t nth)
{
	for (size_t i = 0; i < t->nspans; i++)
		if (!strcmp(t->spans[i].name, name) && nth-- == 0)
			return &t->spans[i];
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
	const struct span *s;
	const char *addr;
	unsigned long long va;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		s = find(&with_api, names[i], 0);
		assert_non_null(s);
		assert_int_equal(s->status, 0);
		assert_true(s->t_exit >= s->ts);
	}
	/* OpenKFD caused ioctls (GET_VERSION, apertures, ...). */
	s = find(&with_api, "hsaKmtOpenKFD", 0);
	assert_true(s->first <= s->last);
	assert_string_equal(s->args, "");
	/* Node 1 is the GPU: its properties, by number. */
	s = find(&with_api, "hsaKmtGetNodeProperties", 1);
	assert_non_null(s);
	assert_non_null(strstr(s->args, "node=1 props=0x"));
	/* AllocMemory: the input values and the address it returned. */
	s = find(&with_api, "hsaKmtAllocMemory", 0);
	assert_non_null(strstr(s->args, "node="));
	assert_non_null(strstr(s->args, " size=4096 flags=0x"));
	addr = strstr(s->args, " addr=0x");
	assert_non_null(addr);
	/* Where mmap() put it: anywhere, but a whole page. */
	va = strtoull(addr + strlen(" addr="), NULL, 16);
	assert_true(va != 0 && (va & 4095) == 0);
	assert_true(s->first == s->last);
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
	for (size_t i = 0; i < with_api.nios; i++) {
		const struct io *io = &with_api.ios[i];
		int by_seq = 0, by_time = 0;

		for (size_t j = 0; j < with_api.nspans; j++) {
			const struct span *s = &with_api.spans[j];

			if (s->tid != io->tid)
				continue;
			if (s->first <= io->seq && io->seq <= s->last) {
				by_seq++;
				assert_true(io->seq < s->seq);
			}
			if (s->ts <= io->ts && io->t_exit <= s->t_exit)
				by_time++;
		}
		assert_true(by_seq <= 1);
		if (by_seq != by_time)
			fail_msg("ioctl #%llu (0x%x, thread %u): in %d span(s) by seq, %d by time",
				 (unsigned long long)io->seq, io->request, io->tid,
				 by_seq, by_time);
		if (io->kind == KFD_FILE_KFD && by_seq != 1)
			fail_msg("KFD ioctl #%llu (0x%x, thread %u) in no span",
				 (unsigned long long)io->seq, io->request, io->tid);
		inside += by_seq;
	}
	assert_true(inside > 0);
}

/* Nested hsaKmt* calls give no spans: a thread's spans never overlap. */
static void
test_no_nesting(void **state)
{
	(void)state;
	for (size_t i = 0; i < with_api.nspans; i++)
		for (size_t j = 0; j < with_api.nspans; j++) {
			const struct span *a = &with_api.spans[i];
			const struct span *b = &with_api.spans[j];

			if (i == j || a->tid != b->tid)
				continue;
			assert_true(a->t_exit <= b->ts || b->t_exit <= a->ts);
			if (a->first <= a->last && b->first <= b->last)
				assert_true(a->last < b->first || b->last < a->first);
		}
}

/*
 * Whether ROCr's event thread wakes up before the process exits varies
 * from run to run (a SET_EVENT, then that thread's WAIT_EVENTS, or
 * neither): those two are left out of the comparison.
 */
static int
timing_dependent(const struct io *io)
{
	return io->kind == KFD_FILE_KFD &&
	       (io->request == KFD_ABI_IOC_SET_EVENT ||
		io->request == KFD_ABI_IOC_WAIT_EVENTS);
}

/* --api adds spans and nothing else: the same ioctls, once each. */
static void
test_same_ioctls(void **state)
{
	size_t i = 0, j = 0, n = 0;

	(void)state;
	assert_int_equal(without_api.nspans, 0);
	while (i < with_api.nios || j < without_api.nios) {
		if (i < with_api.nios && timing_dependent(&with_api.ios[i])) {
			i++;
			continue;
		}
		if (j < without_api.nios && timing_dependent(&without_api.ios[j])) {
			j++;
			continue;
		}
		assert_true(i < with_api.nios && j < without_api.nios);
		assert_int_equal(with_api.ios[i].request, without_api.ios[j].request);
		assert_int_equal(with_api.ios[i].kind, without_api.ios[j].kind);
		i++;
		j++;
		n++;
	}
	assert_true(n >= 30);
	/* Recorded once: no sequence number twice. */
	for (i = 0; i < with_api.nios; i++)
		for (j = i + 1; j < with_api.nios; j++)
			assert_true(with_api.ios[i].seq != with_api.ios[j].seq);
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

	if (access("/usr/bin/rocminfo", X_OK) ||
	    access("/usr/lib/x86_64-linux-gnu/libhsakmt.so.1", R_OK)) {
		printf("rocminfo or Debian's libhsakmt missing: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, NULL);
}
