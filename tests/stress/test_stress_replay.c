/* SPDX-License-Identifier: MIT */
/*
 * The replayer under concurrent load: kfdtrace's libhsakmt, linked
 * statically so that its ioctls go through this program's dispatch point,
 * runs four threads with a recorder attached. Each thread allocates, maps,
 * unmaps and frees small VRAM and system buffers, and the threads hand a
 * token round a ring: thread i sets the event thread (i + 1) % 4 waits on,
 * then waits for its own (with a timeout, so a lost set fails instead of
 * hanging). The capture is then replayed in a forked child, a fresh
 * process and so a fresh KFD process (the kernel and kfdsim tie the KFD
 * process to the process, and this one's must not be reused): once with
 * each captured thread on a thread of its own (opts.threads), which must
 * match the capture in full (strict verification). The serial replay is
 * not run here: this ring makes waits that were blocked in the kernel
 * while two sets came, which the serial replay cannot always reproduce
 * (docs/replay.md, Limits).
 *
 * Under ThreadSanitizer (scripts/ci-tsan.sh) this is what exercises the
 * threads replay's locking (replay/threads.c, threads_order.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/recorder.h>
#include <kfdtrace/replay.h>

#include "stress_util.h"
#include "tc_run.h"

#define REPLAY_THREADS	4
#define ROUNDS		64	/* token passes per thread */
#define STEPS		3	/* memory operations per round */
#define WAIT_MS		5000	/* one wait for the token, at most */
#define CHILD_SECONDS	120	/* one replay, at most */

static struct stress_machine mach;
static HsaEvent *events[REPLAY_THREADS];
/* Tokens handed to each thread so far; counted before the set. */
static atomic_uint tokens[REPLAY_THREADS];
/* A wait timed out: the others stop waiting too. */
static atomic_bool broken;
static atomic_ulong sets, waits;

/*
 * The recorder sees only ioctls; the capture library records opens and
 * closes of the device files too, and the replay needs them to open its
 * own. So this program interposes open() and close() (the thunk, linked
 * in, calls these) and records those of /dev/kfd and render nodes, as the
 * capture library does. Only the main thread opens or closes them.
 */
static struct kfd_recorder *_Atomic recording;
static atomic_bool device_fd[1024];

static enum kfd_file_kind
path_kind(const char *path)
{
	if (!strcmp(path, "/dev/kfd"))
		return KFD_FILE_KFD;
	return strncmp(path, "/dev/dri/renderD", 16) ? 0 : KFD_FILE_RENDER;
}

int
open(const char *path, int flags, ...)
{
	static int (*_Atomic real_open)(const char *, int, ...);
	struct kfd_recorder *rec = atomic_load(&recording);
	enum kfd_file_kind kind = path_kind(path);
	struct kt_record r;
	mode_t mode = 0;
	va_list ap;
	int fd, err;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	fd = real_open(path, flags, mode);
	err = errno;
	if (rec && kind) {
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_OPEN;
		r.u.open.path = path;
		r.u.open.flags = flags;
		r.u.open.mode = (uint32_t)mode;
		r.u.open.file_kind = (uint8_t)kind;
		r.u.open.ret = fd;
		r.u.open.err = fd < 0 ? err : 0;
		kfd_recorder_append(rec, &r);
		if (fd >= 0 && fd < 1024)
			atomic_store(&device_fd[fd], true);
	}
	errno = err;
	return fd;
}

int
close(int fd)
{
	static int (*_Atomic real_close)(int);
	struct kfd_recorder *rec = atomic_load(&recording);
	struct kt_record r;
	int ret, err;

	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	ret = real_close(fd);
	err = errno;
	if (rec && fd >= 0 && fd < 1024 && atomic_exchange(&device_fd[fd], false)) {
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_CLOSE;
		r.u.close.fd = fd;
		r.u.close.ret = ret;
		r.u.close.err = ret < 0 ? err : 0;
		kfd_recorder_append(rec, &r);
	}
	errno = err;
	return ret;
}

struct ring_worker {
	struct stress_worker w;
	unsigned int self;
};

/*
 * One thread of the ring. A set may find the event still signalled by the
 * previous one (auto-reset events do not count), so the thread waits while
 * the tokens handed to it do not cover its current lap, not once per set: the
 * set for a lap it waits for always comes, since it is counted first.
 */
static void *
ring_main(void *arg)
{
	struct ring_worker *rw = arg;
	unsigned int next = (rw->self + 1) % REPLAY_THREADS;
	HSAKMT_STATUS st;

	for (unsigned int r = 0; r < ROUNDS && !atomic_load(&broken); r++) {
		for (unsigned int s = 0; s < STEPS; s++)
			stress_worker_step(&rw->w, &mach);
		atomic_fetch_add(&tokens[next], 1);
		st = hsaKmtSetEvent(events[next]);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		atomic_fetch_add(&sets, 1);
		while (atomic_load(&tokens[rw->self]) <= r && !atomic_load(&broken)) {
			st = hsaKmtWaitOnEvent(events[rw->self], WAIT_MS);
			atomic_fetch_add(&waits, 1);
			if (st != HSAKMT_STATUS_SUCCESS) {
				STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
				atomic_store(&broken, true);
			}
		}
	}
	stress_worker_drain(&rw->w);
	return NULL;
}

