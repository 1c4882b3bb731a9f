/* SPDX-License-Identifier: MIT */
/*
 * cp_hsa - AQL queues execute on kfdsim's command processor, seen through
 * Debian's ROCr 5.2.3 (HSA API). Runs under `kfdtrace sim`, on AMD's
 * libhsakmt or ours. Steps, each checked:
 *
 *   1. N barrier-AND and N kernel-dispatch packets (a kernel of one
 *      s_endpgm, which kfdsim runs on gfx90a) on one queue, one completion signal
 *      counting them down; a timed wait for 0 must succeed, the read index
 *      must reach the write index and every retired slot must be INVALID;
 *   2. dispatch latency: one packet, wait, repeat (printed, not judged);
 *   3. profiling: dispatch start/end times from the completion signal;
 *   4. a barrier-AND on a signal the host sets later, completing an
 *      interrupt signal (no consumer list: event-backed) that another thread
 *      waits on with a blocking wait; meanwhile a second queue keeps
 *      executing (a waiting barrier holds up only its own queue);
 *   5. a dispatch with a null kernel object puts its queue in error: the
 *      queue's error callback gets HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
 *   6. destroying a queue with a barrier still waiting returns;
 *   7. idle cost: with queues but no work, the process uses under 10% of a
 *      core over 2 s (printed; the engine backs off to 1 ms sleeps; a busy
 *      spin would use all of one). Where a 1 ms sleep costs a few us, the
 *      engine takes well under 1%.
 *
 * Usage: cp_hsa [--thunk FILE]: FILE is the libhsakmt.so.1 ROCr must have
 * loaded, so that a run meant for one library cannot pass on the other.
 * The first failure prints what went wrong and exits 1.
 */
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#define N_PACKETS	1000
#define N_LATENCY	2000
#define QUEUE_SIZE	256
#define WAIT_NS		10000000000ULL	/* 10 s */

/* The kernel every dispatch runs (make_kernel()). */
static uint64_t kernel;

static hsa_agent_t gpu;
static int have_gpu;
static uint64_t ts_freq;

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cp_hsa: FAILED: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
check(hsa_status_t s, const char *what)
{
	const char *str = NULL;

	if (s == HSA_STATUS_SUCCESS)
		return;
	hsa_status_string(s, &str);
	fail("%s: status 0x%x (%s)", what, (unsigned int)s, str ? str : "?");
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static hsa_status_t
find_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t t;

	(void)data;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS &&
	    t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
		gpu = a;
		have_gpu = 1;
	}
	return HSA_STATUS_SUCCESS;
}

/* Timeouts are in signal-timestamp ticks. */
static uint64_t
ticks(uint64_t ns)
{
	return (uint64_t)((double)ns * (double)ts_freq / 1e9);
}

/* Reserve a slot, write the body with the header INVALID, publish. */
static uint64_t
submit(hsa_queue_t *q, const void *pkt)
{
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	uint8_t *slot;
	uint32_t first;
	double t0 = now_s();

	while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) {
		if (now_s() - t0 > 10)
			fail("queue %p full for 10 s: the CP does not advance "
			     "read_dispatch_id", (void *)q);
	}
	slot = (uint8_t *)q->base_address + (idx % q->size) * 64;
	memcpy(slot + 4, (const uint8_t *)pkt + 4, 60);
	memcpy(&first, pkt, 4);
	__atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	return idx;
}

static uint16_t
header(hsa_packet_type_t type, int barrier)
{
	return (uint16_t)(type << HSA_PACKET_HEADER_TYPE |
			  (barrier ? 1 << HSA_PACKET_HEADER_BARRIER : 0) |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

static void
submit_dispatch(hsa_queue_t *q, uint64_t kobj, hsa_signal_t done)
{
	hsa_kernel_dispatch_packet_t p;

	memset(&p, 0, sizeof(p));
	p.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, 0);
	p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
	p.workgroup_size_x = 64;
	p.workgroup_size_y = 1;
	p.workgroup_size_z = 1;
	p.grid_size_x = 64;
	p.grid_size_y = 1;
	p.grid_size_z = 1;
	p.kernel_object = kobj;
	p.completion_signal = done;
	submit(q, &p);
}

static void
submit_barrier(hsa_queue_t *q, hsa_signal_t dep, hsa_signal_t done)
{
	hsa_barrier_and_packet_t p;

	memset(&p, 0, sizeof(p));
	p.header = header(HSA_PACKET_TYPE_BARRIER_AND, 1);
	p.dep_signal[0] = dep;
	p.completion_signal = done;
	submit(q, &p);
}

static void
wait_zero(hsa_signal_t s, const char *what)
{
	hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
							 ticks(WAIT_NS),
							 HSA_WAIT_STATE_ACTIVE);

	if (v != 0)
		fail("%s: signal still %lld after 10 s", what, (long long)v);
}

