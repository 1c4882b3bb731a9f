/* SPDX-License-Identifier: MIT */
/*
 * The application the replay tests capture: raw KFD and amdgpu ioctls the
 * way a thunk issues them, so that its traces hold every object kind the
 * replayer maps.
 *
 *   rp_workload full	the device opens, version and apertures, ACQUIRE_VM,
 *			VRAM/GTT/userptr/doorbell/MMIO memory with CPU
 *			mappings at chosen addresses, the events page and
 *			signal events (one wait released from another
 *			thread), an SDMA queue with its doorbell mapping,
 *			SVM ranges, dma-buf export/import, render-node GEM
 *			objects and PRIME, SMI events, a secondary KFD
 *			process, heap memory registered as userptr, and
 *			some calls that fail
 *   rp_workload enomem	one VRAM allocation that fits and one of 1 GiB
 *			(run it on a profile with little VRAM)
 *   rp_workload badqueue	a queue whose ring is not GPU-mapped (EINVAL),
 *			one of an unknown type, then a good one
 *   rp_workload external	a render-node buffer with metadata exported as a
 *			dma-buf, which KFD inspects and imports
 *   rp_workload ipc	a VRAM BO exported as a ROCm IPC handle and imported
 *			back (run it on the rocm kernel flavour)
 *
 * It uses libc and the ABI headers only: it is the application, not part of
 * kfdtrace. Unexpected results go to stderr; the exit status is 0 unless
 * the device cannot be opened.
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
#include <time.h>
#include <unistd.h>

#include <kfdtrace/drm_abi.h>
#include <kfdtrace/kfd_abi.h>

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

static int kfd = -1, drm = -1;
static uint32_t gpu;
static unsigned int render_minor;
static char *base;		/* our own VA range, like a thunk's */
static size_t base_off;
#define BASE_SIZE (256u << 20)

static int
xioctl(int fd, unsigned long req, void *arg, const char *what, int expect)
{
	int r = ioctl(fd, req, arg);

	if ((r < 0 ? -errno : 0) != expect)
		fprintf(stderr, "rp_workload: %s: %d (%s), expected %d\n", what, r,
			r < 0 ? strerror(errno) : "ok", expect);
	return r;
}

/* A page-aligned address inside our range, as a thunk's VA allocator. */
static uint64_t
va_take(size_t size)
{
	uint64_t va;

	size = (size + 0xffff) & ~(size_t)0xffff;
	if (base_off + size > BASE_SIZE)
		return 0;
	va = (uint64_t)(uintptr_t)base + base_off;
	base_off += size;
	return va;
}

static int
first_gpu(void)
{
	char path[256];
	int i;

	for (i = 0; i < 64; i++) {
		unsigned long long v;
		FILE *f;

		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) == 1 && v) {
			char line[128];

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
		fclose(f);
	}
	return -1;
}

static uint64_t
alloc_mem(uint64_t va, uint64_t size, uint32_t flags, uint64_t cpu,
	  uint64_t *offset, int expect)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = va, .size = size, .gpu_id = gpu, .flags = flags,
		.mmap_offset = cpu,
	};

	if (xioctl(kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a, "ALLOC", expect) < 0)
		return 0;
	if (offset)
		*offset = a.mmap_offset;
	return a.handle;
}

static void
map_mem(uint64_t handle, int map)
{
	uint32_t ids[1] = { gpu };
	struct kfd_abi_map_memory_to_gpu_args m = {
		.handle = handle, .device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
		.n_devices = 1,
	};

	xioctl(kfd, map ? KFD_ABI_IOC_MAP_MEMORY_TO_GPU :
	       KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &m, map ? "MAP" : "UNMAP", 0);
}

static void
free_mem(uint64_t handle)
{
	struct kfd_abi_free_memory_of_gpu_args f = { .handle = handle };

	xioctl(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f, "FREE", 0);
}

/* A GTT buffer mapped on the GPU and, through the render node, on the CPU. */
static uint64_t
gtt_buffer(uint64_t size, uint64_t *va_out)
{
	uint64_t va = va_take(size), off = 0, h;

	h = alloc_mem(va, size, KFD_ABI_ALLOC_MEM_FLAGS_GTT |
		      KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0, &off, 0);
	if (!h)
		return 0;
	map_mem(h, 1);
	if (mmap((void *)(uintptr_t)va, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, drm, (off_t)off) == MAP_FAILED)
		fprintf(stderr, "rp_workload: mmap gtt: %s\n", strerror(errno));
	*va_out = va;
	return h;
}

