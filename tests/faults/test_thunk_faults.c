/* SPDX-License-Identifier: MIT */
/*
 * Fault injection into our libhsakmt on kfdsim: for every KFD ioctl the
 * scripted workload (fi_workload.c) issues -- the Nth, for every N up to
 * the script's ioctl count -- and for every errno the kernel can answer
 * that ioctl with (fi_errnos.c), run the script with exactly that call
 * failing (kfdtrace's fault kit on the dispatch point) and check:
 *
 *  - the process does not crash or hang;
 *  - the fault hits the API call that issued that ioctl in a clean run,
 *    and that call returns the status fi_expected_status() names (or
 *    SUCCESS for EINTR, which the library retries);
 *  - calls before it succeeded, and calls of unrelated parts of the
 *    script after it still succeed;
 *  - after close, nothing is left that a clean run does not leave: no
 *    file descriptor (the simulator holds one memory file per buffer
 *    object, so a buffer the library forgot to free shows up here too),
 *    no device mapping and no address-space reservation;
 *  - the VRAM the kernel counts for the process is back where a clean
 *    run leaves it (AvailableMemory after a reopen);
 *  - in an AddressSanitizer build, no heap block of the library leaked.
 *
 * Each case runs in a child process of its own, so that every case starts
 * from a fresh KFD process (the kernel's per-process state, like the
 * events page, outlives a close). The parent never opens the device.
 *
 * Environment: FI_REPORT=1 prints every case; FI_ONLY=NAME runs only the
 * cases of that ioctl.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/faults.h>
#include <kfdtrace/kfd_abi.h>

#include "fi_errnos.h"
#include "fi_probe.h"
#include "fi_workload.h"

#define FI_MAX_IOCTLS	512
/* A case that has not finished by then is hung (a clean run takes ~40 ms). */
#define FI_CASE_SECONDS	20

/* Leak check of AddressSanitizer builds (absent otherwise). */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* One KFD ioctl of the clean run. */
struct fi_ioctl {
	unsigned int nr;
	unsigned int nth;	/* its occurrence among ioctls of the same nr */
	enum fi_call call;	/* the API call that issued it */
};

/* What a child reports (in memory shared with the parent). */
struct fi_result {
	int done;
	struct fi_record rec;
	unsigned long injected;
	struct fi_snapshot left;	/* fds and mappings the run left behind */
	int reopen_st;
	HSAuint64 avail;		/* VRAM available after a reopen */
	int heap_leaks;
	/* clean run only: the ioctls */
	unsigned int n;
	struct fi_ioctl seq[FI_MAX_IOCTLS];
};

/* One case: the nth call of ioctl @nr fails with @err. */
struct fi_case {
	const char *name;
	unsigned int nr;
	unsigned int nth;
	unsigned int global;	/* 1-based position in the clean run */
	enum fi_call call;
	uint64_t prior;		/* nrs the call issued before this ioctl */
	int err;
	int sabotage;		/* enum fi_sabotage: the checks' self-test */
};

/*
 * Leaks the self-test adds after the script, to prove each check can see
 * what it looks for.
 */
enum fi_sabotage {
	FI_SAB_NONE,
	FI_SAB_FD,		/* a file left open */
	FI_SAB_RESERVATION,	/* an inaccessible address range */
	FI_SAB_BO,		/* a VRAM BO the library does not know about */
	FI_SAB_HEAP,		/* a heap block (seen in ASan builds only) */
};

static struct fi_result *base;		/* the clean run */
static struct fi_result *res;		/* the case being run (shared) */
static bool report;

/* ---- child side ---- */

static void
seq_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct fi_result *r = ctx;
	unsigned int nr = KFD_ABI_IOC_NR(call->request), nth = 1;

	if (call->kind != KFD_FILE_KFD || r->n >= FI_MAX_IOCTLS)
		return;
	for (unsigned int i = 0; i < r->n; i++)
		nth += r->seq[i].nr == nr;
	r->seq[r->n++] = (struct fi_ioctl){ nr, nth, fi_current_call };
}

