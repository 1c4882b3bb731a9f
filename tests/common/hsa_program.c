/* SPDX-License-Identifier: MIT */
/*
 * hsa_program - an HSA application on Debian's ROCr 5.2.3, run on the
 * simulated device with either libhsakmt (ours or AMD's, chosen by the
 * library path). It walks the runtime paths that reach the thunk without
 * submitting GPU work: agents and memory pools, pool allocations in VRAM
 * and system memory, access for other agents, pointer info, interrupt
 * signals (a satisfied wait and a timed wait that times out), AQL queues,
 * and IPC memory, where a copy of this program attaches the handle in a
 * second process (on the same simulated machine: every process of one
 * `kfdtrace sim` run is).
 *
 * Every step is checked; the first failure prints what went wrong and the
 * program exits 1.
 *
 * ROCr 5.2.3 can lose a wake-up in hsa_queue_destroy: a queue's inactive
 * signal and its exception signal share one auto-reset event. The queue's
 * destructor waits on the first while the runtime's event thread, having
 * answered it, waits on the second. When the event thread's set lands
 * after the destructor's last look at the value and before its wait, the
 * event thread's own wait consumes it, and both sleep for good. The
 * kernel (kfdsim with it) consumes an auto-reset event so; KFD 1.14's
 * event ages are what later runtimes use against it. The window is a few
 * microseconds, seen once in some hundreds of instrumented runs. The steps
 * therefore run in a child: a child stuck in hsa_queue_destroy for
 * LOST_WAKEUP_S exits EXIT_LOST_WAKEUP after its thread dump, and is run
 * once more, saying so. Any other hang, or a second one, fails. Usage:
 *
 *	hsa_program [--gpus N] [--thunk FILE]
 *		N: GPU agents the machine must have; FILE: the libhsakmt.so.1
 *		ROCr must have loaded (so a test cannot silently run the
 *		other library; the importer checks it too)
 *	hsa_program --attach SIZE BYTES	(internal) the IPC importer: reads
 *		the handle from stdin; BYTES 1: check and write the contents
 *
 * IPC depends on the kernel: with KFDSIM_KERNEL=rocm the sharing ioctls
 * exist and the importer must see the exporter's bytes; on an upstream
 * kernel they do not, and hsa_amd_ipc_memory_create must fail with the
 * status ROCr gives for a thunk error (INVALID_ARGUMENT). The contents are
 * compared only where the CPU can reach VRAM (a large BAR).
 */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#define MAX_AGENTS	16
#define VRAM_SIZE	(2u << 20)
#define SYS_SIZE	(64u << 10)
#define GREETING	"written by the exporting process"
#define REPLY		"written back by the importing process"
#define REPLY_AT	8192
/* The timed wait: long enough to measure, short enough for a fast test. */
#define WAIT_MS		50
/* A hang: how long before the watchdog gives up, in general and inside
 * hsa_queue_destroy, and the exit status of the latter. */
#define HANG_S		50
#define LOST_WAKEUP_S	10
#define EXIT_LOST_WAKEUP 4

struct agent {
	hsa_agent_t agent;
	hsa_device_type_t type;
	uint32_t node;
	char name[64];
	hsa_amd_memory_pool_t vram;	/* GPU: coarse-grained global pool */
	hsa_amd_memory_pool_t system;	/* CPU: fine-grained global pool */
	bool has_vram, has_system;
	bool vram_cpu_visible;		/* GPU: a large BAR lets the CPU in */
	uint32_t n_pools;
};

/* Where --thunk hands the expected library to the importer. */
#define THUNK_ENV	"HSA_PROGRAM_THUNK"

static struct agent agents[MAX_AGENTS];
static unsigned int n_agents, n_gpus, n_cpus, steps;
static const char *self_path;
/* CLOCK_MONOTONIC ns at which hsa_queue_destroy was entered; 0: not in it */
static uint64_t destroy_since;

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hsa_program: FAILED: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Fail unless @st is @want; @what names the call. */
static void
expect_status(hsa_status_t st, hsa_status_t want, const char *what)
{
	const char *s = NULL, *w = NULL;

	if (st == want)
		return;
	if (hsa_status_string(st, &s) != HSA_STATUS_SUCCESS || !s)
		s = "?";
	if (hsa_status_string(want, &w) != HSA_STATUS_SUCCESS || !w)
		w = "?";
	fail("%s: status 0x%x (%s), expected 0x%x (%s)", what, st, s, want, w);
}