static int
open_device(void)
{
	struct kfd_abi_acquire_vm_args acq;
	char path[64];

	if (first_gpu() < 0)
		return -1;
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", render_minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	if (kfd < 0 || drm < 0)
		return -1;
	base = mmap(NULL, BASE_SIZE, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return -1;
	acq.drm_fd = (uint32_t)drm;
	acq.gpu_id = gpu;
	xioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &acq, "ACQUIRE_VM", 0);
	return 0;
}

static void
info_calls(void)
{
	struct kfd_abi_get_version_args v;
	struct kfd_abi_process_device_apertures ap[8];
	struct kfd_abi_get_process_apertures_new_args apn = { 0 };
	struct kfd_abi_get_process_apertures_args apo;
	struct kfd_abi_get_clock_counters_args clk = { .gpu_id = gpu };
	struct kfd_abi_get_available_memory_args am = { .gpu_id = gpu };
	struct kfd_abi_set_xnack_mode_args xn = { .xnack_enabled = -1 };
	struct kfd_abi_set_memory_policy_args pol = {
		.gpu_id = gpu, .default_policy = KFD_ABI_CACHE_POLICY_COHERENT,
		.alternate_policy = KFD_ABI_CACHE_POLICY_NONCOHERENT,
	};
	uint32_t tiles[32], macro[16];
	struct kfd_abi_get_tile_config_args tc = {
		.tile_config_ptr = (uint64_t)(uintptr_t)tiles,
		.macro_tile_config_ptr = (uint64_t)(uintptr_t)macro,
		.num_tile_configs = 32, .num_macro_tile_configs = 16, .gpu_id = gpu,
	};
	struct kfd_drm_version dv = { 0 };
	char name[32], date[32], desc[64];
	uint8_t devinfo[368];
	uint32_t accel = 0;
	struct kfd_drm_amdgpu_info info = {
		.return_pointer = (uint64_t)(uintptr_t)devinfo,
		.return_size = sizeof(devinfo), .query = KFD_DRM_AMDGPU_INFO_DEV_INFO,
	};
	struct kfd_drm_get_cap cap = { .capability = KFD_DRM_CAP_PRIME };

	xioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v, "GET_VERSION", 0);
	xioctl(kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &apn, "APERTURES size", 0);
	apn.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)ap;
	apn.num_of_nodes = 8;
	xioctl(kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &apn, "APERTURES", 0);
	xioctl(kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES, &apo, "APERTURES old", 0);
	xioctl(kfd, KFD_ABI_IOC_SET_XNACK_MODE, &xn, "XNACK", 0);
	xioctl(kfd, KFD_ABI_IOC_SET_MEMORY_POLICY, &pol, "POLICY", 0);
	xioctl(kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk, "CLOCKS", 0);
	xioctl(kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &am, "AVAILABLE", 0);
	xioctl(kfd, KFD_ABI_IOC_GET_TILE_CONFIG, &tc, "TILES", 0);

	xioctl(drm, KFD_DRM_IOCTL_VERSION, &dv, "DRM_VERSION len", 0);
	dv.name = (uint64_t)(uintptr_t)name;
	dv.name_len = sizeof(name);
	dv.date = (uint64_t)(uintptr_t)date;
	dv.date_len = sizeof(date);
	dv.desc = (uint64_t)(uintptr_t)desc;
	dv.desc_len = sizeof(desc);
	xioctl(drm, KFD_DRM_IOCTL_VERSION, &dv, "DRM_VERSION", 0);
	xioctl(drm, KFD_DRM_IOCTL_GET_CAP, &cap, "GET_CAP", 0);
	xioctl(drm, KFD_DRM_IOCTL_AMDGPU_INFO, &info, "DEV_INFO", 0);
	info.return_pointer = (uint64_t)(uintptr_t)&accel;
	info.return_size = 4;
	info.query = KFD_DRM_AMDGPU_INFO_ACCEL_WORKING;
	xioctl(drm, KFD_DRM_IOCTL_AMDGPU_INFO, &info, "ACCEL_WORKING", 0);
}

/* ------------------------------------------------------------------ */

struct waiter {
	uint32_t event_id;
	uint32_t result;
};