static const struct kfd_dispatch_hooks seq_hooks = {
	.name = "fi-sequence",
	.after = seq_after,
};

/* volatile: the compiler must not drop the allocation it never reads */
static void *volatile fi_heap_leak;

/* Leave behind what @how names (see enum fi_sabotage). */
static void
sabotage(int how, HSAuint32 gpu)
{
	struct kfd_abi_alloc_memory_of_gpu_args args = {0};
	unsigned int gpu_id = 0;
	char path[128];
	FILE *f;
	int fd;

	switch (how) {
	case FI_SAB_FD:
		open("/dev/null", O_RDONLY);
		break;
	case FI_SAB_RESERVATION:
		mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		break;
	case FI_SAB_BO:
		/* A BO made behind the library's back, on a KFD file of our
		 * own: the library's close cannot free it. */
		if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
			break;
		snprintf(path, sizeof(path),
			 "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/gpu_id", gpu);
		f = fopen(path, "re");
		if (f) {
			if (fscanf(f, "%u", &gpu_id) != 1)
				gpu_id = 0;
			fclose(f);
		}
		fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		if (fd >= 0 && gpu_id) {
			args.va_addr = 1ull << 40;
			args.size = 2 << 20;
			args.gpu_id = gpu_id;
			args.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
			ioctl(fd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &args);
		}
		if (fd >= 0)
			close(fd);
		hsaKmtCloseKFD();
		break;
	case FI_SAB_HEAP:
		fi_heap_leak = malloc(100);
		fi_heap_leak = NULL;
		break;
	}
}

/* Run the script (with @c failing, or clean) and note what it left. */
static void
child_run(const struct fi_case *c, HSAuint32 gpu, struct fi_result *r)
{
	struct fi_snapshot *before = malloc(sizeof(*before));
	struct fi_snapshot *after = malloc(sizeof(*after));
	struct kfd_faults *f = NULL;

	alarm(FI_CASE_SECONDS);
	if (!before || !after || fi_snapshot_take(before))
		_exit(3);
	if (c) {
		f = kfd_faults_new();
		if (!f || kfd_faults_add(f, c->name, c->nth, 1, c->err) ||
		    kfd_faults_attach(f))
			_exit(4);
	} else if (kfd_dispatch_hook_add(&seq_hooks, r)) {
		_exit(4);
	}
	fi_workload_run(f, &r->rec);
	if (c)
		sabotage(c->sabotage, gpu);
	if (f) {
		kfd_faults_detach(f);
		r->injected = kfd_faults_injected(f);
		kfd_faults_free(f);
	} else {
		kfd_dispatch_hook_remove(&seq_hooks, r);
	}
	if (fi_snapshot_take(after))
		_exit(5);
	fi_snapshot_diff(before, after, &r->left);
	free(before);
	free(after);

	/* What the kernel still charges the process with. */
	if (gpu == UINT32_MAX)
		gpu = r->rec.gpu;
	r->reopen_st = hsaKmtOpenKFD();
	if (r->reopen_st == HSAKMT_STATUS_SUCCESS) {
		if (gpu != UINT32_MAX)
			hsaKmtAvailableMemory(gpu, &r->avail);
		hsaKmtCloseKFD();
	}
	if (__lsan_do_recoverable_leak_check)
		r->heap_leaks = __lsan_do_recoverable_leak_check();
	r->done = 1;
}

