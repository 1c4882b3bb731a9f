/* SPDX-License-Identifier: MIT */
/*
 * The program of the big report run: a process that forks once, each of
 * the two processes running two threads (its main thread and one more),
 * four threads in all, that together issue N KFD ioctls (default
 * 1,000,000) the way a busy runtime does:
 *
 *   - mostly cheap queries: GET_VERSION, GET_CLOCK_COUNTERS,
 *     AVAILABLE_MEMORY;
 *   - BO churn in VRAM and GTT (ALLOC, MAP, UNMAP, FREE; a few hundred
 *     alive at a time per thread, tens of thousands of GTT BOs in all);
 *   - on each main thread: a doorbell and an MMIO remap page, userptr BOs,
 *     an SDMA queue, signal events, and calls that fail on purpose.
 *
 * Each process prints one line when done:
 *   "pid P ioctls N failed F gtt G vram V"
 * counting its own calls, so the test compares the report with what was
 * really issued. libc and the ABI headers only: it plays the application.
 *
 * Usage: big-run-app [TOTAL-IOCTLS]
 * Exit status: 0, or 1 when a call that must succeed fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

/* Live BOs per thread and heap: slots reused round robin. */
#define SLOTS 256
#define SLOT_SIZE (64u << 10)
/* One churn cycle in this many calls of a thread is a GTT BO's four, one
 * in VRAM_EVERY a VRAM BO's. */
#define GTT_EVERY 15
#define VRAM_EVERY 50

static int kfd = -1, drm = -1;
static uint32_t gpu;
static unsigned int render_minor;
static int bad_result;

struct worker {
	int index;			/* 0 or 1 within the process */
	uint64_t budget;		/* ioctls this thread issues */
	uint64_t ioctls, failed, gtt, vram;
	uint64_t base;			/* this thread's VA range */
	uint64_t gtt_h[SLOTS], vram_h[SLOTS];
};

static int
call(struct worker *w, unsigned long req, void *arg, int expect)
{
	int r = ioctl(kfd, req, arg), e = r < 0 ? -errno : 0;

	w->ioctls++;
	if (r < 0)
		w->failed++;
	if (e != expect) {
		fprintf(stderr, "big-run-app: ioctl 0x%lx: %d, expected %d\n",
			req, e, expect);
		bad_result = 1;
	}
	return r;
}

static int
first_gpu(void)
{
	char path[256], line[128];
	unsigned long long v;
	FILE *f;
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) != 1 || !v) {
			fclose(f);
			continue;
		}
		fclose(f);
		gpu = (uint32_t)v;
		snprintf(path, sizeof(path), TOPO "/%d/properties", i);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			sscanf(line, "drm_render_minor %u", &render_minor);
		if (f)
			fclose(f);
		return 0;
	}
	return -1;
}

static uint64_t
alloc_bo(struct worker *w, uint64_t va, uint64_t size, uint32_t flags,
	 uint64_t cpu)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = va, .size = size, .gpu_id = gpu,
		.flags = flags | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		.mmap_offset = cpu,
	};

	if (call(w, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a, 0) < 0)
		return 0;
	return a.handle;
}

static void
map_bo(struct worker *w, uint64_t handle, int map)
{
	uint32_t ids[1] = { gpu };
	struct kfd_abi_map_memory_to_gpu_args m = {
		.handle = handle, .device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
		.n_devices = 1,
	};

	call(w, map ? KFD_ABI_IOC_MAP_MEMORY_TO_GPU :
	     KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &m, 0);
}

static void
free_bo(struct worker *w, uint64_t handle)
{
	struct kfd_abi_free_memory_of_gpu_args f = { .handle = handle };

	call(w, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f, 0);
}

/* Replace the BO in slot @slot of a heap: free the old one, make a new. */
static void
churn(struct worker *w, uint64_t *h, unsigned int slot, uint64_t va,
      uint32_t flags)
{
	if (h[slot]) {
		map_bo(w, h[slot], 0);
		free_bo(w, h[slot]);
	}
	h[slot] = alloc_bo(w, va, SLOT_SIZE, flags, 0);
	if (h[slot])
		map_bo(w, h[slot], 1);
}

