/* SPDX-License-Identifier: MIT */
/*
 * Writes a synthetic trace of N ioctls for the replay benchmarks: run it on
 * kfdsim (`kfdtrace sim -- rp_gen OUT N`). It opens the devices, acquires
 * the VM, then cycles through cheap calls of several kinds (versions,
 * clocks, event set/reset/wait, event and memory create/destroy, GPU
 * map/unmap) through the dispatch point with the recorder attached, so
 * every record holds what the simulated kernel really answered.
 *
 * With OUT "-" nothing is recorded and the rate of the calls themselves
 * is printed: the simulator's own ceiling for this mix.
 *
 * `rp_gen OUT N threads T` issues the same mix from T threads at once
 * (after the main thread's open and ACQUIRE_VM), about N/T calls each.
 * Each thread creates its own signal event and destroys it at the end,
 * and allocates its buffers at a VA range of its own, so that no call of
 * one thread uses what another thread made. The recorder is process-wide,
 * so all of them go into one trace under one sequence.
 *
 * The calls that take or give back an id the kernel picks from the
 * process's pool (ALLOC/FREE: memory handles; CREATE/DESTROY_EVENT: event
 * ids and slots) are made under one lock in this mode. The recorder
 * numbers a record after its call returned, so without it a FREE of
 * handle 5 on one thread and an ALLOC on another that got handle 5 back
 * (lowest free id, as idr_alloc) can be numbered ALLOC first; the serial
 * replay, in sequence order, then finds 5 still taken and diverges. A
 * real process racing so would give the same divergence; this trace is
 * for the replay's rate, so it keeps that race out.
 *
 * `rp_gen OUT 0 ages` writes instead the scenes of test_replay_ages.c,
 * on signal events of their own (KFD 1.14 event ages): 1 and 2, a wait for
 * any of them that a SET_EVENT of 2 releases; 3, set 20 times, then a wait
 * that finds it set and one that a set releases; 4, a wait that a set of
 * the main thread releases, followed by a set of the waiting thread.
 * `rp_gen - 0 ages-end`, run under `kfdtrace record`, adds a HIP 6.4
 * teardown's pattern: 5, a wait that a set of the main thread releases,
 * then a set of the waiting thread and a wait that finds it; and 6, a
 * wait of a thread blocked from the start to the exit, which an atexit()
 * handler's SET_EVENT releases (the process's last calls); that handler
 * then unmaps, whole, a VA reservation of its own (not recorded) that a
 * GTT buffer's CPU mapping lies in, as ROCr does with its own. Before
 * that, 7: a SET_EVENT of another thread, then the main thread's
 * DESTROY_EVENT of it.
 *
 * `rp_gen OUT N userptr` writes instead N userptr allocations (each one
 * page, each freed again) at every other page of one mapping: N CPU ranges
 * the replay must reserve at their captured addresses, none touching
 * another, for the test that the replay's address space scales.
 *
 * `rp_gen OUT N reuse` writes instead N rounds of a memory handle's
 * reuse: a buffer at one VA allocated, mapped, unmapped and freed, then
 * another allocated at the same VA, which gets the freed handle back
 * (lowest free id, as idr_alloc), and mapped; the last round's second
 * buffer is freed while still mapped, which fails with EBUSY.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/recorder.h>

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

/* The most threads `threads T` starts. */
#define GEN_MAX_THREADS 64

/* The GTT buffer of the mix: thread i's goes at GEN_VA + i * GEN_VA_STEP. */
#define GEN_VA		0x100000000ull
#define GEN_VA_STEP	0x10000000ull

static struct kfd_recorder *rec;

/* One issuer of calls: the main thread, or one worker of `threads T`. */
struct gen {
	int kfd;
	uint32_t gpu;
	uint32_t event;		/* its signal event */
	uint64_t va;		/* where its GTT buffer goes */
	uint64_t target;	/* the mix stops once this many were issued */
	uint64_t issued;
	/* Held around calls that pick kernel ids; NULL: one thread. */
	pthread_mutex_t *ids_lock;
};