/* The queue error callback: what ROCr reports when the CP stops a queue. */
static hsa_status_t err_status;
static hsa_queue_t *err_queue;
static int err_calls;

static void
queue_error_cb(hsa_status_t status, hsa_queue_t *source, void *data)
{
	(void)data;
	err_status = status;
	err_queue = source;
	__atomic_add_fetch(&err_calls, 1, __ATOMIC_RELEASE);
}

static hsa_queue_t *
new_queue(void)
{
	hsa_queue_t *q;

	check(hsa_queue_create(gpu, QUEUE_SIZE, HSA_QUEUE_TYPE_MULTI, queue_error_cb,
			       NULL, UINT32_MAX, UINT32_MAX, &q), "hsa_queue_create");
	return q;
}

static void
step_many(hsa_queue_t *q)
{
	hsa_signal_t done, none = { 0 };
	const uint8_t *ring = q->base_address;
	double t0;

	check(hsa_signal_create(2 * N_PACKETS, 0, NULL, &done), "hsa_signal_create");
	t0 = now_s();
	for (int i = 0; i < N_PACKETS; i++) {
		submit_barrier(q, none, done);
		submit_dispatch(q, kernel, done);
	}
	wait_zero(done, "barrier-AND + dispatch packets");
	printf("cp_hsa: %d packets retired in %.3f ms\n", 2 * N_PACKETS,
	       (now_s() - t0) * 1e3);
	if (hsa_queue_load_read_index_scacquire(q) != hsa_queue_load_write_index_scacquire(q))
		fail("read index %llu, write index %llu after completion",
		     (unsigned long long)hsa_queue_load_read_index_scacquire(q),
		     (unsigned long long)hsa_queue_load_write_index_scacquire(q));
	for (uint32_t i = 0; i < q->size; i++) {
		uint16_t h;

		memcpy(&h, ring + (size_t)i * 64, 2);
		if ((h & 0xff) != HSA_PACKET_TYPE_INVALID)
			fail("slot %u header 0x%x after retirement, want INVALID", i, h);
	}
	check(hsa_signal_destroy(done), "hsa_signal_destroy");
	printf("cp_hsa: ok: %d barrier-AND and %d dispatch packets completed\n",
	       N_PACKETS, N_PACKETS);
}

static void
step_latency(hsa_queue_t *q)
{
	hsa_signal_t s;
	double t0, dt;

	check(hsa_signal_create(1, 0, NULL, &s), "hsa_signal_create");
	t0 = now_s();
	for (int i = 0; i < N_LATENCY; i++) {
		hsa_signal_store_relaxed(s, 1);
		submit_dispatch(q, kernel, s);
		wait_zero(s, "latency dispatch");
	}
	dt = now_s() - t0;
	printf("cp_hsa: dispatch round trip %.2f us (%d dispatches, %.0f/s)\n",
	       dt / N_LATENCY * 1e6, N_LATENCY, N_LATENCY / dt);
	check(hsa_signal_destroy(s), "hsa_signal_destroy");
}

static void
step_profiling(hsa_queue_t *q)
{
	hsa_amd_profiling_dispatch_time_t t;
	hsa_signal_t s;

	check(hsa_amd_profiling_set_profiler_enabled(q, 1), "profiler_enabled");
	check(hsa_signal_create(1, 0, NULL, &s), "hsa_signal_create");
	submit_dispatch(q, kernel, s);
	wait_zero(s, "profiled dispatch");
	check(hsa_amd_profiling_get_dispatch_time(gpu, s, &t), "get_dispatch_time");
	if (!t.start || t.end < t.start)
		fail("dispatch time start %llu end %llu", (unsigned long long)t.start,
		     (unsigned long long)t.end);
	check(hsa_signal_destroy(s), "hsa_signal_destroy");
	check(hsa_amd_profiling_set_profiler_enabled(q, 0), "profiler_enabled");
	printf("cp_hsa: ok: profiled dispatch %llu..%llu (%llu ticks)\n",
	       (unsigned long long)t.start, (unsigned long long)t.end,
	       (unsigned long long)(t.end - t.start));
}