static void *
wait_thread(void *p)
{
	struct waiter *w = p;
	struct kfd_abi_event_data ev = { .event_id = w->event_id };
	struct kfd_abi_wait_events_args we = {
		.events_ptr = (uint64_t)(uintptr_t)&ev, .num_events = 1,
		.timeout = 5000,
	};

	xioctl(kfd, KFD_ABI_IOC_WAIT_EVENTS, &we, "WAIT (thread)", 0);
	w->result = we.wait_result;
	return NULL;
}

static void
events(uint64_t page_handle)
{
	struct kfd_abi_create_event_args e1 = {
		.event_page_offset = page_handle, .event_type = KFD_ABI_EVENT_SIGNAL,
		.auto_reset = 1,
	};
	struct kfd_abi_create_event_args e2 = {
		.event_type = KFD_ABI_EVENT_SIGNAL,
	};
	struct kfd_abi_create_event_args e3 = {
		.event_type = KFD_ABI_EVENT_MEMORY,
	};
	struct kfd_abi_set_event_args set;
	struct kfd_abi_reset_event_args reset;
	struct kfd_abi_destroy_event_args des;
	struct kfd_abi_event_data ev[2];
	struct kfd_abi_wait_events_args we;
	struct waiter w;
	pthread_t t;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	xioctl(kfd, KFD_ABI_IOC_CREATE_EVENT, &e1, "CREATE_EVENT page", 0);
	xioctl(kfd, KFD_ABI_IOC_CREATE_EVENT, &e2, "CREATE_EVENT", 0);
	xioctl(kfd, KFD_ABI_IOC_CREATE_EVENT, &e3, "CREATE_EVENT memory", 0);
	set.event_id = e1.event_id;
	xioctl(kfd, KFD_ABI_IOC_SET_EVENT, &set, "SET_EVENT", 0);
	memset(ev, 0, sizeof(ev));
	ev[0].event_id = e1.event_id;
	ev[1].event_id = e2.event_id;
	we = (struct kfd_abi_wait_events_args){
		.events_ptr = (uint64_t)(uintptr_t)ev, .num_events = 2,
		.wait_for_all = 0, .timeout = 0,
	};
	xioctl(kfd, KFD_ABI_IOC_WAIT_EVENTS, &we, "WAIT any", 0);
	we.wait_for_all = 1;
	xioctl(kfd, KFD_ABI_IOC_WAIT_EVENTS, &we, "WAIT all (timeout)", 0);
	reset.event_id = e2.event_id;
	xioctl(kfd, KFD_ABI_IOC_RESET_EVENT, &reset, "RESET_EVENT", 0);

	/* A wait on another thread, released by a SET_EVENT from here. */
	w.event_id = e2.event_id;
	w.result = 99;
	pthread_create(&t, NULL, wait_thread, &w);
	nanosleep(&ts, NULL);
	set.event_id = e2.event_id;
	xioctl(kfd, KFD_ABI_IOC_SET_EVENT, &set, "SET_EVENT (release)", 0);
	pthread_join(t, NULL);

	des.event_id = e3.event_id;
	xioctl(kfd, KFD_ABI_IOC_DESTROY_EVENT, &des, "DESTROY_EVENT", 0);
	des.event_id = e2.event_id;
	xioctl(kfd, KFD_ABI_IOC_DESTROY_EVENT, &des, "DESTROY_EVENT", 0);
	/* Keep e1: the events page lives as long as the process. */
	des.event_id = 0x7777;
	xioctl(kfd, KFD_ABI_IOC_DESTROY_EVENT, &des, "DESTROY_EVENT bad", -EINVAL);
}

