/* SPDX-License-Identifier: MIT */
/*
 * A small KFD application for the capture tests. It does what a thunk does
 * at a small scale (open /dev/kfd and a render node, GET_VERSION, apertures,
 * ACQUIRE_VM, ALLOC/MAP/UNMAP/FREE, events, clock counters, an mmap of a
 * buffer through the render node) and counts every ioctl it issues on its
 * own, so a test can compare the trace with an independent count.
 *
 *   kt_workload basic		the sequence above
 *   kt_workload threads N M	N threads x M ioctls (GET_VERSION and
 *				GET_CLOCK_COUNTERS, alternating)
 *   kt_workload crash		ALLOC, then a SIGSEGV
 *   kt_workload sigkill	some ioctls, 1 s, then SIGKILL
 *   kt_workload apphandler	its own SIGSEGV handler, ALLOC, then a SIGSEGV
 *   kt_workload fork [exit]	ioctls in the parent and in a forked child,
 *				which ends with _exit() (or exit())
 *   kt_workload exec		GET_VERSION, then exec of itself as exec2
 *   kt_workload execfail	GET_VERSION, a failing exec, GET_VERSION
 *   kt_workload execchain [K]	stages K..8 of one process, each doing
 *				GET_VERSION and GET_CLOCK_COUNTERS, then
 *				exec'ing the next through execl, execlp,
 *				execle, execv, execvp (after an execvp of a
 *				missing program, and one more GET_VERSION),
 *				execvpe, fexecve, execve; stage 8 exits
 *   kt_workload closeall	closes every fd (close, close_range, dup2
 *				over them) between GET_VERSIONs
 *   kt_workload ownfile HOW PATH [crash]
 *				GET_VERSION, then takes every fd from 3 up
 *				behind the wrappers' back (HOW: closefrom,
 *				close_range, rawclose: the close_range or
 *				close system call, rawdup2: dup2 system calls
 *				of its own file over them), puts its own file
 *				PATH at every number up to 1023 and writes
 *				64 KiB to it; then exits 0 (with "crash":
 *				dies of SIGSEGV; with "kill": 20,000 more
 *				GET_VERSIONs, then SIGKILL while the
 *				writer is busy)
 *   kt_workload signal SIG N HOW
 *				N GET_VERSIONs, then signal SIG (a number):
 *				HOW raise, kill (kill() of itself), thread
 *				(kill() from a second thread), parent (writes
 *				its pid to $KT_READY and waits for the test's
 *				kill()), ownexit (its own handler, which exits
 *				43), reraise (its own handler, which sets the
 *				default and raises again), ignore (SIG_IGN,
 *				raises it, writes to a closed pipe, exits 0).
 *				Checks that sigaction() shows what it set
 *   kt_workload clone HOW N	GET_VERSION, a child made by HOW (glibc:
 *				clone(); raw: the clone system call; vm:
 *				clone(CLONE_VM)) makes N GET_VERSIONs (on a
 *				/dev/kfd of its own; the vm child on the
 *				parent's, counted apart), then GET_VERSION;
 *				prints "child PID" (and "vm_calls N")
 *   kt_workload bench N [mt]	N GET_VERSIONs; prints the median wall ns/call
 *				and this thread's mean CPU ns/call ("mt": with
 *				a second, idle thread)
 *   kt_workload nullbench N [mt]	the same on /dev/null: real ioctl system
 *				calls (ENOTTY)
 *   kt_workload pairbench N	N GET_VERSIONs each way in one process, in
 *				alternating batches: through ioctl() (the
 *				capture library, when preloaded) and straight
 *				into the simulator's ioctl(); prints both
 *				medians and their median difference
 *
 * Counts go to the file named by $KT_COUNTS, one "<pid> <NAME> <n>" line
 * per ioctl kind, appended at exit. It uses only libc and the ABI header:
 * it is the application, not part of the tracer. This file has the
 * helpers, the plain modes and main(); kt_workload_exec.c the exec chain
 * and the modes that take fds, kt_workload_bench.c the benchmarks.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "kt_workload.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

struct count {
	const char *name;
	unsigned long n;
};

static struct count counts[32];
static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;

static void
count_add(const char *name, unsigned long n)
{
	pthread_mutex_lock(&counts_lock);
	for (int i = 0; i < 32; i++) {
		if (!counts[i].name || !strcmp(counts[i].name, name)) {
			counts[i].name = name;
			counts[i].n += n;
			break;
		}
	}
	pthread_mutex_unlock(&counts_lock);
}

void
counts_write(void)
{
	const char *path = getenv("KT_COUNTS");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	for (int i = 0; i < 32 && counts[i].name; i++)
		fprintf(f, "%d %s %lu\n", (int)getpid(), counts[i].name, counts[i].n);
	fclose(f);
}

void
counts_clear(void)
{
	memset(counts, 0, sizeof(counts));
}

void
die(const char *what)
{
	fprintf(stderr, "kt_workload: %s: %s\n", what, strerror(errno));
	counts_write();
	exit(2);
}

int
kio(int fd, const char *name, unsigned long req, void *arg, int may_fail)
{
	int ret = ioctl(fd, req, arg);

	count_add(name, 1);
	if (ret < 0 && !may_fail)
		die(name);
	return ret;
}

/* The first GPU node of the topology, as the thunk finds it. */
void
find_gpu(struct gpu *g)
{
	memset(g, 0, sizeof(*g));
	for (int node = 0; node < 64; node++) {
		char path[128], line[256];
		FILE *f;
		unsigned long id = 0;

		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", node);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%lu", &id) != 1)
			id = 0;
		fclose(f);
		if (!id)
			continue;
		g->gpu_id = (uint32_t)id;
		snprintf(path, sizeof(path), TOPO "/%d/properties", node);
		f = fopen(path, "r");
		if (!f)
			die("properties");
		while (fgets(line, sizeof(line), f))
			sscanf(line, "drm_render_minor %d", &g->render_minor);
		fclose(f);
		return;
	}
	errno = ENODEV;
	die("no GPU node in the topology");
}