struct waiter {
	hsa_signal_t s;
	hsa_signal_value_t got;
	double elapsed;
};

static void *
blocking_waiter(void *arg)
{
	struct waiter *w = arg;
	double t0 = now_s();

	w->got = hsa_signal_wait_scacquire(w->s, HSA_SIGNAL_CONDITION_EQ, 0,
					   ticks(WAIT_NS), HSA_WAIT_STATE_BLOCKED);
	w->elapsed = now_s() - t0;
	return NULL;
}

/* The amd_signal_t behind a handle: event_mailbox_ptr at 16. */
static uint64_t
mailbox_of(hsa_signal_t s)
{
	uint64_t m;

	memcpy(&m, (const uint8_t *)(uintptr_t)s.handle + 16, 8);
	return m;
}

static void
step_interrupt(hsa_queue_t *q, hsa_queue_t *other)
{
	struct waiter w;
	hsa_signal_t dep, other_done;
	pthread_t th;

	check(hsa_signal_create(1, 0, NULL, &dep), "hsa_signal_create dep");
	/* No consumer list (or a CPU in it) makes an InterruptSignal. */
	check(hsa_signal_create(1, 0, NULL, &w.s), "hsa_signal_create interrupt");
	if (!mailbox_of(w.s))
		fail("a signal without consumers (an InterruptSignal) has no event mailbox");
	w.got = -1;
	submit_barrier(q, dep, w.s);
	if (pthread_create(&th, NULL, blocking_waiter, &w))
		fail("pthread_create");
	/* While q's barrier waits, the other queue still executes. */
	usleep(100000);
	check(hsa_signal_create(10, 0, NULL, &other_done), "hsa_signal_create");
	for (int i = 0; i < 10; i++)
		submit_dispatch(other, kernel, other_done);
	wait_zero(other_done, "the other queue, while a barrier waits");
	if (hsa_signal_load_scacquire(w.s) != 1)
		fail("the barrier completed before its dependency was satisfied");
	hsa_signal_store_screlease(dep, 0);
	pthread_join(th, NULL);
	if (w.got != 0)
		fail("blocking wait returned %lld", (long long)w.got);
	/* Woken by the event, not by its timeout. */
	if (w.elapsed > 5.0)
		fail("blocking wait took %.1f s: no event wake-up", w.elapsed);
	check(hsa_signal_destroy(other_done), "hsa_signal_destroy");
	check(hsa_signal_destroy(dep), "hsa_signal_destroy");
	check(hsa_signal_destroy(w.s), "hsa_signal_destroy");
	printf("cp_hsa: ok: barrier on a host-set signal woke a blocking wait "
	       "after %.3f s; the other queue ran meanwhile\n", w.elapsed);
}

static void
step_null_kernel(void)
{
	hsa_queue_t *q = new_queue();
	hsa_signal_t s;
	double t0;

	check(hsa_signal_create(1, 0, NULL, &s), "hsa_signal_create");
	submit_dispatch(q, 0, s);
	t0 = now_s();
	while (!__atomic_load_n(&err_calls, __ATOMIC_ACQUIRE)) {
		if (now_s() - t0 > 10)
			fail("no queue error callback 10 s after a null kernel object");
		usleep(1000);
	}
	if (err_status != HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
		fail("queue error callback status 0x%x, want 0x%x (INVALID_CODE_OBJECT)",
		     (unsigned int)err_status, (unsigned int)HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
	if (err_queue != q)
		fail("queue error callback for %p, want %p", (void *)err_queue, (void *)q);
	if (hsa_signal_load_scacquire(s) != 1)
		fail("the failed dispatch's completion signal changed");
	check(hsa_queue_destroy(q), "hsa_queue_destroy (queue in error)");
	check(hsa_signal_destroy(s), "hsa_signal_destroy");
	printf("cp_hsa: ok: null kernel object -> queue error callback "
	       "(INVALID_CODE_OBJECT)\n");
}

static void
step_destroy_pending(void)
{
	hsa_queue_t *q = new_queue();
	hsa_signal_t dep, none = { 0 };

	check(hsa_signal_create(1, 0, NULL, &dep), "hsa_signal_create");
	submit_barrier(q, dep, none);
	usleep(10000);
	check(hsa_queue_destroy(q), "hsa_queue_destroy (barrier pending)");
	check(hsa_signal_destroy(dep), "hsa_signal_destroy");
	printf("cp_hsa: ok: queue with a waiting barrier destroyed\n");
}

/* dl_iterate_phdr callback: the path of the loaded libhsakmt. */
static int
find_thunk(struct dl_phdr_info *info, size_t size, void *data)
{
	const char **out = data;

	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "libhsakmt.so"))
		*out = info->dlpi_name;
	return 0;
}