/* An SDMA queue: ring, rptr and wptr GPU-mapped with exact sizes. */
static void
queue(int good, int bad)
{
	uint64_t ring_va, rptr_va, wptr_va, hr, hp, hw;
	struct kfd_abi_create_queue_args q;
	struct kfd_abi_destroy_queue_args d;
	struct kfd_abi_update_queue_args u;
	uint32_t cu_mask[4] = { ~0u, ~0u, ~0u, ~0u };
	struct kfd_abi_set_cu_mask_args cm;
	uint8_t ctl[64];
	struct kfd_abi_get_queue_wave_state_args ws;
	struct kfd_abi_alloc_queue_gws_args gws;
	void *db;

	hr = gtt_buffer(4096, &ring_va);
	hp = gtt_buffer(4096, &rptr_va);
	hw = gtt_buffer(4096, &wptr_va);
	memset(&q, 0, sizeof(q));
	q.ring_base_address = ring_va;
	q.read_pointer_address = rptr_va;
	q.write_pointer_address = wptr_va;
	q.ring_size = 4096;
	q.gpu_id = gpu;
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
	q.queue_percentage = 100;
	q.queue_priority = 7;
	if (bad) {
		struct kfd_abi_create_queue_args b = q;

		/* The ring is not mapped on the GPU at this address. */
		b.ring_base_address = ring_va + 0x100000;
		xioctl(kfd, KFD_ABI_IOC_CREATE_QUEUE, &b, "CREATE_QUEUE unmapped ring",
		       -EINVAL);
		b = q;
		b.queue_type = 7;
		xioctl(kfd, KFD_ABI_IOC_CREATE_QUEUE, &b, "CREATE_QUEUE bad type",
		       -524);
	}
	if (good && xioctl(kfd, KFD_ABI_IOC_CREATE_QUEUE, &q, "CREATE_QUEUE", 0) == 0) {
		uint64_t dboff = q.doorbell_offset & ~(uint64_t)(8192 - 1);

		db = mmap((void *)(uintptr_t)va_take(8192), 8192,
			  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, kfd,
			  (off_t)dboff);
		if (db == MAP_FAILED)
			fprintf(stderr, "rp_workload: doorbell mmap: %s\n",
				strerror(errno));
		u = (struct kfd_abi_update_queue_args){
			.ring_base_address = ring_va, .queue_id = q.queue_id,
			.ring_size = 4096, .queue_percentage = 50,
			.queue_priority = 3,
		};
		xioctl(kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u, "UPDATE_QUEUE", 0);
		cm = (struct kfd_abi_set_cu_mask_args){
			.queue_id = q.queue_id, .num_cu_mask = 128,
			.cu_mask_ptr = (uint64_t)(uintptr_t)cu_mask,
		};
		ioctl(kfd, KFD_ABI_IOC_SET_CU_MASK, &cm);
		ws = (struct kfd_abi_get_queue_wave_state_args){
			.ctl_stack_address = (uint64_t)(uintptr_t)ctl,
			.queue_id = q.queue_id,
		};
		ioctl(kfd, KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &ws);
		gws = (struct kfd_abi_alloc_queue_gws_args){
			.queue_id = q.queue_id, .num_gws = 1,
		};
		ioctl(kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &gws);
		d.queue_id = q.queue_id;
		xioctl(kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d, "DESTROY_QUEUE", 0);
		if (db != MAP_FAILED)
			munmap(db, 8192);
	}
	d.queue_id = 999;
	xioctl(kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d, "DESTROY_QUEUE bad", -EINVAL);
	munmap((void *)(uintptr_t)ring_va, 4096);
	munmap((void *)(uintptr_t)rptr_va, 4096);
	munmap((void *)(uintptr_t)wptr_va, 4096);
	map_mem(hr, 0);
	map_mem(hp, 0);
	map_mem(hw, 0);
	free_mem(hr);
	free_mem(hp);
	free_mem(hw);
}

/* struct kfd_abi_svm_args with up to three attributes inline. */
struct svm_call {
	struct {
		uint64_t start_addr;
		uint64_t size;
		uint32_t op;
		uint32_t nattr;
	} a;
	struct kfd_abi_svm_attribute at[3];
};