static void
check(hsa_status_t st, const char *what)
{
	expect_status(st, HSA_STATUS_SUCCESS, what);
}

/* Announce a step that passed (kept short: the test log shows them). */
static void
passed(const char *what)
{
	steps++;
	printf("ok %u - %s\n", steps, what);
	fflush(stdout);
}

static bool
kernel_is_rocm(void)
{
	const char *k = getenv("KFDSIM_KERNEL");

	return k && strcmp(k, "rocm") == 0;
}

/* dl_iterate_phdr callback: remember the loaded libhsakmt's path. */
static int
find_thunk_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	const char **found = data;

	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libhsakmt.so")) {
		*found = info->dlpi_name;
		return 1;
	}
	return 0;
}

/* With THUNK_ENV set, the libhsakmt in this process must be that file. */
static void
check_thunk(void)
{
	const char *want = getenv(THUNK_ENV), *found = NULL;
	char a[PATH_MAX], b[PATH_MAX];

	if (!want)
		return;
	dl_iterate_phdr(find_thunk_cb, &found);
	if (!found)
		fail("no libhsakmt.so is loaded");
	if (!realpath(want, a))
		fail("%s: %s", want, strerror(errno));
	if (!realpath(found, b) || strcmp(a, b))
		fail("ROCr loaded %s, not %s", found, want);
}

/* ------------------------------------------------------------------ */
/* Agents and pools                                                   */
/* ------------------------------------------------------------------ */

static hsa_status_t
pool_cb(hsa_amd_memory_pool_t pool, void *data)
{
	struct agent *a = data;
	hsa_amd_segment_t seg;
	uint32_t flags;
	size_t size, granule;
	bool alloc;

	a->n_pools++;
	check(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg),
	      "pool segment");
	if (seg != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	check(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags),
	      "pool global flags");
	check(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
	      "pool size");
	check(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
					   &alloc), "pool alloc allowed");
	if (!alloc)
		return HSA_STATUS_SUCCESS;
	check(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE,
					   &granule), "pool granule");
	if (!size || !granule)
		fail("%s: an allocatable global pool of %zu bytes, granule %zu",
		     a->name, size, granule);
	if (a->type == HSA_DEVICE_TYPE_GPU && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) &&
	    !a->has_vram) {
		a->vram = pool;
		a->has_vram = true;
	}
	if (a->type == HSA_DEVICE_TYPE_CPU && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
	    !a->has_system) {
		a->system = pool;
		a->has_system = true;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t
agent_cb(hsa_agent_t agent, void *data)
{
	struct agent *a;

	(void)data;
	if (n_agents == MAX_AGENTS)
		fail("more than %d agents", MAX_AGENTS);
	a = &agents[n_agents++];
	memset(a, 0, sizeof(*a));
	a->agent = agent;
	check(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &a->type), "agent device type");
	check(hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, a->name), "agent name");
	check(hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &a->node), "agent node");
	if (a->type == HSA_DEVICE_TYPE_GPU)
		n_gpus++;
	else if (a->type == HSA_DEVICE_TYPE_CPU)
		n_cpus++;
	check(hsa_amd_agent_iterate_memory_pools(agent, pool_cb, a), "iterate memory pools");
	return HSA_STATUS_SUCCESS;
}

/* Can the CPU be given access to @gpu's VRAM (ROCr: only with a large BAR)? */
static void
find_vram_visibility(struct agent *gpu, const struct agent *cpu)
{
	hsa_amd_memory_pool_access_t acc;

	check(hsa_amd_agent_memory_pool_get_info(cpu->agent, gpu->vram,
						 HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &acc),
	      "CPU access to VRAM");
	gpu->vram_cpu_visible = acc != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
}

static struct agent *
nth_agent(hsa_device_type_t type, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n_agents; i++)
		if (agents[i].type == type && n-- == 0)
			return &agents[i];
	return NULL;
}