int
open_kfd(void)
{
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("open /dev/kfd");
	return fd;
}

void
get_version(int kfd)
{
	struct kfd_abi_get_version_args v = { 0 };

	kio(kfd, "GET_VERSION", KFD_ABI_IOC_GET_VERSION, &v, 0);
	if (v.major_version != 1)
		die("GET_VERSION major");
}

void
clock_counters(int kfd, uint32_t gpu_id)
{
	struct kfd_abi_get_clock_counters_args c = { .gpu_id = gpu_id };

	kio(kfd, "GET_CLOCK_COUNTERS", KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c, 0);
}

/* Open the render node and the VM: what every thunk does first. */
static int
setup_gpu(int kfd, struct gpu *g)
{
	struct kfd_abi_process_device_apertures ap[8];
	struct kfd_abi_get_process_apertures_new_args gpa = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap,
		.num_of_nodes = 8,
	};
	struct kfd_abi_acquire_vm_args vm;
	char path[64];
	int drm;

	find_gpu(g);
	kio(kfd, "GET_PROCESS_APERTURES_NEW",
	    KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &gpa, 0);
	for (uint32_t i = 0; i < gpa.num_of_nodes && i < 8; i++)
		if (ap[i].gpu_id == g->gpu_id)
			g->gpuvm_base = ap[i].gpuvm_base;
	if (!g->gpuvm_base)
		die("no GPUVM aperture for the GPU");
	snprintf(path, sizeof(path), "/dev/dri/renderD%d", g->render_minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	if (drm < 0)
		die(path);
	vm.drm_fd = (uint32_t)drm;
	vm.gpu_id = g->gpu_id;
	kio(kfd, "ACQUIRE_VM", KFD_ABI_IOC_ACQUIRE_VM, &vm, 0);
	return drm;
}

static uint64_t
alloc_mem(int kfd, const struct gpu *g, uint64_t va, uint64_t size,
	  uint32_t flags, uint64_t *mmap_offset)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = va, .size = size, .gpu_id = g->gpu_id, .flags = flags,
	};

	kio(kfd, "ALLOC_MEMORY_OF_GPU", KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a, 0);
	if (mmap_offset)
		*mmap_offset = a.mmap_offset;
	return a.handle;
}