/* 2 MiB of fresh anonymous memory in @s as a SET_ATTR of @nattr; 0 or -1. */
static int
svm_new_range(struct svm_call *s, uint32_t nattr)
{
	void *mem = mmap(NULL, 2u << 20, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return -1;
	memset(s, 0, sizeof(*s));
	s->a.start_addr = (uint64_t)(uintptr_t)mem;
	s->a.size = 2u << 20;
	s->a.op = KFD_ABI_SVM_OP_SET_ATTR;
	s->a.nattr = nattr;
	return 0;
}

static void
svm(void)
{
	struct svm_call s;

	if (svm_new_range(&s, 3) < 0)
		return;
	s.at[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	s.at[0].value = gpu;
	s.at[1].type = KFD_ABI_SVM_ATTR_ACCESS;
	s.at[1].value = gpu;
	s.at[2].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	s.at[2].value = KFD_ABI_SVM_FLAG_COHERENT;
	xioctl(kfd, KFD_ABI_IOC_SVM_NATTR(3), &s, "SVM set", 0);
	memset(s.at, 0, sizeof(s.at));
	s.a.op = KFD_ABI_SVM_OP_GET_ATTR;
	s.at[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	s.at[1].type = KFD_ABI_SVM_ATTR_ACCESS;
	s.at[1].value = gpu;
	s.at[2].type = KFD_ABI_SVM_ATTR_GRANULARITY;
	xioctl(kfd, KFD_ABI_IOC_SVM_NATTR(3), &s, "SVM get", 0);
	/* Left registered, as a program that exits without cleaning up. */
}

/*
 * An SVM range whose pages the CPU unmaps: the kernel drops the range, and
 * a BO may then take its addresses. Replay must drop it too (the munmap is
 * recorded), or the ALLOC meets the range and fails with EADDRINUSE.
 */
static void
svm_unmapped(void)
{
	struct svm_call s;
	uint64_t h;

	if (svm_new_range(&s, 1) < 0)
		return;
	s.at[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	s.at[0].value = gpu;
	xioctl(kfd, KFD_ABI_IOC_SVM_NATTR(1), &s, "SVM set (to unmap)", 0);
	munmap((void *)(uintptr_t)s.a.start_addr, 2u << 20);
	h = alloc_mem(s.a.start_addr + (1u << 20), 64 << 10,
		      KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		      0, NULL, 0);
	if (h)
		free_mem(h);
}

static void
dmabufs(uint64_t vram_handle)
{
	struct kfd_abi_export_dmabuf_args ex = {
		.handle = vram_handle, .flags = O_CLOEXEC,
	};
	struct kfd_abi_get_dmabuf_info_args di;
	struct kfd_abi_import_dmabuf_args im;
	uint8_t meta[64];
	union kfd_drm_amdgpu_gem_create gc;
	union kfd_drm_amdgpu_gem_mmap gm;
	struct kfd_drm_prime_handle ph;
	struct kfd_drm_gem_close gclose;
	void *p;

	if (xioctl(kfd, KFD_ABI_IOC_EXPORT_DMABUF, &ex, "EXPORT_DMABUF", 0) == 0) {
		di = (struct kfd_abi_get_dmabuf_info_args){
			.metadata_ptr = (uint64_t)(uintptr_t)meta,
			.metadata_size = sizeof(meta), .dmabuf_fd = ex.dmabuf_fd,
		};
		xioctl(kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &di, "GET_DMABUF_INFO", 0);
		im = (struct kfd_abi_import_dmabuf_args){
			.va_addr = va_take(2u << 20), .gpu_id = gpu,
			.dmabuf_fd = ex.dmabuf_fd,
		};
		if (xioctl(kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im, "IMPORT_DMABUF", 0) == 0) {
			map_mem(im.handle, 1);
			map_mem(im.handle, 0);
			free_mem(im.handle);
		}
		close((int)ex.dmabuf_fd);
	}

	/* A graphics buffer of the render node, shared with KFD. */
	memset(&gc, 0, sizeof(gc));
	gc.in.bo_size = 65536;
	gc.in.alignment = 4096;
	gc.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	if (xioctl(drm, KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &gc, "GEM_CREATE", 0) < 0)
		return;
	memset(&gm, 0, sizeof(gm));
	gm.in.handle = gc.out.handle;
	if (xioctl(drm, KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, &gm, "GEM_MMAP", 0) == 0) {
		p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, drm,
			 (off_t)gm.out.addr_ptr);
		if (p != MAP_FAILED) {
			memset(p, 0x5a, 4096);
			munmap(p, 65536);
		}
	}
	ph = (struct kfd_drm_prime_handle){
		.handle = gc.out.handle, .flags = O_CLOEXEC | O_RDWR,
	};
	if (xioctl(drm, KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, "PRIME_H2F", 0) == 0) {
		struct kfd_drm_prime_handle back = { .fd = ph.fd };

		im = (struct kfd_abi_import_dmabuf_args){
			.va_addr = va_take(65536), .gpu_id = gpu,
			.dmabuf_fd = (uint32_t)ph.fd,
		};
		if (xioctl(kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im, "IMPORT gem", 0) == 0)
			free_mem(im.handle);
		xioctl(drm, KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, &back, "PRIME_F2H", 0);
		close(ph.fd);
	}
	gclose.handle = gc.out.handle;
	gclose.pad = 0;
	xioctl(drm, KFD_DRM_IOCTL_GEM_CLOSE, &gclose, "GEM_CLOSE", 0);
}

/*
 * A graphics buffer shared with KFD the way ROCr's interop does it: the
 * render node makes it (with metadata) and exports it; KFD asks what it is
 * and imports it. The replay tests drop the render-node part from the
 * trace, so that the dma-buf seems to come from another process.
 */
static void
external(void)
{
	union kfd_drm_amdgpu_gem_create gc;
	struct kfd_drm_amdgpu_gem_metadata md;
	struct kfd_drm_prime_handle ph;
	struct kfd_drm_gem_close gclose;
	struct kfd_abi_get_dmabuf_info_args di;
	struct kfd_abi_import_dmabuf_args im;
	uint8_t meta[256];

	memset(&gc, 0, sizeof(gc));
	gc.in.bo_size = 1u << 20;
	gc.in.alignment = 4096;
	gc.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM;
	if (xioctl(drm, KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &gc, "GEM_CREATE", 0) < 0)
		return;
	memset(&md, 0, sizeof(md));
	md.handle = gc.out.handle;
	md.op = KFD_DRM_AMDGPU_GEM_METADATA_OP_SET_METADATA;
	md.data.tiling_info = 0x1234;
	md.data.data_size_bytes = 16;
	md.data.data[0] = 0xcafe;
	md.data.data[3] = 0xf00d;
	xioctl(drm, KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md, "GEM_METADATA", 0);
	ph = (struct kfd_drm_prime_handle){
		.handle = gc.out.handle, .flags = O_CLOEXEC | O_RDWR,
	};
	if (xioctl(drm, KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, "PRIME_H2F", 0) == 0) {
		di = (struct kfd_abi_get_dmabuf_info_args){
			.metadata_ptr = (uint64_t)(uintptr_t)meta,
			.metadata_size = sizeof(meta), .dmabuf_fd = (uint32_t)ph.fd,
		};
		xioctl(kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &di, "GET_DMABUF_INFO", 0);
		im = (struct kfd_abi_import_dmabuf_args){
			.va_addr = va_take(1u << 20), .gpu_id = gpu,
			.dmabuf_fd = (uint32_t)ph.fd,
		};
		if (xioctl(kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im, "IMPORT", 0) == 0) {
			map_mem(im.handle, 1);
			map_mem(im.handle, 0);
			free_mem(im.handle);
		}
		close(ph.fd);
	}
	gclose.handle = gc.out.handle;
	gclose.pad = 0;
	xioctl(drm, KFD_DRM_IOCTL_GEM_CLOSE, &gclose, "GEM_CLOSE", 0);
}

static void
secondary_process(void)
{
	struct kfd_abi_get_version_args v;
	int fd2 = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	if (fd2 < 0)
		return;
	if (ioctl(fd2, KFD_ABI_IOC_CREATE_PROCESS, NULL) == 0)
		xioctl(fd2, KFD_ABI_IOC_GET_VERSION, &v, "GET_VERSION 2nd", 0);
	close(fd2);
}

static void
full(void)
{
	uint64_t vram_va = va_take(2u << 20), vram_off = 0, vram, events_va, ev;
	uint64_t mmio_va = va_take(4096), mmio_off = 0, mmio, up_h, db_h;
	struct kfd_abi_smi_events_args smi = { .gpuid = gpu };
	struct kfd_abi_set_scratch_backing_va_args sc = { .gpu_id = gpu };
	struct kfd_abi_set_trap_handler_args th = { .gpu_id = gpu };
	struct kfd_abi_free_memory_of_gpu_args bad = { .handle = 0x12345 };
	struct kfd_abi_runtime_enable_args rt = { .mode_mask = 1 };
	static uint64_t r_debug_stub[4];
	uint64_t up_va, heap_h = 0;
	void *heap;
	void *p;

	info_calls();
	rt.r_debug = (uint64_t)(uintptr_t)r_debug_stub;
	ioctl(kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &rt);

	vram = alloc_mem(vram_va, 2u << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC, 0, &vram_off, 0);
	map_mem(vram, 1);
	p = mmap((void *)(uintptr_t)vram_va, 2u << 20, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, drm, (off_t)vram_off);
	if (p != MAP_FAILED)
		memset(p, 0xa5, 4096);

	ev = gtt_buffer(32768, &events_va);
	events(ev);

	/* User memory registered with KFD, at an address of ours. */
	up_va = va_take(65536);
	mmap((void *)(uintptr_t)up_va, 65536, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	up_h = alloc_mem(up_va, 65536, KFD_ABI_ALLOC_MEM_FLAGS_USERPTR |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, up_va, NULL, 0);
	map_mem(up_h, 1);

	/* Heap memory registered too: the GPU sees it at a VA of ours. */
	heap = aligned_alloc(65536, 65536);
	if (heap) {
		heap_h = alloc_mem(va_take(65536), 65536,
				   KFD_ABI_ALLOC_MEM_FLAGS_USERPTR |
				   KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
				   (uint64_t)(uintptr_t)heap, NULL, 0);
		map_mem(heap_h, 1);
	}

	db_h = alloc_mem(va_take(8192), 8192, KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0, NULL, 0);
	mmio = alloc_mem(mmio_va, 4096, KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0, &mmio_off, 0);
	if (mmio && mmap((void *)(uintptr_t)mmio_va, 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, kfd, (off_t)mmio_off) == MAP_FAILED)
		fprintf(stderr, "rp_workload: mmio mmap: %s\n", strerror(errno));

	sc.va_addr = va_take(1u << 20);
	xioctl(kfd, KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, &sc, "SCRATCH", 0);
	th.tba_addr = up_va;
	th.tma_addr = up_va + 4096;
	xioctl(kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th, "TRAP_HANDLER", 0);

	queue(1, 1);
	svm();
	svm_unmapped();
	dmabufs(vram);
	xioctl(kfd, KFD_ABI_IOC_SMI_EVENTS, &smi, "SMI_EVENTS", 0);
	secondary_process();
	xioctl(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &bad, "FREE bad", -EINVAL);

	/* Tear down most of it; leave the events page and SVM, as thunks do. */
	munmap((void *)(uintptr_t)mmio_va, 4096);
	free_mem(mmio);
	free_mem(db_h);
	map_mem(up_h, 0);
	free_mem(up_h);
	if (heap_h) {
		map_mem(heap_h, 0);
		free_mem(heap_h);
	}
	free(heap);
	munmap((void *)(uintptr_t)vram_va, 2u << 20);
	map_mem(vram, 0);
	free_mem(vram);
	rt.mode_mask = 0;
	ioctl(kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &rt);
	if ((int)smi.anon_fd >= 0)
		close((int)smi.anon_fd);
}

/*
 * ROCm IPC within one process: export a VRAM BO, import it back by its
 * share handle (random bytes on the rocm kernel flavour).
 */
static void
ipc(void)
{
	struct kfd_abi_ipc_export_handle_args ex = { .gpu_id = gpu };
	struct kfd_abi_ipc_import_handle_args im = { .gpu_id = gpu };
	uint64_t h = alloc_mem(va_take(1u << 20), 1u << 20,
			       KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			       KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0, NULL, 0);

	ex.handle = h;
	if (xioctl(kfd, KFD_ABI_IOC_IPC_EXPORT_HANDLE, &ex, "IPC_EXPORT", 0) < 0)
		return;
	im.va_addr = va_take(1u << 20);
	memcpy(im.share_handle, ex.share_handle, sizeof(im.share_handle));
	if (xioctl(kfd, KFD_ABI_IOC_IPC_IMPORT_HANDLE, &im, "IPC_IMPORT", 0) == 0)
		free_mem(im.handle);
	free_mem(h);
}

static void
enomem(void)
{
	uint64_t h = alloc_mem(va_take(64u << 20), 64u << 20,
			       KFD_ABI_ALLOC_MEM_FLAGS_VRAM, 0, NULL, 0);

	alloc_mem(va_take(128u << 20), 1ull << 30, KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
		  0, NULL, -ENOMEM);
	if (h)
		free_mem(h);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "full";

	if (open_device() < 0) {
		fprintf(stderr, "rp_workload: no KFD device: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "full")) {
		full();
	} else if (!strcmp(mode, "enomem")) {
		enomem();
	} else if (!strcmp(mode, "badqueue")) {
		queue(1, 1);
	} else if (!strcmp(mode, "external")) {
		external();
	} else if (!strcmp(mode, "ipc")) {
		ipc();
	} else {
		fprintf(stderr, "rp_workload: unknown mode %s\n", mode);
		return 2;
	}
	close(drm);
	close(kfd);
	return 0;
}