/* Fork, run, wait. Return: NULL, or what went wrong with the child. */
static const char *
run_case(const struct fi_case *c, HSAuint32 gpu, struct fi_result *r, char *buf, size_t len)
{
	int status;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return "fork failed";
	if (pid == 0) {
		child_run(c, gpu, r);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return "waitpid failed";
	if (WIFSIGNALED(status)) {
		snprintf(buf, len, "child killed by signal %d (%s)", WTERMSIG(status),
			 WTERMSIG(status) == SIGALRM ? "hung" : strsignal(WTERMSIG(status)));
		return buf;
	}
	if (WEXITSTATUS(status) || !r->done) {
		snprintf(buf, len, "child exited with %d before finishing",
			 WEXITSTATUS(status));
		return buf;
	}
	return NULL;
}

/* ---- checks ---- */

static bool
st_ok(const struct fi_record *rec, enum fi_call c)
{
	return rec->ran[c] && rec->st[c] == HSAKMT_STATUS_SUCCESS;
}

/* Faults whose leftovers are legitimate: the kernel kept a BO at close. */
static bool
leak_allowed(const struct fi_case *c)
{
	return c->call == FI_CLOSE &&
	       (c->nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_FREE_MEMORY_OF_GPU) ||
		c->nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU));
}

/* Return: NULL if the case behaved, else what is wrong (in @buf). */
static const char *
check_case(const struct fi_case *c, const struct fi_result *r, char *buf, size_t len)
{
	const struct fi_record *rec = &r->rec;
	HSAKMT_STATUS want;
	enum fi_call hit = FI_CALL_COUNT;
	char what[FI_PROBE_LEN];

	if (r->injected != 1) {
		snprintf(buf, len, "%lu faults fired, expected 1 (script not deterministic?)",
			 r->injected);
		return buf;
	}
	for (int i = 0; i < FI_CALL_COUNT; i++)
		if (rec->faults[i])
			hit = (enum fi_call)i;
	if (hit != c->call) {
		snprintf(buf, len, "the fault hit %s, not %s as in a clean run",
			 fi_call_name(hit), fi_call_name(c->call));
		return buf;
	}
	for (int i = 0; i < (int)hit; i++) {
		if (base->rec.ran[i] && !st_ok(rec, i)) {
			snprintf(buf, len, "%s before the fault returned %d", fi_call_name(i),
				 rec->st[i]);
			return buf;
		}
	}
	want = fi_errno_retried(c->err) ? HSAKMT_STATUS_SUCCESS
					: fi_expected_status(c->call, c->nr, c->err, c->prior);
	if (rec->st[hit] != want) {
		snprintf(buf, len, "%s returned %d, expected %d", fi_call_name(hit), rec->st[hit],
			 want);
		return buf;
	}
	for (int i = hit + 1; i < FI_CALL_COUNT; i++) {
		unsigned int area = fi_call_area(i);

		if (!base->rec.ran[i] || (area && area == fi_call_area(hit)))
			continue;
		if (hit == FI_OPEN)
			break;	/* nothing runs without a device */
		if (!st_ok(rec, i)) {
			snprintf(buf, len, "%s after the fault %s (%d)", fi_call_name(i),
				 rec->ran[i] ? "failed" : "did not run", rec->st[i]);
			return buf;
		}
	}
	if (rec->problem[0]) {
		snprintf(buf, len, "wrong results: %s", rec->problem);
		return buf;
	}
	if (leak_allowed(c))
		return NULL;
	if (fi_snapshot_extra(&r->left, &base->left, what, sizeof(what))) {
		snprintf(buf, len, "left behind after close: %s", what);
		return buf;
	}
	if (r->reopen_st != HSAKMT_STATUS_SUCCESS || r->avail != base->avail) {
		snprintf(buf, len, "after a reopen: status %d, %llu bytes of VRAM available "
			 "(a clean run: %llu)", r->reopen_st, (unsigned long long)r->avail,
			 (unsigned long long)base->avail);
		return buf;
	}
	if (r->heap_leaks) {
		snprintf(buf, len, "heap blocks leaked (see the LeakSanitizer report)");
		return buf;
	}
	return NULL;
}

/* ---- tests ---- */

/*
 * The clean run: everything succeeds, and what it leaves behind is what
 * the kernel keeps for the process, which outlives the close: the signal
 * page handed over with the first CREATE_EVENT (never freed: its memory
 * file and CPU mapping stay), the process's doorbell and MMIO pages (the
 * simulator's memory files behind them), and the render node the GPU's VM
 * was acquired with (the kernel refuses another, so the library keeps it
 * open for a reopen).
 */