static int
mode_basic(void)
{
	int kfd = open_kfd(), drm, kfd2;
	struct gpu g;
	uint32_t ids[1];
	uint64_t h, h2, off;
	struct kfd_abi_map_memory_to_gpu_args map;
	struct kfd_abi_unmap_memory_from_gpu_args unmap;
	struct kfd_abi_free_memory_of_gpu_args fr;
	struct kfd_abi_create_event_args ev = { .event_type = 0, .auto_reset = 1 };
	struct kfd_abi_destroy_event_args dev;
	void *p;

	get_version(kfd);
	drm = setup_gpu(kfd, &g);
	ids[0] = g.gpu_id;

	h = alloc_mem(kfd, &g, g.gpuvm_base + (1ull << 30), 2u << 20,
		      KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		      NULL);
	map = (struct kfd_abi_map_memory_to_gpu_args){
		.handle = h, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1,
	};
	kio(kfd, "MAP_MEMORY_TO_GPU", KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map, 0);
	unmap = (struct kfd_abi_unmap_memory_from_gpu_args){
		.handle = h, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1,
	};
	kio(kfd, "UNMAP_MEMORY_FROM_GPU", KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU,
	    &unmap, 0);
	fr.handle = h;
	kio(kfd, "FREE_MEMORY_OF_GPU", KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, 0);

	/* Host-visible memory, mapped through the render node. */
	h2 = alloc_mem(kfd, &g, g.gpuvm_base + (2ull << 30), 64 << 10,
		       KFD_ABI_ALLOC_MEM_FLAGS_GTT | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		       &off);
	p = mmap(NULL, 64 << 10, PROT_READ | PROT_WRITE, MAP_SHARED, drm, (off_t)off);
	if (p == MAP_FAILED)
		die("mmap of the render node");
	memset(p, 0x5a, 64 << 10);
	if (munmap(p, 64 << 10))
		die("munmap");
	fr.handle = h2;
	kio(kfd, "FREE_MEMORY_OF_GPU", KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, 0);

	kio(kfd, "CREATE_EVENT", KFD_ABI_IOC_CREATE_EVENT, &ev, 0);
	dev.event_id = ev.event_id;
	dev.pad = 0;
	kio(kfd, "DESTROY_EVENT", KFD_ABI_IOC_DESTROY_EVENT, &dev, 0);
	clock_counters(kfd, g.gpu_id);

	/* A duplicate is the same device file. */
	kfd2 = dup(kfd);
	if (kfd2 < 0)
		die("dup");
	get_version(kfd2);
	close(kfd2);
	/* An ioctl the driver does not have: EINVAL, recorded raw. */
	{
		uint64_t junk = 0;

		kio(kfd, "UNKNOWN", _IOWR('K', 0x7f, uint64_t), &junk, 1);
	}
	close(drm);
	close(kfd);
	counts_write();
	return 0;
}

struct thread_arg {
	int kfd;
	uint32_t gpu_id;
	long calls;
	int index;
};

static void *
worker(void *p)
{
	struct thread_arg *t = p;
	unsigned long versions = 0, clocks = 0;
	char name[16];

	snprintf(name, sizeof(name), "kt-w%d", t->index);
	pthread_setname_np(pthread_self(), name);
	for (long i = 0; i < t->calls; i++) {
		if (i & 1) {
			struct kfd_abi_get_clock_counters_args c = {
				.gpu_id = t->gpu_id,
			};

			if (ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c))
				die("GET_CLOCK_COUNTERS");
			clocks++;
		} else {
			struct kfd_abi_get_version_args v;

			if (ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, &v))
				die("GET_VERSION");
			versions++;
		}
	}
	/* Counted per thread and added once: a lock per call would
	 * serialize the threads. */
	count_add("GET_VERSION", versions);
	count_add("GET_CLOCK_COUNTERS", clocks);
	return NULL;
}