static void
step_agents(int want_gpus)
{
	unsigned int i;

	check(hsa_iterate_agents(agent_cb, NULL), "hsa_iterate_agents");
	if (!n_cpus || !n_gpus)
		fail("%u CPU and %u GPU agents; want at least one of each", n_cpus, n_gpus);
	if (want_gpus >= 0 && n_gpus != (unsigned int)want_gpus)
		fail("%u GPU agents, expected %d", n_gpus, want_gpus);
	passed("hsa_iterate_agents");
	for (i = 0; i < n_agents; i++) {
		struct agent *a = &agents[i];

		if (!a->n_pools)
			fail("agent %s (node %u) has no memory pool", a->name, a->node);
		if (a->type == HSA_DEVICE_TYPE_GPU && !a->has_vram)
			fail("GPU %s (node %u) has no coarse-grained VRAM pool", a->name, a->node);
	}
	if (!nth_agent(HSA_DEVICE_TYPE_CPU, 0)->has_system)
		fail("the first CPU agent has no fine-grained system pool");
	for (i = 0; i < n_agents; i++)
		if (agents[i].type == HSA_DEVICE_TYPE_GPU)
			find_vram_visibility(&agents[i], nth_agent(HSA_DEVICE_TYPE_CPU, 0));
	passed("hsa_amd_agent_iterate_memory_pools");
}

/* ------------------------------------------------------------------ */
/* Memory                                                             */
/* ------------------------------------------------------------------ */

/* pointer info of @p; the accessible agents are counted into @n_access. */
static hsa_amd_pointer_info_t
pointer_info(const void *p, uint32_t *n_access, hsa_agent_t **access)
{
	hsa_amd_pointer_info_t info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	check(hsa_amd_pointer_info(p, &info, malloc, n_access, access), "hsa_amd_pointer_info");
	return info;
}

static bool
agent_listed(hsa_agent_t a, const hsa_agent_t *list, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (list[i].handle == a.handle)
			return true;
	return false;
}

static void
check_allocation(const char *what, void *p, size_t size, hsa_agent_t owner)
{
	hsa_amd_pointer_info_t info;
	hsa_agent_t *access = NULL;
	uint32_t n_access = 0, i;

	/* At its start and inside it: the same allocation. */
	info = pointer_info((char *)p + size / 2, &n_access, &access);
	if (info.type != HSA_EXT_POINTER_TYPE_HSA)
		fail("%s: pointer type %d, expected HSA", what, info.type);
	if (info.agentBaseAddress != p || info.sizeInBytes != size)
		fail("%s: pointer info says %p + %zu, allocated %p + %zu", what,
		     info.agentBaseAddress, info.sizeInBytes, p, size);
	if (info.agentOwner.handle != owner.handle)
		fail("%s: wrong owner agent", what);
	/* Every GPU was allowed access before. */
	for (i = 0; i < n_agents; i++)
		if (agents[i].type == HSA_DEVICE_TYPE_GPU &&
		    !agent_listed(agents[i].agent, access, n_access))
			fail("%s: GPU node %u not among the %u accessible agents", what,
			     agents[i].node, n_access);
	free(access);
}

static void
step_memory(void **vram_out)
{
	struct agent *gpu = nth_agent(HSA_DEVICE_TYPE_GPU, 0);
	struct agent *cpu = nth_agent(HSA_DEVICE_TYPE_CPU, 0);
	hsa_agent_t all[MAX_AGENTS];
	hsa_amd_pointer_info_t info;
	void *vram = NULL, *sys = NULL;
	unsigned int i, n = 0;
	int on_stack = 0;

	check(hsa_amd_memory_pool_allocate(gpu->vram, VRAM_SIZE, 0, &vram),
	      "hsa_amd_memory_pool_allocate (VRAM)");
	check(hsa_amd_memory_pool_allocate(cpu->system, SYS_SIZE, 0, &sys),
	      "hsa_amd_memory_pool_allocate (system)");
	if (!vram || !sys)
		fail("pool allocation returned NULL");
	/* The CPU reaches system memory directly. */
	memset(sys, 0x5a, SYS_SIZE);
	passed("hsa_amd_memory_pool_allocate in VRAM and system pools");

	for (i = 0; i < n_agents; i++)
		if (agents[i].type == HSA_DEVICE_TYPE_GPU)
			all[n++] = agents[i].agent;
	check(hsa_amd_agents_allow_access(n, all, NULL, vram), "hsa_amd_agents_allow_access (VRAM)");
	check(hsa_amd_agents_allow_access(n, all, NULL, sys),
	      "hsa_amd_agents_allow_access (system)");
	passed("hsa_amd_agents_allow_access");

	check_allocation("VRAM", vram, VRAM_SIZE, gpu->agent);
	check_allocation("system", sys, SYS_SIZE, cpu->agent);
	info = pointer_info(sys, NULL, NULL);
	if (info.hostBaseAddress != sys)
		fail("system memory: host address %p, expected %p", info.hostBaseAddress, sys);
	info = pointer_info(&on_stack, NULL, NULL);
	if (info.type != HSA_EXT_POINTER_TYPE_UNKNOWN)
		fail("a stack address: pointer type %d, expected UNKNOWN", info.type);
	passed("hsa_amd_pointer_info");

	check(hsa_amd_memory_pool_free(sys), "hsa_amd_memory_pool_free (system)");
	info = pointer_info(sys, NULL, NULL);
	if (info.type != HSA_EXT_POINTER_TYPE_UNKNOWN)
		fail("freed system memory: pointer type %d, expected UNKNOWN", info.type);
	passed("hsa_amd_memory_pool_free");
	*vram_out = vram;
}