/* Record the ring workload into @path, from hsaKmtOpenKFD() on. */
static void
record_workload(const char *path)
{
	static struct ring_worker rws[REPLAY_THREADS];
	struct kfd_recorder_opts opts = { .producer = "stress", .flags = KFD_REC_SIMULATED };
	pthread_t th[REPLAY_THREADS];
	struct kfd_recorder *rec;

	assert_int_equal(kfd_recorder_open(path, &opts, &rec), 0);
	assert_int_equal(kfd_recorder_attach(rec), 0);
	atomic_store(&recording, rec);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(stress_machine_get(&mach), 0);
	for (unsigned int i = 0; i < REPLAY_THREADS; i++)
		assert_non_null(events[i] = stress_event_new(false));
	for (unsigned int i = 0; i < REPLAY_THREADS; i++) {
		stress_worker_init(&rws[i].w, 200 + i, STRESS_OP_MEMORY, &mach, NULL, NULL);
		rws[i].self = i;
		assert_int_equal(pthread_create(&th[i], NULL, ring_main, &rws[i]), 0);
	}
	for (unsigned int i = 0; i < REPLAY_THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	for (unsigned int i = 0; i < REPLAY_THREADS; i++)
		assert_int_equal(hsaKmtDestroyEvent(events[i]), HSAKMT_STATUS_SUCCESS);
	/* No ioctl, open or close from here on until the recorder is closed. */
	atomic_store(&recording, NULL);
	assert_int_equal(kfd_recorder_close(rec), 0);
	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/*
 * The child's replay of @path, its report on @out. Return: the exit
 * status: 0 for a match, 10 + the verdict otherwise, 2 and 3 when the
 * trace cannot be opened or its GPUs matched.
 */
static int
child_replay(const char *path, FILE *out, int threads)
{
	struct kfd_replay_opts o = { .threads = threads, .keep_going = 1, .out = out };
	struct kfd_replay_summary sum;
	enum kfd_replay_status st;
	struct kfd_replay *r;
	char err[256] = "";
	int ret;

	ret = kfd_replay_open(path, &r, err, sizeof(err));
	if (ret) {
		fprintf(out, "stress-replay: kfd_replay_open: %d %s\n", ret, err);
		return 2;
	}
	ret = kfd_replay_match(r, &o);
	if (ret) {
		fprintf(out, "stress-replay: kfd_replay_match: %d\n", ret);
		kfd_replay_close(r);
		return 3;
	}
	st = kfd_replay_run(r, &o, &sum);
	fprintf(out, "stress-replay: status %d, %llu records, %llu divergences\n", (int)st,
		(unsigned long long)sum.records, (unsigned long long)sum.divergences);
	kfd_replay_close(r);
	return st == KFD_REPLAY_MATCH ? 0 : 10 + (int)st;
}

/* Print the file @path to stdout, or only its lines starting with @prefix. */
static void
print_file(const char *path, const char *prefix)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!prefix || strstr(line, prefix))
			fputs(line, stdout);
	fclose(f);
}

/* Whether a line of the file @path has @what in it. */
static bool
file_has(const char *path, const char *what)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	if (f)
		fclose(f);
	return found;
}

/*
 * Replay @trace in a forked child, its report into @outpath.
 * Return: the child's exit status (-1: it did not exit).
 */
static int
replay_in_child(const char *trace, const char *outpath, int threads)
{
	int status, ret;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *out = fopen(outpath, "w");

		stress_watchdog(CHILD_SECONDS);
		if (!out)
			_exit(4);
		ret = child_replay(trace, out, threads);
		fclose(out);
		/* exit(), not _exit(): a sanitizer's checks at exit run too. */
		exit(ret);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	ret = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (ret != 0) {
		printf("stress-replay: the %s replay's child: %s %d; its report:\n",
		       threads ? "threads" : "serial", ret < 0 ? "signal" : "exit status",
		       ret < 0 ? WTERMSIG(status) : ret);
		print_file(outpath, NULL);
	} else {
		print_file(outpath, "result:");
	}
	return ret;
}

static void
test_replay_threads(void **state)
{
	char dir[] = "/tmp/kfdtrace-stress-XXXXXX";
	char trace[64], out_mt[64];
	int st_mt;
	bool threaded;
	double t0 = tc_now();

	(void)state;
	stress_watchdog(CHILD_SECONDS * 2 + 120);
	assert_non_null(mkdtemp(dir));
	snprintf(trace, sizeof(trace), "%s/ring.kfdtrace", dir);
	snprintf(out_mt, sizeof(out_mt), "%s/threads.out", dir);

	record_workload(trace);
	printf("stress-replay: recorded %u threads x %u rounds in %.1f s: %lu sets, %lu waits, "
	       "%lu failures\n", REPLAY_THREADS, ROUNDS, tc_now() - t0, atomic_load(&sets),
	       atomic_load(&waits), stress_failures());

	st_mt = replay_in_child(trace, out_mt, 1);
	/* The workers and the main thread, each on a replay thread of its own. */
	threaded = file_has(out_mt, "5 captured threads, each replayed on a thread of its own");

	unlink(out_mt);
	unlink(trace);
	rmdir(dir);
	assert_int_equal(stress_failures(), 0);
	assert_false(atomic_load(&broken));
	assert_int_equal(atomic_load(&sets), REPLAY_THREADS * ROUNDS);
	assert_int_equal(st_mt, 0);
	assert_true(threaded);
	stress_watchdog(0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