static void
check_thunk(const char *want)
{
	const char *got = NULL;
	char a[4096], b[4096];

	dl_iterate_phdr(find_thunk, &got);
	if (!got)
		fail("no libhsakmt loaded");
	printf("cp_hsa: libhsakmt: %s\n", got);
	if (want && (!realpath(got, a) || !realpath(want, b) || strcmp(a, b)))
		fail("ROCr loaded %s, want %s", got, want);
}

static double
cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void
step_idle(void)
{
	double c0, t0, share;

	/* Let the engine's spin after the last packet run out first. */
	usleep(100000);
	c0 = cpu_s();
	t0 = now_s();
	sleep(2);
	share = (cpu_s() - c0) / (now_s() - t0);
	printf("cp_hsa: idle process with queues: %.3f%% of a core\n", share * 100);
	if (share > 0.10)
		fail("idle process uses %.1f%% of a core", share * 100);
}

static hsa_region_t kernarg_region;
static int have_kernarg;

static hsa_status_t
find_kernarg(hsa_region_t r, void *data)
{
	hsa_region_global_flag_t f;

	(void)data;
	if (hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &f) == HSA_STATUS_SUCCESS &&
	    (f & HSA_REGION_GLOBAL_FLAG_KERNARG)) {
		kernarg_region = r;
		have_kernarg = 1;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

/*
 * A kernel of one s_endpgm, in memory the GPU reaches (the kernarg
 * region): a kernel descriptor (code object v3 layout), zero but for
 * kernel_code_entry_byte_offset, and its code 256 bytes on. No user or
 * system SGPR is enabled.
 */
static uint64_t
make_kernel(void)
{
	const uint32_t endpgm = 0xbf810000;	/* s_endpgm */
	const int64_t entry = 256;
	uint8_t *p;

	hsa_agent_iterate_regions(gpu, find_kernarg, NULL);
	if (!have_kernarg)
		fail("no kernarg region");
	check(hsa_memory_allocate(kernarg_region, 512, (void **)&p), "kernel memory");
	memset(p, 0, 512);
	memcpy(p + 16, &entry, sizeof(entry));
	memcpy(p + entry, &endpgm, sizeof(endpgm));
	return (uint64_t)(uintptr_t)p;
}

int
main(int argc, char **argv)
{
	const char *thunk = NULL;
	hsa_queue_t *q, *q2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "--thunk"))
		thunk = argv[2];
	else if (argc != 1)
		fail("usage: cp_hsa [--thunk FILE]");
	check(hsa_init(), "hsa_init");
	check_thunk(thunk);
	check(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &ts_freq),
	      "timestamp frequency");
	check(hsa_iterate_agents(find_gpu, NULL), "hsa_iterate_agents");
	if (!have_gpu)
		fail("no GPU agent");
	kernel = make_kernel();
	q = new_queue();
	q2 = new_queue();
	step_many(q);
	step_latency(q);
	step_profiling(q);
	step_interrupt(q, q2);
	if (err_calls)
		fail("queue error callback called on healthy queues (0x%x)",
		     (unsigned int)err_status);
	step_destroy_pending();
	step_idle();
	step_null_kernel();
	check(hsa_queue_destroy(q2), "hsa_queue_destroy");
	check(hsa_queue_destroy(q), "hsa_queue_destroy");
	check(hsa_shut_down(), "hsa_shut_down");
	printf("cp_hsa: all steps passed\n");
	return 0;
}