/* ------------------------------------------------------------------ */
/* Signals                                                            */
/* ------------------------------------------------------------------ */

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
step_signals(void)
{
	hsa_signal_value_t v;
	hsa_signal_t s;
	uint64_t freq = 0, t0, elapsed;

	check(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq),
	      "timestamp frequency");
	if (!freq)
		fail("timestamp frequency is 0");
	check(hsa_signal_create(1, 0, NULL, &s), "hsa_signal_create");
	if (hsa_signal_load_relaxed(s) != 1)
		fail("new signal reads %ld, expected 1", (long)hsa_signal_load_relaxed(s));
	hsa_signal_store_screlease(s, 5);
	if (hsa_signal_load_scacquire(s) != 5)
		fail("signal reads %ld after storing 5", (long)hsa_signal_load_scacquire(s));
	passed("hsa_signal_create / store / load");

	/* Already satisfied: returns at once with the value. */
	t0 = now_ns();
	v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 5, UINT64_MAX,
				      HSA_WAIT_STATE_BLOCKED);
	elapsed = now_ns() - t0;
	if (v != 5)
		fail("satisfied wait returned %ld, expected 5", (long)v);
	if (elapsed > 1000000000u)
		fail("a satisfied wait took %llu ms", (unsigned long long)(elapsed / 1000000));
	passed("hsa_signal_wait on a satisfied condition");

	/* Never satisfied: times out (in the kernel's event wait) with the value. */
	t0 = now_ns();
	v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, freq * WAIT_MS / 1000,
				      HSA_WAIT_STATE_BLOCKED);
	elapsed = now_ns() - t0;
	if (v != 5)
		fail("timed-out wait returned %ld, expected the current value 5", (long)v);
	if (elapsed < (uint64_t)WAIT_MS * 1000000u * 9 / 10)
		fail("timed wait of %d ms returned after %llu us", WAIT_MS,
		     (unsigned long long)(elapsed / 1000));
	if (elapsed > 10000000000ull)
		fail("timed wait of %d ms took %llu ms", WAIT_MS,
		     (unsigned long long)(elapsed / 1000000));
	passed("hsa_signal_wait times out");
	check(hsa_signal_destroy(s), "hsa_signal_destroy");
}

/* ------------------------------------------------------------------ */
/* Queues                                                             */
/* ------------------------------------------------------------------ */

static void
step_queues(void)
{
	unsigned int i;

	for (i = 0; i < n_agents; i++) {
		struct agent *a = &agents[i];
		uint32_t min_size = 0, max_size = 0;
		hsa_queue_t *q = NULL;

		if (a->type != HSA_DEVICE_TYPE_GPU)
			continue;
		check(hsa_agent_get_info(a->agent, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min_size),
		      "queue min size");
		check(hsa_agent_get_info(a->agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_size),
		      "queue max size");
		if (!min_size || max_size < min_size)
			fail("GPU node %u: queue sizes %u..%u", a->node, min_size, max_size);
		check(hsa_queue_create(a->agent, min_size, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
				       UINT32_MAX, UINT32_MAX, &q), "hsa_queue_create");
		if (!q || q->size != min_size || !q->base_address || !q->doorbell_signal.handle)
			fail("GPU node %u: the queue is incomplete", a->node);
		if (hsa_queue_load_write_index_relaxed(q) != 0 ||
		    hsa_queue_load_read_index_relaxed(q) != 0)
			fail("GPU node %u: a new queue's indices are not 0", a->node);
		__atomic_store_n(&destroy_since, now_ns(), __ATOMIC_RELEASE);
		check(hsa_queue_destroy(q), "hsa_queue_destroy");
		__atomic_store_n(&destroy_since, 0, __ATOMIC_RELEASE);
	}
	passed("hsa_queue_create / destroy on every GPU");
}