static void
test_clean_run(void **state)
{
	/* A BO's memfd reads as "/dmabuf:", as an exported BO's fd does. */
	static const char *const kept[] = {
		"fd /dmabuf:",
		"map rw-s 32768 /memfd:kfdsim-bo (deleted)",
		"fd /memfd:kfdsim-doorbells (deleted)",
		"fd /memfd:kfdsim-mmio (deleted)",
	};
	unsigned int found[4] = {0}, render_fds = 0, idle_fds = 0;

	for (int i = 0; i < FI_CALL_COUNT; i++) {
		if (!st_ok(&base->rec, i))
			print_error("%s: %s (%d)\n", fi_call_name(i),
				    base->rec.ran[i] ? "failed" : "did not run", base->rec.st[i]);
		assert_true(st_ok(&base->rec, i));
	}
	assert_string_equal(base->rec.problem, "");
	assert_int_equal(base->reopen_st, HSAKMT_STATUS_SUCCESS);
	assert_true(base->avail > 0);
	assert_int_equal(base->heap_leaks, 0);
	for (unsigned int i = 0; i < base->left.n; i++) {
		const char *it = base->left.item[i];
		bool known = !strncmp(it, "fd /dev/dri/renderD", 19);

		render_fds += known;
		/* The engine's wake-up on doorbell stores (cp_idle.c): a
		 * userfaultfd and an eventfd stay with the process, as its
		 * doorbell pages do. */
		if (!strcmp(it, "fd anon_inode:[userfaultfd]") ||
		    !strcmp(it, "fd anon_inode:[eventfd]")) {
			idle_fds++;
			known = true;
		}
		for (unsigned int k = 0; k < 4; k++) {
			if (!strcmp(it, kept[k])) {
				found[k]++;
				known = true;
			}
		}
		if (!known)
			print_error("left by a clean run: %s\n", it);
		assert_true(known);
	}
	/* One signal page, one doorbell slice (one queue), an MMIO page
	 * and a render node per GPU. */
	assert_int_equal(found[0], 1);
	assert_int_equal(found[1], 1);
	assert_int_equal(found[2], 1);
	assert_int_equal(found[3], base->rec.n_gpus);
	assert_int_equal(render_fds, base->rec.n_gpus);
	assert_true(idle_fds <= 2);
}

/* Each leak check sees the leak it is for (and only the status check
 * passes: the fault itself is one the library handles). */
static void
test_checks_see_leaks(void **state)
{
	static const struct {
		int how;
		const char *says, *or_says;
	} sab[] = {
		{ FI_SAB_FD, "left behind after close: fd /dev/null" },
		{ FI_SAB_RESERVATION, "left behind after close: map ---p 1048576" },
		/* kfdsim may back a BO with a memfd only once it is mapped:
		 * then the VRAM accounting alone shows an unmapped one. */
		{ FI_SAB_BO, "left behind after close: fd /dmabuf:",
		  "after a reopen: status 0" },
		{ FI_SAB_HEAP, "heap blocks leaked" },
	};
	unsigned int set_event = 0;
	char buf[512];

	for (unsigned int i = 0; i < base->n; i++)
		if (base->seq[i].nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_SET_EVENT))
			set_event = i;
	assert_true(set_event > 0);
	for (unsigned int i = 0; i < sizeof(sab) / sizeof(sab[0]); i++) {
		struct fi_case c = {
			.name = "SET_EVENT", .nr = base->seq[set_event].nr, .nth = 1,
			.global = set_event + 1, .call = base->seq[set_event].call,
			.err = EINVAL, .sabotage = sab[i].how,
		};
		const char *bad = run_case(&c, base->rec.gpu, res, buf, sizeof(buf));

		if (sab[i].how == FI_SAB_HEAP && !__lsan_do_recoverable_leak_check)
			continue;	/* no leak checker in this build */
		if (sab[i].how == FI_SAB_RESERVATION && !fi_probe_reservations)
			continue;	/* not told from the sanitizer's own */
		assert_null(bad);
		bad = check_case(&c, res, buf, sizeof(buf));
		print_message("%s\n", bad ? bad : "(nothing found)");
		assert_non_null(bad);
		assert_true(strstr(bad, sab[i].says) ||
			    (sab[i].or_says && strstr(bad, sab[i].or_says)));
		if (sab[i].how == FI_SAB_BO)
			assert_true(res->avail < base->avail);
	}
}