static int
mode_threads(int n, long calls)
{
	int kfd = open_kfd();
	struct thread_arg *args = calloc((size_t)n, sizeof(*args));
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	struct gpu g;

	find_gpu(&g);
	for (int i = 0; i < n; i++) {
		args[i] = (struct thread_arg){ kfd, g.gpu_id, calls, i };
		if (pthread_create(&th[i], NULL, worker, &args[i]))
			die("pthread_create");
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	close(kfd);
	counts_write();
	free(args);
	free(th);
	return 0;
}

static int
mode_crash(void)
{
	int kfd = open_kfd();
	struct gpu g;

	get_version(kfd);
	setup_gpu(kfd, &g);
	alloc_mem(kfd, &g, g.gpuvm_base + (1ull << 30), 4096,
		  KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		  NULL);
	counts_write();
	/* Right after the ALLOC returned. */
	{
		int *volatile bad = (int *)16;

		*bad = 1;
	}
	return 3;
}

static void
app_handler(int sig)
{
	static const char msg[] = "kt_workload: the application's handler ran\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	_exit(42);
}

static void
other_handler(int sig)
{
	_exit(5);
}

/*
 * The application installs its own SIGSEGV handler after the trace began,
 * and sees it as installed; the crash still reaches the trace first.
 */
static int
mode_apphandler(void)
{
	struct sigaction sa, cur;
	int kfd = open_kfd();
	struct gpu g;

	get_version(kfd);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = other_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		die("sigaction");
	/* signal() replaces it and reports it. */
	if (signal(SIGSEGV, app_handler) != other_handler) {
		fprintf(stderr, "kt_workload: signal() did not report the handler\n");
		return 3;
	}
	if (sigaction(SIGSEGV, NULL, &cur) || cur.sa_handler != app_handler) {
		fprintf(stderr, "kt_workload: sigaction() does not show our handler\n");
		return 3;
	}
	setup_gpu(kfd, &g);
	alloc_mem(kfd, &g, g.gpuvm_base + (1ull << 30), 4096,
		  KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		  NULL);
	counts_write();
	{
		int *volatile bad = (int *)16;

		*bad = 1;
	}
	return 3;
}

static int
mode_sigkill(void)
{
	int kfd = open_kfd();

	for (int i = 0; i < 500; i++)
		get_version(kfd);
	counts_write();
	/* Ten times the writer's age flush: margin for a loaded machine. */
	usleep(1000 * 1000);
	raise(SIGKILL);
	return 3;
}

/* @use_exit: the child ends with exit() rather than _exit(). */
static int
mode_fork(int use_exit)
{
	int kfd = open_kfd(), status;
	pid_t pid;

	get_version(kfd);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		/* The inherited fd belongs to the parent's process: reopen,
		 * as libhsakmt does in a forked child. */
		int kfd2;

		memset(counts, 0, sizeof(counts));
		kfd2 = open_kfd();
		get_version(kfd2);
		get_version(kfd2);
		close(kfd2);
		counts_write();
		if (use_exit)
			exit(0);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		die("child");
	get_version(kfd);
	close(kfd);
	counts_write();
	printf("child %d\n", (int)pid);
	return 0;
}

static int
mode_exec(const char *self)
{
	int kfd = open_kfd();

	get_version(kfd);
	counts_write();
	memset(counts, 0, sizeof(counts));
	execl(self, self, "exec2", (char *)NULL);
	die("execl");
	return 3;
}

/* An exec that fails: the process goes on, and so does its tracing. */
static int
mode_execfail(void)
{
	int kfd = open_kfd();

	get_version(kfd);
	execl("/nonexistent/kt_workload", "kt_workload", (char *)NULL);
	get_version(kfd);
	close(kfd);
	counts_write();
	return 0;
}

static int
mode_exec2(void)
{
	int kfd = open_kfd();
	struct gpu g;

	find_gpu(&g);
	get_version(kfd);
	clock_counters(kfd, g.gpu_id);
	close(kfd);
	counts_write();
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";

	if (!strcmp(mode, "basic"))
		return mode_basic();
	if (!strcmp(mode, "threads") && argc > 3)
		return mode_threads(atoi(argv[2]), atol(argv[3]));
	if (!strcmp(mode, "crash"))
		return mode_crash();
	if (!strcmp(mode, "sigkill"))
		return mode_sigkill();
	if (!strcmp(mode, "apphandler"))
		return mode_apphandler();
	if (!strcmp(mode, "fork"))
		return mode_fork(argc > 2 && !strcmp(argv[2], "exit"));
	if (!strcmp(mode, "exec"))
		return mode_exec(argv[0]);
	if (!strcmp(mode, "exec2"))
		return mode_exec2();
	if (!strcmp(mode, "execfail"))
		return mode_execfail();
	if (!strcmp(mode, "closeall"))
		return mode_closeall();
	if (!strcmp(mode, "ownfile") && argc > 3)
		return mode_ownfile(argv[2], argv[3], argc > 4 ? argv[4] : "");
	if (!strcmp(mode, "execchain"))
		return mode_execchain(argv[0], argc > 2 ? atoi(argv[2]) : 0);
	if (!strcmp(mode, "signal") && argc > 4)
		return mode_signal(atoi(argv[2]), atol(argv[3]), argv[4]);
	if (!strcmp(mode, "clone") && argc > 3)
		return mode_clone(argv[2], atol(argv[3]));
	if ((!strcmp(mode, "bench") || !strcmp(mode, "nullbench")) && argc > 2)
		return mode_bench(atol(argv[2]), argc > 3 && !strcmp(argv[3], "mt"),
				  !strcmp(mode, "nullbench"));
	if (!strcmp(mode, "pairbench") && argc > 2)
		return mode_pairbench(atol(argv[2]));
	fprintf(stderr, "usage: kt_workload basic|threads N M|crash|sigkill|"
		"apphandler|fork [exit]|exec|execfail|execchain [K]|closeall|"
		"ownfile HOW PATH [crash|kill]|signal SIG N HOW|clone HOW N|"
		"bench N [mt]|nullbench N [mt]|pairbench N\n");
	return 2;
}