/* ------------------------------------------------------------------ */
/* IPC                                                                */
/* ------------------------------------------------------------------ */

/* Start this program as the importer and feed it @handle. Return: its exit status. */
static int
run_importer(const hsa_amd_ipc_memory_t *handle, bool bytes)
{
	char size[32];
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		fail("pipe: %s", strerror(errno));
	snprintf(size, sizeof(size), "%u", VRAM_SIZE);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(p[0], STDIN_FILENO);
		close(p[0]);
		close(p[1]);
		execl(self_path, self_path, "--attach", size, bytes ? "1" : "0", (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	if (write(p[1], handle, sizeof(*handle)) != (ssize_t)sizeof(*handle))
		fail("writing the IPC handle: %s", strerror(errno));
	close(p[1]);
	if (waitpid(pid, &status, 0) != pid)
		fail("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status))
		fail("the importer died (status 0x%x)", status);
	return WEXITSTATUS(status);
}

/* The importer: attach, read the exporter's bytes, write a reply, detach. */
static int
attach_side(size_t size, bool bytes)
{
	hsa_amd_ipc_memory_t handle;
	hsa_amd_pointer_info_t info;
	struct agent *gpu;
	void *p = NULL;

	if (read(STDIN_FILENO, &handle, sizeof(handle)) != (ssize_t)sizeof(handle))
		fail("importer: no handle on stdin");
	check(hsa_init(), "importer: hsa_init");
	check_thunk();
	check(hsa_iterate_agents(agent_cb, NULL), "importer: hsa_iterate_agents");
	gpu = nth_agent(HSA_DEVICE_TYPE_GPU, 0);
	if (!gpu)
		fail("importer: no GPU agent");
	check(hsa_amd_ipc_memory_attach(&handle, size, 1, &gpu->agent, &p),
	      "importer: hsa_amd_ipc_memory_attach");
	info = pointer_info(p, NULL, NULL);
	if (info.type != HSA_EXT_POINTER_TYPE_IPC || info.sizeInBytes != size)
		fail("importer: attached memory has pointer type %d and %zu bytes", info.type,
		     info.sizeInBytes);
	if (bytes) {
		if (memcmp(p, GREETING, sizeof(GREETING)))
			fail("importer: the exporter's bytes are not there");
		memcpy((char *)p + REPLY_AT, REPLY, sizeof(REPLY));
	}
	check(hsa_amd_ipc_memory_detach(p), "importer: hsa_amd_ipc_memory_detach");
	check(hsa_shut_down(), "importer: hsa_shut_down");
	return 0;
}

static void
step_ipc(void *vram)
{
	bool bytes = nth_agent(HSA_DEVICE_TYPE_GPU, 0)->vram_cpu_visible;
	hsa_amd_ipc_memory_t handle;
	hsa_amd_pointer_info_t info;
	hsa_status_t st;

	memset(&handle, 0, sizeof(handle));
	st = hsa_amd_ipc_memory_create(vram, VRAM_SIZE, &handle);
	if (!kernel_is_rocm()) {
		/* No IPC ioctls: the thunk's ERROR becomes INVALID_ARGUMENT. */
		expect_status(st, HSA_STATUS_ERROR_INVALID_ARGUMENT,
			      "hsa_amd_ipc_memory_create on an upstream kernel");
		passed("hsa_amd_ipc_memory_create fails without the ROCm IPC ioctls");
		return;
	}
	check(st, "hsa_amd_ipc_memory_create");
	/* With a large BAR the exporter writes through its CPU mapping. */
	info = pointer_info(vram, NULL, NULL);
	if (bytes) {
		if (!info.hostBaseAddress)
			fail("large-BAR VRAM has no host address");
		memcpy(info.hostBaseAddress, GREETING, sizeof(GREETING));
		memset((char *)info.hostBaseAddress + REPLY_AT, 0, sizeof(REPLY));
	}
	if (run_importer(&handle, bytes) != 0)
		fail("the importer failed");
	if (bytes && memcmp((char *)info.hostBaseAddress + REPLY_AT, REPLY, sizeof(REPLY)))
		fail("the importer's reply is not in the exporter's memory");
	passed(bytes ? "hsa_amd_ipc_memory_create / attach in another process, contents shared" :
		       "hsa_amd_ipc_memory_create / attach in another process (small BAR: "
		       "contents not compared)");
}

/* Print @path of /proc (one line) after @label, to stderr. */
static void
show(const char *label, const char *path)
{
	char buf[512];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	fprintf(stderr, "  %s %s%s", label, buf, buf[n - 1] == '\n' ? "" : "\n");
}

/*
 * A hang would only time out: before the test's timeout, say where every
 * thread is (its system call and kernel stack) and end with a failure;
 * inside hsa_queue_destroy, sooner and with EXIT_LOST_WAKEUP (the header).
 */
static void *
watchdog(void *arg)
{
	uint64_t start = now_ns();
	int status = 3;
	char path[320];
	struct dirent *de;
	DIR *d;

	(void)arg;
	for (;;) {
		uint64_t t, since;

		usleep(100000);
		t = now_ns();
		since = __atomic_load_n(&destroy_since, __ATOMIC_ACQUIRE);
		if (since && t - since > LOST_WAKEUP_S * 1000000000ull) {
			status = EXIT_LOST_WAKEUP;
			break;
		}
		if (t - start > HANG_S * 1000000000ull)
			break;
	}
	if (status == EXIT_LOST_WAKEUP)
		fprintf(stderr, "hsa_program: hsa_queue_destroy has not returned in %d s; "
			"threads:\n", LOST_WAKEUP_S);
	else
		fprintf(stderr, "hsa_program: no progress after %d s (step %u); threads:\n",
			HANG_S, steps);
	d = opendir("/proc/self/task");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		fprintf(stderr, " thread %s\n", de->d_name);
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		show("comm", path);
		snprintf(path, sizeof(path), "/proc/self/task/%s/syscall", de->d_name);
		show("syscall", path);
		snprintf(path, sizeof(path), "/proc/self/task/%s/wchan", de->d_name);
		show("wchan", path);
		snprintf(path, sizeof(path), "/proc/self/task/%s/stack", de->d_name);
		show("stack", path);
	}
	if (d)
		closedir(d);
	_exit(status);
}

/* The steps, in the child main() starts. Return: the exit status. */
static int
run_steps(int want_gpus)
{
	void *vram = NULL;
	pthread_t wd;

	if (pthread_create(&wd, NULL, watchdog, NULL) == 0)
		pthread_detach(wd);
	check(hsa_init(), "hsa_init");
	check_thunk();
	passed("hsa_init");
	step_agents(want_gpus);
	step_memory(&vram);
	step_signals();
	step_queues();
	step_ipc(vram);
	check(hsa_amd_memory_pool_free(vram), "hsa_amd_memory_pool_free (VRAM)");
	check(hsa_shut_down(), "hsa_shut_down");
	passed("hsa_shut_down");
	/* After shut-down the runtime refuses calls. */
	expect_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED, "a second hsa_shut_down");

	printf("hsa_program: all %u steps passed (%u GPU, %u CPU agents)\n", steps, n_gpus,
	       n_cpus);
	return 0;
}

int
main(int argc, char **argv)
{
	int want_gpus = -1, status;
	pid_t pid;

	self_path = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "--attach"))
		return attach_side(strtoul(argv[2], NULL, 0), !strcmp(argv[3], "1"));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gpus") && i + 1 < argc)
			want_gpus = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--thunk") && i + 1 < argc)
			setenv(THUNK_ENV, argv[++i], 1);
		else
			fail("usage: %s [--gpus N] [--thunk FILE]", argv[0]);
	}

	/* The importer shares this process's machine because kfdtrace sim
	 * runs every process of the run on one; nothing here names it. */
	if (!getenv("KFDSIM_MACHINE"))
		fail("KFDSIM_MACHINE is not set: run it under kfdtrace sim");

	/* This process opens nothing and starts no thread (a fork under
	 * GCC 12's ASan is safe only so): each child is a new process of
	 * the machine, with its own runtime. */
	for (int attempt = 1;; attempt++) {
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (pid == 0)
			exit(run_steps(want_gpus));
		if (waitpid(pid, &status, 0) != pid)
			fail("waitpid: %s", strerror(errno));
		if (!WIFEXITED(status))
			fail("the steps' process died (status 0x%x)", status);
		if (WEXITSTATUS(status) != EXIT_LOST_WAKEUP || attempt > 1)
			return WEXITSTATUS(status);
		printf("hsa_program: note: ROCr 5.2.3 lost the wake-up of its queue destroy "
		       "(a shared auto-reset event; see the header); running the steps again\n");
	}
}