/* One cheap query, rotating through three kinds. */
static void
query(struct worker *w, uint64_t i)
{
	struct kfd_abi_get_version_args v;
	struct kfd_abi_get_clock_counters_args c = { .gpu_id = gpu };
	struct kfd_abi_get_available_memory_args a = { .gpu_id = gpu };

	switch (i % 3) {
	case 0:
		call(w, KFD_ABI_IOC_GET_VERSION, &v, 0);
		break;
	case 1:
		call(w, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c, 0);
		break;
	default:
		call(w, KFD_ABI_IOC_AVAILABLE_MEMORY, &a, 0);
		break;
	}
}

/* The process's own objects, on its main thread: the rarer lanes. */
static void
singletons(struct worker *w)
{
	uint64_t va = w->base + 2ull * SLOTS * SLOT_SIZE, ring, rptr, wptr;
	uint64_t db, mmio, up[8];
	struct kfd_abi_create_queue_args q;
	struct kfd_abi_destroy_queue_args dq = { .queue_id = 999 };
	struct kfd_abi_create_event_args ev = { .event_type = KFD_ABI_EVENT_SIGNAL };
	struct kfd_abi_set_event_args set;
	struct kfd_abi_destroy_event_args de;
	struct kfd_abi_free_memory_of_gpu_args bad = { .handle = 0x12345 };
	struct kfd_abi_alloc_memory_of_gpu_args huge = {
		.va_addr = va + (64u << 20), .size = 1ull << 40, .gpu_id = gpu,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
	};
	void *user;
	unsigned int i;

	db = alloc_bo(w, va, 8192, KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL, 0);
	mmio = alloc_bo(w, va + 0x10000, 4096,
			KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP, 0);
	user = mmap(NULL, 8 * SLOT_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < 8; i++) {
		up[i] = user == MAP_FAILED ? 0 :
			alloc_bo(w, va + 0x100000 + i * SLOT_SIZE, SLOT_SIZE,
				 KFD_ABI_ALLOC_MEM_FLAGS_USERPTR,
				 (uint64_t)(uintptr_t)user + i * SLOT_SIZE);
		if (up[i])
			map_bo(w, up[i], 1);
	}

	/* An SDMA queue on GTT ring and pointers, created and destroyed. */
	ring = va + 0x200000;
	rptr = ring + SLOT_SIZE;
	wptr = rptr + SLOT_SIZE;
	{
		uint64_t hr = alloc_bo(w, ring, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, 0);
		uint64_t hp = alloc_bo(w, rptr, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, 0);
		uint64_t hw = alloc_bo(w, wptr, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, 0);

		map_bo(w, hr, 1);
		map_bo(w, hp, 1);
		map_bo(w, hw, 1);
		memset(&q, 0, sizeof(q));
		q.ring_base_address = ring;
		q.read_pointer_address = rptr;
		q.write_pointer_address = wptr;
		q.ring_size = 4096;
		q.gpu_id = gpu;
		q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
		q.queue_percentage = 100;
		q.queue_priority = 7;
		if (call(w, KFD_ABI_IOC_CREATE_QUEUE, &q, 0) == 0) {
			/* Some work in between, so the queue has a length. */
			for (i = 0; i < 300; i++)
				query(w, i);
			dq.queue_id = q.queue_id;
			call(w, KFD_ABI_IOC_DESTROY_QUEUE, &dq, 0);
		}
		map_bo(w, hr, 0);
		map_bo(w, hp, 0);
		map_bo(w, hw, 0);
		free_bo(w, hr);
		free_bo(w, hp);
		free_bo(w, hw);
	}

	/* Signal events on an events page (a GTT BO, kept to the end). */
	ev.event_page_offset = alloc_bo(w, va + 0x400000, 32768,
					KFD_ABI_ALLOC_MEM_FLAGS_GTT, 0);
	for (i = 0; i < 4; i++) {
		ev.event_type = KFD_ABI_EVENT_SIGNAL;
		if (call(w, KFD_ABI_IOC_CREATE_EVENT, &ev, 0) < 0)
			continue;
		set.event_id = ev.event_id;
		call(w, KFD_ABI_IOC_SET_EVENT, &set, 0);
		de.event_id = ev.event_id;
		call(w, KFD_ABI_IOC_DESTROY_EVENT, &de, 0);
		ev.event_page_offset = 0;
	}

	/* Calls that fail: a bad handle, a bad queue, too much VRAM. */
	call(w, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &bad, -EINVAL);
	dq.queue_id = 999;
	call(w, KFD_ABI_IOC_DESTROY_QUEUE, &dq, -EINVAL);
	call(w, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &huge, -ENOMEM);

	for (i = 0; i < 8; i++)
		if (up[i]) {
			map_bo(w, up[i], 0);
			free_bo(w, up[i]);
		}
	if (mmio)
		free_bo(w, mmio);
	/* The doorbell page stays until exit, as a runtime's does. */
	(void)db;
}