static int
call(struct gen *g, unsigned long req, void *arg)
{
	g->issued++;
	return kfd_dispatch_once(g->kfd, KFD_FILE_KFD, req, arg);
}

/* A call that takes or gives back a kernel-picked id (see the top). */
static int
call_id(struct gen *g, unsigned long req, void *arg)
{
	int r, e;

	if (!g->ids_lock)
		return call(g, req, arg);
	pthread_mutex_lock(g->ids_lock);
	r = call(g, req, arg);
	e = errno;
	pthread_mutex_unlock(g->ids_lock);
	errno = e;
	return r;
}

static int
open_dev(const char *path, enum kfd_file_kind kind)
{
	struct kt_record r;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (!rec)
		return fd;
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_OPEN;
	r.u.open.path = path;
	r.u.open.flags = O_RDWR | O_CLOEXEC;
	r.u.open.file_kind = (uint8_t)kind;
	r.u.open.ret = fd;
	r.u.open.err = fd < 0 ? errno : 0;
	kfd_recorder_append(rec, &r);
	return fd;
}

static int
gpu_info(uint32_t *gpu, unsigned int *minor)
{
	char path[256], line[128];
	int i;

	for (i = 0; i < 64; i++) {
		unsigned long long v = 0;
		FILE *f;

		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
		if (!v)
			continue;
		*gpu = (uint32_t)v;
		snprintf(path, sizeof(path), TOPO "/%d/properties", i);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			sscanf(line, "drm_render_minor %u", minor);
		if (f)
			fclose(f);
		return 0;
	}
	return -1;
}

