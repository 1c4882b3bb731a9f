/* SPDX-License-Identifier: MIT */
/*
 * What a kfd:* event costs, against lttng-ust's own cost for an event of
 * ten of its integers (bench_tp.h), in one process and one LTTng session.
 *
 * The benchmark starts a session daemon if none runs, records kfd:* and
 * kfdbench:* into a session with buffers large enough to drop nothing,
 * and runs itself again on kfdsim (LD_PRELOAD) to measure:
 *
 *   provider	the lttng hooks' after() on a real ALLOC_MEMORY_OF_GPU call
 *		(taken from kfdsim through the dispatch point): row lookup,
 *		images, ten decoded fields -> kfd:alloc_memory_of_gpu
 *   bare	lttng_ust_tracepoint(kfdbench, alloc, ...) with the same ten
 *		integers passed by value
 *   ioctl	GET_VERSION on kfdsim through the dispatch point, without
 *		hooks and with the lttng hooks (each call one event)
 *
 * Each round times a batch of each event kind back to back (alternating
 * which goes first), so that both see the same machine; the figures are
 * medians over the rounds, the ratio the median of the rounds' ratios.
 * The target is provider <= 1.5 x bare. The ioctl figures also show the
 * dispatch point's own cost with a hook that does nothing.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "bench_tp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/lttng.h>

#include "lt_session.h"
#include "tc_host.h"

#define ROUNDS 21
#define EVENTS 2000
#define IOCTLS 1000
#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* ---- the measured process ---- */

/* The ALLOC call the hooks will be fed, as the dispatch point saw it. */
static struct kfd_dispatch_call snap;
static unsigned char snap_before[64], snap_after[64];

static void
snap_after_hook(void *ctx, const struct kfd_dispatch_call *c, void *cookie)
{
	if (!c->desc || strcmp(c->desc->name, "ALLOC_MEMORY_OF_GPU") ||
	    c->arg_size > sizeof(snap_before) || !c->arg_before)
		return;
	snap = *c;
	memcpy(snap_before, c->arg_before, c->arg_size);
	memcpy(snap_after, c->arg, c->arg_size);
	snap.arg_before = snap_before;
	snap.arg = snap_after;
}

static const struct kfd_dispatch_hooks snap_hooks = {
	.name = "bench-snap",
	.after = snap_after_hook,
};

static void
noop_after(void *ctx, const struct kfd_dispatch_call *c, void *cookie)
{
}

/* The dispatch point's cost with a hook, without lttng. */
static const struct kfd_dispatch_hooks noop_hooks = {
	.name = "bench-noop",
	.after = noop_after,
};

static int
fail(const char *what)
{
	fprintf(stderr, "bench_lttng: %s: %s\n", what, strerror(errno));
	return 1;
}

/* Open kfdsim's device and take one real ALLOC call. Return: kfd fd. */
static int
take_alloc(void)
{
	struct kfd_abi_process_device_apertures ap[8];
	struct kfd_abi_get_process_apertures_new_args gpa = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap,
		.num_of_nodes = 8,
	};
	struct kfd_abi_alloc_memory_of_gpu_args a = { 0 };
	struct kfd_abi_acquire_vm_args vm = { 0 };
	unsigned long id = 0;
	int minor = 0, kfd, drm;
	char path[128], line[256];
	FILE *f;

	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (kfd < 0)
		return -1;
	for (int node = 0; node < 64 && !id; node++) {
		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", node);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%lu", &id) != 1)
			id = 0;
		fclose(f);
		snprintf(path, sizeof(path), TOPO "/%d/properties", node);
		f = id ? fopen(path, "r") : NULL;
		while (f && fgets(line, sizeof(line), f))
			sscanf(line, "drm_render_minor %d", &minor);
		if (f)
			fclose(f);
	}
	if (!id || ioctl(kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &gpa))
		return -1;
	snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	vm.drm_fd = (uint32_t)drm;
	vm.gpu_id = (uint32_t)id;
	if (drm < 0 || ioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &vm))
		return -1;
	a.va_addr = ap[0].gpuvm_base + (1ull << 30);
	a.size = 4096;
	a.gpu_id = (uint32_t)id;
	a.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
	kfd_dispatch_hook_add(&snap_hooks, NULL);
	if (kfd_dispatch(kfd, KFD_FILE_KFD, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a))
		return -1;
	kfd_dispatch_hook_remove(&snap_hooks, NULL);
	return snap.desc ? kfd : -1;
}

static double
time_provider(const struct kfd_dispatch_hooks *h)
{
	uint64_t t0 = now_ns();

	for (int i = 0; i < EVENTS; i++)
		h->after(NULL, &snap, NULL);
	return (double)(now_ns() - t0) / EVENTS;
}

static double
time_bare(void)
{
	const struct kfd_abi_alloc_memory_of_gpu_args *in = (const void *)snap_before;
	const struct kfd_abi_alloc_memory_of_gpu_args *out = (const void *)snap_after;
	uint64_t t0 = now_ns();

	for (int i = 0; i < EVENTS; i++)
		lttng_ust_tracepoint(kfdbench, alloc, snap.fd, in->va_addr,
				     in->size, out->handle, out->mmap_offset,
				     in->gpu_id, in->flags, snap.ret, snap.err,
				     snap.t_exit - snap.t_enter);
	return (double)(now_ns() - t0) / EVENTS;
}