static void *
work(void *p)
{
	struct worker *w = p;
	uint64_t gtt_va = w->base, vram_va = w->base + SLOTS * SLOT_SIZE;
	unsigned int gs = 0, vs = 0, i;
	uint64_t n = 0;

	if (w->index == 0)
		singletons(w);
	while (w->ioctls < w->budget) {
		n++;
		if (n % GTT_EVERY == 0 && w->budget - w->ioctls >= 8) {
			churn(w, w->gtt_h, gs, gtt_va + gs * SLOT_SIZE,
			      KFD_ABI_ALLOC_MEM_FLAGS_GTT);
			gs = (gs + 1) % SLOTS;
			w->gtt++;
		} else if (n % VRAM_EVERY == 0 && w->budget - w->ioctls >= 8) {
			churn(w, w->vram_h, vs, vram_va + vs * SLOT_SIZE,
			      KFD_ABI_ALLOC_MEM_FLAGS_VRAM);
			vs = (vs + 1) % SLOTS;
			w->vram++;
		} else {
			query(w, n);
		}
	}
	/* Release what is left; the budget is a target, not a cap. */
	for (i = 0; i < SLOTS; i++) {
		if (w->gtt_h[i]) {
			map_bo(w, w->gtt_h[i], 0);
			free_bo(w, w->gtt_h[i]);
		}
		if (w->vram_h[i]) {
			map_bo(w, w->vram_h[i], 0);
			free_bo(w, w->vram_h[i]);
		}
	}
	return NULL;
}

static int
open_device(void)
{
	struct kfd_abi_acquire_vm_args acq;
	struct worker tmp = { 0 };
	char path[64];

	if (first_gpu() < 0) {
		fprintf(stderr, "big-run-app: no GPU in the topology\n");
		return -1;
	}
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", render_minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	if (kfd < 0 || drm < 0) {
		perror("big-run-app: open");
		return -1;
	}
	acq.drm_fd = (uint32_t)drm;
	acq.gpu_id = gpu;
	call(&tmp, KFD_ABI_IOC_ACQUIRE_VM, &acq, 0);
	return bad_result ? -1 : 1;
}

/* One process's share: two threads, @total ioctls between them. */
static int
process(uint64_t total)
{
	static struct worker w[2];
	const uint64_t range = 4ull * SLOTS * SLOT_SIZE;
	pthread_t t;
	char *base;
	int k;

	if (open_device() < 0)
		return 1;
	base = mmap(NULL, 2 * range, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED) {
		perror("big-run-app: mmap");
		return 1;
	}
	for (k = 0; k < 2; k++) {
		w[k].index = k;
		/* ACQUIRE_VM counts towards the main thread's share. */
		w[k].budget = total / 2 - (k == 0);
		w[k].base = (uint64_t)(uintptr_t)base + (uint64_t)k * range;
	}
	if (pthread_create(&t, NULL, work, &w[1])) {
		fprintf(stderr, "big-run-app: pthread_create failed\n");
		return 1;
	}
	work(&w[0]);
	pthread_join(t, NULL);
	printf("pid %d ioctls %llu failed %llu gtt %llu vram %llu\n",
	       (int)getpid(),
	       (unsigned long long)(w[0].ioctls + w[1].ioctls + 1),
	       (unsigned long long)(w[0].failed + w[1].failed),
	       (unsigned long long)(w[0].gtt + w[1].gtt),
	       (unsigned long long)(w[0].vram + w[1].vram));
	fflush(stdout);
	close(kfd);
	close(drm);
	return bad_result;
}

int
main(int argc, char **argv)
{
	uint64_t total = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	int status, rc;
	pid_t pid;

	if (argc > 2 || total < 4000) {
		fprintf(stderr, "usage: big-run-app [TOTAL-IOCTLS >= 4000]\n");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("big-run-app: fork");
		return 1;
	}
	rc = process(total / 2);
	if (pid == 0)
		_exit(rc);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		rc = 1;
	return rc;
}