/* Every ioctl of the script has a row of kernel errnos. */
static void
test_table_covers_script(void **state)
{
	assert_true(base->n > 20);
	for (unsigned int i = 0; i < base->n; i++) {
		if (!fi_errnos_of(base->seq[i].nr))
			print_error("no errno list for ioctl nr %#x\n", base->seq[i].nr);
		assert_non_null(fi_errnos_of(base->seq[i].nr));
	}
}

/* Every occurrence of one ioctl, failing with each of its errnos. */
static void
test_ioctl(void **state)
{
	const struct fi_ioctl_errnos *row = *state;
	unsigned int cases = 0, fails = 0;
	char buf[512];

	for (unsigned int i = 0; i < base->n; i++) {
		if (base->seq[i].nr != row->nr)
			continue;
		uint64_t prior = 0;

		for (unsigned int j = 0; j < i; j++)
			if (base->seq[j].call == base->seq[i].call && base->seq[j].nr < 64)
				prior |= 1ull << base->seq[j].nr;
		for (const int *e = row->errnos; *e; e++) {
			struct fi_case c = {
				.name = row->name, .nr = row->nr, .nth = base->seq[i].nth,
				.global = i + 1, .call = base->seq[i].call, .prior = prior,
				.err = *e,
			};
			const char *bad = run_case(&c, base->rec.gpu, res, buf, sizeof(buf));

			if (!bad)
				bad = check_case(&c, res, buf, sizeof(buf));
			cases++;
			if (report || bad)
				print_message("%s ioctl %u (%s #%u) %s in %s: status %d%s%s\n",
					      bad ? "FAIL" : "ok", c.global, c.name, c.nth,
					      fi_errno_name(c.err), fi_call_name(c.call),
					      res->rec.st[c.call], bad ? ": " : "", bad ? bad : "");
			fails += bad != NULL;
		}
	}
	print_message("%s: %u cases, %u failed\n", row->name, cases, fails);
	assert_true(cases > 0);
	assert_int_equal(fails, 0);
}

int
main(void)
{
	struct CMUnitTest tests[3 + 64];
	const struct fi_ioctl_errnos *rows[64];
	const char *only = getenv("FI_ONLY");
	unsigned int n_rows = 0, n = 0;
	char buf[256];
	const char *bad;

	report = getenv("FI_REPORT") && *getenv("FI_REPORT") == '1';
	/* The leak checker's presence means a sanitizer build (fi_probe.h). */
	fi_probe_reservations = !__lsan_do_recoverable_leak_check;
	base = mmap(NULL, sizeof(*base), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		   -1, 0);
	if (base == MAP_FAILED || res == MAP_FAILED)
		return 1;
	bad = run_case(NULL, UINT32_MAX, base, buf, sizeof(buf));
	if (bad) {
		fprintf(stderr, "clean run: %s\n", bad);
		return 1;
	}

	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_clean_run);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_table_covers_script);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_checks_see_leaks);
	/* One test per ioctl of the script, in order of first use. */
	for (unsigned int i = 0; i < base->n && n_rows < 64; i++) {
		const struct fi_ioctl_errnos *row = fi_errnos_of(base->seq[i].nr);
		bool seen = false;

		if (!row || (only && strcasecmp(only, row->name)))
			continue;
		for (unsigned int j = 0; j < n_rows; j++)
			seen |= rows[j] == row;
		if (seen)
			continue;
		rows[n_rows++] = row;
		tests[n++] = (struct CMUnitTest){
			.name = row->name,
			.test_func = test_ioctl,
			.initial_state = (void *)row,
		};
	}
	return _cmocka_run_group_tests("faults", tests, n, NULL, NULL);
}