/* N page-sized userptr allocations, each freed again. */
static int
userptrs(struct gen *g, uint64_t n)
{
	uint8_t *base = mmap(NULL, (size_t)(2 * n + 1) * 4096,
			     PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t i;

	if (base == MAP_FAILED)
		return -1;
	for (i = 0; i < n; i++) {
		struct kfd_abi_alloc_memory_of_gpu_args a = {
			.va_addr = 0x200000000ull + i * 8192, .size = 4096,
			.mmap_offset = (uint64_t)(uintptr_t)(base + 2 * i * 4096),
			.gpu_id = g->gpu, .flags = KFD_ABI_ALLOC_MEM_FLAGS_USERPTR,
		};
		struct kfd_abi_free_memory_of_gpu_args f;

		if (call(g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a))
			return -1;
		f.handle = a.handle;
		if (call(g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f))
			return -1;
	}
	return 0;
}

/* A call the reuse pattern needs to succeed. */
static int
must(struct gen *g, unsigned long req, void *arg)
{
	if (call(g, req, arg)) {
		fprintf(stderr, "rp_gen: reuse: ioctl 0x%lx: %s\n", req,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* N rounds of a handle freed and reused at the same VA (see the top). */
static int
reuse(struct gen *g, uint64_t n)
{
	uint32_t ids[1] = { g->gpu };
	uint64_t i, h = 0;

	for (i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			struct kfd_abi_alloc_memory_of_gpu_args a = {
				.va_addr = g->va, .size = 4096, .gpu_id = g->gpu,
				.flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT |
					 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
			};
			struct kfd_abi_map_memory_to_gpu_args m = {
				.device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
				.n_devices = 1,
			};
			struct kfd_abi_free_memory_of_gpu_args f;

			if (must(g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a))
				return -1;
			if (k && a.handle != h) {
				fprintf(stderr, "rp_gen: reuse: handle 0x%llx, "
					"not the freed 0x%llx again\n",
					(unsigned long long)a.handle,
					(unsigned long long)h);
				return -1;
			}
			h = a.handle;
			m.handle = h;
			if (must(g, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &m))
				return -1;
			f.handle = h;
			if (k && i + 1 == n) {
				/* The failure: freed while mapped. */
				if (!call(g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f) ||
				    errno != EBUSY) {
					fprintf(stderr, "rp_gen: reuse: a mapped "
						"buffer's FREE did not fail "
						"with EBUSY\n");
					return -1;
				}
				break;
			}
			m.n_success = 0;
			if (must(g, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &m) ||
			    must(g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f))
				return -1;
		}
	}
	return 0;
}

/* The cheap mix, on @g's event and VA, until @g->target calls were issued. */
static void
mix(struct gen *g)
{
	uint32_t gpu = g->gpu, ids[1] = { gpu };
	uint64_t n;

	for (n = 0; g->issued < g->target; n++) {
		struct kfd_abi_get_version_args v;
		struct kfd_abi_get_clock_counters_args clk = { .gpu_id = gpu };
		struct kfd_abi_set_event_args se = { .event_id = g->event };
		struct kfd_abi_reset_event_args re = { .event_id = g->event };
		struct kfd_abi_event_data ev = { .event_id = g->event };
		struct kfd_abi_wait_events_args we = {
			.events_ptr = (uint64_t)(uintptr_t)&ev, .num_events = 1,
		};

		switch (n % 8) {
		case 0:
			call(g, KFD_ABI_IOC_GET_VERSION, &v);
			break;
		case 1:
			call(g, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk);
			break;
		case 2:
			call(g, KFD_ABI_IOC_SET_EVENT, &se);
			call(g, KFD_ABI_IOC_WAIT_EVENTS, &we);
			break;
		case 3:
			call(g, KFD_ABI_IOC_RESET_EVENT, &re);
			break;
		case 4: {
			struct kfd_abi_create_event_args e2 = {
				.event_type = KFD_ABI_EVENT_SIGNAL,
			};
			struct kfd_abi_destroy_event_args de;

			call_id(g, KFD_ABI_IOC_CREATE_EVENT, &e2);
			de.event_id = e2.event_id;
			de.pad = 0;
			call_id(g, KFD_ABI_IOC_DESTROY_EVENT, &de);
			break;
		}
		case 5: {
			struct kfd_abi_alloc_memory_of_gpu_args a = {
				.va_addr = g->va, .size = 4096,
				.gpu_id = gpu, .flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT,
			};
			struct kfd_abi_map_memory_to_gpu_args m = {
				.device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
				.n_devices = 1,
			};
			struct kfd_abi_free_memory_of_gpu_args f;

			call_id(g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a);
			m.handle = a.handle;
			call(g, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &m);
			m.n_success = 0;
			call(g, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &m);
			f.handle = a.handle;
			call_id(g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f);
			break;
		}
		case 6: {
			struct kfd_abi_get_available_memory_args am = { .gpu_id = gpu };

			call(g, KFD_ABI_IOC_AVAILABLE_MEMORY, &am);
			break;
		}
		default: {
			/*
			 * A call that fails: an unknown handle. Each issuer
			 * holds at most one buffer at a time, so handle
			 * numbers stay far below this one.
			 */
			struct kfd_abi_free_memory_of_gpu_args f = {
				.handle = (uint64_t)gpu << 32 | 0x7fff,
			};

			call(g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f);
			break;
		}
		}
	}
}

/* One worker of `threads T`. */
struct worker {
	struct gen g;
	pthread_t thread;
	pthread_barrier_t *start;
	int err;		/* errno of its CREATE_EVENT, or 0 */
};

/* A worker: its event created, the mix, its event destroyed. */
static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct kfd_abi_create_event_args ce = {
		.event_type = KFD_ABI_EVENT_SIGNAL,
	};
	struct kfd_abi_destroy_event_args de = { 0 };

	/* All at once, so that their calls interleave in the trace. */
	pthread_barrier_wait(w->start);
	if (call_id(&w->g, KFD_ABI_IOC_CREATE_EVENT, &ce)) {
		w->err = errno ? errno : EIO;
		return NULL;
	}
	w->g.event = ce.event_id;
	/* Its share includes the create and the destroy. */
	if (w->g.target)
		w->g.target--;
	mix(&w->g);
	de.event_id = ce.event_id;
	call_id(&w->g, KFD_ABI_IOC_DESTROY_EVENT, &de);
	return NULL;
}

/*
 * The mix from @nthreads threads at once, sharing out what @main_gen's
 * target leaves after the calls it issued itself; their calls are added to
 * @main_gen->issued. Return: 0, or -1 (said on stderr).
 */
static int
threads(struct gen *main_gen, unsigned int nthreads)
{
	uint64_t left = main_gen->target > main_gen->issued ?
			main_gen->target - main_gen->issued : 0;
	struct worker *w = calloc(nthreads, sizeof(*w));
	pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_barrier_t start;
	unsigned int i, started;
	int ret = 0, r;

	if (!w || pthread_barrier_init(&start, NULL, nthreads)) {
		fprintf(stderr, "rp_gen: out of memory\n");
		free(w);
		return -1;
	}
	for (i = 0; i < nthreads; i++) {
		w[i].g = *main_gen;
		w[i].g.issued = 0;
		w[i].g.va = GEN_VA + i * GEN_VA_STEP;
		w[i].g.target = left / nthreads + (i < left % nthreads);
		w[i].g.ids_lock = &ids_lock;
		w[i].start = &start;
	}
	for (started = 0; started < nthreads; started++) {
		r = pthread_create(&w[started].thread, NULL, worker_main,
				   &w[started]);
		if (r) {
			/* The barrier waits for all: nothing can run now. */
			fprintf(stderr, "rp_gen: pthread_create: %s\n",
				strerror(r));
			exit(1);
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].thread, NULL);
		main_gen->issued += w[i].g.issued;
		if (w[i].err) {
			fprintf(stderr, "rp_gen: thread %u: CREATE_EVENT: %s\n",
				i, strerror(w[i].err));
			ret = -1;
		}
	}
	pthread_barrier_destroy(&start);
	free(w);
	return ret;
}

/* A wait of `ages`, on a thread of its own. */
struct ages_wait {
	struct gen *g;
	struct kfd_abi_event_data ev[2];
	uint32_t n;
	uint32_t set_after;	/* a SET_EVENT of it after the wait, or 0 */
	int again;		/* a second wait, with the age got back */
	int wait_after;		/* ... after set_after */
	uint32_t timeout;	/* ms; 0: 5000 */
};

static void
ages_wait1(struct ages_wait *w)
{
	struct kfd_abi_wait_events_args a;

	memset(&a, 0, sizeof(a));
	a.events_ptr = (uint64_t)(uintptr_t)w->ev;
	a.num_events = w->n;
	a.timeout = w->timeout ? w->timeout : 5000;
	call(w->g, KFD_ABI_IOC_WAIT_EVENTS, &a);
}

static void *
ages_waiter(void *arg)
{
	struct ages_wait *w = arg;
	struct kfd_abi_set_event_args se = { .event_id = w->set_after };

	ages_wait1(w);
	if (w->again)
		ages_wait1(w);
	if (w->set_after)
		call(w->g, KFD_ABI_IOC_SET_EVENT, &se);
	if (w->wait_after)
		ages_wait1(w);
	return NULL;
}

/* `ages-end`'s 7: one SET_EVENT of w->set_after. */
static void *
ages_setter(void *arg)
{
	struct ages_wait *w = arg;
	struct kfd_abi_set_event_args se = { .event_id = w->set_after };

	call(w->g, KFD_ABI_IOC_SET_EVENT, &se);
	return NULL;
}

static uint32_t
ages_event(struct gen *g)
{
	struct kfd_abi_create_event_args ce;

	memset(&ce, 0, sizeof(ce));
	ce.event_type = KFD_ABI_EVENT_SIGNAL;
	ce.auto_reset = 1;
	call(g, KFD_ABI_IOC_CREATE_EVENT, &ce);
	return ce.event_id;
}

/* Start @w, give it time to block in the kernel, set @id, join it. */
static int
ages_scene(struct gen *g, struct ages_wait *w, uint32_t id)
{
	struct kfd_abi_set_event_args se = { .event_id = id };
	struct timespec nap = { 0, 50 * 1000000L };
	pthread_t t;
	unsigned int i;

	w->g = g;
	for (i = 0; i < w->n; i++)
		w->ev[i].signal_event_data.last_event_age = 1;
	if (pthread_create(&t, NULL, ages_waiter, w))
		return -1;
	nanosleep(&nap, NULL);
	call(g, KFD_ABI_IOC_SET_EVENT, &se);
	pthread_join(t, NULL);
	return 0;
}

/* `ages-end`'s thread blocked until the exit (6 above). */
static struct ages_wait end_wait = { .n = 1, .timeout = 60000 };
static pthread_t end_thread;
/* ... and its VA reservation, a buffer's CPU mapping at its start. */
#define END_RES_LEN	(64ull << 20)
#define END_BO_LEN	(2ull << 20)
static void *end_res = MAP_FAILED;

/*
 * The teardown's last calls: release the blocked thread, join it, unmap
 * the reservation whole.
 */
static void
ages_end(void)
{
	struct kfd_abi_set_event_args se = { .event_id = end_wait.ev[0].event_id };

	call(end_wait.g, KFD_ABI_IOC_SET_EVENT, &se);
	pthread_join(end_thread, NULL);
	if (end_res != MAP_FAILED)
		munmap(end_res, END_RES_LEN);
}

/* A GTT buffer mapped (through @drm) at the start of end_res. */
static int
ages_end_map(struct gen *g, int drm)
{
	struct kfd_abi_alloc_memory_of_gpu_args a;

	end_res = mmap(NULL, END_RES_LEN, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (end_res == MAP_FAILED)
		return -1;
	memset(&a, 0, sizeof(a));
	a.va_addr = (uint64_t)(uintptr_t)end_res;
	a.size = END_BO_LEN;
	a.gpu_id = g->gpu;
	a.flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
	if (call(g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a) ||
	    mmap(end_res, END_BO_LEN, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, drm, (off_t)a.mmap_offset) != end_res)
		return -1;
	return 0;
}

/* Start the thread blocked until the exit, and what releases it. */
static int
ages_end_start(struct gen *g, int drm)
{
	if (ages_end_map(g, drm))
		return -1;
	end_wait.g = g;
	end_wait.ev[0].event_id = ages_event(g);
	end_wait.ev[0].signal_event_data.last_event_age = 1;
	if (pthread_create(&end_thread, NULL, ages_waiter, &end_wait))
		return -1;
	return atexit(ages_end);
}

/* 7 of `ages-end`: another thread's set, then the event's destruction. */
static int
ages_set_destroy(struct gen *g)
{
	struct ages_wait w = { .g = g };
	struct kfd_abi_destroy_event_args de;
	pthread_t t;

	w.set_after = ages_event(g);
	if (pthread_create(&t, NULL, ages_setter, &w))
		return -1;
	pthread_join(t, NULL);
	de.event_id = w.set_after;
	de.pad = 0;
	return call(g, KFD_ABI_IOC_DESTROY_EVENT, &de);
}

static int
ages(struct gen *g, int end, int drm)
{
	struct kfd_abi_set_event_args se;
	struct ages_wait a = { .n = 2 }, b = { .n = 1, .again = 1 },
			 c = { .n = 1 }, d = { .n = 1 };
	int i;

	a.ev[0].event_id = ages_event(g);
	a.ev[1].event_id = ages_event(g);
	b.ev[0].event_id = ages_event(g);
	c.ev[0].event_id = ages_event(g);
	c.set_after = c.ev[0].event_id;
	d.ev[0].event_id = end ? ages_event(g) : 0;
	d.set_after = d.ev[0].event_id;
	d.wait_after = 1;
	if (end && ages_end_start(g, drm))
		return -1;
	if (ages_scene(g, &a, a.ev[1].event_id))
		return -1;
	se.event_id = b.ev[0].event_id;
	se.pad = 0;
	for (i = 0; i < 20; i++)
		call(g, KFD_ABI_IOC_SET_EVENT, &se);
	if (ages_scene(g, &b, b.ev[0].event_id))
		return -1;
	if (ages_scene(g, &c, c.ev[0].event_id))
		return -1;
	if (!end)
		return 0;
	if (ages_scene(g, &d, d.ev[0].event_id))
		return -1;
	return ages_set_destroy(g);
}

static int
usage(void)
{
	fprintf(stderr, "usage: rp_gen OUT N [userptr | reuse | threads T | ages | "
		"ages-end] "
		"(on kfdsim)\n");
	return 2;
}

int
main(int argc, char **argv)
{
	/* Crash handlers make the recorder's argument copies cheap. */
	struct kfd_recorder_opts o = {
		.producer = "rp_gen",
		.flags = KFD_REC_SIMULATED | KFD_REC_CRASH_HANDLERS,
	};
	struct kfd_abi_acquire_vm_args acq;
	struct kfd_abi_create_event_args ce;
	/* Static: `ages-end`'s exit handler still uses it after main returns. */
	static struct gen g = { .va = GEN_VA };
	struct timespec t0, t1;
	unsigned int minor = 128, nthreads = 0;
	int is_userptr = 0, is_reuse = 0, is_ages = 0, drm, r;
	double secs;
	char path[64];

	if (argc == 4 && !strcmp(argv[3], "userptr")) {
		is_userptr = 1;
	} else if (argc == 4 && !strcmp(argv[3], "reuse")) {
		is_reuse = 1;
	} else if (argc == 4 && !strcmp(argv[3], "ages")) {
		is_ages = 1;
	} else if (argc == 4 && !strcmp(argv[3], "ages-end")) {
		is_ages = 2;
	} else if (argc == 5 && !strcmp(argv[3], "threads")) {
		nthreads = (unsigned int)strtoul(argv[4], NULL, 0);
		if (nthreads < 1 || nthreads > GEN_MAX_THREADS) {
			fprintf(stderr, "rp_gen: threads: 1 to %d\n",
				GEN_MAX_THREADS);
			return 2;
		}
	} else if (argc != 3) {
		return usage();
	}
	g.target = strtoull(argv[2], NULL, 0);
	if (gpu_info(&g.gpu, &minor) < 0) {
		fprintf(stderr, "rp_gen: no GPU (run it on kfdsim)\n");
		return 1;
	}
	if (strcmp(argv[1], "-")) {
		r = kfd_recorder_open(argv[1], &o, &rec);
		if (r < 0 || kfd_recorder_attach(rec) < 0) {
			fprintf(stderr, "rp_gen: %s: %s\n", argv[1], strerror(-r));
			return 1;
		}
	}
	g.kfd = open_dev("/dev/kfd", KFD_FILE_KFD);
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	drm = open_dev(path, KFD_FILE_RENDER);
	acq.drm_fd = (uint32_t)drm;
	acq.gpu_id = g.gpu;
	call(&g, KFD_ABI_IOC_ACQUIRE_VM, &acq);
	if (!nthreads && !is_ages) {
		memset(&ce, 0, sizeof(ce));
		ce.event_type = KFD_ABI_EVENT_SIGNAL;
		call(&g, KFD_ABI_IOC_CREATE_EVENT, &ce);
		g.event = ce.event_id;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (is_userptr && userptrs(&g, g.target)) {
		fprintf(stderr, "rp_gen: userptr allocation failed: %s\n",
			strerror(errno));
		return 1;
	}
	if (nthreads && threads(&g, nthreads))
		return 1;
	if (is_reuse && reuse(&g, g.target))
		return 1;
	if (is_ages && ages(&g, is_ages == 2, drm)) {
		fprintf(stderr, "rp_gen: ages: %s\n", strerror(errno));
		return 1;
	}
	if (!is_userptr && !is_reuse && !nthreads && !is_ages)
		mix(&g);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rec) {
		r = kfd_recorder_close(rec);
		if (r < 0) {
			fprintf(stderr, "rp_gen: %s: %s\n", argv[1], strerror(-r));
			return 1;
		}
	}
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("rp_gen: %llu ioctls in %.3f s, %.0f ioctls/s%s",
	       (unsigned long long)g.issued, secs, secs > 0 ? (double)g.issued / secs : 0,
	       rec ? " (recorded)" : " (the simulator alone)");
	if (nthreads)
		printf(", %u threads", nthreads);
	printf("\n");
	/* ages-end: the atexit() handler still uses the device. */
	if (is_ages == 2)
		return 0;
	close(drm);
	close(g.kfd);
	return 0;
}