/* GET_VERSION through the dispatch point with @h registered (or none). */
static double
time_get_version(int kfd, const struct kfd_dispatch_hooks *h)
{
	struct kfd_abi_get_version_args v;
	uint64_t t0;
	int ret = 0;

	if (h)
		kfd_dispatch_hook_add(h, NULL);
	t0 = now_ns();
	for (int i = 0; i < IOCTLS && !ret; i++)
		ret = kfd_dispatch(kfd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v);
	t0 = now_ns() - t0;
	if (h)
		kfd_dispatch_hook_remove(h, NULL);
	return ret ? -1 : (double)t0 / IOCTLS;
}

static int
measure(void)
{
	const struct kfd_lttng_provider *p = kfd_lttng_provider(KFD_LTTNG_ABI);
	double prov[ROUNDS], bare[ROUNDS], ratio[ROUNDS];
	double plain[ROUNDS], noop[ROUNDS], hooked[ROUNDS];
	double mp, mb, mr, mplain, mnoop, mhooked;
	int kfd;

	if (!p)
		return fail("kfd_lttng_provider");
	kfd = take_alloc();
	if (kfd < 0)
		return fail("an ALLOC_MEMORY_OF_GPU on kfdsim");
	/* Warm up both paths (first-use costs, page faults in buffers). */
	time_provider(p->hooks);
	time_bare();
	for (int r = 0; r < ROUNDS; r++) {
		/* Let the consumer daemon drain between rounds. */
		pause_ms(5);
		if (r & 1) {
			bare[r] = time_bare();
			prov[r] = time_provider(p->hooks);
		} else {
			prov[r] = time_provider(p->hooks);
			bare[r] = time_bare();
		}
		ratio[r] = prov[r] / bare[r];
		plain[r] = time_get_version(kfd, NULL);
		noop[r] = time_get_version(kfd, &noop_hooks);
		hooked[r] = time_get_version(kfd, p->hooks);
		if (plain[r] < 0 || noop[r] < 0 || hooked[r] < 0)
			return fail("GET_VERSION");
	}
	mp = median(prov, ROUNDS);
	mb = median(bare, ROUNDS);
	mr = median(ratio, ROUNDS);
	mplain = median(plain, ROUNDS);
	mnoop = median(noop, ROUNDS);
	mhooked = median(hooked, ROUNDS);
	printf("kfd:alloc_memory_of_gpu from the lttng hooks:  %7.1f ns/event\n", mp);
	printf("kfdbench:alloc, bare tracepoint, ten integers: %7.1f ns/event\n", mb);
	printf("ratio provider/bare: %.2f (target <= 1.50): %s\n", mr,
	       mr <= 1.5 ? "met" : "MISSED");
	printf("GET_VERSION on kfdsim through the dispatch point: %.1f ns bare, "
	       "%.1f ns with a no-op hook, %.1f ns with the lttng hooks "
	       "(kfd:get_version costs %.1f ns)\n",
	       mplain, mnoop, mhooked, mhooked - mnoop);
	printf("(medians of %d rounds of %d events and %d ioctls each)\n",
	       ROUNDS, EVENTS, IOCTLS);
	return 0;
}

/* ---- the controller ---- */

int
main(int argc, char **argv)
{
	struct lt_env e;
	char name[64], out[300], res[300], self[4096], preload[4200];
	char *child_env[] = { preload, "LT_BENCH_CHILD=1", NULL };
	char *child_argv[] = { self, NULL };
	const char *sim = getenv("KFDTRACE_SIM_LIB");
	ssize_t n;
	long lost;
	int ret;
	FILE *f;

	if (getenv("LT_BENCH_CHILD"))
		return measure();
	tc_host_costs();
	if (!lt_tools_present()) {
		printf("lttng-sessiond, lttng or babeltrace2 is not installed\n");
		return 77;
	}
	if (!sim || !*sim) {
		printf("kfdsim is not built\n");
		return 77;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return fail("/proc/self/exe");
	self[n] = '\0';
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", sim);

	if (lt_env_up(&e, "bench"))
		return 1;
	snprintf(name, sizeof(name), "kfdlt-bench-%d", (int)getpid());
	snprintf(out, sizeof(out), "%s/trace", e.dir);
	snprintf(res, sizeof(res), "%s/result.txt", e.dir);
	if (lt_session_begin(&e, name, out, "kfdbench:*", 1024)) {
		lt_show_log(&e);
		lt_env_down(&e);
		return 1;
	}
	ret = lt_run(child_argv, child_env, res, e.log);
	lost = lt_discarded(&e, name, "kfdch");
	lt_session_end(&e, name);
	f = fopen(res, "r");
	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f))
			fputs(line, stdout);
		fclose(f);
	}
	if (lost)
		printf("warning: the session discarded %ld events; the figures "
		       "are too low\n", lost);
	if (ret)
		lt_show_log(&e);
	lt_env_down(&e);
	return ret ? 1 : 0;
}
